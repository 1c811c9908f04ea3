r"""VASSAL pieces and the commands that place, change, move and remove them.

Facts from vassalengine/vassal (read in its code):

- ``build/module/BasicCommandEncoder.java``: ``+/id/type/state`` adds a piece,
  ``-/id`` removes it, ``D/id/newState[/oldState]`` changes its state, and
  ``M/id/newMap/newX/newY/newUnder/oldMap/oldX/oldY/oldUnder/player`` moves it; the
  fields are joined by ``/`` (a SequenceEncoder).
- ``counters/Decorator.java``: a piece is a chain of traits around a BasicPiece; its type
  is the outermost trait's type, a tab, and the rest of the chain's type (escaped one
  level deeper), and its state is built the same way, so the n-th type and the n-th
  state belong to the same trait.
- ``counters/BasicPiece.java``: type ``piece;cloneKey;deleteKey;image;name``, state
  ``map;x;y;gpid;count;key;value…`` (position in whole map pixels).
- ``counters/Stack.java``: type ``stack``, state ``map;x;y;id…;@@layer``; a piece in a
  stack stands at the stack's position.
- ``counters/FreeRotator.java``: type ``rotate;N;…``; with N = 1 the state is the angle in
  degrees, otherwise the index i of N facings, the angle being -i·360/N degrees.
  ``counters/DynamicProperty.java``: type ``PROP;name;…``, state the value.

Examples
--------
>>> chain = trait_chain("rotate;1;;\tpiece;;;a.png;Rock", "37.5\tMap0;10;20;;0", "p1")
>>> [kind for kind, _ in chain]
['rotate;1;;', 'piece;;;a.png;Rock']
>>> Piece.added("p1", "rotate;1;;\tpiece;;;a.png;Rock", "37.5\tMap0;10;20;;0", "f").rotation_deg()
(37.5, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.app.clients.model import ClientFileError
from tabletop.app.clients.vassal_boards import board_command
from tabletop.app.clients.vassal_codec import split_nested, split_pair, split_tokens

__all__ = ["Game", "Piece", "trait_chain"]

#: Deepest trait chain read (the X-Wing module's ships have about 40 traits).
_MAX_TRAITS = 2000
_BASIC = "piece;"


def trait_chain(type_: str, state: str, piece_id: str) -> list[tuple[str, str]]:
    """Return a piece's traits, outermost first, each as (type, state); the last is its core.

    The core is the BasicPiece (``piece;…``) or, for a stack or a deck, the whole piece.
    """
    all_types, all_states = split_nested(type_, "\t"), split_nested(state, "\t")
    if (
        all_types is not None
        and all_states is not None
        and len(all_types) == len(all_states)
        and len(all_types) <= _MAX_TRAITS
        and all_types[-1].startswith(_BASIC)
        and not any(t.startswith(_BASIC) for t in all_types[:-1])
    ):
        return list(zip(all_types, all_states, strict=True))
    chain: list[tuple[str, str]] = []
    for _ in range(_MAX_TRAITS):
        if type_.startswith(_BASIC):
            chain.append((type_, state))
            return chain
        types = split_pair(type_, "\t") or split_tokens(type_, "\t")
        if len(types) < 2:
            chain.append((type_, state))
            return chain
        states = split_pair(state, "\t") or split_tokens(state, "\t")
        chain.append((types[0], states[0]))
        type_ = types[1]
        state = states[1] if len(states) > 1 else ""
    raise ClientFileError(
        f"the piece has more than {_MAX_TRAITS} traits", file="", entry=f"piece {piece_id!r}"
    )


#: Farthest a position may lie from the map's origin, px (10^6 mm at 2.825 px per mm,
#: the scene format's bound on a length).
_MAX_PX = 2_825_000


def _int(text: str, file: str, piece_id: str, key: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or abs(value) > _MAX_PX:
        raise ClientFileError(
            f"expected a whole number of pixels within ±{_MAX_PX}, got {text[:40]!r}",
            file=file,
            entry=f"piece {piece_id!r}",
            key=key,
        )
    return value


@dataclass
class Piece:
    """One piece as the save holds it: its traits and where it stands."""

    id: str
    chain: list[tuple[str, str]]
    map_id: str
    x_px: int
    y_px: int
    file: str
    #: What readers derive from the state (kept until the state changes).
    cache: dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def added(cls, piece_id: str, type_: str, state: str, file: str) -> Piece:
        """Build a piece from an AddPiece command's type and state."""
        piece = cls(piece_id, [], "null", 0, 0, file)
        piece.set_state(type_, state)
        return piece

    @property
    def core_type(self) -> str:
        """The innermost type: ``piece;…`` for a game piece, ``stack``, ``deck;…``."""
        return self.chain[-1][0]

    @property
    def is_basic(self) -> bool:
        """Whether the piece is a game piece (not a stack or a deck)."""
        return self.core_type.startswith(_BASIC)

    @property
    def name(self) -> str:
        """The BasicPiece's name (empty for a stack or a deck)."""
        if not self.is_basic:
            return ""
        fields = split_tokens(self.core_type, ";")
        return fields[4] if len(fields) > 4 else ""

    def set_state(self, type_: str, state: str) -> None:
        """Take a new state (AddPiece, ChangePiece): traits, map and position."""
        self.chain = trait_chain(type_, state, self.id)
        self.cache = {}
        core_type, core_state = self.chain[-1]
        if core_type.startswith(_BASIC) or core_type == "stack":
            fields = split_tokens(core_state, ";")
            if len(fields) < 3:
                raise ClientFileError(
                    f"expected map;x;y in the state, got {core_state[:60]!r}",
                    file=self.file,
                    entry=f"piece {self.id!r}",
                    key="state",
                )
            self.map_id = fields[0]
            self.x_px = _int(fields[1], self.file, self.id, "state.x")
            self.y_px = _int(fields[2], self.file, self.id, "state.y")

    @property
    def full_type(self) -> str:
        """The type string, rebuilt (kept for a state change)."""
        return _rejoin([t for t, _ in self.chain])

    def stack_members(self) -> list[str]:
        """Return the ids a stack holds (none for anything else)."""
        if self.core_type != "stack":
            return []
        fields = split_tokens(self.chain[-1][1], ";")[3:]
        return [f for f in fields if f and not f.startswith("@@")]

    def property(self, key: str) -> str | None:
        """Return the value of the outermost DynamicProperty named `key`, or None."""
        for type_, state in self.chain:
            if type_.startswith("PROP;") and split_tokens(type_, ";")[1:2] == [key]:
                return state
        return None

    def has_marker(self, text: str) -> bool:
        """Whether any trait's type mentions `text` (a label or a marker)."""
        return any(text in type_ for type_, _ in self.chain[:-1])

    def rotation_deg(self) -> tuple[float, int] | None:
        """Return the summed FreeRotator angle and the finest rotator's facing count.

        The angle is in degrees, counter-clockwise on screen; None for a piece without a
        rotator.
        """
        total, facings, found = 0.0, 0, False
        for type_, state in self.chain:
            if not type_.startswith("rotate;"):
                continue
            fields = split_tokens(type_, ";")
            try:
                count = int(fields[1])
                if count == 1:
                    angle = float(state)
                else:
                    angle = -int(state) * 360.0 / count
            except (ValueError, IndexError):
                raise ClientFileError(
                    f"expected a FreeRotator angle, got {state!r} for type {type_[:40]!r}",
                    file=self.file,
                    entry=f"piece {self.id!r}",
                    key="rotate",
                ) from None
            if angle != angle or angle in (float("inf"), float("-inf")):
                raise ClientFileError(
                    f"expected a finite angle, got {state!r}",
                    file=self.file,
                    entry=f"piece {self.id!r}",
                    key="rotate",
                )
            total += angle
            facings = max(facings, count)
            found = True
        return (total, facings) if found else None


