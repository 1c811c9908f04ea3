"""The VASSAL and XWS facts of :data:`tabletop.app.clients.facts.FACTS`, and those real files taught.

Examples
--------
>>> [fact.name for fact in VASSAL_XWS_FACTS][:2]
['vassal_px_per_mm', 'vassal_board_px']
"""

from __future__ import annotations

from tabletop.app.clients.fact import Fact

__all__ = ["REAL_FILE_FACTS", "VASSAL_XWS_FACTS"]

VASSAL_XWS_FACTS: tuple[Fact, ...] = (
    Fact(
        "vassal_px_per_mm",
        2.825,
        "px per mm",
        "VASSAL X-Wing module: 2.825 map pixels per mm",
        "Mu0n/XWVassal: mic/src/main/java/mic/manuvers/StraightPaths.java (a 1-straight is "
        "40 * 2.825 px) and the obstacle masks of its buildFile.xml",
        True,
    ),
    Fact(
        "vassal_board_px",
        2583.0,
        "px",
        "VASSAL X-Wing module: a 3'x3' board is 2583 x 2583 px (914.34 mm; the scene's "
        "914.4 mm area differs by 0.06 mm, below the 0.354 mm resolution)",
        "Mu0n/XWVassal: mic/swxwmg.vmod-unpacked/buildFile.xml (Board height=2583 width=2583; the "
        "board images Frog, TMC, Starfield and Mustafar are 2583 x 2583 px)",
        True,
    ),
    Fact(
        "vassal_table_map",
        "Contested Sector",
        "-",
        "VASSAL X-Wing module: the table is the map named Contested Sector (a save names a "
        "piece's map by its name); the Player 1..8 maps are the players' own areas",
        "Mu0n/XWVassal: buildFile.xml (Map mapName); vassalengine/vassal: "
        "UniqueIdManager.getIdentifier (a map's id is its name)",
        True,
    ),
    Fact(
        "vassal_single_board",
        "3x3ft",
        "-",
        "VASSAL: a save that names no board for its table map is taken to hold one 3'x3' "
        "board at the map's origin",
        "Mu0n/XWVassal: buildFile.xml (the Map's edgeWidth and edgeHeight are 0); a save "
        "without a BoardPicker command for its map was not seen",
        False,
    ),
    Fact(
        "vassal_board_choice",
        "BoardPicker",
        "-",
        "VASSAL X-Wing module: a save names its table map's board in the command '<map "
        "id>BoardPicker', tab-separated board name, column, row; the 18 boards named "
        "3'x3' are 2583 x 2583 px, the others (6'x3', 3'x6', 4'x4', 5'x5') are refused",
        "vassalengine/vassal: vassal-app/src/main/java/VASSAL/build/module/map/"
        "BoardPicker.java (encode, decode, getRestoreCommand); Mu0n/XWVassal: "
        "mic/swxwmg.vmod-unpacked/buildFile.xml (the Contested Sector map's 24 boards) and "
        "its 3'x3' board images (each 2583 x 2583 px)",
        True,
    ),
    Fact(
        "vassal_y_down",
        "y down",
        "-",
        "VASSAL: map y grows downward (Java 2D); scene y = (2583 - y px) / 2.825",
        "vassalengine/vassal: vassal-app/src/main/java/VASSAL/counters/FreeRotator.java (AWT transforms)",
        True,
    ),
    Fact(
        "vassal_player1_edge",
        "bottom",
        "-",
        "VASSAL X-Wing module: player 1's edge is the bottom of the map (largest y px)",
        "Mu0n/XWVassal: no file of the module names the players' edges",
        False,
    ),
    Fact(
        "vassal_rotation_ccw",
        "counter-clockwise",
        "-",
        "VASSAL: a FreeRotator angle turns a piece counter-clockwise on screen (it draws "
        "with a rotation of -angle in y-down pixels)",
        "vassalengine/vassal: vassal-app/src/main/java/VASSAL/counters/FreeRotator.java "
        "(getAngleInRadians = -PI/180 * angle)",
        True,
    ),
    Fact(
        "vassal_ship_front",
        "up",
        "-",
        "VASSAL X-Wing module: a ship at rotation 0 faces up the screen (-y px): heading "
        "= 90 + angle",
        "Mu0n/XWVassal: mic/src/main/java/mic/manuvers/StraightPaths.java (forward moves are -y "
        "before the -angle rotation of ManeuverPaths.java)",
        True,
    ),
    Fact(
        "vassal_ship_facings",
        360.0,
        "facings",
        "VASSAL X-Wing module: a ship turns in 360 facings, whole degrees",
        "Mu0n/XWVassal: buildFile.xml (prototype Rotation Basis: rotate;360)",
        True,
    ),
    Fact(
        "vassal_ship_base",
        "ship -- Stem2e Small|Medium|Large",
        "-",
        "VASSAL X-Wing module: a ship's base is named in its piece: ship -- Stem2e Small, "
        "Medium or Large ... Ship",
        "Mu0n/XWVassal: mic/src/main/java/mic/GamePieceGenerator2e.java (the stem ship slots)",
        True,
    ),
    Fact(
        "vassal_rotation_centre",
        0.177,
        "mm",
        "VASSAL: a piece turns about its position (half a pixel off for an odd-sized "
        "image, 0.177 mm, below the resolution and ignored)",
        "vassalengine/vassal: vassal-app/src/main/java/VASSAL/counters/FreeRotator.java (centerX, centerY)",
        True,
    ),
    Fact(
        "vassal_obstacle_offset",
        "vassal-obstacles.json",
        "-",
        "VASSAL X-Wing module: an obstacle's catalog reference point lies at the piece's "
        "position plus its mask centroid (tabletop/app/clients/data/vassal-obstacles.json)",
        "Mu0n/XWVassal: buildFile.xml (nonRect masks, relative to the piece's position); "
        "mic/src/main/java/mic/Obstacles.java for the names",
        True,
    ),
    Fact(
        "vassal_obstacle_flipped",
        "rock layer at image 2",
        "-",
        "VASSAL X-Wing module: an obstacle shows its back when its rock layer (the "
        "Embellishment of its two face images) is at image 2; the back image is the front "
        "mirrored in x (the catalog's flipped side), moved sideways for some tokens by up "
        "to 3.5 mm, as vassal-obstacles.json records",
        "Mu0n/XWVassal: buildFile.xml (the layers Asteroid_5b.png,Asteroid_5fb.png ...) and "
        "the face images of mic/swxwmg.vmod-unpacked/images (mirrored front against back: "
        "0.94 to 1.00 of their pixels shared)",
        True,
    ),
    Fact(
        "vassal_module_name",
        "Star Wars X-Wing Miniatures Game",
        "-",
        "VASSAL: a save names its module in its moduledata entry (<name>, <version>); the "
        "X-Wing module is 'Star Wars X-Wing Miniatures Game', any other is refused",
        "vassalengine/vassal: vassal-app/src/main/java/VASSAL/build/module/metadata/"
        "SaveMetaData.java (copies the module's metadata into the save); Mu0n/XWVassal: "
        "mic/swxwmg.vmod-unpacked/buildFile.xml (GameModule name); a real VASSAL 3.2.17 "
        "save of the module TRC4 was reported to name it there (rebuilt in "
        "tests/data/real/vassal)",
        True,
    ),
    Fact(
        "vassal_unnamed_module",
        "X-Wing",
        "-",
        "VASSAL: a save that names no module (no moduledata entry, or one without <name>) "
        "is read as a save of the X-Wing module",
        "vassalengine/vassal: SaveMetaData.java (an old-style save without metadata is read "
        "as well); nothing in such a save says which module wrote it",
        False,
    ),
    Fact(
        "xws_ship_bases",
        "xws-ships.json",
        "-",
        "XWS: a pilot's base is its ship's size in xwing-data2 "
        "(tabletop/app/clients/data/xws-ships.json)",
        "xwingtmg/xwing-data2: data/pilots/<faction>/<ship>.json (xws, size)",
        True,
    ),
    Fact(
        "xws_pilot_ships",
        "xws-pilots.json",
        "-",
        "XWS: a pilot given by its id alone flies the ship xwing-data2 lists it under "
        "(tabletop/app/clients/data/xws-pilots.json)",
        "xwingtmg/xwing-data2: data/pilots/<faction>/<ship>.json (the ship's xws and each "
        "pilot's xws; no pilot id is listed under two ships)",
        True,
    ),
)

