"""The command line's JSON equals the Python API's, on random scenes."""

from __future__ import annotations

import io
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.app.cli import main
from tabletop.app.common.datatext import json_text
from tabletop.geom.arcs import XWING_ARCS
from tabletop.geom.hulls import HULL_ZONES
from tabletop.geom.rulesets import XWingRuleset
from tabletop.maneuvers import execute
from tabletop.obstacles import strategies as obstacle_strategies
from tabletop.obstacles.legality import check
from tabletop.obstacles.measuring import measure
from tabletop.obstacles.scene import Scene

SCENES = st.sampled_from(["xwing2", "xwing1", "armada"]).flatmap(
    lambda ruleset: obstacle_strategies.scenes(
        ruleset=ruleset, min_ships=2, max_ships=4, max_obstacles=3
    )
)
CHECKS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def run(*argv: str) -> tuple[int, object]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    assert "Traceback" not in err.getvalue()
    return code, json.loads(out.getvalue())


def write(scene: Scene, folder: Path) -> str:
    path = folder / "scene.json"
    path.write_text(json_text(scene.to_dict()), encoding="utf-8")
    return str(path)


@CHECKS
@given(scene=SCENES)
def test_check_json_equals_the_api(tmp_path: Path, scene: Scene) -> None:
    code, answer = run("check", write(scene, tmp_path), "--json")
    report = check(scene)
    assert answer == report.to_json()
    assert code == (0 if report.legal else 1)


@CHECKS
@given(scene=SCENES, data=st.data())
def test_measure_json_equals_the_api(tmp_path: Path, scene: Scene, data: st.DataObject) -> None:
    a, b = data.draw(st.permutations([s.id for s in scene.ships]))[:2]
    arcs = XWING_ARCS if isinstance(scene.ruleset, XWingRuleset) else HULL_ZONES
    arc = data.draw(st.none() | st.sampled_from(arcs))
    attacker = scene.ship(a)
    if arc is not None and attacker.is_squadron:
        arc = None
    options = ["--json"] + ([] if arc is None else ["--arc", arc])
    # "--" lets an id start with "-".
    code, answer = run("measure", *options, "--", write(scene, tmp_path), a, b)
    assert code == 0
    assert answer == measure(scene, a, b, arc=arc).to_json()


@CHECKS
@given(scene=SCENES, data=st.data())
def test_move_json_equals_the_api(tmp_path: Path, scene: Scene, data: st.DataObject) -> None:
    movable = [
        s for s in scene.ships if not scene.ruleset.base_spec(s.base).is_huge and not s.is_squadron
    ]
    if not movable:
        return
    ship = data.draw(st.sampled_from(movable))
    if isinstance(scene.ruleset, XWingRuleset):
        maneuver = data.draw(
            st.sampled_from(
                ["straight 2", "bank 1 left", "turn 3 right", "koiogran 4", "stationary"]
            )
        )
    else:
        maneuver = data.draw(st.sampled_from(["speed 1", "speed 2 yaw 1 -1", "speed 3 yaw 0 0 2"]))
    code, answer = run("move", "--json", "--", write(scene, tmp_path), ship.id, maneuver)
    assert code == 0
    assert answer == json.loads(json.dumps(execute(scene, ship.id, maneuver).to_json()))
