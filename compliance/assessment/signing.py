"""What signing asks of a revision before it is signed, and what the signer
declares besides the cell's open findings: the limits of the machine stated
(ISO 12100:2010, 5.3), every hazard's risk and residual risk estimated, and a
reason for each open fail and for each hazard whose residual risk is not
acceptable (issue 27). ``services.revision_sign`` and the signing preview call
these; they write nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils import translation
from django.utils.translation import gettext as _

from cells.models import Cell
from compliance.assessment import checks, declaration, selectors
from compliance.assessment.checks import CheckedFinding
from compliance.assessment.models import Revision
from compliance.calculators.written import field_shown

# The limits of the machine (ISO 12100:2010 5.3) a revision must state to be
# signed; the justification and the route are asked for only where a rule needs
# them.
SIGN_REQUIRED_LIMITS = (
    "intended_use",
    "foreseeable_misuse",
    "space_limits",
    "time_limits",
    "exposed_persons",
)


def blank_limits(revision: Revision) -> dict[str, str]:
    """A message naming each limit of the machine the revision leaves blank.

    Read from the database: the object in hand may predate the last save.
    """
    stored = Revision.objects.values(*SIGN_REQUIRED_LIMITS).get(pk=revision.pk)
    errors = {}
    for name in SIGN_REQUIRED_LIMITS:
        value = stored[name]
        if not (value.strip() if isinstance(value, str) else value):
            errors[name] = _(
                "Record the %(field)s before signing (ISO 12100:2010, 5.3)."
            ) % {"field": Revision._meta.get_field(name).verbose_name}
    return errors


def residual_findings(
    revision: Revision, cell_checks: checks.CellChecks
) -> tuple[CheckedFinding, ...]:
    """Each hazard whose residual risk is estimated and not acceptable, by the
    rule the register applies, with the cell's checks as signing will see
    them. A hazard not yet estimated is not among them: signing refuses it
    (``unestimated_errors``)."""
    found = []
    for hazard in selectors.register(revision):
        initial, residual = selectors.hazard_estimates(hazard)
        if initial is None or residual is None:
            continue
        verdict = checks.acceptability(
            initial=initial,
            residual=residual,
            hazard_key=str(hazard.key),
            body_region=hazard.body_region,
            measures=list(hazard.measures.all()),
            checks=cell_checks,
        )
        if not verdict.acceptable:
            found.append(
                checks.residual_finding(
                    hazard_key=str(hazard.key),
                    task=field_shown(hazard, "task", _),
                    verdict=verdict,
                    translate=_,
                )
            )
    return tuple(found)


def unestimated_errors(revision: Revision) -> dict[str, str]:
    """A message naming the hazards whose risk, then those whose residual
    risk, is not estimated: signing needs both for every hazard (no estimate
    is never taken to mean "no risk", ``hazards.risk.residual_acceptable``).
    Read from the database, as locked for signing."""
    hazards = list(revision.hazards.all())
    errors = {}
    unestimated = [h for h in hazards if not h.is_estimated]
    if unestimated:
        errors[NON_FIELD_ERRORS] = _(
            "Estimate the risk of every hazard before signing. Not estimated: %(tasks)s."
        ) % {"tasks": "; ".join(field_shown(h, "task", _) for h in unestimated)}
    # A hazard not estimated at all is named once, above.
    residual = [h for h in hazards if h.is_estimated and not h.is_residual_estimated]
    if residual:
        errors["residual_risk"] = _(
            "Estimate the residual risk of every hazard before signing, even where "
            "the measures leave it unchanged (ISO 12100:2010, 5.6). Not "
            "estimated: %(tasks)s."
        ) % {"tasks": "; ".join(field_shown(h, "task", _) for h in residual)}
    return errors


def concept_errors(revision: Revision) -> dict[str, str]:
    """Signing is for the guarding the customer chose: when the cell's
    guarding concepts are designed, the assessment (of the cell as drawn) is
    signed only once the cell as drawn is the chosen concept; the others are
    indicative. Read through the cell's concepts (``compliance.concepts``,
    a room above this one: by the relation, not by an import)."""
    concepts = revision.assessment.cell.concepts.all()
    if not concepts:
        return {}
    chosen = next((c for c in concepts if c.chosen), None)
    if chosen is None:
        return {
            "concept": _(
                "Choose the guarding concept this assessment is for on the "
                "Concepts tab: the cell as drawn, once chosen, is signed; the "
                "other concepts are indicative."
            )
        }
    if chosen.kind != "as_drawn":
        return {
            "concept": _(
                "The chosen guarding concept is “%(name)s”, but the assessment is "
                "of the cell as drawn: draw the chosen guarding on the cell (or "
                "choose the cell as drawn) before signing."
            )
            % {"name": chosen.get_kind_display()}
        }
    return {}


def reason_errors(
    open_findings: tuple[CheckedFinding, ...], reasons: Mapping[str, str]
) -> list[ValidationError]:
    """One error per open finding whose reason is missing or too long; its
    ``params["key"]`` is the finding's key (the API and the form use it)."""
    by_key = {f.key: f for f in open_findings}
    errors = []
    for key, problem in declaration.reason_problems(open_findings, reasons).items():
        finding = by_key[key]
        params = {
            "key": key,
            "rule": finding.rule_id,
            "subject": finding.subject,
            "max": declaration.REASON_MAX_CHARS,
        }
        if problem == "too_long":
            message = _("Keep the reason to %(max)s characters: %(rule)s, %(subject)s.")
        elif checks.is_residual(finding.rule_id):
            message = _(
                "Give the reason you accept the residual risk of “%(subject)s”: "
                "it is not acceptable as estimated."
            )
        else:
            message = _(
                "Give the reason you accept this failing finding: %(rule)s, %(subject)s."
            )
        errors.append(ValidationError(message, code=problem, params=params))
    return errors


def signed_statement(revision: Revision) -> tuple[str, str]:
    """The statement a signer confirms and the record keeps, and its
    language: the project's (its proposal language), whatever language the
    signer reads the app in, so that the declaration is the same text through
    the pages and the API (issue 30)."""
    language = (
        Cell.objects.filter(pk=revision.assessment.cell_id)
        .values_list("project__proposal_language", flat=True)
        .get()
    )
    with translation.override(language):
        return _(declaration.STATEMENT), language


def statement_translation(declared) -> str:
    """The signed statement in the reader's language when it was signed in
    another (the project's, or before issue 30 the signer's) and is the
    app's own statement; "" otherwise: a text is never translated by guess."""
    language = getattr(declared, "language", "") or ""
    if not language or language == (translation.get_language() or ""):
        return ""
    with translation.override(language):
        signed_as = _(declaration.STATEMENT)
    if declared.statement != signed_as:
        return ""
    return _(declaration.STATEMENT)
