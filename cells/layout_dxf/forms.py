"""The DXF import's forms: the file with its units, then a kind for each
layer found in it."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from cells.exchange import COORDINATE_LIMIT_MM
from cells.layout_dxf import reading
from cells.models import GuardKind
from config.forms import upload_within

UNIT_CHOICES = [
    ("", _("From the file")),
    ("mm", _("millimetres")),
    ("cm", _("centimetres")),
    ("m", _("metres")),
    ("inch", _("inches")),
    ("foot", _("feet")),
]
TARGET_CHOICES = [
    *GuardKind.choices,
    ("door", _("Door (an opening in the guard it lies on)")),
    ("underlay", _("Underlay (drawn faintly behind the plan)")),
    ("ignore", _("Leave out")),
]
# The words for each reason the import skips something.
SKIP_REASONS = {
    "unsupported_entity": _("not a line, curve or block"),
    "text": _("a text: read only to name the guard beside it"),
    "block_too_deep": _("a block nested too deep, or inside itself"),
    "block_missing": _("a block the file does not define"),
    "curve_too_complex": _("a spline too complex to read"),
    "zero_length": _("no length"),
    "layer_ignored": _("on a layer left out"),
    "off_the_plan": _("more than 100 m from the origin"),
    "underlay_full": _("past the underlay's %(limit)s lines"),
}


def skip_reason(reason: str) -> str:
    """The words for ``reason``, in the reader's language."""
    return str(SKIP_REASONS.get(reason, reason)) % {
        "limit": f"{reading.MAX_UNDERLAY_LINES:,}"
    }


class _Options(forms.Form):
    units = forms.ChoiceField(
        label=_("Units"),
        choices=UNIT_CHOICES,
        required=False,
        help_text=_(
            "The units the drawing is in. From the file: its header ($INSUNITS); "
            "a drawing that does not say its units needs them chosen here."
        ),
    )
    height_mm = forms.IntegerField(
        label=_("Height of the guards (mm)"),
        required=False,
        min_value=1,
        max_value=COORDINATE_LIMIT_MM,
        help_text=_(
            "For guard lines without a thickness in the file. A line with a "
            "thickness stands from its elevation to elevation + thickness."
        ),
    )

    def options(self) -> dict:
        """The chosen units (None: from the file) and height."""
        return {
            "units": self.cleaned_data.get("units") or None,
            "height_mm": self.cleaned_data.get("height_mm"),
        }


class DxfUploadForm(_Options):
    file = forms.FileField(
        label=_("DXF file"),
        help_text=_("A DXF drawing (text or binary) of at most 5 MB."),
    )
    field_order = ["file", "units", "height_mm"]

    def clean_file(self):
        return upload_within(self.cleaned_data["file"], reading.MAX_FILE_BYTES)


class DxfMappingForm(_Options):
    """Units, height and what each layer found becomes: a field per layer,
    ``layer_<n>`` in the order the drawing holds them."""

    def __init__(
        self,
        *args,
        layers: list[reading.LayerContents],
        remembered: dict[str, str] | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.layers = layers
        remembered = remembered or {}
        for index, layer in enumerate(layers):
            target, help_text = first_target(layer.name, remembered)
            self.fields[f"layer_{index}"] = forms.ChoiceField(
                label=layer.name,
                choices=TARGET_CHOICES,
                # Not sent: the layer's default.
                required=False,
                initial=target,
                # Choosing redraws the preview (static/js/app.js); without
                # JavaScript, "Preview again" does.
                widget=forms.Select(attrs={"data-autosubmit": ""}),
                help_text=help_text,
            )

    def layer_fields(self):
        """(bound field, layer, [(entity type, count)...]) for each layer."""
        return [
            (self[f"layer_{index}"], layer, sorted(layer.entities.items()))
            for index, layer in enumerate(self.layers)
        ]

    def option_fields(self):
        return [self["units"], self["height_mm"]]

    def mapping(self) -> dict[str, str]:
        return {
            layer.name: self.cleaned_data.get(f"layer_{index}")
            or reading.default_target(layer.name)
            for index, layer in enumerate(self.layers)
        }

    @classmethod
    def defaults(
        cls,
        layers: list[reading.LayerContents],
        options: dict,
        remembered: dict[str, str] | None = None,
    ) -> dict:
        """The form's data before anyone chose: what the layer became at the
        organisation's last import, else its default or the guard its name
        suggests (the preview shows it; the user confirms it by importing,
        or changes it)."""
        data = {
            "units": options.get("units") or "",
            "height_mm": options.get("height_mm") or "",
        }
        for index, layer in enumerate(layers):
            data[f"layer_{index}"] = first_target(layer.name, remembered or {})[0]
        return data


def first_target(name: str, remembered: dict[str, str]) -> tuple[str, str]:
    """(what a layer is offered as first, why): the organisation's choice at
    its last import, else the guess from its name, else its default."""
    if remembered.get(name.casefold()) in reading.TARGETS:
        return remembered[name.casefold()], str(
            _("As at your organisation's last import: confirm or change it.")
        )
    if reading.suggested_target(name) != reading.default_target(name):
        return reading.suggested_target(name), str(
            _("Suggested from the layer's name: confirm or change it.")
        )
    return reading.default_target(name), ""
