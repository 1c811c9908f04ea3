r"""Build ``xws-pilots.json``: each X-Wing pilot's XWS id -> its ship's XWS id.

Run once, by hand, on a checkout of the community data set xwing-data2
(github.com/xwingtmg/xwing-data2)::

    python tabletop/app/clients/data/make_xws_pilots.py CHECKOUT COMMIT > \\
        tabletop/app/clients/data/xws-pilots.json

Every ``data/pilots/<faction>/<ship>.json`` states the ship's ``xws`` id and lists its
pilots, each with its own ``xws`` id. An XWS 2.0 list may name a pilot by ``id`` alone,
without its ship: this table gives the ship, whose base ``xws-ships.json`` gives. A pilot
id listed under two different ships would be ambiguous: the script stops on one.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def build(checkout: str, commit: str) -> dict[str, Any]:
    """Return the table (see the module's docstring)."""
    ships: dict[str, str] = {}
    files: dict[str, str] = {}
    for path in sorted(Path(checkout, "data", "pilots").glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or "xws" not in data:
            continue
        ship, where = str(data["xws"]), str(path.relative_to(checkout))
        for pilot in data.get("pilots", []):
            if not isinstance(pilot, dict) or "xws" not in pilot:
                continue
            xws = str(pilot["xws"])
            if ships.get(xws, ship) != ship:
                raise SystemExit(
                    f"{where}: {xws} flies a {ship}, but {files[xws]} says {ships[xws]}"
                )
            ships[xws], files[xws] = ship, where
    return {
        "source": {
            "repository": "xwingtmg/xwing-data2",
            "commit": commit,
            "files": "data/pilots/<faction>/<ship>.json: the ship's xws and each pilot's xws",
            "script": "tabletop/app/clients/data/make_xws_pilots.py",
        },
        "pilots": dict(sorted(ships.items())),
    }


if __name__ == "__main__":
    json.dump(build(sys.argv[1], sys.argv[2]), sys.stdout, indent=1)
    sys.stdout.write("\n")
