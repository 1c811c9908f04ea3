"""`tabletop dogfight render`: the picture files, and what a fighter's reach marks."""

from __future__ import annotations

import io
from pathlib import Path

from tabletop.app.cli import main
from tabletop.app.dogfight.gamefile import load_game_file
from tabletop.boards.dogfight import Dogfight, parse_square
from tabletop.boards.dogfight.diagram import fighter_reach

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "dogfight"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["dogfight", *argv], out, err)
    return code, out.getvalue(), err.getvalue()


def names(squares: tuple[int, ...]) -> set[str]:
    return {"abcdefgh"[s % 8] + str(s // 8 + 1) for s in squares}


def test_the_reach_of_the_mid_game_x_wing() -> None:
    game = Dogfight()
    position = load_game_file(EXAMPLES / "midgame.toml").final(game)
    reach = fighter_reach(game, position, parse_square("d4"))
    # Range 4 from d4: north to the TIE on d7, north-west to the TIE on b6; own fighters
    # first on e5, c3 and f2 (the B-Wing is 2 away on the e3-f2 diagonal).
    assert names(reach.targets) == {"d7", "b6"}
    assert names(reach.blockers) == {"e5", "c3", "f2"}
    assert names(reach.blocked) == {"d8", "a7", "f6", "g7", "h8", "b2", "a1", "g1"}
    # Move 5 along the lines, stopping before any fighter.
    assert names(reach.moves) == {
        "d5", "d6", "d3", "d2", "d1", "a4", "b4", "c4", "e4", "f4", "g4", "h4", "c5", "e3",
    }  # fmt: skip
    assert reach.jumps == ()


def test_render_writes_png_and_svg(tmp_path: Path) -> None:
    png, svg = tmp_path / "m.png", tmp_path / "m.svg"
    code, out, _ = run("render", str(EXAMPLES / "midgame.toml"), "-o", str(png), "--fighter", "d4")
    assert code == 0
    assert out == f"wrote {png} (png, 900 x 640 px)\n"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert run("render", str(EXAMPLES / "game.toml"), "-o", str(svg))[0] == 0
    first = svg.read_text()
    assert run("render", str(EXAMPLES / "game.toml"), "-o", str(svg), "--force")[0] == 0
    assert svg.read_text() == first  # the same position gives the same SVG text


def test_render_refuses_bad_options(tmp_path: Path) -> None:
    game = str(EXAMPLES / "midgame.toml")
    for argv in (
        ("render", game, "-o", str(tmp_path / "m.gif")),
        ("render", game),
        ("render", game, "-o", str(tmp_path / "m.png"), "--fighter", "z9"),
        ("render", game, "-o", str(tmp_path / "m.png"), "--fighter", "a8"),
    ):
        code, _, err = run(*argv)
        assert code == 2
        assert "Traceback" not in err
