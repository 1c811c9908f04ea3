"""Pictures: the drawing API, sizes, SVG contents, determinism and reference images.

The reference images in ``tests/baseline_images/`` are the two bundled examples drawn at
the default size. When a drawing change is intended, rebuild them with
``.venv/bin/python tests/test_plots.py --update-baselines`` and look at them before
committing.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import shapely
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.image import imread
from matplotlib.testing.compare import compare_images

from tabletop import plots
from tabletop.app.scene.scenefile import load_scene, parse_scene
from tabletop.geom.errors import InvalidInputError
from tabletop.obstacles.legality import check
from tabletop.obstacles.measuring import measure
from tabletop.obstacles.scene import Scene

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
BASELINES = Path(__file__).resolve().parent / "baseline_images"
EXAMPLE_NAMES = ("xwing-tournament", "armada-standard")
TOLERANCE_RMS = 3.0

#: An obstacle whose lowest point is 195.2 mm from player 1's edge (limit: more than 200).
NEAR_EDGE: dict[str, Any] = {
    "ruleset": "xwing2",
    "obstacles": [
        {
            "id": "rock-a",
            "outline": [[-20, -20], [20, -20], [20, 20], [-20, 20]],
            "kind": "asteroid",
            "at": [400.0, 215.2],
        },
        {"id": "gas-b", "token": "gascloud2", "at": [600.0, 600.0]},
    ],
    "ships": [
        {"id": "wedge", "base": "small", "at": [300.0, 40.0]},
        {"id": "vader", "base": "small", "at": [420.0, 870.0], "player": 2},
    ],
}


def example(name: str) -> Scene:
    return load_scene(EXAMPLES / f"{name}.toml")


def render_to(scene: Scene, path: Path, **options: Any) -> plots.RenderResult:
    """Draw in the format of `path`'s suffix and write the bytes there (plots writes none)."""
    result = plots.render(scene, plots.picture_format(path), **options)
    path.write_bytes(result.picture)
    return result


def render_example(name: str, path: Path, **options: Any) -> plots.RenderResult:
    return render_to(example(name), path, title=f"examples/{name}.toml", **options)


def axes() -> Axes:
    return Figure().add_subplot()


# -- the drawing API -------------------------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_draw_scene_returns_an_artist_per_object_with_its_id(name: str) -> None:
    scene = example(name)
    ax = axes()
    artists = plots.draw_scene(ax, scene)
    gids = {a.get_gid() for a in artists}
    assert set(scene.ids) <= gids
    assert {f"{i}-label" for i in scene.ids} <= gids
    assert all(a.axes is ax or a.figure is not None for a in artists)
    assert ax.get_aspect() == 1.0


def test_draw_scene_frames_the_table_in_millimetres() -> None:
    scene = example("armada-standard")
    ax = axes()
    plots.draw_scene(ax, scene, violations=False)
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    assert x0 < 0
    assert x1 > scene.area.width
    assert y0 < 0
    assert y1 > scene.area.height
    assert "mm" in ax.get_xlabel()
    assert "mm" in ax.get_ylabel()


def test_draw_scene_can_leave_a_ship_out() -> None:
    scene = example("xwing-tournament")
    artists = plots.draw_scene(axes(), scene, violations=False, exclude=["wedge"])
    gids = {a.get_gid() for a in artists}
    assert "wedge" not in gids
    assert "biggs" in gids


def test_draw_violations_numbers_each_violation() -> None:
    scene = parse_scene(NEAR_EDGE)
    report = check(scene)
    assert not report.legal
    artists = plots.draw_violations(axes(), scene, report)
    gids = {a.get_gid() for a in artists}
    for number in range(1, len(report.violations) + 1):
        assert f"violation-{number}" in gids
    edge = next(v for v in report.violations if v.rule == "obstacle-edge")
    label = plots.violation_label(1, edge)
    assert "195.2 mm" in label
    assert "limit 200.0" in label
    assert "margin -4.8" in label


def test_draw_measurement_draws_the_closest_points() -> None:
    scene = example("xwing-tournament")
    m = measure(scene, "wedge", "vader", arc="front")
    ax = axes()
    plots.draw_scene(ax, scene, violations=False)
    artists = plots.draw_measurement(ax, scene, m)
    line = next(a for a in artists if a.get_gid() == "measurement")
    xy = np.column_stack(line.get_data())  # type: ignore[attr-defined]
    assert np.allclose(xy, m.points)
    label = next(a for a in artists if a.get_gid() == "measurement-label")
    assert f"{m.distance:.1f} mm" in label.get_text()  # type: ignore[attr-defined]
    assert any(a.get_gid() == "wedge-front-arc" for a in artists)


