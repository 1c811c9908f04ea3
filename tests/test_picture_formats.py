"""One table of picture formats: every render writes PNG, SVG and PDF, and refuses the rest alike.

The four drawing commands (``render``, ``event render``, ``pocket render`` and
``dogfight render``) take the formats of :data:`tabletop.plots.PICTURE_FORMATS` by the
output's suffix and refuse any other suffix with one message (exit 2, nothing written).
The plots package returns the picture's bytes and writes no file; the commands write it.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from tabletop.app.cli import main
from tabletop.app.dogfight.gamefile import load_game_file
from tabletop.app.event.eventfile import load_event
from tabletop.app.pocket.battlefile import load_battle, replay_battle
from tabletop.boards.dogfight import Dogfight
from tabletop.plots import PICTURE_FORMATS
from tabletop.plots.bracket import event_picture
from tabletop.plots.dogfight import render_position
from tabletop.plots.formats import PICTURE_OUTPUTS, PICTURE_SUFFIXES
from tabletop.plots.pocket import render_battle

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SCENE = str(EXAMPLES / "xwing-tournament.toml")
EVENT = str(EXAMPLES / "events" / "armada-store-championship.toml")
BATTLE = str(EXAMPLES / "pocket" / "battle-60.toml")
GAME = str(EXAMPLES / "dogfight" / "midgame.toml")

#: Each drawing command, before its ``-o OUT``.
RENDERS = {
    "scene": ["render", SCENE],
    "event": ["event", "render", EVENT],
    "pocket": ["pocket", "render", BATTLE],
    "dogfight": ["dogfight", "render", GAME],
}
#: How each format's file begins.
MAGIC = {"png": b"\x89PNG\r\n\x1a\n", "svg": b"<?xml", "pdf": b"%PDF-"}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    assert "Traceback" not in err.getvalue() + out.getvalue()
    return code, out.getvalue(), err.getvalue()


def test_the_table_is_png_svg_and_pdf() -> None:
    assert {suffix: f.name for suffix, f in PICTURE_FORMATS.items()} == {
        ".png": "png",
        ".svg": "svg",
        ".pdf": "pdf",
    }


def test_importing_the_table_does_not_import_matplotlib() -> None:
    code = (
        "import sys\n"
        "from tabletop.plots.formats import PICTURE_FORMATS, PICTURE_SUFFIXES\n"
        "import tabletop.app.scene.render, tabletop.app.event.command\n"
        "import tabletop.app.pocket.command, tabletop.app.dogfight.command\n"
        "print(PICTURE_SUFFIXES, 'matplotlib' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout == ".png, .svg or .pdf False\n"


@pytest.mark.parametrize("command", sorted(RENDERS))
def test_every_render_help_names_the_formats_of_the_table(command: str) -> None:
    code, stdout, _ = run(*RENDERS[command][:-1], "--help")
    assert code == 0
    assert PICTURE_SUFFIXES == ".png, .svg or .pdf"
    assert f"write: {PICTURE_SUFFIXES}" in " ".join(stdout.split())


def test_no_command_spells_the_formats_out_itself() -> None:
    # The list of formats comes from the table alone: a new row shows in every message.
    spelled = [".png, .svg", "OUT.png", "png|svg", "PNG, SVG"]
    for path in sorted((ROOT / "tabletop" / "app").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not [s for s in spelled if s in text], path
    assert PICTURE_OUTPUTS == "OUT.png, OUT.svg or OUT.pdf"


@pytest.mark.parametrize("fmt", ["png", "svg", "pdf"])
@pytest.mark.parametrize("command", sorted(RENDERS))
def test_every_render_writes_every_format(tmp_path: Path, command: str, fmt: str) -> None:
    out = tmp_path / f"picture.{fmt}"
    code, stdout, err = run(*RENDERS[command], "-o", str(out), "--json")
    assert code == 0, err
    answer = json.loads(stdout)
    assert (answer["output"], answer["format"]) == (str(out), fmt)
    data = out.read_bytes()
    assert data.startswith(MAGIC[fmt])
    if fmt == "svg":
        assert b"<svg" in data
    if fmt == "pdf":
        assert data.rstrip().endswith(b"%%EOF")
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temporary file left


@pytest.mark.parametrize("name", ["picture.jpg", "picture", "picture.PNG.txt"])
def test_every_render_refuses_another_suffix_with_one_message(tmp_path: Path, name: str) -> None:
    out = tmp_path / name
    suffix = repr(Path(name).suffix or "(no suffix)")
    said = (
        f"{out}: unknown picture format {suffix}: expected .png, .svg or .pdf "
        "(the suffix chooses the format)"
    )
    for command, argv in RENDERS.items():
        code, stdout, err = run(*argv, "-o", str(out))
        assert code == 2, command
        assert stdout == ""
        assert err.split(": error: ", 1)[1] == said + "\n", command
        code, stdout, _ = run(*argv, "-o", str(out), "--json")
        assert code == 2
        assert json.loads(stdout) == {
            "error": {"message": said.split(": ", 1)[1], "where": str(out)}
        }
        assert list(tmp_path.iterdir()) == []


def test_an_upper_case_suffix_is_its_format(tmp_path: Path) -> None:
    out = tmp_path / "standings.PDF"
    code, stdout, err = run("event", "render", EVENT, "-o", str(out), "--json")
    assert code == 0, err
    assert json.loads(stdout)["format"] == "pdf"
    assert out.read_bytes().startswith(MAGIC["pdf"])


@pytest.mark.parametrize("fmt", ["png", "svg", "pdf"])
def test_the_board_and_event_pictures_are_bytes_and_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    event = load_event(EVENT)
    game, state = replay_battle(load_battle(BATTLE))
    dogfight = Dogfight()
    position = load_game_file(GAME).final(dogfight)
    monkeypatch.chdir(tmp_path)
    pictures = [
        event_picture(event, fmt),
        render_battle(game, state, fmt),
        render_position(dogfight, position, fmt),
    ]
    assert all(p.startswith(MAGIC[fmt]) for p in pictures)
    assert list(tmp_path.iterdir()) == []
