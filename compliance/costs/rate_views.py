"""An organisation's exchange rates: per currency, newest first, each with
the day it is valid from and its source, the one in use today marked; an
editor adds a rate or deletes one. Every conversion of the organisation's
costs reads them (``compliance.costs.rates``): a page with today's rates, a
proposal with those valid on its date."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from cells import selectors as cell_selectors
from cells.permissions import can_edit
from compliance.costs import rate_services
from compliance.costs.models import ExchangeRate
from compliance.costs.rates import organisation_rates, rate_figure
from config.forms import add_errors

LIST = "compliance/costs/rates/rate_list.html"


class ExchangeRateForm(forms.Form):
    currency = forms.ChoiceField(
        label=gettext_lazy("Currency"),
        choices=[(c, c) for c in rate_services.CURRENCIES],
    )
    # Parsed here, bounded by the service (above zero, below the limit).
    units_per_usd = forms.DecimalField(
        label=gettext_lazy("Units per 1 USD"),
        help_text=gettext_lazy("How many of the currency 1 USD buys: 1380 for KRW."),
    )
    valid_from = forms.DateField(
        label=gettext_lazy("Valid from"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=gettext_lazy(
            "A proposal converts with the latest rate valid on its date."
        ),
    )
    source = forms.CharField(
        label=gettext_lazy("Source"),
        max_length=rate_services.SOURCE_LENGTH,
        help_text=gettext_lazy(
            "Where the rate comes from: a bank's rate of the day, a contract."
        ),
    )


def _organisation(request: HttpRequest, org_pk: int):
    return get_object_or_404(cell_selectors.organisations_for(request.user), pk=org_pk)


def _person(user) -> str:
    if user is None:
        return "—"
    return user.get_full_name() or user.username


def _context(request: HttpRequest, organisation, **extra) -> dict[str, Any]:
    today = timezone.localdate()
    groups = []
    for currency, records in organisation_rates(organisation.pk).items():
        # The newest valid today is the one in use; later ones are to come.
        in_use = next((r.pk for r in records if r.valid_from <= today), None)
        groups.append(
            {
                "currency": currency,
                "rates": [
                    {
                        "rate": r,
                        "figure": rate_figure(r.units_per_usd),
                        "in_use": r.pk == in_use,
                        "to_come": r.valid_from > today,
                        "entered_by": _person(r.created_by),
                    }
                    for r in records
                ],
            }
        )
    missing = [
        c for c in rate_services.CURRENCIES if c not in {g["currency"] for g in groups}
    ]
    # The currency the Costs tab's link asks for, else the first without one.
    asked = request.GET.get("currency")
    initial = {
        "currency": asked
        if asked in rate_services.CURRENCIES
        else next(iter(missing), None),
        "valid_from": today,
    }
    return {
        "organisation": organisation,
        "organisations": cell_selectors.organisations_for(request.user),
        "groups": groups,
        "missing": missing,
        "can_edit": can_edit(request.user, organisation.pk),
        "form": extra.pop("form", None) or ExchangeRateForm(initial=initial),
        **extra,
    }


@login_required
def exchange_rate_list(request: HttpRequest, org_pk: int) -> HttpResponse:
    organisation = _organisation(request, org_pk)
    return render(request, LIST, _context(request, organisation))


@login_required
@require_POST
def exchange_rate_create(request: HttpRequest, org_pk: int) -> HttpResponse:
    organisation = _organisation(request, org_pk)
    rate_services.require_edit(request.user, organisation.pk)
    form = ExchangeRateForm(request.POST)
    if form.is_valid():
        try:
            rate_services.exchange_rate_add(
                organisation=organisation, actor=request.user, **form.cleaned_data
            )
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            return redirect("compliance:exchange_rates", organisation.pk)
    context = _context(request, organisation, form=form)
    return render(request, LIST, context, status=400)


@login_required
@require_POST
def exchange_rate_remove(request: HttpRequest, pk: int) -> HttpResponse:
    rate = get_object_or_404(
        ExchangeRate.objects.filter(
            organisation__in=cell_selectors.organisations_for(request.user)
        ),
        pk=pk,
    )
    rate_services.exchange_rate_delete(rate=rate, actor=request.user)
    return redirect("compliance:exchange_rates", rate.organisation_id)
