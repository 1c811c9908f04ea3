r"""VASSAL's text encodings: the savedGame's three wrappings and its token sequences.

Facts from vassalengine/vassal (read in its code):

- ``tools/io/DeobfuscatingInputStream.java``: a ``savedGame`` entry is XZ-compressed
  (it begins with the XZ magic ``FD 37 7A 58 5A 00``; VASSAL 3.8 on), obfuscated
  (``!VCSK``, then the key byte as two hex digits, then each byte XOR the key as two hex
  digits; through 3.7), or plain text. ``ObfuscatingOutputStream.java`` writes the hex
  in lower case; the reader takes either case.
- ``tools/SequenceEncoder.java``: a sequence of tokens joined by one delimiter; a
  delimiter inside a token is written with a backslash before it, and a token that
  begins with a backslash, or begins and ends with a single quote, is wrapped in single
  quotes. Decoding takes a delimiter after a backslash as part of the token (dropping
  that backslash) and strips one pair of enclosing single quotes.
- ``build/GameModule.java``: commands are joined by ESC (27); a command made of
  sub-commands is itself such a sequence, nested (escaped) one level deeper.

Examples
--------
>>> split_tokens("a;b\\;c;'\\d'", ";")
['a', 'b;c', '\\d']
>>> join_tokens(["a", "b;c", "\\d"], ";")
"a;b\\;c;'\\d'"
>>> unwrap(b"!VCSK2a4243")
('obfuscated', 'hi')
"""

from __future__ import annotations

from collections.abc import Iterable

from tabletop.app.clients.archive import XZ_MAGIC, xz_decompress
from tabletop.app.clients.model import ClientFileError
from tabletop.app.clients.recognise import COMMAND_SEPARATOR

__all__ = [
    "COMMAND_SEPARATOR",
    "OBFUSCATION_HEADER",
    "flatten_commands",
    "join_tokens",
    "obfuscate",
    "split_nested",
    "split_pair",
    "split_tokens",
    "unwrap",
]

#: What begins an obfuscated savedGame (ObfuscatingOutputStream.HEADER).
OBFUSCATION_HEADER = b"!VCSK"
_HEX_DIGITS = b"0123456789abcdefABCDEF"


def split_tokens(value: str, delimiter: str) -> list[str]:
    """Split a SequenceEncoder string into its tokens, as VASSAL's decoder does.

    Examples
    --------
    >>> split_tokens("", ";"), split_tokens("a;", ";"), split_tokens("'x'", ";")
    ([''], ['a', ''], ['x'])
    """
    tokens: list[str] = []
    start, stop = 0, len(value)
    while True:
        if start == stop:
            tokens.append("")
            return tokens
        pieces: list[str] = []
        segment = start
        found = value.find(delimiter, start)
        # A delimiter after a backslash is part of the token: keep it, drop the backslash.
        while found > 0 and value[found - 1] == "\\":
            pieces.append(value[segment : found - 1])
            segment = found
            found = value.find(delimiter, found + 1)
        pieces.append(value[segment:] if found == -1 else value[segment:found])
        token = "".join(pieces)
        if len(token) > 1 and token[0] == "'" and token[-1] == "'":
            token = token[1:-1]
        tokens.append(token)
        if found == -1:
            return tokens
        start = found + 1


def split_pair(value: str, delimiter: str) -> tuple[str, str] | None:
    r"""Split a two-token SequenceEncoder string fast, or return None when it is not one.

    The same answer as :func:`split_tokens` for a string of exactly two tokens whose
    first holds no delimiter (a decorator's own type or state and its inner piece's):
    the second is unescaped one level at C speed.

    Examples
    --------
    >>> split_pair("rotate;1\tPROP;x\\\tpiece;;;;Rock", "\t")
    ('rotate;1', 'PROP;x\tpiece;;;;Rock')
    >>> split_pair("a\\\tb\tc", "\t") is None
    True
    """
    first = value.find(delimiter)
    if first <= 0 or value[first - 1] == "\\" or value[0] == "'":
        return None
    rest = value[first + 1 :]
    escaped = "\\" + delimiter
    if rest.count(delimiter) != rest.count(escaped):
        return None
    rest = rest.replace(escaped, delimiter)
    if len(rest) > 1 and rest[0] == "'" and rest[-1] == "'":
        rest = rest[1:-1]
    return value[:first], rest