def _rejoin(types: list[str]) -> str:
    from tabletop.app.clients.vassal_codec import join_tokens

    text = types[-1]
    for outer in reversed(types[:-1]):
        text = join_tokens([outer, text], "\t")
    return text


@dataclass
class Game:
    """The pieces of a game, in the order they were added, as commands change them."""

    file: str
    pieces: dict[str, Piece] = field(default_factory=dict)
    #: Every piece id ever added, in order (ids stay the same at every step).
    order: list[str] = field(default_factory=list)
    #: The name each piece had when first added (its pilot name, else its piece name).
    names: dict[str, str] = field(default_factory=dict)
    chat: list[str] = field(default_factory=list)
    #: Map id -> the boards its BoardPicker command chose, as (name, column, row).
    boards: dict[str, tuple[tuple[str, int, int], ...]] = field(default_factory=dict)

    def stacks(self) -> dict[str, Piece]:
        """Return piece id -> the stack that holds it."""
        return {member: stack for stack in self.pieces.values() for member in stack.stack_members()}

    @staticmethod
    def position(piece: Piece, stacks: dict[str, Piece]) -> tuple[str, int, int]:
        """Where a piece stands: its stack's map and position, else its own."""
        holder = stacks.get(piece.id)
        if holder is not None:
            return holder.map_id, holder.x_px, holder.y_px
        return piece.map_id, piece.x_px, piece.y_px

    def apply(self, command: str) -> str:
        """Apply one command.

        Returns its kind: ``add``, ``remove``, ``change``, ``move``, ``chat``, ``boards``
        or ``other``.
        """
        if command.startswith("+/"):
            fields = split_tokens(command[2:], "/")
            if len(fields) < 3:
                raise ClientFileError(
                    "expected +/id/type/state", file=self.file, entry=f"command {command[:40]!r}"
                )
            piece_id = fields[0]
            piece = Piece.added(piece_id, fields[1], fields[2], self.file)
            self.pieces[piece_id] = piece
            if piece_id not in self.names:
                self.order.append(piece_id)
                self.names[piece_id] = piece.property("Pilot Name") or piece.name
            return "add"
        if command.startswith("-/"):
            self.pieces.pop(command[2:], None)
            return "remove"
        if command.startswith("D/"):
            fields = split_tokens(command[2:], "/")
            target = self.pieces.get(fields[0])
            if target is not None and len(fields) > 1:
                target.set_state(target.full_type, fields[1])
            return "change"
        if command.startswith("M/"):
            return self._move(command)
        if command.startswith("CHAT"):
            self.chat.append(command[4:].strip())
            return "chat"
        chosen = board_command(command)
        if chosen is not None:
            self.boards[chosen[0]] = chosen[1]
            return "boards"
        return "other"

    def _move(self, command: str) -> str:
        fields = split_tokens(command[2:], "/")
        if len(fields) < 4:
            raise ClientFileError(
                "expected M/id/map/x/y/…", file=self.file, entry=f"command {command[:40]!r}"
            )
        target = self.pieces.get(fields[0])
        if target is None:
            return "move"
        target.map_id = fields[1]
        target.x_px = _int(fields[2], self.file, target.id, "MovePiece.x")
        target.y_px = _int(fields[3], self.file, target.id, "MovePiece.y")
        # A moved piece leaves its stack; a later stack state says where it joined.
        for other in self.pieces.values():
            if target.id in other.stack_members():
                members = other.stack_members()
                members.remove(target.id)
                other.chain = [
                    *other.chain[:-1],
                    ("stack", ";".join([other.map_id, str(other.x_px), str(other.y_px), *members])),
                ]
        return "move"
