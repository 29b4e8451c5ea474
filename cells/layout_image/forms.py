"""The floor-plan image's forms: the file (once, or again to replace it) and
its placement, which a later save can change without sending the file; and
the file alone, to draw a PDF's first page for the page to pick points on."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _

from cells.layout_image import pdf_page, reading
from cells.layout_image.models import LayoutImage

# Why a file is refused, by ``reading.ImageCheckError.code``.
CHECK_ERRORS = {
    "empty": _("The file is empty."),
    "too_large": _(
        "The file is larger than %(limit_mb)s MB: save the plan smaller, as a "
        "JPEG, or only its page as a PDF."
    ),
    "not_an_image": _(
        "This is not a PDF, PNG or JPEG file (the file's content is checked, "
        "not its name). Save the plan as PDF, PNG or JPEG and try again."
    ),
    "too_many_pixels": _(
        "The image has more than %(limit_mp)s million pixels: scale it down "
        "and try again."
    ),
    "corrupt": _(
        "The image cannot be read: the file is damaged or incomplete. Save it "
        "again and try again."
    ),
    "pdf_too_many_pages": _(
        "The PDF has %(pages)s pages, more than the %(limit_pages)s accepted: "
        "save the page with the plan as a PDF of its own and try again."
    ),
    "pdf_encrypted": _(
        "The PDF is protected by a password: save it without the password "
        "and try again."
    ),
    "pdf_page_size": _(
        "The PDF's first page is %(width_mm)s × %(height_mm)s mm: a page from "
        "%(min_mm)s mm to %(max_mm)s mm a side is accepted."
    ),
    "pdf_corrupt": _(
        "The PDF cannot be read: the file is damaged or incomplete. Save it "
        "again and try again."
    ),
    "pdf_not_drawn": _(
        "The PDF's first page could not be drawn within %(limit_s)s seconds "
        "and %(limit_memory_mb)s MB: it is damaged or too complex. Save the "
        "page with the plan as PNG or JPEG and try again."
    ),
}


def check_message(exc: reading.ImageCheckError) -> str:
    """The refusal in the reader's language."""
    figures = {
        "limit_mb": reading.MAX_BYTES // (1024 * 1024),
        "limit_mp": reading.MAX_PIXELS // 1_000_000,
        "limit_pages": pdf_page.MAX_PDF_PAGES,
        "min_mm": pdf_page.MIN_PAGE_MM,
        "max_mm": pdf_page.MAX_PAGE_MM,
        "limit_s": pdf_page.TIME_LIMIT_S,
        "limit_memory_mb": pdf_page.MEMORY_LIMIT_MB,
        "pages": "?",
        "width_mm": "?",
        "height_mm": "?",
    }
    figures |= exc.params
    return str(CHECK_ERRORS.get(exc.code, CHECK_ERRORS["corrupt"])) % figures


@dataclass(frozen=True)
class CheckedFile:
    """An uploaded file, checked: the picture to keep (a PDF's first page
    drawn), what it is, and the PDF's page count when it was one."""

    data: bytes
    info: reading.ImageInfo
    pdf_page_count: int | None


def check_file(upload: UploadedFile) -> CheckedFile:
    """A PNG, a JPEG (turned upright) or a PDF (its first page drawn), or
    ValidationError saying why not."""
    # Refused before it is read into memory: the browser says its size.
    if upload.size is not None and upload.size > reading.MAX_BYTES:
        exc = reading.ImageCheckError("too_large")
        raise ValidationError(check_message(exc), code=exc.code)
    data = upload.read(reading.MAX_BYTES + 1)
    pages = None
    try:
        if len(data) > reading.MAX_BYTES:
            raise reading.ImageCheckError("too_large")
        if pdf_page.is_pdf(data):
            drawn = pdf_page.first_page(data)
            data, pages = drawn.data, drawn.page_count
        info = reading.check_image(data)
        turned = reading.upright(data)
        if turned is not data:
            # Checked again: turning a photo re-encodes it.
            data, info = turned, reading.check_image(turned)
    except reading.ImageCheckError as exc:
        raise ValidationError(check_message(exc), code=exc.code) from exc
    return CheckedFile(data=data, info=info, pdf_page_count=pages)


# What the file input offers to choose (its content decides, not this).
ACCEPT = ",".join([*reading.CONTENT_TYPES.values(), "application/pdf"])
FILE_LABEL = _("Image or PDF file")


class LayoutImageForm(forms.ModelForm):
    field_order = ["file"]  # first, then the placement
    file = forms.FileField(
        label=FILE_LABEL,
        required=False,
        help_text=_(
            "A PNG or JPEG of at most 5 MB and 25 million pixels, or a PDF of "
            "at most 5 MB and 100 pages whose first page is drawn as the "
            "picture. Sending one replaces the image; leave it empty to change "
            "only the placement."
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
        self.fields["file"].widget.attrs["accept"] = ACCEPT
        if self.instance.pk is None:
            self.fields["file"].required = True
        for name in ("point1_x_px", "point1_y_px", "point2_x_px", "point2_y_px"):
            # Filled by a click on the image too (static/js/layout-image.js).
            self.fields[name].widget.attrs["data-image-point"] = name

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if not upload:
            return None
        checked = check_file(upload)
        self.new_data = checked.data
        # Set before the model's checks run, so that the points are checked
        # against the new picture's size.
        self.instance.data = checked.data
        self.instance.content_type = checked.info.content_type
        self.instance.width_px = checked.info.width_px
        self.instance.height_px = checked.info.height_px
        self.instance.file_name = (upload.name or "")[:255]
        self.instance.pdf_page_count = checked.pdf_page_count
        return upload

    def _post_clean(self) -> None:
        if "file" in self.errors or (
            self.instance.pk is None and self.new_data is None
        ):
            # No picture to check the placement against: say only what is
            # wrong with the file (or that one is needed).
            return
        super()._post_clean()


class LayoutImagePreviewForm(forms.Form):
    """The file alone, checked as the upload is: the page shows a PDF's first
    page drawn, to pick the two points on before the upload."""

    file = forms.FileField(label=FILE_LABEL)

    def clean_file(self) -> CheckedFile:
        return check_file(self.cleaned_data["file"])
