"""Whole pictures: a scene with its violations, a measurement and moves, as bytes.

:func:`scene_figure` lays a picture out (the table on the left, a legend and the notes
in a column on the right, a title on top) with matplotlib's object API and the Agg
canvas: no screen, no pyplot state. :func:`render` builds it under the fixed settings of
:data:`tabletop.plots.style.RC_PARAMS` and returns it as PNG, SVG or PDF bytes
(:mod:`tabletop.plots.formats`); it writes no file.

Sizes: by default a picture is :data:`DEFAULT_HEIGHT_IN` inches high at
:data:`DEFAULT_DPI` dots per inch (1000 pixels) and as wide as the table and the notes
column need (about 1390 × 1000 pixels for a 3' × 3' table, 2140 × 1000 for 6' × 3');
``size=(width, height)`` in pixels gives exactly that many, and `dpi` scales the default
size and the text.
"""

from __future__ import annotations

import dataclasses as _dc
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from tabletop.geom.errors import InvalidInputError
from tabletop.geom.mmtext import mm_text
from tabletop.maneuvers.moves import apply_moves
from tabletop.obstacles.measuring import Measurement
from tabletop.obstacles.scene import Scene
from tabletop.plots._common import scene_limits
from tabletop.plots.draw import draw_scene
from tabletop.plots.formats import check_picture_format, picture_bytes
from tabletop.plots.legend import legend_handles
from tabletop.plots.measurement import band_text, draw_measurement
from tabletop.plots.move import MoveLike, draw_move, move_text
from tabletop.plots.style import ALARM, INK, RC_PARAMS
from tabletop.plots.violations import MOST_MARKED_VIOLATIONS

if TYPE_CHECKING:
    from tabletop.obstacles.legality import CheckReport

__all__ = [
    "DEFAULT_DPI",
    "DEFAULT_HEIGHT_IN",
    "LARGEST_PX",
    "MOST_DRAWN_OBJECTS",
    "MOST_PIXELS",
    "SMALLEST_PX",
    "RenderResult",
    "check_drawable",
    "check_size",
    "default_size",
    "render",
    "scene_figure",
]

#: Dots per inch unless told.
DEFAULT_DPI = 100.0
#: Height of a picture unless told, inches.
DEFAULT_HEIGHT_IN = 10.0

# Layout, inches: space left of and below the axes (tick labels), above (the title),
# between the axes and the notes column, and the column's width.
_LEFT_IN, _BOTTOM_IN, _TOP_IN, _GAP_IN, _PANEL_IN = 0.75, 0.5, 0.55, 0.2, 4.6
#: Most pixels either way, given (``--size``) or by default.
LARGEST_PX = 20000
#: Most pixels in all (width × height), given or by default: 40 million pixels are a
#: 160 MB canvas, so a picture renders in well under 1 GB and in seconds.
MOST_PIXELS = 40_000_000
#: Fewest pixels either way.
SMALLEST_PX = 100
#: Most obstacles and ships one picture draws (each is a handful of artists, about 15 ms
#: and a few hundred kB): a table of real games holds tens; the loader takes 10,000.
MOST_DRAWN_OBJECTS = 200
_NOTE_WIDTH = 62
_MAX_NOTE_LINES = 40


@_dc.dataclass(frozen=True)
class RenderResult:
    """What :func:`render` drew.

    Attributes
    ----------
    format : str
        ``png``, ``svg`` or ``pdf``.
    size : tuple of int
        Width and height in pixels (at `dpi`; SVG and PDF are this many points × 72/dpi).
    dpi : float
        Dots per inch.
    violations : int or None
        How many violations were drawn (None when violations were not checked).
    picture : bytes
        The picture, in `format`.
    """

    format: str
    size: tuple[int, int]
    dpi: float
    violations: int | None
    picture: bytes = _dc.field(repr=False)

    def to_json(self) -> dict[str, Any]:
        """Return the picture's part of the JSON object of ``tabletop render --json``."""
        return {
            "format": self.format,
            "size": list(self.size),
            "dpi": self.dpi,
            "violations": self.violations,
        }


