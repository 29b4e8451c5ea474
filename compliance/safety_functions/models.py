"""Safety functions of a cell and the device library they draw on.

A safety function (ISO 13849-1) is what a safeguard does: "light curtain LC1
interrupted → robot protective stop, stop category 1". It mitigates hazards of
the cell's risk assessment, whose highest PLr is the PL it must reach; it is
built of subsystems in series (input → logic → output), each a device of the
organisation's library or entered by hand; its PL is computed from them, and
its validation (ISO 13849-2) is recorded test by test.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cells.models import Cell, CollaborativeMode, Device, Organisation
from cells.models import PerformanceLevel as PL
from compliance.costs.models import CURRENCY_CHOICES

# Bounds on every figure a person types (the calculators refuse the same).
PFHD_MAX = 1e-4
MTTFD_MAX_YEARS = 1_000_000
B10D_MAX = 1e12
CYCLE_TIME_MAX_S = 10_000_000


class LibraryKind(models.TextChoices):
    """What a library device is, in the words of its data sheet."""

    LIGHT_CURTAIN = "light_curtain", _("Safety light curtain")
    MULTIBEAM = "multibeam", _("Multi-beam light grid")
    LASER_SCANNER = "laser_scanner", _("Safety laser scanner")
    SAFETY_MAT = "safety_mat", _("Pressure-sensitive safety mat")
    INTERLOCK_SWITCH = "interlock_switch", _("Safety interlock switch")
    GUARD_LOCKING = "guard_locking", _("Interlock with guard locking")
    EMERGENCY_STOP = "emergency_stop", _("Emergency stop")
    ENABLING_DEVICE = "enabling_device", _("Enabling device")
    SAFETY_RELAY = "safety_relay", _("Safety relay")
    SAFETY_CONTROLLER = "safety_controller", _("Safety controller")
    SAFETY_IO = "safety_io", _("Safety I/O module")
    CONTACTOR = "contactor", _("Contactor")
    DRIVE_STO = "drive_sto", _("Drive safe torque off (STO)")
    ROBOT_CONTROLLER = "robot_controller", _("Robot safety controller")
    OTHER = "other", _("Other")


# The cell's device kinds a library device of each kind can be (cells.Device).
DEVICE_KINDS_FOR = {
    LibraryKind.LIGHT_CURTAIN: ("light_curtain",),
    LibraryKind.MULTIBEAM: ("multibeam",),
    LibraryKind.LASER_SCANNER: ("laser_scanner",),
    LibraryKind.SAFETY_MAT: ("safety_mat",),
    LibraryKind.INTERLOCK_SWITCH: ("interlocked_door",),
    LibraryKind.GUARD_LOCKING: ("interlocked_door",),
    LibraryKind.EMERGENCY_STOP: ("emergency_stop",),
    LibraryKind.ENABLING_DEVICE: ("enabling_device",),
    LibraryKind.SAFETY_RELAY: ("safety_controller",),
    LibraryKind.SAFETY_CONTROLLER: ("safety_controller",),
    LibraryKind.SAFETY_IO: ("safety_controller", "other"),
    LibraryKind.CONTACTOR: ("other",),
    LibraryKind.DRIVE_STO: ("other",),
    LibraryKind.ROBOT_CONTROLLER: ("safety_controller", "other"),
    LibraryKind.OTHER: ("other",),
}


class Category(models.TextChoices):
    """ISO 13849-1 designated architectures (clause 6.2)."""

    B = "B", _("Category B")
    ONE = "1", _("Category 1")
    TWO = "2", _("Category 2")
    THREE = "3", _("Category 3")
    FOUR = "4", _("Category 4")


def _not_negative(*fields: str) -> Q:
    condition = Q()
    for field in fields:
        condition &= Q(**{f"{field}__isnull": True}) | Q(**{f"{field}__gte": 0})
    return condition


class LibraryDevice(models.Model):
    """A maker's safety device with its data-sheet safety figures, in one
    organisation's library: the reference's starting entries and the
    organisation's own."""

    organisation = models.ForeignKey(
        Organisation,
        on_delete=models.CASCADE,
        related_name="library_devices",
        verbose_name=_("organisation"),
    )
    # The reference entry's id ("LC-1") for starting entries; the
    # organisation's own code for its own.
    key = models.CharField(_("code"), max_length=40)
    kind = models.CharField(_("kind"), max_length=20, choices=LibraryKind.choices)
    maker = models.CharField(_("maker"), max_length=80)
    model = models.CharField(_("model"), max_length=120)
    part_number = models.CharField(_("part number"), max_length=80, blank=True)
    function = models.CharField(
        _("safety function of the device"),
        max_length=120,
        blank=True,
        help_text=_(
            "Where the data sheet gives figures per function (e.g. interlock and "
            "guard locking), the function these figures are for."
        ),
    )
    iec61496_type = models.PositiveSmallIntegerField(
        _("IEC 61496 type"),
        null=True,
        blank=True,
        choices=[(2, _("Type 2")), (3, _("Type 3")), (4, _("Type 4"))],
    )
    pl = models.CharField(
        _("performance level (maker)"), max_length=1, choices=PL.choices, blank=True
    )
    category = models.CharField(
        _("category"), max_length=1, choices=Category.choices, blank=True
    )
    sil = models.PositiveSmallIntegerField(
        _("SIL (IEC 62061)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(3)],
    )
    pfhd_per_hour = models.FloatField(
        _("PFHd (1/h)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1e-12), MaxValueValidator(PFHD_MAX)],
    )
    b10d_cycles = models.FloatField(
        _("B10d (cycles)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(B10D_MAX)],
    )
    mttfd_years = models.FloatField(
        _("MTTFd (years)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0.1), MaxValueValidator(MTTFD_MAX_YEARS)],
    )
    dcavg_percent = models.FloatField(
        _("DCavg (%)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(100)],
    )
    response_time_ms = models.DecimalField(
        _("response time (ms)"),
        max_digits=7,
        decimal_places=1,
        null=True,
        blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(100_000)],
    )
    detection_capability_mm = models.PositiveIntegerField(
        _("detection capability (mm)"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(2_000)],
    )
    range_m = models.DecimalField(
        _("range (m)"),
        max_digits=6,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(1_000)],
        help_text=_("Protective field range or operating range."),
    )
    protective_height_mm = models.PositiveIntegerField(
        _("protective height (mm)"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(3_000)],
    )
    certificates = models.CharField(
        _("certificates"),
        max_length=200,
        blank=True,
        help_text=_("Type-examination certificates (e.g. TÜV), as the maker states."),
    )
    kcs_certificate_no = models.CharField(
        _("KCs certificate number"), max_length=40, blank=True
    )
    price_low = models.DecimalField(
        _("unit price from"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    price_high = models.DecimalField(
        _("unit price to"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    currency = models.CharField(
        _("currency"), max_length=3, blank=True, choices=CURRENCY_CHOICES
    )
    price_source = models.CharField(
        _("source of the price"), max_length=200, blank=True
    )
    price_date = models.DateField(_("date of the price"), null=True, blank=True)
    lead_time_weeks_low = models.DecimalField(
        _("lead time from (weeks)"),
        max_digits=5,
        decimal_places=1,
        null=True,
        blank=True,
        validators=[MaxValueValidator(520)],
    )
    lead_time_weeks_high = models.DecimalField(
        _("lead time to (weeks)"),
        max_digits=5,
        decimal_places=1,
        null=True,
        blank=True,
        validators=[MaxValueValidator(520)],
    )
    data_source = models.CharField(
        _("source of the safety data"), max_length=300, blank=True
    )
    from_reference = models.BooleanField(
        _("starting entry"),
        default=False,
        help_text=_(
            "Copied from the reference data: from the maker's data sheet; check "
            "the current one before use."
        ),
    )
    notes = models.CharField(_("notes"), max_length=300, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Raised by every save: a change naming the version it read is refused
    # when another was saved since (``library.services``, issue 28).
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

    class Meta:
        ordering = ["kind", "maker", "model", "id"]
        verbose_name = _("library device")
        verbose_name_plural = _("library devices")
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "key"], name="library_device_unique_key"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=LibraryKind.values),
                name="library_device_kind_valid",
            ),
            models.CheckConstraint(
                condition=_not_negative(
                    "price_low",
                    "price_high",
                    "lead_time_weeks_low",
                    "lead_time_weeks_high",
                ),
                name="library_device_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(price_low__isnull=True)
                | Q(price_high__isnull=True)
                | Q(price_low__lte=models.F("price_high")),
                name="library_device_price_ordered",
            ),
            models.CheckConstraint(
                condition=Q(pfhd_per_hour__isnull=True)
                | (Q(pfhd_per_hour__gt=0) & Q(pfhd_per_hour__lt=PFHD_MAX)),
                name="library_device_pfhd_bounded",
            ),
        ]

    def __str__(self) -> str:
        name = f"{self.maker} {self.model}"
        # A starting entry's function is the app's text: in the reader's
        # language (one the organisation typed stays as typed).
        return f"{name} ({gettext(self.function)})" if self.function else name

    @property
    def has_price(self) -> bool:
        return self.price_low is not None and bool(self.currency)


class SafeguardKind(models.TextChoices):
    """The safeguard a safety function belongs to."""

    GUARDED_OPENING = "guarded_opening", _("Guarded opening (sensing device)")
    DOOR_INTERLOCK = "door_interlock", _("Door interlock")
    EMERGENCY_STOP = "emergency_stop", _("Emergency stop")
    ENABLING_DEVICE = "enabling_device", _("Enabling device")
    SCANNER_FIELD = "scanner_field", _("Laser scanner field")
    COLLABORATIVE_LIMIT = "collaborative_limit", _("Speed or force limit (PFL, SSM)")
    OTHER = "other", _("Other")


class StopCategory(models.TextChoices):
    """IEC 60204-1 stop categories."""

    ZERO = "0", _("Stop category 0 (immediate removal of power)")
    ONE = "1", _("Stop category 1 (controlled stop, then power removed)")
    TWO = "2", _("Stop category 2 (controlled stop, power kept)")


class SafetyFunction(models.Model):
    """One safety function of a cell: trigger, reaction, the hazards it
    mitigates and the subsystems it is built of."""

    cell = models.ForeignKey(
        Cell,
        on_delete=models.CASCADE,
        related_name="safety_functions",
        verbose_name=_("cell"),
    )
    key = models.UUIDField(default=uuid.uuid4, editable=False)
    name = models.CharField(_("name"), max_length=120)
    safeguard = models.CharField(
        _("safeguard"), max_length=20, choices=SafeguardKind.choices
    )
    device = models.ForeignKey(
        Device,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="safety_functions",
        verbose_name=_("safeguarding device"),
    )
    collaborative_mode = models.CharField(
        _("collaborative mode"),
        max_length=20,
        choices=CollaborativeMode.choices,
        blank=True,
    )
    trigger = models.CharField(_("trigger"), max_length=300)
    reaction = models.CharField(_("reaction"), max_length=300)
    stop_category = models.CharField(
        _("stop category"), max_length=1, choices=StopCategory.choices, blank=True
    )
    required_response_time_ms = models.PositiveIntegerField(
        _("required response time (ms)"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(100_000)],
        help_text=_(
            "The longest time from the trigger to the safe state that the "
            "minimum distance allows (ISO 13855)."
        ),
    )
    reset_behaviour = models.CharField(_("reset"), max_length=300, blank=True)
    restart_behaviour = models.CharField(_("restart"), max_length=300, blank=True)
    uses_muting = models.BooleanField(_("uses muting"), default=False)
    # The hazards it mitigates, by their key: a hazard keeps its key from one
    # revision of the assessment to the next, so the link survives revisions.
    hazard_keys = models.JSONField(_("hazards mitigated"), default=list, blank=True)
    suggestion_key = models.CharField(max_length=80, blank=True)
    # Where the app wrote the texts above from (compliance.calculators.written):
    # {field: {"text": msgid, "values": {...}}}, to show them in the reader's
    # language; a text a person changed since is shown as stored.
    texts = models.JSONField(null=True, blank=True, editable=False)
    order = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["order", "id"]
        verbose_name = _("safety function")
        verbose_name_plural = _("safety functions")
        constraints = [
            models.UniqueConstraint(
                fields=["cell", "key"], name="safety_function_unique_key"
            ),
            models.UniqueConstraint(
                fields=["cell", "suggestion_key"],
                condition=~Q(suggestion_key=""),
                name="safety_function_unique_suggestion",
            ),
            models.CheckConstraint(
                condition=Q(safeguard__in=SafeguardKind.values),
                name="safety_function_safeguard_valid",
            ),
            models.CheckConstraint(
                condition=Q(stop_category__in=["", "0", "1", "2"]),
                name="safety_function_stop_category_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class DismissedFunctionSuggestion(models.Model):
    """A proposed safety function the user discarded, so it is not proposed
    again for the cell."""

    cell = models.ForeignKey(
        Cell, on_delete=models.CASCADE, related_name="dismissed_function_suggestions"
    )
    key = models.CharField(max_length=80)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["cell", "key"], name="dismissed_function_unique_key"
            )
        ]

    def __str__(self) -> str:
        return self.key


class SubsystemRole(models.TextChoices):
    INPUT = "input", _("Input (sensor)")
    LOGIC = "logic", _("Logic")
    OUTPUT = "output", _("Output (actuator)")


class SubsystemRoute(models.TextChoices):
    """How the subsystem's PL is known."""

    CERTIFIED = "certified", _("Certified: the maker's PL and PFHd")
    PL_ONLY = "pl_only", _("The maker's PL, no PFHd")
    DESIGNED = "designed", _("Designed: category, MTTFd, DCavg, CCF")


class Subsystem(models.Model):
    """One part of a safety function in series (input, logic or output), a
    library device or entered by hand, with the figures its PL is computed
    from (ISO 13849-1, 6.1.8 and Annexes C to F)."""

    function = models.ForeignKey(
        SafetyFunction,
        on_delete=models.CASCADE,
        related_name="subsystems",
        verbose_name=_("safety function"),
    )
    order = models.PositiveSmallIntegerField(default=0)
    role = models.CharField(_("role"), max_length=10, choices=SubsystemRole.choices)
    label = models.CharField(_("label"), max_length=80)
    # Where the app wrote the texts above from (compliance.calculators.written):
    # {field: {"text": msgid, "values": {...}}}, to show them in the reader's
    # language; a text a person changed since is shown as stored.
    texts = models.JSONField(null=True, blank=True, editable=False)
    library_device = models.ForeignKey(
        LibraryDevice,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="subsystems",
        verbose_name=_("library device"),
    )
    device = models.ForeignKey(
        Device,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="subsystems",
        verbose_name=_("device in the cell"),
    )
    route = models.CharField(
        _("how its PL is known"),
        max_length=10,
        choices=SubsystemRoute.choices,
        default=SubsystemRoute.CERTIFIED,
    )
    pl = models.CharField(
        _("performance level (maker)"), max_length=1, choices=PL.choices, blank=True
    )
    pfhd_per_hour = models.FloatField(
        _("PFHd (1/h)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1e-12), MaxValueValidator(PFHD_MAX)],
    )
    category = models.CharField(
        _("category"), max_length=1, choices=Category.choices, blank=True
    )
    mttfd_years = models.FloatField(
        _("MTTFd per channel (years)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0.1), MaxValueValidator(MTTFD_MAX_YEARS)],
    )
    mttfd_channel2_years = models.FloatField(
        _("MTTFd of the second channel (years)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0.1), MaxValueValidator(MTTFD_MAX_YEARS)],
    )
    b10d_cycles = models.FloatField(
        _("B10d (cycles)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(B10D_MAX)],
    )
    days_per_year = models.FloatField(
        _("operating days per year"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(366)],
    )
    hours_per_day = models.FloatField(
        _("operating hours per day"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0.1), MaxValueValidator(24)],
    )
    cycle_time_s = models.FloatField(
        _("time between operations (s)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0.01), MaxValueValidator(CYCLE_TIME_MAX_S)],
    )
    dcavg_percent = models.FloatField(
        _("DCavg (%)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(100)],
    )
    ccf_measures = models.JSONField(
        _("measures against common cause failure (Annex F)"),
        default=list,
        blank=True,
    )
    source = models.CharField(_("source of the figures"), max_length=300, blank=True)

    class Meta:
        ordering = ["order", "id"]
        verbose_name = _("subsystem")
        verbose_name_plural = _("subsystems")
        constraints = [
            models.CheckConstraint(
                condition=Q(role__in=SubsystemRole.values)
                & Q(route__in=SubsystemRoute.values),
                name="subsystem_choices_valid",
            ),
            models.CheckConstraint(
                condition=Q(pfhd_per_hour__isnull=True)
                | (Q(pfhd_per_hour__gt=0) & Q(pfhd_per_hour__lt=PFHD_MAX)),
                name="subsystem_pfhd_bounded",
            ),
        ]

    def __str__(self) -> str:
        return self.label


class ValidationTestKind(models.TextChoices):
    """The tests of a validation plan (ISO 13849-2)."""

    FUNCTION = "function", _("Functional test of the safety function")
    STOPPING_TIME = "stopping_time", _("Stopping-time measurement")
    FAULT_INJECTION = "fault_injection", _("Fault injection")
    RESET_RESTART = "reset_restart", _("Reset and restart")
    MUTING = "muting", _("Muting")


class ValidationOutcome(models.TextChoices):
    PASSED = "passed", _("Passed")
    FAILED = "failed", _("Failed")


class ValidationRecord(models.Model):
    """One validation test performed on a safety function, as recorded by
    the person responsible (ISO 13849-2): who, when, with what, the value and
    the outcome, and the function as it was then. It holds for that function
    only: once its subsystems, devices or settings change, the record stays
    as history and the test must be performed again."""

    function = models.ForeignKey(
        SafetyFunction,
        on_delete=models.CASCADE,
        related_name="validation_records",
        verbose_name=_("safety function"),
    )
    test = models.CharField(
        _("test"), max_length=20, choices=ValidationTestKind.choices
    )
    performed_by = models.CharField(_("performed by"), max_length=120)
    performed_on = models.DateField(_("date"))
    instrument = models.CharField(_("instrument"), max_length=160, blank=True)
    measured_value = models.CharField(_("value measured"), max_length=80, blank=True)
    outcome = models.CharField(
        _("outcome"), max_length=10, choices=ValidationOutcome.choices
    )
    notes = models.CharField(_("notes"), max_length=300, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)
    # The function as it was when recorded (selectors.function_fingerprint);
    # empty for a record made before the app kept it, which holds for no
    # version it can name.
    function_fingerprint = models.CharField(
        _("function recorded for"), max_length=64, blank=True, editable=False
    )

    class Meta:
        ordering = ["function_id", "test", "-performed_on", "-id"]
        verbose_name = _("validation record")
        verbose_name_plural = _("validation records")
        constraints = [
            models.CheckConstraint(
                condition=Q(test__in=ValidationTestKind.values)
                & Q(outcome__in=ValidationOutcome.values),
                name="validation_record_choices_valid",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_test_display()}: {self.get_outcome_display()}"


class PfhdTableImport(models.Model):
    """An organisation's ISO 13849-1 Annex K Table K.1, imported from its own
    licensed copy of the standard, with whose copy it is."""

    organisation = models.OneToOneField(
        Organisation, on_delete=models.CASCADE, related_name="pfhd_table"
    )
    source = models.CharField(_("source (whose licensed copy)"), max_length=200)
    rows = models.JSONField()
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    imported_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("Table K.1 import")
        verbose_name_plural = _("Table K.1 imports")

    def __str__(self) -> str:
        return self.source
