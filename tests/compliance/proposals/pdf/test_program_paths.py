"""The robot programs in the proposal's plan figure (issue 32): each path
drawn by verdict with the stations' contact zones, the failing lines named
beside them and tabled with the speed each may have, the cycle times, in
English and Korean; a large program bounded in points. No database: the
builder reads only the data object."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from pypdf import PdfReader
from reportlab.graphics.shapes import Circle, PolyLine

from compliance.documents import theme
from compliance.proposals.data.motion import bounded_pieces
from compliance.proposals.pdf import plan_figure
from compliance.proposals.pdf.builder import build_proposal_pdf
from compliance.proposals.pdf.data import CellSection
from compliance.proposals.pdf.program_data import (
    MAX_SLOW_SEGMENTS,
    ContactZone,
    PathPiece,
    ProgramPath,
    SlowSegment,
)
from tests.compliance.proposals.pdf.samples import sample_proposal
from tests.compliance.proposals.pdf.test_plan_figure import HEIGHT, WIDTH, shapes

D = Decimal


def with_program(language: str = "en", *, slow: int = 1, more: int = 0):
    """The sample proposal with a program past its operator station: the
    move of line 3 fails, line 5 is to be measured, the rest are quiet."""
    data = sample_proposal(language)
    station = data.cell.layout.operator_stations[0]
    x, y = float(station.x_mm), float(station.y_mm)
    program = ProgramPath(
        label="Robot program 1" if language == "en" else "로봇 프로그램 1",
        pieces=(
            PathPiece(verdict="other", points_mm=((0, 0), (x - 900, y))),
            PathPiece(
                verdict="fail", points_mm=((x - 900, y), (x - 300, y)), lines=(3,)
            ),
            PathPiece(verdict="measure", points_mm=((x - 300, y), (x - 300, y - 200))),
        ),
        cycle_time_programmed_s=8.57,
        cycle_time_limited_s=9.13,
        failing_segments=slow + more,
    )
    cell = data.cell.model_copy(
        update={
            "programs": (program,),
            "contact_zones": (
                ContactZone(station=station.label, x_mm=x, y_mm=y, radius_mm=850),
            ),
            "slow_segments": tuple(
                SlowSegment(
                    program=program.label,
                    line=3 + 2 * n,
                    speed_mm_s=D(1000),
                    permissible_mm_s=D("471.8"),
                    station=station.label,
                )
                for n in range(slow)
            ),
            "slow_segments_more": more,
        }
    )
    return data.model_copy(update={"cell": cell})


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_the_plan_draws_the_failing_move_red_the_measured_amber_and_the_zone():
    cell = with_program().cell
    drawing, scale = plan_figure.layout_figure(cell, WIDTH, HEIGHT)
    k = plan_figure.PT_PER_MM / scale
    styles = {style: verdict for verdict, style in plan_figure.PATH_STYLE.items()}
    drawn = [
        styles[(s.strokeColor, s.strokeWidth)]
        for s in shapes(drawing)
        if isinstance(s, PolyLine) and (s.strokeColor, s.strokeWidth) in styles
    ]
    # The quiet moves first, the failing one on top.
    assert drawn == ["other", "measure", "fail"]
    assert plan_figure.PATH_STYLE["fail"][0] == theme.CRITICAL
    assert plan_figure.PATH_STYLE["measure"][0] == theme.STATUS_COLOURS["warning"]
    # The failing move's 600 mm to scale.
    (red,) = [
        s
        for s in shapes(drawing)
        if isinstance(s, PolyLine)
        and (s.strokeColor, s.strokeWidth) == plan_figure.PATH_STYLE["fail"]
    ]
    assert abs(red.points[2] - red.points[0]) == pytest.approx(600 * k, abs=0.01)
    # The station's contact zone, 850 mm round it.
    zones = [
        c
        for c in shapes(drawing)
        if isinstance(c, Circle) and c.strokeColor == theme.ACCENT
    ]
    assert [round(c.r, 3) for c in zones] == [round(850 * k, 3)]
    texts = [s.text for s in shapes(drawing) if hasattr(s, "text")]
    assert "line 3" in texts


def test_the_view_holds_the_contact_zone():
    cell = with_program().cell
    wide = cell.model_copy(
        update={
            "contact_zones": (
                cell.contact_zones[0].model_copy(update={"radius_mm": 9000}),
            )
        }
    )
    drawing, scale = plan_figure.layout_figure(wide, WIDTH, HEIGHT)
    k = plan_figure.PT_PER_MM / scale
    assert drawing.width >= 2 * 9000 * k and drawing.height >= 2 * 9000 * k


def test_the_pdf_tables_the_segments_to_slow_with_their_permissible_speed():
    text = " ".join(text_of(build_proposal_pdf(with_program())).split())
    assert "Robot programs" in text
    assert "Segments to slow" in text
    assert "Robot program 1 3 1,000 471.8" in text
    assert "cycle time of its straight moves 8.6 s as programmed, 9.1 s" in text
    assert "Contact zone of a station" in text


def test_the_segments_to_slow_are_bounded_and_the_rest_counted():
    text = " ".join(text_of(build_proposal_pdf(with_program(slow=20, more=7))).split())
    assert "And 7 more failing moves." in text
    with pytest.raises(ValueError):
        CellSection.model_validate(
            {
                **with_program().cell.model_dump(),
                "slow_segments": [with_program().cell.slow_segments[0].model_dump()]
                * (MAX_SLOW_SEGMENTS + 1),
            }
        )


def test_the_korean_pdf_builds_with_the_programs():
    pdf = build_proposal_pdf(with_program("ko"))
    text = text_of(pdf)
    assert "로봇 프로그램 1" in text
    assert "471.8" in text
    assert 5 <= len(PdfReader(io.BytesIO(pdf)).pages) <= 40


def test_a_large_program_is_bounded_in_points_and_keeps_its_failing_moves():
    # 20,000 moves zig-zagging over 2 m, one failing in the middle: merged
    # and snapped to at most 4,000 points, the failing move kept.
    moves = []
    for n in range(20_000):
        a = (float(n % 2000), float((n * 7) % 1000))
        b = (float((n + 1) % 2000), float(((n + 1) * 7) % 1000))
        moves.append(("fail" if n == 10_000 else "other", a, b, n + 1))
    (pieces,) = bounded_pieces([moves], 4_000)
    assert sum(len(p.points_mm) for p in pieces) <= 4_000
    failing = [p for p in pieces if p.verdict == "fail"]
    assert len(failing) == 1 and failing[0].lines == (10_001,)


def test_a_path_drawn_again_and_again_is_kept_once():
    loop = [
        ("other", (0.0, 0.0), (500.0, 0.0), 2),
        ("other", (500.0, 0.0), (500.0, 500.0), 3),
        ("fail", (500.0, 500.0), (0.0, 0.0), 4),
    ]
    (pieces,) = bounded_pieces([loop * 100], 4_000)
    assert [p.verdict for p in pieces] == ["other", "fail"]
    assert pieces[1].lines == (4,)
