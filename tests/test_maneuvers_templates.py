"""Template shapes in the ship frame, the pose path, and the package's public surface."""

from __future__ import annotations

import dataclasses
import inspect
import math
from typing import Any, Literal

import numpy as np
import pytest
import shapely

from tabletop import maneuvers
from tabletop.maneuvers import (
    ActionPosition,
    ArmadaCourse,
    BarrelRoll,
    Boost,
    MoveResult,
    PosePath,
    TemplateShape,
    XWingManeuver,
    template_polygon,
)

Kind = Literal["straight", "bank", "turn"]
BANK_R = {1: 80.0, 2: 130.0, 3: 180.0}
TURN_R = {1: 35.0, 2: 62.5, 3: 90.0}


@pytest.mark.parametrize("speed", [1, 2, 3, 4, 5])
def test_straight_templates(speed: int) -> None:
    polygon = template_polygon(TemplateShape("straight", speed), 20.0)
    assert polygon.bounds == pytest.approx((-10.0, 20.0, 10.0, 20.0 + 40.0 * speed))
    assert polygon.area == pytest.approx(20.0 * 40.0 * speed)


@pytest.mark.parametrize(
    ("kind", "speed"), [("bank", s) for s in (1, 2, 3)] + [("turn", s) for s in (1, 2, 3)]
)
@pytest.mark.parametrize("half", [20.0, 30.0, 40.0])
def test_arc_templates_are_annular_sectors(kind: Kind, speed: int, half: float) -> None:
    radius = BANK_R[speed] if kind == "bank" else TURN_R[speed]
    sweep = math.radians(45.0 if kind == "bank" else 90.0)
    polygon = template_polygon(TemplateShape(kind, speed), half)
    # Area of a 20-wide annular sector: sweep · R · 20, within the polygon's chord error.
    assert polygon.area == pytest.approx(sweep * radius * 20.0, rel=1e-4)
    # Starts flush with the front edge between the guides, x -10 to 10.
    assert polygon.bounds[0] == pytest.approx(-10.0)
    assert polygon.bounds[1] == pytest.approx(half)
    # Its far end is centred on the final rear-guide point, across the final heading.
    end = np.array([radius * (1 - math.cos(sweep)), half + radius * math.sin(sweep)])
    assert polygon.distance(shapely.Point(end)) == pytest.approx(0.0, abs=1e-9)


def test_left_and_reverse_mirror_the_template() -> None:
    right = template_polygon(TemplateShape("turn", 2), 30.0)
    left = template_polygon(TemplateShape("turn", 2), 30.0, left=True)
    back = template_polygon(TemplateShape("bank", 1), 20.0, left=True, reverse=True)
    x0, y0, x1, y1 = right.bounds
    assert left.bounds == pytest.approx((-x1, y0, -x0, y1))
    assert back.bounds[1] < -20.0
    assert back.bounds[3] == pytest.approx(-20.0)
    assert back.bounds[0] < -10.0
    assert back.bounds[2] == pytest.approx(10.0)


def test_partial_template() -> None:
    shape = TemplateShape("bank", 2)
    half = template_polygon(shape, 20.0, upto=shape.length / 2)
    assert half.area == pytest.approx(template_polygon(shape, 20.0).area / 2, rel=1e-3)
    assert template_polygon(shape, 20.0, upto=-5.0).is_empty
    assert template_polygon(shape, 20.0, upto=1e9).area == pytest.approx(
        template_polygon(shape, 20.0).area
    )


@pytest.mark.parametrize(
    ("kind", "speed"), [("straight", 3), ("bank", 1), ("bank", 3), ("turn", 1), ("turn", 3)]
)
@pytest.mark.parametrize("half", [20.0, 40.0, 112.5])
def test_pose_path_keeps_the_guides_on_the_path(kind: Kind, speed: int, half: float) -> None:
    path = PosePath(TemplateShape(kind, speed), half)
    progress = np.linspace(0.0, path.length, 97)
    poses = path.poses(progress)
    assert poses[0] == pytest.approx([0.0, 0.0, 0.0], abs=1e-9)
    turn = np.radians(poses[:, 2])
    forward = np.stack([-np.sin(turn), np.cos(turn)], axis=-1)
    rear = poses[:, :2] - half * forward
    # The rear-guide point sits at arc length `progress` along the guide path.
    assert np.allclose(rear, path.guide_points(progress), atol=1e-9)
    # The heading never turns back and ends at the template's turn.
    assert np.all(np.diff(poses[:, 2]) <= 1e-9)
    assert poses[-1, 2] == pytest.approx(-TemplateShape(kind, speed).turn_degrees)


@pytest.mark.parametrize(
    "value",
    [
        XWingManeuver("bank", 1, "left"),
        BarrelRoll("left"),
        Boost("straight"),
        ArmadaCourse(1, (0,)),
        TemplateShape("turn", 1),
        PosePath(TemplateShape("turn", 1), 20.0),
        ActionPosition("centre", 0.0, np.zeros(3), None, True, None),
        MoveResult("a", "stationary", np.zeros(3), np.zeros(3), None, True, None, False, ()),
    ],
)
def test_value_types_are_frozen(value: Any) -> None:
    field = dataclasses.fields(value)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, field, None)


def test_all_lists_the_public_names() -> None:
    public = {
        name
        for name in dir(maneuvers)
        if not name.startswith("_") and not inspect.ismodule(getattr(maneuvers, name))
    }
    assert set(maneuvers.__all__) == public
    for name in maneuvers.__all__:
        obj = getattr(maneuvers, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert obj.__doc__, name
