"""Organisations and their people; projects, robot cells and their 2D layouts.

All lengths are millimetres in the cell's own plan coordinates (x to the right,
y away from the viewer), all heights are above the floor.
"""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import (
    MaxLengthValidator,
    MaxValueValidator,
    MinValueValidator,
)
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils.translation import gettext_lazy as _

from cells import geometry
from cells.exchange import COORDINATE_LIMIT_MM

# A coordinate or length beyond COORDINATE_LIMIT_MM (100 m) is a typo, not a
# cell: refusing it keeps 10^300 out of the geometry and out of the database.
_OFF_THE_PLAN = _(
    "Keep within 100 m of the plan's origin: between -100,000 and 100,000 mm."
)
COORDINATE_VALIDATORS = [
    MinValueValidator(-COORDINATE_LIMIT_MM, message=_OFF_THE_PLAN),
    MaxValueValidator(COORDINATE_LIMIT_MM, message=_OFF_THE_PLAN),
]
LENGTH_VALIDATORS = [
    MaxValueValidator(
        COORDINATE_LIMIT_MM,
        message=_("At most 100,000 mm (100 m): more than any cell."),
    )
]
# The highest beam of a light curtain or grid: a bound against typing errors,
# not a figure from a standard.
DETECTION_UPPER_LIMIT_MM = 3000
# ISO 13855:2010, 6.3: a horizontal detection zone is at most 1000 mm high.
FIELD_HEIGHT_LIMIT_MM = 1000


def _on_the_plan(name: str) -> Q:
    """CHECK condition: an optional coordinate is empty or within the limit."""
    return Q(**{f"{name}__isnull": True}) | Q(
        **{f"{name}__gte": -COORDINATE_LIMIT_MM, f"{name}__lte": COORDINATE_LIMIT_MM}
    )


class Organisation(models.Model):
    """A company using the planner (an integrator, a consultancy). Owns all data."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    requires_two_person_signoff = models.BooleanField(
        _("two-person sign-off"),
        default=False,
        help_text=_(
            "A risk assessment must be approved by a second person before a safety "
            "engineer signs it."
        ),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("organisation")
        verbose_name_plural = _("organisations")

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    SOLUTION_ARCHITECT = "solution_architect", _("Solution architect")
    SAFETY_ENGINEER = "safety_engineer", _("Safety engineer")
    VIEWER = "viewer", _("Viewer")


EDITOR_ROLES = frozenset({Role.SOLUTION_ARCHITECT, Role.SAFETY_ENGINEER})


class Membership(models.Model):
    """A person's role in one organisation. Viewers read; the other roles edit."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("user"),
    )
    organisation = models.ForeignKey(
        Organisation,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("organisation"),
    )
    role = models.CharField(_("role"), max_length=32, choices=Role.choices)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "organisation"], name="membership_unique_user_org"
            ),
            models.CheckConstraint(
                condition=Q(role__in=Role.values), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.organisation} ({self.get_role_display()})"

    @property
    def can_edit(self) -> bool:
        return self.role in EDITOR_ROLES


class Country(models.TextChoices):
    """Where the cell will stand; selects the jurisdiction's rules."""

    KR = "KR", _("Korea, Republic of")
    JP = "JP", _("Japan")
    CN = "CN", _("China")
    TW = "TW", _("Taiwan")
    VN = "VN", _("Viet Nam")
    US = "US", _("United States")
    CA = "CA", _("Canada")
    MX = "MX", _("Mexico")
    DE = "DE", _("Germany")
    FR = "FR", _("France")
    GB = "GB", _("United Kingdom")
    IT = "IT", _("Italy")
    ES = "ES", _("Spain")
    PL = "PL", _("Poland")
    CZ = "CZ", _("Czechia")
    SE = "SE", _("Sweden")
    NL = "NL", _("Netherlands")


class ProposalLanguage(models.TextChoices):
    KO = "ko", _("Korean")
    EN = "en", _("English")


class ProjectQuerySet(models.QuerySet["Project"]):
    def for_user(self, user) -> ProjectQuerySet:
        return self.filter(organisation__memberships__user=user)


