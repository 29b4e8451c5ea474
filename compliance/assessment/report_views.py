"""The risk-assessment report of one revision: its data from the database, the
page that answers with the PDF and its API twin.

``report_data`` assembles the pure ``report.data.ReportData`` (every domain
string already in the report's language); ``report.builder`` draws it.
Anyone in the revision's organisation may print it; a revision that is not
signed prints marked "DRAFT — not signed" on every page.
"""

from __future__ import annotations

import re

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils import timezone, translation
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import renderers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells.models import Role
from compliance.assessment import checks, selectors, verification
from compliance.assessment.hazards import catalogue, risk
from compliance.assessment.models import Hazard, Revision, RevisionStatus
from compliance.assessment.report import data as report
from compliance.assessment.report.builder import build_report_pdf
from compliance.assessment.services import LIMIT_FIELDS
from compliance.calculators.written import field_shown
from compliance.rules import selectors as rules_selectors
from compliance.rules.selectors import config_words, stamp_lines, stamp_of

LANGUAGES = ("en", "ko")
PDF = "application/pdf"


def _estimate(hazard: Hazard, prefix: str = "") -> risk.RiskEstimate | None:
    values = [
        getattr(hazard, f"{prefix}{n}") for n in ("severity", "frequency", "avoidance")
    ]
    if not all(values):
        return None
    return risk.estimate(
        *values, low_probability=getattr(hazard, f"{prefix}low_probability")
    )


def _hazard_row(
    number: int, hazard: Hazard, cell_checks: checks.CellChecks
) -> report.HazardRow:
    measures = list(hazard.measures.all())
    initial, residual = _estimate(hazard), _estimate(hazard, "residual_")
    verdict = checks.acceptability(
        initial=initial,
        residual=residual,
        hazard_key=str(hazard.key),
        body_region=hazard.body_region,
        measures=measures,
        checks=cell_checks,
    )
    rows = []
    for m in measures:
        failure = cell_checks.measure_failure(m)
        rows.append(
            report.MeasureRow(
                step=m.step,
                description=m.description,
                linked=m.linked_label,
                safety_function=(
                    f"PLr {m.plr_required or '?'} · PL {m.pl_claimed or '?'}"
                    if m.is_safety_function
                    else ""
                ),
                ineffective=(
                    _("Ineffective: its %(rule)s check fails.")
                    % {"rule": failure.rule_id}
                    if failure is not None
                    else ""
                ),
            )
        )
    group = catalogue.group(hazard.group)
    origin = catalogue.origin(hazard.group, hazard.origin)
    consequence = catalogue.consequence(hazard.group, hazard.consequence)
    return report.HazardRow(
        number=number,
        group=_(group.name),
        hazard=f"{_(origin.text)} → {_(consequence.text)}",
        description=field_shown(hazard, "description", _),
        phase=hazard.get_phase_display(),
        task=field_shown(hazard, "task", _),
        place=hazard.location_label,
        severity=hazard.severity,
        frequency=hazard.frequency,
        avoidance=hazard.avoidance,
        low_probability=hazard.low_probability,
        plr=initial.plr if initial else None,
        level=_(initial.label) if initial else "",
        residual_severity=hazard.residual_severity,
        residual_frequency=hazard.residual_frequency,
        residual_avoidance=hazard.residual_avoidance,
        residual_plr=residual.plr if residual else None,
        residual_level=_(residual.label) if residual else "",
        acceptable=verdict.acceptable,
        reasons=tuple(reason.render(_) for reason in verdict.reasons),
        measures=tuple(rows),
    )


def _limits(revision: Revision) -> tuple[report.Limit, ...]:
    limits = []
    for name in LIMIT_FIELDS:
        label = str(Revision._meta.get_field(name).verbose_name)
        value = getattr(revision, name)
        if name == "exposed_persons":
            value = ", ".join(_(catalogue.exposed_person(p).label) for p in value)
        else:
            value = field_shown(revision, name, _)
        limits.append(report.Limit(label=label[:1].upper() + label[1:], text=value))
    return tuple(limits)


def _declaration(revision: Revision) -> report.Declaration | None:
    declared = selectors.declaration_of(revision)
    if declared is None:
        return None
    return report.Declaration(
        signer=declared.signer_name,
        # In the zone the cover's dates are in (the site's), named.
        signed_at=timezone.localtime(declared.signed_at),
        statement=declared.statement,
        findings=tuple(
            report.DeclaredFinding(
                status=f["status"],
                rule_id=f.get("rule_id", ""),
                subject=f.get("subject", ""),
                message=f.get("message", ""),
                reason=f.get("reason", ""),
            )
            for f in declared.findings
            if f.get("status") in ("fail", "needs_evidence")
        ),
        safety_configuration=config_words(declared.safety_configuration),
        computed_under=tuple(
            stamp_lines(stamp)
            if (stamp := stamp_of(declared.computed_under)) is not None
            else ()
        ),
    )


