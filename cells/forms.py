"""Forms for projects, cells and layout elements. Domain rules live in the
models' ``clean()``; ModelForm runs them and shows each message on its field."""

from __future__ import annotations

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.forms.models import model_to_dict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cells.exchange import POLYGON_MAX_CORNERS
from cells.models import (
    Cell,
    CellCertificate,
    CollaborativeMode,
    Device,
    GuardSegment,
    Opening,
    OperatorStation,
    Project,
)
from cells.models.cell import Application
from cells.models.projects import default_currency
from cells.naming import opening_place
from cells.selectors import layout_names_read
from compliance.calculators import editions as editions_registry
from compliance.calculators.ts15066 import body_region_table
from compliance.safety_functions.library import selectors as library_selectors
from compliance.safety_functions.library import services as library_services
from config.parsers import JSONDepthError, loads


class ProjectForm(forms.ModelForm):
    class Meta:
        model = Project
        fields = [
            "organisation",
            "name",
            "customer_name",
            "site_name",
            "country",
            "proposal_language",
            "currency",
            "time_zone",
            "planned_start",
        ]
        widgets = {
            "planned_start": forms.DateInput(attrs={"type": "date"}),
        }

    def __init__(self, *args, organisations=None, **kwargs):
        super().__init__(*args, **kwargs)
        # One choice per standard with two editions in force; empty: the
        # jurisdiction's default (compliance.calculators.editions).
        chosen = self.instance.standard_editions or {}
        for key, standard in editions_registry.STANDARDS.items():
            if not standard.choosable:
                continue
            self.fields[f"edition_{key}"] = forms.ChoiceField(
                label=_("Edition of %(standard)s") % {"standard": standard.title},
                choices=[
                    ("", _("The jurisdiction's default")),
                    *((e.year, e.label) for e in standard.editions),
                ],
                required=False,
                initial=chosen.get(key, ""),
                help_text=_(
                    "Korea and other countries: 2010 by default; EU/EEA and the "
                    "United States: 2024 (EN ISO 13855:2025)."
                ),
            )
        # Optional: a project without one proposes in its country's usual
        # currency; a new project is offered that, not the model's default.
        self.fields["currency"].required = False
        self.fields["currency"].choices = [
            (
                "",
                _("The country's currency (KRW in Korea, EUR in the EU/EEA, else USD)"),
            ),
            *(c for c in self.fields["currency"].choices if c[0]),
        ]
        if not self.instance.pk and not self.data.get(self.add_prefix("currency")):
            self.initial["currency"] = ""
        if self.instance.pk or organisations is None:
            # An existing project stays in its organisation.
            del self.fields["organisation"]
        else:
            self.fields["organisation"].queryset = organisations
            only = list(organisations)
            if len(only) == 1:
                self.fields["organisation"].initial = only[0]
                self.fields["organisation"].widget = forms.HiddenInput()

    def clean_currency(self) -> str:
        country = self.cleaned_data.get("country") or ""
        return self.cleaned_data["currency"] or default_currency(country)

    def clean(self):
        cleaned = super().clean()
        chosen = {}
        for key in editions_registry.STANDARDS:
            year = cleaned.get(f"edition_{key}")
            if year:
                chosen[key] = year
        self.instance.standard_editions = chosen
        return cleaned


class ZeroWhenEmptyMixin:
    """Lengths whose default is 0 (no tool, down to the floor, no gap) may be
    left empty on the form: empty means 0."""

    zero_when_empty: tuple[str, ...] = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.zero_when_empty:
            self.fields[name].required = False

    def clean(self):
        cleaned = super().clean()
        for name in self.zero_when_empty:
            # A value that did not parse is not in cleaned_data: its error stays.
            if name in cleaned and cleaned[name] is None:
                cleaned[name] = 0
        return cleaned


class OtherFieldsAboveMixin:
    """A model rule keyed by a field this form does not show is said above
    the form instead (rather than failing: Django refuses an error for a
    field the form lacks)."""

    def add_error(self, field, error):
        if field is None and hasattr(error, "error_dict"):
            shown: dict[str, list] = {}
            for name, messages in error.error_dict.items():
                key = name if name in self.fields else NON_FIELD_ERRORS
                shown.setdefault(key, []).extend(messages)
            error = ValidationError(shown)
        super().add_error(field, error)


