"""Forms of the Safety functions tab: a function, a subsystem, a validation
record and an organisation's Table K.1 import. They parse what the browser
sends; the services and the calculator decide what is valid."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from compliance.calculators.iso13849_verification_tables import CCF_MEASURES
from compliance.safety_functions.models import (
    LibraryDevice,
    SafetyFunction,
    Subsystem,
    ValidationRecord,
)
from compliance.safety_functions.services import SUBSYSTEM_FIELDS

K1_MAX_UPLOAD = 64 * 1024


class SafetyFunctionForm(forms.ModelForm):
    hazard_keys = forms.MultipleChoiceField(
        label=_("Hazards it mitigates"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Its PLr is the highest PLr of these hazards in the signed risk assessment."
        ),
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = SafetyFunction
        fields = [
            "name",
            "safeguard",
            "device",
            "collaborative_mode",
            "trigger",
            "reaction",
            "stop_category",
            "required_response_time_ms",
            "reset_behaviour",
            "restart_behaviour",
            "uses_muting",
            "hazard_keys",
        ]

    def __init__(self, *args, cell, hazard_choices, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["device"].queryset = cell.devices.all()
        self.fields["hazard_keys"].choices = hazard_choices
        if self.instance.pk:
            self.fields["version"].initial = self.instance.version
            self.initial["hazard_keys"] = list(self.instance.hazard_keys or [])


class SubsystemForm(forms.ModelForm):
    ccf_measures = forms.MultipleChoiceField(
        label=_("Measures against common cause failure (ISO 13849-1 Annex F)"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Each measure counts all its points or none; Categories 2, 3 and 4 "
            "need at least 65."
        ),
    )

    class Meta:
        model = Subsystem
        # The fields the services take (services.SUBSYSTEM_FIELDS).
        fields = list(SUBSYSTEM_FIELDS)
        widgets = {
            "pfhd_per_hour": forms.TextInput(attrs={"inputmode": "decimal"}),
            "b10d_cycles": forms.TextInput(attrs={"inputmode": "decimal"}),
        }

    def __init__(self, *args, function: SafetyFunction, **kwargs):
        super().__init__(*args, **kwargs)
        cell = function.cell
        self.fields["library_device"].queryset = LibraryDevice.objects.filter(
            organisation_id=cell.project.organisation_id
        )
        self.fields["library_device"].help_text = _(
            "Choosing a library device takes its safety data when the figures "
            "below are left empty."
        )
        self.fields["device"].queryset = cell.devices.all()
        # Whole figures shown whole (2000000, not 2000000.0).
        for name, field in self.fields.items():
            value = self.initial.get(name)
            whole = isinstance(value, float) and value.is_integer()
            if isinstance(field, forms.FloatField) and whole and abs(value) < 1e15:
                self.initial[name] = int(value)
        # "category" alone is also the cost lines' word (a kind of line).
        self.fields["category"].label = _("Category (ISO 13849-1)")
        self.fields["ccf_measures"].choices = [
            (m.id, f"{_(m.label)} ({m.points})") for m in CCF_MEASURES
        ]


class ValidationRecordForm(forms.ModelForm):
    class Meta:
        model = ValidationRecord
        fields = [
            "test",
            "performed_by",
            "performed_on",
            "instrument",
            "measured_value",
            "outcome",
            "notes",
        ]
        widgets = {"performed_on": forms.DateInput(attrs={"type": "date"})}

    def __init__(self, *args, plan, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["test"].choices = [(t.kind, _(t.title)) for t in plan]


class PfhdTableForm(forms.Form):
    source = forms.CharField(
        label=_("Source: whose licensed copy of ISO 13849-1"),
        max_length=200,
        help_text=_("e.g. “ISO 13849-1:2023, licensed copy of ACME Ltd, Annex K”."),
    )
    file = forms.FileField(
        label=_("Table K.1 as CSV"),
        help_text=_(
            "Columns: mttfd_years, cat_B, cat_1, cat_2_low, cat_2_medium, "
            "cat_3_low, cat_3_medium, cat_4_high; PFHd per hour, empty where "
            "not applicable."
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > K1_MAX_UPLOAD:
            raise forms.ValidationError(_("The file is larger than 64 KB."))
        try:
            return upload.read().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise forms.ValidationError(_("The file is not UTF-8 text.")) from exc
