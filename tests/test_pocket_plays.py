"""Plays: typed values with one canonical text each, read back to the same value."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.boards.errors import InvalidPlayError
from tabletop.boards.pocket import (
    ZONES,
    Deploy,
    End,
    Kill,
    NoSpur,
    Order,
    Pass,
    Play,
    React,
    Remove,
    Reposition,
    Roll,
    Surrender,
    Target,
    Wound,
    parse_play,
    play_text,
)

IDS = st.text("abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=8)
ZONE = st.sampled_from(ZONES)
PLAYS: st.SearchStrategy[Play] = st.one_of(
    st.builds(Deploy, IDS, ZONE),
    st.builds(Reposition, IDS, ZONE),
    st.builds(Order, IDS, st.just("move"), ZONE),
    st.builds(Order, IDS, st.sampled_from(["charge", "leave"])),
    st.builds(Order, IDS, st.sampled_from(["join", "shoot"]), IDS),
    st.builds(Order, IDS, st.just("trait"), st.sampled_from(["double order", "spur"])),
    st.builds(React, st.sampled_from(["intercept", "shoot"]), IDS),
    st.just(React("wait")),
    st.builds(Target, IDS),
    st.builds(Roll, st.lists(st.integers(1, 6), min_size=1, max_size=6).map(tuple)),
    st.builds(Wound, IDS),
    st.builds(Kill, IDS),
    st.builds(Remove, IDS),
    st.sampled_from([NoSpur(), End(), Pass(), Surrender()]),
)


@given(PLAYS)
def test_every_play_reads_back_from_its_text(play: Play) -> None:
    assert parse_play(play_text(play)) == play


def test_spacing_does_not_matter_and_the_text_is_canonical() -> None:
    assert play_text(parse_play("  order   legion\ttrait  double   order ")) == (
        "order legion trait double order"
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty play"),
        ("fly away", "expected deploy, reposition"),
        ("deploy spears", "expected 'deploy UNIT ZONE'"),
        ("order spears move B9", "'B9' is not a zone"),
        ("order spears charge now", "takes nothing after it"),
        ("react duck", "expected 'react intercept UNIT'"),
        ("roll 7", "one die value 1-6"),
        ("roll", "one die value 1-6"),
        ("wound", "expected 'wound TROOP'"),
    ],
)
def test_unreadable_plays_say_what_was_expected(text: str, reason: str) -> None:
    with pytest.raises(InvalidPlayError, match=reason):
        parse_play(text)


def test_plays_are_immutable() -> None:
    with pytest.raises(AttributeError):
        Order("a", "charge").unit = "b"  # type: ignore[misc]
