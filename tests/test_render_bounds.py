"""`render` draws every label as typed and keeps to bounded memory, or refuses up front.

Labels: ids, titles and file names holding mathtext (``$x^2$``, an unbalanced ``$``,
``\\frac{``) are drawn as the characters they are, in every picture the plots package
makes. Size: a given ``--size`` and the default are held to 100-20000 px each way and
40,000,000 px in all; a larger one is refused before the scene is read. The memory
tests run the command in a child process whose address space is capped at 1 GiB.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from common import ROOT, json_scene_file, run

from tabletop.geom.areas import PlayArea, play_area
from tabletop.geom.errors import InvalidInputError
from tabletop.geom.rulesets import get_ruleset
from tabletop.obstacles.scene import Scene
from tabletop.plots.picture import (
    LARGEST_PX,
    MOST_DRAWN_OBJECTS,
    MOST_PIXELS,
    check_drawable,
    check_size,
    default_size,
)
from tabletop.plots.style import RC_PARAMS

MATH_IDS = ("$x^2$", "b_$\\frac{", "$^_$", "a$b")


def _math_scene(tmp_path: Path) -> str:
    ships = [
        {"id": ident, "base": "small", "at": [100.0 + 150.0 * i, 300.0], "heading": 90.0}
        for i, ident in enumerate(MATH_IDS)
    ]
    obstacle = {"id": "rock_$^$", "token": "coreasteroid1", "at": [450.0, 600.0]}
    data = {"ruleset": "xwing2", "area": "3x3ft", "ships": ships, "obstacles": [obstacle]}
    return json_scene_file(tmp_path, data, name="scene_$x^2$.json")


def test_rc_params_turn_mathtext_off() -> None:
    assert RC_PARAMS["text.parse_math"] is False


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_mathtext_ids_titles_and_file_names_render_as_typed(tmp_path: Path, suffix: str) -> None:
    scene = _math_scene(tmp_path)
    out = tmp_path / f"out_$a^b${suffix}"
    code, _, err = run(
        "render", scene, "-o", out, "--measure", MATH_IDS[0], MATH_IDS[1], "--title", "$\\sqrt{"
    )
    assert (code, err) == (0, ""), err
    assert out.exists()
    if suffix == ".svg":
        text = out.read_text(encoding="utf-8")
        # svg.fonttype "none" keeps text as text: each id is there, character for character.
        for ident in (*MATH_IDS[:1], "a$b", "rock_$^$", "$\\sqrt{"):
            assert ident.replace("&", "&amp;") in text


def test_a_title_of_mathtext_alone_renders(tmp_path: Path) -> None:
    scene = _math_scene(tmp_path)
    code, _, err = run("render", scene, "-o", tmp_path / "t.png", "--title", "$", "--no-check")
    assert (code, err) == (0, "")


def test_event_and_board_pictures_draw_plain_text() -> None:
    """The other picture makers draw their text through the same settings and sweep."""
    for module in ("bracket", "dogfight", "pocket"):
        source = (ROOT / "tabletop" / "plots" / f"{module}.py").read_text(encoding="utf-8")
        assert "RC_PARAMS" in source
        assert "picture_bytes(fig" in source  # which runs plain_text(fig) first


def test_plain_text_sweeps_text_made_with_mathtext_on() -> None:
    """Text made under other settings is drawn as typed once the sweep has run."""
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from tabletop.plots.style import plain_text

    fig = Figure()
    FigureCanvasAgg(fig)
    fig.text(0.1, 0.5, "$\\frac{", parse_math=True)
    fig.add_subplot().set_title("a_$b^$")
    with pytest.raises(ValueError, match=r"frac|Expected"):
        fig.savefig(io.BytesIO(), format="svg")
    plain_text(fig)
    fig.savefig(io.BytesIO(), format="svg")


# -- sizes: at the bound, and either side ----------------------------------------------


def test_size_at_the_bounds_is_accepted() -> None:
    check_size((LARGEST_PX, MOST_PIXELS // LARGEST_PX), 10.0)
    check_size((100, 100), 1200.0)


@pytest.mark.parametrize(
    "size",
    [
        (LARGEST_PX, MOST_PIXELS // LARGEST_PX + 1),  # one row over the pixel budget
        (LARGEST_PX + 1, 100),  # one pixel too wide
        (99, 100),  # one pixel too narrow
        (20000, 20000),
    ],
)
def test_size_past_the_bounds_is_refused(size: tuple[int, int]) -> None:
    with pytest.raises(InvalidInputError, match="picture size"):
        check_size(size, 100.0)


def test_default_size_is_bounded_like_a_given_one() -> None:
    xw = get_ruleset("xwing2")
    # 1000 m by 1 mm: the widest picture allowed, the table to scale inside it.
    assert default_size(Scene(xw, PlayArea(1_000_000.0, 1.0))) == (LARGEST_PX, 1000)
    for dpi in (10.0, 100.0, 600.0, 1200.0):
        for area in (play_area("3x3ft"), PlayArea(1_000_000.0, 1.0), PlayArea(1.0, 1_000_000.0)):
            w, h = default_size(Scene(xw, area), dpi)
            assert 100 <= w <= LARGEST_PX
            assert 100 <= h <= LARGEST_PX
            assert w * h <= MOST_PIXELS
    # Under the budget the default is unchanged: 1000 px high at 100 dpi.
    assert default_size(Scene(xw, play_area("3x3ft")), 100.0)[1] == 1000


def test_too_many_objects_are_refused_before_drawing(tmp_path: Path) -> None:
    def scene_of(n: int) -> str:
        ships = [
            {
                "id": f"s{i}",
                "base": "small",
                "at": [30.0 + 45.0 * (i % 19), 30.0 + 45.0 * (i // 19)],
            }
            for i in range(n)
        ]
        data = {"ruleset": "xwing2", "area": {"width": 900.0, "height": 1200.0}, "ships": ships}
        return json_scene_file(tmp_path, data, name=f"s{n}.json")

    from tabletop.app.scene.scenefile import load_scene

    check_drawable(load_scene(scene_of(MOST_DRAWN_OBJECTS)))
    code, out, _ = run(
        "render", scene_of(MOST_DRAWN_OBJECTS + 1), "-o", tmp_path / "x.png", "--json"
    )
    assert code == 2
    assert "the scene has 201 objects: a picture draws at most 200" in out
    assert not (tmp_path / "x.png").exists()


# -- under a memory cap ----------------------------------------------------------------

_CAP_BYTES = 1 << 30


def _capped(*argv: str | Path) -> subprocess.CompletedProcess[str]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (_CAP_BYTES, _CAP_BYTES))

    return subprocess.run(
        [sys.executable, "-m", "tabletop", *(str(a) for a in argv)],
        preexec_fn=cap,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def _far_scene(tmp_path: Path) -> str:
    ships = [
        {"id": "far", "base": "small", "at": [1.0e6, 1.0e6], "heading": 90.0},
        {"id": "near", "base": "large", "at": [-1.0e6, -1.0e6]},
    ]
    return json_scene_file(tmp_path, {"ruleset": "xwing2", "area": "3x3ft", "ships": ships})


def test_largest_size_and_far_objects_render_under_a_1_gib_cap(tmp_path: Path) -> None:
    scene = _far_scene(tmp_path)
    size = f"{LARGEST_PX}x{MOST_PIXELS // LARGEST_PX}"
    done = _capped("render", scene, "-o", tmp_path / "big.png", "--dpi", "10", "--size", size)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "MemoryError" not in done.stderr
    assert f"{LARGEST_PX} x {MOST_PIXELS // LARGEST_PX} px" in done.stdout


def test_the_41_byte_wide_table_renders_under_a_1_gib_cap(tmp_path: Path) -> None:
    scene = tmp_path / "wide.json"
    scene.write_text(json.dumps({"area": {"width": 1000000, "height": 1}}), encoding="utf-8")
    done = _capped("render", scene, "-o", tmp_path / "wide.png", "--dpi", "1200")
    assert done.returncode == 0, done.stderr
    assert "MemoryError" not in done.stderr


def test_an_oversized_picture_is_refused_under_the_cap_before_drawing(tmp_path: Path) -> None:
    scene = _far_scene(tmp_path)
    done = _capped("render", scene, "-o", tmp_path / "no.png", "--size", "20000x20000")
    assert done.returncode == 2
    assert "400,000,000 pixels: expected at most 40,000,000" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "no.png").exists()
