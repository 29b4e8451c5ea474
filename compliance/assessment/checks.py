"""What the cell's compliance checks say to its risk assessment. Pure, no Django.

The findings of ``compliance.rules`` reach the assessment twice:

- In the register, a measure that relies on a device or guard whose check
  fails is *ineffective*: it cannot lower the residual risk. A hazard whose
  contact fails the ISO/TS 15066 power and force limiting check
  (``INTL-15066-pfl``) is not acceptable. ``acceptability`` applies both,
  with the rest of the product's rule (``hazards.risk.residual_acceptable``).
- At signing, the open findings (fail and needs evidence) are what the
  signer declares to accept, each fail with a reason (``declaration``). A
  hazard whose residual risk is estimated but not acceptable is declared the
  same way, as a fail of ``RESIDUAL_RULE`` on the hazard (``residual_finding``):
  its reason is recorded with the declaration and sealed with it.

Each finding has a ``key`` that stays the same while the finding does:
``"<rule id>|<subject key>"`` (``"INTL-13855-distance|device:12"``), with
``"#2"``, ``"#3"``... for a second and third finding of one rule on one subject.
The API takes reasons by this key.

``CellChecks`` is built once per page or API request from the cell's findings
(``compliance.rules.selectors.cell_checks``) and handed down to every
hazard and measure; messages are rendered in the reader's language then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from pydantic import BaseModel, ConfigDict, PrivateAttr

from compliance.assessment.hazards import risk
from compliance.rules.findings import Finding

PFL_RULE = "INTL-15066-pfl"
# The product's acceptance rule on a hazard's residual risk
# (``hazards.risk.residual_acceptable``), as the signer declares it: not a
# rule of the compliance checks, and not a clause of a standard.
RESIDUAL_RULE = "CSP-residual-risk"
RESIDUAL_CITATION = "ISO 12100:2010, 5.6"
FAIL = "fail"
NEEDS_EVIDENCE = "needs_evidence"
# What a signer declares: fails first, then what cannot be checked.
OPEN_STATUSES = (FAIL, NEEDS_EVIDENCE)


def finding_key(rule_id: str, subject_key: str, occurrence: int = 1) -> str:
    """The stable key of a finding: ``"<rule id>|<subject key>"``, ``#n`` for
    the n-th finding of the same rule on the same subject."""
    key = f"{rule_id}|{subject_key}"
    return key if occurrence == 1 else f"{key}#{occurrence}"


class CheckedFinding(BaseModel):
    """One finding of the cell as the assessment uses it."""

    model_config = ConfigDict(frozen=True)

    key: str
    rule_id: str
    status: str  # pass, fail, warning, needs_evidence
    subject_key: str  # "device:12", "segment:3", a hazard key, "cell"...
    subject: str  # its label
    message: str  # in the reader's language
    citation: str = ""
    numbers: dict[str, int | float] = {}
    # A contact's figures (power and force limiting), as the finding types them.
    speed_mm_s: int | float | None = None
    permissible_mm_s: int | float | None = None


class MeasureLike(Protocol):
    """What ``acceptability`` reads of a measure (``models.Measure``)."""

    description: str
    linked_label: str
    device_id: int | None
    segment_id: int | None
    step: str
    is_safety_function: bool
    plr_required: str
    pl_claimed: str


class CellChecks(BaseModel):
    """The findings of one cell, looked up by subject."""

    model_config = ConfigDict(frozen=True)

    findings: tuple[CheckedFinding, ...] = ()
    # Indexes of the findings, made when first looked up.
    _fails: dict[str, tuple[CheckedFinding, ...]] | None = PrivateAttr(default=None)
    _pfl_fails: tuple[CheckedFinding, ...] | None = PrivateAttr(default=None)

    @classmethod
    def of(
        cls, findings: Iterable[Finding], translate: Callable[[str], str]
    ) -> CellChecks:
        """From the rules' findings, in the rules' order; ``translate`` is
        Django's ``gettext`` (in the reader's language)."""
        seen: dict[str, int] = {}
        checked = []
        for f in findings:
            base = finding_key(f.rule_id, f.subject_key)
            seen[base] = seen.get(base, 0) + 1
            checked.append(
                CheckedFinding(
                    key=finding_key(f.rule_id, f.subject_key, seen[base]),
                    rule_id=f.rule_id,
                    status=str(f.status),
                    subject_key=f.subject_key,
                    subject=f.subject_label,
                    message=f.render(translate),
                    citation=f.citation,
                    numbers=dict(f.numbers),
                    speed_mm_s=f.speed_mm_s,
                    permissible_mm_s=f.permissible_mm_s,
                )
            )
        return cls(findings=tuple(checked))

    def failing(self, subject_key: str) -> tuple[CheckedFinding, ...]:
        return self._fails_by_subject().get(subject_key, ())

    def _fails_by_subject(self) -> dict[str, tuple[CheckedFinding, ...]]:
        # Looked up for every measure and hazard of a register: indexed once.
        if self._fails is None:
            index: dict[str, list[CheckedFinding]] = {}
            for f in self.findings:
                if f.status == FAIL:
                    index.setdefault(f.subject_key, []).append(f)
            self._fails = {key: tuple(found) for key, found in index.items()}
        return self._fails

    def measure_failure(self, measure: MeasureLike) -> CheckedFinding | None:
        """The first failing check of the device or guard the measure relies
        on, or None (no link, or nothing fails)."""
        if measure.device_id is not None:
            subject = f"device:{measure.device_id}"
        elif measure.segment_id is not None:
            subject = f"segment:{measure.segment_id}"
        else:
            return None
        fails = self.failing(subject)
        return fails[0] if fails else None

    def contact_failures(
        self, hazard_key: str, body_region: str = ""
    ) -> tuple[CheckedFinding, ...]:
        """The failing power and force limiting checks of a hazard: by its key
        when the signed revision records contacts, else by its body region."""
        subjects = {hazard_key, body_region} - {""}
        if self._pfl_fails is None:
            self._pfl_fails = tuple(
                f for f in self.findings if f.rule_id == PFL_RULE and f.status == FAIL
            )
        return tuple(f for f in self._pfl_fails if f.subject_key in subjects)

    def open(self) -> tuple[CheckedFinding, ...]:
        """The fails, then the findings that need evidence (rules' order kept)."""
        return tuple(
            f for status in OPEN_STATUSES for f in self.findings if f.status == status
        )


def ineffective_measures(
    measures: Sequence[MeasureLike], checks: CellChecks
) -> list[risk.IneffectiveMeasure]:
    found = []
    for m in measures:
        failure = checks.measure_failure(m)
        if failure is not None:
            found.append(
                risk.IneffectiveMeasure(
                    measure=m.description,
                    linked=m.linked_label or failure.subject,
                    rule_id=failure.rule_id,
                    message=failure.message,
                )
            )
    return found


def failing_contacts(
    hazard_key: str, body_region: str, checks: CellChecks
) -> list[risk.FailingContact]:
    return [
        risk.FailingContact(
            rule_id=f.rule_id,
            message=f.message,
            speed_mm_s=f.speed_mm_s,
            permissible_mm_s=f.permissible_mm_s,
        )
        for f in checks.contact_failures(hazard_key, body_region)
    ]


def below_plr(measure: MeasureLike, hazard_plr: str | None) -> bool:
    """Whether a safety function's claimed PL falls short of the PL it must
    reach: the PLr recorded with it or, when none is, the hazard's risk-graph
    PLr (``hazard_plr``). A PLr left blank (the measure recorded before the
    hazard was estimated, or marked a safety function later) is no pass: the
    hazard's estimate is the record it is checked against."""
    if not measure.is_safety_function:
        return False
    required = measure.plr_required or hazard_plr
    if not required:
        return False  # the hazard is not estimated: a reason of its own
    claimed = measure.pl_claimed
    return not claimed or not risk.pl_at_least(claimed, required)


def residual_finding(
    *,
    hazard_key: str,
    task: str,
    verdict: risk.Acceptability,
    translate: Callable[[str], str],
) -> CheckedFinding:
    """A hazard whose residual risk is not acceptable (``verdict``), as the
    signer declares it: a fail of ``RESIDUAL_RULE`` on the hazard that needs
    its own reason, its message the verdict's reasons in the signer's
    language (``translate``: Django's ``gettext``)."""
    subject_key = f"hazard:{hazard_key}"
    message = " ".join(reason.render(translate) for reason in verdict.reasons)
    return CheckedFinding(
        key=finding_key(RESIDUAL_RULE, subject_key),
        rule_id=RESIDUAL_RULE,
        status=FAIL,
        subject_key=subject_key,
        subject=task,
        message=message,
        citation=RESIDUAL_CITATION,
    )


def is_residual(finding_rule_id: str) -> bool:
    """Whether a declared finding is a hazard's residual risk accepted."""
    return finding_rule_id == RESIDUAL_RULE


def acceptability(
    *,
    initial: risk.RiskEstimate | None,
    residual: risk.RiskEstimate | None,
    hazard_key: str,
    body_region: str,
    measures: Sequence[MeasureLike],
    checks: CellChecks,
) -> risk.Acceptability:
    """The product's acceptance rule on one hazard, with what the cell's
    checks say about its measures and its contact."""
    hazard_plr = initial.plr if initial is not None else None
    return risk.residual_acceptable(
        initial,
        residual,
        not any(below_plr(m, hazard_plr) for m in measures),
        measure_steps=[m.step for m in measures],
        ineffective=ineffective_measures(measures, checks),
        failing_contacts=failing_contacts(hazard_key, body_region, checks),
    )
