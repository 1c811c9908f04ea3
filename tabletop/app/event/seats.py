"""Who plays: players named by id or name, drops and returns, and a round unpaired.

Every player operand and option takes an id, a name (any case) or a unique prefix of
either (:meth:`tabletop.tournament.Event.resolve`); an ambiguous or unknown one is exit 2
listing the candidates.

Each ``*_action`` is a handler of ``tabletop event`` (see :mod:`tabletop.app.event.command`).
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TextIO

from tabletop.app.cli import EXIT_OK, UsageError, emit_json
from tabletop.app.common.text import printable
from tabletop.app.event.console import save_event
from tabletop.app.event.eventfile import EventFileError, load_event
from tabletop.tournament import Event, RosterError, unpair

__all__ = ["drop_action", "player_id", "return_action", "shown", "unpair_action"]


def player_id(event: Event, text: str, source: str, what: str = "") -> str:
    """Return the id of the player `text` names; exit 2 naming the candidates otherwise."""
    try:
        return event.resolve(text)
    except RosterError as error:
        said = f"{what}: {error.message}" if what else error.message
        raise EventFileError(said, file=source) from None


def shown(event: Event, pid: str) -> str:
    """Return a player as printed: the name and, when it differs, the id in brackets."""
    name = event.player(pid).name
    return pid if name == pid else f"{name} ({pid})"


def drop_action(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    """Drop a player (``tabletop event drop``)."""
    source, text = operands
    event = load_event(source)
    pid = player_id(event, text, source, "ID")
    player = event.player(pid)
    if not player.active_in(len(event.rounds) + 1):
        raise EventFileError(
            f"has already dropped (after round {player.dropped_after})",
            file=source,
            entry=f"player {pid!r}",
        )
    after = len(event.rounds) if args.after is None else args.after
    if args.after is None and event.rounds and event.rounds[-1].kind == "playoff":
        # dropping during a playoff round: the opponent goes through without a result
        if any(pid in m.players and not m.has_result for m in event.rounds[-1].matches):
            after -= 1
    if not 0 <= after <= len(event.rounds):
        raise UsageError(f"--after is a round from 0 to {len(event.rounds)}, got {after}")
    updated = event.with_player(replace(player, dropped_after=after, returned_for=None))
    save_event(updated, args, source)
    if args.json:
        emit_json({"player": pid, "dropped_after": after}, out)
    else:
        out.write(printable(f"{shown(event, pid)} dropped after round {after}") + "\n")
    return EXIT_OK


def return_action(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    """Bring a dropped player back (``tabletop event return``)."""
    source, text = operands
    event = load_event(source)
    pid = player_id(event, text, source, "ID")
    player = event.player(pid)
    back = len(event.rounds) + 1
    if player.active_in(back):
        raise EventFileError("has not dropped", file=source, entry=f"player {pid!r}")
    if player.dropped_after is not None and back <= player.dropped_after + 1:
        updated = event.with_player(replace(player, dropped_after=None, returned_for=None))
    else:
        updated = event.with_player(replace(player, returned_for=back))
    save_event(updated, args, source)
    missed = max(0, back - 1 - (player.dropped_after or 0))
    if args.json:
        emit_json({"player": pid, "returned_for": back, "rounds_missed": missed}, out)
    else:
        said = f"{shown(event, pid)} returns for round {back}; "
        said += f"{missed} round(s) missed count as losses"
        out.write(printable(said) + "\n")
    return EXIT_OK


def unpair_action(args: argparse.Namespace, operands: list[str], out: TextIO) -> int:
    """Remove the current round's pairing while it has no result (``event unpair``)."""
    (source,) = operands
    event = load_event(source)
    number = len(event.rounds)
    updated, seated = unpair(event)
    save_event(updated, args, source)
    if args.json:
        emit_json({"round": number, "unpaired": True, "arrive_for_it": seated}, out)
        return EXIT_OK
    said = f"round {number} unpaired ({len(event.rounds[-1].matches)} table(s) removed)"
    if seated:
        said += f"; {', '.join(shown(event, p) for p in seated)} now play(s) in it"
    out.write(printable(said + f"; `event pair` pairs round {number} again") + "\n")
    return EXIT_OK
