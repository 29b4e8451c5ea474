from __future__ import annotations

from django.urls import path

from compliance import assessment_views as a
from compliance import compliance_views, cost_views, plan_views, proposal_views, views

app_name = "compliance"
urlpatterns = [
    path("calculators/", views.calculator_list, name="calculator_list"),
    path("calculators/<slug:name>/", views.calculator_detail, name="calculator_detail"),
    path("rules/", compliance_views.rules, name="rules"),
    path(
        "cells/<int:cell_pk>/compliance/",
        compliance_views.cell_compliance,
        name="cell_compliance",
    ),
    path(
        "cells/<int:cell_pk>/compliance/summary/",
        compliance_views.compliance_summary,
        name="compliance_summary",
    ),
    path("cells/<int:cell_pk>/costs/", cost_views.cell_costs, name="cell_costs"),
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
    path(
        "cells/<int:cell_pk>/plan/<str:key>/edit/",
        plan_views.plan_assumption_edit,
        name="plan_assumption_edit",
    ),
    path("cells/<int:cell_pk>/proposal/", proposal_views.proposal, name="proposal"),
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
        "proposal-documents/<int:pk>/download/",
        proposal_views.proposal_document_download,
        name="proposal_document_download",
    ),
    path("catalogue/", cost_views.catalogue_home, name="catalogue_home"),
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
    path(
        "revisions/<int:pk>/<slug:action>/", a.revision_action, name="revision_action"
    ),
    path("hazards/<int:pk>/", a.hazard_row, name="hazard_row"),
    path("hazards/<int:pk>/edit/", a.hazard_edit, name="hazard_edit"),
    path("hazards/<int:pk>/delete/", a.hazard_delete, name="hazard_delete"),
    path("hazards/<int:pk>/measures/new/", a.measure_add, name="measure_add"),
    path("measures/<int:pk>/delete/", a.measure_delete, name="measure_delete"),
]
