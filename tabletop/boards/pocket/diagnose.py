"""Why a play is illegal: the rule it breaks, named, and the rule in words.

Checked in the order a player meets the rules, one commented rule per block, so that the
first broken rule is the one reported.
"""

from __future__ import annotations

from tabletop.boards.pocket.combat import (
    charge_targets,
    order_cost,
    shoot_targets,
)
from tabletop.boards.pocket.listing import PlayListing, frame_ids
from tabletop.boards.pocket.plays import (
    Deploy,
    Kill,
    Order,
    Play,
    React,
    Remove,
    Reposition,
    Target,
    Wound,
)
from tabletop.boards.pocket.state import PocketState, UnitState
from tabletop.boards.pocket.zones import (
    ENGAGEMENT_ROW,
    ZONES,
    front_row,
    own_zones,
    rear_row,
    zone,
    zone_row,
)
from tabletop.boards.words import counted, with_article

__all__ = ["PlayDiagnosis"]

_EXPECTED = {
    "deploy": "deploy UNIT ZONE",
    "turn": "reposition UNIT ZONE, an order, or pass",
    "action": "an order or pass (the turn's reposition is done)",
    "spur": "order UNIT trait spur or no spur",
    "react": "react intercept UNIT, react shoot UNIT or react wait",
    "target": "target UNIT",
    "hits": "wound TROOP or kill TROOP",
    "double order": "an order to another unit (double order)",
    "end": "remove TROOP or end",
}


class PlayDiagnosis(PlayListing):
    """The rules object's reading half, with the reasons a play is refused."""

    # -- why a play is illegal -----------------------------------------------------------

    def _diagnose(self, state: PocketState, play: Play, kind: str, player: int) -> tuple[str, str]:
        """Return the rule a play breaks here and the rule in words."""
        unit_id = getattr(play, "unit", None)
        unit = state.units.get(unit_id) if isinstance(unit_id, str) else None
        if isinstance(play, Reposition) and kind == "action":
            return ("one-reposition", "the turn's free reposition is done; now an order or pass")
        found = None
        if unit is not None:
            found = self._diagnose_unit(state, play, kind, player, unit)
        if found is None:
            found = _diagnose_pick(state, play, kind, player)
        if found is not None:
            return found
        expected = _EXPECTED.get(kind, kind)
        return (
            "wrong-decision",
            f"player {player} decides {_decision_words(kind)}: expected {expected}",
        )

    def _diagnose_unit(
        self, state: PocketState, play: Play, kind: str, player: int, unit: UnitState
    ) -> tuple[str, str] | None:
        """Diagnose a play naming a unit of the state: a deployment, order, spur or reaction."""
        if isinstance(play, Deploy) and kind == "deploy":
            return _diagnose_deploy(play, player, unit)
        if isinstance(play, Order | Reposition) and kind in ("turn", "action", "double order"):
            return self._diagnose_order(state, play, kind, player, unit)
        if isinstance(play, Order) and kind == "spur" and play.arg == "spur":
            return _diagnose_spur(state, player, unit)
        if isinstance(play, React) and kind == "react":
            return _diagnose_react(state, play, player, unit)
        return None

    def _diagnose_order(
        self, state: PocketState, play: Order | Reposition, kind: str, player: int, unit: UnitState
    ) -> tuple[str, str]:
        # One commented rule per block, in the order a player meets them.
        # A player orders only their own units on the field.
        if unit.player != player or not unit.on_field:
            return (
                "not-your-unit",
                f"{unit.id} is not one of player {player}'s units on the field",
            )
        # The unit repositioned this turn cannot be ordered.
        if unit.id == state.repositioned:
            return (
                "repositioned-unit",
                f"{unit.id} was repositioned this turn and cannot be ordered",
            )
        # A double order goes to two other units.
        if kind == "double order" and unit.id in frame_ids(state.stack[-1][3]):
            return ("double-order-other", f"{unit.id} was ordered already in this double order")
        if isinstance(play, Reposition):
            return _diagnose_reposition(play, player, unit)
        # Only Double order and Spur are trait orders, not in the attacker's first turn.
        if play.kind == "trait":
            found = _diagnose_trait(state, play, unit)
            if found is not None:
                return found
        # An order costs the unit's order tokens + 1 (Reactive: the same, at least 1).
        cost = order_cost(unit)
        if cost > state.pool[player]:
            return (
                "order-cost",
                f"an order on {unit.id} costs {cost}; player {player} has {counted(state.pool[player], 'token')}",
            )
        return self._diagnose_order_kind(state, play, kind, player, unit)

    def _diagnose_order_kind(
        self, state: PocketState, play: Order, kind: str, player: int, unit: UnitState
    ) -> tuple[str, str]:
        """Diagnose an affordable order by its kind: move, charge, join, leave or shoot."""
        row = unit.row
        if play.kind == "move":
            if row == ENGAGEMENT_ROW:
                return ("move-engaged", f"{unit.id} is in the engagement zone: leave it instead")
            return _not_adjacent(str(play.arg), unit, player)
        if play.kind == "charge":
            if row != front_row(player):
                return ("charge-front-row", f"{unit.id} is not in its front row")
            if not unit.all_have("melee"):
                return ("charge-melee", f"not every troop of {unit.id} has a melee value")
            return ("charge-target", f"{unit.id} has no enemy to charge")
        if play.kind == "join":
            if not unit.all_have("melee"):
                return ("join-melee", f"not every troop of {unit.id} has a melee value")
            if play.arg not in state.contacts_of(unit.id):
                return ("join-contact", f"{unit.id} is not in contact with {play.arg}")
            return (
                "join-start-of-turn",
                f"{unit.id} and {play.arg} were not in contact at the start of the turn",
            )
        if play.kind == "leave":
            return ("leave-contact", f"{unit.id} is in contact with no enemy")
        if play.kind == "shoot":
            if not unit.all_have("shoot"):
                return ("shoot-values", f"not every troop of {unit.id} has a shoot value")
            targets = [t.id for t in shoot_targets(state, unit, self.rules)]
            return (
                "shoot-target",
                f"{unit.id} cannot shoot {play.arg} from {unit.zone}; it may shoot: {', '.join(targets) or 'nothing'}",
            )
        return ("wrong-decision", f"player {player} decides {_decision_words(kind)}")


