"""Start-up: what a command imports, and the version string's one source.

Each check runs the command in a fresh interpreter and reads ``sys.modules`` at its end:
``tabletop measure`` needs numpy, shapely and the geometry, not the drawing, serving,
testing or JIT libraries (an X-Wing shot not even the check's records, the Armada hull
tables or the client readers); ``tabletop check`` of a plain JSON scene needs neither
TOML nor the client readers nor the measurement modules (nor, with nothing contested,
the rulings); ``tabletop --version`` reads ``tabletop.__version__`` and not the installed
metadata (``importlib.metadata`` and its imports cost more than the rest of the
command). The tricks that keep start-up short
(the help width found without shutil, the collector paused while a command imports,
what it imported frozen while it runs and everything frozen for the program's exit,
``FloatArray`` spelled without numpy.typing, the game rulesets reusing Ruleset's
methods) are checked to change nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

import pytest

import tabletop

ROOT = Path(__file__).resolve().parents[1]

#: Modules `tabletop measure` has no use for, each heavy to import.
NOT_FOR_MEASURE = (
    "matplotlib",
    "PIL",
    "starlette",
    "uvicorn",
    "httpx",
    "hypothesis",
    "pytest",
    "numba",
    "llvmlite",
    "rustworkx",
    "tomli_w",
    "importlib.metadata",
    "email",
    "zipfile",
    "csv",
    "asyncio",
    "tabletop.plots",
    "tabletop.maneuvers",
    "tabletop.boards",
    "tabletop.tournament",
    "tabletop.app.board",
)


#: Besides those: what an X-Wing measurement never uses (the check's records, output
#: paths, the Armada hull tables, detail and sight line, the rule lines, the client
#: readers, type-only and help-only modules).
NOT_FOR_XWING_MEASURE = (
    *NOT_FOR_MEASURE,
    "tabletop.obstacles.verdicts",
    "tabletop.obstacles.legality",
    "tabletop.obstacles.fixing",
    "tabletop.obstacles._armada_shot",
    "tabletop.obstacles.armada_detail",
    "tabletop.obstacles.sightline",
    "tabletop.geom.rulelines",
    "tabletop.geom.hulls",
    "tabletop.app.common.paths",
    "tabletop.app.clients.model",
    "tabletop.app.clients.tts",
    "tabletop.app.clients.vassal",
    "tabletop.app.clients.xws",
    "numpy.typing",
    "shutil",
)

#: What `tabletop check` of a plain JSON scene never uses: TOML, the client readers and
#: their archives, the measurement and sight-line modules, output paths, numpy.typing.
NOT_FOR_CHECK = (
    *NOT_FOR_MEASURE,
    "tomllib",
    "tabletop.app.clients.model",
    "tabletop.app.clients.tts",
    "tabletop.app.clients.vassal",
    "tabletop.app.clients.xws",
    "tabletop.app.clients.archive",
    "tabletop.obstacles.measurement",
    "tabletop.obstacles.measuring",
    "tabletop.obstacles.obstruction",
    "tabletop.obstacles.rulings",
    "tabletop.geom.hulls",
    "tabletop.app.common.paths",
    "numpy.typing",
    "shutil",
)


def modules_after(code: str) -> list[str]:
    """Run `code` in a fresh interpreter at the project root; return ``sys.modules``'s names."""
    script = textwrap.dedent(code) + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    names: list[str] = json.loads(done.stdout.splitlines()[-1])
    return names


def heavy_among(names: list[str], heavy: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(n == h or n.startswith(h + ".") for h in heavy))


def test_the_version_is_pyprojects() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert tabletop.__version__ == project["version"]


@pytest.mark.parametrize(
    "argv",
    [
        ["measure", "examples/xwing-dogfight.toml", "wedge", "howl"],
        ["measure", "examples/xwing-dogfight.toml", "wedge", "howl", "--arc", "front", "--json"],
        ["measure", "examples/armada-standard.toml", "victory", "setup:left"],
    ],
)
def test_measure_imports_nothing_heavy_it_does_not_use(argv: list[str]) -> None:
    names = modules_after(
        f"""
        import io
        from tabletop.app.cli import main
        assert main({argv!r}, out=io.StringIO()) == 0
        """
    )
    assert "shapely" in names  # the command ran its geometry
    assert heavy_among(names, NOT_FOR_MEASURE) == []


