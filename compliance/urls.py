from __future__ import annotations

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from compliance import compliance_page
from compliance.assessment import api as assessment_api
from compliance.assessment import report_views
from compliance.assessment import views as a
from compliance.assessment.register_xlsx import api as register_api
from compliance.assessment.register_xlsx import views as register_views
from compliance.calculators import api as calculator_api
from compliance.calculators import views
from compliance.calculators.registry import CALCULATORS
from compliance.concepts import api as concept_api
from compliance.concepts import views as concept_views
from compliance.costs import api as cost_api
from compliance.costs import rate_api, rate_views
from compliance.costs import views as cost_views
from compliance.costs.quotes import api as quote_api
from compliance.costs.quotes import views as quote_views
from compliance.motion import views as motion_views
from compliance.plan import api as plan_api
from compliance.plan import views as plan_views
from compliance.plan.labour import api as labour_api
from compliance.plan.labour import views as labour_views
from compliance.proposals import api as proposal_api
from compliance.proposals import views as proposal_views
from compliance.rules import api as rules_api
from compliance.rules import views as compliance_views
from compliance.safety_functions import urls as function_urls
from compliance.safety_functions.library import urls as library_urls

app_name = "compliance"
urlpatterns = [
    path("calculators/", views.calculator_list, name="calculator_list"),
    path("calculators/<slug:name>/", views.calculator_detail, name="calculator_detail"),
    path("rules/", compliance_views.rules, name="rules"),
    path(
        "cells/<int:cell_pk>/compliance/",
        compliance_page.cell_compliance,
        name="cell_compliance",
    ),
    path(
        "cells/<int:cell_pk>/compliance/summary/",
        compliance_views.compliance_summary,
        name="compliance_summary",
    ),
    path("cells/<int:cell_pk>/costs/", cost_views.cell_costs, name="cell_costs"),
    path(
        "cells/<int:cell_pk>/concepts/",
        concept_views.cell_concepts,
        name="cell_concepts",
    ),
    path(
        "projects/<int:project_pk>/concepts/",
        concept_views.project_concepts,
        name="project_concepts",
    ),
    path(
        "cells/<int:cell_pk>/concepts/design/",
        concept_views.concepts_generate,
        name="concepts_generate",
    ),
    path(
        "cells/<int:cell_pk>/concepts/<int:pk>/copy/",
        concept_views.concept_copy,
        name="concept_copy",
    ),
    path(
        "cells/<int:cell_pk>/concepts/<int:pk>/choose/",
        concept_views.concept_choose,
        name="concept_choose",
    ),
    path(
        "cells/<int:cell_pk>/costs/custom/new/",
        cost_views.custom_line_add,
        name="custom_line_add",
    ),
    path(
        "cells/<int:cell_pk>/costs/custom/<int:pk>/edit/",
        cost_views.custom_line_edit,
        name="custom_line_edit",
    ),
    path(
        "cells/<int:cell_pk>/costs/custom/<int:pk>/delete/",
        cost_views.custom_line_remove,
        name="custom_line_delete",
    ),
    path(
        "cells/<int:cell_pk>/costs/<str:key>/edit/",
        cost_views.line_item_edit_view,
        name="line_item_edit",
    ),
    path("cells/<int:cell_pk>/plan/", plan_views.cell_plan, name="cell_plan"),
    # The robot's programs judged segment by segment (issue 32).
    path("cells/<int:cell_pk>/motion/", motion_views.cell_motion, name="cell_motion"),
    path(
        "cells/<int:cell_pk>/motion/import/",
        motion_views.motion_import,
        name="motion_import",
    ),
    path(
        "cells/<int:cell_pk>/motion/<int:pk>/",
        motion_views.motion_program,
        name="motion_program",
    ),
    path(
        "cells/<int:cell_pk>/motion/<int:pk>/delete/",
        motion_views.motion_delete,
        name="motion_delete",
    ),
    path(
        "cells/<int:cell_pk>/motion/<int:pk>/file/",
        motion_views.motion_file,
        name="motion_file",
    ),
    path(
        "cells/<int:cell_pk>/motion/<int:pk>/annotated/",
        motion_views.motion_annotated,
        name="motion_annotated",
    ),
    path(
        "cells/<int:cell_pk>/plan/<str:key>/edit/",
        plan_views.plan_assumption_edit,
        name="plan_assumption_edit",
    ),
    path("cells/<int:cell_pk>/proposal/", proposal_views.proposal, name="proposal"),
    path(
        "cells/<int:cell_pk>/proposal/texts/<str:language>/",
        proposal_views.proposal_texts_edit,
        name="proposal_texts_edit",
    ),
    path(
        "cells/<int:cell_pk>/proposal/preview/",
        proposal_views.proposal_preview_request,
        name="proposal_preview_request",
    ),
    path(
        "proposal-previews/<int:pk>/",
        proposal_views.proposal_preview,
        name="proposal_preview",
    ),
    path(
        "proposal-previews/<int:pk>/pages/<int:number>.png",
        proposal_views.proposal_preview_page,
        name="proposal_preview_page",
    ),
    path(
        "proposal-documents/<int:pk>/",
        proposal_views.proposal_document_row,
        name="proposal_document_row",
    ),
    path(
        "proposal-documents/<int:pk>/retry/",
        proposal_views.proposal_document_retry,
        name="proposal_document_retry",
    ),
    path(
        "proposal-documents/<int:pk>/rebuild/",
        proposal_views.proposal_document_rebuild,
        name="proposal_document_rebuild",
    ),
    path(
        "proposal-documents/<int:pk>/download/",
        proposal_views.proposal_document_download,
        name="proposal_document_download",
    ),
    path(
        "organisations/<int:org_pk>/branding/",
        proposal_views.branding_edit,
        name="branding_edit",
    ),
    path(
        "organisations/<int:org_pk>/branding/logo/",
        proposal_views.branding_logo,
        name="branding_logo",
    ),
    path("catalogue/", cost_views.catalogue_home, name="catalogue_home"),
    path(
        "organisations/<int:org_pk>/quotes/", quote_views.quote_list, name="quote_list"
    ),
    path(
        "organisations/<int:org_pk>/quotes/import/",
        quote_views.quote_import,
        name="quote_import",
    ),
    path(
        "organisations/<int:org_pk>/quotes/template-<str:language>.xlsx",
        quote_views.quote_template,
        name="quote_template",
    ),
    path("quotes/<int:pk>/", quote_views.quote_detail, name="quote_detail"),
    path("quotes/<int:pk>/export.xlsx", quote_views.quote_export, name="quote_export"),
    path("quotes/<int:pk>/delete/", quote_views.quote_delete, name="quote_delete"),
    path(
        "quotes/<int:pk>/rows/<int:row_pk>/match/",
        quote_views.quote_row_match,
        name="quote_row_match",
    ),
    path(
        "organisations/<int:org_pk>/exchange-rates/",
        rate_views.exchange_rate_list,
        name="exchange_rates",
    ),
    path(
        "organisations/<int:org_pk>/exchange-rates/new/",
        rate_views.exchange_rate_create,
        name="exchange_rate_add",
    ),
    path(
        "exchange-rates/<int:pk>/delete/",
        rate_views.exchange_rate_remove,
        name="exchange_rate_delete",
    ),
    path(
        "organisations/<int:org_pk>/labour/",
        labour_views.labour_page,
        name="labour",
    ),
    path(
        "organisations/<int:org_pk>/labour/rates/new/",
        labour_views.labour_rate_create,
        name="labour_rate_add",
    ),
    path(
        "labour-rates/<int:pk>/delete/",
        labour_views.labour_rate_remove,
        name="labour_rate_delete",
    ),
    path(
        "organisations/<int:org_pk>/labour/work/",
        labour_views.work_default_save,
        name="work_default_set",
    ),
    path(
        "work-defaults/<int:pk>/delete/",
        labour_views.work_default_remove,
        name="work_default_delete",
    ),
    path(
        "organisations/<int:org_pk>/catalogue/",
        cost_views.catalogue,
        name="catalogue",
    ),
    path(
        "organisations/<int:org_pk>/catalogue/<str:key>/edit/",
        cost_views.catalogue_edit,
        name="catalogue_edit",
    ),
    path("cells/<int:cell_pk>/assessment/", a.assessment, name="assessment"),
    path(
        "cells/<int:cell_pk>/assessment/start/",
        a.assessment_start,
        name="assessment_start",
    ),
    path(
        "cells/<int:cell_pk>/assessment/history/", a.assessment_history, name="history"
    ),
    path("revisions/<int:pk>/limits/", a.limits_edit, name="limits_edit"),
    path("revisions/<int:pk>/hazards/new/", a.hazard_add, name="hazard_add"),
    path(
        "revisions/<int:pk>/suggestions/<str:key>/accept/",
        a.suggestion_accept,
        name="suggestion_accept",
    ),
    path(
        "revisions/<int:pk>/suggestions/<str:key>/dismiss/",
        a.suggestion_dismiss,
        name="suggestion_dismiss",
    ),
    path("revisions/<int:pk>/diff/", a.revision_diff, name="revision_diff"),
    # The report and the register as XLSX (issue 15).
    path("revisions/<int:pk>/report.pdf", report_views.revision_report, name="report"),
    path(
        "revisions/<int:pk>/register.xlsx",
        register_views.register_export,
        name="register_export",
    ),
    path(
        "revisions/<int:pk>/register/import/",
        register_views.register_import,
        name="register_import",
    ),
    path(
        "revisions/<int:pk>/<slug:action>/", a.revision_action, name="revision_action"
    ),
    path("hazards/<int:pk>/", a.hazard_row, name="hazard_row"),
    path("hazards/<int:pk>/edit/", a.hazard_edit, name="hazard_edit"),
    path("hazards/<int:pk>/delete/", a.hazard_delete, name="hazard_delete"),
    path("hazards/<int:pk>/measures/new/", a.measure_add, name="measure_add"),
    path("measures/<int:pk>/edit/", a.measure_edit, name="measure_edit"),
    path("measures/<int:pk>/delete/", a.measure_delete, name="measure_delete"),
    *function_urls.urlpatterns,
    *library_urls.urlpatterns,
]

