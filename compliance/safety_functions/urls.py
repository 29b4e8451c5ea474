"""The safety functions' pages and API; included by ``compliance.urls``."""

from __future__ import annotations

from django.urls import path

from compliance.safety_functions import api, views

# Page URLs, in the "compliance" namespace.
urlpatterns: list = [
    path(
        "cells/<int:cell_pk>/safety-functions/",
        views.safety_functions,
        name="safety_functions",
    ),
    path(
        "cells/<int:cell_pk>/safety-functions/new/",
        views.safety_function_add,
        name="safety_function_add",
    ),
    path(
        "cells/<int:cell_pk>/safety-functions/documents/",
        views.cell_documents,
        name="safety_documents",
    ),
    path(
        "cells/<int:cell_pk>/safety-functions/proposals/<str:key>/accept/",
        views.suggestion_accept,
        name="function_suggestion_accept",
    ),
    path(
        "cells/<int:cell_pk>/safety-functions/proposals/<str:key>/dismiss/",
        views.suggestion_dismiss,
        name="function_suggestion_dismiss",
    ),
    path(
        "safety-functions/<int:pk>/",
        views.safety_function_detail,
        name="safety_function_detail",
    ),
    path(
        "safety-functions/<int:pk>/edit/",
        views.safety_function_edit,
        name="safety_function_edit",
    ),
    path(
        "safety-functions/<int:pk>/delete/",
        views.safety_function_delete,
        name="safety_function_delete",
    ),
    path(
        "safety-functions/<int:pk>/subsystems/new/",
        views.subsystem_add,
        name="subsystem_add",
    ),
    path(
        "safety-functions/<int:pk>/subsystems/preview/",
        views.subsystem_preview,
        name="subsystem_preview",
    ),
    path(
        "safety-functions/<int:pk>/validation/new/",
        views.validation_record_add,
        name="validation_record_add",
    ),
    path("subsystems/<int:pk>/edit/", views.subsystem_edit, name="subsystem_edit"),
    path(
        "subsystems/<int:pk>/delete/", views.subsystem_delete, name="subsystem_delete"
    ),
    path(
        "validation-records/<int:pk>/delete/",
        views.validation_record_delete,
        name="validation_record_delete",
    ),
    path(
        "organisations/<int:org_pk>/pfhd-table/",
        views.pfhd_table,
        name="pfhd_table",
    ),
    path(
        "organisations/<int:org_pk>/pfhd-table/delete/",
        views.pfhd_table_delete,
        name="pfhd_table_delete",
    ),
]

# API URLs, mounted under /api/v1/.
api_urlpatterns: list = [
    path(
        "cells/<int:pk>/safety-functions/",
        api.CellSafetyFunctionsView.as_view(),
        name="cell-safety-functions",
    ),
    path(
        "cells/<int:pk>/safety-function-suggestions/",
        api.CellSuggestionsView.as_view(),
        name="cell-safety-function-suggestions",
    ),
    path(
        "cells/<int:pk>/safety-function-suggestions/<str:key>/accept/",
        api.SuggestionAcceptView.as_view(),
        name="cell-safety-function-suggestion-accept",
    ),
    path(
        "cells/<int:pk>/safety-function-suggestions/<str:key>/dismiss/",
        api.SuggestionDismissView.as_view(),
        name="cell-safety-function-suggestion-dismiss",
    ),
    path(
        "cells/<int:pk>/safety-documents/",
        api.CellSafetyDocumentsView.as_view(),
        name="cell-safety-documents",
    ),
    path(
        "safety-functions/<int:pk>/",
        api.SafetyFunctionDetailView.as_view(),
        name="safety-function-detail",
    ),
    path(
        "safety-functions/<int:pk>/subsystems/",
        api.SafetyFunctionSubsystemsView.as_view(),
        name="safety-function-subsystems",
    ),
    path(
        "safety-functions/<int:pk>/validation-records/",
        api.ValidationRecordsView.as_view(),
        name="safety-function-validation-records",
    ),
    path(
        "subsystems/<int:pk>/",
        api.SubsystemDetailView.as_view(),
        name="subsystem-detail",
    ),
    path(
        "validation-records/<int:pk>/",
        api.ValidationRecordDetailView.as_view(),
        name="validation-record-detail",
    ),
    path(
        "organisations/<int:pk>/pfhd-table/",
        api.PfhdTableView.as_view(),
        name="organisation-pfhd-table",
    ),
]
