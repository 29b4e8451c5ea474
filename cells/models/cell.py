"""Robot cells: the robot, its application and task, its collaborative
operation modes and the hazard zone (the robot's maximum space, a circle or a
drawn polygon, with its height range).

All lengths are millimetres in the cell's own plan coordinates (x to the
right, y away from the viewer), all heights are above the floor.
"""

from __future__ import annotations

import math
import unicodedata

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cells import applications, geometry
from cells.exchange import (
    COORDINATE_LIMIT_MM,
    POLYGON_MAX_CORNERS,
    ZONE_REDUCTION_MAX_LENGTH,
    maximum_space_radius_mm,
    zone_radius_mm,
)
from cells.models.bounds import (
    COORDINATE_VALIDATORS,
    LENGTH_VALIDATORS,
    POSITIVE_SPEED_VALIDATORS,
    POSITIVE_TIME_VALIDATORS,
    SPEED_VALIDATORS,
    PolygonOnThePlan,
    lengths,
    on_the_plan,
    speeds,
    times,
)
from cells.models.eu import AnnexCategory, ConformityProcedure
from cells.models.projects import Project


class RobotKind(models.TextChoices):
    INDUSTRIAL = "industrial", _("Industrial robot")
    # ISO 10218-1/-2:2025 speak of collaborative applications, not robots:
    # the kind says the robot is built for them (its class is its own).
    COLLABORATIVE = "collaborative", _("Robot for collaborative applications")


class HazardZoneShape(models.TextChoices):
    CIRCLE = "circle", _("Circle (robot reach)")
    POLYGON = "polygon", _("Polygon")


class Application(models.TextChoices):
    """What the cell is for, as integrators name it (``cells.applications``:
    the task type and the sim-first maturity follow from it)."""

    PALLETISING = "palletising", _("Palletising and depalletising")
    MACHINE_TENDING = "machine_tending", _("Machine tending")
    ARC_WELDING = "arc_welding", _("Arc welding")
    SPOT_WELDING = "spot_welding", _("Spot welding")
    DISPENSING = "dispensing", _("Dispensing and gluing")
    PAINTING = "painting", _("Painting")
    ASSEMBLY = "assembly", _("Assembly and screwdriving")
    INSPECTION = "inspection", _("Inspection and testing")
    PICK_AND_PLACE = "pick_and_place", _("Pick-and-place and packaging")
    GRINDING = "grinding", _("Deburring and grinding")
    LAB_AUTOMATION = "lab_automation", _("Laboratory automation")
    MOBILE_MANIPULATION = "mobile_manipulation", _("Mobile manipulation")


# The task types, derived from the application and never stored: named so
# that the API schema can name their enum (ENUM_NAME_OVERRIDES).
TASK_TYPE_CHOICES = [
    (code, _(label)) for code, label in applications.TASK_TYPE_LABELS.items()
]


class SafetyConfigKind(models.TextChoices):
    """How the robot controller's maker identifies its safety configuration."""

    UR_CHECKSUM = "ur_checksum", _("Universal Robots safety checksum")
    ABB_SAFEMOVE_CRC = "abb_safemove_crc", _("ABB SafeMove configuration CRC")
    KUKA_SAFEOPERATION = (
        "kuka_safeoperation_checksum",
        _("KUKA SafeOperation checksum"),
    )
    FANUC_DCS = "fanuc_dcs_signature", _("FANUC DCS signature")
    OTHER = "other", _("Another maker's configuration identifier")


SAFETY_CONFIG_VALUE_MAX_LENGTH = 64


