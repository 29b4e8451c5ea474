"""The Costs tab of a cell (line items with totals, edits and the user's own
lines) and the organisation's catalogue of prices and lead times. Each edit
form carries the version of the row it changes: a save refused because someone
else saved the row since shows the form again and says so (issue 28)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import MinValueValidator
from django.db.models import prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cells import selectors as cell_selectors
from cells.forms import VersionedFormMixin
from cells.permissions import can_edit
from cells.services import Conflict
from compliance.calculators.base import format_range
from compliance.calculators.presentation import shown_citation
from compliance.costs import CATALOGUE
from compliance.costs import selectors as cost_selectors
from compliance.costs.models import CatalogueEdit, CustomLineItem, LineItemEdit
from compliance.costs.organisation import organisation_catalogue
from compliance.costs.quotes.selectors import quote_prices
from compliance.costs.services import (
    catalogue_entry_edit,
    catalogue_entry_reset,
    custom_line_delete,
    custom_line_save,
    line_item_edit,
    line_item_edit_reset,
)
from compliance.costs.sources import quote_lines, shown_source
from compliance.rules.inputs import forget, versioned
from config.forms import add_errors
from config.htmx import render_page

COSTS = "compliance/costs/cell_costs.html"
CATALOGUE_PAGE = "compliance/costs/catalogue_detail.html"
CUSTOM_PREFIX = "custom-"  # the key of a line of the user's own
CURRENCY_CHOICES = [("", "—"), ("KRW", "KRW"), ("USD", "USD"), ("EUR", "EUR")]


def _price(low, high, currency) -> str:
    if low is None:
        return _("price to be quoted")
    return f"{currency} {cost_selectors.money_range_text(low, high)}"


def shown_item(item, edited_keys: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A line item as the Costs tab shows it, localised. Money is shown
    exactly as the API gives it (only grouped), never rounded."""
    total = (
        f"{item.currency} "
        f"{cost_selectors.money_range_text(item.total_low, item.total_high)}"
        if item.total_low is not None
        else "—"
    )
    lead = (
        format_range(item.lead_time_weeks_low, item.lead_time_weeks_high)
        if item.lead_time_weeks_low is not None
        else "—"
    )
    custom = item.catalogue_key is None and item.key.startswith(CUSTOM_PREFIX)
    return {
        "key": item.key,
        "edited": item.basis == "user" or item.key in edited_keys,
        "custom_pk": int(item.key.removeprefix("custom-")) if custom else None,
        "description": item.description.render(_),
        "quantity": item.quantity,
        "unit": cost_selectors.unit_label(item.unit),
        "price": _price(item.price_low, item.price_high, item.currency),
        "total": total,
        "lead": lead,
        "basis": item.basis,
        "reason": item.reason.render(_),
        "citation": shown_citation(item.citation),
        # The page writes the price's date itself.
        "source": shown_source(basis=item.basis, source=item.source),
        "price_date": item.price_date,
        "notes": [n.render(_) for n in item.notes],
        "quotes": quote_lines(item),
    }


