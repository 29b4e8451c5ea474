"""The hazard register as the assessment page shows it, shared by the views
of that page: each row with its estimates worked out, its cells kept in the
cache, the page's context, the new-hazard form, and the answer every change
gives (the whole register for htmx, else a redirect with the message)."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template import Context, Template
from django.template.loader import get_template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from cells.permissions import can_edit, role_in
from compliance.assessment import checks, selectors, services
from compliance.assessment.forms import HazardForm, LimitsForm
from compliance.assessment.hazards import catalogue, risk
from compliance.assessment.hazards.suggestions import (
    CellFacts,
    OpeningFact,
    StationFact,
    suggest_hazards,
)
from compliance.assessment.models import Hazard, Measure, Revision, RevisionStatus
from compliance.rules import selectors as rules_selectors
from config.htmx import is_fragment_request

TEMPLATE = "compliance/assessment/assessment_detail.html"
ROOT = Path(__file__).resolve().parents[3]
# What writes a row besides its records: the template, the code that works
# a row out and words it (this room, the calculators' tables, the template
# tags) and the translations. A release that changes one writes rows again.
RENDERED_BY = (
    "templates/compliance/assessment/assessment_detail.html",
    "compliance/assessment",
    "compliance/calculators",
    "compliance/templatetags",
    "locale",
)
# As long as the findings are kept (compliance.rules.results): what a row
# is kept under names all it shows, so a row kept is never out of date.
ROWS_TIMEOUT_S = 7 * 24 * 3600

# The longest search the register takes; the rest is ignored.
SEARCH_MAX_CHARS = 100


def _digest(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def _rendered_by() -> str:
    sources = []
    for name in RENDERED_BY:
        path = ROOT / name
        files = (
            sorted(f for f in path.rglob("*") if f.suffix in (".py", ".html", ".mo"))
            if path.is_dir()
            else [path]
        )
        sources += [(str(f.relative_to(ROOT)), f.read_bytes()) for f in files]
    return _digest(*sources)


RENDERED = _rendered_by()


@functools.cache
def _columns(model: type) -> tuple[str, ...]:
    return tuple(field.attname for field in model._meta.concrete_fields)


def _values(obj) -> tuple:
    """Every column of a model's row, as read."""
    return tuple(getattr(obj, name) for name in _columns(type(obj)))


@dataclass
class Row:
    """One hazard of the register with its estimates worked out."""

    hazard: Hazard
    initial: Any
    residual: Any
    acceptability: Any
    measures: list[Measure]
    # Each measure with the failing check of its device or guard, if any: an
    # ineffective measure.
    measure_rows: list[tuple[Measure, checks.CheckedFinding | None]]
    # The row as kept in the cache (``keep_rows``); None: the template's
    # ``hazard-row`` partial writes it.
    html: str | None = None

    def shows(self) -> str:
        """A hash of all the row shows, besides the language, whether the
        rows are editable and the code (``keep_rows`` adds them): every
        column of its hazard and of its measures, in order, which holds the
        ids, the versions and the labels stored with them; what the cell's
        checks say of its measures; whether it is acceptable, and why not."""
        return _digest(
            _values(self.hazard),
            [
                (
                    _values(m),
                    failure and (failure.key, failure.rule_id, failure.message),
                )
                for m, failure in self.measure_rows
            ],
            self.acceptability.acceptable,
            [(r.code, r.text, r.values) for r in self.acceptability.reasons],
        )

    def searched(self) -> str:
        """What the row shows in the reader's language, folded for search."""
        hazard = self.hazard
        return " ".join(
            [
                self.group,
                self.origin,
                self.consequence,
                hazard.task,
                hazard.location_label,
                str(hazard.get_phase_display()),
                *(m.description for m in self.measures),
            ]
        ).casefold()

    @property
    def group(self) -> str:
        return _(catalogue.group(self.hazard.group).name)

    @property
    def origin(self) -> str:
        return _(catalogue.origin(self.hazard.group, self.hazard.origin).text)

    @property
    def consequence(self) -> str:
        return _(catalogue.consequence(self.hazard.group, self.hazard.consequence).text)

    @property
    def reasons(self) -> list[str]:
        return [reason.render(_) for reason in self.acceptability.reasons]


