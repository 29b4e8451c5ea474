"""The pages the injection test renders (``test_injection``): every named
URL of the two apps with the world's objects, and the API's pages."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, reverse

from tests.security.world import World

# The pages: every named URL of the two apps, with the world's objects.


def page_arguments(world: World) -> dict[str, list[dict[str, Any]]]:
    """The URL name -> the arguments of each page to fetch."""
    from compliance.calculators.registry import CALCULATORS

    o = world.objects
    cell, org = {"cell_pk": world.cell.pk}, {"org_pk": world.organisation.pk}
    project = {"pk": world.project.pk}
    elements = {
        kind: o[kind].pk for kind in ("segment", "opening", "device", "station")
    }
    document = {"pk": o["document"].pk}
    preview = {"pk": o["preview"].pk}
    draft, signed = o["revision"].pk, o["signed"].pk
    function = {"pk": o["function"].pk}
    return {
        "cells:project_list": [{}],
        "cells:project_create": [{}],
        "cells:project_detail": [project],
        "cells:project_edit": [project],
        "cells:project_delete": [project],
        "cells:cell_create": [{"project_pk": world.project.pk}],
        "cells:cell_detail": [{"pk": world.cell.pk}],
        "cells:cell_edit": [{"pk": world.cell.pk}],
        "cells:cell_delete": [{"pk": world.cell.pk}],
        "cells:cell_layout_svg": [{"pk": world.cell.pk}],
        "cells:layout_dxf_import": [cell],
        "cells:layout_dxf_export": [{"pk": world.cell.pk}],
        "cells:layout_image_edit": [cell],
        "cells:layout_image_remove": [cell],  # POST only
        "cells:layout_image_file": [cell],  # the picture itself
        "cells:layout_image_preview": [cell],  # POST only
        "compliance:branding_edit": [org],
        "compliance:branding_logo": [org],  # none uploaded: 404
        "cells:plan_edit": [{**cell, "operation": "segments"}],  # POST only
        "cells:hazard_zone_edit": [cell],
        "cells:certificate_add": [cell],
        "cells:certificate_edit": [{**cell, "pk": o["certificate"].pk}],
        "cells:certificate_delete": [{**cell, "pk": o["certificate"].pk}],
        # One kind: a new element's form shows what an edit form shows (the
        # workspace, the choices of segments and openings) and is as slow.
        "cells:element_add": [{**cell, "kind": "device"}],
        "cells:element_edit": [
            {**cell, "kind": kind, "pk": pk} for kind, pk in elements.items()
        ],
        "cells:element_delete": [
            {**cell, "kind": kind, "pk": pk} for kind, pk in elements.items()
        ],
        "compliance:calculator_list": [{}],
        "compliance:calculator_detail": [{"name": next(iter(CALCULATORS))}],
        "compliance:rules": [{}],
        "compliance:cell_compliance": [cell],
        "compliance:compliance_summary": [cell],
        "compliance:cell_costs": [cell],
        "compliance:custom_line_add": [cell],
        "compliance:custom_line_edit": [{**cell, "pk": o["custom_line"].pk}],
        "compliance:custom_line_delete": [{**cell, "pk": o["custom_line"].pk}],
        "compliance:line_item_edit": [{**cell, "key": o["line_key"]}],
        "compliance:cell_plan": [cell],
        # The Motion tab (issue 32): the world's program is CSV, whose annotated
        # copy sends back to the tab.
        "compliance:cell_motion": [cell],
        "compliance:motion_import": [cell],  # POST only
        "compliance:motion_program": [{**cell, "pk": o["motion_program"].pk}],
        "compliance:motion_delete": [{**cell, "pk": o["motion_program"].pk}],  # POST
        "compliance:motion_file": [{**cell, "pk": o["motion_program"].pk}],
        "compliance:motion_annotated": [{**cell, "pk": o["motion_program"].pk}],
        "compliance:cell_concepts": [cell],
        "compliance:project_concepts": [{"project_pk": world.project.pk}],
        "compliance:concepts_generate": [cell],  # POST only
        "compliance:concept_choose": [{**cell, "pk": o["concept"].pk}],  # POST
        "compliance:concept_copy": [{**cell, "pk": o["concept"].pk}],  # POST
        "compliance:plan_assumption_edit": [{**cell, "key": o["assumption_key"]}],
        "compliance:proposal": [cell],
        "compliance:proposal_texts_edit": [{**cell, "language": "en"}],
        "compliance:proposal_preview_request": [cell],  # POST only: back to the tab
        "compliance:proposal_preview": [preview],
        "compliance:proposal_preview_page": [{**preview, "number": 1}],
        "compliance:proposal_document_row": [document],
        "compliance:proposal_document_retry": [document],
        "compliance:proposal_document_rebuild": [document],
        "compliance:proposal_document_download": [document],
        "compliance:catalogue_home": [{}],
        "compliance:catalogue": [org],
        "compliance:catalogue_edit": [{**org, "key": o["catalogue_key"]}],
        "compliance:exchange_rates": [org],
        "compliance:exchange_rate_add": [org],  # POST only
        "compliance:exchange_rate_delete": [{"pk": o["exchange_rate"].pk}],  # POST
        "compliance:labour": [org],
        "compliance:labour_rate_add": [org],  # POST only
        "compliance:labour_rate_delete": [{"pk": o["labour_rate"].pk}],  # POST
        "compliance:work_default_set": [org],  # POST only
        "compliance:work_default_delete": [{"pk": o["work_default"].pk}],  # POST
        "compliance:quote_list": [org],
        "compliance:quote_import": [org],  # POST only
        "compliance:quote_template": [{**org, "language": "en"}],
        "compliance:quote_detail": [{"pk": o["quote"].pk}],
        "compliance:quote_export": [{"pk": o["quote"].pk}],
        "compliance:quote_delete": [{"pk": o["quote"].pk}],  # POST
        "compliance:quote_row_match": [
            {"pk": o["quote"].pk, "row_pk": o["quote_row"].pk}
        ],
        "compliance:assessment": [cell],
        "compliance:assessment_start": [cell],
        "compliance:history": [cell],
        "compliance:limits_edit": [{"pk": draft}],
        "compliance:hazard_add": [{"pk": draft}],
        "compliance:suggestion_accept": [{"pk": draft, "key": "x"}],
        "compliance:suggestion_dismiss": [{"pk": draft, "key": "x"}],
        "compliance:revision_diff": [{"pk": draft}],
        "compliance:revision_action": [
            {"pk": pk, "action": action}
            for pk in (draft, signed)
            for action in ("sign", "submit")
        ],
        "compliance:hazard_row": [{"pk": o["hazard"].pk}],
        "compliance:hazard_edit": [{"pk": o["hazard"].pk}],
        "compliance:hazard_delete": [{"pk": o["hazard"].pk}],
        "compliance:measure_add": [{"pk": o["hazard"].pk}],
        "compliance:measure_edit": [{"pk": o["measure"].pk}],
        "compliance:measure_delete": [{"pk": o["measure"].pk}],
        # The revision's report (a PDF) and its register (an XLSX), and the
        # draft's import page.
        "compliance:report": [{"pk": signed}, {"pk": draft}],
        "compliance:register_export": [{"pk": signed}],
        "compliance:register_import": [{"pk": draft}],
        "compliance:safety_functions": [cell],
        "compliance:safety_function_add": [cell],
        "compliance:safety_documents": [cell],
        "compliance:function_suggestion_accept": [{**cell, "key": "x"}],
        "compliance:function_suggestion_dismiss": [{**cell, "key": "x"}],
        "compliance:safety_function_detail": [function],
        "compliance:safety_function_edit": [function],
        "compliance:safety_function_delete": [function],
        "compliance:subsystem_add": [function],
        "compliance:subsystem_preview": [function],
        "compliance:validation_record_add": [function],
        "compliance:subsystem_edit": [{"pk": o["subsystem"].pk}],
        "compliance:subsystem_delete": [{"pk": o["subsystem"].pk}],
        "compliance:validation_record_delete": [{"pk": o["record"].pk}],
        "compliance:pfhd_table": [org],
        "compliance:pfhd_table_delete": [org],
        "compliance:library_home": [{}],
        "compliance:library": [org],
        "compliance:library_device_add": [org],
        "compliance:library_device_edit": [{**org, "pk": o["library_device"].pk}],
        "compliance:library_device_delete": [{**org, "pk": o["library_device"].pk}],
        "compliance:library_export": [org],
        "compliance:library_import": [org],
        "compliance:library_seed": [org],
    }


# Pages beyond the named URLs' defaults: the signed revision as shown.
EXTRA_QUERIES = {"compliance:assessment": "?revision=1"}


def api_pages(world: World) -> list[str]:
    """The API's answers about the world's objects, which a browser asking
    for HTML gets as DRF's browsable API pages."""
    o, cell, org = world.objects, world.cell.pk, world.organisation.pk
    return [
        reverse("api:project-detail", args=[world.project.pk]),
        reverse("api:cell-detail", args=[cell]),
        reverse("api:cell-export", args=[cell]),
        reverse("api:guard-segment-detail", args=[o["segment"].pk]),
        reverse("api:opening-detail", args=[o["opening"].pk]),
        reverse("api:operator-station-detail", args=[o["station"].pk]),
        reverse("api:device-detail", args=[o["device"].pk]),
        reverse("api:certificate-detail", args=[o["certificate"].pk]),
        reverse("compliance-api:revision-detail", args=[o["revision"].pk]),
        reverse("compliance-api:hazard-detail", args=[o["hazard"].pk]),
        reverse("compliance-api:measure-detail", args=[o["measure"].pk]),
        reverse("safety-function-detail", args=[o["function"].pk]),
        reverse("safety-function-subsystems", args=[o["function"].pk]),
        reverse("safety-function-validation-records", args=[o["function"].pk]),
        reverse("organisation-library-device", args=[org, o["library_device"].pk]),
        reverse("organisation-pfhd-table", args=[org]),
        reverse("cell-custom-line-item", args=[cell, o["custom_line"].pk]),
        reverse("cell-line-items", args=[cell]),
        reverse("cell-plan", args=[cell]),
        reverse("organisation-catalogue", args=[org]),
        reverse("organisation-exchange-rates", args=[org]),
        reverse("organisation-labour-rates", args=[org]),
        reverse("organisation-work-defaults", args=[org]),
    ]


def url_names() -> set[str]:
    """The names of the pages of cells/urls.py and compliance/urls.py."""
    import cells.urls
    import compliance.urls

    return {
        f"{namespace}:{pattern.name}"
        for namespace, module in (
            ("cells", cells.urls),
            ("compliance", compliance.urls),
        )
        for pattern in module.urlpatterns
        if isinstance(pattern, URLPattern) and pattern.name
    }
