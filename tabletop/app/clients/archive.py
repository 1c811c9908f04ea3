"""Bounded reading of client archives: a zip's entry and an XZ stream, never a bomb.

A VASSAL save (``.vsav``, ``.vlog``) is a zip whose ``savedGame`` entry may itself be
XZ-compressed. Headers can lie, so every entry and stream is decompressed as a stream
with a running count, and refused the moment it passes a bound:

- an archive with more than :data:`MAX_ENTRIES` entries, or whose entries declare more
  than :data:`MAX_UNPACKED_BYTES` (64 MiB) unpacked;
- an entry or stream that unpacks to more than :data:`MAX_UNPACKED_BYTES`;
- an entry or stream that unpacks to more than :data:`RATIO_FLOOR_BYTES` (1 MiB) at more
  than :data:`MAX_RATIO` (100) bytes out per byte in: a zip or XZ bomb. Below 1 MiB a
  high ratio costs nothing and is allowed, so a short save stored compressed is read.

Every refusal names the file, the entry and its figures.

Examples
--------
>>> import io, zipfile
>>> buffer = io.BytesIO()
>>> with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
...     archive.writestr("savedGame", b"begin_save")
>>> read_zip_entry(buffer.getvalue(), "game.vsav", "savedGame")
b'begin_save'
"""

from __future__ import annotations

import io
import lzma
import zipfile

from tabletop.app.clients.model import ClientFileError
from tabletop.app.clients.recognise import ZIP_MAGIC

__all__ = [
    "MAX_ENTRIES",
    "MAX_RATIO",
    "MAX_UNPACKED_BYTES",
    "RATIO_FLOOR_BYTES",
    "XZ_MAGIC",
    "ZIP_MAGIC",
    "is_zip",
    "read_optional_zip_entry",
    "read_zip_entry",
    "xz_decompress",
]

#: Most bytes an archive, an entry or a stream may unpack to (64 MiB).
MAX_UNPACKED_BYTES = 64 * 1024 * 1024
#: Most entries an archive may hold.
MAX_ENTRIES = 10_000
#: Most bytes out per compressed byte (beyond :data:`RATIO_FLOOR_BYTES`).
MAX_RATIO = 100
#: Output below which the ratio is not checked (1 MiB).
RATIO_FLOOR_BYTES = 1024 * 1024
#: How an XZ stream begins.
XZ_MAGIC = b"\xfd7zXZ\x00"
#: Bytes decompressed per step of the running count.
_CHUNK = 64 * 1024
#: Memory an XZ decoder may use: refuses streams that declare absurd dictionaries.
_XZ_MEMLIMIT = 256 * 1024 * 1024


def is_zip(data: bytes) -> bool:
    r"""Tell whether `data` begins as a zip archive does.

    Examples
    --------
    >>> is_zip(b"PK\x03\x04rest"), is_zip(b"begin_save")
    (True, False)
    """
    return data.startswith(ZIP_MAGIC)


def _mib(count: int) -> str:
    return f"{count / (1024 * 1024):.1f} MiB"


class _Counter:
    """The running count of one entry or stream, refusing as soon as a bound is passed."""

    def __init__(self, file: str, entry: str, packed: int) -> None:
        self.file, self.entry, self.packed, self.out = file, entry, packed, 0

    def add(self, count: int) -> None:
        self.out += count
        if self.out > MAX_UNPACKED_BYTES:
            raise ClientFileError(
                f"unpacks to more than {MAX_UNPACKED_BYTES} bytes (64 MiB) from "
                f"{self.packed} compressed bytes: refused (at most 64 MiB unpacked)",
                file=self.file,
                entry=self.entry,
            )
        if self.out > RATIO_FLOOR_BYTES and self.out > MAX_RATIO * max(self.packed, 1):
            raise ClientFileError(
                f"unpacks to more than {self.out} bytes ({_mib(self.out)}) from "
                f"{self.packed} compressed bytes (over {self.out // max(self.packed, 1)}:1): "
                f"refused as a compression bomb (at most {MAX_RATIO}:1)",
                file=self.file,
                entry=self.entry,
            )


