"""Risk-assessment pages: the hazard register of a cell, edited in place.

Views authorise, parse a form, call one service and render. For htmx the
register answers with fragments: the whole register after adding, accepting
or deleting; a single row for inline editing.

The URLconf names the views from here; each lives with its feature: ``page``
(the register page, the limits, the suggestions), ``hazards`` (a row's hazard
and its measures), ``revisions`` (the workflow, signing, the diff and the
history). ``register`` holds what they share: the rows and the page's context.
"""

from __future__ import annotations

from compliance.assessment.views.hazards import (
    hazard_add,
    hazard_delete,
    hazard_edit,
    hazard_row,
    measure_add,
    measure_delete,
    measure_edit,
)
from compliance.assessment.views.page import (
    assessment,
    assessment_start,
    limits_edit,
    suggestion_accept,
    suggestion_dismiss,
)
from compliance.assessment.views.revisions import (
    assessment_history,
    revision_action,
    revision_diff,
)

__all__ = [
    "assessment",
    "assessment_history",
    "assessment_start",
    "hazard_add",
    "hazard_delete",
    "hazard_edit",
    "hazard_row",
    "limits_edit",
    "measure_add",
    "measure_delete",
    "measure_edit",
    "revision_action",
    "revision_diff",
    "suggestion_accept",
    "suggestion_dismiss",
]
