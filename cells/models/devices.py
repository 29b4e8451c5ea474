"""The safety devices of a cell, each with its safety data and, for sensing
devices, its place on the plan."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cells.exchange import BEAM_COUNT_LIMIT, MAX_DEVICES
from cells.models.bounds import (
    BEAM_COUNT_VALIDATORS,
    COORDINATE_VALIDATORS,
    DETECTION_UPPER_LIMIT_MM,
    FIELD_HEIGHT_LIMIT_MM,
    LENGTH_VALIDATORS,
    TIME_VALIDATORS,
    lengths,
    on_the_plan,
    times,
    within,
)
from cells.models.cell import Cell
from cells.models.layout import Opening, cell_full_message

# A sanity bound on the ISO 13855:2024 figures typed in, not a figure of the
# standard (the calculators keep the same bound).
SUPPLEMENT_LIMIT_MM = 2_000
SUPPLEMENT_LIMIT = MaxValueValidator(
    SUPPLEMENT_LIMIT_MM, message=_("At most 2,000 mm: check the figure.")
)


class DeviceKind(models.TextChoices):
    LIGHT_CURTAIN = "light_curtain", _("Safety light curtain")
    MULTIBEAM = "multibeam", _("Multi-beam light grid")
    SAFETY_MAT = "safety_mat", _("Pressure-sensitive safety mat")
    LASER_SCANNER = "laser_scanner", _("Safety laser scanner")
    INTERLOCKED_DOOR = "interlocked_door", _("Interlocked door")
    EMERGENCY_STOP = "emergency_stop", _("Emergency stop")
    ENABLING_DEVICE = "enabling_device", _("Enabling device")
    SAFETY_CONTROLLER = "safety_controller", _("Safety controller")
    OTHER = "other", _("Other safety device")


class PerformanceLevel(models.TextChoices):
    """ISO 13849-1 performance levels, a (lowest) to e (highest)."""

    A = "a", "PL a"
    B = "b", "PL b"
    C = "c", "PL c"
    D = "d", "PL d"
    E = "e", "PL e"


class Device(models.Model):
    """A safety device in the cell: what guards an opening or stops the robot."""

    cell = models.ForeignKey(
        Cell, on_delete=models.CASCADE, related_name="devices", verbose_name=_("cell")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=DeviceKind.choices)
    label = models.CharField(_("label"), max_length=60)
    opening = models.ForeignKey(
        Opening,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="devices",
        verbose_name=_("guarded opening"),
    )
    claimed_pl = models.CharField(
        _("performance level claimed"),
        max_length=1,
        choices=PerformanceLevel.choices,
        blank=True,
        help_text=_(
            "The PL the maker states for the device, if it is a safety function."
        ),
    )
    response_time_ms = models.PositiveIntegerField(
        _("response time (ms)"), null=True, blank=True, validators=TIME_VALIDATORS
    )
    iec61496_type = models.PositiveSmallIntegerField(
        _("IEC 61496 type"),
        null=True,
        blank=True,
        choices=[(2, _("Type 2")), (3, _("Type 3")), (4, _("Type 4"))],
        help_text=_("Safety laser scanners are Type 3 (IEC 61496-3)."),
    )
    existing = models.BooleanField(
        _("existing equipment"),
        default=False,
        help_text=_(
            "The customer already has it in place: it is kept in the plan and "
            "checked like any device, but not bought."
        ),
    )
    guard_locking = models.BooleanField(
        _("guard locking"),
        default=False,
        help_text=_(
            "Interlocked door: the door stays locked until the hazard has stopped "
            "(ISO 14119)."
        ),
    )
    kcs_certified = models.BooleanField(
        _("KCs safety certified"),
        null=True,
        blank=True,
        help_text=_(
            "Korea: protective devices need KCs safety certification (OSH Act Art. 84)."
        ),
    )
    kcs_certificate_no = models.CharField(
        _("KCs certificate number"),
        max_length=40,
        blank=True,
        help_text=_(
            "The number of the device's KCs safety certificate (Korea, OSH Act "
            "Art. 84)."
        ),
    )
    detection_capability_mm = models.PositiveIntegerField(
        _("detection capability (mm)"),
        null=True,
        blank=True,
        validators=LENGTH_VALIDATORS,
    )
    beam_count = models.PositiveSmallIntegerField(
        _("number of beams"), null=True, blank=True, validators=BEAM_COUNT_VALIDATORS
    )
    protective_field_mm = models.PositiveIntegerField(
        _("protective field radius (mm)"),
        null=True,
        blank=True,
        validators=LENGTH_VALIDATORS,
        help_text=_(
            "Laser scanner: how far its protective field reaches round the scanner, "
            "as configured. It is drawn on the plan and checked against every way "
            "a person can walk up to the hazard zone."
        ),
    )
    # Where the device is on the plan; what the points mean depends on the kind
    # (see PLACEMENT_FIELDS and clean()).
    x1_mm = models.IntegerField(
        _("x1 (mm)"),
        null=True,
        blank=True,
        validators=COORDINATE_VALIDATORS,
        help_text=_(
            "Light curtain or grid: one end of its detection line. Safety mat: one "
            "corner. Laser scanner: its position."
        ),
    )
    y1_mm = models.IntegerField(
        _("y1 (mm)"), null=True, blank=True, validators=COORDINATE_VALIDATORS
    )
    x2_mm = models.IntegerField(
        _("x2 (mm)"),
        null=True,
        blank=True,
        validators=COORDINATE_VALIDATORS,
        help_text=_(
            "Light curtain or grid: the other end of its detection line. Safety "
            "mat: the opposite corner. Empty for a laser scanner."
        ),
    )
    y2_mm = models.IntegerField(
        _("y2 (mm)"), null=True, blank=True, validators=COORDINATE_VALIDATORS
    )
    detection_lower_mm = models.PositiveIntegerField(
        _("lowest beam (mm)"),
        null=True,
        blank=True,
        validators=LENGTH_VALIDATORS,
        help_text=_(
            "Light curtain or grid: the height of its lowest beam above the floor."
        ),
    )
    detection_upper_mm = models.PositiveIntegerField(
        _("highest beam (mm)"),
        null=True,
        blank=True,
        help_text=_(
            "Light curtain or grid: the height of its highest beam above the floor."
        ),
    )
    # The organisation's library entry the device was chosen from; choosing
    # it copied the entry's safety data into the fields above.
    library_device = models.ForeignKey(
        "compliance.LibraryDevice",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="cell_devices",
        verbose_name=_("library device"),
    )
    # ISO 13855:2024 (S = K × T + D_DS + Z): the device's supplement Z, and
    # for a light curtain the reach-over distance D_DO from the 2024 table as
    # the engineer read it (the reference data do not hold that table).
    supplement_z_mm = models.PositiveIntegerField(
        _("supplement Z, ISO 13855:2024 (mm)"),
        null=True,
        blank=True,
        validators=[SUPPLEMENT_LIMIT],
        help_text=_(
            "The device's supplement for its measurement and reflection errors, "
            "from its data sheet; 0 if it gives none. Needed for distances by "
            "ISO 13855:2024."
        ),
    )
    reach_over_ddo_mm = models.PositiveIntegerField(
        _("reach-over distance D_DO, ISO 13855:2024 (mm)"),
        null=True,
        blank=True,
        validators=[SUPPLEMENT_LIMIT],
        help_text=_(
            "Light curtain: D_DO from the ISO 13855:2024 table for the hazard's "
            "height and the curtain's top edge, from your copy of the standard."
        ),
    )
    field_height_mm = models.PositiveIntegerField(
        _("protective field height (mm)"),
        null=True,
        blank=True,
        help_text=_(
            "Laser scanner: the height of its protective field above the floor "
            "(at most 1000 mm, ISO 13855)."
        ),
    )

    # Raised by every save of the row: a save that names the version it read
    # is refused when another saved since (``cells.services``, issue 28).
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

    class Meta:
        ordering = ["id"]
        verbose_name = _("safety device")
        verbose_name_plural = _("safety devices")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=DeviceKind.values), name="device_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(iec61496_type__isnull=True)
                | Q(iec61496_type__in=[2, 3, 4]),
                name="device_iec61496_type_valid",
            ),
            models.CheckConstraint(
                condition=on_the_plan("x1_mm")
                & on_the_plan("y1_mm")
                & on_the_plan("x2_mm")
                & on_the_plan("y2_mm"),
                name="device_placement_on_the_plan",
            ),
            models.CheckConstraint(
                condition=Q(detection_lower_mm__isnull=True)
                | Q(detection_upper_mm__isnull=True)
                | Q(detection_lower_mm__lt=models.F("detection_upper_mm")),
                name="device_detection_lower_below_upper",
            ),
            models.CheckConstraint(
                condition=Q(detection_upper_mm__isnull=True)
                | Q(detection_upper_mm__lte=DETECTION_UPPER_LIMIT_MM),
                name="device_detection_upper_limit",
            ),
            models.CheckConstraint(
                condition=Q(field_height_mm__isnull=True)
                | Q(field_height_mm__lte=FIELD_HEIGHT_LIMIT_MM),
                name="device_field_height_limit",
            ),
            models.CheckConstraint(
                condition=(
                    Q(supplement_z_mm__isnull=True)
                    | Q(supplement_z_mm__lte=SUPPLEMENT_LIMIT_MM)
                )
                & (
                    Q(reach_over_ddo_mm__isnull=True)
                    | Q(reach_over_ddo_mm__lte=SUPPLEMENT_LIMIT_MM)
                ),
                name="device_2024_figures_bounded",
            ),
            models.CheckConstraint(
                condition=times("response_time_ms")
                & lengths(
                    "detection_capability_mm",
                    "protective_field_mm",
                    "detection_lower_mm",
                )
                & within("beam_count", 0, BEAM_COUNT_LIMIT),
                name="device_figures_bounded",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    def clean(self) -> None:
        if (
            self.cell_id is not None
            and Device.objects.filter(cell_id=self.cell_id).exclude(pk=self.pk).count()
            >= MAX_DEVICES
        ):
            raise ValidationError(
                {"cell": cell_full_message(_("safety devices"), MAX_DEVICES)}
            )
        if (
            self.opening_id
            and self.cell_id
            and self.opening.segment.cell_id != self.cell_id
        ):
            raise ValidationError(
                {"opening": _("The opening belongs to another cell.")}
            )
        if (
            self.pk
            and self.cell_id
            and self.measures.exclude(
                hazard__revision__assessment__cell_id=self.cell_id
            ).exists()
        ):
            raise ValidationError(
                {
                    "cell": _(
                        "A risk-reduction measure names this device: it stays in its cell."
                    )
                }
            )
        errors = {**self._placement_errors(), **self._height_errors()}
        if errors:
            raise ValidationError(errors)

    def _placement_errors(self) -> dict[str, str]:
        """What is wrong with the device's points on the plan for its kind."""
        given = {name: getattr(self, name) is not None for name in PLACEMENT_FIELDS}
        kind = self.get_kind_display().lower()
        errors: dict[str, str] = {}
        if self.kind in LINE_KINDS or self.kind == DeviceKind.SAFETY_MAT:
            if any(given.values()) and not all(given.values()):
                what = (
                    _("both ends of its detection line")
                    if self.kind in LINE_KINDS
                    else _("two opposite corners")
                )
                for name, present in given.items():
                    if not present:
                        errors[name] = _(
                            "Give %(field)s too: a %(kind)s is placed by %(what)s "
                            "(x1, y1 and x2, y2), or leave all four empty."
                        ) % {"field": PLACEMENT_NAMES[name], "kind": kind, "what": what}
            elif all(given.values()):
                dx, dy = self.x2_mm - self.x1_mm, self.y2_mm - self.y1_mm
                if self.kind in LINE_KINDS and dx == dy == 0:
                    errors["x2_mm"] = _(
                        "The two ends of the detection line are the same point: "
                        "x2, y2 must differ from x1, y1."
                    )
                elif self.kind == DeviceKind.SAFETY_MAT and dx == 0:
                    errors["x2_mm"] = _("The mat has no width: x2 must differ from x1.")
                elif self.kind == DeviceKind.SAFETY_MAT and dy == 0:
                    errors["y2_mm"] = _("The mat has no depth: y2 must differ from y1.")
        elif self.kind == DeviceKind.LASER_SCANNER:
            if given["x1_mm"] != given["y1_mm"]:
                missing = "y1_mm" if given["x1_mm"] else "x1_mm"
                errors[missing] = _(
                    "Give %(field)s too: a laser scanner is placed by its position "
                    "(x1, y1), or leave both empty."
                ) % {"field": PLACEMENT_NAMES[missing]}
            for name in ("x2_mm", "y2_mm"):
                if given[name]:
                    errors[name] = _(
                        "Leave %(field)s empty: a laser scanner is placed by its "
                        "position (x1, y1) alone."
                    ) % {"field": PLACEMENT_NAMES[name]}
        else:
            for name, present in given.items():
                if present:
                    errors[name] = _(
                        "Leave %(field)s empty: only light curtains, grids, mats and "
                        "laser scanners are placed on the plan."
                    ) % {"field": PLACEMENT_NAMES[name]}
        return errors

    def _height_errors(self) -> dict[str, str]:
        """What is wrong with the heights of the beams or the protective field."""
        errors: dict[str, str] = {}
        lower, upper = self.detection_lower_mm, self.detection_upper_mm
        if upper is not None and upper > DETECTION_UPPER_LIMIT_MM:
            errors["detection_upper_mm"] = _(
                "The highest beam can be at most %(limit)s mm above the floor."
            ) % {"limit": f"{DETECTION_UPPER_LIMIT_MM:,}"}
        if lower is not None and upper is not None and lower >= upper:
            errors["detection_lower_mm"] = _(
                "The lowest beam (%(lower)s mm) must be below the highest beam "
                "(%(upper)s mm)."
            ) % {"lower": lower, "upper": upper}
        if self.field_height_mm is not None and (
            self.field_height_mm > FIELD_HEIGHT_LIMIT_MM
        ):
            errors["field_height_mm"] = _(
                "The protective field height can be at most %(limit)s mm above the "
                "floor: ISO 13855:2010 (6.3) covers horizontal fields up to there."
            ) % {"limit": f"{FIELD_HEIGHT_LIMIT_MM:,}"}
        return errors


LINE_KINDS = frozenset({DeviceKind.LIGHT_CURTAIN, DeviceKind.MULTIBEAM})
PLACEMENT_FIELDS = ("x1_mm", "y1_mm", "x2_mm", "y2_mm")
PLACEMENT_NAMES = {"x1_mm": "x1", "y1_mm": "y1", "x2_mm": "x2", "y2_mm": "y2"}
