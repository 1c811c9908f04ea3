"""``event print`` PDFs carry the QR code of the public page once ``event serve`` has run.

Each page of pairings and each slip carries one image, the code of the address kept by
``event serve`` (its modules are segno's own matrix of the address), with the address
written under it; standings and a never-served event carry none.
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import pytest

from tabletop.app.cli import main
from tabletop.app.event.server.secretsfile import remember_url

pytest.importorskip("matplotlib")
segno = pytest.importorskip("segno")

from test_event_venue import new, pdf_text  # noqa: E402

URL = "http://192.168.1.20:8766/"


def _print(event: Path, what: str, out: Path) -> bytes:
    assert main(["event", "print", str(event), "--what", what, "-o", str(out)]) == 0
    return out.read_bytes()


def _images(pdf: bytes) -> list[tuple[int, int, bytes]]:
    """Return each image of the PDF: width, height and its decoded samples."""
    found = []
    for head, stream in re.findall(rb"<<(.*?)>>\s*stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        if b"/Subtype /Image" not in head:
            continue
        width = int(re.search(rb"/Width (\d+)", head).group(1))  # type: ignore[union-attr]
        height = int(re.search(rb"/Height (\d+)", head).group(1))  # type: ignore[union-attr]
        data = zlib.decompress(stream) if b"/FlateDecode" in head else stream
        found.append((width, height, data))
    return found


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = new(tmp_path)
    assert main(["event", "pair", str(path)]) == 0
    return path


def test_without_a_served_address_no_code_is_drawn(event: Path, tmp_path: Path) -> None:
    for what in ("pairings", "slips"):
        assert _images(_print(event, what, tmp_path / f"{what}.pdf")) == []


@pytest.mark.parametrize("what", ["pairings", "slips"])
def test_pairings_and_slips_carry_the_public_page_s_code(
    event: Path, tmp_path: Path, what: str
) -> None:
    assert main(["event", "codes", str(event)]) == 0  # the secrets file, as serve makes it
    remember_url(event, URL)
    pdf = _print(event, what, tmp_path / f"{what}.pdf")
    images = _images(pdf)
    pages = len(re.findall(rb"/Type /Page\b(?!s)", pdf))
    # one code on each page of pairings; one on each slip (3 tables: 3 slips on 1 page)
    assert len(images) == (3 if what == "slips" else pages)
    for width, height, _ in images:
        assert width > 25  # a version-2 code (25 modules a side), drawn finer than its modules
        assert height > 25
    assert URL in pdf_text(pdf)


def test_the_modules_are_segno_s_matrix_of_the_address() -> None:
    from tabletop.app.event.server.qr import qr_modules

    modules = qr_modules(URL)
    assert modules is not None
    assert [list(row) for row in modules] == [
        [bool(c) for c in row] for row in segno.make(URL, error="m").matrix
    ]
    assert len(modules) == 25  # a version-2 code: 25 modules a side


def test_standings_carry_no_code(event: Path, tmp_path: Path) -> None:
    assert main(["event", "codes", str(event)]) == 0
    remember_url(event, URL)
    assert _images(_print(event, "standings", tmp_path / "standings.pdf")) == []