def default_size(scene: Scene, dpi: float = DEFAULT_DPI) -> tuple[int, int]:
    """Return the default picture size in pixels: the table's aspect plus the notes column.

    The default is bounded as a given size is: at most :data:`LARGEST_PX` either way and
    :data:`MOST_PIXELS` in all. A table too wide for that (a 1000 m × 1 mm area) is drawn
    to scale inside the widest picture allowed, with white space above and below; a
    picture over the pixel budget (a high `dpi`) is scaled down, keeping its shape.

    Examples
    --------
    >>> from tabletop.geom.areas import PlayArea, play_area
    >>> from tabletop.geom.rulesets import get_ruleset
    >>> xw = get_ruleset("xwing2")
    >>> default_size(Scene(xw, play_area("3x3ft")))
    (1387, 1000)
    >>> default_size(Scene(xw, PlayArea(1_000_000.0, 1.0)))
    (20000, 1000)
    >>> default_size(Scene(xw, play_area("3x3ft")), dpi=1200)
    (7447, 5370)
    """
    x0, x1, y0, y1 = scene_limits(scene)
    axes_h = DEFAULT_HEIGHT_IN - _BOTTOM_IN - _TOP_IN
    axes_w = axes_h * (x1 - x0) / (y1 - y0)
    width_in = _LEFT_IN + axes_w + _GAP_IN + _PANEL_IN
    width = min(width_in * dpi, float(LARGEST_PX))
    height = min(DEFAULT_HEIGHT_IN * dpi, float(LARGEST_PX))
    w, h = round(width), round(height)
    if w * h > MOST_PIXELS:
        # Rounded down, so that the scaled picture stays within the budget.
        shrink = (MOST_PIXELS / (width * height)) ** 0.5
        w, h = int(width * shrink), int(height * shrink)
    return max(min(w, LARGEST_PX), SMALLEST_PX), max(min(h, LARGEST_PX), SMALLEST_PX)


def check_size(size: tuple[int, int] | None, dpi: float) -> None:
    """Refuse a `dpi` outside 10-1200 and a `size` outside the bounds (:data:`MOST_PIXELS`).

    Raises
    ------
    InvalidInputError
        Naming the bound, before anything is drawn.

    Examples
    --------
    >>> check_size((20000, 20000), 100.0)
    Traceback (most recent call last):
    ...
    tabletop.geom.errors.InvalidInputError: picture size 20000 x 20000 is 400,000,000 pixels: expected at most 40,000,000 in all (for example 20000 x 2000), so that it renders in bounded memory
    """
    if not 10.0 <= dpi <= 1200.0:
        raise InvalidInputError(f"dpi {dpi:g}: expected 10 to 1200")
    if size is None:
        return
    w, h = size
    if not (isinstance(w, int) and isinstance(h, int)) or not (
        SMALLEST_PX <= w <= LARGEST_PX and SMALLEST_PX <= h <= LARGEST_PX
    ):
        raise InvalidInputError(
            f"picture size {w} x {h}: expected whole pixels from {SMALLEST_PX} to "
            f"{LARGEST_PX} each way"
        )
    if w * h > MOST_PIXELS:
        raise InvalidInputError(
            f"picture size {w} x {h} is {w * h:,} pixels: expected at most {MOST_PIXELS:,} "
            f"in all (for example {LARGEST_PX} x {MOST_PIXELS // LARGEST_PX}), so that it "
            "renders in bounded memory"
        )


def _checked(scene: Scene) -> CheckReport:
    """Check a scene for the picture: with fixes when every violation will be marked.

    A table with more violations than a picture marks is drawn without the fixes' legal
    positions, which would cost seconds each and not be drawn.
    """
    from tabletop.obstacles.legality import check

    report = check(scene, fixes=False)
    if 0 < len(report.violations) <= MOST_MARKED_VIOLATIONS:
        report = check(scene)
    return report


def check_drawable(scene: Scene) -> None:
    """Refuse a scene with more objects than a picture draws (:data:`MOST_DRAWN_OBJECTS`).

    Raises
    ------
    InvalidInputError
        Saying how many objects the scene has, before anything is drawn or checked.
    """
    count = len(scene.obstacles) + len(scene.ships)
    if count > MOST_DRAWN_OBJECTS:
        raise InvalidInputError(
            f"the scene has {count} objects: a picture draws at most {MOST_DRAWN_OBJECTS} "
            "(check, measure and report take the whole scene)"
        )


def _summary(scene: Scene, report: CheckReport | None) -> str:
    area = scene.area.name or f"{scene.area.width:g} x {scene.area.height:g} mm"
    parts = [
        scene.ruleset.name,
        area,
        f"{len(scene.obstacles)} obstacles",
        f"{len(scene.ships)} ships",
    ]
    if scene.phase != "setup":
        parts.append(f"{scene.phase} phase")
    if scene.format != "standard":
        parts.append(scene.format)
    if report is not None:
        n = len(report.violations)
        parts.append("legal" if n == 0 else f"{n} violation{'s' if n != 1 else ''}")
    return ", ".join(parts)


