"""Obstacles and scenes: the friendly objects a scene file describes.

A :class:`Scene` is one tabletop state: its ruleset, play area, phase, format,
obstacles and ships. Construction is permissive (a scene that breaks a game rule is a
valid scene; :func:`tabletop.obstacles.legality.check` reports what it breaks); reading files
with every input check is :func:`tabletop.app.scene.scenefile.load_scene`'s job.

Examples
--------
>>> from tabletop.geom.rulesets import get_ruleset
>>> from tabletop.geom.areas import play_area
>>> from tabletop.geom.objects import CACHED_TABLE_MOST, Ship, placement_key
>>> xw = get_ruleset("xwing2")
>>> rock = Obstacle.from_token(xw, "rock", "coreasteroid0", 457.2, 457.2)
>>> scene = Scene(xw, play_area("3x3ft"), obstacles=(rock,), ships=(Ship("a", "small", 100, 40),))
>>> scene.get("rock").kind
'asteroid'
>>> scene.get("nope")
Traceback (most recent call last):
...
tabletop.geom.errors.UnknownObjectError: no object with id 'nope'; the scene has: rock, a
"""

from __future__ import annotations

import dataclasses as _dc
import functools as _functools
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import shapely

from tabletop.geom.areas import PlayArea
from tabletop.geom.errors import UnknownObjectError
from tabletop.geom.objects import CACHED_TABLE_MOST, Ship, placement_key
from tabletop.geom.poses import FloatArray
from tabletop.geom.rulesets import Ruleset
from tabletop.geom.shapes import place_outline
from tabletop.obstacles.catalog import get_token, printed_name

__all__ = ["Obstacle", "Scene", "obstacle_polygons"]

#: Reaches of outlines by identity (a catalog token's outline is one array shared by every
#: obstacle of that token), each entry holding its outline so the identity stays its own.
_REACHES: dict[int, tuple[FloatArray, float]] = {}
_REACH_CACHE_SIZE = 256
#: Placed outlines by vertices, flipped and (x, y, angle): the corners and polygon
#: obstacle_polygons placed lately (emptied when full).
_PLACED: dict[tuple[bytes, bool, tuple[float | bool, ...]], tuple[FloatArray, shapely.Polygon]] = {}
_PLACED_SIZE = 4096


def obstacle_polygons(obstacles: Sequence[Obstacle]) -> list[shapely.Polygon]:
    """Return each obstacle's :meth:`Obstacle.polygon`, placing those not yet placed in one pass.

    Obstacles of one outline are placed together (:func:`place_outline` takes many
    placements; the same arithmetic, element by element, as one at a time), and each
    obstacle keeps its placed outline as if it had placed it itself. On a table of at
    most :data:`~tabletop.geom.objects.CACHED_TABLE_MOST` obstacles an outline placed
    lately at the same place is taken from a small cache: a table asked again with one
    piece moved (the live verdict of a drag) has every other obstacle where it was.
    """
    groups: dict[bytes, list[Obstacle]] = {}
    # A table a hand drags on is a few dozen pieces; a larger one keeps no cache (its
    # keys would cost more than they save, and it would push the small tables out).
    cached = len(obstacles) <= CACHED_TABLE_MOST
    if len(_PLACED) > _PLACED_SIZE:
        _PLACED.clear()
    # Each outline's vertices as bytes, by the identity of the outline (one array is
    # often shared: a catalog token's, or alike outlines of a file); every outline is
    # held by its obstacle meanwhile, so no identity is reused.
    vertex_bytes: dict[int, bytes] = {}
    for o in obstacles:
        if "_world" not in o.__dict__:
            # Alike outlines (the same vertices, read from a file or from the catalog)
            # are placed together.
            key = vertex_bytes.get(id(o.outline))
            if key is None:
                outline = o.outline
                if type(outline) is not np.ndarray or outline.dtype != np.float64:
                    outline = np.asarray(outline, dtype=np.float64)
                key = vertex_bytes[id(o.outline)] = outline.tobytes()
            known = (
                _PLACED.get((key, o.flipped, placement_key(o.x, o.y, o.angle))) if cached else None
            )
            if known is not None:
                o.__dict__["_world"] = known
            else:
                groups.setdefault(key, []).append(o)
    for key, members in groups.items():
        # The rows of Obstacle.placement, gathered in one flat array.
        flat = [v for o in members for v in (o.x, o.y, o.angle, float(o.flipped))]
        placements = np.array(flat, dtype=np.float64).reshape(-1, 4)
        vertices = place_outline(members[0].outline, placements)
        vertices.setflags(write=False)
        for o, corners, polygon in zip(
            members, vertices, shapely.polygons(vertices).tolist(), strict=True
        ):
            # The cached placement Obstacle._world would compute, filled in here.
            o.__dict__["_world"] = (corners, polygon)
            if cached:
                _PLACED[key, o.flipped, placement_key(o.x, o.y, o.angle)] = (corners, polygon)
    return [o.polygon() for o in obstacles]


