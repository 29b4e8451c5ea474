"""Signing is a declaration: what the signer states, and the open findings they
accept. Pure, no Django.

The signer confirms ``STATEMENT`` (shown and stored in their language) and
gives a reason for every open fail of the cell and for every hazard whose
residual risk is not acceptable (declared as a fail of
``checks.RESIDUAL_RULE``); the findings that need
evidence are listed and recorded with the declaration, a reason optional.
``reason_problems`` says which reasons are missing or too long;
``declare`` records the whole as ``DeclarationContent``, which the revision's
content hash covers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Literal

from compliance.assessment.checks import FAIL, CheckedFinding
from compliance.assessment.content import DeclarationContent, DeclaredFinding
from compliance.calculators.base import gettext_noop

# Not a blanket acceptance of every residual risk: each hazard whose residual
# risk is not acceptable is listed with its own reason, as the open fails are
# (issue 27).
STATEMENT = gettext_noop(
    "I have assessed the risks of this cell as recorded and estimated the "
    "residual risk of every hazard. I accept the residual risks and the open "
    "findings listed, each for the reason given."
)
REASON_MAX_CHARS = 500
# The password entered again to sign: at most what the token login takes
# (``cells.api.tokens``), so no one can make the server hash megabytes.
PASSWORD_MAX_LENGTH = 4096

Problem = Literal["missing", "too_long"]


def clean_reasons(accepted: Mapping[str, object] | None) -> dict[str, str]:
    """The reasons given, by finding key, stripped; anything but text is
    taken as no reason."""
    return {
        str(key): value.strip()
        for key, value in (accepted or {}).items()
        if isinstance(value, str)
    }


def reason_problems(
    open_findings: Sequence[CheckedFinding], reasons: Mapping[str, str]
) -> dict[str, Problem]:
    """Each open finding whose reason is missing (a fail) or too long (any),
    by key, in the order of ``open_findings``. Reasons for findings that are
    not open are ignored: the check they answered passes now."""
    problems: dict[str, Problem] = {}
    for finding in open_findings:
        reason = reasons.get(finding.key, "")
        if len(reason) > REASON_MAX_CHARS:
            problems[finding.key] = "too_long"
        elif finding.status == FAIL and not reason:
            problems[finding.key] = "missing"
    return problems


def declare(
    *,
    open_findings: Sequence[CheckedFinding],
    reasons: Mapping[str, str],
    signer: str,
    signed_at: datetime,
    statement: str,
    language: str,
) -> DeclarationContent:
    """The declaration as signed; ``signed_at`` is aware (stored in UTC)."""
    return DeclarationContent(
        signer=signer,
        signed_at=timestamp(signed_at),
        statement=statement,
        language=language,
        findings=tuple(
            DeclaredFinding(
                key=f.key,
                rule_id=f.rule_id,
                subject_key=f.subject_key,
                subject=f.subject,
                status=f.status,
                message=f.message,
                reason=reasons.get(f.key, ""),
            )
            for f in open_findings
        ),
    )


def timestamp(moment: datetime) -> str:
    """One spelling of a moment for the hash: ISO 8601 in UTC."""
    if moment.tzinfo is None:
        raise ValueError("the moment of signing must be timezone-aware")
    return moment.astimezone(UTC).isoformat()
