"""Tabletop Simulator saves of the X-Wing 2.0, 1st-edition and Armada mods.

Recognised by content: a JSON document with ``ObjectStates``. Which mod wrote it is read
from its ``GameMode``, the unit ratio in its scripts, the X-Wing markers (``__XW_Ship``,
``__XW_Obstacle``) and the Armada mod's obstacle and ship-base colliders. Every constant comes from
:mod:`tabletop.app.clients.facts`; every object not imported is listed as skipped.

Examples
--------
>>> recognises(b'{"SaveName": "", "ObjectStates": []}')
True
>>> recognises(b'{"pilots": []}')
False
"""

from __future__ import annotations

import re
from typing import Any

from tabletop.app.clients.facts import fact_value, unconfirmed_texts
from tabletop.app.clients.model import (
    ClientFileError,
    ClientImport,
    Match,
    Resolution,
    Skipped,
    SourceInfo,
    unique_ids,
)
from tabletop.app.clients.recognise import tts_save as recognises
from tabletop.app.clients.tts_frames import Table
from tabletop.app.clients.tts_objects import PLACE_KEYS, TtsObject, parse_tts_json
from tabletop.app.clients.tts_pieces import Piece, identify

__all__ = ["client_of", "read", "recognises"]

_X1_RATIO = re.compile(rb"mm_igu_ratio\s*=\s*0\.036125")
_X2_RATIO = re.compile(rb"mm_igu_ratio\s*=\s*0\.03637")
#: The 2.0 mod's own models (its ships' bases, its obstacles), named by its repository.
_X2_ASSETS = re.compile(rb"TTS_X-Wing2\.0/[^\"]{0,80}/assets/models/(?:bases|obstacles)/")
_MAT = re.compile(r"__XW_Mat\s*=\s*true")
_MAT_FIELD = re.compile(r"__XW_Mat(Layout|ID)\s*=\s*['\"]([^'\"]*)['\"]")
#: The standard layout's mats, player 1's first: the 2.0 mod's and the 1st-edition mod's.
_LAYOUT_MATS = {
    "tts-xwing2": ("Red-Blue", "Purple-Orange"),
    "tts-xwing1": ("Green-Red", "Teal-Blue"),
}


def client_of(document: dict[str, Any], data: bytes) -> tuple[str, list[str]]:
    """Return which mod wrote a save (``tts-xwing2``, ``tts-xwing1``, ``tts-armada``).

    Also returns the facts the decision relied on.

    Examples
    --------
    >>> client_of({"GameMode": "X-Wing 2.0"}, b"")
    ('tts-xwing2', [])
    >>> client_of({}, b"x = 1 -- __XW_Ship = true")
    ('tts-xwing2', ['tts_xwing_edition_default'])
    >>> client_of({}, b'"https://x/JohnnyCheese/TTS_X-Wing2.0/master/assets/models/bases/small/b.obj"')
    ('tts-xwing2', [])
    """
    mode = document.get("GameMode")
    mode = mode if isinstance(mode, str) else ""
    if "armada" in mode.lower() or _armada_colliders(data):
        return "tts-armada", []
    if "2.0" in mode or "2.5" in mode or _X2_RATIO.search(data):
        return "tts-xwing2", []
    if _X1_RATIO.search(data):
        return "tts-xwing1", []
    if _X2_ASSETS.search(data):
        return "tts-xwing2", []
    if "x-wing" in mode.lower() or b"__XW_Ship" in data or b"__XW_Obstacle" in data:
        return "tts-xwing2", ["tts_xwing_edition_default"]
    return "", []


def _armada_colliders(data: bytes) -> bool:
    """Tell whether a save holds an Armada obstacle's or ship base's collider."""
    from tabletop.app.clients.tts_armada import ARMADA_BASE_COLLIDERS
    from tabletop.app.clients.tts_pieces import ARMADA_COLLIDERS

    if b"TTS_armada/assets/misc/bases/" in data:
        return True
    if b"paste.ee/r/" not in data:
        return False
    pastes = [key for key in ARMADA_BASE_COLLIDERS if not key.endswith(".obj")]
    return any(key.encode() in data for key in ARMADA_COLLIDERS) or any(
        f"paste.ee/r/{key}".encode() in data for key in pastes
    )


def _source(document: dict[str, Any], client: str) -> SourceInfo:
    mode = document.get("GameMode")
    table_key = "Table" in document or bool(isinstance(mode, str) and mode)
    version = document.get("SaveName") or document.get("VersionNumber")
    return SourceInfo(
        client,
        "tts-save" if table_key else "tts-saved-object",
        version if isinstance(version, str) and version else None,
    )


