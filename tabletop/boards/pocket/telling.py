"""What the table is told: what a roll did, the hits left to assign, what each side needs to win.

The engine keeps a position as a stack of steps; these functions put the steps a player
must know in words: a roll's dice against the rolling troops' values (which troop each
die hits), the hits it leaves to assign and on which units, and how many points of the
enemy each player must still destroy for the round's-end victory check.

Examples
--------
>>> from tabletop.boards import replay
>>> from tabletop.boards.pocket import PocketBattles, example_battle
>>> game = PocketBattles(example_battle())
>>> state = replay(game, game.start(), ["order riders charge", "react wait", "target scouts"]).state
>>> print(roll_words(game, state, (3, 5, 1)))
roll 3 5 1: riders' charge on scouts, melee 3 5: 2 hits (3: rider-1; 5: rider-2; 1 miss)
>>> game.push(state, game.parse_play("roll 3 5 1"))
>>> hits_words(state)
'2 hits left to assign on scouts (each one wound or kill)'
>>> to_win_words(game, state, 1)
"to win: destroy 26 more points of the enemy (half of its 51) by a round's end"
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tabletop.boards.pocket.combat import count_hits
from tabletop.boards.pocket.engine import PocketBattles
from tabletop.boards.pocket.state import PocketState, opponent
from tabletop.boards.words import counted

__all__ = ["hits_words", "roll_words", "to_win_words"]

_STRIKE_WORDS = {
    "charge": "charge on",
    "join": "join on",
    "counter": "counterattack on",
    "shoot": "shot at",
    "react-shoot": "reaction shot at",
}


def roll_words(game: PocketBattles, state: PocketState, dice: Sequence[int]) -> str:
    """Return what `dice` do as the roll due in `state`: the strike, its hits and their troops.

    Each die hits every rolling troop whose value (melee, or shoot for a shot) it shows;
    a unit with ``+N wounds`` adds N when at least one die hits.

    Raises
    ------
    ValueError
        When no roll is due in `state`.
    """
    if game.decision(state).kind != "roll":
        raise ValueError("no roll is due")
    frame = state.stack[-1]
    attacker, defender = state.units[str(frame[1])], state.units[str(frame[2])]
    kind = str(frame[3])
    stat = "shoot" if kind in ("shoot", "react-shoot") else "melee"
    values = [getattr(t.spec, stat) for t in attacker.troops]
    shown = " ".join("-" if v is None else str(v) for v in values)
    head = (
        f"roll {' '.join(map(str, dice))}: {attacker.id}' "
        if attacker.id.endswith("s")
        else f"roll {' '.join(map(str, dice))}: {attacker.id}'s "
    )
    head += f"{_STRIKE_WORDS[kind]} {defender.id}, {stat} {shown}"
    hits = count_hits(values, dice)
    if not hits:
        return f"{head}: no hit"
    matched = []
    for die in dict.fromkeys(dice):
        troops = [t.id for t, v in zip(attacker.troops, values, strict=True) if v == die]
        if troops:
            times = dice.count(die)
            matched.append(f"{die}{f' ×{times}' if times > 1 else ''}: {', '.join(troops)}")
    misses = [str(d) for d in dict.fromkeys(dice) if d not in values]
    detail = "; ".join(matched) + (f"; {', '.join(misses)} miss" if misses else "")
    text = f"{head}: {counted(hits, 'hit')} ({detail})"
    bonus = attacker.traits.wounds
    if bonus:
        text += f", +{bonus} (wounds): {counted(hits + bonus, 'hit')}"
    return text


def hits_words(state: PocketState) -> str:
    """Return the hits left to assign, unit by unit, the one to assign now first ("" if none)."""
    frames = []
    for frame in reversed(state.stack):
        if frame[0] != "hits":
            break
        unit = state.units[str(frame[1])]
        if unit.on_field and int(str(frame[2])) > 0:
            frames.append((unit.id, int(str(frame[2]))))
    if not frames:
        return ""
    (first, left), rest = frames[0], frames[1:]
    text = f"{counted(left, 'hit')} left to assign on {first} (each one wound or kill)"
    if rest:
        text += "; then " + ", ".join(f"{n} on {u}" for u, n in rest)
    return text


def to_win_words(game: PocketBattles, state: PocketState, player: int) -> str:
    """Return what `player` still needs to win at the victory check of a round's end."""
    enemy = game.battle.army(opponent(player)).points
    needed = math.ceil(enemy / 2)
    done = state.destroyed[player]
    if done >= needed:
        return (
            f"to win: half of the enemy's {enemy} points destroyed: wins at the round's end "
            "unless the enemy has too (then more points destroyed, then the defender)"
        )
    return (
        f"to win: destroy {counted(needed - done, 'more point')} of the enemy (half of its {enemy}) "
        "by a round's end"
    )
