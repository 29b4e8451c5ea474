"""The floor-plan image's form: the file (once, or again to replace it) and
its placement, which a later save can change without sending the file."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from cells.layout_image import reading
from cells.layout_image.models import LayoutImage

# Why a file is refused, by ``reading.ImageCheckError.code``.
CHECK_ERRORS = {
    "empty": _("The file is empty."),
    "too_large": _(
        "The file is larger than %(limit_mb)s MB: save the plan smaller or as a JPEG."
    ),
    "not_an_image": _(
        "This is not a PNG or JPEG image (the file's content is checked, not "
        "its name). Save the plan as PNG or JPEG and try again."
    ),
    "too_many_pixels": _(
        "The image has more than %(limit_mp)s million pixels: scale it down "
        "and try again."
    ),
    "corrupt": _(
        "The image cannot be read: the file is damaged or incomplete. Save it "
        "again and try again."
    ),
}


def check_message(exc: reading.ImageCheckError) -> str:
    """The refusal in the reader's language."""
    return str(CHECK_ERRORS.get(exc.code, CHECK_ERRORS["corrupt"])) % {
        "limit_mb": reading.MAX_BYTES // (1024 * 1024),
        "limit_mp": reading.MAX_PIXELS // 1_000_000,
    }


class LayoutImageForm(forms.ModelForm):
    field_order = ["file"]  # first, then the placement
    file = forms.FileField(
        label=_("Image file"),
        required=False,
        help_text=_(
            "A PNG or JPEG of at most 5 MB and 25 million pixels. Sending one "
            "replaces the image; leave it empty to change only the placement."
        ),
    )

    class Meta:
        model = LayoutImage
        fields = [
            "point1_x_px",
            "point1_y_px",
            "point2_x_px",
            "point2_y_px",
            "distance_mm",
            "plan_x_mm",
            "plan_y_mm",
            "opacity_percent",
            "shown",
            "in_pdf",
        ]
        help_texts = {
            "point1_x_px": _("Pixels from the image's left edge."),
            "point1_y_px": _("Pixels from the image's top edge."),
            "distance_mm": _(
                "The real distance between the two points, e.g. along a wall "
                "or a grid line of known length."
            ),
            "plan_x_mm": _("Where point 1 lies on the cell's plan."),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The new bytes, once checked (None: keep the stored ones).
        self.new_data: bytes | None = None
        attrs = {"accept": ",".join(reading.CONTENT_TYPES.values())}
        self.fields["file"].widget.attrs.update(attrs)
        if self.instance.pk is None:
            self.fields["file"].required = True
        for name in ("point1_x_px", "point1_y_px", "point2_x_px", "point2_y_px"):
            # Filled by a click on the image too (static/js/layout-image.js).
            self.fields[name].widget.attrs["data-image-point"] = name

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if not upload:
            return None
        # Refused before it is read into memory: the browser says its size.
        if upload.size is not None and upload.size > reading.MAX_BYTES:
            raise ValidationError(
                check_message(reading.ImageCheckError("too_large")), code="too_large"
            )
        data = upload.read(reading.MAX_BYTES + 1)
        try:
            info = reading.check_image(data)
            turned = reading.upright(data)
            if turned is not data:
                # Checked again: turning a photo re-encodes it.
                data, info = turned, reading.check_image(turned)
        except reading.ImageCheckError as exc:
            raise ValidationError(check_message(exc), code=exc.code) from exc
        self.new_data = data
        # Set before the model's checks run, so that the points are checked
        # against the new picture's size.
        self.instance.data = data
        self.instance.content_type = info.content_type
        self.instance.width_px = info.width_px
        self.instance.height_px = info.height_px
        self.instance.file_name = (upload.name or "")[:255]
        return upload

    def _post_clean(self) -> None:
        if "file" in self.errors or (
            self.instance.pk is None and self.new_data is None
        ):
            # No picture to check the placement against: say only what is
            # wrong with the file (or that one is needed).
            return
        super()._post_clean()
