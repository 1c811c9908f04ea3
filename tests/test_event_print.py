"""``tabletop event print``: A4 pairings, standings and slips, as PDF and HTML."""

from __future__ import annotations

import hashlib
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tabletop.app.cli import main

pytest.importorskip("matplotlib")

# 5 Armada players; round 1 by hand: p1 v p2 (table 1), p3 v p4 (table 2), p5 the bye.
EVENT = (
    'game = "armada"\nseed = 4\nname = "Store Championship"\n'
    + "".join(
        f'[[players]]\nid = "p{k}"\nname = "{n}"\n'
        for k, n in enumerate(("Zoe", "Andrea", "Silvia", "Carlo", "Michele"), 1)
    )
    + '[[rounds]]\nkind = "swiss"\n'
    + '[[rounds.matches]]\ntable = 1\nplayers = ["p1", "p2"]\nscores = [140, 100]\n'
    + '[[rounds.matches]]\ntable = 2\nplayers = ["p3", "p4"]\n'
    + '[[rounds.byes]]\nplayer = "p5"\n'
)
#: A4 portrait in PostScript points: 210 mm and 297 mm at 72 / 25.4 points per mm.
A4_POINTS = (595.28, 841.89)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "event.toml"
    path.write_text(EVENT)
    return path


def page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    boxes = re.findall(rb"/MediaBox \[ *0 0 ([0-9.]+) ([0-9.]+) *\]", pdf)
    return [(float(w), float(h)) for w, h in boxes]


def test_pairings_html_by_table_and_by_name(event: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "pairings.html"
    code, out, err = run("event", "print", str(event), "--what", "pairings", "-o", str(out_file))
    assert (code, out) == (0, f"wrote pairings to {out_file}\n"), err
    text = out_file.read_text()
    assert "@page { size: A4;" in text
    assert "Round 1 (swiss) pairings - Store Championship" in text
    # by table: table 1 Zoe (TP after round 0: 0) v Andrea; the bye is Michele's; each
    # name with its id
    row = "<tr><td>1</td><td>Zoe (p1)</td><td>0</td><td>v</td><td>Andrea (p2)</td><td>0</td></tr>"
    assert row in text
    assert "<tr><td></td><td>Michele (p5)</td><td>0</td><td>bye</td><td></td><td></td></tr>" in text
    # by name, A to Z: Andrea, Carlo, Michele, Silvia, Zoe
    by_name = text.split("by name")[1]
    seats = re.findall(r"<tr><td>([\w ()]+)</td><td>(\w+)</td><td>([\w ()]*)</td></tr>", by_name)
    assert seats == [
        ("Andrea (p2)", "1", "Zoe (p1)"),
        ("Carlo (p4)", "2", "Silvia (p3)"),
        ("Michele (p5)", "bye", ""),
        ("Silvia (p3)", "2", "Carlo (p4)"),
        ("Zoe (p1)", "1", "Andrea (p2)"),
    ]


def test_standings_say_after_which_round(event: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "standings.html"
    assert run("event", "print", str(event), "--what", "standings", "-o", str(out_file))[0] == 0
    text = out_file.read_text()
    # table 2 has no result: the standings are after round 0, every player on 0 TP
    assert "Standings after round 0" in text
    assert text.count("<tr><td>") == 5


def test_slips_one_per_table(event: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "slips.html"
    assert run("event", "print", str(event), "--what", "slips", "-o", str(out_file))[0] == 0
    text = out_file.read_text()
    assert text.count('class="slip"') == 2
    assert "round 1 - table 2" in text
    assert "Silvia (p3)" in text
    assert "Carlo (p4)" in text
    # the regulation's MoV → TP table for the TP line (armada-2015, by hand from its table)
    assert "0–20 5/5, 21–50 6/4, 51–90 7/3, 91–150 8/2, 151–220 9/1, 221+ 10/0" in text
    assert "final score: ___" in text


@pytest.mark.parametrize(("what", "pages"), [("pairings", 2), ("standings", 1), ("slips", 1)])
def test_pdf_pages_are_a4(event: Path, tmp_path: Path, what: str, pages: int) -> None:
    out_file = tmp_path / f"{what}.pdf"
    code, out, err = run(
        "event", "print", str(event), "--what", what, "-o", str(out_file), "--json"
    )
    assert code == 0, err
    assert out == f'{{"output": "{out_file}", "format": "pdf", "what": "{what}"}}\n'
    sizes = page_sizes(out_file.read_bytes())
    assert len(sizes) == pages
    for width, height in sizes:
        assert width == pytest.approx(A4_POINTS[0], abs=0.01)
        assert height == pytest.approx(A4_POINTS[1], abs=0.01)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler) not installed")
def test_a_pdf_page_renders(event: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "slips.pdf"
    assert run("event", "print", str(event), "--what", "slips", "-o", str(out_file))[0] == 0
    subprocess.run(
        ["pdftoppm", "-r", "20", "-png", "-singlefile", str(out_file), str(tmp_path / "page")],
        check=True,
    )
    png = (tmp_path / "page.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # 20 dpi: 210 mm = 165.35 px and 297 mm = 233.86 px, which pdftoppm rounds up
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == (166, 234)


def test_bad_print_requests_are_exit_2_and_write_nothing(event: Path, tmp_path: Path) -> None:
    before = hashlib.sha256(event.read_bytes()).hexdigest()
    for argv, said in (
        (("--what", "slips", "-o", str(tmp_path / "x.docx")), "expected a .pdf or .html file"),
        (("--what", "slips"), "print needs -o FILE.pdf or FILE.html"),
        (("-o", str(tmp_path / "x.pdf")), "print needs --what"),
        (("--what", "slips", "-o", str(event)), "event"),
    ):
        code, _, err = run("event", "print", str(event), *argv)
        assert code == 2, err
        assert said in err
    assert hashlib.sha256(event.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event.toml"]