def _diagnose_deploy(play: Deploy, player: int, unit: UnitState) -> tuple[str, str]:
    if unit.player != player:
        return (
            "not-your-unit",
            f"{unit.id} is player {unit.player}'s unit; player {player} deploys now",
        )
    if unit.zone is not None:
        return ("deployed-already", f"{unit.id} is deployed already")
    return (
        "deployment-zone",
        f"{play.zone} is not one of player {player}'s zones ({', '.join(own_zones(player))})",
    )


def _diagnose_spur(state: PocketState, player: int, unit: UnitState) -> tuple[str, str]:
    if state.first_turn:
        return (
            "first-turn-trait",
            "trait orders are not allowed in the attacker's first turn",
        )
    if unit.player != player or not unit.traits.has("spur"):
        return ("spur-unit", f"{unit.id} is not one of player {player}'s units with Spur")
    return (
        "order-cost",
        f"an order on {unit.id} costs {order_cost(unit)}; player {player} has {counted(state.pool[player], 'token')}",
    )


def _diagnose_react(
    state: PocketState, play: React, player: int, unit: UnitState
) -> tuple[str, str]:
    if unit.player != player or not unit.on_field:
        return (
            "not-your-unit",
            f"{unit.id} is not one of player {player}'s units on the field",
        )
    if unit.zone != zone(state.units[str(state.stack[-1][2])].sector, front_row(player)):
        return (
            "react-front-row",
            f"{unit.id} is not in player {player}'s front row of the charged sector",
        )
    if order_cost(unit) > state.pool[player]:
        return (
            "order-cost",
            f"an order on {unit.id} costs {order_cost(unit)}; player {player} has {counted(state.pool[player], 'token')}",
        )
    stat = "melee" if play.kind == "intercept" else "shoot"
    return (
        f"react-{play.kind}",
        f"every troop of {unit.id} needs a {stat} value to {play.kind}",
    )


def _diagnose_reposition(play: Reposition, player: int, unit: UnitState) -> tuple[str, str]:
    # A Slow unit never repositions.
    if unit.traits.has("slow"):
        return (
            "slow",
            f"{unit.id} is Slow: no free reposition (a tactical move is allowed)",
        )
    return _not_adjacent(play.zone, unit, player)


def _not_adjacent(target: str, unit: UnitState, player: int) -> tuple[str, str]:
    """Say why `unit` may not move to `target`: the engagement row, the enemy's half, or far."""
    if target in ZONES and zone_row(target) == ENGAGEMENT_ROW:
        return (
            "adjacent-zone",
            f"{target} is in the engagement row: moves and repositions stay in player "
            f"{player}'s half (a charge or a join enters it)",
        )
    if target in ZONES and zone_row(target) not in (front_row(player), rear_row(player)):
        return ("adjacent-zone", f"{target} is in the enemy's half, not player {player}'s")
    return (
        "adjacent-zone",
        f"{target} is not adjacent to {unit.zone} in player {player}'s half",
    )


def _diagnose_trait(state: PocketState, play: Order, unit: UnitState) -> tuple[str, str] | None:
    """Refuse a trait order that is not one, in the first turn, or without the trait."""
    if play.arg not in ("double order", "spur"):
        return (
            "trait-order",
            f"{play.arg!r} is not an order; the trait orders are double order and spur",
        )
    if state.first_turn:
        return (
            "first-turn-trait",
            "trait orders are not allowed in the attacker's first turn",
        )
    if play.arg == "spur":
        return (
            "spur-after-order",
            "spur is given right after a charge, join or shoot order",
        )
    if not unit.traits.has("double order"):
        return ("trait-missing", f"{unit.id} has no troop with double order")
    return None


def _diagnose_pick(
    state: PocketState, play: Play, kind: str, player: int
) -> tuple[str, str] | None:
    """Diagnose a charge's target, a hit's troop or a wounded troop removed."""
    if isinstance(play, Target) and kind == "target":
        return (
            "charge-target",
            f"{play.unit} is not a target of this charge; expected one of: "
            + ", ".join(
                t.id for t in charge_targets(state, state.units[str(state.stack[-1][2])])[1]
            ),
        )
    if isinstance(play, Wound | Kill) and kind == "hits":
        hit = state.units[str(state.stack[-1][1])]
        return (
            "hit-troop",
            f"the hit is on {hit.id}; expected one of its troops: "
            + ", ".join(t.id for t in hit.troops),
        )
    if isinstance(play, Remove) and kind == "end":
        return (
            "remove-wounded",
            f"{play.troop} is not one of player {player}'s troops carrying a wound token",
        )
    return None


#: Decisions whose kind is not a noun a message can put after "a".
_DECISION_WORDS = {
    "deploy": "a deployment",
    "react": "a reaction",
    "hits": "the hits taken",
    "end": "the end of the round",
}


def _decision_words(kind: str) -> str:
    """Return a decision's kind as a message says it: "an action", "the hits taken"."""
    return _DECISION_WORDS.get(kind) or with_article(kind)
