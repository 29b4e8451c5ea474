from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from compliance.assessment.register_xlsx.template import MAX_BYTES


class RegisterImportForm(forms.Form):
    file = forms.FileField(
        label=_("XLSX file"),
        help_text=_(
            "An export of a register, filled in: at most 2 MB, 500 hazards and "
            "2,000 measures."
        ),
        widget=forms.ClearableFileInput(
            attrs={
                "accept": ".xlsx,application/vnd.openxmlformats-officedocument."
                "spreadsheetml.sheet"
            }
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                _(
                    "The file is larger than 2 MB: split the register into smaller files."
                )
            )
        return upload
