"""Writes of the plan: the project's own durations and costs of its
activities, replacing the assumption defaults. Bad input raises a
``ValidationError`` naming the field; a change sent with a stale version, a
``Conflict`` (issue 28)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from cells.models import Cell
from cells.permissions import require_edit
from compliance.costs.services import check_ranges, versioned_upsert
from compliance.plan.inputs import COSTED_KEYS, EDITABLE_DURATION_KEYS, WORK_KEYS
from compliance.plan.labour.costing import PER_NAMES, ROLES, UNITS
from compliance.plan.labour.services import check_effort
from compliance.plan.models import PlanAssumption


@transaction.atomic
def plan_assumption_set(
    *, cell: Cell, actor, key: str, version: int | None = None, **fields
) -> PlanAssumption:
    """The project's own duration (and cost) of one activity of the plan,
    replacing the assumption default. Made on its first save, then changed
    under a lock and refused on a stale ``version`` (``versioned_upsert``)."""
    require_edit(actor, cell.project.organisation_id)
    if key not in EDITABLE_DURATION_KEYS | COSTED_KEYS:
        raise ValidationError({"key": _("This activity's figures cannot be edited.")})
    check_ranges(
        fields, ("cost_low", "cost_high"), ("weeks_low", "weeks_high"), money="currency"
    )
    _check_effort(key, fields)
    if fields.get("weeks_low") is not None and key not in EDITABLE_DURATION_KEYS:
        raise ValidationError(
            {"weeks_low": _("This activity's duration comes from the cost lines.")}
        )
    currency = fields.get("currency") or ""
    if fields.get("cost_low") is not None:
        others = set(
            cell.plan_assumptions.exclude(key=key)
            .exclude(cost_low=None)
            .values_list("currency", flat=True)
        )
        if others and others != {currency}:
            raise ValidationError(
                {
                    "currency": _(
                        "The plan's costs are in %(currency)s: enter this one in "
                        "the same currency."
                    )
                    % {"currency": ", ".join(sorted(others))}
                }
            )
    sent = {**fields, "currency": currency}
    return versioned_upsert(
        PlanAssumption,
        {"cell": cell, "key": key},
        {**sent, "updated_by": actor},
        version,
        list(sent),
    )


def _check_effort(key: str, fields: dict) -> None:
    """The project's own effort: both ends, bounded, with the role and the
    unit; refused for an activity that is not work (the procurement). The
    fields left out are cleared."""
    fields.setdefault("effort_low", None)
    fields.setdefault("effort_high", None)
    check_effort(fields)
    if fields["effort_low"] is None:
        fields.update(role="", effort_unit="", effort_per="activity")
        return
    if key not in WORK_KEYS:
        raise ValidationError(
            {"effort_low": _("This activity's cost comes from the cost lines.")}
        )
    errors = {}
    if fields.get("role") not in ROLES:
        errors["role"] = _("Choose the role doing the work.")
    if fields.get("effort_unit") not in UNITS:
        errors["effort_unit"] = _("Choose hours or days.")
    if (fields.get("effort_per") or "activity") not in PER_NAMES:
        errors["effort_per"] = _("Choose how the effort is counted.")
    if errors:
        raise ValidationError(errors)
    fields["effort_per"] = fields.get("effort_per") or "activity"


@transaction.atomic
def plan_assumption_reset(*, cell: Cell, actor, key: str) -> None:
    require_edit(actor, cell.project.organisation_id)
    PlanAssumption.objects.filter(cell=cell, key=key).delete()