@_dc.dataclass(frozen=True, eq=False)
class Obstacle:
    """An obstacle token (catalog or custom outline) placed on the table.

    Attributes
    ----------
    id : str
        Unique in its scene.
    outline : ndarray of shape (k, 2)
        Vertices in the token frame, counter-clockwise, mm.
    kind : str
        asteroid, debris, gas, station, dust, huge-ship or other.
    x, y : float
        The reference point (a catalog token's centroid; a custom outline's origin).
    angle : float
        Degrees counter-clockwise.
    flipped : bool
        The token turned over: x → −x in its own frame before rotating.
    player : int or None
        Who brought it (tournament composition).
    token : str or None
        The catalog name, or None for a custom outline.
    family : str or None
        The catalog family, or None for a custom outline.
    """

    id: str
    outline: FloatArray
    kind: str
    x: float
    y: float
    angle: float = 0.0
    flipped: bool = False
    player: int | None = None
    token: str | None = None
    family: str | None = None

    @classmethod
    def from_token(
        cls,
        ruleset: Ruleset,
        id: str,
        token: str,
        x: float,
        y: float,
        angle: float = 0.0,
        flipped: bool = False,
        player: int | None = None,
    ) -> Obstacle:
        """Return an obstacle of a catalog token, by name or printed name (raises for another)."""
        spec = get_token(ruleset, token)
        return cls(
            id, spec.outline, spec.kind, x, y, angle, flipped, player, spec.name, spec.family
        )

    @property
    def placement(self) -> FloatArray:
        """``(x, y, angle, flipped)`` as a float array (flipped 0 or 1)."""
        return np.array([self.x, self.y, self.angle, float(self.flipped)], dtype=np.float64)

    @_functools.cached_property
    def _world(self) -> tuple[FloatArray, shapely.Polygon]:
        vertices = place_outline(self.outline, self.placement)
        vertices.setflags(write=False)
        return vertices, shapely.Polygon(vertices)

    @_functools.cached_property
    def reach(self) -> float:
        """The farthest the outline reaches from the reference point, mm (any placement).

        Turning and flipping keep each vertex's distance to the reference point, so the
        placed outline lies in the disk of this radius about ``(x, y)``: a cheap bound
        that tells an obstacle far from a shot without placing its outline.
        """
        known = _REACHES.get(id(self.outline))
        if known is not None and known[0] is self.outline:
            return known[1]
        outline = np.asarray(self.outline, dtype=np.float64)
        reach = float(np.sqrt(np.max(outline[:, 0] ** 2 + outline[:, 1] ** 2)))
        if len(_REACHES) >= _REACH_CACHE_SIZE:
            _REACHES.clear()
        _REACHES[id(self.outline)] = (self.outline, reach)
        return reach

    def world_outline(self) -> FloatArray:
        """Return the placed outline's world vertices ``(k, 2)`` (computed once)."""
        return self._world[0]

    def polygon(self) -> shapely.Polygon:
        """Return the placed outline as a shapely polygon (computed once)."""
        return self._world[1]

    def moved(self, x: float, y: float) -> Obstacle:
        """Return a copy placed at another reference point."""
        return _dc.replace(self, x=float(x), y=float(y))

    def to_dict(self) -> dict[str, Any]:
        """Return the scene-file entry of this obstacle."""
        entry: dict[str, Any] = {"id": self.id}
        if self.token is not None:
            entry["token"] = self.token
        else:
            entry["outline"] = [[float(x), float(y)] for x, y in self.outline]
            entry["kind"] = self.kind
        entry["at"] = [float(self.x), float(self.y)]
        if self.angle:
            entry["angle"] = float(self.angle)
        if self.flipped:
            entry["flipped"] = True
        if self.player is not None:
            entry["player"] = self.player
        return entry


SceneObject = Ship | Obstacle