_SPEC = "elistevens/xws-spec (MIT)"
_R2D7 = "philipdouglas/r2-d7 (MIT): tests/test_listformatter.py at 6076fcf0, lists captured from the builders"

#: What the real XWS lists taught (``tests/data/real/ORIGINS.md``).
REAL_FILE_FACTS: tuple[Fact, ...] = (
    Fact(
        "xws_edition",
        "faction, else version",
        "-",
        "XWS: a list is a 1st-edition list when its faction is one of the 1st edition's "
        "(rebel, imperial, scum; rebels and empire in XWS 0.1 and 0.2), a 2.0 list when it is "
        "one of 2.0's (rebelalliance ... separatistalliance) whatever its version, and "
        "otherwise by its version (0.x and 1.x: 1st edition)",
        f"{_SPEC}: README.md (the factions of 0.1.1 and of 2.0), sample.json at e65d3c8b "
        f"(0.1.0), ba7d7dd1 (0.2.0), 554f72fc (0.3.0, faction rebel) and 080c2d00 (2.0.0); "
        f"{_R2D7} (YASB 2.0 and FFG-builder exports of 2.0 lists state version 0.3.0)",
        True,
    ),
    Fact(
        "xws1_ship_bases",
        "xws1-ships.json",
        "-",
        "XWS 1st edition: a pilot's base is its ship's size in xwing-data "
        "(tabletop/app/clients/data/xws1-ships.json: small, large or huge)",
        "guidokessels/xwing-data (MIT): data/ships.js at 4e6fca90 (xws, size)",
        True,
    ),
    Fact(
        "xws_appended_ship",
        "<pilot>-<ship>",
        "-",
        "XWS 2.0: a pilot id unknown to xwing-data2 that ends in a hyphen and a ship id "
        "(dfs311-vultureclassdroidfighter) is a pilot of that ship",
        f"{_SPEC}: sample.json at 080c2d00 (dfs311-vultureclassdroidfighter, no ship key)",
        True,
    ),
    Fact(
        "xws_builder_ship_ids",
        "pilot's ship",
        "-",
        "XWS 2.0: a pilot whose ship key is no 2.0 ship id (a builder's export may write the "
        "1st edition's xwing or ywing) flies the ship its pilot id names in xwing-data2",
        f"{_R2D7} (a YASB 2.0 list: lukeskywalker with ship xwing, norrawexley-btla4ywing "
        "with ship ywing)",
        True,
    ),
    Fact(
        "xws1_obstacle_ids",
        "core-asteroid-5",
        "-",
        "XWS 0.x: an obstacle id EXPANSION-TYPE-N (core-asteroid-5) is the catalog token "
        "of the same name without hyphens (coreasteroid5); the 0-based numbering is taken "
        "to be the 2.0 spec's",
        f"{_SPEC}: README_OBSTACLES.md at e6b946de (EXPANSION-TYPE-N, 0-based) and sample.json "
        "at 554f72fc; the pictures of the two numberings were not compared",
        False,
    ),
    Fact(
        "xws_empty_obstacles",
        "[]",
        "-",
        "XWS: builders export a list without obstacles as 'obstacles': [] or without the "
        "key; both are a list that names none",
        f"{_R2D7} (a Launch Bay Next export with obstacles [])",
        True,
    ),
)
