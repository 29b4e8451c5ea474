"""An organisation's labour rates and default work: the rates per role
(newest first, the one in use today marked, the public reference rates
beside them), and per activity of the plan the effort or fee it takes by
default. Every plan of the organisation's cells costs its work from them
(``plan.labour.selectors``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from cells import selectors as cell_selectors
from cells.permissions import can_edit
from compliance.calculators.base import format_range
from compliance.costs.models import CURRENCY_CHOICES
from compliance.plan.inputs import WORK_NAMES
from compliance.plan.labour import services
from compliance.plan.labour.costing import (
    EFFORT_UNITS,
    PER_NAMES,
    PUBLIC_RATES,
    ROLE_NAMES,
    UNIT_NAMES,
    money_range,
)
from compliance.plan.labour.models import (
    PER_CHOICES,
    ROLE_CHOICES,
    UNIT_CHOICES,
    LabourRate,
    WorkDefault,
)
from config.forms import add_errors

PAGE = "compliance/plan/labour/labour.html"


def effort_field(label) -> forms.DecimalField:
    return forms.DecimalField(
        label=label, required=False, min_value=0, max_digits=8, decimal_places=1
    )


def effort_unit_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        label=gettext_lazy("Effort in"),
        required=False,
        choices=[("", "—"), *((u, gettext_lazy(n)) for u, n in EFFORT_UNITS.items())],
    )


def _rate_field(label, required=True) -> forms.DecimalField:
    return forms.DecimalField(
        label=label, required=required, min_value=0, max_digits=14, decimal_places=2
    )


class LabourRateForm(forms.Form):
    # Both forms are on one page: their fields' ids must differ.
    prefix = "rate"
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=ROLE_CHOICES)
    unit = forms.ChoiceField(label=gettext_lazy("Per"), choices=UNIT_CHOICES)
    rate_low = _rate_field(gettext_lazy("Rate"))
    rate_high = _rate_field(gettext_lazy("Rate to (for a range)"), required=False)
    currency = forms.ChoiceField(
        label=gettext_lazy("Currency"), choices=CURRENCY_CHOICES
    )
    valid_from = forms.DateField(
        label=gettext_lazy("Valid from"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=gettext_lazy(
            "A plan costs its work with the latest rate valid on its day."
        ),
    )
    valid_until = forms.DateField(
        label=gettext_lazy("Valid until"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    source = forms.CharField(
        label=gettext_lazy("Source"),
        max_length=services.SOURCE_LENGTH,
        help_text=gettext_lazy("Where the rate comes from: a contract, a price list."),
    )


class WorkDefaultForm(forms.Form):
    prefix = "work"
    activity = forms.ChoiceField(label=gettext_lazy("Activity"))
    role = forms.ChoiceField(
        label=gettext_lazy("Role"),
        required=False,
        choices=[("", gettext_lazy("— a fee, no role")), *ROLE_CHOICES],
    )
    unit = effort_unit_field()
    per = forms.ChoiceField(
        label=gettext_lazy("Counted"), choices=PER_CHOICES, initial="activity"
    )
    effort_low = effort_field(gettext_lazy("Effort from"))
    effort_high = effort_field(gettext_lazy("Effort to"))
    fee_low = _rate_field(gettext_lazy("Fee from"), required=False)
    fee_high = _rate_field(gettext_lazy("Fee to"), required=False)
    currency = forms.ChoiceField(
        label=gettext_lazy("Fee currency"),
        required=False,
        choices=[("", "—"), *CURRENCY_CHOICES],
    )
    source = forms.CharField(
        label=gettext_lazy("Source or reasoning"),
        max_length=services.SOURCE_LENGTH,
        help_text=gettext_lazy(
            "Where the figure comes from: past projects, a certification body's offer."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["activity"].choices = [
            (key, _(name)) for key, name in WORK_NAMES.items()
        ]


def _organisation(request: HttpRequest, org_pk: int):
    return get_object_or_404(cell_selectors.organisations_for(request.user), pk=org_pk)


def _person(user) -> str:
    return "—" if user is None else (user.get_full_name() or user.username)


def _rates(organisation) -> list[dict[str, Any]]:
    today = timezone.localdate()
    rows = (
        LabourRate.objects.filter(organisation=organisation)
        .select_related("created_by")
        .order_by("role", "unit", "-valid_from", "-pk")
    )
    in_use: dict[tuple[str, str], int] = {}
    for r in rows:
        valid = r.valid_from <= today and (
            r.valid_until is None or today <= r.valid_until
        )
        if valid:
            in_use.setdefault((r.role, r.unit), r.pk)
    return [
        {
            "rate": r,
            "role": _(ROLE_NAMES[r.role]),
            "unit": _(UNIT_NAMES[r.unit]),
            "figure": money_range(r.rate_low, r.rate_high),
            "in_use": in_use.get((r.role, r.unit)) == r.pk,
            "to_come": r.valid_from > today,
            "ended": r.valid_until is not None and r.valid_until < today,
            "entered_by": _person(r.created_by),
        }
        for r in rows
    ]


def _public_rates(own: list[dict[str, Any]]) -> list[dict[str, Any]]:
    covered = {(r["rate"].role, r["rate"].unit) for r in own if r["in_use"]}
    return [
        {
            "role": _(ROLE_NAMES[r.role]),
            "unit": _(UNIT_NAMES[r.unit]),
            "figure": money_range(r.low, r.high),
            "currency": r.currency,
            "source": _(r.source),
            "seen": r.seen,
            "used": (r.role, r.unit) not in covered,
        }
        for r in PUBLIC_RATES
    ]


def _work(organisation) -> list[dict[str, Any]]:
    rows = WorkDefault.objects.filter(organisation=organisation).select_related(
        "updated_by"
    )
    by_activity: dict[str, list[WorkDefault]] = {}
    for row in rows:
        by_activity.setdefault(row.activity, []).append(row)
    shown = []
    for key, name in WORK_NAMES.items():
        parts = []
        for row in sorted(by_activity.get(key, ()), key=lambda r: r.role):
            if row.role:
                text = _("%(effort)s %(unit)s of %(role)s, %(per)s") % {
                    "effort": format_range(row.effort_low, row.effort_high),
                    "unit": _(EFFORT_UNITS[row.unit]),
                    "role": _(ROLE_NAMES[row.role]),
                    "per": _(PER_NAMES[row.per]),
                }
            else:
                text = _("Fee %(currency)s %(fee)s") % {
                    "currency": row.currency,
                    "fee": money_range(row.fee_low, row.fee_high),
                }
            parts.append({"row": row, "text": text, "by": _person(row.updated_by)})
        shown.append({"key": key, "name": _(name), "parts": parts})
    return shown


def _context(request: HttpRequest, organisation, **extra) -> dict[str, Any]:
    rates = _rates(organisation)
    today = timezone.localdate()
    return {
        "organisation": organisation,
        "organisations": cell_selectors.organisations_for(request.user),
        "rates": rates,
        "public_rates": _public_rates(rates),
        "work": _work(organisation),
        "can_edit": can_edit(request.user, organisation.pk),
        "rate_form": extra.pop("rate_form", None)
        or LabourRateForm(initial={"valid_from": today, "unit": "hour"}),
        "work_form": extra.pop("work_form", None)
        or WorkDefaultForm(initial={"unit": "hour", "per": "activity"}),
        **extra,
    }


@login_required
def labour_page(request: HttpRequest, org_pk: int) -> HttpResponse:
    organisation = _organisation(request, org_pk)
    return render(request, PAGE, _context(request, organisation))


def _save(request: HttpRequest, org_pk: int, form_class, write, name: str):
    """Write the posted form through ``write`` (a service taking the
    organisation, the actor and the form's data); the page again with the
    form's errors (400) when the form or the service refuses it."""
    organisation = _organisation(request, org_pk)
    services.require_edit(request.user, organisation.pk)
    form = form_class(request.POST)
    if form.is_valid():
        try:
            write(organisation=organisation, actor=request.user, **form.cleaned_data)
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            return redirect("compliance:labour", organisation.pk)
    return render(
        request, PAGE, _context(request, organisation, **{name: form}), status=400
    )


def _remove(request: HttpRequest, model, pk: int, delete) -> HttpResponse:
    """Delete the organisation's row through ``delete``: another
    organisation's answers 404."""
    row = get_object_or_404(
        model.objects.filter(
            organisation__in=cell_selectors.organisations_for(request.user)
        ),
        pk=pk,
    )
    delete(row, request.user)
    return redirect("compliance:labour", row.organisation_id)


@login_required
@require_POST
def labour_rate_create(request: HttpRequest, org_pk: int) -> HttpResponse:
    return _save(request, org_pk, LabourRateForm, services.labour_rate_add, "rate_form")


@login_required
@require_POST
def labour_rate_remove(request: HttpRequest, pk: int) -> HttpResponse:
    return _remove(
        request,
        LabourRate,
        pk,
        lambda row, actor: services.labour_rate_delete(rate=row, actor=actor),
    )


@login_required
@require_POST
def work_default_save(request: HttpRequest, org_pk: int) -> HttpResponse:
    return _save(
        request, org_pk, WorkDefaultForm, services.work_default_set, "work_form"
    )


@login_required
@require_POST
def work_default_remove(request: HttpRequest, pk: int) -> HttpResponse:
    return _remove(
        request,
        WorkDefault,
        pk,
        lambda row, actor: services.work_default_delete(row=row, actor=actor),
    )
