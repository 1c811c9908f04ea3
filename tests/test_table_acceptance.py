"""Two whole games played at the table with ``push`` only, then replayed to the same end.

Dogfight with a physical deck: 8 cards left in the deck, so the third turn's draws run
through a reshuffle of the discard; the fighters are close and each side has 4 kills, so
the first shot taken ends the game. Pocket Battles: the example battle from its start to
its winner. Every play comes from the legal plays the last ``push`` reported (``moves``
and ``actions`` at the start), chosen by a seeded stream; ``replay`` of the file then
gives the state the last ``push`` reported. An illegal ``push`` midway leaves the file
byte for byte as it was.
"""

from __future__ import annotations

import io
import json
import random
import shutil
from pathlib import Path
from typing import Any

from tabletop.app.cli import main
from tabletop.app.dogfight.gamefile import load_game_file
from tabletop.boards.dogfight import Dogfight

ROOT = Path(__file__).resolve().parents[1]
#: Every card but these 8 is in the discard: the deck holds them alone.
DECK_LEFT = ["Loop", "Maneuver", "Evasion", "Tactics", "Blasters", "Attack Run", "Dive", "Evasion"]
COPIES = {
    "Maneuver": 5, "Loop": 5, "Break Away": 5, "Pursuit": 4, "Dive": 3, "Afterburners": 2,
    "Blasters": 5, "Attack Run": 5, "Targeters": 5, "Fire-Linked": 5, "Evasion": 4,
    "Deflector Shields": 2, "Ion Thrusters": 2, "Laser Cannons": 4, "Agility": 2,
    "Ion Cannons": 2, "Laser Turret": 2, "Tight Turns": 4, "Tactics": 2,
}  # fmt: skip
MOST_PUSHES = 3000


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def cli_json(*argv: str) -> dict[str, Any]:
    code, out, err = cli(*argv, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def physical_game(tmp_path: Path) -> Path:
    left = dict(COPIES)
    for name in DECK_LEFT:
        left[name] -= 1
    discard = [name for name, count in left.items() for _ in range(count)]
    assert len(discard) + len(DECK_LEFT) == 68
    path = tmp_path / "real.toml"
    path.write_text(
        'game = "dogfight"\ndeck = "physical"\nkills = { rebels = 4, empire = 4 }\n\n'
        '[fighters.rebels]\nd4 = "X-Wing"\ne4 = "Y-Wing"\n\n'
        '[fighters.empire]\nd6 = "TIE Fighter"\ne7 = "TIE Interceptor"\n\n'
        "[cards]\ndiscard = [" + ", ".join(f'"{n}"' for n in discard) + "]\n",
        encoding="utf-8",
    )
    return path


def dogfight_choice(legal: list[str], reshuffled: bool, rng: random.Random) -> str:
    """Pass until the reshuffle, then shoot and take what comes; draws at random."""
    if legal[0].startswith("draw "):
        return rng.choice(legal)
    if not reshuffled:
        quiet = [p for p in legal if p == "pass" or p.startswith("discard")]
        return rng.choice(quiet) if quiet else rng.choice(legal)
    for word in ("fire", "take", "move"):
        wanted = [p for p in legal if p.startswith(word)]
        if wanted:
            return rng.choice(wanted)
    return rng.choice(legal)


def test_a_physical_dogfight_game_through_a_reshuffle_pushed_and_replayed(
    tmp_path: Path,
) -> None:
    path = physical_game(tmp_path)
    rng = random.Random(7)
    start = cli_json("dogfight", "moves", str(path))
    report: dict[str, Any] = {
        "legal": start["plays"],
        "winner": None,
        "cards": {"deck": len(DECK_LEFT)},
    }
    reshuffles = pushes = 0
    while report["winner"] is None:
        assert pushes < MOST_PUSHES
        play = dogfight_choice(report["legal"], reshuffles > 0, rng)
        if play.startswith("draw ") and not report["cards"]["deck"]:
            reshuffles += 1
        if pushes == 5:  # an illegal push midway changes nothing
            before = path.read_bytes()
            code, _, err = cli("dogfight", "push", str(path), "move a1 a2 Afterburners")
            assert code == 2
            assert "the file is unchanged" in err
            assert path.read_bytes() == before
        report = cli_json("dogfight", "push", str(path), play)
        pushes += 1
    assert reshuffles >= 1
    print(f"dogfight: {pushes} pushes, {reshuffles} reshuffle(s), {report['winner']}")
    assert report["plays"] == pushes
    assert report["legal"] == []
    replayed = cli_json("dogfight", "replay", str(path))
    assert replayed == {key: report[key] for key in replayed}
    final = load_game_file(path).final(Dogfight())
    cards = Dogfight().describe(final)["cards"]
    assert isinstance(cards, dict)
    assert {**cards, "deck": len(cards["deck"])} == report["cards"]
    assert report["winner"] in ("rebels", "empire", "draw")
    kills = report["kills"]
    if report["winner"] != "draw":
        assert kills[report["winner"]] == 5
    # Every card is somewhere: hands, deck and discard hold the 68.
    total = sum(len(report["cards"][k]) for k in ("rebels", "empire", "discard"))
    assert total + report["cards"]["deck"] == 68


def test_a_pocket_battle_pushed_to_its_end_and_replayed(tmp_path: Path) -> None:
    path = tmp_path / "battle.toml"
    shutil.copyfile(ROOT / "examples" / "pocket" / "battle-60.toml", path)
    rng = random.Random(3)
    report = cli_json("pocket", "actions", str(path))
    decision: dict[str, Any] = report
    winner = None
    pushes = 0
    while winner is None:
        assert pushes < MOST_PUSHES
        legal = [p["play"] for p in decision["plays"]]
        if decision["decision"] == "roll":
            play = "roll " + " ".join(str(rng.randint(1, 6)) for _ in range(decision["dice"]))
        else:
            play = rng.choice(legal)
        if pushes == 9:
            before = path.read_bytes()
            code, _, err = cli("pocket", "push", str(path), "order nobody charge")
            assert code == 2
            assert "the file is unchanged" in err
            assert path.read_bytes() == before
        pushed = cli_json("pocket", "push", str(path), play)
        pushes += 1
        winner, decision = pushed["winner"], pushed["decision"]
    assert pushed["plays"] == pushes
    print(f"pocket: {pushes} pushes, won by player {winner} in round {pushed['round']}")
    replayed = cli_json("pocket", "replay", str(path))
    assert replayed == {
        "winner": winner,
        "round": pushed["round"],
        "destroyed": pushed["destroyed"],
    }
    assert winner in (1, 2)
    assert decision["plays"] == []
