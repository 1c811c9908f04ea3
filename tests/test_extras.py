"""The extras: ``check`` and ``measure`` need neither matplotlib nor numba.

``tabletop[plots]`` adds matplotlib (``render`` and the plots package); ``tabletop[fast]``
adds numba (compiled batch kernels). Without them the core commands work, the batch
functions take the kernels compiled ahead of time (or, without those too, the numpy
path), and ``render`` says which extra to install.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Makes `import matplotlib` and `import numba` fail as if they were not installed.
_BLOCK = """
import importlib.abc, importlib.machinery, sys
class _Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("matplotlib", "numba"):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None
sys.meta_path.insert(0, _Missing())
_find = importlib.util.find_spec
def _find_spec(name, package=None):
    if name.split(".")[0] in ("matplotlib", "numba"):
        return None
    return _find(name, package)
importlib.util.find_spec = _find_spec
"""


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _BLOCK + code], capture_output=True, text=True, cwd=ROOT
    )


def test_check_and_measure_run_without_matplotlib_or_numba() -> None:
    done = _run(
        "from tabletop.app.cli import main\n"
        "assert main(['check', 'examples/xwing-dogfight.toml', '--json']) == 0\n"
        "assert main(['measure', 'examples/xwing-dogfight.toml', 'wedge', 'howl', '--json']) == 0\n"
        "assert 'matplotlib' not in sys.modules and 'numba' not in sys.modules\n"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert json.loads(lines[0])["legal"] is True
    # wedge at y 330 and howl at y 570, both 40 mm bases: 570 - 330 - 20 - 20 = 200 mm.
    assert json.loads(lines[1])["distance"] == 200.0


#: Also hides the kernels compiled ahead of time, as on a machine without a C compiler.
_NO_AOT = (
    "_aot_find = importlib.util.find_spec\n"
    "importlib.util.find_spec = lambda name, package=None: (\n"
    "    None if name.endswith('_kernels_aot') else _aot_find(name, package))\n"
)


@pytest.mark.parametrize(("prelude", "path"), [("", "aot"), (_NO_AOT, "numpy")])
def test_the_batch_functions_run_compiled_ahead_or_on_numpy_without_numba(
    prelude: str, path: str
) -> None:
    done = _run(
        prelude + "from tabletop.geom import batch\n"
        "print(batch.backend())\n"
        "print(batch.distance([[100.0, 100.0, 90.0]], 'small', [[100.0, 300.0, 270.0]], 'small').tolist())\n"
    )
    assert done.returncode == 0, done.stderr
    # Two 40 mm bases with centres 200 mm apart along y: 200 - 20 - 20 = 160 mm.
    assert done.stdout.split() == [path, "[160.0]"]


def test_render_without_matplotlib_names_the_extra(tmp_path: Path) -> None:
    done = _run(
        "from tabletop.app.cli import main\n"
        f"sys.exit(main(['render', 'examples/xwing-dogfight.toml', '-o', {str(tmp_path / 'x.png')!r}]))\n"
    )
    assert done.returncode == 2
    assert "pip install 'tabletop[plots]'" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["dogfight", "render", "examples/dogfight/midgame.toml", "-o"],
        ["pocket", "render", "examples/pocket/battle-60.toml", "-o"],
        ["event", "render", "examples/events/armada-store-championship.toml", "-o"],
    ],
    ids=["dogfight", "pocket", "event"],
)
def test_every_render_without_matplotlib_names_the_extra(tmp_path: Path, argv: list[str]) -> None:
    done = _run(
        f"from tabletop.app.cli import main\nsys.exit(main({[*argv, str(tmp_path / 'x.png')]!r}))\n"
    )
    assert done.returncode == 2, done.stderr
    assert "pip install 'tabletop[plots]'" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "x.png").exists()
