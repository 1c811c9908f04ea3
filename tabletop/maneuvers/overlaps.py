"""Ships a move's final position overlapped, what the rules did about it, and the damage.

X-Wing huge ships (``rules.md``, Huge ships, per edition) and Armada ship overlaps
(``rules.md``, Overlap after a move) do not bump into contact: a ship flies at a lower
speed, completes its maneuver over standard ships, destroys them, or sets them aside, and
ships are dealt damage. :class:`ShipOverlaps` is that part of a move's answer.

Examples
--------
>>> overlaps = ShipOverlaps(
...     speeds_tried=(2,), flown="straight 2",
...     ships=(ShipOverlap("x1", "small", "set-aside", (2,)),),
...     damage=(Damage("x1", 2, "critical", "the ship suffers critical damage", "Rules"),))
>>> overlaps.json_fields()["damage"]
[{'ship': 'x1', 'amount': 2, 'kind': 'critical', 'rule': 'the ship suffers critical damage', 'source': 'Rules'}]
>>> for line in overlaps.lines():
...     print(line)
  speeds:     tried 2; flown: straight 2
  overlapped: x1 (small, at speed 2): set aside; its owner places it again after the move
  damage:     x1: 2 critical damage
  rule:       Rules: "the ship suffers critical damage"
"""

from __future__ import annotations

import dataclasses as _dc
from typing import Any, Literal, TypeAlias

__all__ = ["Damage", "DamageKind", "OverlapEffect", "ShipOverlap", "ShipOverlaps"]

#: What the rules do to an overlapped ship: ``speed-down`` (the mover flies one speed
#: lower: 2.0 huge on huge, Armada), ``set-aside`` (2.0: a standard ship under a huge
#: ship, placed again by its owner), ``destroyed`` (1e: a small or large ship under a huge
#: ship), ``bump`` (1e huge on huge: the standard bump).
OverlapEffect: TypeAlias = Literal["speed-down", "set-aside", "destroyed", "bump"]
#: ``critical``: suffers that much critical damage; ``faceup-card`` / ``facedown-card``:
#: is dealt that many damage cards; ``attack-dice``: rolls that many attack dice and
#: suffers the hits.
DamageKind: TypeAlias = Literal["critical", "faceup-card", "facedown-card", "attack-dice"]

_EFFECT_WORDS: dict[str, str] = {
    "speed-down": "the move is flown at a lower speed",
    "set-aside": "set aside; its owner places it again after the move",
    "destroyed": "destroyed",
    "bump": "bumped",
}


@_dc.dataclass(frozen=True, slots=True)
class ShipOverlap:
    """One ship a final position overlapped.

    Attributes
    ----------
    ship, base : str
        The overlapped ship's id and base.
    effect : str
        What the rules do (:data:`OverlapEffect`).
    speeds : tuple of int
        The speeds tried at which the final base overlapped it, highest first.
    """

    ship: str
    base: str
    effect: OverlapEffect
    speeds: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """Return ``{"id", "base", "effect", "speeds"}``."""
        return {
            "id": self.ship,
            "base": self.base,
            "effect": self.effect,
            "speeds": list(self.speeds),
        }


@_dc.dataclass(frozen=True, slots=True)
class Damage:
    """Damage one ship takes from an overlap.

    Attributes
    ----------
    ship : str
        Who takes it.
    amount : int
        How much (:data:`DamageKind` says of what).
    kind : str
        :data:`DamageKind`.
    rule : str
        The sentence of the rules that deals it, as quoted.
    source : str
        Where that sentence is: the document and its section.
    """

    ship: str
    amount: int
    kind: DamageKind
    rule: str
    source: str = ""

    def to_json(self) -> dict[str, Any]:
        """Return ``{"ship", "amount", "kind", "rule", "source"}``."""
        return {
            "ship": self.ship,
            "amount": self.amount,
            "kind": self.kind,
            "rule": self.rule,
            "source": self.source,
        }

    def words(self) -> str:
        """Return the damage for people: ``"2 critical damage"``."""
        plural = "" if self.amount == 1 else "s"
        if self.kind == "critical":
            return f"{self.amount} critical damage"
        if self.kind == "attack-dice":
            return f"rolls {self.amount} attack di{'e' if self.amount == 1 else 'ce'}, suffers the hits"
        facing = "faceup" if self.kind == "faceup-card" else "facedown"
        return f"{self.amount} {facing} damage card{plural}"


@_dc.dataclass(frozen=True, slots=True)
class ShipOverlaps:
    """What a move's final position did to ships, in the rules' words.

    Attributes
    ----------
    speeds_tried : tuple of int
        Every speed the move was tried at, the revealed speed first; the last is the
        speed flown.
    flown : str or None
        X-Wing: the maneuver flown (``"straight 1"``, ``"stationary"``); None for Armada,
        whose speed is the move's ``speed``.
    ships : tuple of ShipOverlap
        The ships overlapped at any speed tried, ordered by id.
    damage : tuple of Damage
        The damage dealt, the moving ship first.
    """

    speeds_tried: tuple[int, ...]
    flown: str | None = None
    ships: tuple[ShipOverlap, ...] = ()
    damage: tuple[Damage, ...] = ()

    def of(self, effect: OverlapEffect) -> tuple[str, ...]:
        """Return the ids of the ships overlapped with that effect."""
        return tuple(s.ship for s in self.ships if s.effect == effect)

    def json_fields(self) -> dict[str, Any]:
        """Return the fields this adds to a move's JSON answer (``docs/move.md``)."""
        data: dict[str, Any] = {"speeds_tried": list(self.speeds_tried)}
        if self.flown is not None:
            data["flown"] = self.flown
        data["overlapped"] = [s.to_json() for s in self.ships]
        data["set_aside"] = list(self.of("set-aside"))
        data["destroyed"] = list(self.of("destroyed"))
        data["damage"] = [d.to_json() for d in self.damage]
        return data

    def lines(self) -> list[str]:
        """Return the report lines: speeds, ships overlapped, damage."""
        tried = ", ".join(str(s) for s in self.speeds_tried)
        flown = (
            f"; flown: {self.flown}"
            if self.flown is not None
            else f"; ends at speed {self.speeds_tried[-1]}"
        )
        lines = [f"  speeds:     tried {tried}{flown}"]
        for overlap in self.ships:
            speeds = ", ".join(str(s) for s in overlap.speeds)
            lines.append(
                f"  overlapped: {overlap.ship} ({overlap.base}, at speed {speeds}): "
                f"{_EFFECT_WORDS[overlap.effect]}"
            )
        if self.damage:
            dealt = "; ".join(f"{d.ship}: {d.words()}" for d in self.damage)
            lines.append(f"  damage:     {dealt}")
        # The sentences the damage rests on, each once, in the order dealt.
        for source, rule in dict.fromkeys((d.source, d.rule) for d in self.damage):
            lines.append(
                f'  rule:       {source}: "{rule}"' if source else f'  rule:       "{rule}"'
            )
        return lines