# The risk assessment: names in the "compliance-api" namespace
# (``compliance-api:hazard-detail``), apart from the calculators' own. No root
# view: /api/v1/ is the cells router's.
router = DefaultRouter()
router.include_root_view = False
router.register("assessments", assessment_api.AssessmentViewSet, basename="assessment")
router.register("revisions", assessment_api.RevisionViewSet, basename="revision")
router.register("hazards", assessment_api.HazardViewSet, basename="hazard")
router.register("measures", assessment_api.MeasureViewSet, basename="measure")

# Mounted under /api/v1/ by config/urls.py.
api_urlpatterns = [
    path(
        "calculators/",
        calculator_api.CalculatorListView.as_view(),
        name="calculator-list",
    ),
    path(
        "calculators/ts15066-body-regions/",
        calculator_api.BodyRegionsView.as_view(),
        name="calculator-body-regions",
    ),
    *(
        path(
            f"calculators/{name}/",
            calculator_api.calculator_view(calc).as_view(),
            name=f"calculator-{name}",
        )
        for name, calc in CALCULATORS.items()
    ),
    path(
        "cells/<int:pk>/findings/",
        rules_api.CellFindingsView.as_view(),
        name="cell-findings",
    ),
    path(
        "cells/<int:pk>/line-items/",
        cost_api.CellLineItemsView.as_view(),
        name="cell-line-items",
    ),
    path("cells/<int:pk>/plan/", plan_api.CellPlanView.as_view(), name="cell-plan"),
    path(
        "cells/<int:pk>/concepts/compare/",
        concept_api.CellConceptsCompareView.as_view(),
        name="cell-concepts-compare",
    ),
    path(
        "cells/<int:pk>/concepts/generate/",
        concept_api.CellConceptsGenerateView.as_view(),
        name="cell-concepts-generate",
    ),
    path(
        "cells/<int:pk>/safeguards/",
        cost_api.CellSafeguardsView.as_view(),
        name="cell-safeguards",
    ),
    path(
        "cells/<int:pk>/line-items/<str:key>/",
        cost_api.CellLineItemView.as_view(),
        name="cell-line-item",
    ),
    path(
        "cells/<int:pk>/custom-line-items/",
        cost_api.CustomLineListView.as_view(),
        name="cell-custom-line-items",
    ),
    path(
        "cells/<int:pk>/custom-line-items/<int:line_pk>/",
        cost_api.CustomLineDetailView.as_view(),
        name="cell-custom-line-item",
    ),
    path(
        "cells/<int:pk>/plan/assumptions/<str:key>/",
        plan_api.PlanAssumptionView.as_view(),
        name="cell-plan-assumption",
    ),
    path(
        "organisations/<int:pk>/catalogue/",
        cost_api.CatalogueView.as_view(),
        name="organisation-catalogue",
    ),
    path(
        "organisations/<int:pk>/catalogue/<str:key>/",
        cost_api.CatalogueEntryView.as_view(),
        name="organisation-catalogue-entry",
    ),
    path(
        "organisations/<int:pk>/quotes/",
        quote_api.QuoteListView.as_view(),
        name="organisation-quotes",
    ),
    path("quotes/<int:pk>/", quote_api.QuoteDetailView.as_view(), name="quote"),
    path(
        "quotes/<int:pk>/rows/<int:row_pk>/match/",
        quote_api.QuoteRowMatchView.as_view(),
        name="quote-row-match",
    ),
    path(
        "organisations/<int:pk>/exchange-rates/",
        rate_api.ExchangeRateListView.as_view(),
        name="organisation-exchange-rates",
    ),
    path(
        "organisations/<int:pk>/exchange-rates/<int:rate_pk>/",
        rate_api.ExchangeRateDetailView.as_view(),
        name="organisation-exchange-rate",
    ),
    path(
        "organisations/<int:pk>/labour-rates/",
        labour_api.LabourRateListView.as_view(),
        name="organisation-labour-rates",
    ),
    path(
        "organisations/<int:pk>/labour-rates/<int:rate_pk>/",
        labour_api.LabourRateDetailView.as_view(),
        name="organisation-labour-rate",
    ),
    path(
        "organisations/<int:pk>/work-defaults/",
        labour_api.WorkDefaultListView.as_view(),
        name="organisation-work-defaults",
    ),
    path(
        "organisations/<int:pk>/work-defaults/<int:work_pk>/",
        labour_api.WorkDefaultDetailView.as_view(),
        name="organisation-work-default",
    ),
    path(
        "cells/<int:pk>/proposals/",
        proposal_api.CellProposalsView.as_view(),
        name="cell-proposals",
    ),
    path(
        "cells/<int:pk>/proposal/",
        proposal_api.CellProposalView.as_view(),
        name="cell-proposal",
    ),
    path(
        "proposal-documents/<int:pk>/",
        proposal_api.ProposalDocumentView.as_view(),
        name="proposal-document",
    ),
    path(
        "proposal-documents/<int:pk>/pdf/",
        proposal_api.ProposalDocumentPdfView.as_view(),
        name="proposal-document-pdf",
    ),
    *function_urls.api_urlpatterns,
    *library_urls.api_urlpatterns,
    # The report and the register as XLSX (issue 15), before the router's
    # revision routes.
    path(
        "revisions/<int:pk>/report/",
        report_views.RevisionReportView.as_view(),
        name="revision-report",
    ),
    path(
        "revisions/<int:pk>/register/",
        register_api.RegisterExportView.as_view(),
        name="revision-register",
    ),
    path(
        "revisions/<int:pk>/register/import/",
        register_api.RegisterImportView.as_view(),
        name="revision-register-import",
    ),
    path("", include((router.urls, "compliance-api"))),
]
