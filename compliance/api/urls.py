from __future__ import annotations

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from compliance.api import (
    assessment_views,
    cost_views,
    findings_views,
    proposal_views,
    views,
)
from compliance.calculators.registry import CALCULATORS

# The risk assessment: names in the "compliance-api" namespace
# (``compliance-api:hazard-detail``), apart from the calculators' own. No root
# view: /api/v1/ is the cells router's.
router = DefaultRouter()
router.include_root_view = False
router.register(
    "assessments", assessment_views.AssessmentViewSet, basename="assessment"
)
router.register("revisions", assessment_views.RevisionViewSet, basename="revision")
router.register("hazards", assessment_views.HazardViewSet, basename="hazard")
router.register("measures", assessment_views.MeasureViewSet, basename="measure")

urlpatterns = [
    path("calculators/", views.CalculatorListView.as_view(), name="calculator-list"),
    path(
        "calculators/ts15066-body-regions/",
        views.BodyRegionsView.as_view(),
        name="calculator-body-regions",
    ),
    *(
        path(
            f"calculators/{name}/",
            views.calculator_view(calc).as_view(),
            name=f"calculator-{name}",
        )
        for name, calc in CALCULATORS.items()
    ),
    path(
        "cells/<int:pk>/findings/",
        findings_views.CellFindingsView.as_view(),
        name="cell-findings",
    ),
    path(
        "cells/<int:pk>/line-items/",
        findings_views.CellLineItemsView.as_view(),
        name="cell-line-items",
    ),
    path(
        "cells/<int:pk>/plan/", findings_views.CellPlanView.as_view(), name="cell-plan"
    ),
    path(
        "cells/<int:pk>/safeguards/",
        cost_views.CellSafeguardsView.as_view(),
        name="cell-safeguards",
    ),
    path(
        "cells/<int:pk>/line-items/<str:key>/",
        cost_views.CellLineItemView.as_view(),
        name="cell-line-item",
    ),
    path(
        "cells/<int:pk>/custom-line-items/",
        cost_views.CustomLineListView.as_view(),
        name="cell-custom-line-items",
    ),
    path(
        "cells/<int:pk>/custom-line-items/<int:line_pk>/",
        cost_views.CustomLineDetailView.as_view(),
        name="cell-custom-line-item",
    ),
    path(
        "cells/<int:pk>/plan/assumptions/<str:key>/",
        cost_views.PlanAssumptionView.as_view(),
        name="cell-plan-assumption",
    ),
    path(
        "organisations/<int:pk>/catalogue/",
        cost_views.CatalogueView.as_view(),
        name="organisation-catalogue",
    ),
    path(
        "organisations/<int:pk>/catalogue/<str:key>/",
        cost_views.CatalogueEntryView.as_view(),
        name="organisation-catalogue-entry",
    ),
    path(
        "cells/<int:pk>/proposals/",
        proposal_views.CellProposalsView.as_view(),
        name="cell-proposals",
    ),
    path(
        "proposal-documents/<int:pk>/",
        proposal_views.ProposalDocumentView.as_view(),
        name="proposal-document",
    ),
    path(
        "proposal-documents/<int:pk>/pdf/",
        proposal_views.ProposalDocumentPdfView.as_view(),
        name="proposal-document-pdf",
    ),
    path("", include((router.urls, "compliance-api"))),
]