def _signer_name(revision: Revision) -> str:
    user = revision.signed_by
    declared = selectors.declaration_of(revision)
    if user is not None and user.get_full_name():
        return user.get_full_name()
    if declared is not None:
        return declared.signer_name
    return user.get_username() if user is not None else ""


def report_data(revision: Revision, *, language: str) -> report.ReportData:
    """The report of ``revision`` in ``language``; the seal is checked now.

    ``revision`` comes from ``selectors.revision_for`` (organisation and
    declaration loaded).
    """
    with translation.override(language):
        cell = revision.assessment.cell
        cell_checks = rules_selectors.cell_checks(cell)
        hazards = tuple(
            _hazard_row(number, hazard, cell_checks)
            for number, hazard in enumerate(selectors.register(revision), start=1)
        )
        signed = revision.status == RevisionStatus.SIGNED
        return report.ReportData(
            language=language,
            meta=report.ReportMeta(
                organisation=cell.project.organisation.name,
                project=cell.project.name,
                cell=cell.name,
                revision=revision.number,
                status=revision.status,
                status_label=str(revision.get_status_display()),
                signer_name=_signer_name(revision) if signed else "",
                # Only a safety engineer can sign (services.check_signer).
                signer_role=str(Role.SAFETY_ENGINEER.label) if signed else "",
                signed_on=timezone.localdate(revision.signed_at)
                if signed and revision.signed_at
                else None,
                printed_on=timezone.localdate(),
            ),
            limits=_limits(revision),
            hazards=hazards,
            acceptance_basis=_(risk.ACCEPTANCE_BASIS),
            declaration=_declaration(revision) if signed else None,
            integrity=report.Integrity(
                content_hash=revision.content_hash,
                verifies=verification.revision_is_intact(revision),
            )
            if signed
            else None,
        )


def report_language(value: str | None) -> str | None:
    """The language asked for (``?lang=``), the reader's when none; None when
    it is not one the report is written in."""
    if not value:
        current = (translation.get_language() or "en").split("-")[0]
        return current if current in LANGUAGES else "en"
    return value if value in LANGUAGES else None


def language_error() -> str:
    return _("Choose the report's language: en or ko.")


def pdf_response(revision: Revision, language: str) -> HttpResponse:
    pdf = build_report_pdf(report_data(revision, language=language))
    response = HttpResponse(pdf, content_type=PDF)
    state = "signed" if revision.is_signed else "draft"
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=False,
        filename=f"{file_name(revision)}-rev{revision.number}-{state}-{language}.pdf",
    )
    return response


# Characters no file name may hold on some system: replaced in the download's.
_NOT_IN_FILE_NAMES = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]+')


def file_name(revision: Revision) -> str:
    """The cell's name as a file name, in any script (the header encodes it)."""
    cell = revision.assessment.cell
    return _NOT_IN_FILE_NAMES.sub("_", cell.name).strip(" .") or f"cell-{cell.pk}"


class PdfRenderer(renderers.BaseRenderer):
    """The PDF as built; anything else (an error) as JSON."""

    media_type = PDF
    format = "pdf"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes):
            return data
        return renderers.JSONRenderer().render(data)


@login_required
@require_GET
def revision_report(request: HttpRequest, pk: int) -> HttpResponse:
    """The revision's report as a PDF, for anyone in its organisation."""
    revision = selectors.revision_for(request.user, pk)
    language = report_language(request.GET.get("lang"))
    if language is None:
        return HttpResponseBadRequest(f"lang: {language_error()}")
    return pdf_response(revision, language)


class RevisionReportView(APIView):
    """The risk-assessment report of a revision as a PDF."""

    renderer_classes = [renderers.JSONRenderer, PdfRenderer]

    @extend_schema(
        tags=["risk assessment"],
        summary="The risk-assessment report of a revision (PDF)",
        parameters=[
            OpenApiParameter("lang", str, enum=list(LANGUAGES), required=False)
        ],
        responses={
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY),
            400: OpenApiResponse(description='{"lang": [...]}'),
        },
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        revision = selectors.revision_for(request.user, pk)
        language = report_language(request.query_params.get("lang"))
        if language is None:
            return Response({"lang": [language_error()]}, status=400)
        return pdf_response(revision, language)