class VersionedFormMixin:
    """A hidden ``version``: the row's version when the form was shown, and
    each field's value as shown (``show_hidden_initial``). The view saves
    only what the person changed, through a service that refuses the save
    when someone else saved the row since (``cells.services``); the form
    then tells whether the other save touched what this person changed
    (``changed_by_others``): if not, it is saved on top of theirs, else the
    form says whose values it would replace (issue 28)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)  # type: ignore[call-arg]
        instance = self.instance  # type: ignore[attr-defined]
        for name in self._concrete():
            self.fields[name].show_hidden_initial = True  # type: ignore[attr-defined]
        self.fields["version"] = forms.IntegerField(  # type: ignore[attr-defined]
            widget=forms.HiddenInput,
            required=False,
            min_value=1,
            max_value=2_147_483_647,
            initial=instance.version if instance.pk else None,
        )

    def _concrete(self) -> dict[str, str]:
        """The form's model fields: name to attribute name."""
        model = self._meta.model  # type: ignore[attr-defined]
        names = {f.name: f.attname for f in model._meta.concrete_fields}
        return {n: names[n] for n in self.fields if n in names and n != "version"}  # type: ignore[attr-defined]

    def saved_fields(self) -> list[str]:
        """The model fields this person changed from what the form showed
        (attribute names): the only ones a save of theirs writes."""
        concrete = self._concrete()
        return [concrete[n] for n in self.changed_data if n in concrete]  # type: ignore[attr-defined]

    def changed_by_others(self, current) -> list[str]:
        """Of the fields this person changed, those whose stored value is no
        longer what the form showed (attribute names): another's change a
        save would replace. A field posted without its value as shown is
        compared as sent."""
        concrete = self._concrete()
        stored = model_to_dict(current, fields=list(concrete))
        theirs = []
        for name in self.changed_data:  # type: ignore[attr-defined]
            if name not in concrete:
                continue
            field = self.fields[name]  # type: ignore[attr-defined]
            key = self.add_initial_prefix(name)  # type: ignore[attr-defined]
            widget = field.hidden_widget()
            if widget.value_omitted_from_data(self.data, self.files, key):  # type: ignore[attr-defined]
                other = getattr(current, concrete[name]) != getattr(
                    self.instance,  # type: ignore[attr-defined]
                    concrete[name],
                )
            else:
                seen = widget.value_from_datadict(self.data, self.files, key)  # type: ignore[attr-defined]
                other = field.has_changed(stored.get(name), seen)
            if other:
                theirs.append(concrete[name])
        return theirs

    def read_version(self) -> int | None:
        return self.cleaned_data.get("version")  # type: ignore[attr-defined]

    def conflicted(self, current, differs: list[str]) -> None:
        """Someone saved the row since the form was shown: say so, naming the
        fields whose stored value is now another, and take the stored version,
        so that saving again replaces theirs knowingly."""
        names = {f.attname: f for f in type(current)._meta.concrete_fields}
        labels = [
            str(self.fields[names[n].name].label)  # type: ignore[attr-defined]
            for n in differs
            if n in names and names[n].name in self.fields  # type: ignore[attr-defined]
        ]
        message = gettext(
            "Someone else saved this since you opened it: nothing was saved."
        )
        if labels:
            message += " " + gettext(
                "Their values differ from yours in: %(fields)s. Saving again "
                "replaces theirs with yours; reload the plan to see theirs."
            ) % {"fields": ", ".join(labels)}
        self.add_error(None, message)  # type: ignore[attr-defined]
        data = self.data.copy()  # type: ignore[attr-defined]
        data[self.add_prefix("version")] = str(current.version)  # type: ignore[attr-defined]
        self.data = data


