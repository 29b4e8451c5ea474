"""The compliance app's models, one module per feature; imported here so that
Django finds them under the one app label ``compliance``."""

from __future__ import annotations

from compliance.assessment.audit import AuditEntry
from compliance.assessment.models import (
    Assessment,
    CollaborativeMode,
    Hazard,
    Measure,
    MeasureStep,
    Phase,
    Revision,
    RevisionStatus,
    RiskParameter,
)
from compliance.costs.models import (
    CURRENCY_CHOICES,
    CatalogueEdit,
    CustomLineItem,
    LineItemEdit,
)
from compliance.plan.models import PlanAssumption
from compliance.proposals.models import Proposal, ProposalDocument

__all__ = [
    "CURRENCY_CHOICES",
    "Assessment",
    "AuditEntry",
    "CatalogueEdit",
    "CollaborativeMode",
    "CustomLineItem",
    "Hazard",
    "LineItemEdit",
    "Measure",
    "MeasureStep",
    "Phase",
    "PlanAssumption",
    "Proposal",
    "ProposalDocument",
    "Revision",
    "RevisionStatus",
    "RiskParameter",
]
