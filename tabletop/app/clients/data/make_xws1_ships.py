r"""Build ``xws1-ships.json``: each 1st-edition X-Wing ship's XWS id -> its base size.

Run once, by hand, on a checkout of the 1st-edition community data set xwing-data
(github.com/guidokessels/xwing-data, MIT licence)::

    python tabletop/app/clients/data/make_xws1_ships.py CHECKOUT COMMIT > \\
        tabletop/app/clients/data/xws1-ships.json

``data/ships.js`` (a JSON list despite its suffix) states every ship's ``xws`` id and its
``size`` (``small``, ``large`` or ``huge``). An XWS list of the 1st edition (XWS 0.x and
1.x, factions ``rebel``, ``imperial`` and ``scum``) names each pilot's ship by that id.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def build(checkout: str, commit: str) -> dict[str, Any]:
    """Return the table (see the module's docstring)."""
    ships = json.loads(Path(checkout, "data", "ships.js").read_text(encoding="utf-8"))
    sizes: dict[str, str] = {}
    for ship in ships:
        xws, size = str(ship["xws"]), str(ship["size"]).lower()
        if sizes.get(xws, size) != size:
            raise SystemExit(f"{xws} is {size} and {sizes[xws]}")
        sizes[xws] = size
    return {
        "source": {
            "repository": "guidokessels/xwing-data",
            "commit": commit,
            "licence": "MIT",
            "files": "data/ships.js: the keys xws and size",
            "script": "tabletop/app/clients/data/make_xws1_ships.py",
        },
        "ships": dict(sorted(sizes.items())),
    }


if __name__ == "__main__":
    json.dump(build(sys.argv[1], sys.argv[2]), sys.stdout, indent=1)
    sys.stdout.write("\n")
