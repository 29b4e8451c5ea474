"""Report data to build from without a database."""

from __future__ import annotations

from datetime import UTC, date, datetime

from compliance.assessment.report.data import (
    Declaration,
    DeclaredFinding,
    HazardRow,
    Integrity,
    Limit,
    MeasureRow,
    ReportData,
    ReportMeta,
)


def sample_report(
    *, language: str = "en", status: str = "signed", verifies: bool = True, hazards=2
) -> ReportData:
    signed = status == "signed"
    rows = tuple(
        HazardRow(
            number=n,
            group="Mechanical hazards",
            hazard="Moving elements → Crushing",
            phase="Operation",
            task=f"Loading parts at the infeed {n}",
            place="F1 / Infeed",
            severity="S2",
            frequency="F2",
            avoidance="P1",
            plr="d",
            level="High",
            residual_severity="S2",
            residual_frequency="F1",
            residual_avoidance="P1",
            residual_plr="c",
            residual_level="Medium",
            acceptable=n % 2 == 1,
            reasons=()
            if n % 2 == 1
            else ("The residual risk has not been estimated.",),
            measures=(
                MeasureRow(step="inherently_safe_design", description="Lower speed"),
                MeasureRow(
                    step="safeguarding",
                    description="Light curtain at the infeed",
                    linked="LC1",
                    safety_function="PLr d · PL e",
                ),
                MeasureRow(step="information_for_use", description="Warning sign"),
            ),
        )
        for n in range(1, hazards + 1)
    )
    return ReportData(
        language=language,
        meta=ReportMeta(
            organisation="Acme Robotics",
            project="Line 4",
            cell="Palletiser P-7",
            revision=3,
            status=status,
            status_label="Signed" if signed else "Draft",
            signer_name="Kim Minji" if signed else "",
            signer_role="Safety engineer" if signed else "",
            signed_on=date(2026, 12, 1) if signed else None,
            printed_on=date(2026, 12, 1),
        ),
        limits=(
            Limit(label="Intended use", text="Palletising cartons of up to 12 kg"),
            Limit(label="Reasonably foreseeable misuse", text="Reaching in"),
            Limit(label="Space limits", text="Robot base at x 0, y 0 mm"),
            Limit(label="Time limits (life cycle)", text="20 years"),
            Limit(label="Persons exposed", text="Operators, Maintenance staff"),
            Limit(label="Low guard justification", text=""),
            Limit(label="Conformity route", text=""),
        ),
        hazards=rows,
        acceptance_basis="The acceptance rule is a choice of Cell Safety Planner.",
        declaration=Declaration(
            signer="kim",
            signed_at=datetime(2026, 12, 1, 9, 30, tzinfo=UTC),
            statement="I have assessed the risks of this cell as recorded.",
            findings=(
                DeclaredFinding(
                    status="fail",
                    rule_id="INTL-13855-distance",
                    subject="LC1",
                    message="Too close",
                    reason="Moved next week",
                ),
            ),
        )
        if signed
        else None,
        integrity=Integrity(content_hash="ab" * 32, verifies=verifies)
        if signed
        else None,
    )
