"""An organisation's supplier quotes: the list with each quote's validity,
the import of a quote's spreadsheet (every row and column at fault named,
nothing saved on any error; a quote number already stored replaced only
after its changes are shown), the rows with what each was matched to and
how, a person's confirmation or correction, the template and each quote as
a spreadsheet to download."""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, override
from django.views.decorators.http import require_POST

from cells import selectors as cell_selectors
from cells.permissions import can_edit, require_edit
from compliance.calculators.base import format_range
from compliance.costs.catalogue import CATALOGUE_BY_KEY
from compliance.costs.quotes import reading, selectors, services, template
from compliance.costs.quotes.models import MatchedBy, QuoteRow
from compliance.costs.selectors import money_range_text
from compliance.safety_functions.models import LibraryDevice

LIST = "compliance/costs/quotes/quote_list.html"
DETAIL = "compliance/costs/quotes/quote_detail.html"
# A file waiting for the person to confirm that it replaces a stored quote.
PENDING_SECONDS = 30 * 60
MAX_UPLOAD_BYTES = reading.MAX_FILE_BYTES


class QuoteUploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Quote spreadsheet (XLSX or CSV)"),
        help_text=gettext_lazy(
            "Fill in the template: the supplier, the quote's number, date and "
            "validity, and one row per item."
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise ValidationError(
                _("The file is larger than %(mb)s MB.")
                % {"mb": MAX_UPLOAD_BYTES // 2**20}
            )
        return upload


def _organisation(request: HttpRequest, org_pk: int):
    return get_object_or_404(cell_selectors.organisations_for(request.user), pk=org_pk)


def _editable(request: HttpRequest, org_pk: int):
    organisation = _organisation(request, org_pk)
    require_edit(request.user, organisation.pk)
    return organisation


def shown_quote(quote, today) -> dict[str, Any]:
    expired = quote.expired_on(today)
    return {
        "quote": quote,
        "expired": expired,
        "status": _("expired on %(date)s") % {"date": quote.valid_until.isoformat()}
        if expired
        else (
            _("valid until %(date)s") % {"date": quote.valid_until.isoformat()}
            if quote.valid_until
            else _("no validity date given")
        ),
    }


def _list_context(request, organisation, **extra) -> dict[str, Any]:
    today = timezone.localdate()
    quotes = selectors.quotes_for(request.user).filter(organisation=organisation)
    return {
        "organisation": organisation,
        "organisations": cell_selectors.organisations_for(request.user),
        "quotes": [shown_quote(q, today) for q in quotes],
        "can_edit": can_edit(request.user, organisation.pk),
        "form": extra.pop("form", None) or QuoteUploadForm(),
        **extra,
    }


@login_required
def quote_list(request: HttpRequest, org_pk: int) -> HttpResponse:
    organisation = _organisation(request, org_pk)
    return render(request, LIST, _list_context(request, organisation))


def _problems(error: reading.QuoteFileError) -> list[dict[str, Any]]:
    return [
        {
            "row": p.row,
            "column": p.column or "",
            "message": p.message.render(_),
        }
        for p in error.problems
    ]


def _pending_key(organisation, user, token: str) -> str:
    return f"csp:quote-import:{organisation.pk}:{user.pk}:{token}"


@login_required
@require_POST
def quote_import(request: HttpRequest, org_pk: int) -> HttpResponse:
    """Import a quote's file; a quote already stored is replaced only when
    the person confirms after seeing what changes."""
    organisation = _editable(request, org_pk)
    token = request.POST.get("pending", "")
    if token:
        pending = cache.get(_pending_key(organisation, request.user, token))
        if pending is None:
            messages.error(request, _("The file waited too long: upload it again."))
            return redirect("compliance:quote_list", organisation.pk)
        data, filename = pending
    else:
        form = QuoteUploadForm(request.POST, request.FILES)
        if not form.is_valid():
            context = _list_context(request, organisation, form=form)
            return render(request, LIST, context, status=400)
        upload = form.cleaned_data["file"]
        data, filename = upload.read(MAX_UPLOAD_BYTES + 1), upload.name
    try:
        preview = services.quote_import_preview(
            organisation=organisation, actor=request.user, data=data, filename=filename
        )
        if preview.replaces and not token:
            token = secrets.token_urlsafe(16)
            cache.set(
                _pending_key(organisation, request.user, token),
                (data, filename),
                PENDING_SECONDS,
            )
            context = _list_context(
                request, organisation, preview=preview, pending=token
            )
            return render(request, LIST, context)
        quote = services.quote_import(
            organisation=organisation,
            actor=request.user,
            data=data,
            filename=filename,
            replace=bool(token),
        )
    except reading.QuoteFileError as error:
        context = _list_context(request, organisation, problems=_problems(error))
        return render(request, LIST, context, status=400)
    except ValidationError as error:
        context = _list_context(request, organisation, error=" ".join(error.messages))
        return render(request, LIST, context, status=400)
    if token:
        cache.delete(_pending_key(organisation, request.user, token))
    messages.success(
        request,
        _("Quote %(number)s of %(supplier)s imported: %(rows)s rows.")
        % {
            "number": quote.number,
            "supplier": quote.supplier,
            "rows": quote.rows.count(),
        },
    )
    return redirect("compliance:quote_detail", quote.pk)


class RowMatchForm(forms.Form):
    catalogue_key = forms.ChoiceField(label=gettext_lazy("Prices"), required=False)
    library_device = forms.ModelChoiceField(
        label=gettext_lazy("Library device"),
        queryset=LibraryDevice.objects.none(),
        required=False,
    )

    def __init__(self, *args, organisation_id: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["catalogue_key"].choices = [
            ("", _("nothing (not a cost line)")),
            *((key, _(entry.name)) for key, entry in CATALOGUE_BY_KEY.items()),
        ]
        self.fields["library_device"].queryset = LibraryDevice.objects.filter(
            organisation_id=organisation_id
        )


MATCHED_BY_TEXT = {
    MatchedBy.PART_NUMBER: gettext_lazy("by part number"),
    MatchedBy.MODEL: gettext_lazy("by model"),
    MatchedBy.KIND: gettext_lazy("by kind"),
    MatchedBy.PERSON: gettext_lazy("confirmed by %(name)s"),
    MatchedBy.NONE: gettext_lazy("not matched"),
}


def shown_row(row: QuoteRow) -> dict[str, Any]:
    entry = CATALOGUE_BY_KEY.get(row.catalogue_key)
    how = str(MATCHED_BY_TEXT.get(row.matched_by, row.matched_by))
    if row.matched_by == MatchedBy.PERSON:
        who = row.confirmed_by
        how = how % {"name": (who.get_full_name() or who.username) if who else "—"}
    # As the cost lines show a price and a lead time (``costs.views``).
    price = f"{row.currency} {money_range_text(row.price_low, row.price_high)}"
    lead = (
        format_range(
            row.lead_time_weeks_low, row.lead_time_weeks_high or row.lead_time_weeks_low
        )
        if row.lead_time_weeks_low is not None
        else ""
    )
    return {
        "row": row,
        "prices": _(entry.name) if entry else "",
        "device": str(row.library_device) if row.library_device else "",
        "how": how,
        "price": price,
        "lead": lead,
        "unmatched": not row.catalogue_key,
    }


def _detail_context(request, quote, **extra) -> dict[str, Any]:
    today = timezone.localdate()
    return {
        "organisation": quote.organisation,
        **shown_quote(quote, today),
        "rows": [shown_row(r) for r in quote.rows.all()],
        "can_edit": can_edit(request.user, quote.organisation_id),
        **extra,
    }


@login_required
def quote_detail(request: HttpRequest, pk: int) -> HttpResponse:
    quote = selectors.quote_for(request.user, pk)
    return render(request, DETAIL, _detail_context(request, quote))


@login_required
def quote_row_match(request: HttpRequest, pk: int, row_pk: int) -> HttpResponse:
    """Confirm or correct what one row prices."""
    quote = selectors.quote_for(request.user, pk)
    row = next((r for r in quote.rows.all() if r.pk == row_pk), None)
    if row is None:
        raise Http404("No such row.")
    require_edit(request.user, quote.organisation_id)
    initial = {"catalogue_key": row.catalogue_key, "library_device": row.library_device}
    form = RowMatchForm(
        request.POST or None, initial=initial, organisation_id=quote.organisation_id
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.quote_row_match(
                row=row,
                actor=request.user,
                catalogue_key=form.cleaned_data["catalogue_key"],
                library_device=form.cleaned_data["library_device"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect(
                reverse("compliance:quote_detail", args=[pk]) + f"#row-{row.pk}"
            )
    context = _detail_context(request, quote, editing=row.pk, match_form=form)
    return render(request, DETAIL, context, status=400 if form.errors else 200)


@login_required
@require_POST
def quote_delete(request: HttpRequest, pk: int) -> HttpResponse:
    quote = selectors.quote_for(request.user, pk)
    organisation_pk = quote.organisation_id
    services.quote_delete(quote=quote, actor=request.user)
    messages.success(request, _("Quote deleted."))
    return redirect("compliance:quote_list", organisation_pk)


def template_words() -> template.TemplateWords:
    """The template's words in the active language."""
    return template.TemplateWords.translated(_)


def _xlsx(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(
        data,
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def quote_template(request: HttpRequest, org_pk: int, language: str) -> HttpResponse:
    """The empty quote template, in Korean or English."""
    _organisation(request, org_pk)
    if language not in ("ko", "en"):
        raise Http404("No such language.")
    with override(language):
        data = template.quote_template(template_words())
    return _xlsx(data, f"supplier-quote-template-{language}.xlsx")


@login_required
def quote_export(request: HttpRequest, pk: int) -> HttpResponse:
    """A stored quote as the spreadsheet it was imported from."""
    quote = selectors.quote_for(request.user, pk)
    data = template.quote_workbook(services.quote_file(quote), template_words())
    return _xlsx(data, f"quote-{quote.pk}.xlsx")
