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


def composition_violations(scene: Scene) -> list[Violation]:
    """Return the obstacle-composition violations of a tournament scene (none is legal).

    The rules object says what a setup holds (:attr:`tabletop.geom.rules.Rules.obstacle_set`): a
    fixed set (Armada) or tokens each player brings (X-Wing tournament play).
    """
    ruleset = scene.ruleset
    found: list[Violation] = []

    def broken(objects: Sequence[str], message: str) -> None:
        found.append(Violation.plain("obstacle-composition", objects, message))

    wanted = ruleset.obstacle_set
    if wanted.per_player is None:
        # A fixed set (Armada: three asteroid fields, two debris fields, one station).
        for kind, count in wanted.kinds.items():
            ids = [o.id for o in scene.obstacles if o.kind == kind]
            if len(ids) != count:
                broken(
                    ids, f"the table has {len(ids)} {kind} obstacles; the standard set has {count}"
                )
        others = [o.id for o in scene.obstacles if o.kind not in wanted.kinds]
        if others:
            broken(others, f"{', '.join(others)}: not part of the standard obstacle set")
        by_token: dict[str, list[str]] = {}
        for o in scene.obstacles:
            by_token.setdefault(o.token or f"custom {o.id}", []).append(o.id)
        every = _number_word(wanted.size)
        for name, ids in by_token.items():
            if len(ids) > 1:
                broken(
                    ids, f"{', '.join(ids)} are the same token ({name}); all {every} must differ"
                )
        return found
    # Brought by the players (X-Wing tournament): each player exactly `per_player`
    # different tokens of the allowed families.
    families = wanted.families
    per_player = wanted.per_player
    brings = _number_word(per_player)
    for o in scene.obstacles:
        if o.token is None or o.family not in families:
            what = "a custom outline" if o.token is None else f"{o.token} ({o.family})"
            broken(
                [o.id], f"{o.id} is {what}, not a token allowed in {ruleset.name} tournament play"
            )
        if o.player not in (1, 2):
            broken(
                [o.id],
                f"{o.id} has no player; in tournament play each player brings {brings} obstacles",
            )
    for player in (1, 2):
        mine = [o for o in scene.obstacles if o.player == player]
        if len(mine) != per_player:
            broken(
                [o.id for o in mine],
                f"player {player} brought {len(mine)} obstacles; each player brings exactly "
                f"{per_player}",
            )
        seen: dict[str, list[str]] = {}
        for o in mine:
            if o.token is not None:
                seen.setdefault(o.token, []).append(o.id)
        for name, ids in seen.items():
            if len(ids) > 1:
                broken(
                    ids,
                    f"player {player} brought {name} {len(ids)} times; the {brings} must differ",
                )
    return found