def test_draw_measurement_hatches_the_obstacle_that_obstructs() -> None:
    scene = parse_scene(
        {
            "ruleset": "xwing2",
            "phase": "play",
            "obstacles": [{"id": "rock", "token": "coreasteroid0", "at": [300.0, 300.0]}],
            "ships": [
                {"id": "a", "base": "small", "at": [300.0, 150.0]},
                {"id": "b", "base": "small", "at": [300.0, 450.0], "heading": 270},
            ],
        }
    )
    m = measure(scene, "a", "b", arc="front")
    assert list(m.detail.obstructed_by) == ["rock"]
    ax = axes()
    plots.draw_scene(ax, scene, violations=False)
    artists = plots.draw_measurement(ax, scene, m)
    assert any(a.get_gid() == "obstruction-rock" for a in artists)
    label = next(a for a in artists if a.get_gid() == "measurement-label")
    assert "rock" in label.get_text()  # type: ignore[attr-defined]


@dataclasses.dataclass(frozen=True)
class FakeMove:
    """A stand-in with the fields of ``maneuvers``' MoveResult."""

    ship: str
    maneuver: str
    start: np.ndarray[Any, np.dtype[np.float64]]
    final: np.ndarray[Any, np.dtype[np.float64]]
    template: Any
    complete: bool
    bumped: str | None
    fled: bool
    obstacles: Sequence[tuple[str, str]]
    legal: bool | None = None
    reason: str | None = None
    bump_point: np.ndarray[Any, np.dtype[np.float64]] | None = None


def test_draw_move_draws_template_ghost_final_base_and_bump() -> None:
    scene = example("xwing-tournament")
    move = FakeMove(
        ship="wedge",
        maneuver="straight 5",
        start=np.array([300.0, 40.0, 90.0]),
        final=np.array([300.0, 250.0, 90.0]),
        template=shapely.box(290.0, 60.0, 310.0, 230.0),
        complete=False,
        bumped="biggs",
        fled=False,
        obstacles=(("rock-a", "moves-through"),),
        bump_point=np.array([300.0, 270.0]),
    )
    ax = axes()
    plots.draw_scene(ax, scene, violations=False, exclude=["wedge"])
    artists = plots.draw_move(ax, scene, move)
    gids = {a.get_gid() for a in artists}
    assert {"wedge-template", "wedge-start", "wedge", "wedge-bump", "wedge-hits-rock-a"} <= gids
    final = next(a for a in artists if a.get_gid() == "wedge")
    assert np.allclose(final.get_path().vertices.mean(axis=0)[1], 250.0, atol=1.0)  # type: ignore[attr-defined]
    assert plots.move_text(move) == "wedge: straight 5 (bumped biggs; moves through rock-a)"


def test_legend_names_what_is_drawn() -> None:
    scene = parse_scene(NEAR_EDGE)
    labels = [str(h.get_label()) for h in plots.legend_handles(scene, report=check(scene))]
    assert "player 1 ship" in labels
    assert "player 2 ship" in labels
    assert any(label.startswith("asteroid") for label in labels)
    assert any(label.startswith("gas") for label in labels)
    assert any(label.startswith("violation") for label in labels)
    assert any("200 mm" in label for label in labels)


def test_palette_is_okabe_ito() -> None:
    okabe = {c.upper() for c in plots.OKABE_ITO.values()}
    assert plots.ALARM.upper() in okabe
    assert {c.upper() for c in plots.PLAYER_COLOURS.values()} <= okabe
    assert plots.player_colour(1) != plots.player_colour(2)
    assert plots.ALARM not in plots.PLAYER_COLOURS.values()
    assert plots.ALARM not in plots.KIND_COLOURS.values()


# -- files -----------------------------------------------------------------------------


def test_png_has_the_requested_size_and_is_not_blank(tmp_path: Path) -> None:
    out = tmp_path / "table.png"
    result = render_example("xwing-tournament", out, size=(900, 640))
    image = imread(out)
    assert image.shape[:2] == (640, 900)
    assert result.size == (900, 640)
    assert result.format == "png"
    rgb = np.round(image[..., :3] * 255).astype(np.int64).reshape(-1, 3)
    colours = np.unique(rgb[:, 0] * 65536 + rgb[:, 1] * 256 + rgb[:, 2])
    assert len(colours) > 200
    assert (rgb.min(axis=1) < 128).mean() > 0.01  # ink, not just a white page


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_png_default_size(tmp_path: Path, name: str) -> None:
    out = tmp_path / "table.png"
    result = render_example(name, out)
    width, height = plots.default_size(example(name))
    assert height == 1000
    assert imread(out).shape[:2] == (height, width)
    assert result.size == (width, height)