class Project(models.Model):
    """A customer engagement: one site, one or more robot cells, one proposal."""

    organisation = models.ForeignKey(
        Organisation,
        on_delete=models.CASCADE,
        related_name="projects",
        verbose_name=_("organisation"),
    )
    name = models.CharField(_("project name"), max_length=200)
    customer_name = models.CharField(_("customer"), max_length=200)
    site_name = models.CharField(_("site"), max_length=200, blank=True)
    country = models.CharField(
        _("country"), max_length=2, choices=Country.choices, default=Country.KR
    )
    proposal_language = models.CharField(
        _("proposal language"),
        max_length=2,
        choices=ProposalLanguage.choices,
        default=ProposalLanguage.KO,
    )
    currency = models.CharField(
        _("proposal currency"),
        max_length=3,
        choices=[("KRW", "KRW"), ("USD", "USD"), ("EUR", "EUR")],
        default="KRW",
    )
    krw_per_usd = models.DecimalField(
        _("KRW per 1 USD"),
        max_digits=12,
        decimal_places=4,
        null=True,
        blank=True,
        help_text=_("Your exchange rate; no rate is assumed."),
    )
    eur_per_usd = models.DecimalField(
        _("EUR per 1 USD"), max_digits=10, decimal_places=6, null=True, blank=True
    )
    rates_date = models.DateField(_("date of the rates"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    objects = ProjectQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-id"]
        verbose_name = _("project")
        verbose_name_plural = _("projects")
        constraints = [
            models.CheckConstraint(
                condition=Q(country__in=Country.values), name="project_country_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        for field in ("krw_per_usd", "eur_per_usd"):
            value = getattr(self, field)
            if value is not None and value <= 0:
                raise ValidationError(
                    {field: _("An exchange rate must be above zero.")}
                )

    @property
    def rates(self) -> dict:
        """Units of each currency per 1 USD, as far as the user entered them."""
        from decimal import Decimal

        rates = {"USD": Decimal(1)}
        if self.krw_per_usd:
            rates["KRW"] = self.krw_per_usd
        if self.eur_per_usd:
            rates["EUR"] = self.eur_per_usd
        return rates


class RobotKind(models.TextChoices):
    INDUSTRIAL = "industrial", _("Industrial robot")
    COLLABORATIVE = "collaborative", _("Collaborative robot")


class HazardZoneShape(models.TextChoices):
    CIRCLE = "circle", _("Circle (robot reach)")
    POLYGON = "polygon", _("Polygon")


class CollaborativeMode(models.TextChoices):
    """The collaborative operation modes of ISO/TS 15066:2016, 5.5."""

    SAFETY_RATED_MONITORED_STOP = "srms", _("Safety-rated monitored stop")
    HAND_GUIDING = "hand_guiding", _("Hand guiding")
    SPEED_SEPARATION = "ssm", _("Speed and separation monitoring")
    POWER_FORCE_LIMITING = "pfl", _("Power and force limiting")


def collaborative_modes_problem(value: object) -> str | None:
    """Why a list of collaborative mode ids is not valid, or None."""
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        return _("Give the collaborative modes as a list of mode ids.")
    unknown = [m for m in value if m not in CollaborativeMode.values]
    if unknown:
        return _("Unknown collaborative mode: %(mode)s.") % {"mode": unknown[0]}
    if len(set(value)) != len(value):
        return _("A collaborative mode is given twice.")
    return None


class CellQuerySet(models.QuerySet["Cell"]):
    def for_user(self, user) -> CellQuerySet:
        return self.filter(project__organisation__memberships__user=user)


class Cell(models.Model):
    """One robot cell: the robot, its task, and the plan of its guarding."""

    project = models.ForeignKey(
        Project,
        on_delete=models.CASCADE,
        related_name="cells",
        verbose_name=_("project"),
    )
    name = models.CharField(_("cell name"), max_length=200)
    robot_manufacturer = models.CharField(_("robot manufacturer"), max_length=100)
    robot_model = models.CharField(_("robot model"), max_length=100)
    robot_kind = models.CharField(
        _("robot kind"),
        max_length=20,
        choices=RobotKind.choices,
        default=RobotKind.INDUSTRIAL,
    )
    payload_kg = models.DecimalField(_("payload (kg)"), max_digits=7, decimal_places=2)
    reach_mm = models.PositiveIntegerField(_("reach (mm)"))
    max_tcp_speed_mm_s = models.PositiveIntegerField(_("maximum TCP speed (mm/s)"))
    moving_mass_kg = models.DecimalField(
        _("mass of the moving parts (kg)"), max_digits=8, decimal_places=2
    )
    task_description = models.CharField(_("task"), max_length=300, blank=True)
    task_type = models.CharField(
        _("kind of task"),
        max_length=30,
        default="structured_pick_place",
        choices=[
            ("mobile_locomotion", _("Mobile or locomotion task")),
            ("structured_pick_place", _("Narrow, structured pick-and-place")),
            ("contact_rich_manipulation", _("Precise contact-rich manipulation")),
        ],
        help_text=_("How well the task's behaviour carries over from simulation."),
    )
    # What the compliance checks need; empty means "not known yet".
    stopping_time_ms = models.PositiveIntegerField(
        _("robot stopping time (ms)"),
        null=True,
        blank=True,
        help_text=_(
            "Measured or from the maker's stopping data, at the speed and load used."
        ),
    )
    stopping_distance_mm = models.PositiveIntegerField(
        _("robot stopping distance (mm)"), null=True, blank=True
    )
    programmed_speed_mm_s = models.PositiveIntegerField(
        _("programmed TCP speed (mm/s)"),
        null=True,
        blank=True,
        help_text=_("The speed the application runs at, if below the maximum."),
    )
    # Each mode for its own zone or task, e.g. speed and separation monitoring
    # at the loading zone and power and force limiting for a hand-over.
    collaborative_modes = models.JSONField(
        _("collaborative modes (ISO/TS 15066)"),
        default=list,
        blank=True,
        help_text=_(
            "The modes the cell uses, each for its own zone or task; none if it "
            "does not work collaboratively."
        ),
    )
    end_effector_mm = models.PositiveIntegerField(
        _("end effector length (mm)"),
        default=0,
        validators=LENGTH_VALIDATORS,
        help_text=_("How far the tool reaches beyond the robot's flange."),
    )
    workpiece_mm = models.PositiveIntegerField(
        _("workpiece overhang (mm)"),
        default=0,
        validators=LENGTH_VALIDATORS,
        help_text=_("How far the largest workpiece held reaches beyond the tool."),
    )
    hazard_zone_height_mm = models.PositiveIntegerField(
        _("height of the hazard zone (mm)"),
        null=True,
        blank=True,
        help_text=_(
            "The highest point of the hazard zone above the floor (ISO 13857 a)."
        ),
    )
    hazard_zone_lower_mm = models.PositiveIntegerField(
        _("lowest point of the hazard zone (mm)"),
        default=0,
        validators=LENGTH_VALIDATORS,
        help_text=_(
            "The lowest point of the hazard zone above the floor; 0 if it reaches "
            "down to the floor."
        ),
    )
    robot_base_x_mm = models.IntegerField(
        _("robot base x (mm)"), default=0, validators=COORDINATE_VALIDATORS
    )
    robot_base_y_mm = models.IntegerField(
        _("robot base y (mm)"), default=0, validators=COORDINATE_VALIDATORS
    )
    hazard_zone_shape = models.CharField(
        _("hazard zone shape"),
        max_length=10,
        choices=HazardZoneShape.choices,
        default=HazardZoneShape.CIRCLE,
    )
    hazard_zone_radius_mm = models.PositiveIntegerField(
        _("hazard zone radius (mm)"),
        null=True,
        blank=True,
        help_text=_(
            "Leave empty to use the robot's reach plus end effector and workpiece."
        ),
    )
    hazard_zone_polygon_mm = models.JSONField(
        _("hazard zone polygon (mm)"),
        default=list,
        blank=True,
        help_text=_("Corner points [[x, y], ...] when the zone is a polygon."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    objects = CellQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("cell")
        verbose_name_plural = _("cells")
        constraints = [
            models.CheckConstraint(
                condition=Q(payload_kg__gt=0), name="cell_payload_positive"
            ),
            models.CheckConstraint(
                condition=Q(reach_mm__gt=0), name="cell_reach_positive"
            ),
            models.CheckConstraint(
                condition=Q(max_tcp_speed_mm_s__gt=0), name="cell_tcp_speed_positive"
            ),
            models.CheckConstraint(
                condition=Q(moving_mass_kg__gt=0), name="cell_moving_mass_positive"
            ),
            models.CheckConstraint(
                condition=Q(hazard_zone_radius_mm__isnull=True)
                | Q(hazard_zone_radius_mm__gt=0),
                name="cell_hazard_radius_positive",
            ),
            models.CheckConstraint(
                condition=Q(robot_kind__in=RobotKind.values),
                name="cell_robot_kind_valid",
            ),
            models.CheckConstraint(
                condition=Q(hazard_zone_shape__in=HazardZoneShape.values),
                name="cell_hazard_shape_valid",
            ),
            models.CheckConstraint(
                condition=Q(hazard_zone_height_mm__isnull=True)
                | Q(hazard_zone_lower_mm=0)
                | Q(hazard_zone_lower_mm__lt=models.F("hazard_zone_height_mm")),
                name="cell_hazard_lower_below_height",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def organisation_id(self) -> int:
        return self.project.organisation_id

    @property
    def hazard_zone_effective_radius_mm(self) -> int:
        """The radius drawn, else the robot's maximum space (ISO 10218-2): its
        reach plus the end effector and the largest workpiece it holds."""
        if self.hazard_zone_radius_mm:
            return self.hazard_zone_radius_mm
        return self.reach_mm + (self.end_effector_mm or 0) + (self.workpiece_mm or 0)

    def clean(self) -> None:
        errors: dict[str, str] = {}
        for field in ("payload_kg", "moving_mass_kg", "reach_mm", "max_tcp_speed_mm_s"):
            value = getattr(self, field)
            if value is not None and value <= 0:
                errors[field] = _("Must be greater than zero.")
        if self.hazard_zone_radius_mm is not None and self.hazard_zone_radius_mm <= 0:
            errors["hazard_zone_radius_mm"] = _(
                "Must be greater than zero; leave empty to use the robot's reach plus "
                "end effector and workpiece."
            )
        lower, upper = self.hazard_zone_lower_mm, self.hazard_zone_height_mm
        if lower and upper is not None and lower >= upper:
            errors["hazard_zone_lower_mm"] = _(
                "The lowest point of the hazard zone (%(lower)s mm) must be below its "
                "highest point (height of the hazard zone, %(upper)s mm)."
            ) % {"lower": lower, "upper": upper}
        # Checked whatever the shape: a circle keeps its outline for later, and
        # the outline is exported either way.
        if self.hazard_zone_polygon_mm or self.hazard_zone_shape == (
            HazardZoneShape.POLYGON
        ):
            problem = polygon_problem_message(
                self.hazard_zone_polygon_mm,
                geometry_too=self.hazard_zone_shape == HazardZoneShape.POLYGON,
            )
            if problem:
                errors["hazard_zone_polygon_mm"] = problem
        problem = collaborative_modes_problem(self.collaborative_modes)
        if problem:
            errors["collaborative_modes"] = problem
        if errors:
            raise ValidationError(errors)

    def get_collaborative_modes_display(self) -> list[str]:
        """The names of the modes the cell uses, in recorded order."""
        names = dict(CollaborativeMode.choices)
        return [str(names.get(m, m)) for m in self.collaborative_modes]


_POLYGON_MESSAGES = {
    "not_points": _("Give the corners as pairs of whole millimetres: [[x, y], ...]."),
    "too_few_points": _("A polygon needs at least three corners."),
    "repeated_point": _("A corner is given twice."),
    "zero_area": _("The corners lie on one line: the zone has no area."),
    "self_intersecting": _("The outline crosses itself."),
    "off_the_plan": _(
        "A corner of the hazard zone lies beyond 100 m of the plan's origin: keep "
        "every x and y between -100,000 and 100,000 mm."
    ),
}


def polygon_problem_message(value: object, *, geometry_too: bool = True) -> str | None:
    """A user-facing message for an unusable hazard-zone outline, else None.

    With ``geometry_too`` false only the form of the corners is checked (whole
    millimetres, on the plan), not whether they make a polygon.
    """
    if not isinstance(value, list) or not all(
        isinstance(p, list | tuple)
        and len(p) == 2
        and all(isinstance(c, int) and not isinstance(c, bool) for c in p)
        for p in value
    ):
        return str(_POLYGON_MESSAGES["not_points"])
    if any(abs(c) > COORDINATE_LIMIT_MM for p in value for c in p):
        return str(_POLYGON_MESSAGES["off_the_plan"])
    if not geometry_too:
        return None
    problem = geometry.polygon_problem([(float(x), float(y)) for x, y in value])
    return str(_POLYGON_MESSAGES[problem]) if problem else None


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
    height_mm = models.PositiveIntegerField(_("height (mm)"))
    bottom_gap_mm = models.PositiveIntegerField(
        _("gap under the guard (mm)"),
        default=0,
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
        help_text=_(
            "Size of the fence mesh's openings (square side), for ISO 13857 Table 4."
        ),
    )

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
        ]

    def __str__(self) -> str:
        return self.label or f"#{self.pk}"

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
    offset_mm = models.PositiveIntegerField(_("offset along the segment (mm)"))
    width_mm = models.PositiveIntegerField(_("width (mm)"))
    lower_edge_mm = models.PositiveIntegerField(_("lower edge height (mm)"), default=0)
    upper_edge_mm = models.PositiveIntegerField(_("upper edge height (mm)"))
    purpose = models.CharField(
        _("purpose"),
        max_length=20,
        choices=OpeningPurpose.choices,
        default=OpeningPurpose.MATERIAL_ENTRY,
    )

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
        ]

    def __str__(self) -> str:
        return self.label or f"#{self.pk}"

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.width_mm is not None and self.width_mm <= 0:
            errors["width_mm"] = _("The width must be greater than zero.")
        if (
            self.upper_edge_mm is not None
            and self.lower_edge_mm is not None
            and self.upper_edge_mm <= self.lower_edge_mm
        ):
            errors["upper_edge_mm"] = _("The upper edge must be above the lower edge.")
        if self.segment_id is None or errors or None in (self.offset_mm, self.width_mm):
            if errors:
                raise ValidationError(errors)
            return
        segment = self.segment
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
            for other in segment.openings.exclude(pk=self.pk):
                theirs = (other.offset_mm, other.offset_mm + other.width_mm)
                if geometry.overlapping_intervals([mine, theirs]):
                    errors["offset_mm"] = _(
                        "This opening overlaps opening %(other)s (%(start)s–%(end)s mm)."
                    ) % {"other": other, "start": theirs[0], "end": theirs[1]}
                    break
        if errors:
            raise ValidationError(errors)


class OperatorStation(models.Model):
    """Where a person stands to work at the cell (loading, inspection, HMI)."""

    cell = models.ForeignKey(
        Cell, on_delete=models.CASCADE, related_name="stations", verbose_name=_("cell")
    )
    label = models.CharField(_("label"), max_length=60)
    x_mm = models.IntegerField(_("x (mm)"), validators=COORDINATE_VALIDATORS)
    y_mm = models.IntegerField(_("y (mm)"), validators=COORDINATE_VALIDATORS)

    class Meta:
        ordering = ["id"]
        verbose_name = _("operator station")
        verbose_name_plural = _("operator stations")

    def __str__(self) -> str:
        return self.label


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
        _("response time (ms)"), null=True, blank=True
    )
    iec61496_type = models.PositiveSmallIntegerField(
        _("IEC 61496 type"),
        null=True,
        blank=True,
        choices=[(2, "Type 2"), (3, "Type 3"), (4, "Type 4")],
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
        _("detection capability (mm)"), null=True, blank=True
    )
    beam_count = models.PositiveSmallIntegerField(
        _("number of beams"), null=True, blank=True
    )
    protective_field_mm = models.PositiveIntegerField(
        _("protective field depth (mm)"),
        null=True,
        blank=True,
        help_text=_(
            "Laser scanner: how far from the hazard its protective field reaches."
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
    field_height_mm = models.PositiveIntegerField(
        _("protective field height (mm)"),
        null=True,
        blank=True,
        help_text=_(
            "Laser scanner: the height of its protective field above the floor "
            "(at most 1000 mm, ISO 13855)."
        ),
    )

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
                condition=_on_the_plan("x1_mm")
                & _on_the_plan("y1_mm")
                & _on_the_plan("x2_mm")
                & _on_the_plan("y2_mm"),
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
        ]

    def __str__(self) -> str:
        return self.label

    def clean(self) -> None:
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


class CertificateKind(models.TextChoices):
    """What a certificate on file for a cell certifies; more kinds may follow."""

    KIRIA_COBOT_WORKPLACE = (
        "kiria_cobot_workplace",
        _("KIRIA collaborative-robot workplace safety certification"),
    )


CERTIFICATE_SCOPE_MAX_LENGTH = 1000


class CellCertificate(models.Model):
    """A certificate on file for one cell, as issued: e.g. the KIRIA
    collaborative-robot workplace safety certificate (협동로봇 설치 작업장
    안전인증), the practical form of the Minister's recognition under the
    Art. 223 proviso (Rules on OSH Standards) that lets a collaborative robot
    work without the fence, for the certified scope only.

    A record, not layout: the exchange document (``cells.exchange``) does not
    carry certificates. A certificate is issued for one workplace after its
    own audit, so a cell imported from a document starts without one.
    """

    cell = models.ForeignKey(
        Cell,
        on_delete=models.CASCADE,
        related_name="certificates",
        verbose_name=_("cell"),
    )
    kind = models.CharField(
        _("kind"),
        max_length=40,
        choices=CertificateKind.choices,
        default=CertificateKind.KIRIA_COBOT_WORKPLACE,
    )
    issuing_body = models.CharField(
        _("issuing body"),
        max_length=200,
        help_text=_(
            "Who issued it, as the certificate names them, e.g. KIRIA "
            "(한국로봇산업진흥원)."
        ),
    )
    number = models.CharField(_("certificate number"), max_length=60)
    issued_on = models.DateField(_("issued on"))
    valid_until = models.DateField(
        _("valid until"), help_text=_("The last day the certificate is valid.")
    )
    scope = models.TextField(
        _("certified scope"),
        max_length=CERTIFICATE_SCOPE_MAX_LENGTH,
        blank=True,
        validators=[MaxLengthValidator(CERTIFICATE_SCOPE_MAX_LENGTH)],
        help_text=_(
            "What the certificate covers, as it states it: the application, the "
            "robot, the work area. The exemption holds for this scope only."
        ),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    created_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        ordering = ["-valid_until", "id"]
        verbose_name = _("certificate")
        verbose_name_plural = _("certificates")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=CertificateKind.values),
                name="certificate_kind_valid",
            ),
            models.CheckConstraint(
                condition=~Q(number=""), name="certificate_number_given"
            ),
            models.CheckConstraint(
                condition=Q(valid_until__gt=models.F("issued_on")),
                name="certificate_valid_after_issued",
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(
                    Length("scope"), CERTIFICATE_SCOPE_MAX_LENGTH
                ),
                name="certificate_scope_length",
            ),
        ]

    def __str__(self) -> str:
        return self.number

    def is_valid_on(self, day: date) -> bool:
        """Whether the certificate is in force on ``day`` (both ends included)."""
        return self.issued_on <= day <= self.valid_until

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.number is not None and not self.number.strip():
            errors["number"] = _("Give the number printed on the certificate.")
        if self.issuing_body is not None and not self.issuing_body.strip():
            errors["issuing_body"] = _("Give who issued the certificate.")
        if (
            self.issued_on is not None
            and self.valid_until is not None
            and self.valid_until <= self.issued_on
        ):
            errors["valid_until"] = _(
                "The certificate must be valid until a date after it was issued "
                "(%(issued)s)."
            ) % {"issued": self.issued_on.isoformat()}
        if errors:
            raise ValidationError(errors)
