"""Maximum-weight perfect matching: the compiled matcher, and a plain exact one.

Pairing asks for the perfect matching of greatest total weight on a graph of players
(and a virtual bye node). :func:`max_weight_perfect_matching` hands the graph to
``rustworkx.max_weight_matching`` (Edmonds' blossom algorithm, compiled, exact on
Python integers of any size up to 128 bits); :func:`plain_max_weight_perfect_matching`
solves the same problem by exhaustive search over subsets, for small graphs and as an
independent check in tests.

Examples
--------
>>> edges = [(0, 1, 5), (2, 3, 5), (0, 2, 6), (1, 3, 6), (0, 3, 1)]
>>> max_weight_perfect_matching(4, edges)
[(0, 2), (1, 3)]
>>> plain_max_weight_perfect_matching(4, edges)
[(0, 2), (1, 3)]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

__all__ = [
    "PLAIN_LIMIT",
    "NoPerfectMatchingError",
    "max_weight_perfect_matching",
    "plain_max_weight_perfect_matching",
]

#: The most nodes the plain exhaustive matcher accepts (it is exponential).
PLAIN_LIMIT = 22

Edge = tuple[int, int, int]


class NoPerfectMatchingError(ValueError):
    """The graph has no matching that covers every node."""


def max_weight_perfect_matching(nodes: int, edges: Sequence[Edge]) -> list[tuple[int, int]]:
    """Return a perfect matching of greatest total weight, as sorted pairs.

    Parameters
    ----------
    nodes : int
        Node count (nodes are ``0 .. nodes - 1``).
    edges : sequence of (int, int, int)
        Edges ``(u, v, weight)``, integer weights (at most one edge per pair).

    Raises
    ------
    NoPerfectMatchingError
        When no matching covers every node.
    """
    import rustworkx

    graph = rustworkx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(nodes))
    graph.add_edges_from(list(edges))
    found = rustworkx.max_weight_matching(
        graph, max_cardinality=True, weight_fn=lambda weight: weight
    )
    pairs = sorted((min(u, v), max(u, v)) for u, v in found)
    if 2 * len(pairs) != nodes:
        raise NoPerfectMatchingError(f"no perfect matching on {nodes} nodes")
    return pairs


def plain_max_weight_perfect_matching(nodes: int, edges: Sequence[Edge]) -> list[tuple[int, int]]:
    """Return a perfect matching of greatest weight by exhaustive search (small graphs).

    The lowest uncovered node is matched with each neighbour in turn; the best rest is
    remembered per set of uncovered nodes. Among equal weights the lexicographically
    smallest list of pairs is returned.

    Raises
    ------
    NoPerfectMatchingError
        When no matching covers every node.
    ValueError
        For more than :data:`PLAIN_LIMIT` nodes.
    """
    if nodes > PLAIN_LIMIT:
        raise ValueError(f"the plain matcher takes at most {PLAIN_LIMIT} nodes, got {nodes}")
    weight: dict[tuple[int, int], int] = {}
    for u, v, w in edges:
        weight[(min(u, v), max(u, v))] = w

    @cache
    def best(uncovered: int) -> tuple[int, tuple[tuple[int, int], ...]] | None:
        if uncovered == 0:
            return 0, ()
        low = (uncovered & -uncovered).bit_length() - 1
        answer: tuple[int, tuple[tuple[int, int], ...]] | None = None
        for other in range(low + 1, nodes):
            if not uncovered >> other & 1 or (low, other) not in weight:
                continue
            rest = best(uncovered & ~(1 << low) & ~(1 << other))
            if rest is None:
                continue
            total = rest[0] + weight[(low, other)]
            if answer is None or total > answer[0]:
                answer = (total, ((low, other), *rest[1]))
        return answer

    result = best((1 << nodes) - 1)
    if result is None:
        raise NoPerfectMatchingError(f"no perfect matching on {nodes} nodes")
    return sorted(result[1])