def test_version_reads_no_installed_metadata() -> None:
    names = modules_after(
        """
        import io
        from tabletop.app.cli import main
        out = io.StringIO()
        assert main(["--version"], out=out) == 0
        import tabletop
        assert out.getvalue() == f"tabletop {tabletop.__version__}\\n", out.getvalue()
        """
    )
    assert heavy_among(names, ("importlib.metadata", "email", "zipfile", "numpy")) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["measure", "examples/xwing-dogfight.toml", "wedge", "howl"],
        ["measure", "examples/xwing-dogfight.toml", "wedge", "howl", "--arc", "front", "--json"],
    ],
)
def test_an_xwing_measurement_imports_only_what_it_uses(argv: list[str]) -> None:
    names = modules_after(
        f"""
        import io
        from tabletop.app.cli import main
        assert main({argv!r}, out=io.StringIO()) == 0
        """
    )
    assert "tabletop.obstacles.measurement" in names
    assert heavy_among(names, NOT_FOR_XWING_MEASURE) == []


def test_check_of_a_plain_scene_imports_only_what_it_uses(tmp_path: Path) -> None:
    scene = tmp_path / "legal.json"
    scene.write_text(json.dumps(LEGAL_SCENE), encoding="utf-8")
    names = modules_after(
        f"""
        import io
        from tabletop.app.cli import main
        assert main(["check", {str(scene)!r}], out=io.StringIO()) == 0
        """
    )
    assert "tabletop.obstacles.legality" in names
    assert heavy_among(names, NOT_FOR_CHECK) == []


#: A legal X-Wing 2.0 table (2'6" square): two rocks far apart and from every edge, one
#: ship at each player's edge.
LEGAL_SCENE = {
    "ruleset": "xwing2",
    "area": {"width": 760.0, "height": 760.0},
    "obstacles": [
        {"id": "r1", "outline": [[-15, -15], [15, -15], [15, 15], [-15, 15]], "at": [290, 380]},
        {"id": "r2", "outline": [[-15, -15], [15, -15], [15, 15], [-15, 15]], "at": [470, 380]},
    ],
    "ships": [
        {"id": "a", "base": "small", "player": 1, "at": [380, 40], "heading": 90},
        {"id": "b", "base": "small", "player": 2, "at": [380, 720], "heading": 270},
    ],
}


def test_an_armada_measurement_still_loads_its_hull_tables() -> None:
    names = modules_after(
        """
        import io
        from tabletop.app.cli import main
        argv = ["measure", "examples/armada-standard.toml", "victory", "setup:left"]
        assert main(argv, out=io.StringIO()) == 0
        """
    )
    assert "tabletop.geom.hulls" in names
    assert "tabletop.obstacles.armada_detail" in names