def split_nested(value: str, delimiter: str) -> list[str] | None:
    r"""Split a fully nested pair sequence in one pass, or return None when it is not one.

    A decorator chain is ``a`` + delimiter + escaped(``b`` + delimiter + escaped(…)): the
    n-th delimiter (from 0) carries n backslashes. When every delimiter does, and no part
    needed quoting, the parts are the text between, their escapes removed: what
    :func:`split_pair` gives level by level, without copying the rest at every level.

    Examples
    --------
    >>> split_nested("a;1\tb;2\\\tc;3\\\\\tpiece;;;;Rock", "\t")
    ['a;1', 'b;2', 'c;3', 'piece;;;;Rock']
    >>> split_nested("a\tb\tc", "\t") is None
    True
    """
    parts: list[str] = []
    start = 0
    found = value.find(delimiter)
    while found != -1:
        level = len(parts)
        if found < level or value[found - level : found] != "\\" * level:
            return None
        if found > level and value[found - level - 1] == "\\":
            return None
        part = value[start : found - level]
        if part[:1] in ("'", "\\"):
            return None
        parts.append(part)
        start = found + 1
        found = value.find(delimiter, start)
    last = value[start:]
    if last[:1] in ("'", "\\"):
        return None
    parts.append(last)
    return parts


def _escaped(token: str, delimiter: str) -> str:
    body = token.replace(delimiter, "\\" + delimiter)
    if token and (token[0] == "\\" or (token[0] == "'" and token[-1] == "'")):
        return f"'{body}'"
    return body


def join_tokens(tokens: Iterable[str], delimiter: str) -> str:
    r"""Join tokens as VASSAL's SequenceEncoder does (the inverse of :func:`split_tokens`).

    Examples
    --------
    >>> join_tokens(["a\tb", "c"], "\t")
    'a\\\tb\tc'
    """
    return delimiter.join(_escaped(token, delimiter) for token in tokens)


def flatten_commands(encoded: str) -> list[str]:
    """Return the single commands of an ESC-joined command string, in order.

    A command made of sub-commands is decoded again, as ``GameModule.decode`` does, until
    every token is one command. Empty tokens (VASSAL's NullCommand) are dropped.

    Examples
    --------
    >>> inner = join_tokens(["", "+/1/t/s", "+/2/t/s"], COMMAND_SEPARATOR)
    >>> flatten_commands(join_tokens(["begin_save", inner, "end_save"], COMMAND_SEPARATOR))
    ['begin_save', '+/1/t/s', '+/2/t/s', 'end_save']
    """
    out: list[str] = []
    pending = [encoded]
    while pending:
        command = pending.pop()
        tokens = split_tokens(command, COMMAND_SEPARATOR)
        if len(tokens) == 1:
            if tokens[0]:
                out.append(tokens[0])
            continue
        pending.extend(reversed(tokens))
    return out


def _unhex(data: bytes, file: str, entry: str, offset: int) -> bytes:
    bad = next((i for i, b in enumerate(data) if b not in _HEX_DIGITS), None)
    if bad is not None:
        raise ClientFileError(
            f"byte {offset + bad} is {data[bad : bad + 1]!r}: expected a hex digit of the "
            "obfuscated (!VCSK) encoding",
            file=file,
            entry=entry,
        )
    if len(data) % 2:
        raise ClientFileError(
            f"the obfuscated (!VCSK) text has an odd number of hex digits ({len(data)}): "
            "a truncated save",
            file=file,
            entry=entry,
        )
    return bytes.fromhex(data.decode("ascii"))


def unwrap(
    data: bytes, file: str = "<savedGame>", entry: str = "entry 'savedGame'"
) -> tuple[str, str]:
    """Return ``(encoding, text)`` of a savedGame: ``xz``, ``obfuscated`` or ``plain``.

    Raises
    ------
    ClientFileError
        For a damaged XZ stream or one over the bounds, wrong hex digits, or text that
        is not UTF-8.
    """
    if data.startswith(XZ_MAGIC):
        encoding, raw = "xz", xz_decompress(data, file, entry)
    elif data.startswith(OBFUSCATION_HEADER) and len(data) > len(OBFUSCATION_HEADER):
        body = _unhex(data[len(OBFUSCATION_HEADER) :], file, entry, len(OBFUSCATION_HEADER))
        key = body[0]
        encoding, raw = "obfuscated", bytes(b ^ key for b in body[1:])
    else:
        encoding, raw = "plain", data
    try:
        return encoding, raw.decode("utf-8")
    except UnicodeDecodeError as problem:
        raise ClientFileError(
            f"the {encoding} text is not UTF-8 at byte {problem.start}", file=file, entry=entry
        ) from None


def obfuscate(text: str, key: int) -> bytes:
    """Write `text` in the obfuscated (``!VCSK``) encoding with the key byte `key`.

    Examples
    --------
    >>> obfuscate("A", 0x10)
    b'!VCSK1051'
    >>> unwrap(obfuscate("begin_save", 0xC3))
    ('obfuscated', 'begin_save')
    """
    body = bytes([key]) + bytes(b ^ key for b in text.encode("utf-8"))
    return OBFUSCATION_HEADER + body.hex().encode("ascii")
