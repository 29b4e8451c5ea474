"""Forms of the risk-assessment pages. They parse; the services decide."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cells.models import Cell, Device, GuardSegment, PerformanceLevel
from cells.widgets import QuickSelect
from compliance.assessment import declaration, selectors
from compliance.assessment.hazards import catalogue
from compliance.assessment.models import (
    CONTACT_AREA_MAX_CM2,
    CONTACT_AREA_MIN_CM2,
    HAZARD_DESCRIPTION_MAX_LENGTH,
    LIMIT_TEXT_MAX_LENGTH,
    CollaborativeMode,
    ContactType,
    MeasureStep,
    Phase,
    Revision,
)
from compliance.calculators import written
from compliance.calculators.ts15066 import body_region_table

NOT_ESTIMATED = [("", _("— not estimated —"))]
S_CHOICES = [
    ("S1", _("S1 slight, reversible")),
    ("S2", _("S2 serious, irreversible or death")),
]
F_CHOICES = [("F1", _("F1 seldom or short")), ("F2", _("F2 frequent or long"))]
P_CHOICES = [("P1", _("P1 possible")), ("P2", _("P2 scarcely possible"))]


def _translated(choices):
    return [(key, _(label)) for key, label in choices]


class LimitsForm(forms.Form):
    """The limits of the machine, ISO 12100:2010 5.3."""

    intended_use = forms.CharField(
        label=_("Intended use"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        max_length=LIMIT_TEXT_MAX_LENGTH,
    )
    foreseeable_misuse = forms.CharField(
        label=_("Reasonably foreseeable misuse"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        max_length=LIMIT_TEXT_MAX_LENGTH,
    )
    space_limits = forms.CharField(
        label=_("Space limits"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        max_length=LIMIT_TEXT_MAX_LENGTH,
    )
    time_limits = forms.CharField(
        label=_("Time limits (life cycle)"),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        max_length=LIMIT_TEXT_MAX_LENGTH,
    )
    low_guard_justification = forms.CharField(
        label=_("Why a guard lower than 1.8 m carries no height-related risk"),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        max_length=LIMIT_TEXT_MAX_LENGTH,
    )
    conformity_route = forms.CharField(
        label=_("Conformity route for collaborative operation without a fence"),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        max_length=LIMIT_TEXT_MAX_LENGTH,
    )
    exposed_persons = forms.MultipleChoiceField(
        label=_("Persons exposed"),
        choices=[],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, texts: Mapping[str, Any] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["exposed_persons"].choices = _translated(
            catalogue.exposed_person_choices()
        )
        # The space limits the app wrote from the layout are stored in English
        # and shown in the reader's language; saved unchanged, the English is
        # kept, so the record does not change language with the clicker.
        self._stored_space_limits = self.initial.get("space_limits") or ""
        self._shown_space_limits = written.shown(
            self._stored_space_limits, (texts or {}).get("space_limits"), gettext
        )
        if self._stored_space_limits:
            self.initial["space_limits"] = self._shown_space_limits

    def clean_space_limits(self) -> str:
        value = self.cleaned_data["space_limits"]
        stored = self._stored_space_limits
        if stored and value.strip() == self._shown_space_limits.strip():
            return stored
        return value

    @classmethod
    def for_revision(cls, revision: Revision, data=None) -> LimitsForm:
        """The form filled with the revision's limits (and its version)."""
        initial = {name: getattr(revision, name) for name in cls.base_fields}
        return cls(data, initial=initial, texts=revision.texts)


def initial_from_query(form_class, query, prefix: str) -> dict:
    """What the user had typed, carried over when the form is redrawn."""
    start = f"{prefix}-"
    return {
        key[len(start) :]: value
        for key, value in query.items()
        if key.startswith(start) and key[len(start) :] in form_class.base_fields
    }