def _open_zip(data: bytes, file: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as problem:
        raise ClientFileError(
            f"a truncated or damaged zip archive ({problem}): expected a complete VASSAL "
            "save (a zip with a savedGame entry)",
            file=file,
        ) from None


def read_optional_zip_entry(data: bytes, file: str, entry: str) -> bytes | None:
    """Return one entry of a zip archive within the bounds, or None when it has none.

    Raises
    ------
    ClientFileError
        As :func:`read_zip_entry`, except for a missing entry.
    """
    with _open_zip(data, file) as archive:
        if entry not in archive.namelist():
            return None
    return read_zip_entry(data, file, entry)


def read_zip_entry(data: bytes, file: str, entry: str) -> bytes:
    """Return one entry of a zip archive, decompressed within the bounds.

    Parameters
    ----------
    data : bytes
        The whole archive.
    file : str
        The file's name, for messages.
    entry : str
        The entry's name (``savedGame``).

    Raises
    ------
    ClientFileError
        For a truncated or damaged archive, a missing or encrypted entry, and an
        archive or entry over a bound (with its figures).
    """
    with _open_zip(data, file) as archive:
        infos = archive.infolist()
        if len(infos) > MAX_ENTRIES:
            raise ClientFileError(
                f"the archive holds {len(infos)} entries; at most {MAX_ENTRIES} are read",
                file=file,
            )
        declared = sum(info.file_size for info in infos)
        if declared > MAX_UNPACKED_BYTES:
            raise ClientFileError(
                f"the archive declares {declared} bytes ({_mib(declared)}) unpacked; at most "
                f"{MAX_UNPACKED_BYTES} bytes (64 MiB) are read",
                file=file,
            )
        found = [info for info in infos if info.filename == entry]
        if not found:
            raise ClientFileError(
                f"the archive has no {entry!r} entry: expected a VASSAL save or log",
                file=file,
            )
        info = found[-1]
        label = f"entry {entry!r}"
        if info.flag_bits & 0x1:
            raise ClientFileError(
                "the entry is encrypted; it cannot be read", file=file, entry=label
            )
        counter = _Counter(file, label, info.compress_size)
        parts: list[bytes] = []
        try:
            with archive.open(info) as stream:
                while chunk := stream.read(_CHUNK):
                    counter.add(len(chunk))
                    parts.append(chunk)
        except (zipfile.BadZipFile, EOFError, OSError, NotImplementedError) as problem:
            raise ClientFileError(
                f"the entry cannot be unpacked ({problem}): a truncated or damaged archive",
                file=file,
                entry=label,
            ) from None
        return b"".join(parts)


def xz_decompress(data: bytes, file: str, entry: str) -> bytes:
    """Return an XZ stream's content, decompressed within the bounds.

    Examples
    --------
    >>> import lzma
    >>> xz_decompress(lzma.compress(b"begin_save"), "game.vsav", "entry 'savedGame'")
    b'begin_save'

    Raises
    ------
    ClientFileError
        For a truncated or damaged stream, and one over a bound (with its figures).
    """
    decoder = lzma.LZMADecompressor(format=lzma.FORMAT_XZ, memlimit=_XZ_MEMLIMIT)
    counter = _Counter(file, entry, len(data))
    parts: list[bytes] = []
    pending = data
    try:
        while not decoder.eof:
            chunk = decoder.decompress(pending, max_length=_CHUNK)
            pending = b""
            counter.add(len(chunk))
            parts.append(chunk)
            if decoder.needs_input and not chunk:
                raise ClientFileError(
                    "the XZ stream ends early: a truncated save", file=file, entry=entry
                )
    except lzma.LZMAError as problem:
        raise ClientFileError(
            f"the XZ stream cannot be unpacked ({problem})", file=file, entry=entry
        ) from None
    return b"".join(parts)
