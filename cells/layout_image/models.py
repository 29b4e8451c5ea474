"""The floor-plan image under a cell's plan. Found by Django through
``cells.models``."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from cells.exchange import COORDINATE_LIMIT_MM
from cells.layout_image.pdf_page import MAX_PDF_PAGES
from cells.layout_image.placement import Placement, Rectangle
from cells.layout_image.reading import CONTENT_TYPES, MAX_PIXELS
from cells.models.bounds import COORDINATE_VALIDATORS, on_the_plan
from cells.models.cell import Cell

# The real distance between the two points picked: across the whole plan at most.
MAX_DISTANCE_MM = 2 * COORDINATE_LIMIT_MM
DISTANCE_VALIDATORS = [
    MinValueValidator(1, message=_("Must be at least 1 mm.")),
    MaxValueValidator(
        MAX_DISTANCE_MM, message=_("At most 200,000 mm (200 m): across the plan.")
    ),
]
OPACITY_VALIDATORS = [
    MinValueValidator(10, message=_("At least 10 %%: fainter cannot be seen.")),
    MaxValueValidator(100, message=_("At most 100 %%.")),
]


class LayoutImage(models.Model):
    """A picture of the floor (a hall plan, a photo from above) drawn faded
    under a cell's plan, to draw the layout over. Only a background: no
    finding reads it. Placed by two points picked on it, the real distance
    between them and where the first lies on the plan; not rotated. A PDF
    sent (a hall's layout as the customer gives it) is kept as its first page
    drawn, placed the same way; ``pdf_page_count`` says it was one. The bytes
    are kept in the database, so every host serving the app can read them.
    A new upload replaces it."""

    cell = models.OneToOneField(
        Cell,
        on_delete=models.CASCADE,
        related_name="underlay_image",
        verbose_name=_("cell"),
    )
    data = models.BinaryField(_("image"), editable=False)
    content_type = models.CharField(
        _("content type"),
        max_length=20,
        choices=[(t, t) for t in CONTENT_TYPES.values()],
    )
    width_px = models.PositiveIntegerField(
        _("width (px)"), validators=[MinValueValidator(1)]
    )
    height_px = models.PositiveIntegerField(
        _("height (px)"), validators=[MinValueValidator(1)]
    )
    file_name = models.CharField(_("file name"), max_length=255, blank=True)
    # The pages of the PDF whose first page this picture is; None for a
    # picture uploaded as such.
    pdf_page_count = models.PositiveIntegerField(
        _("pages of the PDF"), null=True, blank=True, editable=False
    )
    # The two points picked on the image, in pixels from its top-left corner.
    point1_x_px = models.PositiveIntegerField(_("point 1, x (px)"))
    point1_y_px = models.PositiveIntegerField(_("point 1, y (px)"))
    point2_x_px = models.PositiveIntegerField(_("point 2, x (px)"))
    point2_y_px = models.PositiveIntegerField(_("point 2, y (px)"))
    distance_mm = models.PositiveIntegerField(
        _("distance between the points (mm)"), validators=DISTANCE_VALIDATORS
    )
    # Where point 1 lies on the plan.
    plan_x_mm = models.IntegerField(
        _("point 1 on the plan, x (mm)"), validators=COORDINATE_VALIDATORS
    )
    plan_y_mm = models.IntegerField(
        _("point 1 on the plan, y (mm)"), validators=COORDINATE_VALIDATORS
    )
    opacity_percent = models.PositiveSmallIntegerField(
        _("opacity (%)"), default=40, validators=OPACITY_VALIDATORS
    )
    shown = models.BooleanField(_("show under the plan"), default=True)
    in_pdf = models.BooleanField(_("show in the proposal PDF"), default=False)
    # When the bytes last changed: the address it is served from carries it,
    # so a browser's cached copy is never an older picture.
    uploaded_at = models.DateTimeField(_("uploaded at"))
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("layout image")
        verbose_name_plural = _("layout images")
        constraints = [
            models.CheckConstraint(
                condition=Q(content_type__in=list(CONTENT_TYPES.values())),
                name="layout_image_png_or_jpeg",
            ),
            models.CheckConstraint(
                condition=Q(width_px__gte=1, width_px__lte=MAX_PIXELS)
                & Q(height_px__gte=1, height_px__lte=MAX_PIXELS),
                name="layout_image_size",
            ),
            models.CheckConstraint(
                condition=Q(pdf_page_count__isnull=True)
                | Q(pdf_page_count__gte=1, pdf_page_count__lte=MAX_PDF_PAGES),
                name="layout_image_pdf_page_count",
            ),
            models.CheckConstraint(
                condition=Q(point1_x_px__lte=F("width_px"))
                & Q(point2_x_px__lte=F("width_px"))
                & Q(point1_y_px__lte=F("height_px"))
                & Q(point2_y_px__lte=F("height_px")),
                name="layout_image_points_on_the_image",
            ),
            models.CheckConstraint(
                condition=~Q(
                    point1_x_px=F("point2_x_px"), point1_y_px=F("point2_y_px")
                ),
                name="layout_image_points_distinct",
            ),
            models.CheckConstraint(
                condition=Q(distance_mm__gte=1, distance_mm__lte=MAX_DISTANCE_MM),
                name="layout_image_distance",
            ),
            models.CheckConstraint(
                condition=on_the_plan("plan_x_mm") & on_the_plan("plan_y_mm"),
                name="layout_image_point_on_the_plan",
            ),
            models.CheckConstraint(
                condition=Q(opacity_percent__gte=10, opacity_percent__lte=100),
                name="layout_image_opacity",
            ),
        ]

    def __str__(self) -> str:
        return self.file_name or str(_("layout image"))

    def placement(self) -> Placement:
        return Placement(
            width_px=self.width_px,
            height_px=self.height_px,
            point1_x_px=self.point1_x_px,
            point1_y_px=self.point1_y_px,
            point2_x_px=self.point2_x_px,
            point2_y_px=self.point2_y_px,
            distance_mm=self.distance_mm,
            plan_x_mm=self.plan_x_mm,
            plan_y_mm=self.plan_y_mm,
        )

    def rectangle(self) -> Rectangle:
        """The image's rectangle on the plan (mm)."""
        return self.placement().rectangle()

    def clean(self) -> None:
        errors: dict[str, list] = {}
        for axis, size in (("x", self.width_px), ("y", self.height_px)):
            for point in ("point1", "point2"):
                name = f"{point}_{axis}_px"
                value = getattr(self, name)
                if value is not None and size is not None and value > size:
                    errors.setdefault(name, []).append(
                        _("On the image: from 0 to %(size)s px.") % {"size": size}
                    )
        if errors:
            raise ValidationError(errors)
        points = (self.point1_x_px, self.point1_y_px)
        if points == (self.point2_x_px, self.point2_y_px):
            raise ValidationError(
                {"point2_x_px": _("Pick a second point away from the first.")}
            )
        if None in (self.distance_mm, self.plan_x_mm, self.plan_y_mm, *points):
            return  # the field's own error says what is missing
        if self.distance_mm > 0 and not self.rectangle().within(COORDINATE_LIMIT_MM):
            raise ValidationError(
                _(
                    "At this scale the image would reach more than 100 m from "
                    "the plan's origin: check the distance and the points."
                )
            )
