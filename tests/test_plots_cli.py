"""``tabletop render``: formats, refusals, exit codes, moves; and that ``check`` and
``measure`` never import matplotlib."""

from __future__ import annotations

import doctest
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from common import run
from matplotlib.image import imread

ROOT = Path(__file__).resolve().parents[1]
XWING = str(ROOT / "examples" / "xwing-tournament.toml")
ARMADA = str(ROOT / "examples" / "armada-standard.toml")


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf", ".PNG"])
def test_render_writes_each_format(tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"table{suffix}"
    code, stdout, stderr = run("render", XWING, "-o", str(out))
    assert code == 0, stderr
    assert out.exists()
    assert f"wrote {out}" in stdout
    head = out.read_bytes()[:5]
    expected = {".png": b"\x89PNG", ".svg": b"<?xml", ".pdf": b"%PDF"}[suffix.lower()]
    assert head.startswith(expected)


def test_render_size_option(tmp_path: Path) -> None:
    out = tmp_path / "table.png"
    code, _, stderr = run("render", ARMADA, "-o", str(out), "--size", "1200x700")
    assert code == 0, stderr
    assert imread(out).shape[:2] == (700, 1200)


def test_render_json_answer(tmp_path: Path) -> None:
    out = tmp_path / "table.svg"
    code, stdout, _ = run("render", XWING, "-o", str(out), "--json")
    assert code == 0
    answer = json.loads(stdout)
    assert answer["output"] == str(out)
    assert answer["format"] == "svg"
    assert answer["violations"] == 0
    assert len(answer["size"]) == 2


def test_render_unknown_suffix_is_bad_input(tmp_path: Path) -> None:
    out = tmp_path / "table.jpg"
    code, stdout, stderr = run("render", XWING, "-o", str(out))
    assert code == 2
    assert stdout == ""
    assert ".png, .svg or .pdf" in stderr
    assert "Traceback" not in stderr
    assert not out.exists()


def test_render_never_writes_over_the_scene(tmp_path: Path) -> None:
    scene = tmp_path / "scene.toml"
    text = Path(XWING).read_text("utf-8")
    scene.write_text(text, "utf-8")
    for target in (scene, tmp_path / "." / "scene.toml"):
        code, _, stderr = run("render", str(scene), "-o", str(target))
        assert code == 2
        assert "input scene" in stderr
    link = tmp_path / "link.svg"
    os.link(scene, link)
    code, _, stderr = run("render", str(link), "-o", str(scene))
    assert code == 2
    assert scene.read_text("utf-8") == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.svg", "scene.toml"]


def test_render_bad_input_exits_2(tmp_path: Path) -> None:
    out = str(tmp_path / "table.png")
    cases = [
        ("render", XWING, "-o", out, "--arc", "front"),
        ("render", XWING, "-o", out, "--measure", "wedge", "nobody"),
        ("render", XWING, "-o", out, "--measure", "wedge", "vader", "--arc", "sideways"),
        ("render", XWING, "-o", out, "--size", "huge"),
        ("render", XWING, "-o", out, "--size", "10x10"),
        ("render", XWING, "-o", out, "--dpi", "0"),
        ("render", XWING, "-o", out, "--dpi", "nan"),
        ("render", XWING, "-o", out, "--move", "wedge"),
        ("render", str(tmp_path / "missing.toml"), "-o", out),
        ("render", XWING, "-o", str(tmp_path / "no-folder" / "table.png")),
    ]
    for argv in cases:
        code, stdout, stderr = run(*argv)
        assert code == 2, argv
        assert stdout == ""
        assert "Traceback" not in stderr
        assert stderr.startswith("tabletop render: error:"), stderr
    assert list(tmp_path.iterdir()) == []


def test_render_a_measurement_shows_the_distance(tmp_path: Path) -> None:
    from tabletop.app.scene.scenefile import load_scene
    from tabletop.obstacles.measuring import measure

    out = tmp_path / "shot.svg"
    argv = ("render", XWING, "-o", str(out), "--measure", "wedge", "vader", "--arc", "front")
    code, _, stderr = run(*argv)
    assert code == 0, stderr
    m = measure(load_scene(XWING), "wedge", "vader", arc="front")
    svg = out.read_text("utf-8")
    assert f"{m.distance:.1f} mm" in svg
    assert 'id="measurement"' in svg


def test_render_an_armada_measurement(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    argv = ("render", ARMADA, "-o", str(out), "--measure", "victory", "cr90", "--arc", "front")
    code, _, stderr = run(*argv)
    assert code == 0, stderr


def test_render_a_move(tmp_path: Path) -> None:
    out = tmp_path / "move.svg"
    code, _, stderr = run(
        "render", XWING, "-o", str(out), "--move", "wedge", "bank", "2", "left", "--json"
    )
    assert code == 0, stderr
    svg = out.read_text("utf-8")
    assert 'id="wedge-template"' in svg
    assert 'id="wedge-start"' in svg
    assert 'id="wedge"' in svg
    assert "wedge: bank 2 left" in svg


def test_render_a_bump_marks_the_bump_point(tmp_path: Path) -> None:
    scene = tmp_path / "bump.toml"
    scene.write_text(
        'ruleset = "xwing2"\nphase = "play"\n'
        '[[ships]]\nid = "a"\nbase = "small"\nat = [300.0, 100.0]\n'
        '[[ships]]\nid = "b"\nbase = "small"\nat = [300.0, 250.0]\nheading = 270\nplayer = 2\n',
        "utf-8",
    )
    out = tmp_path / "bump.svg"
    code, _, stderr = run("render", str(scene), "-o", str(out), "--move", "a", "straight 3")
    assert code == 0, stderr
    svg = out.read_text("utf-8")
    assert 'id="a-bump"' in svg
    assert "bump: b" in svg


def test_render_moves_in_turn_then_measures(tmp_path: Path) -> None:
    out = tmp_path / "moves.png"
    code, _, stderr = run(
        "render",
        XWING,
        "-o",
        str(out),
        "--move",
        "wedge",
        "straight 2",
        "--move",
        "wedge",
        "straight",
        "1",
        "--measure",
        "wedge",
        "vader",
    )
    assert code == 0, stderr


def test_same_svg_from_two_processes(tmp_path: Path) -> None:
    texts = []
    for name in ("first.svg", "second.svg"):
        out = tmp_path / name
        argv = ["render", ARMADA, "-o", str(out), "--measure", "victory", "cr90", "--arc", "front"]
        done = subprocess.run(
            [sys.executable, "-m", "tabletop", *argv],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        texts.append(out.read_text("utf-8"))
    assert texts[0] == texts[1]


def test_check_and_measure_never_import_matplotlib() -> None:
    code = (
        "import sys\n"
        "from tabletop.app.cli import main\n"
        f"a = main(['check', {XWING!r}])\n"
        f"b = main(['measure', {XWING!r}, 'wedge', 'vader', '--arc', 'front'])\n"
        f"c = main(['check', {ARMADA!r}, '--json'])\n"
        "loaded = sorted(m for m in sys.modules\n"
        "                if m.split('.')[0] == 'matplotlib' or m.startswith('tabletop.plots'))\n"
        "print('RESULT', a, b, c, loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    result = done.stdout.strip().splitlines()[-1]
    assert result == "RESULT 0 0 0 []"


def test_importing_the_kernel_does_not_import_matplotlib() -> None:
    code = (
        "import sys\n"
        "import tabletop.geom, tabletop.obstacles.legality, tabletop.maneuvers, tabletop.app.cli\n"
        "print(any(m.split('.')[0] == 'matplotlib' for m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


@pytest.mark.parametrize(
    "name",
    ["tabletop.plots", "tabletop.plots.draw", "tabletop.plots.picture", "tabletop.plots.style"],
)
def test_docstring_examples(name: str) -> None:
    module: ModuleType = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
