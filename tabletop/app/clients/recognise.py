"""What each client file looks like, told from its bytes alone.

Every command that reads a scene asks first whether the file is a client's (a TTS or
VASSAL save, an XWS list). The tests here need no reader: a plain scene file is told
apart without importing the readers' record types, archive handling and piece tables,
which only a client file needs. Each reader module gives its test as ``recognises``.

Examples
--------
>>> [key for key, test in RECOGNISERS.items() if test(b'{"ObjectStates": []}')]
['tts']
>>> [key for key, test in RECOGNISERS.items() if test(b'{"ruleset": "xwing2"}')]
[]
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

__all__ = [
    "COMMAND_SEPARATOR",
    "MAX_LIST_BYTES",
    "RECOGNISERS",
    "VASSAL_ENTRY",
    "ZIP_MAGIC",
    "tts_save",
    "vassal_save",
    "xws_list",
]

#: How a zip file begins (a local file header).
ZIP_MAGIC = b"PK\x03\x04"
#: What joins VASSAL commands (GameModule.COMMAND_SEPARATOR = KeyEvent.VK_ESCAPE).
COMMAND_SEPARATOR = "\x1b"
#: The entry of a VASSAL save archive that holds the game.
VASSAL_ENTRY = "savedGame"
#: Largest XWS list read, bytes (a list is a few kilobytes).
MAX_LIST_BYTES = 1024 * 1024

_TTS_HEAD = re.compile(rb"^\s*(\xef\xbb\xbf)?\s*\{")


def tts_save(data: bytes) -> bool:
    """Tell whether `data` is a TTS JSON document.

    It has ``ObjectStates``, or (a save without objects) the keys every TTS save begins
    with, ``SaveName`` with ``GameMode`` or ``VersionNumber``.

    Examples
    --------
    >>> tts_save(b'{"SaveName": "", "ObjectStates": []}'), tts_save(b'{"pilots": []}')
    (True, False)
    >>> tts_save(b'{"SaveName": "Game", "GameMode": "X-Wing 2.0"}')
    True
    """
    if _TTS_HEAD.match(data[:64]) is None:
        return False
    if b'"ObjectStates"' in data:
        return True
    return b'"SaveName"' in data and (b'"GameMode"' in data or b'"VersionNumber"' in data)


def vassal_save(data: bytes) -> bool:
    r"""Tell whether `data` is a VASSAL save or log (or a bare savedGame text).

    Examples
    --------
    >>> vassal_save(b"!VCSK00"), vassal_save(b"begin_save\x1bend_save"), vassal_save(b"{}")
    (True, True, False)
    """
    if data.startswith(ZIP_MAGIC):
        return VASSAL_ENTRY.encode() in data
    return data.startswith((b"!VCSK", b"begin_save" + COMMAND_SEPARATOR.encode()))


def _json(data: bytes) -> Any:
    return json.loads(data.decode("utf-8"))


def xws_list(data: bytes) -> bool:
    """Tell whether `data` is an XWS list: a JSON object with a ``pilots`` list.

    Examples
    --------
    >>> xws_list(b'{"pilots": []}'), xws_list(b'{"ObjectStates": []}'), xws_list(b"x")
    (True, False, False)
    """
    if len(data) > MAX_LIST_BYTES or not data.lstrip().startswith(b"{"):
        return False
    if b'"pilots"' not in data and b"\\" not in data:
        # No "pilots" key, written plainly or with an escape: not a list, and a large
        # scene file is not parsed to find that out.
        return False
    try:
        parsed = _json(data)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    return (
        isinstance(parsed, dict)
        and isinstance(parsed.get("pilots"), list)
        and "ObjectStates" not in parsed
    )


#: Reader name (of :data:`tabletop.app.clients.READERS`) -> its test, in the same order.
RECOGNISERS: dict[str, Callable[[bytes], bool]] = {
    "tts": tts_save,
    "vassal": vassal_save,
    "xws": xws_list,
}