def _notes(
    report: CheckReport | None, measurement: Measurement | None, moves: Sequence[MoveLike]
) -> tuple[list[str], list[str]]:
    """Return (violation lines, other lines) for the notes column."""
    alarm: list[str] = []
    other: list[str] = []
    if report is not None:
        if report.violations:
            alarm.append("Violations:")
        if len(report.violations) > MOST_MARKED_VIOLATIONS:
            alarm.append(
                f"(the first {MOST_MARKED_VIOLATIONS} of {len(report.violations)} are marked; "
                "tabletop check lists them all)"
            )
        for number, v in enumerate(report.violations, start=1):
            alarm += textwrap.wrap(
                f"[{number}] {v.message}", _NOTE_WIDTH, subsequent_indent="     "
            )
    if measurement is not None:
        m = measurement
        other.append("Measurement:")
        line = f"{m.from_id} to {m.to_id}"
        if m.arc is not None:
            line += f", {m.arc} {m.detail.arc_word}"
            line += "" if m.in_arc else " (NOT in arc: plain distance)"
        line += f": {mm_text(m.distance, line=m.nearest_line)} mm, {band_text(m)}"
        if m.contested:
            line += ", contested"
        if m.detail.obstructed is not None:
            by = ", ".join(m.detail.obstructed_by)
            obstructed = m.detail.obstructed
            if obstructed is True:
                line += f"; OBSTRUCTED by {by}"
            elif obstructed == "attacker-chooses":
                line += f"; obstructed or not: the attacker chooses (crossed: {by})"
            else:
                line += "; not obstructed"
        if m.detail.line_of_sight is False:
            line += "; NO line of sight (traced through another hull zone of the defender)"
        if m.detail.tied_segments:
            line += (
                "; the closest points are not unique: every segment in the shaded band "
                "is equally the measurement"
            )
        other += textwrap.wrap(line, _NOTE_WIDTH, subsequent_indent="  ")
        for note in m.notes:
            other += textwrap.wrap(f"note: {note}", _NOTE_WIDTH, subsequent_indent="  ")
    if moves:
        other.append("Moves:")
        for move in moves:
            other += textwrap.wrap(move_text(move), _NOTE_WIDTH, subsequent_indent="  ")
    return alarm, other


def _clip(lines: list[str], budget: int) -> list[str]:
    if len(lines) <= budget:
        return lines
    return [*lines[: max(budget - 1, 0)], f"... and {len(lines) - budget + 1} more lines"]


def _figure_and_axes(size: tuple[int, int], dpi: float) -> tuple[Figure, Axes, float]:
    """Make the figure (on an Agg canvas) and the table's axes.

    Returns the figure, the axes and the width (inches) of the panel left on the right
    for the legend and notes.
    """
    width_px, height_px = size
    # A hair over the size, so that rounding never loses a pixel.
    fig = Figure(figsize=((width_px + 0.01) / dpi, (height_px + 0.01) / dpi), dpi=dpi)
    FigureCanvasAgg(fig)
    fig.set_facecolor("white")
    width_in, height_in = width_px / dpi, height_px / dpi
    panel_in = min(_PANEL_IN, 0.42 * width_in)
    left = _LEFT_IN / width_in
    bottom = _BOTTOM_IN / height_in
    axes_w = max(width_in - _LEFT_IN - _GAP_IN - panel_in, 0.5) / width_in
    axes_h = max(height_in - _BOTTOM_IN - _TOP_IN, 0.5) / height_in
    ax = fig.add_axes((left, bottom, axes_w, axes_h))
    ax.set_anchor("C")
    return fig, ax, panel_in


def _write_notes(
    fig: Figure,
    legend_bottom: float,
    panel_x: float,
    notes: tuple[list[str], list[str]],
    size_in: tuple[float, float],
) -> None:
    """Write the notes, then the violation notes, under the legend, clipped to fit."""
    width_in, height_in = size_in
    alarm, other = notes
    line_in = 8.0 * 1.35 / 72.0
    budget = max(int((legend_bottom * height_in - _BOTTOM_IN) / line_in) - 2, 3)
    budget = min(budget, _MAX_NOTE_LINES)
    y = legend_bottom - 0.15 / height_in
    for lines, colour in ((other, "black"), (alarm, ALARM)):
        if not lines:
            continue
        shown = _clip(lines, budget)
        budget = max(budget - len(shown) - 1, 3)
        text = fig.text(
            panel_x + 0.06 / width_in,
            y,
            "\n".join(shown),
            ha="left",
            va="top",
            fontsize=8,
            color=colour,
            linespacing=1.35,
            gid="notes" if colour == "black" else "violation-notes",
        )
        extent = text.get_window_extent()
        y = extent.y0 / fig.bbox.height - 0.15 / height_in


def _write_heading(
    fig: Figure,
    title: str | None,
    summary: str,
    report: CheckReport | None,
    place: tuple[float, float],
) -> None:
    """Write the title and, under it, the summary line (in the alarm colour if illegal).

    `place` is the left edge (figure fraction) and the figure's height (inches).
    """
    left, height_in = place
    top = 1.0 - 0.12 / height_in
    heading = title if title else "tabletop"
    fig.text(left, top, heading, ha="left", va="top", fontsize=12, fontweight="bold", color=INK)
    fig.text(
        left,
        top - 0.24 / height_in,
        summary,
        ha="left",
        va="top",
        fontsize=9.5,
        color=INK if report is None or report.legal else ALARM,
    )