def row(hazard: Hazard, cell_checks: checks.CellChecks) -> Row:
    """``cell_checks``: the cell's compliance checks, worked out once for the
    whole page (``rules.selectors.cell_checks``)."""
    # From the register page's list, else the manager's prefetched cache.
    measures = getattr(hazard, "measure_list", None)
    if measures is None:
        measures = list(hazard.measures.all())
    # Memoised: S, F, P and the flag take 16 values in all.
    initial, residual = selectors.hazard_estimates(hazard)
    return Row(
        hazard,
        initial,
        residual,
        checks.acceptability(
            initial=initial,
            residual=residual,
            hazard_key=str(hazard.key),
            body_region=hazard.body_region,
            measures=measures,
            checks=cell_checks,
        ),
        measures,
        [(m, cell_checks.measure_failure(m)) for m in measures],
    )


# Where a kept row's delete form takes the request's CSRF token: the tag's
# input with a stand-in, which no text of a row can write (what a person
# typed is escaped, so never holds "<input").
_STAND_IN = "kept-row-token"
_TOKEN_TAG = Template("{% csrf_token %}")
_TOKEN_SLOT = _TOKEN_TAG.render(Context({"csrf_token": _STAND_IN}))


def keep_rows(
    request: HttpRequest,
    rows: list[Row],
    *,
    revision: Revision,
    editable: bool,
    hazards: set[int],
) -> None:
    """Give each row its HTML (``row.html``): as kept in the cache for what
    the row shows now, else written by the template's ``hazard-row``
    partial and kept; the request's CSRF token put in its delete form.

    One cache entry per revision, language and editability, the
    organisation's, cell's and revision's ids in its key: {hazard id: (what
    its row shows, the row)}. A page of 200 rows reads the cache once (and
    local memory, 300 entries, holds it); rows of hazards no longer in
    ``hazards`` (the revision's) drop out. A row whose content changed, by
    whatever path, shows something else (``Row.shows``) and is written again."""
    cell = revision.assessment.cell
    key = (
        f"csp:register-rows:{cell.project.organisation_id}:{cell.pk}:"
        f"{revision.pk}:{get_language() or ''}:{int(editable)}:{RENDERED}"
    )
    kept = cache.get(key) or {}
    fresh = {pk: found for pk, found in kept.items() if pk in hazards}
    changed = len(fresh) != len(kept)
    token = (
        _TOKEN_TAG.render(Context({"csrf_token": get_token(request)}))
        if editable
        else ""
    )
    template = None
    for r in rows:
        shows = r.shows()
        found = fresh.get(r.hazard.pk)
        if found is None or found[0] != shows:
            template = template or get_template(f"{TEMPLATE}#hazard-row")
            # Nothing a row shows depends on who asks (but its token).
            written = template.render(
                {"row": r, "editable": editable, "csrf_token": _STAND_IN}
            )
            found = fresh[r.hazard.pk] = (shows, str(written))
            changed = True
        r.html = mark_safe(found[1].replace(_TOKEN_SLOT, token) if token else found[1])
    if changed:
        cache.set(key, fresh, ROWS_TIMEOUT_S)


def facts(cell) -> CellFacts:
    # The labels only, read once: the hazard form's places read them too.
    labels = selectors.perimeter_labels(cell)
    return CellFacts(
        robot_kind=cell.robot_kind,
        application=cell.application,
        reach_mm=cell.reach_mm,
        payload_kg=float(cell.payload_kg),
        max_tcp_speed_mm_s=cell.max_tcp_speed_mm_s,
        openings=tuple(
            OpeningFact(
                key=f"opening:{pk}",
                label=label,
                purpose=purpose,
                segment_label=segment,
            )
            for pk, label, purpose, segment in labels["openings"]
        ),
        stations=tuple(
            StationFact(key=f"station:{pk}", label=label)
            for pk, label in labels["stations"]
        ),
    )


def _actions(request: HttpRequest, revision: Revision) -> list[str]:
    """The workflow buttons this person may press on this revision."""
    organisation = revision.assessment.cell.project.organisation
    if not can_edit(request.user, organisation.pk):
        return []
    engineer = role_in(request.user, organisation.pk) == "safety_engineer"
    status = revision.status
    actions = []
    if status == RevisionStatus.DRAFT:
        actions.append("submit")
    if status in (RevisionStatus.IN_REVIEW, RevisionStatus.APPROVED):
        actions.append("return")
    if status == RevisionStatus.IN_REVIEW and organisation.requires_two_person_signoff:
        actions.append("approve")
    if engineer and (
        status == RevisionStatus.APPROVED
        or (
            status == RevisionStatus.IN_REVIEW
            and not organisation.requires_two_person_signoff
        )
    ):
        actions.append("sign")
    if status == RevisionStatus.SIGNED and revision == selectors.current_revision(
        revision.assessment
    ):
        actions.append("start-next")
    return actions