def _mat(obj: TtsObject) -> tuple[str, str] | None:
    """Return (layout, mat id) of a mat object, or None for anything else."""
    if "__XW_Mat" in obj.script and _MAT.search(obj.script):
        fields = dict(_MAT_FIELD.findall(obj.script))
        return fields.get("Layout", ""), fields.get("ID", obj.nickname)
    named = obj.nickname.removesuffix(" Playmat")
    if any(named in names for names in _LAYOUT_MATS.values()):
        return "Standard", named
    return None


def _mat_fact(obj: TtsObject) -> str:
    """Return the fact by which `obj` is known to be a mat."""
    if "__XW_Mat" in obj.script:
        return "tts_xwing_mat_marker"
    if obj.nickname.removesuffix(" Playmat") in _LAYOUT_MATS["tts-xwing1"]:
        return "tts_xwing1_mat_names"
    return "tts_xwing_mat_names"


def _sort(
    objects: list[TtsObject], client: str, name: str
) -> tuple[list[Piece], list[Skipped], list[TtsObject], list[str]]:
    """Split a save's objects into pieces, skipped entries and mats; return the facts used.

    Raises
    ------
    ClientFileError
        For a piece without its position (a ``Transform`` key of :data:`PLACE_KEYS`).
    """
    pieces: list[Piece] = []
    skipped: list[Skipped] = []
    mats: list[TtsObject] = []
    used: list[str] = []
    for obj in objects:
        if obj.is_container:
            what = "deck" if "Deck" in obj.name else "bag"
            reason = (
                f"a {what} holding {obj.contained} objects: what a {what} holds is not on the table"
            )
            skipped.append(Skipped(obj.guid, obj.label, reason))
            continue
        mat = None if client == "tts-armada" else _mat(obj)
        if obj.gm_notes == "playmattile" and client != "tts-armada":
            used.append("tts_xwing_playmat_tile")
            skipped.append(Skipped(obj.guid, obj.label, "a playmat image tile: not a mat"))
            continue
        if mat is not None:
            used.append(
                "tts_xwing_mat_marker" if "__XW_Mat" in obj.script else "tts_xwing_mat_names"
            )
            if obj.y < 0.0:
                used.append("tts_xwing_hidden_mat")
                reason = f"a mat of the {mat[0] or 'unnamed'} layout, hidden under the table"
                skipped.append(Skipped(obj.guid, obj.label, reason))
            else:
                mats.append(obj)
            continue
        piece, reason, facts = identify(obj, client)
        used += facts
        if piece is not None and obj.unplaced is not None:
            raise ClientFileError(
                f"a {piece.kind} without its position: expected the key {obj.unplaced!r} "
                f"({', '.join(PLACE_KEYS)} in Transform place a piece)",
                file=name,
                entry=obj.guid if obj.guid.startswith("ObjectStates[") else f"object {obj.guid!r}",
                key=obj.unplaced,
            )
        if piece is None:
            skipped.append(Skipped(obj.guid, obj.label, reason))
        else:
            pieces.append(piece)
        if obj.states:
            reason = f"a state stack: its other {obj.states} state(s) are not on the table"
            skipped.append(Skipped(obj.guid, obj.label, reason))
        if obj.children:
            reason = f"{obj.children} objects attached to it are not imported"
            skipped.append(Skipped(obj.guid, obj.label, reason))
    return pieces, skipped, mats, used


def _mat_name(obj: TtsObject) -> str:
    """Return how reports name a mat: its nickname, else its layout id."""
    found = _mat(obj)
    return obj.nickname or (found[1] if found else "") or obj.name


def _standard_only(mats: list[TtsObject], name: str) -> None:
    """Refuse a table laid out with another layout's mats (only the Standard one is known)."""
    other = [(m, layout) for m in mats for layout, _ in [_mat(m) or ("", "")]
             if layout not in ("", "Standard")]  # fmt: skip
    if other:
        listed = "; ".join(f"{m.guid} {m.label!r} ({layout})" for m, layout in other)
        raise ClientFileError(
            "the table uses mats of another layout than Standard, whose positions and sizes "
            f"are not among the known facts: {listed}",
            file=name,
        )


