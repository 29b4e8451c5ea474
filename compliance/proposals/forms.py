"""The organisation's branding on its proposals: name, address and logo. The
logo is checked by its content (Pillow), not by its name or the browser's
word: a PNG or JPEG of at most 1 MB and 4 megapixels."""

from __future__ import annotations

import io
import warnings

from django import forms
from django.utils.translation import gettext_lazy as _
from PIL import Image, UnidentifiedImageError

from compliance.proposals.models import OrganisationBranding, ProposalText

LOGO_MAX_BYTES = 1024 * 1024
LOGO_MAX_PIXELS = 4_000_000
LOGO_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg"}


def checked_logo(data: bytes) -> str:
    """The logo's MIME type when ``data`` is an acceptable PNG or JPEG;
    raises ``forms.ValidationError`` saying what is wrong otherwise."""
    if len(data) > LOGO_MAX_BYTES:
        raise forms.ValidationError(_("The logo must be at most 1 MB."))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                kind = image.format
                width, height = image.size
                if kind not in LOGO_TYPES:
                    raise forms.ValidationError(
                        _("The logo must be a PNG or JPEG image.")
                    )
                if width * height > LOGO_MAX_PIXELS:
                    raise forms.ValidationError(
                        _("The logo must be at most 4 megapixels (e.g. 2000 × 2000).")
                    )
                image.verify()  # a truncated or corrupt file fails here
    except forms.ValidationError:
        raise
    except (
        UnidentifiedImageError,
        Image.DecompressionBombError,
        Image.DecompressionBombWarning,
        OSError,
        SyntaxError,
        ValueError,
    ) as exc:
        raise forms.ValidationError(
            _("The logo must be a PNG or JPEG image that can be read.")
        ) from exc
    return LOGO_TYPES[kind]


class BrandingForm(forms.ModelForm):
    logo_file = forms.FileField(
        label=_("Logo"),
        required=False,
        help_text=_("PNG or JPEG, at most 1 MB and 4 megapixels."),
    )
    remove_logo = forms.BooleanField(label=_("Remove the logo"), required=False)

    class Meta:
        model = OrganisationBranding
        fields = ["display_name", "address"]
        widgets = {"address": forms.Textarea(attrs={"rows": 3, "maxlength": 400})}

    def clean_address(self) -> str:
        address = self.cleaned_data["address"].strip()
        if len(address) > 400:
            raise forms.ValidationError(_("At most 400 characters."))
        if len(address.splitlines()) > 5:
            raise forms.ValidationError(_("At most 5 lines."))
        return address

    def clean_logo_file(self):
        upload = self.cleaned_data.get("logo_file")
        if not upload:
            return None
        if upload.size > LOGO_MAX_BYTES:
            raise forms.ValidationError(_("The logo must be at most 1 MB."))
        data = upload.read(LOGO_MAX_BYTES + 1)
        return data, checked_logo(data)


class WrittenText(forms.CharField):
    """A text as the SA writes it: line breaks as ``\\n`` before its length is
    counted (a browser sends ``\\r\\n`` but counts one character)."""

    def to_python(self, value):
        value = super().to_python(value)
        return value.replace("\r\n", "\n").replace("\r", "\n")


class TextsForm(forms.Form):
    """The executive summary and the safety concept in one language."""

    summary = WrittenText(
        label=_("Executive summary"),
        required=False,
        max_length=ProposalText.SUMMARY_MAX,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text=_(
            "At most 1,500 characters; a blank line starts a new paragraph. "
            "Printed as written."
        ),
    )
    safety_concept = WrittenText(
        label=_("Safety concept"),
        required=False,
        max_length=ProposalText.SAFETY_CONCEPT_MAX,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("At most 1,500 characters: how the cell is safeguarded."),
    )

    def __init__(self, *args, language: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        if language:
            # The texts are in the proposal's language, whatever the page's.
            for field in self.fields.values():
                field.widget.attrs["lang"] = language