def safety_config_problem(value: str) -> str | None:
    """Why a safety-configuration identifier is not usable, or None: no
    control characters, no spaces at its ends (it is compared exactly)."""
    if value != value.strip():
        return _("Give the identifier without spaces before or after it.")
    if any(unicodedata.category(c) == "Cc" for c in value):
        return _(
            "Give the identifier as the controller shows it: no control characters."
        )
    return None


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
    # A guarding concept of another cell (compliance.concepts): the same
    # robot and task with other guarding, listed with that cell, not alone.
    variant_of = models.ForeignKey(
        "self",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="variants",
        verbose_name=_("variant of"),
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
    # Zero is refused by clean(), with its own message.
    reach_mm = models.PositiveIntegerField(
        _("reach (mm)"), validators=LENGTH_VALIDATORS
    )
    max_tcp_speed_mm_s = models.PositiveIntegerField(
        _("maximum TCP speed (mm/s)"), validators=SPEED_VALIDATORS
    )
    moving_mass_kg = models.DecimalField(
        _("mass of the moving parts (kg)"), max_digits=8, decimal_places=2
    )
    task_description = models.CharField(_("task"), max_length=300, blank=True)
    # Required on the form for a new cell; the default is for cells made in
    # code and old documents, as structured pick-and-place was before.
    application = models.CharField(
        _("application"),
        max_length=30,
        choices=Application.choices,
        default=applications.DEFAULT_APPLICATION,
        help_text=_(
            "What the cell does. The hazards proposed for it and how far "
            "simulation can carry its task follow from it."
        ),
    )
    # What the compliance checks need; empty means "not known yet".
    stopping_time_ms = models.PositiveIntegerField(
        _("robot stopping time (ms)"),
        null=True,
        blank=True,
        validators=POSITIVE_TIME_VALIDATORS,
        help_text=_(
            "Measured or from the maker's stopping data, at the speed and load used."
        ),
    )
    stopping_distance_mm = models.PositiveIntegerField(
        _("robot stopping distance (mm)"),
        null=True,
        blank=True,
        validators=LENGTH_VALIDATORS,
    )
    programmed_speed_mm_s = models.PositiveIntegerField(
        _("programmed TCP speed (mm/s)"),
        null=True,
        blank=True,
        validators=POSITIVE_SPEED_VALIDATORS,
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
        validators=LENGTH_VALIDATORS,
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
    # Where the robot's base frame points on the plan (issue 32): a program's
    # coordinates are turned by this angle, counter-clockwise, then moved to
    # the base's position.
    robot_base_rotation_deg = models.SmallIntegerField(
        _("robot base rotation (°)"),
        default=0,
        validators=[MinValueValidator(-180), MaxValueValidator(180)],
        help_text=_(
            "The angle from the plan's x axis to the robot base frame's x axis, "
            "counter-clockwise: how a robot program's coordinates are drawn on "
            "the plan."
        ),
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
        validators=LENGTH_VALIDATORS,  # zero: refused by clean()
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
    # The record is safety_rated_limits; this says what the limit is. Without
    # both, a smaller zone is refused (and an old one is not taken).
    hazard_zone_reduction_reason = models.CharField(
        _("why the hazard zone is smaller than the robot's maximum space"),
        max_length=ZONE_REDUCTION_MAX_LENGTH,
        blank=True,
        help_text=_(
            "Only for a zone smaller than reach + end effector + workpiece round "
            "the base: the safety-rated limit of the robot's space that keeps it "
            "within the zone (e.g. soft axis limiting of axis 1 to ±60°, safety "
            "zone 2 of the safety configuration). Needs “safety-rated robot "
            "functions carry safeguarding” ticked."
        ),
    )
    # The robot controller's safety configuration, as its maker identifies it:
    # signing a revision freezes it (compliance.assessment), the PDFs print it.
    safety_config_kind = models.CharField(
        _("safety configuration identifier: kind"),
        max_length=40,
        choices=SafetyConfigKind.choices,
        blank=True,
        help_text=_("How the robot controller identifies its safety configuration."),
    )
    safety_config_value = models.CharField(
        _("safety configuration identifier"),
        max_length=SAFETY_CONFIG_VALUE_MAX_LENGTH,
        blank=True,
        help_text=_(
            "As the controller shows it: the UR safety checksum, the SafeMove "
            "CRC, the SafeOperation checksum, the DCS signature number."
        ),
    )
    safety_rated_limits = models.BooleanField(
        _("safety-rated robot functions carry safeguarding"),
        default=False,
        help_text=_(
            "Tick if the robot's safety-rated speed, zone or force limits carry "
            "part of the safeguarding (e.g. a safety-rated zone limits the "
            "hazard zone)."
        ),
    )
    # EU: the cell as machinery on its way to the CE marking.
    annex_i_category = models.CharField(
        _("EU: Annex listing"),
        max_length=20,
        choices=AnnexCategory.choices,
        blank=True,
        help_text=_("EU / EEA projects: whether the cell is listed in Annex I."),
    )
    conformity_procedure = models.CharField(
        _("EU: conformity assessment procedure"),
        max_length=30,
        choices=ConformityProcedure.choices,
        blank=True,
    )
    harmonised_standards = models.BooleanField(
        _(
            "EU: designed to harmonised standards covering all its essential requirements"
        ),
        null=True,
        blank=True,
        help_text=_("What gives the presumption of conformity; empty: not decided."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    # Raised by every save of the row: a save that names the version it read
    # is refused when another saved since (``cells.services``, issue 28).
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

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
                condition=Q(application__in=Application.values),
                name="cell_application_valid",
            ),
            models.CheckConstraint(
                condition=Q(hazard_zone_height_mm__isnull=True)
                | Q(hazard_zone_lower_mm=0)
                | Q(hazard_zone_lower_mm__lt=models.F("hazard_zone_height_mm")),
                name="cell_hazard_lower_below_height",
            ),
            # The bounds of cells.exchange, for whatever writes past the models.
            models.CheckConstraint(
                condition=lengths(
                    "reach_mm",
                    "end_effector_mm",
                    "workpiece_mm",
                    "stopping_distance_mm",
                    "hazard_zone_height_mm",
                    "hazard_zone_lower_mm",
                    "hazard_zone_radius_mm",
                )
                & on_the_plan("robot_base_x_mm")
                & on_the_plan("robot_base_y_mm")
                & times("stopping_time_ms")
                & speeds("max_tcp_speed_mm_s", "programmed_speed_mm_s"),
                name="cell_figures_bounded",
            ),
            models.CheckConstraint(
                condition=Q(robot_base_rotation_deg__gte=-180)
                & Q(robot_base_rotation_deg__lte=180),
                name="cell_robot_base_rotation_bounded",
            ),
            models.CheckConstraint(
                condition=Q(stopping_time_ms__isnull=True) | Q(stopping_time_ms__gt=0),
                name="cell_stopping_time_positive",
            ),
            models.CheckConstraint(
                condition=Q(programmed_speed_mm_s__isnull=True)
                | Q(programmed_speed_mm_s__gt=0),
                name="cell_programmed_speed_positive",
            ),
            models.CheckConstraint(
                condition=Q(safety_config_kind="", safety_config_value="")
                | (
                    Q(safety_config_kind__in=SafetyConfigKind.values)
                    & ~Q(safety_config_value="")
                ),
                name="cell_safety_config_kind_and_value",
            ),
            models.CheckConstraint(
                condition=Q(annex_i_category="")
                | Q(annex_i_category__in=AnnexCategory.values),
                name="cell_annex_category_valid",
            ),
            models.CheckConstraint(
                condition=Q(conformity_procedure="")
                | Q(conformity_procedure__in=ConformityProcedure.values),
                name="cell_conformity_procedure_valid",
            ),
            models.CheckConstraint(
                condition=PolygonOnThePlan(
                    "hazard_zone_polygon_mm",
                    max_corners=POLYGON_MAX_CORNERS,
                    limit_mm=COORDINATE_LIMIT_MM,
                ),
                name="cell_hazard_polygon_on_the_plan",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def organisation_id(self) -> int:
        return self.project.organisation_id

    @property
    def task_type(self) -> str:
        """What the application is planned as in the sim-first comparison
        (``cells.applications``): derived, never stored."""
        return applications.task_type_of(self.application)

    @task_type.setter
    def task_type(self, value: str) -> None:
        # For code written before applications (``Cell(task_type=...)``): a
        # task type that the application already has changes nothing; another
        # records the application that stood for it, as migration 0018 did.
        if self.task_type == value:
            return
        if value not in applications.APPLICATION_FOR_TASK_TYPE:
            raise ValueError(f"Set the application: {value!r} stands for several.")
        self.application = applications.APPLICATION_FOR_TASK_TYPE[value]

    def get_task_type_display(self) -> str:
        return str(dict(TASK_TYPE_CHOICES)[self.task_type])

    @property
    def maximum_space_radius_mm(self) -> int:
        """The robot's maximum space round its base (ISO 10218): its reach plus
        the end effector and the largest workpiece it holds."""
        return maximum_space_radius_mm(
            reach_mm=self.reach_mm,
            end_effector_mm=self.end_effector_mm,
            workpiece_mm=self.workpiece_mm,
        )

    @property
    def hazard_zone_reduction_recorded(self) -> bool:
        """Whether a zone smaller than the maximum space rests on a record: the
        safety-rated limits of the robot, with what they are. The text alone
        relaxes nothing."""
        return self.safety_rated_limits and bool(
            self.hazard_zone_reduction_reason.strip()
        )

    @property
    def hazard_zone_effective_radius_mm(self) -> int:
        """The radius typed when it holds the robot's maximum space, or rests on
        a recorded safety-rated limit; else the maximum space. A smaller radius
        typed without the record (saved before it was refused) is not taken."""
        return zone_radius_mm(
            maximum_space_mm=self.maximum_space_radius_mm,
            radius_mm=self.hazard_zone_radius_mm,
            reduction_recorded=self.hazard_zone_reduction_recorded,
        )

    @property
    def hazard_zone_is_polygon(self) -> bool:
        """Whether the zone measured from is the drawn polygon (as
        ``perimeter.hazard_zone`` takes it: three corners or more)."""
        return (
            self.hazard_zone_shape == HazardZoneShape.POLYGON
            and len(self.hazard_zone_polygon_mm or []) >= 3
        )

    @property
    def hazard_zone_uncovered_mm(self) -> int:
        """How far the robot's maximum space reaches past the zone as typed or
        drawn, in whole mm rounded up; 0 when the zone holds it."""
        full = self.maximum_space_radius_mm
        if not self.hazard_zone_is_polygon:
            radius = self.hazard_zone_radius_mm
            return max(0, full - radius) if radius else 0
        centre = (float(self.robot_base_x_mm), float(self.robot_base_y_mm))
        return polygon_uncovered_mm(self.hazard_zone_polygon_mm, centre, full)

    @property
    def hazard_zone_reduced(self) -> bool:
        """Whether the zone as typed or drawn is smaller, somewhere, than the
        robot's maximum space."""
        return self.hazard_zone_uncovered_mm > 0

    @property
    def hazard_zone_reduction_ignored(self) -> bool:
        """A smaller zone without the record (saved before it was refused): a
        circle is measured at the maximum space instead, a polygon as drawn."""
        return self.hazard_zone_reduced and not self.hazard_zone_reduction_recorded

    @property
    def stopping_time_checked_ms(self) -> int | None:
        """The robot's stopping time, at least as long as its recorded stopping
        distance takes at its maximum speed (a stop is never faster than the
        robot): what a time contradicting the distance (saved before it was
        refused) should be checked as."""
        time, distance = self.stopping_time_ms, self.stopping_distance_mm
        if not time:
            return None
        return max(time, shortest_stop_ms(distance, self.max_tcp_speed_mm_s))

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
        zone_figures = {"reach_mm", "hazard_zone_radius_mm", "hazard_zone_polygon_mm"}
        if self.reach_mm and not errors.keys() & zone_figures:
            errors.update(self._zone_reduction_errors())
        problem = self._stopping_problem()
        if problem:
            errors["stopping_time_ms"] = problem
        problem = collaborative_modes_problem(self.collaborative_modes)
        if problem:
            errors["collaborative_modes"] = problem
        kind, value = self.safety_config_kind, self.safety_config_value
        if kind and not value:
            errors["safety_config_value"] = _(
                "Give the identifier the controller shows for this kind."
            )
        elif value and not kind:
            errors["safety_config_kind"] = _("Say which kind of identifier this is.")
        elif value and (problem := safety_config_problem(value)):
            errors["safety_config_value"] = problem
        if errors:
            raise ValidationError(errors)

    def _zone_reduction_errors(self) -> dict[str, str]:
        """A zone smaller than the robot's maximum space is refused unless the
        safety-rated limits holding the robot within it are recorded, with
        what they are: keyed by the figure that makes it smaller."""
        short = self.hazard_zone_uncovered_mm
        if not short:
            return {}
        values = {
            "reach": f"{self.reach_mm:,}",
            "tool": f"{self.end_effector_mm or 0:,}",
            "piece": f"{self.workpiece_mm or 0:,}",
            "full": f"{self.maximum_space_radius_mm:,}",
            "short": f"{short:,}",
        }
        if self.safety_rated_limits:
            if self.hazard_zone_reduction_reason.strip():
                return {}
            return {
                "hazard_zone_reduction_reason": _(
                    "Say which safety-rated limit keeps the robot within this "
                    "zone: it is smaller than the robot's maximum space (reach "
                    "%(reach)s + end effector %(tool)s + workpiece %(piece)s = "
                    "%(full)s mm round its base)."
                )
                % values
            }
        if self.hazard_zone_is_polygon:
            field, message = (
                "hazard_zone_polygon_mm",
                _(
                    "The hazard zone must hold the robot's maximum space: reach "
                    "%(reach)s + end effector %(tool)s + workpiece %(piece)s = "
                    "%(full)s mm round its base. This outline leaves up to %(short)s "
                    "mm of it outside, and distances to the zone would be measured up "
                    "to %(short)s mm too generously. Draw it round that whole circle. "
                    "A smaller zone is kept only where safety-rated limits of the "
                    "robot's space hold the robot within it: tick “safety-rated robot "
                    "functions carry safeguarding” (robot and task) and say which "
                    "limit it is."
                ),
            )
        else:
            field, message = (
                "hazard_zone_radius_mm",
                _(
                    "The hazard zone must hold the robot's maximum space: reach "
                    "%(reach)s + end effector %(tool)s + workpiece %(piece)s = "
                    "%(full)s mm round its base. A radius of %(radius)s mm leaves "
                    "%(short)s mm of it outside, and every distance to the zone would "
                    "be measured %(short)s mm too generously. Give at least %(full)s "
                    "mm, or leave the radius empty. A smaller zone is kept only where "
                    "safety-rated limits of the robot's space hold the robot within "
                    "it: tick “safety-rated robot functions carry safeguarding” "
                    "(robot and task) and say which limit it is."
                ),
            )
            values["radius"] = f"{self.hazard_zone_radius_mm:,}"
        return {field: message % values}

    def _stopping_problem(self) -> str | None:
        """A stopping time shorter than the recorded stopping distance takes at
        the robot's maximum speed: one of the three figures is wrong, and a
        time too short shortens every safety distance computed from it."""
        time, distance = self.stopping_time_ms, self.stopping_distance_mm
        speed = self.max_tcp_speed_mm_s
        if not (time and distance and speed and speed > 0):
            return None
        shortest = shortest_stop_ms(distance, speed)
        if time >= shortest:
            return None
        return _(
            "A stop of %(distance)s mm in %(time)s ms is faster than the robot "
            "moves (maximum TCP speed %(speed)s mm/s): at that speed it takes at "
            "least %(shortest)s ms. Check the stopping time, the stopping distance "
            "and the maximum speed against the maker's stopping data: a stopping "
            "time too short shortens every safety distance computed from it."
        ) % {
            "distance": f"{distance:,}",
            "time": f"{time:,}",
            "speed": f"{speed:,}",
            "shortest": f"{shortest:,}",
        }

    @property
    def safety_configuration(self) -> dict[str, str] | None:
        """The safety configuration's identity as a record: {kind, value}."""
        if not (self.safety_config_kind and self.safety_config_value):
            return None
        return {"kind": self.safety_config_kind, "value": self.safety_config_value}

    def get_collaborative_modes_display(self) -> list[str]:
        """The names of the modes the cell uses, in recorded order."""
        names = dict(CollaborativeMode.choices)
        return [str(names.get(m, m)) for m in self.collaborative_modes]


# Corners are whole millimetres: an outline traced round the circle may cut
# inside it by a rounding.
ZONE_TOLERANCE_MM = 1


def polygon_uncovered_mm(
    polygon_mm: list, centre: geometry.Point, radius_mm: float
) -> int:
    """How far the circle of ``radius_mm`` round ``centre`` reaches past a
    simple polygon, in whole mm rounded up; 0 when the polygon holds it (to
    within ``ZONE_TOLERANCE_MM``): when the centre is inside and no edge is
    nearer than the radius, which is exact. Otherwise at least 1: the farthest
    from the polygon's area of the centre and of 360 points of the circle (a
    step of a degree misses at most 0.04 mm per metre of radius)."""
    points = [(float(x), float(y)) for x, y in polygon_mm]
    if (
        geometry.point_in_polygon(centre, points)
        and geometry.outline_distance(centre, points) >= radius_mm - ZONE_TOLERANCE_MM
    ):
        return 0
    cx, cy = centre
    samples = [centre] + [
        (cx + radius_mm * math.cos(t), cy + radius_mm * math.sin(t))
        for t in (k * math.pi / 180 for k in range(360))
    ]
    farthest = max(geometry.point_polygon_distance(p, points) for p in samples)
    return max(1, math.ceil(farthest))


def shortest_stop_ms(distance_mm: int | None, speed_mm_s: int | None) -> int:
    """The least time a stop of ``distance_mm`` takes at ``speed_mm_s``, in
    whole ms rounded up (0 when either is not known): no point of the robot
    covers it faster."""
    if not distance_mm or not speed_mm_s or speed_mm_s <= 0:
        return 0
    return math.ceil(distance_mm * 1000 / speed_mm_s)


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
    "too_many_points": _("Give at most %(limit)s corners."),
}


def polygon_problem_message(value: object, *, geometry_too: bool = True) -> str | None:
    """A user-facing message for an unusable hazard-zone outline, else None.

    With ``geometry_too`` false only the form of the corners is checked (whole
    millimetres, on the plan), not whether they make a polygon.

    The count is checked first, so a huge list costs nothing; the outline's
    own check is n log n (``geometry.polygon_problem``).
    """
    if isinstance(value, list) and len(value) > POLYGON_MAX_CORNERS:
        return str(_POLYGON_MESSAGES["too_many_points"]) % {
            "limit": POLYGON_MAX_CORNERS
        }
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