class CellForm(
    VersionedFormMixin, OtherFieldsAboveMixin, ZeroWhenEmptyMixin, forms.ModelForm
):
    """The robot and its task. The layout is edited beside the drawing: a
    figure here that leaves the hazard zone smaller than the robot's maximum
    space is refused above the form (the zone's own fields are there)."""

    zero_when_empty = (
        "end_effector_mm",
        "workpiece_mm",
        "hazard_zone_lower_mm",
        "robot_base_rotation_deg",
    )

    collaborative_modes = forms.MultipleChoiceField(
        label=_("Collaborative modes (ISO/TS 15066)"),
        choices=CollaborativeMode.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_(
            "Tick each mode the cell uses, each for its own zone or task; none if "
            "it does not work collaboratively."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Required, and chosen, not assumed: a new cell starts with none chosen
        # (the model's default is for cells made in code and old documents).
        application = self.fields["application"]
        application.required = True
        application.choices = [("", _("Choose the application")), *Application.choices]
        if self.instance._state.adding and not self.is_bound:
            self.initial["application"] = ""

    class Meta:
        model = Cell
        fields = [
            "name",
            "robot_manufacturer",
            "robot_model",
            "robot_kind",
            "payload_kg",
            "reach_mm",
            "max_tcp_speed_mm_s",
            "moving_mass_kg",
            "end_effector_mm",
            "workpiece_mm",
            "application",
            "task_description",
            "robot_base_x_mm",
            "robot_base_y_mm",
            "robot_base_rotation_deg",
            "stopping_time_ms",
            "stopping_distance_mm",
            "programmed_speed_mm_s",
            "collaborative_modes",
            "hazard_zone_height_mm",
            "hazard_zone_lower_mm",
            "safety_config_kind",
            "safety_config_value",
            "safety_rated_limits",
            "annex_i_category",
            "conformity_procedure",
            "harmonised_standards",
        ]
        widgets = {
            "task_description": forms.TextInput(),
            "harmonised_standards": forms.NullBooleanSelect(),
        }


class LayoutElementForm(VersionedFormMixin, OtherFieldsAboveMixin, forms.ModelForm):
    """A form for one element of a cell's layout; it knows the cell. A rule
    about where the element goes (its cell is full) is said above it."""

    def __init__(self, *args, cell: Cell, **kwargs):
        self.cell = cell
        super().__init__(*args, **kwargs)


class PolygonField(forms.CharField):
    """Hazard-zone corners typed as 'x, y' per line (or as JSON)."""

    widget = forms.Textarea(
        attrs={"rows": 4, "placeholder": "0, 0\n3000, 0\n3000, 2500"}
    )

    def prepare_value(self, value):
        if isinstance(value, list):
            return "\n".join(f"{x}, {y}" for x, y in value)
        return value

    def to_python(self, value):
        value = (value or "").strip()
        if not value:
            return []
        if value.startswith("["):
            try:
                # [[x, y], ...] is two levels deep; deeper is not corners.
                return loads(value, max_depth=2)
            except JSONDepthError as exc:
                raise forms.ValidationError(
                    _("Give the corners as pairs of whole millimetres: [[x, y], ...].")
                ) from exc
            except ValueError as exc:  # JSONDecodeError, or a number too long
                raise forms.ValidationError(_("This is not valid JSON.")) from exc
        points = []
        for number, line in enumerate(value.splitlines(), start=1):
            if not line.strip():
                continue
            if len(points) == POLYGON_MAX_CORNERS:
                # The model says so too; stopping here keeps a huge paste cheap.
                raise forms.ValidationError(
                    _("Give at most %(limit)s corners."),
                    params={"limit": POLYGON_MAX_CORNERS},
                )
            parts = [
                p for p in line.replace(";", ",").replace(" ", ",").split(",") if p
            ]
            try:
                x, y = (int(float(p)) for p in parts)
            except (ValueError, OverflowError) as exc:  # OverflowError: 1e999
                raise forms.ValidationError(
                    _("Line %(line)s: give two numbers, x and y, in mm."),
                    params={"line": number},
                ) from exc
            points.append([x, y])
        return points


class HazardZoneForm(ZeroWhenEmptyMixin, LayoutElementForm):
    """Robot base and hazard zone, edited beside the drawing."""

    zero_when_empty = ("robot_base_rotation_deg",)

    hazard_zone_polygon_mm = PolygonField(
        label=_("Hazard zone corners (mm)"),
        required=False,
        help_text=_("One corner per line: x, y."),
    )

    class Meta:
        model = Cell
        fields = [
            "robot_base_x_mm",
            "robot_base_y_mm",
            "robot_base_rotation_deg",
            "hazard_zone_shape",
            "hazard_zone_radius_mm",
            "hazard_zone_polygon_mm",
            "hazard_zone_reduction_reason",
        ]
        widgets = {"hazard_zone_reduction_reason": forms.Textarea(attrs={"rows": 2})}


class GuardSegmentForm(ZeroWhenEmptyMixin, LayoutElementForm):
    zero_when_empty = ("bottom_gap_mm",)

    class Meta:
        model = GuardSegment
        fields = [
            "label",
            "kind",
            "start_x_mm",
            "start_y_mm",
            "end_x_mm",
            "end_y_mm",
            "height_mm",
            "bottom_gap_mm",
            "mesh_opening_mm",
        ]


class OpeningForm(LayoutElementForm):
    class Meta:
        model = Opening
        fields = [
            "label",
            "segment",
            "purpose",
            "offset_mm",
            "width_mm",
            "lower_edge_mm",
            "upper_edge_mm",
        ]

    def __init__(self, *args, cell: Cell, **kwargs):
        super().__init__(*args, cell=cell, **kwargs)
        # Only this cell's segments: a foreign id is "not one of the choices".
        self.fields["segment"].queryset = GuardSegment.objects.filter(cell=cell)
        # Each by the name the plan gives it (S2 when unlabelled).
        names = dict(layout_names_read(cell)[0])
        self.fields["segment"].label_from_instance = lambda s: names.get(s.pk, str(s))


class DeviceForm(LayoutElementForm):
    class Meta:
        model = Device
        fields = [
            "label",
            "kind",
            "opening",
            "claimed_pl",
            "response_time_ms",
            "iec61496_type",
            "guard_locking",
            "existing",
            "kcs_certified",
            "kcs_certificate_no",
            "detection_capability_mm",
            "beam_count",
            "protective_field_mm",
            # Where it is on the plan, and at what height it detects.
            "x1_mm",
            "y1_mm",
            "x2_mm",
            "y2_mm",
            "detection_lower_mm",
            "detection_upper_mm",
            "field_height_mm",
            # ISO 13855:2024: the supplement Z, and a curtain's D_DO.
            "supplement_z_mm",
            "reach_over_ddo_mm",
            # The organisation's library entry it is: fills the figures above.
            "library_device",
        ]
        help_texts = {
            "library_device": _(
                "Choosing one from your organisation's device library fills in "
                "the PL, response time, IEC 61496 type, detection capability and "
                "KCs certificate it gives, in place of what is typed above, when "
                "saved; the bill of materials prices the device from it."
            )
        }

    def __init__(self, *args, cell: Cell, **kwargs):
        super().__init__(*args, cell=cell, **kwargs)
        self.fields["opening"].queryset = Opening.objects.filter(
            segment__cell=cell
        ).select_related("segment")
        # Each by the place the plan gives it ("S2 / O3" when unlabelled).
        places = {
            pk: opening_place(segment, name)
            for pk, name, _purpose, segment in layout_names_read(cell)[1]
        }
        self.fields["opening"].label_from_instance = lambda o: places.get(
            o.pk, f"{o.segment} / {o}"
        )
        # Only the cell's organisation's entries: another's is "not one of the
        # choices". Shown: those of a kind this device can be; a submitted
        # entry of another kind gets its own message (clean()).
        shown_kind = "" if self.is_bound else self.instance.kind
        self.fields[
            "library_device"
        ].queryset = library_selectors.compatible_library_devices(
            cell.project.organisation_id, shown_kind
        )
        self.fields["library_device"].label_from_instance = lambda d: (
            f"{d.get_kind_display()} · {d}"
        )

    def clean(self):
        cleaned = super().clean()
        chosen = cleaned.get("library_device")
        kind = cleaned.get("kind")
        if chosen is None or not kind or chosen.pk == self.instance.library_device_id:
            return cleaned  # nothing newly chosen: the figures stay as typed
        previous = (
            self.instance.library_device if self.instance.library_device_id else None
        )
        try:
            values = library_services.library_device_values(
                library_device=chosen,
                device_kind=kind,
                organisation_id=self.cell.project.organisation_id,
                previous=previous,
                current=cleaned,
            )
        except ValidationError as exc:
            self.add_error("library_device", exc.message_dict["library_device"])
            return cleaned
        cleaned.update(values)
        return cleaned


class OperatorStationForm(LayoutElementForm):
    exposed_regions = forms.MultipleChoiceField(
        label=_("Body regions exposed"),
        required=False,
        choices=[(str(row.region_id), _(row.name)) for row in body_region_table()],
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "The ISO/TS 15066 body regions the robot can touch at this station: "
            "a robot program's segments near it are judged against them."
        ),
    )

    class Meta:
        model = OperatorStation
        fields = ["label", "x_mm", "y_mm", "exposed_regions", "contact_reach_mm"]


class CellCertificateForm(VersionedFormMixin, forms.ModelForm):
    """A certificate on file for the cell, typed from the certificate itself."""

    class Meta:
        model = CellCertificate
        fields = [
            "kind",
            "issuing_body",
            "number",
            "issued_on",
            "valid_until",
            "scope",
        ]
        widgets = {
            # ISO dates, the only format a date input reads.
            "issued_on": forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
            "valid_until": forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
            "issuing_body": forms.TextInput(
                attrs={"placeholder": "한국로봇산업진흥원 (KIRIA)"}
            ),
            "scope": forms.Textarea(attrs={"rows": 3}),
        }


__all__ = [
    "CellCertificateForm",
    "CellForm",
    "DeviceForm",
    "GuardSegmentForm",
    "HazardZoneForm",
    "OpeningForm",
    "OperatorStationForm",
    "ProjectForm",
]