def shown_totals(per_currency: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The sums per currency with their figures as the page writes them."""
    return [
        {**t, "text": cost_selectors.money_range_text(*t["range"])}
        if t["currency"]
        else t
        for t in per_currency
    ]


def shown_converted(converted: dict[str, Any] | None) -> dict[str, Any] | None:
    if converted is None:
        return None
    return {**converted, "text": cost_selectors.money_range_text(*converted["range"])}


def costs_context(request: HttpRequest, cell, **extra) -> dict[str, Any]:
    # Loaded once: the pricing applies the edits, the page marks what was edited.
    prefetch_related_objects([cell], "line_item_edits")
    items = cost_selectors.line_items(cell)
    edited = frozenset(edit.key for edit in cell.line_item_edits.all())
    return {
        "cell": cell,
        "project": cell.project,
        "tab": "costs",
        "items": [shown_item(i, edited) for i in items],
        "totals": shown_totals(cost_selectors.totals_by_currency(items)),
        "converted": shown_converted(
            cost_selectors.converted_total(cell.project, items)
        ),
        "can_edit": can_edit(request.user, cell.project.organisation_id),
        "custom_form": extra.pop("custom_form", None) or CustomLineForm(),
        **extra,
    }


def _costs(
    request: HttpRequest, cell, *, status: int = 200, changed: bool = False, **extra
) -> HttpResponse:
    if changed:
        # The lines as they stand now that this request changed them.
        forget(cell)
    context = costs_context(request, cell, **extra)
    return render_page(request, COSTS, context, fragment="costs", status=status)


def _editable_cell(request: HttpRequest, cell_pk: int):
    cell = cell_selectors.cell_for(request.user, cell_pk)
    if not can_edit(request.user, cell.project.organisation_id):
        raise PermissionDenied
    return cell


@login_required
def cell_costs(request: HttpRequest, cell_pk: int) -> HttpResponse:
    cell = versioned(cell_pk, lambda: cell_selectors.cell_for(request.user, cell_pk))
    return _costs(request, cell)


# Figures as the models store them: never negative, and no more digits than
# the columns hold (PostgreSQL refuses an overflow; the form says so first).
def money_field(label) -> forms.DecimalField:
    return forms.DecimalField(
        label=label, required=False, min_value=0, max_digits=14, decimal_places=2
    )


def quantity_field(label) -> forms.DecimalField:
    return forms.DecimalField(
        label=label, required=False, min_value=0, max_digits=12, decimal_places=2
    )


def weeks_field(label) -> forms.DecimalField:
    return forms.DecimalField(
        label=label, required=False, min_value=0, max_digits=6, decimal_places=1
    )


class VersionedForm(forms.Form):
    """A form of a row made on its first save (the edit of a line, of a
    catalogue entry, of a plan's activity): a hidden ``version``, the row's
    when the form was shown (none before it is first saved). A save refused
    because someone else saved the row since is shown as
    ``VersionedFormMixin`` shows it, taking the stored version."""

    version = forms.IntegerField(
        widget=forms.HiddenInput, required=False, min_value=1, max_value=2_147_483_647
    )

    conflicted = VersionedFormMixin.conflicted


class LineEditForm(VersionedForm):
    quantity = quantity_field(gettext_lazy("Quantity"))
    price_low = money_field(gettext_lazy("Unit price from"))
    price_high = money_field(gettext_lazy("Unit price to"))
    currency = forms.ChoiceField(
        label=gettext_lazy("Currency"), required=False, choices=CURRENCY_CHOICES
    )
    source = forms.CharField(
        label=gettext_lazy("Source of the price"), required=False, max_length=200
    )


@login_required
def line_item_edit_view(request: HttpRequest, cell_pk: int, key: str) -> HttpResponse:
    """Change the quantity or quote the price of one derived cost line."""
    cell = _editable_cell(request, cell_pk)
    # Any derived line, also one the catalogue has no entry for (a recorded
    # enabling device); the user's own lines are edited as such.
    item = next(
        (
            i
            for i in cost_selectors.line_items(cell)
            if i.key == key and not i.key.startswith(CUSTOM_PREFIX)
        ),
        None,
    )
    if item is None:
        raise Http404("No such cost line.")
    initial = {
        "quantity": item.quantity,
        "price_low": item.price_low,
        "price_high": item.price_high,
        "currency": item.currency or cell.project.currency,
        "version": LineItemEdit.objects.filter(cell=cell, key=key)
        .values_list("version", flat=True)
        .first(),
    }
    form = LineEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and "reset" in request.POST:
        line_item_edit_reset(cell=cell, actor=request.user, key=key)
        return _costs(request, cell, changed=True)
    if request.method == "POST" and form.is_valid():
        try:
            line_item_edit(
                cell=cell, actor=request.user, item=item, **form.cleaned_data
            )
        except ValidationError as exc:
            add_errors(form, exc)
        except Conflict as exc:  # saved by someone else since the form was shown
            form.conflicted(exc.current, exc.differs)
            return _costs(request, cell, changed=True, editing=key, edit_form=form)
        else:
            return _costs(request, cell, changed=True)
    return _costs(request, cell, editing=key, edit_form=form)


NOT_NEGATIVE = (
    "quantity",
    "price_low",
    "price_high",
    "lead_time_weeks_low",
    "lead_time_weeks_high",
)


class CustomLineForm(VersionedFormMixin, forms.ModelForm):
    class Meta:
        model = CustomLineItem
        fields = [
            "description",
            "category",
            "quantity",
            "unit",
            "price_low",
            "price_high",
            "currency",
            "lead_time_weeks_low",
            "lead_time_weeks_high",
            "source",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in NOT_NEGATIVE:
            self.fields[name].validators.append(MinValueValidator(0))
            self.fields[name].widget.attrs["min"] = 0


@login_required
def custom_line_add(request: HttpRequest, cell_pk: int) -> HttpResponse:
    """Add a line of the user's own (a device or a service the findings do not
    derive) with its price."""
    cell = _editable_cell(request, cell_pk)
    form = CustomLineForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            custom_line_save(cell=cell, actor=request.user, **form.cleaned_data)
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            return _costs(request, cell, changed=True)
    return _costs(request, cell, adding=True, custom_form=form)


@login_required
def custom_line_edit(request: HttpRequest, cell_pk: int, pk: int) -> HttpResponse:
    cell = _editable_cell(request, cell_pk)
    row = get_object_or_404(CustomLineItem, cell=cell, pk=pk)
    form = CustomLineForm(request.POST or None, instance=row)
    if request.method == "POST" and form.is_valid():
        try:
            custom_line_save(
                cell=cell, actor=request.user, row=row, **form.cleaned_data
            )
        except ValidationError as exc:
            add_errors(form, exc)
        except Conflict as exc:  # saved by someone else since the form was shown
            form.conflicted(exc.current, exc.differs)
            return _costs(request, cell, changed=True, editing=row.key, edit_form=form)
        else:
            return _costs(request, cell, changed=True)
    return _costs(request, cell, editing=row.key, edit_form=form)


@login_required
def custom_line_remove(request: HttpRequest, cell_pk: int, pk: int) -> HttpResponse:
    cell = _editable_cell(request, cell_pk)
    row = get_object_or_404(CustomLineItem, cell=cell, pk=pk)
    if request.method != "POST":
        return redirect("compliance:cell_costs", cell.pk)
    custom_line_delete(row=row, actor=request.user)
    return _costs(request, cell, changed=True)


# --- the organisation's catalogue ---------------------------------------------


class CatalogueEditForm(VersionedForm):
    price_low = money_field(gettext_lazy("Unit price from"))
    price_high = money_field(gettext_lazy("Unit price to"))
    currency = forms.ChoiceField(
        label=gettext_lazy("Currency"), required=False, choices=CURRENCY_CHOICES
    )
    price_date = forms.DateField(
        label=gettext_lazy("Price date"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    lead_time_weeks_low = weeks_field(gettext_lazy("Lead time from (weeks)"))
    lead_time_weeks_high = weeks_field(gettext_lazy("Lead time to (weeks)"))
    source = forms.CharField(
        label=gettext_lazy("Source (quote, price list)"), max_length=200
    )


def _organisation(request: HttpRequest, org_pk: int):
    return get_object_or_404(cell_selectors.organisations_for(request.user), pk=org_pk)


def catalogue_context(request: HttpRequest, organisation, **extra) -> dict[str, Any]:
    edits = {e.key: e for e in CatalogueEdit.objects.filter(organisation=organisation)}
    current = cost_selectors.priced_catalogue(
        organisation_catalogue(
            {key: cost_selectors.entry_edit(row) for key, row in edits.items()}
        ),
        quote_prices(organisation.pk, timezone.localdate()),
    )  # as ``cost_selectors.catalogue_for``, with the edits read once
    rows = []
    for entry in CATALOGUE:
        now = current[entry.key]
        rows.append(
            {
                "key": entry.key,
                "name": _(entry.name),
                "category": entry.category,
                "unit": cost_selectors.unit_label(entry.unit),
                "price": _price(now.price_low, now.price_high, now.currency),
                "lead": format_range(now.lead_time_weeks_low, now.lead_time_weeks_high)
                if now.lead_time_weeks_low is not None
                else "—",
                "source": shown_source(basis=now.basis, source=now.source),
                "price_date": now.price_date,
                "quotes": quote_lines(now),
                "edit": edits.get(entry.key),
                "starting_price": _price(
                    entry.price_low, entry.price_high, entry.currency
                ),
                "starting_source": entry.source,
            }
        )
    return {
        "organisation": organisation,
        "organisations": cell_selectors.organisations_for(request.user),
        "rows": rows,
        "can_edit": can_edit(request.user, organisation.pk),
        **extra,
    }


@login_required
def catalogue_home(request: HttpRequest) -> HttpResponse:
    """The catalogue of the user's first organisation."""
    organisation = cell_selectors.organisations_for(request.user).order_by("pk").first()
    if organisation is None:
        raise Http404("You belong to no organisation.")
    return redirect("compliance:catalogue", organisation.pk)


@login_required
def catalogue(request: HttpRequest, org_pk: int) -> HttpResponse:
    organisation = _organisation(request, org_pk)
    context = catalogue_context(request, organisation)
    return render_page(request, CATALOGUE_PAGE, context, fragment="catalogue")


@login_required
def catalogue_edit(request: HttpRequest, org_pk: int, key: str) -> HttpResponse:
    """Enter the organisation's own price and lead time of one entry."""
    organisation = _organisation(request, org_pk)
    if not can_edit(request.user, organisation.pk):
        raise PermissionDenied
    if key not in {entry.key for entry in CATALOGUE}:
        raise Http404("No such catalogue entry.")
    existing = CatalogueEdit.objects.filter(organisation=organisation, key=key).first()
    initial = (
        {name: getattr(existing, name) for name in CatalogueEditForm.base_fields}
        if existing
        else {}
    )
    form = CatalogueEditForm(request.POST or None, initial=initial)
    if request.method == "POST":
        if "reset" in request.POST:
            catalogue_entry_reset(
                organisation=organisation, actor=request.user, key=key
            )
            context = catalogue_context(request, organisation)
            return render_page(request, CATALOGUE_PAGE, context, fragment="catalogue")
        if form.is_valid():
            try:
                catalogue_entry_edit(
                    organisation=organisation,
                    actor=request.user,
                    key=key,
                    **form.cleaned_data,
                )
            except ValidationError as exc:
                add_errors(form, exc)
            except Conflict as exc:  # saved by someone else since it was shown
                form.conflicted(exc.current, exc.differs)
            else:
                context = catalogue_context(request, organisation)
                return render_page(
                    request, CATALOGUE_PAGE, context, fragment="catalogue"
                )
    context = catalogue_context(request, organisation, editing=key, edit_form=form)
    return render_page(request, CATALOGUE_PAGE, context, fragment="catalogue")