def _tables(mats: list[TtsObject], client: str) -> tuple[list[Table], list[str]]:
    """Return the candidate tables and the facts they rely on."""
    if client == "tts-armada":
        ratio = 1.0 / fact_value("tts_armada_mm_per_unit")
        return [Table("", "Armada table (6'x3' at the origin)", 0.0, 0.0, 1828.8, 914.4, ratio)], [
            "tts_armada_table"
        ]
    ratio = fact_value(
        "tts_xwing1_units_per_mm" if client == "tts-xwing1" else "tts_xwing2_units_per_mm"
    )
    side = fact_value("tts_xwing_mat_side_mm")
    used = ["tts_xwing_player1_edge", "tts_xwing_mat_side_mm"]
    if client == "tts-xwing1":
        used.append("tts_xwing1_layout")
    if mats:
        return [
            Table(m.guid, _mat_name(m), m.x, m.z, side, side, ratio, (_mat(m) or ("", ""))[1])
            for m in mats
        ], used
    used += ["tts_xwing_mat_red_blue_x", "tts_xwing_mat_purple_orange_x"]
    first, second = _LAYOUT_MATS["tts-xwing1" if client == "tts-xwing1" else "tts-xwing2"]
    return [
        Table("", f"{first} (the standard layout's mat)", fact_value("tts_xwing_mat_red_blue_x"),
              0.0, side, side, ratio, first),
        Table("", f"{second} (the standard layout's mat)",
              fact_value("tts_xwing_mat_purple_orange_x"), 0.0, side, side, ratio, second),
    ], used  # fmt: skip


def _choose(tables: list[Table], pieces: list[Piece], wanted: str | None, name: str) -> Table:
    counts = [sum(1 for p in pieces if t.holds(*p.table_point)) for t in tables]
    if wanted is not None:
        for table in tables:
            if wanted in (table.source_id, table.name, table.mat_id) or (
                not table.source_id and table.name.split(" (")[0] == wanted
            ):
                return table
        listed = "; ".join(
            f"{t.source_id or '(layout)'} {t.name!r} ({n} pieces)"
            for t, n in zip(tables, counts, strict=True)
        )
        raise ClientFileError(
            f"no mat has the GUID or nickname {wanted!r}; the mats: {listed}",
            file=name,
            key="--table",
        )
    holding = [(t, n) for t, n in zip(tables, counts, strict=True) if n]
    if len(holding) > 1:
        listed = "; ".join(
            f"{t.source_id or '(layout)'} {t.name!r}: {n} pieces" for t, n in holding
        )
        raise ClientFileError(
            f"pieces lie on {len(holding)} mats; choose one with --table GUID or --table "
            f"NICKNAME ({listed})",
            file=name,
        )
    return holding[0][0] if holding else tables[0]


def read(
    data: bytes, name: str, *, table: str | None = None, step: int | None = None
) -> ClientImport:
    """Read the position of a TTS save or saved-objects file.

    Raises
    ------
    ClientFileError
        For a file that is not a mod's save, a bad object (its GUID and key named), an
        unknown ``--table``, pieces on two mats without ``--table``, or ``--step``.
    """
    if step is not None:
        raise ClientFileError(
            "a TTS save holds one position; --step applies to a VASSAL log",
            file=name,
            key="--step",
        )
    document = parse_tts_json(data, name)
    client, used = client_of(document, data)
    if not client:
        raise ClientFileError(
            "a TTS save of no known mod: expected the X-Wing 2.0, 1st-edition or Armada mod "
            "(their GameMode, __XW_Ship / __XW_Obstacle scripts or Armada obstacle colliders)",
            file=name,
        )
    objects = [TtsObject.parse(raw, name, i) for i, raw in enumerate(document["ObjectStates"])]
    ruleset = {"tts-xwing2": "xwing2", "tts-xwing1": "xwing1", "tts-armada": "armada"}[client]
    pieces, skipped, mats, sorted_facts = _sort(objects, client, name)
    used += sorted_facts
    _standard_only(mats, name)
    tables, table_facts = _tables(mats, client)
    used += table_facts
    chosen = _choose(tables, pieces, table, name)
    for mat in mats:
        if mat.guid != chosen.source_id:
            skipped.append(Skipped(mat.guid, mat.label, "another mat: not the table imported"))
    held = [chosen.holds(*p.table_point) for p in pieces]
    on_table = [p for p, here in zip(pieces, held, strict=True) if here]
    for piece, here in zip(pieces, held, strict=True):
        if not here:
            skipped.append(
                Skipped(
                    piece.obj.guid,
                    piece.obj.label,
                    (f"a {piece.kind} off the table imported ({chosen.name})"),
                )
            )
    ids = unique_ids((p.obj.nickname, p.obj.guid) for p in on_table)
    imported = tuple(p.place(ident, chosen) for p, ident in zip(on_table, ids, strict=True))
    matches = tuple(
        Match(p.obj.label, p.token, p.residual_mm)
        for p in on_table
        if p.residual_mm is not None and p.token is not None
    )
    used.append("tts_position_resolution_mm")
    return ClientImport(
        source=_source(document, client),
        ruleset=ruleset,
        imported=imported,
        skipped=tuple(skipped),
        table=chosen.to_json(),
        resolution=Resolution(
            fact_value("tts_position_resolution_mm"), fact_value("tts_heading_resolution_deg")
        ),
        matches=matches,
        unconfirmed=unconfirmed_texts(used),
    )
