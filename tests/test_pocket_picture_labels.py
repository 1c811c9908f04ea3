"""The Pocket picture's unit labels stay inside their cards, measured by matplotlib's renderer.

Crowded zones (four units), long unit ids, four-line labels (troops, wounds, tokens) and
the shorter cards of the engagement row are drawn; each label's drawn extent must lie
within its front card's. A label too long at the smallest size keeps both ends of the id.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tabletop.app.pocket.battlefile import load_battle, replay_battle
from tabletop.boards.pocket import (
    Army,
    Battle,
    PocketBattles,
    PocketRules,
    PocketState,
    Troop,
    UnitSpec,
)

if TYPE_CHECKING:
    from matplotlib.transforms import Bbox

pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parents[1]


def _units(prefix: str, zone: str, count: int, name: str = "") -> tuple[UnitSpec, ...]:
    return tuple(
        UnitSpec(
            f"{prefix}{name}-{k}",
            tuple(Troop(f"{prefix}{k}t{j}", 5, 3, 3, 4, None, ()) for j in range(3)),
            zone,
        )
        for k in range(count)
    )


def crowded() -> tuple[PocketBattles, PocketState]:
    guard = "-heavy-cavalry-guard"
    red = Army(
        1,
        "red",
        _units("red", "B2", 4, guard) + _units("eng", "A3", 3, guard) + _units("r", "C1", 1),
    )
    blue = Army(
        2, "blue", _units("blue", "B4", 3, guard) + _units("bng", "A3", 3) + _units("b", "C5", 1)
    )
    game = PocketBattles(Battle(100, (red, blue), 1, 0, PocketRules()))
    state = game.start()
    for unit in state.units.values():
        unit.orders = 3
        for t in unit.troops:
            t.wounds = 2
    return game, state


def labels_and_cards(game: PocketBattles, state: PocketState) -> list[tuple[str, Bbox, Bbox]]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from tabletop.plots.pocket import draw_battle

    fig = Figure(figsize=(7.5, 9.0), dpi=100)
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    fig.subplots_adjust(left=0.02, right=0.98, bottom=0.02, top=0.94)
    draw_battle(ax, game, state)
    canvas.draw()  # type: ignore[no-untyped-call]
    renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
    cards = {p.get_gid(): p for p in ax.patches if p.get_gid()}
    out = []
    for text in ax.texts:
        gid = text.get_gid()
        if gid and gid.startswith("label:"):
            uid = gid.removeprefix("label:")
            out.append(
                (
                    text.get_text(),
                    text.get_window_extent(renderer),
                    cards[f"card:{uid}"].get_window_extent(renderer),
                )
            )
    return out


def inside(inner: Bbox, outer: Bbox) -> bool:
    tolerance_px = 0.5
    return bool(
        inner.x0 >= outer.x0 - tolerance_px
        and inner.x1 <= outer.x1 + tolerance_px
        and inner.y0 >= outer.y0 - tolerance_px
        and inner.y1 <= outer.y1 + tolerance_px
    )


def test_every_label_of_a_crowded_battle_is_inside_its_card() -> None:
    found = labels_and_cards(*crowded())
    assert len(found) == 4 + 3 + 1 + 3 + 3 + 1
    outside = [label for label, text, card in found if not inside(text, card)]
    assert outside == []


def test_a_shortened_id_keeps_both_ends() -> None:
    found = {label.split("\n")[0] for label, _, _ in labels_and_cards(*crowded())}
    shortened = sorted(line for line in found if "…" in line)
    assert shortened
    ends = {line.rsplit("-", 1)[-1] for line in shortened if line.startswith("red")}
    assert ends == {"0", "1", "2", "3"}
    assert all(line.startswith(("red", "eng", "blue")) for line in shortened)


@pytest.mark.parametrize("name", ["battle-60.toml", "full-battle.toml"])
def test_the_examples_labels_are_inside_and_whole(name: str) -> None:
    game, state = replay_battle(load_battle(ROOT / "examples" / "pocket" / name))
    found = labels_and_cards(game, state)
    assert found
    for label, text, card in found:
        assert inside(text, card), label
        assert "…" not in label
