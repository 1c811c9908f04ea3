"""The picture formats every drawing is given in, and a figure's bytes in one of them.

:data:`PICTURE_FORMATS` is the one table: PNG, SVG and PDF, by file suffix, each with the
metadata that keeps its bytes a function of the picture alone (no date; SVG's hash salt
is the fixed one of :data:`tabletop.plots.style.RC_PARAMS`). :func:`picture_format`
names a file's format or refuses it with the one message (:data:`PICTURE_SUFFIXES` is the
list the commands' help and messages print); :func:`picture_bytes` saves a
figure in memory. Nothing here writes a file: the application does, atomically.

Examples
--------
>>> PICTURE_SUFFIXES, PICTURE_OUTPUTS
('.png, .svg or .pdf', 'OUT.png, OUT.svg or OUT.pdf')
>>> picture_format("out/table.SVG")
'svg'
>>> picture_format("table.jpg")
Traceback (most recent call last):
...
tabletop.geom.errors.InvalidInputError: table.jpg: unknown picture format '.jpg': expected .png, .svg or .pdf (the suffix chooses the format)
"""

from __future__ import annotations

import dataclasses as _dc
import io
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tabletop.geom.errors import InvalidInputError
from tabletop.plots.style import plain_text

__all__ = [
    "PICTURE_FORMATS",
    "PICTURE_OUTPUTS",
    "PICTURE_SUFFIXES",
    "PictureFormat",
    "check_picture_format",
    "picture_bytes",
    "picture_format",
]


@_dc.dataclass(frozen=True)
class PictureFormat:
    """A picture format.

    Attributes
    ----------
    name : str
        matplotlib's name of it (``png``), also what the commands' JSON says.
    metadata : mapping
        What is written into the file's header (dates left out); empty for a format
        whose writer takes none.
    """

    name: str
    metadata: Mapping[str, Any]


#: The picture formats, by file suffix.
PICTURE_FORMATS: dict[str, PictureFormat] = {
    ".png": PictureFormat("png", {"Software": "tabletop (matplotlib)"}),
    ".svg": PictureFormat("svg", {"Date": None}),
    ".pdf": PictureFormat("pdf", {"CreationDate": None, "ModDate": None}),
}
_BY_NAME = {f.name: f for f in PICTURE_FORMATS.values()}


def _either(words: list[str]) -> str:
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


#: The suffixes as help and messages write them: ``.png, .svg or .pdf``.
PICTURE_SUFFIXES = _either(list(PICTURE_FORMATS))
#: A picture output as a usage message writes it: ``OUT.png, OUT.svg or OUT.pdf``.
PICTURE_OUTPUTS = _either([f"OUT{suffix}" for suffix in PICTURE_FORMATS])


def picture_format(path: str | os.PathLike[str]) -> str:
    """Return the picture format of the file `path` by its suffix (``png``, ``svg``, ``pdf``).

    Raises
    ------
    InvalidInputError
        For any other suffix, naming `path`.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in PICTURE_FORMATS:
        raise InvalidInputError(
            f"unknown picture format {suffix or '(no suffix)'!r}: expected {PICTURE_SUFFIXES} "
            "(the suffix chooses the format)",
            where=os.fspath(path),
        )
    return PICTURE_FORMATS[suffix].name


def check_picture_format(fmt: str) -> PictureFormat:
    """Return the picture format named `fmt` (``png``, ``svg`` or ``pdf``).

    Raises
    ------
    InvalidInputError
        For a name not in :data:`PICTURE_FORMATS`.
    """
    if fmt not in _BY_NAME:
        names = ", ".join(_BY_NAME)
        raise InvalidInputError(f"unknown picture format {fmt!r}: expected one of {names}")
    return _BY_NAME[fmt]


def picture_bytes(fig: Any, fmt: str, *, dpi: float | None = None) -> bytes:
    """Return a figure saved in memory in the format `fmt` (``png``, ``svg`` or ``pdf``).

    Text is drawn as typed (:func:`tabletop.plots.style.plain_text` runs first); the
    background is white; `dpi` defaults to the figure's own.

    Raises
    ------
    InvalidInputError
        For a format not in :data:`PICTURE_FORMATS`.
    """
    metadata = dict(check_picture_format(fmt).metadata)
    buffer = io.BytesIO()
    plain_text(fig)
    fig.savefig(
        buffer,
        format=fmt,
        dpi=fig.dpi if dpi is None else dpi,
        # A format without a header to fill (an empty mapping) takes no metadata at all:
        # matplotlib refuses metadata for the formats Pillow writes.
        metadata=metadata or None,
        facecolor="white",
    )
    return buffer.getvalue()
