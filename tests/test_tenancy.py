"""Tenant isolation: a user of another organisation walks every page and API
endpoint of this organisation's objects and finds nothing.

The walk is built from the URLconf itself, so a new page or endpoint without an
entry in ``OBJECT_URLS`` or ``LIST_URLS`` fails here until it is covered.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from cells.models import MotionProgram
from compliance.assessment import services
from compliance.costs import services as cost_services
from compliance.costs.models import ExchangeRate
from compliance.costs.quotes.models import QuoteRow, SupplierQuote
from compliance.plan.labour.models import LabourRate, WorkDefault
from compliance.proposals import building, previewing
from compliance.proposals import services as proposal_services
from compliance.safety_functions import services as function_services
from compliance.safety_functions.models import LibraryDevice
from tests.cells.certificates import CellCertificateFactory
from tests.factories import DeviceFactory

# Namespaces of the REST API: their bodies are JSON and their lists counted.
API_NAMESPACES = ("api:", "compliance-api:")

# Names that do not show organisation data (or are Django's own).
NOT_TENANT_DATA = {
    "login",
    "logout",
    "password_change",
    "password_change_done",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
    "set_language",
    "api-schema",
    "api-docs",
    "api:api-root",
    # The caller's own API tokens only (tests/cells/api/test_tokens.py).
    "api:auth-login",
    "api:auth-logout",
    "api:auth-logout-all",
    "cells:project_create",
    "healthz",
    "readyz",
    # Calculators compute from the standards; they hold no organisation's data.
    "compliance:calculator_list",
    "compliance:calculator_detail",
    "compliance:rules",  # the rule texts, the same for everyone
    # Redirects to the user's own organisation's catalogue (tested in costs).
    "compliance:catalogue_home",
    # Redirects to the user's own organisation's device library (tested there).
    "compliance:library_home",
}

# URL name -> how to build its arguments from the owner's objects.
OBJECT_URLS = {
    "cells:project_detail": lambda o: [o["project"].pk],
    "cells:project_edit": lambda o: [o["project"].pk],
    "cells:project_delete": lambda o: [o["project"].pk],
    "cells:cell_create": lambda o: [o["project"].pk],
    "cells:cell_detail": lambda o: [o["cell"].pk],
    "cells:cell_edit": lambda o: [o["cell"].pk],
    "cells:cell_delete": lambda o: [o["cell"].pk],
    "cells:cell_layout_svg": lambda o: [o["cell"].pk],
    # DXF in and out (the viewer too: tests/cells/layout_dxf/test_tenancy.py).
    "cells:layout_dxf_import": lambda o: [o["cell"].pk],
    "cells:layout_dxf_export": lambda o: [o["cell"].pk],
    "api:cell-layout-dxf-import": lambda o: [o["cell"].pk],
    "api:cell-layout-dxf": lambda o: [o["cell"].pk],
    "api:cell-motion": lambda o: [o["cell"].pk],
    "api:cell-motion-detail": lambda o: [o["cell"].pk, o["motion_program"].pk],
    "api:cell-motion-segments": lambda o: [o["cell"].pk, o["motion_program"].pk],
    "api:cell-motion-annotated": lambda o: [o["cell"].pk, o["motion_program"].pk],
    # The Motion tab (issue 32; tests/compliance/motion for the viewer).
    "compliance:cell_motion": lambda o: [o["cell"].pk],
    "compliance:motion_import": lambda o: [o["cell"].pk],
    "compliance:motion_program": lambda o: [o["cell"].pk, o["motion_program"].pk],
    "compliance:motion_delete": lambda o: [o["cell"].pk, o["motion_program"].pk],
    "compliance:motion_file": lambda o: [o["cell"].pk, o["motion_program"].pk],
    "compliance:motion_annotated": lambda o: [o["cell"].pk, o["motion_program"].pk],
    # The floor-plan image (with one: tests/cells/layout_image/test_tenancy.py).
    "cells:layout_image_edit": lambda o: [o["cell"].pk],
    "cells:layout_image_remove": lambda o: [o["cell"].pk],
    "cells:layout_image_file": lambda o: [o["cell"].pk],
    "cells:layout_image_preview": lambda o: [o["cell"].pk],
    "cells:hazard_zone_edit": lambda o: [o["cell"].pk],
    "cells:element_add": lambda o: [o["cell"].pk, "segment"],
    "cells:element_edit": lambda o: [o["cell"].pk, "opening", o["opening"].pk],
    "cells:element_delete": lambda o: [o["cell"].pk, "station", o["station"].pk],
    "cells:certificate_add": lambda o: [o["cell"].pk],
    "cells:certificate_edit": lambda o: [o["cell"].pk, o["certificate"].pk],
    "cells:certificate_delete": lambda o: [o["cell"].pk, o["certificate"].pk],
    # Drawing on the plan (cells.layout_editor): every tool, undo and redo.
    "cells:plan_edit": lambda o: [o["cell"].pk, "undo"],
    # The risk-assessment pages.
    "compliance:assessment": lambda o: [o["cell"].pk],
    "compliance:cell_compliance": lambda o: [o["cell"].pk],
    "cell-findings": lambda o: [o["cell"].pk],
    "cell-line-items": lambda o: [o["cell"].pk],
    "cell-plan": lambda o: [o["cell"].pk],
    # Guarding concepts (tests/compliance/concepts: 404 and nothing made).
    "cell-concepts-compare": lambda o: [o["cell"].pk],
    "cell-concepts-generate": lambda o: [o["cell"].pk],
    "compliance:cell_concepts": lambda o: [o["cell"].pk],
    "compliance:concepts_generate": lambda o: [o["cell"].pk],
    "compliance:concept_choose": lambda o: [o["cell"].pk, 1],
    "compliance:concept_copy": lambda o: [o["cell"].pk, 1],
    "compliance:project_concepts": lambda o: [o["project"].pk],
    "compliance:cell_costs": lambda o: [o["cell"].pk],
    "compliance:cell_plan": lambda o: [o["cell"].pk],
    "compliance:line_item_edit": lambda o: [o["cell"].pk, "risk-assessment"],
    "compliance:compliance_summary": lambda o: [o["cell"].pk],
    "compliance:custom_line_add": lambda o: [o["cell"].pk],
    "compliance:custom_line_edit": lambda o: [o["cell"].pk, o["custom_line"].pk],
    "compliance:custom_line_delete": lambda o: [o["cell"].pk, o["custom_line"].pk],
    "compliance:plan_assumption_edit": lambda o: [o["cell"].pk, "installation"],
    "compliance:catalogue": lambda o: [o["project"].organisation_id],
    "compliance:branding_edit": lambda o: [o["project"].organisation_id],
    "compliance:branding_logo": lambda o: [o["project"].organisation_id],
    "compliance:catalogue_edit": lambda o: [o["project"].organisation_id, "fence"],
    # The organisation's device library.
    "compliance:library": lambda o: [o["project"].organisation_id],
    "compliance:library_device_add": lambda o: [o["project"].organisation_id],
    "compliance:library_device_edit": lambda o: [
        o["project"].organisation_id,
        o["library_device"].pk,
    ],
    "compliance:library_device_delete": lambda o: [
        o["project"].organisation_id,
        o["library_device"].pk,
    ],
    "compliance:library_export": lambda o: [o["project"].organisation_id],
    "compliance:library_import": lambda o: [o["project"].organisation_id],
    "compliance:library_seed": lambda o: [o["project"].organisation_id],
    "organisation-library-devices": lambda o: [o["project"].organisation_id],
    "organisation-library-device": lambda o: [
        o["project"].organisation_id,
        o["library_device"].pk,
    ],
    "organisation-library-export": lambda o: [o["project"].organisation_id],
    "organisation-library-import": lambda o: [o["project"].organisation_id],
    "organisation-library-seed": lambda o: [o["project"].organisation_id],
    "compliance:proposal": lambda o: [o["cell"].pk],
    # The SA's texts of the proposal (issue 15; tests/compliance/proposals/
    # test_authoring.py for the viewer).
    "compliance:proposal_texts_edit": lambda o: [o["cell"].pk, "en"],
    # Its preview: asked for, polled, its pages (tests/compliance/proposals/
    # test_preview.py for the viewer).
    "compliance:proposal_preview_request": lambda o: [o["cell"].pk],
    "compliance:proposal_preview": lambda o: [o["preview"].pk],
    "compliance:proposal_preview_page": lambda o: [o["preview"].pk, 1],
    "compliance:proposal_document_row": lambda o: [o["document"].pk],
    "compliance:proposal_document_download": lambda o: [o["document"].pk],
    "compliance:proposal_document_retry": lambda o: [o["document"].pk],
    # Computed again under the current rules (issue 17).
    "compliance:proposal_document_rebuild": lambda o: [o["document"].pk],
    "cell-proposals": lambda o: [o["cell"].pk],
    "cell-proposal": lambda o: [o["cell"].pk],
    "proposal-document": lambda o: [o["document"].pk],
    "proposal-document-pdf": lambda o: [o["document"].pk],
    "cell-safeguards": lambda o: [o["cell"].pk],
    "cell-line-item": lambda o: [o["cell"].pk, "risk-assessment"],
    "cell-custom-line-items": lambda o: [o["cell"].pk],
    "cell-custom-line-item": lambda o: [o["cell"].pk, o["custom_line"].pk],
    "cell-plan-assumption": lambda o: [o["cell"].pk, "installation"],
    "organisation-catalogue": lambda o: [o["project"].organisation_id],
    "organisation-catalogue-entry": lambda o: [
        o["project"].organisation_id,
        "fence",
    ],
    # The organisation's exchange rates (issue 29).
    "compliance:exchange_rates": lambda o: [o["project"].organisation_id],
    "compliance:exchange_rate_add": lambda o: [o["project"].organisation_id],
    "compliance:exchange_rate_delete": lambda o: [o["exchange_rate"].pk],
    # Its labour rates and default work (issue 29).
    "compliance:labour": lambda o: [o["project"].organisation_id],
    "compliance:labour_rate_add": lambda o: [o["project"].organisation_id],
    "compliance:labour_rate_delete": lambda o: [o["labour_rate"].pk],
    "compliance:work_default_set": lambda o: [o["project"].organisation_id],
    "compliance:work_default_delete": lambda o: [o["work_default"].pk],
    "organisation-labour-rates": lambda o: [o["project"].organisation_id],
    "organisation-labour-rate": lambda o: [
        o["project"].organisation_id,
        o["labour_rate"].pk,
    ],
    "organisation-work-defaults": lambda o: [o["project"].organisation_id],
    "organisation-work-default": lambda o: [
        o["project"].organisation_id,
        o["work_default"].pk,
    ],
    "organisation-exchange-rates": lambda o: [o["project"].organisation_id],
    "organisation-exchange-rate": lambda o: [
        o["project"].organisation_id,
        o["exchange_rate"].pk,
    ],
    # The organisation's supplier quotes (issue 29).
    "compliance:quote_list": lambda o: [o["project"].organisation_id],
    "compliance:quote_import": lambda o: [o["project"].organisation_id],
    "compliance:quote_template": lambda o: [o["project"].organisation_id, "ko"],
    "compliance:quote_detail": lambda o: [o["quote"].pk],
    "compliance:quote_export": lambda o: [o["quote"].pk],
    "compliance:quote_delete": lambda o: [o["quote"].pk],
    "compliance:quote_row_match": lambda o: [o["quote"].pk, o["quote_row"].pk],
    "organisation-quotes": lambda o: [o["project"].organisation_id],
    "quote": lambda o: [o["quote"].pk],
    "quote-row-match": lambda o: [o["quote"].pk, o["quote_row"].pk],
    "compliance:assessment_start": lambda o: [o["cell"].pk],
    "compliance:history": lambda o: [o["cell"].pk],
    "compliance:limits_edit": lambda o: [o["revision"].pk],
    "compliance:hazard_add": lambda o: [o["revision"].pk],
    "compliance:suggestion_accept": lambda o: [o["revision"].pk, "gripper-trapping"],
    "compliance:suggestion_dismiss": lambda o: [o["revision"].pk, "gripper-trapping"],
    "compliance:revision_diff": lambda o: [o["revision"].pk],
    "compliance:revision_action": lambda o: [o["revision"].pk, "submit"],
    # The report and the register as XLSX (issue 15).
    "compliance:report": lambda o: [o["revision"].pk],
    "compliance:register_export": lambda o: [o["revision"].pk],
    "compliance:register_import": lambda o: [o["revision"].pk],
    "revision-report": lambda o: [o["revision"].pk],
    "revision-register": lambda o: [o["revision"].pk],
    "revision-register-import": lambda o: [o["revision"].pk],
    "compliance:hazard_row": lambda o: [o["hazard"].pk],
    "compliance:hazard_edit": lambda o: [o["hazard"].pk],
    "compliance:hazard_delete": lambda o: [o["hazard"].pk],
    "compliance:measure_add": lambda o: [o["hazard"].pk],
    "compliance:measure_edit": lambda o: [o["measure"].pk],
    "compliance:measure_delete": lambda o: [o["measure"].pk],
    "api:project-detail": lambda o: [o["project"].pk],
    "api:cell-detail": lambda o: [o["cell"].pk],
    "api:cell-export": lambda o: [o["cell"].pk],
    "api:guard-segment-detail": lambda o: [o["segment"].pk],
    "api:opening-detail": lambda o: [o["opening"].pk],
    "api:operator-station-detail": lambda o: [o["station"].pk],
    "api:device-detail": lambda o: [o["device"].pk],
    "api:certificate-detail": lambda o: [o["certificate"].pk],
    "compliance-api:assessment-detail": lambda o: [o["assessment"].pk],
    "compliance-api:revision-detail": lambda o: [o["revision"].pk],
    "compliance-api:revision-submit": lambda o: [o["revision"].pk],
    "compliance-api:revision-approve": lambda o: [o["revision"].pk],
    "compliance-api:revision-sign": lambda o: [o["revision"].pk],
    "compliance-api:revision-return": lambda o: [o["revision"].pk],
    "compliance-api:revision-start-next": lambda o: [o["revision"].pk],
    "compliance-api:revision-diff": lambda o: [o["revision"].pk],
    "compliance-api:revision-history": lambda o: [o["revision"].pk],
    "compliance-api:hazard-detail": lambda o: [o["hazard"].pk],
    "compliance-api:measure-detail": lambda o: [o["measure"].pk],
    # The safety functions' API.
    "cell-safety-functions": lambda o: [o["cell"].pk],
    "cell-safety-function-suggestions": lambda o: [o["cell"].pk],
    "cell-safety-function-suggestion-accept": lambda o: [
        o["cell"].pk,
        f"device:{o['device'].pk}",
    ],
    "cell-safety-function-suggestion-dismiss": lambda o: [
        o["cell"].pk,
        f"device:{o['device'].pk}",
    ],
    "cell-safety-documents": lambda o: [o["cell"].pk],
    "safety-function-detail": lambda o: [o["safety_function"].pk],
    "safety-function-subsystems": lambda o: [o["safety_function"].pk],
    "safety-function-validation-records": lambda o: [o["safety_function"].pk],
    "subsystem-detail": lambda o: [o["subsystem"].pk],
    "validation-record-detail": lambda o: [o["validation_record"].pk],
    "organisation-pfhd-table": lambda o: [o["project"].organisation_id],
    # The Safety functions tab.
    "compliance:safety_functions": lambda o: [o["cell"].pk],
    "compliance:safety_function_add": lambda o: [o["cell"].pk],
    "compliance:safety_documents": lambda o: [o["cell"].pk],
    "compliance:function_suggestion_accept": lambda o: [
        o["cell"].pk,
        f"device:{o['device'].pk}",
    ],
    "compliance:function_suggestion_dismiss": lambda o: [
        o["cell"].pk,
        f"device:{o['device'].pk}",
    ],
    "compliance:safety_function_detail": lambda o: [o["safety_function"].pk],
    "compliance:safety_function_edit": lambda o: [o["safety_function"].pk],
    "compliance:safety_function_delete": lambda o: [o["safety_function"].pk],
    "compliance:subsystem_add": lambda o: [o["safety_function"].pk],
    "compliance:subsystem_preview": lambda o: [o["safety_function"].pk],
    "compliance:validation_record_add": lambda o: [o["safety_function"].pk],
    "compliance:subsystem_edit": lambda o: [o["subsystem"].pk],
    "compliance:subsystem_delete": lambda o: [o["subsystem"].pk],
    "compliance:validation_record_delete": lambda o: [o["validation_record"].pk],
    "compliance:pfhd_table": lambda o: [o["project"].organisation_id],
    "compliance:pfhd_table_delete": lambda o: [o["project"].organisation_id],
}

# Lists: the outsider gets a page without any of the owner's objects.
LIST_URLS = {
    "cells:project_list",
    "api:project-list",
    "api:cell-list",
    "api:guard-segment-list",
    "api:opening-list",
    "api:operator-station-list",
    "api:device-list",
    "api:certificate-list",
    "api:cell-import",  # POST-only: checked separately below
    "compliance-api:assessment-list",
    "compliance-api:revision-list",
    "compliance-api:hazard-list",
    "compliance-api:measure-list",
}


def url_names(resolver=None, namespace: str = "") -> set[str]:
    names = set()
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            if entry.app_name == "admin":
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            names |= url_names(entry, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            names.add(f"{namespace}{entry.name}")
    return names


def test_every_url_is_covered_by_the_walk():
    calculators = {name for name in url_names() if name.startswith("calculator-")}
    uncovered = (
        url_names() - NOT_TENANT_DATA - calculators - set(OBJECT_URLS) - LIST_URLS
    )
    # DRF adds format-suffix variants of the same names; the names are what count.
    assert uncovered == set()


@pytest.fixture
def owned(segment, opening, station, cell, project, owner):
    device = DeviceFactory(cell=cell, opening=opening)
    revision = services.assessment_open(cell=cell, actor=owner)
    hazard = services.hazard_add(
        revision=revision,
        actor=owner,
        group="mechanical",
        origin="moving_elements",
        consequence="crushing",
        phase="operation",
        task="Loading parts at the infeed",
        severity="S2",
        frequency="F2",
        avoidance="P1",
    )
    measure = services.measure_add(
        hazard=hazard,
        actor=owner,
        step="safeguarding",
        description="Light curtain",
        device=device,
    )
    custom_line = cost_services.custom_line_save(
        cell=cell,
        actor=owner,
        description="Turntable guard",
        category="guarding",
        quantity=Decimal(1),
        unit="piece",
    )
    document = proposal_services.proposal_request(
        cell=cell, actor=owner, language="en", sections=["summary"]
    )
    assert building.build_document(document.pk, claim="t") == "ready"
    preview = proposal_services.proposal_preview_request(
        cell=cell, actor=owner, language="en", sections=["summary"]
    )
    assert previewing.build_preview(preview.pk, claim="t") == "ready"
    safety_function = function_services.function_create(
        cell=cell,
        actor=owner,
        name="Protective stop at the infeed",
        safeguard="guarded_opening",
        trigger="Light curtain interrupted",
        reaction="Protective stop",
    )
    subsystem = function_services.subsystem_add(
        function=safety_function,
        actor=owner,
        role="input",
        label="Light curtain",
        pl="e",
        pfhd_per_hour=3.7e-9,
    )
    validation_record = function_services.validation_record_add(
        function=safety_function,
        actor=owner,
        test="function",
        performed_by="A. Tester",
        performed_on="2026-11-30",
        outcome="passed",
    )
    quote = SupplierQuote.objects.create(
        organisation=project.organisation,
        supplier="Hanbit",
        number="Q-1",
        quoted_on=datetime.date(2026, 11, 2),
    )
    quote_row = QuoteRow.objects.create(
        quote=quote,
        row=8,
        kind="fence",
        catalogue_key="fence",
        matched_by="kind",
        unit="m",
        price_low=Decimal(80000),
        price_high=Decimal(90000),
        currency="KRW",
    )
    return {
        "quote": quote,
        "quote_row": quote_row,
        "labour_rate": LabourRate.objects.create(
            organisation=project.organisation,
            role="installation",
            unit="hour",
            rate_low=Decimal(50000),
            rate_high=Decimal(60000),
            currency="KRW",
            valid_from=datetime.date(2026, 1, 1),
            source="Test rate card",
        ),
        "work_default": WorkDefault.objects.create(
            organisation=project.organisation,
            activity="installation",
            role="installation",
            unit="hour",
            effort_low=Decimal(8),
            effort_high=Decimal(16),
            source="Test projects",
        ),
        "exchange_rate": ExchangeRate.objects.create(
            organisation=project.organisation,
            currency="KRW",
            units_per_usd=Decimal(1350),
            valid_from=datetime.date(2026, 1, 1),
            source="Test bank",
        ),
        "library_device": LibraryDevice.objects.create(
            organisation=project.organisation,
            key="OWN-1",
            kind="light_curtain",
            maker="Acme",
            model="Curtain",
        ),
        "safety_function": safety_function,
        "subsystem": subsystem,
        "validation_record": validation_record,
        "document": document,
        "preview": preview,
        "custom_line": custom_line,
        "project": project,
        "cell": cell,
        "motion_program": MotionProgram.objects.create(
            cell=cell,
            file_name="main.script",
            format="urscript",
            data=b"movel(p[0.4, 0, 0.3, 0, 3.14, 0], v=0.25)\n",
            sha256="0" * 64,
            segments=[[2, 0, 0, 300, 400, 0, 300, 250.0, "linear"]],
        ),
        "segment": segment,
        "opening": opening,
        "station": station,
        "device": device,
        "certificate": CellCertificateFactory(cell=cell),
        "assessment": revision.assessment,
        "revision": revision,
        "hazard": hazard,
        "measure": measure,
    }


@pytest.mark.parametrize("name", sorted(OBJECT_URLS))
def test_outsider_gets_404_for_every_object_url(outsider, owned, name):
    client = APIClient()
    client.force_login(outsider)
    args = OBJECT_URLS[name](owned)
    url = reverse(name, args=args)
    missing = reverse(name, args=[999999 if isinstance(a, int) else a for a in args])
    body_format = "json" if name.startswith(API_NAMESPACES) else None
    for method in ["get", "post", "put", "patch", "delete"]:
        response = getattr(client, method)(url, {}, format=body_format)
        if response.status_code == 405:
            # The method is not offered at all: the answer cannot depend on
            # the object, as the same request for a missing id shows.
            absent = getattr(client, method)(missing, {}, format=body_format)
            assert absent.status_code == 405, (method, url)
            continue
        assert response.status_code == 404, (method, url, response.status_code)


@pytest.mark.parametrize("name", sorted(LIST_URLS - {"api:cell-import"}))
def test_outsider_lists_show_none_of_the_owners_objects(outsider, owned, name):
    client = APIClient()
    client.force_login(outsider)
    response = client.get(reverse(name))
    assert response.status_code == 200
    if name.startswith(API_NAMESPACES):
        assert response.json()["count"] == 0
    else:
        assert owned["project"].name not in response.text


def test_outsider_cannot_import_into_a_foreign_project(outsider, owned):
    client = APIClient()
    client.force_login(outsider)
    response = client.post(
        reverse("api:cell-import"),
        {"project": owned["project"].pk, "document": {}},
        format="json",
    )
    assert response.status_code == 400
    assert "project" in response.json()
