"""``event``, ``pocket`` and ``dogfight`` actions are sub-commands, each with its own options.

``tabletop COMMAND ACTION --help`` (and ``tabletop help COMMAND ACTION``) prints that
action's help alone; an option of another action is a usage error (exit 2) naming the
action it goes with, on stderr, and with ``--json`` as the error object on stdout; an
option unknown to every action is refused as argparse refuses it. Options still come
anywhere after the command, before the action too.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tabletop.app import cli

ROOT = Path(__file__).resolve().parents[1]
EVENT = str(ROOT / "examples" / "events" / "armada-store-championship.toml")
BATTLE = str(ROOT / "examples" / "pocket" / "battle-60.toml")
GAME = str(ROOT / "examples" / "dogfight" / "standard.toml")

#: Each action's options (long forms): what its help lists, and nothing else.
OPTIONS = {
    ("event", "new"): {"--json", "--output", "--force", "--game", "--regulation", "--players",
                       "--name", "--seed", "--tier", "--structure", "--swiss-rounds", "--cut",
                       "--playoff-games", "--round-minutes"},
    ("event", "pair"): {"--json", "--output", "--force"},
    ("event", "result"): {"--json", "--output", "--force", "--scores", "--second", "--winner",
                          "--games", "--concession", "--by-time", "--tp", "--replace",
                          "--score", "--clear", "--override-tp", "--defeated"},
    ("event", "drop"): {"--json", "--output", "--force", "--after"},
    ("event", "return"): {"--json", "--output", "--force"},
    ("event", "unpair"): {"--json", "--output", "--force"},
    ("event", "standings"): {"--json", "--round", "--final", "--top"},
    ("event", "add"): {"--json", "--output", "--force", "--name", "--faction", "--club"},
    ("event", "pending"): {"--json"},
    ("event", "announce"): {"--json"},
    ("event", "export"): {"--json", "--output", "--force", "--format", "--table"},
    ("event", "print"): {"--json", "--output", "--force", "--what"},
    ("event", "check"): {"--json"},
    ("event", "render"): {"--json", "--output", "--force"},
    ("pocket", "check"): {"--json"},
    ("pocket", "actions"): {"--json"},
    ("pocket", "replay"): {"--json"},
    ("pocket", "play"): {"--json", "--seed", "--games", "--policy", "--policy2", "--output",
                         "--progress", "--force", "--jobs", "--scheduler"},
    ("pocket", "render"): {"--json", "--output", "--force"},
    ("pocket", "push"): {"--json", "--bot"},
    ("pocket", "pop"): {"--json", "--player"},
    ("dogfight", "check"): {"--json"},
    ("dogfight", "moves"): {"--json", "--depth"},
    ("dogfight", "replay"): {"--json", "--upto"},
    ("dogfight", "play"): {"--json", "--games", "--seed", "--policy", "--rebels", "--empire",
                           "--progress", "--output", "--force", "--jobs", "--scheduler"},
    ("dogfight", "render"): {"--json", "--output", "--force", "--fighter"},
    ("dogfight", "push"): {"--json", "--bot", "--show-hands"},
    ("dogfight", "pop"): {"--json", "--side", "--show-hands"},
}  # fmt: skip
ALL_OPTIONS = set().union(*OPTIONS.values())


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(argv), out, err)
    assert "Traceback" not in err.getvalue() + out.getvalue()
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(("command", "action"), sorted(OPTIONS))
def test_action_help_is_the_actions_own(command: str, action: str) -> None:
    code, out, err = run(command, action, "--help")
    assert (code, err) == (0, "")
    assert out.startswith(f"usage: tabletop {command} {action} ")
    listed = {word.rstrip(",.") for word in out.split() if word.startswith("--")}
    assert listed - {"--help"} == OPTIONS[command, action]
    assert run("help", command, action) == (0, out, "")
    assert run(command, "-h", action) == (0, out, "")  # -h before the action too


def test_event_pair_help_prints_only_pairs_options() -> None:
    code, out, _ = run("event", "pair", "--help")
    assert code == 0
    assert (
        out.splitlines()[0]
        == "usage: tabletop event pair [-h] [--json] [-o OUTPUT] [--force] EVENT"
    )
    for foreign in ("--scores", "--game", "--round", "--after", "--tier"):
        assert foreign not in out


@pytest.mark.parametrize("command", ["event", "pocket", "dogfight"])
def test_the_command_help_lists_its_actions(command: str) -> None:
    code, out, _ = run(command, "--help")
    assert code == 0
    assert out.startswith(f"usage: tabletop {command} [-h] [--json] ACTION ...")
    for (name, action), _options in OPTIONS.items():
        if name == command:
            assert f"\n    {action}" in out
    assert run("help", command) == (0, out, "")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("event", "standings", EVENT, "--scores", "1", "2"), "--scores goes with event result, not standings"),
        (("event", "check", EVENT, "-o", "x.toml"), "-o goes with event new or pair or result or drop or return or unpair or render or add or export or print, not check"),
        (("event", "pair", EVENT, "--round", "1"), "--round goes with event standings, not pair"),
        (("event", "new", "--after", "2", "-o", "x.toml"), "--after goes with event drop, not new"),
        (("pocket", "check", BATTLE, "--games", "5"), "--games goes with pocket play, not check"),
        (("pocket", "replay", BATTLE, "--output=x.png"), "--output goes with pocket play or render, not replay"),
        (("dogfight", "check", GAME, "--depth", "2"), "--depth goes with dogfight moves, not check"),
        (("dogfight", "moves", GAME, "--fighter", "a1"), "--fighter goes with dogfight render, not moves"),
        (("dogfight", "--games", "3", "replay", GAME), "--games goes with dogfight play, not replay"),
    ],
)  # fmt: skip
def test_an_option_of_another_action_is_a_usage_error(argv: tuple[str, ...], said: str) -> None:
    code, out, err = run(*argv)
    assert (code, out) == (2, "")
    command, action = argv[0], next(w for w in argv[1:] if (argv[0], w) in OPTIONS)
    assert err.startswith(f"tabletop {command}: error: {said}\nusage: tabletop {command} {action} ")
    code, out, err_json = run(*argv, "--json")
    assert code == 2
    error = json.loads(out)["error"]
    assert error["message"].splitlines()[0] == said
    assert error["where"] is None
    assert err_json == err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("event", "pair", EVENT, "--shuffle"), "unrecognized arguments: --shuffle"),
        (("event", "pair"), "the following arguments are required: EVENT"),
        (("event", "result", EVENT, "1"), "the following arguments are required: TABLE"),
        (("event", "drop", EVENT, "p1", "p2"), "unrecognized arguments: p2"),
        (("event",), "the following arguments are required: ACTION"),
        (("event", "--json"), "the following arguments are required: ACTION"),
        (("event", "frob", EVENT), "argument ACTION: invalid choice: 'frob'"),
        (("pocket", "check"), "the following arguments are required: FILE"),
        (("dogfight", "play", "x.toml"), "unrecognized arguments: x.toml"),
        (("dogfight", "fly"), "argument ACTION: invalid choice: 'fly'"),
    ],
)
def test_other_bad_command_lines_are_usage_errors(argv: tuple[str, ...], said: str) -> None:
    code, out, err = run(*argv)
    assert code == 2
    assert err.startswith(f"tabletop {argv[0]}: error: {said}")
    if "--json" in argv:
        assert json.loads(out)["error"]["message"].startswith(said)
    else:
        assert out == ""


def test_options_still_come_anywhere_after_the_command() -> None:
    first = run("pocket", "--json", "check", BATTLE)
    assert first[0] == 0
    assert json.loads(first[1])["legal"] is True
    assert run("pocket", "check", "--json", BATTLE) == first
    assert run("pocket", "check", BATTLE, "--json") == first
    code, out, _ = run("event", "--round", "1", "standings", "--json", EVENT)
    assert code == 0
    assert json.loads(out)["round"] == 1


def test_words_after_a_double_dash_are_operands(tmp_path: Path) -> None:
    odd = tmp_path / "--weird.toml"
    odd.write_bytes(Path(GAME).read_bytes())
    code, out, err = run("dogfight", "check", "--json", "--", str(odd))
    assert code == 0, err
    assert json.loads(out)["legal"] is True
