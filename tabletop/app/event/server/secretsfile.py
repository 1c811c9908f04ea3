"""The event's secrets: the TO's token and one code per player, in ``NAME.secrets.toml``.

The file sits beside the event (``store.toml`` → ``store.secrets.toml``), readable by its
owner alone (mode 0600): it is created that way, written whole through a new file that
replaces it (never through a symbolic link, never widening its mode), and refused when
it is a link or others may read it. The event file holds no secret and may be published.

- the TO token: 128 random bits, URL-safe (:func:`secrets.token_urlsafe`);
- a player's code: 8 characters from :data:`CODE_ALPHABET` (no 0/O/1/I/L, so a code read
  off a slip is typed right), about 40 bits.

Examples
--------
>>> len(CODE_ALPHABET), set("01OIL") & set(CODE_ALPHABET)
(31, set())
>>> secrets_path("events/store.toml").as_posix()
'events/store.secrets.toml'
"""

from __future__ import annotations

import os
import secrets
import stat
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tabletop.app.common.datatext import file_text
from tabletop.app.common.locking import exclusive_lock
from tabletop.app.common.paths import temporary_path
from tabletop.app.event.eventfile import EventFileError

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "Secrets",
    "ensure_secrets",
    "new_code",
    "read_secrets",
    "remember_url",
    "reset_code",
    "secrets_path",
]

#: The characters of a player's code: digits and capitals without 0, O, 1, I and L.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
#: The characters in a player's code (31**8: about 40 bits).
CODE_LENGTH = 8
_HEADER = "# The event's secrets: the TO's token and each player's code. Keep it private.\n"


@dataclass(frozen=True)
class Secrets:
    """The TO's token and the players' codes (player id → code)."""

    path: Path
    token: str
    codes: dict[str, str] = field(default_factory=dict)
    public_url: str | None = None

    def player_of(self, code: str) -> str | None:
        """Return the player whose code `code` is (None: nobody's)."""
        wanted = code.strip().upper()
        for pid, known in self.codes.items():
            if secrets.compare_digest(known.encode(), wanted.encode()):
                return pid
        return None


def secrets_path(event: str | Path) -> Path:
    """Return the secrets file of the event file `event`: ``NAME.secrets.toml`` beside it."""
    path = Path(event)
    return path.with_name(f"{path.stem}.secrets.toml")


def new_code(taken: Iterable[str] = ()) -> str:
    """Return a new random player code, none of `taken`."""
    used = set(taken)
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in used:
            return code


def _fail(path: Path, message: str) -> EventFileError:
    return EventFileError(message, file=str(path))


def read_secrets(path: Path) -> Secrets | None:
    """Return the secrets file at `path` (None when there is none).

    Raises
    ------
    EventFileError
        When it is a symbolic link or not a plain file, others may read or write it, or
        it is not the secrets file's TOML.
    """
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as error:
        if os.path.islink(path):
            raise _fail(path, "is a symbolic link; the secrets file must be a plain file") from None
        raise _fail(path, f"cannot read it: {error.strerror}") from None
    with os.fdopen(handle, "rb") as stream:
        info = os.fstat(stream.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise _fail(path, "is not a plain file")
        mode = stat.S_IMODE(info.st_mode)
        if mode & 0o077:
            raise _fail(
                path, f"may be read by others (mode {mode:04o}); make it private: chmod 600"
            )
        raw = stream.read(1 << 20)
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise _fail(path, f"not the secrets file's TOML: {error}") from None
    token, codes = data.get("to_token"), data.get("codes", {})
    if not isinstance(token, str) or len(token) < 16:
        raise _fail(path, "key 'to_token': expected the TO's token (22 characters or more)")
    if not isinstance(codes, dict) or not all(
        isinstance(c, str) and len(c) >= 6 for c in codes.values()
    ):
        raise _fail(path, "key 'codes': expected a table of player id = code")
    url = data.get("public_url")
    if url is not None and not isinstance(url, str):
        raise _fail(path, "key 'public_url': expected the public page's address")
    return Secrets(path, token, dict(codes), url)


def _write(secret: Secrets) -> None:
    """Write the file whole, mode 0600, through a new file renamed over the old one."""
    path = secret.path
    data: dict[str, object] = {"to_token": secret.token}
    if secret.public_url:
        data["public_url"] = secret.public_url
    data["codes"] = secret.codes
    text = _HEADER + file_text(data, "secrets.toml", kind="secrets")
    temporary = temporary_path(path.parent)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    try:
        handle = os.open(temporary, flags, 0o600)
    except OSError as error:
        raise _fail(path, f"cannot write there: {error.strerror}") from None
    try:
        os.fchmod(handle, 0o600)  # whatever the umask
        with os.fdopen(handle, "wb") as stream:
            stream.write(text.encode("utf-8"))
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)  # replaces a link itself, never what it points at
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise _fail(path, f"cannot write there: {error.strerror}") from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def ensure_secrets(event: str | Path, players: Iterable[str]) -> Secrets:
    """Return the event's secrets, creating the file or adding codes for new `players`."""
    path = secrets_path(event)
    wanted = list(players)
    with exclusive_lock(path, command="tabletop event secrets"):
        found = read_secrets(path)
        if found is None and os.path.lexists(path):
            raise _fail(path, "is a symbolic link; the secrets file must be a plain file")
        secret = found or Secrets(path, secrets.token_urlsafe(16))
        codes = dict(secret.codes)
        for pid in wanted:
            if pid not in codes:
                codes[pid] = new_code(codes.values())
        if found is None or codes != found.codes:
            secret = Secrets(path, secret.token, codes, secret.public_url)
            _write(secret)
        return secret


def reset_code(event: str | Path, player: str) -> Secrets:
    """Give `player` a new code (the old one stops working); return the secrets."""
    path = secrets_path(event)
    with exclusive_lock(path, command="tabletop event codes --reset"):
        found = read_secrets(path)
        if found is None:
            raise _fail(path, "no secrets file yet: tabletop event codes EVENT creates it")
        codes = dict(found.codes)
        codes[player] = new_code(codes.values())
        secret = Secrets(path, found.token, codes, found.public_url)
        _write(secret)
        return secret


def remember_url(event: str | Path, url: str) -> Secrets:
    """Keep the public page's address (for the QR code of ``event print``); return the secrets."""
    path = secrets_path(event)
    with exclusive_lock(path, command="tabletop event serve"):
        found = read_secrets(path)
        if found is None:
            raise _fail(path, "no secrets file yet: tabletop event codes EVENT creates it")
        if found.public_url == url:
            return found
        secret = Secrets(path, found.token, found.codes, url)
        _write(secret)
        return secret
