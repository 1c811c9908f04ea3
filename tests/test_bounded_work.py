"""Documented bounds on work: perft counts, simulated games, Pocket trait and size."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

import tabletop.app.dogfight.command as cmd_dogfight
import tabletop.app.scene.report as cmd_report
from tabletop.app.cli import main
from tabletop.app.dogfight.gamefile import load_game_file
from tabletop.app.pocket.command import MAX_GAMES
from tabletop.boards.dogfight import Dogfight
from tabletop.boards.errors import WorkLimitError
from tabletop.plots.style import MOST_DRAWN_CHARS, drawn_text, plain_text

ROOT = Path(__file__).resolve().parents[1]
STANDARD = ROOT / "examples" / "dogfight" / "standard.toml"
BATTLE = ROOT / "examples" / "pocket" / "battle-60.toml"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_a_perft_bound_is_the_positions_expanded_at_the_line() -> None:
    game = Dogfight()
    position = load_game_file(STANDARD).final(game)
    counts = [game.perft(position, d) for d in range(5)]
    # A count to depth 4 expands every position less than 4 plies deep: 1 + 24 + 24 + 2496.
    expanded = sum(counts[:4])
    assert expanded == 2545
    assert game.perft(position, 4, most_positions=expanded) == counts[4] == 3872
    with pytest.raises(WorkLimitError) as caught:
        game.perft(position, 4, most_positions=expanded - 1)
    assert (caught.value.done, caught.value.limit) == (expanded - 1, expanded - 1)


def test_moves_depth_over_the_bound_is_exit_2_saying_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cmd_dogfight, "MAX_PERFT_POSITIONS", 2544)
    code, out, err = run("dogfight", "moves", str(STANDARD), "--depth", "4")
    assert (code, out) == (2, "")
    assert (
        "--depth 4: perft 4 from this position needs more than 2544 positions expanded, "
        "the most one count may take; count a smaller depth" in err
    )
    monkeypatch.setattr(cmd_dogfight, "MAX_PERFT_POSITIONS", 2545)
    assert run("dogfight", "moves", str(STANDARD), "--depth", "4", "--json") == (
        0,
        '{"depth": 4, "nodes": 3872}\n',
        "",
    )


def test_the_standard_depth_8_count_fits_the_bound() -> None:
    # Measured: depth 8 from the standard setup expands 157,032 positions.
    assert cmd_dogfight.MAX_PERFT_POSITIONS >= 157_032


@pytest.mark.parametrize(
    "argv",
    [
        ["dogfight", "play", "--games", "20001"],
        ["dogfight", "play", "--games", "0"],
        ["pocket", "play", str(BATTLE), "--games", str(MAX_GAMES + 1)],
        ["pocket", "play", str(BATTLE), "--games", str(10**9)],
    ],
)
def test_games_over_the_bound_are_refused_at_once(argv: list[str]) -> None:
    code, out, err = run(*argv)
    assert (code, out) == (2, "")
    assert "expected 1 to 20000" in err


def _ships_scene(folder: Path, count: int, first_id: str = "s0") -> Path:
    ships = [
        {
            "id": first_id if k == 0 else f"s{k}",
            "base": "small",
            "at": [60 + (k % 10) * 60, 60 + (k // 10) * 60],
            "player": 1 + k % 2,
        }
        for k in range(count)
    ]
    path = folder / "scene.json"
    path.write_text(json.dumps({"ships": ships}))
    return path


def test_report_measures_at_most_the_documented_ships(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cmd_report, "MOST_REPORTED_SHIPS", 3)
    assert run("report", str(_ships_scene(tmp_path, 3)))[0] == 0
    code, out, err = run("report", str(_ships_scene(tmp_path, 4)))
    assert (code, out) == (2, "")
    assert "the scene has 4 ships, 6 pairs: a report measures at most 3 ships (3 pairs)" in err


def test_the_report_bound_is_a_thousand_ships() -> None:
    assert cmd_report.MOST_REPORTED_SHIPS == 1000


def test_a_huge_text_is_drawn_cut_line_by_line() -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure()
    label = fig.text(0.5, 0.5, "x" * 1_000_000 + "\nshort")
    plain_text(fig)
    head, tail = label.get_text().split("\n")
    assert len(head) == MOST_DRAWN_CHARS
    assert "…[1000000 characters]…" in head
    assert tail == "short"
    assert drawn_text("y" * MOST_DRAWN_CHARS) == "y" * MOST_DRAWN_CHARS


def test_render_of_a_1_mb_id_and_a_100000_character_title_is_quick(tmp_path: Path) -> None:
    scene = _ships_scene(tmp_path, 2, first_id="i" * 1_000_000)
    started = time.monotonic()
    code, _, err = run(
        "render", str(scene), "-o", str(tmp_path / "a.png"), "--title", "T" * 100_000
    )
    assert code == 0, err
    # Unbounded, each of the 1,100,000 glyphs was rendered: over 100 s.
    assert time.monotonic() - started < 60
