"""The perimeter of a cell's plan: guard segments, the openings in them, and
the operator stations."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cells import geometry
from cells.exchange import MAX_GUARD_SEGMENTS, MAX_OPENINGS, MAX_OPERATOR_STATIONS
from cells.models.bounds import (
    COORDINATE_VALIDATORS,
    LENGTH_VALIDATORS,
    POSITIVE_LENGTH_VALIDATORS,
    lengths,
    on_the_plan,
)
from cells.models.cell import Cell
from compliance.calculators.ts15066_tables import BodyRegion

BODY_REGION_IDS = frozenset(region.value for region in BodyRegion)


def cell_full_message(kind: str, limit: int) -> str:
    return _("A cell holds at most %(limit)s %(kind)s.") % {
        "limit": limit,
        "kind": kind,
    }


class GuardKind(models.TextChoices):
    FENCE = "fence", _("Fence")
    WALL = "wall", _("Wall")
    MACHINE_BODY = "machine_body", _("Machine body")


class GuardSegment(models.Model):
    """A straight piece of the cell's perimeter guard, from start to end point."""

    cell = models.ForeignKey(
        Cell, on_delete=models.CASCADE, related_name="segments", verbose_name=_("cell")
    )
    label = models.CharField(_("label"), max_length=30, blank=True)
    start_x_mm = models.IntegerField(
        _("start x (mm)"), validators=COORDINATE_VALIDATORS
    )
    start_y_mm = models.IntegerField(
        _("start y (mm)"), validators=COORDINATE_VALIDATORS
    )
    end_x_mm = models.IntegerField(_("end x (mm)"), validators=COORDINATE_VALIDATORS)
    end_y_mm = models.IntegerField(_("end y (mm)"), validators=COORDINATE_VALIDATORS)
    height_mm = models.PositiveIntegerField(
        _("height (mm)"), validators=LENGTH_VALIDATORS
    )
    bottom_gap_mm = models.PositiveIntegerField(
        _("gap under the guard (mm)"),
        default=0,
        validators=LENGTH_VALIDATORS,
        help_text=_(
            "The gap between the floor and the guard's lower edge; 0 if the guard "
            "stands on the floor."
        ),
    )
    kind = models.CharField(
        _("kind"), max_length=20, choices=GuardKind.choices, default=GuardKind.FENCE
    )
    mesh_opening_mm = models.PositiveIntegerField(
        _("mesh opening (mm)"),
        null=True,
        blank=True,
        validators=POSITIVE_LENGTH_VALIDATORS,
        help_text=_(
            "Size of the fence mesh's openings (square side), for ISO 13857 Table 4."
        ),
    )

    # Raised by every save of the row: a save that names the version it read
    # is refused when another saved since (``cells.services``, issue 28).
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

    class Meta:
        ordering = ["id"]
        verbose_name = _("guard segment")
        verbose_name_plural = _("guard segments")
        constraints = [
            models.CheckConstraint(
                condition=Q(height_mm__gt=0), name="segment_height_positive"
            ),
            models.CheckConstraint(
                condition=~(
                    Q(start_x_mm=models.F("end_x_mm"))
                    & Q(start_y_mm=models.F("end_y_mm"))
                ),
                name="segment_nonzero_length",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=GuardKind.values), name="segment_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(bottom_gap_mm__lt=models.F("height_mm")),
                name="segment_bottom_gap_below_height",
            ),
            models.CheckConstraint(
                condition=on_the_plan("start_x_mm")
                & on_the_plan("start_y_mm")
                & on_the_plan("end_x_mm")
                & on_the_plan("end_y_mm")
                & lengths("height_mm", "bottom_gap_mm", "mesh_opening_mm")
                & (Q(mesh_opening_mm__isnull=True) | Q(mesh_opening_mm__gt=0)),
                name="segment_figures_bounded",
            ),
        ]

    def __str__(self) -> str:
        # Its name on the plan once its layout is loaded (``cells.selectors.
        # name_layout``: S2 when unlabelled); read alone, its label or id.
        return self.__dict__.get("plan_label") or self.label or f"#{self.pk}"

    @property
    def start(self) -> geometry.Point:
        return (self.start_x_mm, self.start_y_mm)

    @property
    def end(self) -> geometry.Point:
        return (self.end_x_mm, self.end_y_mm)

    @property
    def length_mm(self) -> float:
        return geometry.distance_mm(self.start, self.end)

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if (
            self.cell_id is not None
            and GuardSegment.objects.filter(cell_id=self.cell_id)
            .exclude(pk=self.pk)
            .count()
            >= MAX_GUARD_SEGMENTS
        ):
            errors["cell"] = cell_full_message(_("guard segments"), MAX_GUARD_SEGMENTS)
        coords = (self.start_x_mm, self.start_y_mm, self.end_x_mm, self.end_y_mm)
        if None not in coords and self.length_mm == 0:
            errors["end_x_mm"] = _("The segment has zero length: its end is its start.")
        if self.height_mm is not None and self.height_mm <= 0:
            errors["height_mm"] = _("The height must be greater than zero.")
        elif (
            self.height_mm is not None
            and self.bottom_gap_mm is not None
            and self.bottom_gap_mm >= self.height_mm
        ):
            errors["bottom_gap_mm"] = _(
                "The gap under the guard (%(gap)s mm) must be below the guard's "
                "height (%(height)s mm)."
            ) % {"gap": self.bottom_gap_mm, "height": self.height_mm}
        if self.pk and not errors:
            # Shortening or lowering a guard must not leave its openings hanging.
            for opening in self.openings.all():
                if opening.offset_mm + opening.width_mm > self.length_mm:
                    errors["end_x_mm"] = _(
                        "Opening %(opening)s would no longer fit on this segment."
                    ) % {"opening": opening}
                if (
                    self.height_mm is not None
                    and opening.upper_edge_mm > self.height_mm
                ):
                    errors["height_mm"] = _(
                        "Opening %(opening)s reaches %(upper)s mm, above this height."
                    ) % {"opening": opening, "upper": opening.upper_edge_mm}
        # As a device (Device.clean); the database refuses it too once the
        # measure is signed (compliance migration 0013).
        if (
            self.pk
            and self.cell_id
            and self.measures.exclude(
                hazard__revision__assessment__cell_id=self.cell_id
            ).exists()
        ):
            errors["cell"] = _(
                "A risk-reduction measure names this guard: it stays in its cell."
            )
        if errors:
            raise ValidationError(errors)