def scene_figure(
    scene: Scene,
    *,
    measurement: Measurement | None = None,
    moves: Sequence[MoveLike] = (),
    violations: bool = True,
    report: CheckReport | None = None,
    size: tuple[int, int] | None = None,
    dpi: float = DEFAULT_DPI,
    title: str | None = None,
    printed_names: bool = False,
) -> Figure:
    """Build the picture of a scene (not saved), on an Agg canvas.

    Call it inside ``matplotlib.rc_context(tabletop.plots.style.RC_PARAMS)`` for the project's
    fonts (:func:`render` does).

    Parameters
    ----------
    scene : Scene
        The scene (the moving ships at their start positions).
    measurement : Measurement, optional
        Drawn as the ruler would lie.
    moves : sequence of MoveResult
        Each drawn as template, start ghost, final base and bump point.
    violations : bool, default True
        Mark every violation ``check(scene)`` finds (or those of `report`).
    report : CheckReport, optional
        A check already made.
    size : (int, int), optional
        Width and height in pixels (default: :func:`default_size`).
    dpi : float, default 100
    title : str, optional
        Written above the summary line (for example the scene's file name).
    printed_names : bool, default False
        Write each catalog token's printed name beside its id (``rock1 (Asteroid 5)``).

    Raises
    ------
    InvalidInputError
        For a size or dpi out of bounds (:func:`check_size`) or a scene with more than
        :data:`MOST_DRAWN_OBJECTS` objects.
    """
    check_size(size, dpi)
    check_drawable(scene)
    if violations and report is None:
        report = _checked(scene)
    if not violations:
        report = None
    size = default_size(scene, dpi) if size is None else size
    fig, ax, panel_in = _figure_and_axes(size, dpi)
    width_in, height_in = size[0] / dpi, size[1] / dpi
    left = _LEFT_IN / width_in
    moving = [str(getattr(m.ship, "id", m.ship)) for m in moves]
    draw_scene(
        ax,
        scene,
        violations=report is not None,
        report=report,
        exclude=moving,
        printed_names=printed_names,
    )
    for move in moves:
        draw_move(ax, scene, move)
    if measurement is not None:
        draw_measurement(ax, apply_moves(scene, moves), measurement)
    _write_heading(fig, title, _summary(scene, report), report, (left, height_in))
    panel_x = 1.0 - (panel_in - 0.1) / width_in
    handles = legend_handles(scene, report=report, measurement=measurement, moves=moves)
    legend_bottom = _draw_legend(fig, handles, (panel_x, 1.0 - _TOP_IN / height_in))
    notes = _notes(report, measurement, moves)
    _write_notes(fig, legend_bottom, panel_x, notes, (width_in, height_in))
    return fig


def _draw_legend(fig: Figure, handles: list[Any], corner: tuple[float, float]) -> float:
    """Draw the legend panel from its upper-left `corner`; return its bottom (figure units)."""
    legend = fig.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=corner,
        frameon=False,
        fontsize=8,
        handlelength=2.2,
        title="Legend",
        title_fontsize=9,
        alignment="left",
    )
    return float(legend.get_window_extent().y0 / fig.bbox.height)


def render(
    scene: Scene,
    fmt: str = "png",
    *,
    measurement: Measurement | None = None,
    moves: Sequence[MoveLike] = (),
    violations: bool = True,
    report: CheckReport | None = None,
    size: tuple[int, int] | None = None,
    dpi: float = DEFAULT_DPI,
    title: str | None = None,
    printed_names: bool = False,
) -> RenderResult:
    """Draw a scene and return it as `fmt` (``png``, ``svg`` or ``pdf``) bytes.

    The other parameters are :func:`scene_figure`'s. The same inputs give the same SVG
    text. No file is written.

    Raises
    ------
    InvalidInputError
        For an unknown format, a bad size, or a scene with more than
        :data:`MOST_DRAWN_OBJECTS` objects.
    """
    check_picture_format(fmt)
    check_size(size, dpi)
    check_drawable(scene)
    if violations and report is None:
        report = _checked(scene)
    with matplotlib.rc_context(cast(Any, dict(RC_PARAMS))):
        fig = scene_figure(
            scene,
            measurement=measurement,
            moves=moves,
            violations=violations,
            report=report,
            size=size,
            dpi=dpi,
            title=title,
            printed_names=printed_names,
        )
        picture = picture_bytes(fig, fmt)
        width, height = (int(v) for v in fig.canvas.get_width_height())
    return RenderResult(
        fmt,
        (width, height),
        float(dpi),
        None if report is None or not violations else len(report.violations),
        picture,
    )
