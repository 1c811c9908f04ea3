r"""Build ``xws-ships.json``: each X-Wing ship's XWS id -> its base size.

Run once, by hand, on a checkout of the community data set xwing-data2
(github.com/xwingtmg/xwing-data2)::

    python tabletop/app/clients/data/make_xws_ships.py CHECKOUT COMMIT > \\
        tabletop/app/clients/data/xws-ships.json

Every ``data/pilots/<faction>/<ship>.json`` states the ship's ``xws`` id and its ``size``
(``Small``, ``Medium``, ``Large`` or ``Huge``); the same ship under several factions must
state the same size (the script stops otherwise). An XWS list names each pilot's ship by
that id (the pilot's ``ship`` key), so the table maps ships, not pilots.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def build(checkout: str, commit: str) -> dict[str, Any]:
    """Return the table (see the module's docstring)."""
    sizes: dict[str, str] = {}
    files: dict[str, str] = {}
    for path in sorted(Path(checkout, "data", "pilots").glob("*/*.json")):
        ship = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(ship, dict) or "xws" not in ship or "size" not in ship:
            continue
        xws, size = str(ship["xws"]), str(ship["size"]).lower()
        where = str(path.relative_to(checkout))
        if sizes.get(xws, size) != size:
            raise SystemExit(f"{where}: {xws} is {size}, but {files[xws]} says {sizes[xws]}")
        sizes[xws], files[xws] = size, where
    return {
        "source": {
            "repository": "xwingtmg/xwing-data2",
            "commit": commit,
            "files": "data/pilots/<faction>/<ship>.json: the keys xws and size",
            "script": "tabletop/app/clients/data/make_xws_ships.py",
        },
        "ships": dict(sorted(sizes.items())),
    }


if __name__ == "__main__":
    json.dump(build(sys.argv[1], sys.argv[2]), sys.stdout, indent=1)
    sys.stdout.write("\n")
