"""Forms of the device library: one entry, and the CSV upload."""

from __future__ import annotations

from django import forms
from django.core.validators import MinValueValidator
from django.utils.translation import gettext_lazy as _

from cells.forms import VersionedFormMixin
from compliance.safety_functions.library.csv_io import MAX_BYTES
from compliance.safety_functions.models import LibraryDevice

NOT_NEGATIVE = (
    "price_low",
    "price_high",
    "lead_time_weeks_low",
    "lead_time_weeks_high",
)


class LibraryDeviceForm(VersionedFormMixin, forms.ModelForm):
    """An entry of the organisation's library: the device, its safety
    figures from the maker's data sheet, and the organisation's price."""

    class Meta:
        model = LibraryDevice
        fields = [
            "key",
            "kind",
            "maker",
            "model",
            "part_number",
            "function",
            "iec61496_type",
            "pl",
            "category",
            "sil",
            "pfhd_per_hour",
            "b10d_cycles",
            "mttfd_years",
            "dcavg_percent",
            "response_time_ms",
            "detection_capability_mm",
            "range_m",
            "protective_height_mm",
            "certificates",
            "kcs_certificate_no",
            "price_low",
            "price_high",
            "currency",
            "price_source",
            "price_date",
            "lead_time_weeks_low",
            "lead_time_weeks_high",
            "data_source",
            "notes",
        ]
        widgets = {
            "price_date": forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
            # Small figures such as 3.7E-09 must not be refused by a step.
            "pfhd_per_hour": forms.TextInput(attrs={"inputmode": "decimal"}),
            "b10d_cycles": forms.TextInput(attrs={"inputmode": "decimal"}),
        }
        help_texts = {
            "key": _("A short code of your own, unique in the library (e.g. LC-7)."),
            "pfhd_per_hour": _("As on the data sheet, e.g. 3.7E-09."),
            "data_source": _("The maker's document the figures come from."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in NOT_NEGATIVE:
            self.fields[name].validators.append(MinValueValidator(0))
            self.fields[name].widget.attrs["min"] = 0
        # "category" alone is also the cost lines' word (a kind of line).
        self.fields["category"].label = _("Category (ISO 13849-1)")


class LibraryImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "The columns of an export; at most 1 MB and 2,000 rows. A row updates "
            "the entry with the same code and adds one otherwise."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                _(
                    "The file is larger than %(limit)s bytes: split it into smaller files."
                )
                % {"limit": f"{MAX_BYTES:,}"}
            )
        return upload