def test_an_xwing_measurement_defines_only_the_records_it_builds() -> None:
    """The records an X-Wing measurement never builds are not even defined (each costs
    its generated methods at import); those it builds are."""
    script = textwrap.dedent(
        """
        import dataclasses, io, json
        made = []
        process_class = dataclasses._process_class
        def counted(cls, *args, **kwargs):
            made.append(cls.__qualname__)
            return process_class(cls, *args, **kwargs)
        dataclasses._process_class = counted
        from tabletop.app.cli import main
        argv = ["measure", "examples/xwing-dogfight.toml", "wedge", "howl", "--arc", "front"]
        assert main(argv, out=io.StringIO()) == 0
        print(json.dumps(made))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    made = set(json.loads(done.stdout.splitlines()[-1]))
    assert {"Measurement", "XWingDetail", "Ship", "Scene", "Ruleset"} <= made
    assert made.isdisjoint({"RuleLine", "PlacementRule", "SightLine", "ArmadaDetail"})
    assert len(made) <= 18


def test_the_records_loaded_on_demand_keep_their_paths_and_behaviour() -> None:
    import dataclasses

    from tabletop.geom import rulelines
    from tabletop.geom.rules import PlacementRule, RuleLine
    from tabletop.obstacles import armada_detail, measurement, obstruction, sightline
    from tabletop.obstacles.measurement import ArmadaDetail, MeasurementDetail, XWingDetail

    assert RuleLine is rulelines.RuleLine
    assert PlacementRule is rulelines.PlacementRule
    assert ArmadaDetail is armada_detail.ArmadaDetail is measurement.ArmadaDetail
    assert MeasurementDetail == XWingDetail | ArmadaDetail
    assert obstruction.SightLine is sightline.SightLine
    assert obstruction.armada_sight_line is sightline.armada_sight_line
    assert obstruction.traced_clearance is sightline.traced_clearance
    line = RuleLine("edge", 10.0, "beyond", closed=False)
    assert (
        repr(line)
        == "RuleLine(name='edge', line=10.0, legal='beyond', closed=False, boundary=False)"
    )
    assert line == RuleLine("edge", 10.0, "beyond", False)
    assert hash(line) == hash(RuleLine("edge", 10.0, "beyond", False))
    assert dataclasses.replace(line, line=5.0).line == 5.0
    assert [f.name for f in dataclasses.fields(PlacementRule)] == [
        "edge",
        "spacing",
        "inside_setup_area",
    ]
    detail = ArmadaDetail(3, "medium")
    assert repr(detail).startswith("ArmadaDetail(distance_band=3, range_band='medium',")
    with pytest.raises(dataclasses.FrozenInstanceError):
        detail.distance_band = 2  # type: ignore[misc]
    for module in (measurement, obstruction):
        with pytest.raises(AttributeError):
            module.__getattr__("no_such_name")


@pytest.mark.parametrize("columns", [None, "", "abc", "-5", "0", "1", "57", "200"])
def test_the_help_width_is_shutils(monkeypatch: pytest.MonkeyPatch, columns: str | None) -> None:
    import shutil

    from tabletop.app.cli import _terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert _terminal_columns() == shutil.get_terminal_size().columns


@pytest.mark.parametrize("enabled", [True, False])
def test_a_command_leaves_the_garbage_collector_as_it_was(enabled: bool) -> None:
    import gc
    import io

    from tabletop.app.cli import main

    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        assert (
            main(["measure", "examples/xwing-dogfight.toml", "wedge", "howl"], io.StringIO()) == 0
        )
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_a_command_runs_with_what_it_imported_frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc
    import io

    import tabletop.app.scene.measure as command
    from tabletop.app.cli import main

    argv = ["measure", "examples/xwing-dogfight.toml", "wedge", "howl"]
    frozen_during: list[int] = []
    real_run = command.run

    def run(args: Any, out: Any) -> int:
        frozen_during.append(gc.get_freeze_count())
        return real_run(args, out)

    monkeypatch.setattr(command, "run", run)
    assert gc.get_freeze_count() == 0
    assert main(argv, io.StringIO()) == 0
    assert frozen_during[0] > 1000  # the modules, numpy's and shapely's objects
    assert gc.get_freeze_count() == 0  # thawed when the command is done
    gc.freeze()  # a process that froze objects of its own is left as it was
    try:
        own = gc.get_freeze_count()
        assert main(argv, io.StringIO()) == 0
        assert frozen_during[1] == own
        assert gc.get_freeze_count() == own
    finally:
        gc.unfreeze()


def test_the_program_freezes_the_collector_for_the_exit_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import gc
    import io

    from tabletop.app.cli import main, program

    argv = ["measure", "examples/xwing-dogfight.toml", "wedge", "howl", "--json"]
    frozen = gc.get_freeze_count()
    assert main(argv, io.StringIO()) == 0
    assert gc.get_freeze_count() == frozen  # the command alone leaves nothing frozen
    monkeypatch.setattr(sys, "argv", ["tabletop", *argv])
    try:
        assert program() == 0
        assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()
    assert json.loads(capsys.readouterr().out)["distance"] == 200.0  # 550 - 350 mm


def test_float_array_is_numpys_ndarray_of_float64() -> None:
    import numpy as np
    import numpy.typing as npt

    from tabletop.geom.poses import FloatArray

    assert FloatArray == npt.NDArray[np.float64]


def test_the_game_rulesets_keep_their_records_behaviour() -> None:
    import dataclasses

    from tabletop.geom.rulesets import ArmadaRuleset, XWingRuleset, get_ruleset

    xwing, armada = get_ruleset("xwing2"), get_ruleset("armada")
    assert repr(xwing).startswith("XWingRuleset(name='xwing2', game='xwing',")
    assert repr(armada).startswith("ArmadaRuleset(name='armada', game='armada',")
    assert xwing == get_ruleset("xwing2")
    assert xwing != get_ruleset("xwing1")
    assert xwing != armada
    assert dataclasses.replace(xwing, xwing_obstacle_edge=190.0).xwing_obstacle_edge == 190.0
    assert type(dataclasses.replace(armada, name="a")) is ArmadaRuleset
    assert [f.name for f in dataclasses.fields(XWingRuleset)][:2] == ["name", "game"]
    for ruleset in (xwing, armada):
        for name in ("name", "not_a_field"):
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(ruleset, name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError):
            del ruleset.name


def test_each_reader_recognises_as_the_light_tests_do() -> None:
    from tabletop.app.clients import recognise, tts, vassal, xws

    assert tts.recognises is recognise.tts_save
    assert vassal.recognises is recognise.vassal_save
    assert xws.recognises is recognise.xws_list
