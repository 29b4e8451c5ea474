"""The Motion tab of a cell (issue 32): its robot programs, one imported
from a file; for the program shown, its path drawn on the plan coloured by
verdict with each station's contact zone, its cycle time as programmed and
as limited, the lines not checked and skipped, and its segments a page at a
time (``?verdict=fail`` for the failing ones). The judgement is the
findings' (``compliance.motion.selectors``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from cells import selectors as cell_selectors
from cells.models import Cell
from cells.motion import services
from cells.motion.models import MotionProgram
from cells.motion.selectors import COMMENT
from cells.permissions import can_edit, require_edit
from cells.views import plan_for
from compliance.calculators.ts15066_path import StationLimit
from compliance.calculators.ts15066_tables import REGIONS_BY_ID
from compliance.motion import selectors
from compliance.motion.api import annotated_response
from compliance.motion.drawing import path_drawing, widened_view_box
from compliance.motion.forms import MotionImportForm
from compliance.rules.inputs import versioned
from config.forms import add_errors
from config.htmx import is_fragment_request, render_page

PAGE = "compliance/motion/cell_motion.html"
OVERLAY = "compliance/motion/partials/path_overlay.html"
# Segments a page of the table.
ROWS_PER_PAGE = 100
# Lines not checked and skipped listed, each; the rest counted.
MOST_LISTED = 200
# Lines named in a sentence; the table has them all.
LINES_NAMED = 12
# How much of an unknown ``?verdict=`` the page repeats back.
ECHO_CHARS = 40

VERDICT_LABELS = {
    "fail": gettext_lazy("Fail"),
    "measure": gettext_lazy("To be measured"),
    "not_checked": gettext_lazy("Not checked"),
    "pass": gettext_lazy("Pass"),
}
# The path's colours on the plan, as the legend and the verdicts show them.
VERDICT_COLOURS = {
    "fail": "#c0392b",
    "measure": "#dd8a00",
    "not_checked": "#8a94a6",
    "pass": "#2f855a",
}


def _verdicts() -> dict[str, dict]:
    """Each verdict as the page shows it: its word and its colour."""
    return {
        v: {"key": v, "label": VERDICT_LABELS[v], "colour": VERDICT_COLOURS[v]}
        for v in selectors.VERDICTS
    }


REASONS = {
    "joint_values": gettext_lazy(
        "Joint values: cannot be placed on the plan without the robot's kinematics"
    ),
    "expression": gettext_lazy("A target the program computes when it runs"),
    "work_object": gettext_lazy("In a work object other than the robot base's"),
    "unsupported_motion": gettext_lazy("A motion this reading does not place"),
    "not_motion": gettext_lazy("Not a motion: input and output, waits, logic"),
    "call": gettext_lazy("A call to a routine of the file, read where it is written"),
}


def _cell(request: HttpRequest, cell_pk: int) -> Cell:
    """The user's cell with its layout and the underlay of its plan."""
    return versioned(
        cell_pk,
        lambda: cell_selectors.cell_with_layout(
            request.user, cell_pk, with_underlay=True
        ),
    )


def _program(cell: Cell, pk: int) -> MotionProgram:
    return get_object_or_404(MotionProgram.objects.defer("segments"), cell=cell, pk=pk)


