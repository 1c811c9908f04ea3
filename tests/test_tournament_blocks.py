"""Large fields paired in blocks: the same rematches, bye and TP-group purity as the
whole-field matching (only the random in-group choice differs), and an audit with no
finding. The block size is lowered so that small fields take the block path."""

from __future__ import annotations

from typing import Any

import pytest

import tabletop.tournament.pairing as pairing
from tabletop.tournament import Pairing, audit, pair_next, simulate_event


def _purity(paired: Pairing) -> int:
    values = sorted({tp for p in paired.pairs for tp in p.tp}, reverse=True)
    return sum((values.index(p.tp[0]) - values.index(p.tp[1])) ** 2 for p in paired.pairs)


@pytest.mark.parametrize(
    ("game", "players", "rounds", "options"),
    [
        ("destiny", 301, 3, {"structure": "custom", "swiss_rounds": 8}),
        ("destiny", 499, 5, {"structure": "custom", "swiss_rounds": 8}),
        ("destiny", 1001, 1, {"structure": "custom", "swiss_rounds": 8}),
        ("armada", 201, 0, {"tier": "informal", "swiss_rounds": 6}),
        ("armada", 301, 2, {"tier": "informal", "swiss_rounds": 6}),
        ("armada", 400, 4, {"tier": "informal", "swiss_rounds": 6}),
    ],
)
def test_blocks_keep_the_whole_fields_rematches_bye_and_purity(
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    players: int,
    rounds: int,
    options: dict[str, object],
) -> None:
    event = simulate_event(game, players, 5, rounds=rounds, **options)  # type: ignore[arg-type]
    whole = pair_next(event)
    monkeypatch.setattr(pairing, "BLOCK_LIMIT", 50)
    monkeypatch.setattr(pairing, "BLOCK_PLAYERS", 16)
    blocks = pair_next(event)
    assert sum(p.rematch for p in blocks.pairs) == sum(p.rematch for p in whole.pairs) == 0
    assert [b.player for b in blocks.byes] == [b.player for b in whole.byes]
    assert len(blocks.byes) == players % 2
    assert _purity(blocks) == _purity(whole)
    assert sorted(x for p in blocks.pairs for x in p.players) == sorted(
        x for p in whole.pairs for x in p.players
    )
    report = audit(event.with_rounds((*event.rounds, blocks.to_round())))
    assert report.legal, report.findings


def test_a_short_last_block_joins_the_one_before(monkeypatch: pytest.MonkeyPatch) -> None:
    # 16 + 16 + 6 places: the tail of 6 (under half a block) is paired with the 16 before.
    event = simulate_event("destiny", 38, 2, rounds=0, structure="custom", swiss_rounds=5)
    monkeypatch.setattr(pairing, "BLOCK_LIMIT", 10)
    monkeypatch.setattr(pairing, "BLOCK_PLAYERS", 16)
    seen: list[int] = []
    solve = pairing._solve

    def counting(
        tiers: Any, players: list[str], with_bye: bool, matcher: Any, dense: bool
    ) -> list[tuple[str, str | None]]:
        seen.append(len(players))
        return solve(tiers, players, with_bye, matcher, dense)

    monkeypatch.setattr(pairing, "_solve", counting)
    pair_next(event)
    assert seen == [16, 22]