@_dc.dataclass(frozen=True, eq=False)
class Scene:
    """One tabletop state.

    Attributes
    ----------
    ruleset : Ruleset
        Constants and rule choices (with the scene's ``[constants]`` applied).
    area : PlayArea
        The play area.
    phase : {"setup", "play"}
        ``setup`` applies the placement rules; ``play`` only overlap and play area.
    format : {"standard", "tournament"}
        ``tournament`` adds the obstacle-composition rule.
    obstacles, ships : tuple
        The objects, in file order.
    constants : mapping
        The ``[constants]`` overrides as given, for writing the scene back.
    source : mapping or None
        Where an imported scene came from: ``client``, ``format``, ``version`` and the
        client's resolution ``position_mm`` (and ``heading_deg``); None for a scene
        written by hand.
    placed_last : str or None
        The obstacle placed last (the one being placed): the one a spacing fix moves.
    printed_names : bool
        Whether answers give each catalog token's printed name beside its id.
    """

    ruleset: Ruleset
    area: PlayArea
    phase: Literal["setup", "play"] = "setup"
    format: Literal["standard", "tournament"] = "standard"
    obstacles: tuple[Obstacle, ...] = ()
    ships: tuple[Ship, ...] = ()
    constants: Mapping[str, Any] = _dc.field(default_factory=dict)
    source: Mapping[str, Any] | None = None
    placed_last: str | None = None
    printed_names: bool = False

    def token_names(self) -> dict[str, str]:
        """Return the printed name of every catalog-token obstacle, by obstacle id."""
        names: dict[str, str] = {}
        for obstacle in self.obstacles:
            if obstacle.token is not None:
                printed = printed_name(self.ruleset, obstacle.token)
                if printed is not None:
                    names[obstacle.id] = printed
        return names

    @property
    def resolution_mm(self) -> float | None:
        """Return the position resolution of the client the scene came from, if imported."""
        if self.source is None:
            return None
        value = self.source.get("position_mm")
        return float(value) if isinstance(value, int | float) else None

    @property
    def ids(self) -> tuple[str, ...]:
        """Every object id, obstacles first, in file order."""
        return tuple(o.id for o in self.obstacles) + tuple(s.id for s in self.ships)

    def get(self, id: str) -> SceneObject:
        """Return the ship or obstacle called `id`.

        Raises
        ------
        UnknownObjectError
            If there is none; the message lists the ids the scene has. Its ``where`` is
            None: the caller knows what the id was for.
        """
        found = self._index.get(id)
        if found is not None:
            return found
        raise UnknownObjectError(
            f"no object with id {id!r}; the scene has: " + (", ".join(self.ids) or "no objects"),
            id,
        )

    def _by_id_order(self) -> tuple[SceneObject, ...]:
        return (*self.obstacles, *self.ships)

    @_functools.cached_property
    def _index(self) -> dict[str, SceneObject]:
        # Built once per scene: a query asks many questions of one scene. The first of
        # objects sharing an id (a scene built in code may hold such) is the one found.
        index: dict[str, SceneObject] = {}
        for obj in self._by_id_order():
            index.setdefault(obj.id, obj)
        return index

    def has(self, id: str) -> bool:
        """Return whether an object of the scene is called `id`."""
        return id in self._index

    def ship(self, id: str) -> Ship:
        """Return the ship called `id`.

        Raises
        ------
        UnknownObjectError
            If there is none, or `id` is an obstacle; ``where`` is ``"ship 'ID'"``.
        """
        try:
            obj = self.get(id)
        except UnknownObjectError as error:
            raise UnknownObjectError(error.message, id, where=f"ship {id!r}") from None
        if not isinstance(obj, Ship):
            ships = ", ".join(s.id for s in self.ships) or "no ships"
            raise UnknownObjectError(
                f"{id!r} is an obstacle, not a ship; the ships are: {ships}",
                id,
                where=f"ship {id!r}",
            )
        return obj

    def replace(self, **changes: Any) -> Scene:
        """Return a copy with some fields changed."""
        return _dc.replace(self, **changes)

    def with_ship(self, ship: Ship) -> Scene:
        """Return a copy in which the ship with `ship`'s id is replaced by `ship`."""
        return self.replace(ships=tuple(ship if s.id == ship.id else s for s in self.ships))

    @classmethod
    def from_dict(cls, data: Any) -> Scene:
        """Build a scene from the scene-file structure (:func:`~tabletop.obstacles.sceneformat.scene_from_dict`).

        Raises
        ------
        SceneFormatError
            For anything that does not fit ``scene-format.md``, naming the entry and key.
        """
        from tabletop.obstacles.sceneformat import (
            scene_from_dict,  # the format builds on this module
        )

        return scene_from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        """Return the scene-file structure (the inverse of :meth:`from_dict`)."""
        data: dict[str, Any] = {"ruleset": self.ruleset.name, "area": self.area.to_json()}
        if self.phase != "setup":
            data["phase"] = self.phase
        if self.format != "standard":
            data["format"] = self.format
        if self.constants:
            data["constants"] = dict(self.constants)
        if self.source is not None:
            data["source"] = dict(self.source)
        if self.placed_last is not None:
            data["placed_last"] = self.placed_last
        if self.printed_names:
            data["printed_names"] = True
        data["obstacles"] = [o.to_dict() for o in self.obstacles]
        ships = []
        for s in self.ships:
            entry: dict[str, Any] = {"id": s.id, "base": s.base, "at": [s.x, s.y]}
            entry["heading"] = s.heading
            entry["player"] = s.player
            if s.hull is not None:
                entry["hull"] = s.hull
            ships.append(entry)
        data["ships"] = ships
        return data