class HazardForm(forms.Form):
    """A hazard from the Annex B catalogue, where and when, and its risk. Its
    selects are written in Python (``QuickSelect``): a large cell's places
    are hundreds of options."""

    group = forms.ChoiceField(widget=QuickSelect, label=_("Hazard group"))
    origin = forms.ChoiceField(widget=QuickSelect, label=_("Origin"))
    consequence = forms.ChoiceField(
        widget=QuickSelect, label=_("Potential consequence")
    )
    phase = forms.ChoiceField(
        widget=QuickSelect, label=_("Life-cycle phase"), choices=Phase.choices
    )
    task = forms.CharField(label=_("Task"), max_length=200)
    location_key = forms.ChoiceField(
        widget=QuickSelect, label=_("Where in the cell"), required=False
    )
    body_region = forms.ChoiceField(
        widget=QuickSelect,
        label=_("Body region that may be contacted"),
        choices=[
            ("", "—"),
            *((str(r.region_id), _(r.name)) for r in body_region_table()),
        ],
        required=False,
    )
    contact_type = forms.ChoiceField(
        widget=QuickSelect,
        label=_("Kind of contact"),
        choices=[("", "—"), *ContactType.choices],
        required=False,
    )
    contact_area_cm2 = forms.DecimalField(
        label=_("Contact area (cm²)"),
        max_digits=7,
        decimal_places=2,
        min_value=CONTACT_AREA_MIN_CM2,
        max_value=CONTACT_AREA_MAX_CM2,
        required=False,
        help_text=_("The tool's smallest edge that may touch, in cm²."),
    )
    description = forms.CharField(
        label=_("Description"),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        max_length=HAZARD_DESCRIPTION_MAX_LENGTH,
    )
    severity = forms.ChoiceField(
        widget=QuickSelect,
        label=_("Severity S"),
        choices=NOT_ESTIMATED + S_CHOICES,
        required=False,
    )
    frequency = forms.ChoiceField(
        widget=QuickSelect,
        label=_("Frequency F"),
        choices=NOT_ESTIMATED + F_CHOICES,
        required=False,
    )
    avoidance = forms.ChoiceField(
        widget=QuickSelect,
        label=_("Avoidance P"),
        choices=NOT_ESTIMATED + P_CHOICES,
        required=False,
    )
    low_probability = forms.BooleanField(
        label=_("Low probability of occurrence"), required=False
    )
    residual_severity = forms.ChoiceField(
        widget=QuickSelect,
        label=_("Residual S"),
        choices=NOT_ESTIMATED + S_CHOICES,
        required=False,
    )
    residual_frequency = forms.ChoiceField(
        widget=QuickSelect,
        label=_("Residual F"),
        choices=NOT_ESTIMATED + F_CHOICES,
        required=False,
    )
    residual_avoidance = forms.ChoiceField(
        widget=QuickSelect,
        label=_("Residual P"),
        choices=NOT_ESTIMATED + P_CHOICES,
        required=False,
    )
    residual_low_probability = forms.BooleanField(
        label=_("Residual: low probability"), required=False
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    _APP_WRITTEN = ("task", "description")

    def __init__(
        self,
        *args,
        cell: Cell,
        refresh_url: str = "",
        target: str = "",
        texts: Mapping[str, Any] | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        # A text the app stored in English (an accepted suggestion's, with its
        # source in ``texts``) is shown in the reader's language; saved
        # unchanged, the English is kept.
        self._stored = {
            name: self.initial.get(name) or "" for name in self._APP_WRITTEN
        }
        self._shown = {
            name: written.shown(stored, (texts or {}).get(name), gettext)
            for name, stored in self._stored.items()
        }
        for name, stored in self._stored.items():
            if stored:
                self.initial[name] = self._shown[name]
        group_id = (
            self.data.get(self.add_prefix("group"))
            or self.initial.get("group")
            or "mechanical"
        )
        if refresh_url:
            # Choosing a group reloads the form with that group's origins and
            # consequences (Annex B lists them per group).
            self.fields["group"].widget.attrs.update(
                {
                    "hx-get": refresh_url,
                    "hx-target": target,
                    "hx-swap": "outerHTML",
                    "hx-include": "closest form",
                }
            )
        self.fields["group"].choices = _translated(catalogue.group_choices())
        try:
            origins = catalogue.origin_choices(group_id)
            consequences = catalogue.consequence_choices(group_id)
        except ValueError:
            origins, consequences = [], []
        self.fields["origin"].choices = _translated(origins)
        self.fields["consequence"].choices = _translated(consequences)
        self.fields["location_key"].choices = [
            ("", "—"),
            *selectors.location_choices(cell).items(),
        ]

    def _kept(self, name: str) -> str:
        value = self.cleaned_data[name]
        stored = self._stored[name]
        if stored and value == self._shown[name].strip():
            return stored
        return value

    def clean_task(self) -> str:
        return self._kept("task")

    def clean_description(self) -> str:
        return self._kept("description")


class MeasureForm(forms.Form):
    """A risk-reduction measure by the three-step method."""

    step = forms.ChoiceField(label=_("Step"), choices=MeasureStep.choices)
    description = forms.CharField(label=_("Measure"), max_length=300)
    device = forms.ModelChoiceField(
        label=_("Safety device"), queryset=Device.objects.none(), required=False
    )
    segment = forms.ModelChoiceField(
        label=_("Guard segment"), queryset=GuardSegment.objects.none(), required=False
    )
    collaborative_mode = forms.ChoiceField(
        label=_("Collaborative mode"),
        choices=[("", "—"), *CollaborativeMode.choices],
        required=False,
    )
    is_safety_function = forms.BooleanField(label=_("Safety function"), required=False)
    plr_required = forms.ChoiceField(
        label=_("PLr required"),
        choices=[("", _("— from the hazard —")), *PerformanceLevel.choices],
        required=False,
    )
    pl_claimed = forms.ChoiceField(
        label=_("PL claimed"),
        choices=[("", _("— from the device —")), *PerformanceLevel.choices],
        required=False,
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, cell: Cell, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["device"].queryset = Device.objects.filter(cell=cell)
        self.fields["segment"].queryset = GuardSegment.objects.filter(cell=cell)


def service_values(form: forms.Form) -> dict:
    """The cleaned data the services take (everything but the version)."""
    return {k: v for k, v in form.cleaned_data.items() if k != "version"}


def conflict_message() -> str:
    return gettext(
        "Someone else saved this while you were editing. The form now shows their "
        "values; make your change again if it is still needed."
    )


def reason_field_name(finding_key: str) -> str:
    """The form field of a finding's reason: by its key, so that a finding
    that changed between showing the form and signing is never given another
    finding's reason."""
    return f"reason:{finding_key}"


class SignForm(forms.Form):
    """Signing as a declaration: a reason for each open fail and for each
    hazard whose residual risk is not acceptable, the statement confirmed,
    and the password entered again. The service checks them."""

    confirm = forms.BooleanField(required=False)
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        required=False,
        max_length=declaration.PASSWORD_MAX_LENGTH,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("Enter it again: signing is in your name."),
    )

    def __init__(
        self, data=None, *, open_findings, statement: str, signed_text: str = ""
    ):
        from compliance.assessment.checks import FAIL
        from compliance.assessment.declaration import REASON_MAX_CHARS

        super().__init__(data)
        self.open_findings = open_findings
        self.fields["confirm"].label = statement
        if signed_text and signed_text != statement:
            # Shown in the signer's language, signed in the project's.
            self.fields["confirm"].help_text = _(
                "The record keeps it in the project's language: “%(text)s”"
            ) % {"text": signed_text}
        self.reason_fields = {}
        for finding in open_findings:
            if finding.status != FAIL:
                continue
            name = reason_field_name(finding.key)
            self.fields[name] = forms.CharField(
                label=_("Why you accept it"),
                required=False,
                widget=forms.Textarea(attrs={"rows": 2, "maxlength": REASON_MAX_CHARS}),
            )
            self.reason_fields[finding.key] = name

    def _with_reasons(self, residual: bool):
        from compliance.assessment.checks import is_residual

        return [
            (finding, self[self.reason_fields[finding.key]])
            for finding in self.open_findings
            if finding.key in self.reason_fields
            and is_residual(finding.rule_id) == residual
        ]

    def residual_risks(self):
        """(finding, its reason field) for each hazard whose residual risk is
        not acceptable, in order."""
        return self._with_reasons(residual=True)

    def fails(self):
        """(finding, its reason field) for each open fail of the cell, in order."""
        return self._with_reasons(residual=False)

    def needing_evidence(self):
        return [f for f in self.open_findings if f.key not in self.reason_fields]

    def service_values(self) -> dict:
        """What revision_sign takes (the form must be bound and validated)."""
        data = self.cleaned_data
        return {
            "password": data.get("password") or "",
            "confirm": bool(data.get("confirm")),
            "accepted": {
                key: data.get(name) or "" for key, name in self.reason_fields.items()
            },
        }

    def add_service_errors(self, exc) -> None:
        """The service's refusal, each message on the field it is about."""
        if not hasattr(exc, "error_dict"):
            self.add_error(None, exc.messages)
            return
        for field, errors in exc.error_dict.items():
            if field == "accepted":
                for error in errors:
                    name = self.reason_fields.get((error.params or {}).get("key"))
                    self.add_error(name, error)
            elif field in ("password", "confirm"):
                self.add_error(field, errors)
            else:
                self.add_error(None, errors)


# The dates the history can be filtered by: wide enough for any real entry,
# narrow enough that the day after the last one is still a date.
HISTORY_FIRST_DAY = datetime.date(2000, 1, 1)
HISTORY_LAST_DAY = datetime.date(2999, 12, 31)


class HistoryFilterForm(forms.Form):
    """The history's filters (a GET form): who, what kind of change, which days."""

    person = forms.TypedChoiceField(
        label=_("Person"), required=False, coerce=int, empty_value=None
    )
    kind = forms.ChoiceField(label=_("Kind of change"), required=False)
    date_from = forms.DateField(
        label=_("First day"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    date_to = forms.DateField(
        label=_("Last day"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, data=None, *, people, kinds):
        """``people``: (user id, name) of everyone in this history; ``kinds``:
        (key, label) of the kinds of change."""
        super().__init__(data)
        self.fields["person"].choices = [("", _("Everyone")), *people]
        self.fields["kind"].choices = [("", _("Every kind")), *kinds]

    def _clean_day(self, name: str):
        day = self.cleaned_data.get(name)
        if day is not None and not HISTORY_FIRST_DAY <= day <= HISTORY_LAST_DAY:
            raise forms.ValidationError(
                _("Choose a day between %(first)s and %(last)s.")
                % {"first": HISTORY_FIRST_DAY, "last": HISTORY_LAST_DAY}
            )
        return day

    def clean_date_from(self):
        return self._clean_day("date_from")

    def clean_date_to(self):
        return self._clean_day("date_to")

    def clean(self):
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("The last day comes before the first."))
        return data
