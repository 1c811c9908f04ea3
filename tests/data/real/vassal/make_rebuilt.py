"""Write ``trc4-rebuilt.vsav``: a VASSAL 3.2 save of another game's module, rebuilt.

Run from the repository root: ``python tests/data/real/vassal/make_rebuilt.py``.

A real VASSAL 3.2.17 save of the module "TRC4", version 1.3b06, was reported imported as
an empty X-Wing table. Its file is not kept: no public copy with a licence was found. What
is rebuilt is what was reported of it: the module's name and version in ``moduledata``,
VASSAL's version, the ``!VCSK`` obfuscation of ``savedGame`` and a ``BoardPicker``
command naming the board of its map. The map and board names and every other byte are
this script's.
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from tabletop.app.clients.vassal_codec import join_tokens, obfuscate

ESC = "\x1b"
MODULEDATA = (
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
    "  <version>1.3b06</version>\n  <extra1/>\n  <extra2/>\n"
    "  <VassalVersion>3.2.17</VassalVersion>\n  <dateSaved>1500000000000</dateSaved>\n"
    "  <description/>\n  <name>TRC4</name>\n</data>\n"
)
SAVEDATA = (
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
    "  <version>1</version>\n  <VassalVersion>3.2.17</VassalVersion>\n"
    "  <dateSaved>1500000000000</dateSaved>\n  <description/>\n</data>\n"
)


def build() -> bytes:
    """Return the save's bytes (always the same)."""
    board = join_tokens(["Main MapBoardPicker", "Board", "0", "0"], "\t")
    text = join_tokens(["begin_save", board, "end_save"], ESC)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in (
            ("savedGame", obfuscate(text, 0x2A)),
            ("savedata", SAVEDATA.encode()),
            ("moduledata", MODULEDATA.encode()),
        ):
            info = zipfile.ZipInfo(name, date_time=(2017, 7, 14, 2, 40, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


if __name__ == "__main__":
    Path(__file__).with_name("trc4-rebuilt.vsav").write_bytes(build())