class OpeningPurpose(models.TextChoices):
    MATERIAL_ENTRY = "material_entry", _("Material entry")
    OPERATOR_ACCESS = "operator_access", _("Operator access")
    MAINTENANCE_DOOR = "maintenance_door", _("Maintenance door")


class Opening(models.Model):
    """A gap in a guard segment, measured along it from the segment's start."""

    segment = models.ForeignKey(
        GuardSegment,
        on_delete=models.CASCADE,
        related_name="openings",
        verbose_name=_("guard segment"),
    )
    label = models.CharField(_("label"), max_length=30, blank=True)
    offset_mm = models.PositiveIntegerField(
        _("offset along the segment (mm)"), validators=LENGTH_VALIDATORS
    )
    width_mm = models.PositiveIntegerField(
        _("width (mm)"), validators=LENGTH_VALIDATORS
    )
    lower_edge_mm = models.PositiveIntegerField(
        _("lower edge height (mm)"), default=0, validators=LENGTH_VALIDATORS
    )
    upper_edge_mm = models.PositiveIntegerField(
        _("upper edge height (mm)"), validators=LENGTH_VALIDATORS
    )
    purpose = models.CharField(
        _("purpose"),
        max_length=20,
        choices=OpeningPurpose.choices,
        default=OpeningPurpose.MATERIAL_ENTRY,
    )

    # Raised by every save of the row: a save that names the version it read
    # is refused when another saved since (``cells.services``, issue 28).
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

    class Meta:
        ordering = ["segment_id", "offset_mm", "id"]
        verbose_name = _("opening")
        verbose_name_plural = _("openings")
        constraints = [
            models.CheckConstraint(
                condition=Q(width_mm__gt=0), name="opening_width_positive"
            ),
            models.CheckConstraint(
                condition=Q(upper_edge_mm__gt=models.F("lower_edge_mm")),
                name="opening_upper_above_lower",
            ),
            models.CheckConstraint(
                condition=Q(purpose__in=OpeningPurpose.values),
                name="opening_purpose_valid",
            ),
            models.CheckConstraint(
                condition=lengths(
                    "offset_mm", "width_mm", "lower_edge_mm", "upper_edge_mm"
                ),
                name="opening_figures_bounded",
            ),
            # On PostgreSQL, migration 0013 adds an exclusion constraint too:
            # no two openings of one segment overlap, whoever writes them.
        ]

    def __str__(self) -> str:
        # Its name on the plan once its layout is loaded (O3 when unlabelled).
        if self.__dict__.get("plan_label"):
            return self.plan_label
        if self.label:
            return self.label
        # Unsaved (in an import): no number yet.
        return f"#{self.pk}" if self.pk is not None else str(_("without a label"))

    def clean(self) -> None:
        errors = self.shape_errors()
        if self.segment_id is None or errors or None in (self.offset_mm, self.width_mm):
            if errors:
                raise ValidationError(errors)
            return
        segment = self.segment
        if (
            Opening.objects.filter(segment__cell_id=segment.cell_id)
            .exclude(pk=self.pk)
            .count()
            >= MAX_OPENINGS
        ):
            errors["segment"] = cell_full_message(_("openings"), MAX_OPENINGS)
        errors.update(
            self.placement_errors(segment, segment.openings.exclude(pk=self.pk))
        )
        if errors:
            raise ValidationError(errors)

    def shape_errors(self) -> dict[str, str]:
        """What is wrong with the opening by itself."""
        errors: dict[str, str] = {}
        if self.width_mm is not None and self.width_mm <= 0:
            errors["width_mm"] = _("The width must be greater than zero.")
        if (
            self.upper_edge_mm is not None
            and self.lower_edge_mm is not None
            and self.upper_edge_mm <= self.lower_edge_mm
        ):
            errors["upper_edge_mm"] = _("The upper edge must be above the lower edge.")
        return errors

    def placement_errors(
        self, segment: GuardSegment, others: Iterable[Opening]
    ) -> dict[str, str]:
        """What is wrong with the opening on ``segment`` beside ``others``
        (openings of that segment): whether it fits, and the first it overlaps.

        The import passes the opening it follows along the segment; the
        services call this again under a lock on the segment."""
        errors: dict[str, str] = {}
        if self.offset_mm + self.width_mm > segment.length_mm:
            errors["width_mm"] = _(
                "The opening runs to %(end)s mm but segment %(segment)s is only "
                "%(length)s mm long."
            ) % {
                "end": self.offset_mm + self.width_mm,
                "segment": segment,
                "length": round(segment.length_mm),
            }
        elif self.upper_edge_mm is not None and self.upper_edge_mm > segment.height_mm:
            errors["upper_edge_mm"] = _(
                "The upper edge is above the guard, which is %(height)s mm high."
            ) % {"height": segment.height_mm}
        else:
            mine = (self.offset_mm, self.offset_mm + self.width_mm)
            for other in others:
                theirs = (other.offset_mm, other.offset_mm + other.width_mm)
                if geometry.overlapping_intervals([mine, theirs]):
                    errors["offset_mm"] = _(
                        "This opening overlaps opening %(other)s (%(start)s–%(end)s mm)."
                    ) % {"other": other, "start": theirs[0], "end": theirs[1]}
                    break
        return errors