def page_context(
    request: HttpRequest,
    revision: Revision,
    cell_checks: checks.CellChecks | None = None,
    **extra,
) -> dict[str, Any]:
    """The assessment page's context at ``revision``: the rows (filtered as
    asked), the suggestions and the forms, with ``extra`` on top."""
    cell = revision.assessment.cell
    if cell_checks is None:
        cell_checks = rules_selectors.cell_checks(cell)
    rows = [row(h, cell_checks) for h in selectors.register_page(revision)]
    group, phase, level = (request.GET.get(k, "") for k in ("group", "phase", "level"))
    # Words searched as the reader sees the row (issue 30: "협착" finds a
    # crushing hazard on a Korean page); bounded, as every input.
    query = request.GET.get("q", "")[:SEARCH_MAX_CHARS]
    words = query.casefold().split()
    shown = [
        r
        for r in rows
        if (not group or r.hazard.group == group)
        and (not phase or r.hazard.phase == phase)
        and (not level or (r.residual and r.residual.level == level))
        and (not words or all(w in r.searched() for w in words))
    ]
    editable = revision.is_editable and can_edit(
        request.user, cell.project.organisation_id
    )
    # The rows as kept, but for one in the middle of an edit, which the
    # template's partial writes with its form.
    busy = {extra.get(k) for k in ("editing_measure", "deleting_measure")} - {None}
    keep_rows(
        request,
        [
            r
            for r in shown
            if r.hazard.pk not in (extra.get("editing"), extra.get("measure_for"))
            and not any(m.pk in busy for m in r.measures)
        ],
        revision=revision,
        editable=editable,
        hazards={r.hazard.pk for r in rows},
    )
    suggestions = []
    if editable:
        proposed = suggest_hazards(
            facts(cell), dismissed=revision.dismissed_suggestions
        )
        # The links reversed here, once each, not twice in the template.
        suggestions = [
            {
                "key": s.key,
                "text": s.task_text(_),
                "accept": reverse(
                    "compliance:suggestion_accept", args=[revision.pk, s.key]
                ),
                "dismiss": reverse(
                    "compliance:suggestion_dismiss", args=[revision.pk, s.key]
                ),
            }
            for s in proposed
        ]
    return {
        "cell": cell,
        "project": cell.project,
        "revision": revision,
        "revisions": list(revision.assessment.revisions.order_by("-number")),
        "rows": shown,
        "total": len(rows),
        "unacceptable": sum(1 for r in rows if not r.acceptability.acceptable),
        "editable": editable,
        "actions": _actions(request, revision),
        "suggestions": suggestions,
        "words": {"accept": _("Accept"), "discard": _("Discard")},
        "filters": {"group": group, "phase": phase, "level": level, "q": query},
        "hazard_form": new_hazard_form(revision),
        "limits_form": LimitsForm.for_revision(revision),
        "intact": services.revision_is_intact(revision) if revision.is_signed else None,
        "declaration": selectors.declaration_of(revision),
        "levels": risk.RISK_LEVELS,
        "exposed_persons": [
            _(catalogue.exposed_person(p).label) for p in revision.exposed_persons
        ],
        **extra,
    }


def new_hazard_form(revision: Revision, data=None, initial=None) -> HazardForm:
    return HazardForm(
        data,
        initial=initial,
        cell=revision.assessment.cell,
        prefix="new",
        refresh_url=reverse("compliance:hazard_add", args=[revision.pk]),
        target="#add-hazard",
    )


def revision_for(request: HttpRequest, pk: int) -> Revision:
    return selectors.revision_for(request.user, pk)


def response(
    request: HttpRequest, revision: Revision, message: str = "", error: str = ""
):
    """The answer to a change of the register: for htmx the whole register
    with the message, else a redirect to the page with the message flashed."""
    url = reverse("compliance:assessment", args=[revision.assessment.cell_id])
    if not is_fragment_request(request):
        if message:
            messages.success(request, message)
        if error:
            messages.error(request, error)
        return redirect(f"{url}?revision={revision.number}")
    context = page_context(request, revision, saved=message, error=error)
    return render(request, f"{TEMPLATE}#register", context)


def form_errors(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)
