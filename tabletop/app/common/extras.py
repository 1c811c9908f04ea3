"""The optional parts of an install, and the clear refusal when one is missing."""

from __future__ import annotations

import importlib.util as _importlib_util

from tabletop.geom.errors import InvalidInputError

__all__ = ["require_plots"]


def require_plots() -> None:
    """Refuse to draw, naming the extra to install, where matplotlib is missing.

    Raises
    ------
    InvalidInputError
        When matplotlib cannot be imported.
    """
    if _importlib_util.find_spec("matplotlib") is None:
        raise InvalidInputError(
            "drawing needs matplotlib, which is not installed; "
            "install the plots extra: pip install 'tabletop[plots]'"
        )
