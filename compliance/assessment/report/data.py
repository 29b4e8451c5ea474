"""Everything the risk-assessment report shows, as one frozen pydantic object.

Pure pydantic, no Django. Domain strings (hazard groups, phases, acceptance
reasons, the role of the signer) arrive in the report's language; the builder
translates only its fixed labels (through the proposal PDF's i18n shim) and
formats dates for the reader.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Language = Literal["en", "ko"]
Status = Literal["draft", "in_review", "approved", "signed"]
Step = Literal["inherently_safe_design", "safeguarding", "information_for_use"]
PL = Literal["a", "b", "c", "d", "e"]
# The three steps of risk reduction, in the order of ISO 12100:2010 6.1.
STEPS: tuple[Step, ...] = (
    "inherently_safe_design",
    "safeguarding",
    "information_for_use",
)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Limit(_Frozen):
    """One limit of the machine (ISO 12100:2010 5.3): its label and text."""

    label: str
    text: str = ""


class MeasureRow(_Frozen):
    step: Step
    description: str
    linked: str = ""  # the device or guard it relies on, as labelled
    # "PLr d · PL e" for a safety function, else "".
    safety_function: str = ""
    # Why the measure cannot count (its device's or guard's check fails).
    ineffective: str = ""


class HazardRow(_Frozen):
    number: int = Field(ge=1)
    group: str
    hazard: str  # origin → consequence
    description: str = ""
    phase: str
    task: str
    place: str = ""
    severity: str = ""
    frequency: str = ""
    avoidance: str = ""
    low_probability: bool = False
    plr: PL | None = None
    level: str = ""  # the initial risk level, in the report's language
    residual_severity: str = ""
    residual_frequency: str = ""
    residual_avoidance: str = ""
    residual_plr: PL | None = None
    residual_level: str = ""
    acceptable: bool = False
    reasons: tuple[str, ...] = ()  # why it is not acceptable
    measures: tuple[MeasureRow, ...] = ()

    @property
    def sfp(self) -> str:
        values = [self.severity, self.frequency, self.avoidance]
        return " ".join(values) if all(values) else "—"

    @property
    def residual_sfp(self) -> str:
        values = [
            self.residual_severity,
            self.residual_frequency,
            self.residual_avoidance,
        ]
        return " ".join(values) if all(values) else "—"


class DeclaredFinding(_Frozen):
    """An open finding at signing: a fail with the reason it was accepted,
    or one that needed evidence."""

    status: Literal["fail", "needs_evidence"]
    rule_id: str
    subject: str = ""
    message: str = ""
    reason: str = ""


class Declaration(_Frozen):
    """The signer's declaration as signed: in their words and language."""

    signer: str
    signed_at: datetime  # aware, in the zone to print it in
    statement: str
    findings: tuple[DeclaredFinding, ...] = ()
    # Frozen with it (issue 17), in words: the robot's safety configuration
    # assessed ("" when the cell recorded none or it was signed before), and
    # what the findings were computed under.
    safety_configuration: str = ""
    computed_under: tuple[str, ...] = ()


class Integrity(_Frozen):
    """The revision's content hash and whether its seal verifies now."""

    content_hash: str
    verifies: bool


class ReportMeta(_Frozen):
    organisation: str
    project: str
    cell: str
    revision: int = Field(ge=1)
    status: Status
    status_label: str  # in the report's language
    signer_name: str = ""
    signer_role: str = ""  # in the report's language
    signed_on: date | None = None  # in the reader's time zone
    printed_on: date


class ReportData(_Frozen):
    language: Language = "en"
    meta: ReportMeta
    limits: tuple[Limit, ...]
    hazards: tuple[HazardRow, ...] = ()
    acceptance_basis: str = ""
    declaration: Declaration | None = None
    integrity: Integrity | None = None

    @property
    def signed(self) -> bool:
        return self.meta.status == "signed"

    @model_validator(mode="after")
    def _signed_has_its_check(self) -> ReportData:
        if self.signed and self.integrity is None:
            raise ValueError("a signed revision is printed with its integrity check")
        if not self.signed and (self.integrity or self.declaration):
            raise ValueError("an unsigned revision has no seal and no declaration")
        return self
