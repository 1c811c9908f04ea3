"""One conversion fact of a client reader: its value, its words, its source.

Examples
--------
>>> Fact("x", 1.0, "mm", "one mm", "a file", True).confirmed
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Fact"]


@dataclass(frozen=True)
class Fact:
    """One conversion fact.

    Attributes
    ----------
    name : str
        The key used in code and in the docs.
    value : float or str
        The value (a number in `unit`, or a word).
    unit : str
        The unit of `value` (``-`` for a word).
    text : str
        What the fact says, in words (printed in a report's ``unconfirmed``).
    source : str
        The client file it was read in, or the real file it was seen in.
    confirmed : bool
        Whether it was read in the client's code or seen in a real file.
    """

    name: str
    value: float | str
    unit: str
    text: str
    source: str
    confirmed: bool