class OperatorStation(models.Model):
    """Where a person stands to work at the cell (loading, inspection, HMI)."""

    cell = models.ForeignKey(
        Cell, on_delete=models.CASCADE, related_name="stations", verbose_name=_("cell")
    )
    label = models.CharField(_("label"), max_length=60)
    x_mm = models.IntegerField(_("x (mm)"), validators=COORDINATE_VALIDATORS)
    y_mm = models.IntegerField(_("y (mm)"), validators=COORDINATE_VALIDATORS)
    # What a safety engineer records of the person there (issue 32): the
    # ISO/TS 15066 body regions a robot moving near the station can touch,
    # and how far round it contact can happen. A robot program's segments
    # are judged against them; with no regions, they are not judged.
    exposed_regions = models.JSONField(
        _("body regions exposed"),
        default=list,
        blank=True,
        help_text=_(
            "The ISO/TS 15066 body regions the robot can touch at this station "
            "(chest, hands and fingers...)."
        ),
    )
    contact_reach_mm = models.PositiveIntegerField(
        _("contact reach (mm)"),
        null=True,
        blank=True,
        validators=POSITIVE_LENGTH_VALIDATORS,
        help_text=_(
            "How far round the station the robot can touch the person. Empty: "
            "the arm's reach the standard gives."
        ),
    )

    # Raised by every save of the row: a save that names the version it read
    # is refused when another saved since (``cells.services``, issue 28).
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

    class Meta:
        ordering = ["id"]
        verbose_name = _("operator station")
        verbose_name_plural = _("operator stations")
        constraints = [
            models.CheckConstraint(
                condition=on_the_plan("x_mm") & on_the_plan("y_mm"),
                name="station_on_the_plan",
            ),
            models.CheckConstraint(
                condition=lengths("contact_reach_mm")
                & (Q(contact_reach_mm__isnull=True) | Q(contact_reach_mm__gt=0)),
                name="station_contact_reach_bounded",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    def clean(self) -> None:
        regions = self.exposed_regions
        if not isinstance(regions, list) or any(
            not isinstance(r, str) or r not in BODY_REGION_IDS for r in regions
        ):
            raise ValidationError(
                {"exposed_regions": _("Choose body regions of ISO/TS 15066.")}
            )
        if len(set(regions)) != len(regions):
            self.exposed_regions = list(dict.fromkeys(regions))
        if (
            self.cell_id is not None
            and OperatorStation.objects.filter(cell_id=self.cell_id)
            .exclude(pk=self.pk)
            .count()
            >= MAX_OPERATOR_STATIONS
        ):
            raise ValidationError(
                {
                    "cell": cell_full_message(
                        _("operator stations"), MAX_OPERATOR_STATIONS
                    )
                }
            )
