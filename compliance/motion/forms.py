"""The Motion tab's form: a robot program imported into the cell."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from cells.motion import reading
from cells.motion.models import ProgramFormat
from config.forms import upload_within

UNIT_CHOICES = [
    ("", gettext_lazy("From the header")),
    ("mm", "mm"),
    ("m", "m"),
]


class MotionImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Robot program"),
        max_length=255,
        help_text=gettext_lazy(
            "CSV waypoints, URScript (.script), ABB RAPID (.mod) or KUKA KRL "
            "(.src), as the robot controller saves it; at most 5 MB."
        ),
    )
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        required=False,
        choices=[("", gettext_lazy("From the file")), *ProgramFormat.choices],
    )
    units = forms.ChoiceField(
        label=gettext_lazy("Units"),
        required=False,
        choices=UNIT_CHOICES,
        help_text=gettext_lazy(
            "CSV only: the coordinates' units when the header does not say them "
            "(x_mm, x_m)."
        ),
    )

    def clean_file(self):
        return upload_within(self.cleaned_data["file"], reading.MAX_FILE_BYTES)

    def program(self) -> dict:
        """What ``motion_program_import`` is given, the file read whole."""
        upload = self.cleaned_data["file"]
        return {
            "data": upload.read(reading.MAX_FILE_BYTES + 1),
            "file_name": upload.name or "",
            "format": self.cleaned_data.get("format") or None,
            "units": self.cleaned_data.get("units") or None,
        }
