"""Obstacle composition: which obstacles a tournament setup holds, as the rules object says.

A separate concern from placement (where each obstacle may lie): it counts and names
tokens, and measures nothing, so its violations carry no distance.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.obstacles.scene import Scene
from tabletop.obstacles.verdicts import Violation

__all__ = ["composition_violations"]


def _number_word(count: int) -> str:
    """Spell a small count as the rules do (``three``), larger ones as digits."""
    words = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
    return words[count] if 0 <= count < len(words) else str(count)


def _broken(objects: Sequence[str], message: str) -> Violation:
    """Return one obstacle-composition violation (it measures nothing)."""
    return Violation.plain("obstacle-composition", objects, message)


def _fixed_set_violations(scene: Scene) -> list[Violation]:
    """Check a fixed set (Armada: three asteroid fields, two debris fields, one station)."""
    wanted = scene.ruleset.obstacle_set
    found: list[Violation] = []
    for kind, count in wanted.kinds.items():
        ids = [o.id for o in scene.obstacles if o.kind == kind]
        if len(ids) != count:
            found.append(
                _broken(
                    ids, f"the table has {len(ids)} {kind} obstacles; the standard set has {count}"
                )
            )
    others = [o.id for o in scene.obstacles if o.kind not in wanted.kinds]
    if others:
        found.append(_broken(others, f"{', '.join(others)}: not part of the standard obstacle set"))
    by_token: dict[str, list[str]] = {}
    for o in scene.obstacles:
        by_token.setdefault(o.token or f"custom {o.id}", []).append(o.id)
    every = _number_word(wanted.size)
    for name, ids in by_token.items():
        if len(ids) > 1:
            found.append(
                _broken(
                    ids, f"{', '.join(ids)} are the same token ({name}); all {every} must differ"
                )
            )
    return found


def _brought_violations(scene: Scene, per_player: int) -> list[Violation]:
    """Check the tokens the players bring (X-Wing tournament play).

    Each player brings exactly `per_player` different tokens of the allowed families.
    """
    ruleset = scene.ruleset
    families = ruleset.obstacle_set.families
    brings = _number_word(per_player)
    found: list[Violation] = []
    for o in scene.obstacles:
        if o.token is None or o.family not in families:
            what = "a custom outline" if o.token is None else f"{o.token} ({o.family})"
            found.append(
                _broken(
                    [o.id],
                    f"{o.id} is {what}, not a token allowed in {ruleset.name} tournament play",
                )
            )
        if o.player not in (1, 2):
            found.append(
                _broken(
                    [o.id],
                    f"{o.id} has no player; in tournament play each player brings {brings} obstacles",
                )
            )
    for player in (1, 2):
        mine = [o for o in scene.obstacles if o.player == player]
        if len(mine) != per_player:
            found.append(
                _broken(
                    [o.id for o in mine],
                    f"player {player} brought {len(mine)} obstacles; each player brings exactly "
                    f"{per_player}",
                )
            )
        seen: dict[str, list[str]] = {}
        for o in mine:
            if o.token is not None:
                seen.setdefault(o.token, []).append(o.id)
        for name, ids in seen.items():
            if len(ids) > 1:
                found.append(
                    _broken(
                        ids,
                        f"player {player} brought {name} {len(ids)} times; the {brings} must differ",
                    )
                )
    return found


def composition_violations(scene: Scene) -> list[Violation]:
    """Return the obstacle-composition violations of a tournament scene (none is legal).

    The rules object says what a setup holds (:attr:`tabletop.geom.rules.Rules.obstacle_set`): a
    fixed set (Armada) or tokens each player brings (X-Wing tournament play).
    """
    per_player = scene.ruleset.obstacle_set.per_player
    if per_player is None:
        return _fixed_set_violations(scene)
    return _brought_violations(scene, per_player)