@login_required
@require_GET
def cell_motion(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """The tab: the cell's programs, the worst judged shown."""
    return _page(request, _cell(request, cell_pk), None)


@login_required
@require_GET
def motion_program(request: HttpRequest, cell_pk: int, pk: int) -> HttpResponse:
    """The tab with one program shown; for htmx, its table of segments."""
    return _page(request, _cell(request, cell_pk), pk)


@login_required
@require_POST
def motion_import(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """Import a program from a file: read whole, or refused with the line that
    is wrong and nothing saved."""
    cell = _cell(request, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    form = MotionImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            program = services.motion_program_import(
                cell=cell, actor=request.user, **form.program()
            )
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            messages.success(
                request,
                _("“%(name)s” is imported and judged.") % {"name": program.file_name},
            )
            return redirect("compliance:motion_program", cell_pk=cell.pk, pk=program.pk)
    return _page(request, cell, None, form=form, status=400)


@login_required
@require_POST
def motion_delete(request: HttpRequest, cell_pk: int, pk: int) -> HttpResponse:
    cell = cell_selectors.cell_for(request.user, cell_pk)
    require_edit(request.user, cell.project.organisation_id)
    program = get_object_or_404(
        MotionProgram.objects.only("id", "file_name"), cell=cell, pk=pk
    )
    name = program.file_name
    services.motion_program_delete(program=program)
    messages.success(request, _("“%(name)s” is removed.") % {"name": name})
    return redirect("compliance:cell_motion", cell_pk=cell.pk)


@login_required
@require_GET
def motion_file(request: HttpRequest, cell_pk: int, pk: int) -> HttpResponse:
    """The program's file as it was imported."""
    cell = cell_selectors.cell_for(request.user, cell_pk)
    program = _program(cell, pk)
    response = HttpResponse(
        bytes(program.data), content_type="application/octet-stream"
    )
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=program.file_name
    )
    return response


@login_required
@require_GET
def motion_annotated(request: HttpRequest, cell_pk: int, pk: int) -> HttpResponse:
    """The program's file with a comment above each failing line giving the
    speed it may have (a CSV file has no comments: back to the tab)."""
    cell = _cell(request, cell_pk)
    program = _program(cell, pk)
    if program.format not in COMMENT:
        messages.error(
            request,
            _(
                "A CSV file has no comments: the failing rows and their speeds "
                "are in the table of segments."
            ),
        )
        return redirect("compliance:motion_program", cell_pk=cell.pk, pk=pk)
    judged = selectors.judgement(cell, program.pk)
    if judged is None:  # removed while this request read it
        raise Http404
    return annotated_response(program, judged)


# --- the page ---------------------------------------------------------------


def _page(
    request: HttpRequest,
    cell: Cell,
    chosen_pk: int | None,
    *,
    form: MotionImportForm | None = None,
    status: int = 200,
) -> HttpResponse:
    programs = list(selectors.cell_programs(cell))
    pks = [p.pk for p in programs]
    if chosen_pk is not None and chosen_pk not in pks:
        raise Http404("No such program in this cell.")
    judged_all = selectors.summaries(cell) if programs else {}
    if chosen_pk is None:
        chosen_pk = selectors.worst_first(judged_all, pks)
    editable = can_edit(request.user, cell.project.organisation_id)
    shown = _verdicts()
    context: dict[str, Any] = {
        "cell": cell,
        "project": cell.project,
        "tab": "motion",
        "can_edit": editable,
        "form": (form or MotionImportForm()) if editable else None,
        "programs": [
            _listed(
                cell,
                program,
                judged_all.get(program.pk),
                program.pk == chosen_pk,
                shown,
            )
            for program in programs
        ],
        "base_cell": cell.variant_of_id if not programs else None,
        "legend": list(shown.values()),
        "chosen": (
            _chosen(
                request, cell, next(p for p in programs if p.pk == chosen_pk), shown
            )
            if chosen_pk is not None
            else None
        ),
    }
    return render_page(request, PAGE, context, fragment="segments", status=status)


def _listed(
    cell: Cell, program: MotionProgram, summary, current: bool, shown: dict
) -> dict:
    worst = summary.worst if summary else None
    person = program.imported_by
    return {
        "program": program,
        "imported_by": (person.get_full_name() or person.get_username())
        if person is not None
        else "",
        "url": reverse("compliance:motion_program", args=[cell.pk, program.pk]),
        "current": current,
        "worst": shown[worst] if worst else None,
        "counts": [
            (shown[v], summary.counts[v])
            for v in selectors.VERDICTS
            if summary and summary.counts.get(v)
        ],
        "segments": summary.segments if summary else 0,
        "checksum": program.sha256[:12],
    }


def _chosen(
    request: HttpRequest, cell: Cell, program: MotionProgram, shown: dict
) -> dict:
    judged = selectors.judgement(cell, program.pk)
    if judged is None:  # removed while this request read it
        raise Http404
    result = judged.totals
    here = reverse("compliance:motion_program", args=[cell.pk, program.pk])
    asked = request.GET.get("verdict", "")
    verdict = asked if asked in selectors.VERDICTS else None
    verdicts = judged.verdicts
    indices = [i for i, v in enumerate(verdicts) if verdict in (None, v)]
    page = Paginator(indices, ROWS_PER_PAGE).get_page(request.GET.get("page"))
    limits = {s.label: s for s in result.stations} if result else {}
    chosen: dict[str, Any] = {
        "program": program,
        "url": here,
        "judged": judged,
        "result": result,
        "why": _why(judged.why),
        "verdict": verdict,
        "verdict_label": VERDICT_LABELS[verdict] if verdict else "",
        "worst": shown[result.worst_verdict] if result else None,
        "ignored_verdict": asked[:ECHO_CHARS] if asked and verdict is None else "",
        "filters": [(shown[v], result.counts.get(v, 0)) for v in selectors.VERDICTS]
        if result
        else [],
        "total": len(verdicts),
        "page": page,
        "rows": [_row(i, judged, limits, shown) for i in page.object_list],
        "annotated": program.format in COMMENT,
    }
    if result is not None:
        chosen |= {
            "failing_lines": lines_text(result.failing_lines),
            "failing_count": len(dict.fromkeys(result.failing_lines)),
            "cannot_be_slowed": lines_text(result.cannot_be_slowed_lines),
            "unknown_speed": lines_text(result.unknown_speed_lines),
            "programmed_s": f"{result.cycle_time_programmed_s:,.2f}",
            "limited_s": (
                f"{result.cycle_time_limited_s:,.2f}"
                if result.cycle_time_limited_s is not None
                else None
            ),
            "stations": [_station(limit) for limit in result.stations],
        }
    if is_fragment_request(request):
        return chosen
    not_checked, skipped = (
        MotionProgram.objects.filter(pk=program.pk)
        .values_list("not_checked", "skipped")
        .get()
    )
    chosen |= {
        "not_checked": _listed_lines(not_checked),
        "not_checked_count": len(not_checked),
        "skipped": _listed_lines(skipped),
        "skipped_count": len(skipped),
        "plan": _plan_with_path(cell, judged),
    }
    return chosen


def lines_text(lines: tuple[int, ...]) -> str:
    """ "3, 7, 12", or the first of them and "…"."""
    unique = list(dict.fromkeys(lines))
    named = ", ".join(str(n) for n in unique[:LINES_NAMED])
    return named if len(unique) <= LINES_NAMED else f"{named}, …"


def _why(why: str) -> str:
    if not why:
        return ""
    if why == "no segment":
        return _(
            "This program has no straight move that can be placed on the plan: its "
            "path where people stand cannot be checked."
        )
    return _("The path cannot be judged: %(why)s") % {"why": why}


def _listed_lines(rows: list) -> list[dict]:
    return [
        {
            "line": line,
            "reason": REASONS.get(reason, reason),
            "text": text,
        }
        for line, reason, text in rows[:MOST_LISTED]
    ]


def _region(region) -> str:
    row = REGIONS_BY_ID.get(region)
    return _(row.name) if row else str(region)


def _station(limit: StationLimit) -> dict:
    return {
        "label": limit.label,
        "reach": f"{limit.contact_reach_mm:,.0f}",
        "default_reach": limit.reach_basis == "default",
        "limit": (
            f"{limit.transient_limit_mm_s:,.1f}"
            if limit.transient_limit_mm_s is not None
            else None
        ),
        "region": _region(limit.governing_region) if limit.governing_region else "",
        "forbidden": ", ".join(_region(r) for r in limit.forbidden_regions),
    }


def _mm(value: float | None, digits: int = 0) -> str:
    return "—" if value is None else f"{value:,.{digits}f}"


def _point(x: float, y: float, z: float) -> str:
    # No-break spaces: a point is not wrapped in a narrow column.
    return f"({x:.0f},\u00a0{y:.0f},\u00a0{z:.0f})"


def _row(index: int, judged: selectors.Judgement, limits: dict, shown: dict) -> dict:
    line, x1, y1, z1, x2, y2, z2, speed = judged.program.segments[index]
    row: dict[str, Any] = {
        "index": index,
        "line": line,
        "start": _point(x1, y1, z1),
        "end": _point(x2, y2, z2),
        "speed": _mm(speed),
        "verdict": shown["not_checked"],
    }
    segment = judged.segments[index] if judged.segments else None
    if segment is None:
        return row
    limit = limits.get(segment.pfl_station) if segment.pfl_station else None
    row |= {
        "verdict": shown[segment.verdict],
        "nearest": segment.nearest_station or "—",
        "distance": _mm(segment.nearest_station_distance_mm),
        "limit": _mm(segment.pfl_limit_mm_s, 1),
        "region": (
            _region(limit.governing_region)
            if limit is not None and limit.governing_region
            else ""
        ),
        "pfl_station": segment.pfl_station or "",
        "clamping": segment.clamping_obstacle
        if segment.clamping_verdict == "measure"
        else "",
        "ssm_shortfall": (
            _mm(segment.ssm_shortfall_mm) if segment.ssm_verdict == "fail" else ""
        ),
        "ssm_separation": _mm(segment.ssm_separation_mm)
        if segment.ssm_separation_mm is not None
        else "",
        "permissible": _mm(segment.permissible_speed_mm_s, 1),
        "why": segment.explained(_),
    }
    return row


def _plan_with_path(cell: Cell, judged: selectors.Judgement) -> dict:
    """The cell's plan as the layout page draws it, with the program's path
    over it (coloured by verdict) and each station's contact zone: its
    ``svg``, and how many segments each piece drawn stands for."""
    plan = plan_for(cell)
    svg: str = plan["svg"]
    drawing = path_drawing(judged.program.segments, judged.verdicts, judged.zones)
    start = svg.index('viewBox="') + len('viewBox="')
    end = svg.index('"', start)
    view_box = tuple(float(v) for v in svg[start:end].split())
    span = max(view_box[2], view_box[3])
    widened = widened_view_box(view_box, drawing.extent, span * 0.05)
    shown = _verdicts()
    rank = {v: i for i, v in enumerate(reversed(selectors.VERDICTS))}
    overlay = render_to_string(
        OVERLAY,
        {
            "zones": drawing.zones,
            # The worst drawn last: on top of the rest.
            "runs": [
                {
                    "verdict": run.verdict,
                    "points": run.points,
                    "colour": VERDICT_COLOURS[run.verdict],
                    "label": shown[run.verdict]["label"],
                    "first": run.first_line,
                    "last": run.last_line,
                }
                for run in sorted(drawing.runs, key=lambda r: rank[r.verdict])
            ],
            "start": drawing.start,
            "grouped_by": drawing.grouped_by,
            "dot": round(span / 150, 1),
        },
    )
    closing = svg.rindex("</svg>")
    box = " ".join(f"{v:g}" for v in widened)
    return {
        # Both parts are written by templates, which escape what they are given.
        "svg": mark_safe(
            svg[:start] + box + svg[end:closing] + overlay + svg[closing:]
        ),
        "grouped_by": drawing.grouped_by,
    }
