"""Start-up: what a command imports, and the version string's one source.

Each check runs the command in a fresh interpreter and reads ``sys.modules`` at its end:
``tabletop measure`` needs numpy, shapely and the geometry, not the drawing, serving,
testing or JIT libraries; ``tabletop --version`` reads ``tabletop.__version__`` and not
the installed metadata (``importlib.metadata`` and its imports cost more than the rest
of the command).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

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