@pytest.mark.parametrize("size", [(1234, 777), (1001, 999), (333, 250)])
def test_png_size_is_exact_for_awkward_sizes(tmp_path: Path, size: tuple[int, int]) -> None:
    out = tmp_path / "table.png"
    render_example("armada-standard", out, size=size)
    assert imread(out).shape[:2] == (size[1], size[0])


def test_dpi_scales_the_default_size(tmp_path: Path) -> None:
    out = tmp_path / "table.png"
    scene = example("xwing-tournament")
    result = render_to(scene, out, dpi=50)
    assert result.size == plots.default_size(scene, 50)
    assert imread(out).shape[0] == 500


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_svg_names_every_object_id(tmp_path: Path, name: str) -> None:
    out = tmp_path / "table.svg"
    render_example(name, out)
    svg = out.read_text("utf-8")
    for ident in example(name).ids:
        assert re.search(rf">\s*{re.escape(ident)}\s*<", svg), f"no text {ident!r}"
        assert f'id="{ident}"' in svg, f"no element with id {ident!r}"


def test_svg_element_ids_are_unique(tmp_path: Path) -> None:
    scene = parse_scene(NEAR_EDGE)
    out = tmp_path / "table.svg"
    render_to(scene, out, measurement=measure(scene, "wedge", "vader", arc="front"))
    ids = re.findall(r'\bid="([^"]+)"', out.read_text("utf-8"))
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert duplicates == []


def test_svg_shows_the_violation_numbers(tmp_path: Path) -> None:
    out = tmp_path / "near-edge.svg"
    result = render_to(parse_scene(NEAR_EDGE), out)
    assert result.violations is not None
    assert result.violations >= 1
    svg = out.read_text("utf-8")
    assert "195.2" in svg
    assert "margin -4.8" in svg
    assert 'id="violation-1"' in svg


def test_svg_is_deterministic(tmp_path: Path) -> None:
    scene = parse_scene(NEAR_EDGE)
    m = measure(scene, "wedge", "vader")
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    render_to(scene, first, measurement=m)
    render_to(scene, second, measurement=m)
    text = first.read_text("utf-8")
    assert text == second.read_text("utf-8")
    assert "<dc:date>" not in text


def test_pdf_is_written(tmp_path: Path) -> None:
    out = tmp_path / "table.pdf"
    result = render_example("armada-standard", out)
    assert result.format == "pdf"
    assert out.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("fmt", ["png", "svg", "pdf"])
def test_render_returns_the_picture_and_writes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = plots.render(example("xwing-tournament"), fmt)
    magic = {"png": b"\x89PNG", "svg": b"<?xml", "pdf": b"%PDF"}[fmt]
    assert result.format == fmt
    assert result.picture.startswith(magic)
    assert list(tmp_path.iterdir()) == []


def test_render_rejects_an_unknown_format_and_a_bad_size() -> None:
    scene = example("xwing-tournament")
    with pytest.raises(InvalidInputError, match=r"unknown picture format 'jpg'"):
        plots.render(scene, "jpg")
    with pytest.raises(InvalidInputError, match=r"'\.jpg': expected \.png, \.svg or \.pdf"):
        plots.picture_format("table.jpg")
    with pytest.raises(InvalidInputError, match="size"):
        plots.render(scene, "png", size=(10, 10))


def test_render_does_not_change_global_matplotlib_settings(tmp_path: Path) -> None:
    import matplotlib

    before = dict(matplotlib.rcParams)
    render_example("xwing-tournament", tmp_path / "table.svg")
    assert dict(matplotlib.rcParams) == before


# -- reference images ------------------------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_matches_the_reference_image(tmp_path: Path, name: str) -> None:
    expected = BASELINES / f"{name}.png"
    actual = tmp_path / f"{name}.png"
    render_example(name, actual)
    result = compare_images(str(expected), str(actual), tol=TOLERANCE_RMS)
    assert result is None, (
        f"{result}\nIf the change is intended, rebuild the reference images with "
        "`.venv/bin/python tests/test_plots.py --update-baselines` and look at them."
    )


def update_baselines() -> None:
    """Rewrite the reference images from the current drawing code."""
    BASELINES.mkdir(exist_ok=True)
    for name in EXAMPLE_NAMES:
        path = BASELINES / f"{name}.png"
        result = render_example(name, path)
        print(f"wrote {path} ({result.size[0]} x {result.size[1]} px)")


if __name__ == "__main__":
    if sys.argv[1:] != ["--update-baselines"]:
        sys.exit("usage: python tests/test_plots.py --update-baselines")
    update_baselines()
