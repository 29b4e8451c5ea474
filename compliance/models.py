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
from compliance.concepts.models import ConceptKind, GuardingConcept
from compliance.costs.models import (
    CURRENCY_CHOICES,
    CatalogueEdit,
    CustomLineItem,
    ExchangeRate,
    LineItemEdit,
)
from compliance.costs.quotes.models import MatchedBy, QuoteRow, SupplierQuote
from compliance.plan.labour.models import LabourRate, WorkDefault
from compliance.plan.models import PlanAssumption
from compliance.proposals.models import (
    Proposal,
    ProposalDocument,
    ProposalPreview,
    ProposalPreviewPage,
    ProposalText,
)
from compliance.safety_functions.models import (
    DismissedFunctionSuggestion,
    LibraryDevice,
    PfhdTableImport,
    SafetyFunction,
    Subsystem,
    ValidationRecord,
)

__all__ = [
    "CURRENCY_CHOICES",
    "Assessment",
    "AuditEntry",
    "CatalogueEdit",
    "CollaborativeMode",
    "ConceptKind",
    "CustomLineItem",
    "DismissedFunctionSuggestion",
    "ExchangeRate",
    "GuardingConcept",
    "Hazard",
    "LabourRate",
    "LibraryDevice",
    "LineItemEdit",
    "MatchedBy",
    "Measure",
    "MeasureStep",
    "PfhdTableImport",
    "Phase",
    "PlanAssumption",
    "Proposal",
    "ProposalDocument",
    "ProposalPreview",
    "ProposalPreviewPage",
    "ProposalText",
    "QuoteRow",
    "Revision",
    "RevisionStatus",
    "RiskParameter",
    "SafetyFunction",
    "Subsystem",
    "SupplierQuote",
    "ValidationRecord",
    "WorkDefault",
]
