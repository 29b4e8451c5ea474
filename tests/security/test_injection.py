"""Injection payloads through every text field a user can write (issue 13).

Each round writes one payload into every user-writable CharField and
TextField of the cells and compliance apps (found by introspection), through
the API and the services a user's request goes through, each value cut to
the field's length and ended by a tag naming the field. Then, signed in, it
renders every named page of the two apps (``cells/urls.py``,
``compliance/urls.py``), the layout SVG and the proposal PDF, and checks that
the values are text and never markup: no payload unescaped in a page, no
element or event handler it could have made, template syntax shown as typed
(never ``49`` or a year), the SVG well-formed with no script, and the PDF
built with reportlab's paragraph markup shown literally.

The fields are found by introspection: a new text field fails every round
until ``build_world`` writes it, or ``NOT_USER_TEXT`` says why no user does.
Each round builds its world anew (one organisation, the palletiser demo cell
imported with the payloads, a signed risk assessment and the draft after it,
safety functions, the device library, costs and plan), so a round is
independent of the others.
"""

from __future__ import annotations

import datetime
import functools
import io
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import models
from django.test import Client
from django.urls import URLPattern, reverse
from pypdf import PdfReader
from rest_framework.test import APIClient

from cells.models import Cell, Membership, Organisation, Role
from compliance.assessment import services as assessment
from compliance.costs.catalogue import CATALOGUE
from compliance.management.commands.seed_demo import PALLETISER
from compliance.models import (
    CatalogueEdit,
    CustomLineItem,
    LibraryDevice,
    LineItemEdit,
    PlanAssumption,
    ProposalDocument,
    SafetyFunction,
)
from compliance.plan.inputs import EDITABLE_DURATION_KEYS
from compliance.safety_functions import selectors as function_selectors
from compliance.safety_functions import services as functions
from tests.compliance.conftest import PASSWORD
from tests.factories import UserFactory

# The payloads, each written in its own round into every field.
PAYLOADS: dict[str, str] = {
    "script": "<script>alert(1)</script>",
    "attribute": '"><img src=x onerror=alert(1)>',
    "javascript_url": "javascript:alert(1)",
    "svg_text": "</text><script>x</script>",
    "cdata": "]]><x>",
    "template_variable": "{{ 7*7 }}",
    "template_tag": '{% now "Y" %}',
    # reportlab's paragraph markup, all three in one value.
    "reportlab_markup": "<para><font name=x><b>",
    "sql": "'; DROP TABLE x; --",
    "right_to_left": "\u202eexe.txt",
    "long_line": "",  # filled with one long word up to the field's length
}
# TextFields without a max_length: the length of the "long line".
UNBOUNDED_LENGTH = 2000

# Text fields of the two apps that no user writes as free text, and why.
NOT_USER_TEXT: dict[str, str] = {
    "cells.Organisation.slug": "a slug: its validator allows letters, digits, - and _",
    "compliance.AuditEntry.action": "written by the audit trail",
    "compliance.AuditEntry.object_type": "written by the audit trail",
    "compliance.AuditEntry.object_key": "written by the audit trail (an id or key)",
    "compliance.Revision.content_hash": "the SHA-256 computed at signing",
    "compliance.Revision.seal": "the HMAC computed at signing",
    "compliance.Hazard.group": "an ISO 12100 Annex B catalogue key, checked",
    "compliance.Hazard.origin": "an ISO 12100 Annex B catalogue key, checked",
    "compliance.Hazard.consequence": "an ISO 12100 Annex B catalogue key, checked",
    "compliance.Hazard.location_key": "a layout element's key, checked",
    "compliance.SignatureDeclaration.signer_name": (
        "the signer's username (Django's username validator)"
    ),
    "compliance.SignatureDeclaration.statement": "the app's fixed declaration",
    "compliance.SignatureDeclaration.language": "the active language code",
    "compliance.SignatureDeclaration.cell_fingerprint": (
        "the fingerprint computed at signing (hex digits)"
    ),
    "compliance.LineItemEdit.key": "a derived line's key, checked",
    "compliance.CatalogueEdit.key": "a catalogue entry's key, checked",
    "compliance.PlanAssumption.key": "a plan activity's key, checked",
    "compliance.Proposal.number": "made by proposal_number() from the ids",
    "compliance.ProposalDocument.error": "written by the worker",
    "compliance.ProposalDocument.claim": "written by the worker (a task id)",
    "compliance.ProposalDocument.worker": "written by the worker (its host name)",
    "compliance.ProposalDocument.sha256": "written by the worker",
    "compliance.ProposalPreview.error": "written by the worker",
    "compliance.ProposalPreview.claim": "written by the worker (a task id)",
    "compliance.ProposalPreview.worker": "written by the worker (its host name)",
    "compliance.SafetyFunction.suggestion_key": "the key of the app's proposal",
    "compliance.DismissedFunctionSuggestion.key": "the key of the app's proposal",
}
# Written, but shown on no page yet: checked like the rest, but not looked for
# (the test says so once a page shows it).
NOT_SHOWN: dict[str, str] = {
    "cells.LayoutUnderlay.source_name": "the imported DXF's file name",
}
# Written by the app from other fields' text, so the payloads reach them too.
DERIVED: dict[str, str] = {
    "compliance.Hazard.location_label": "the labels of the layout element",
    "compliance.Measure.linked_label": "the label of the linked device",
}


def _key(model: type[models.Model], name: str) -> str:
    return f"{model._meta.app_label}.{model.__name__}.{name}"


@functools.cache
def text_fields() -> dict[str, models.Field]:
    """Every free-text field of the cells and compliance models, by key."""
    found = {}
    for app in ("cells", "compliance"):
        for model in apps.get_app_config(app).get_models():
            for f in model._meta.concrete_fields:
                if (
                    isinstance(f, models.CharField | models.TextField)
                    and f.editable
                    and not f.choices
                ):
                    found[_key(model, f.name)] = f
    return found


WRITABLE = sorted(set(text_fields()) - set(NOT_USER_TEXT) - set(DERIVED))
# A short tag after each value says which field it is in.
TAGS = {key: f"Z{i:02d}" for i, key in enumerate(WRITABLE)}


def value_for(key: str, payload: str) -> str:
    """``payload`` in field ``key``: cut to its length, its tag after it."""
    limit = text_fields()[key].max_length or UNBOUNDED_LENGTH
    tag = TAGS[key]
    room = limit - len(tag)
    body = payload[:room] if payload else "W" * room
    return body + tag


# The world: one organisation with a cell and everything around it, written
# through the API and the services.


@dataclass
class World:
    user: Any
    organisation: Organisation
    project: Any
    cell: Cell
    objects: dict[str, Any] = field(default_factory=dict)
    # Field key -> the objects holding a value written in it.
    holders: dict[str, list[models.Model]] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)

    def hold(self, instance: models.Model, *names: str) -> None:
        for name in names:
            self.holders.setdefault(_key(type(instance), name), []).append(instance)


def _answer(response, status: int = 201) -> dict:
    """The API's JSON answer, which must have ``status``."""
    assert response.status_code == status, response.content[:2000]
    return response.json()


# Fixed for the K.1 import: made-up numbers, the source is the payload.
FAKE_K1_CSV = (
    "mttfd_years,cat_B,cat_1,cat_2_low,cat_2_medium,cat_3_low,cat_3_medium,"
    "cat_4_high\n"
    "3,9e-05,,9e-05,8e-05,7e-05,6e-05,\n"
    "10,8e-05,,7e-05,6e-05,5e-05,4e-05,\n"
    "30,,5e-06,5e-06,4e-06,3e-06,2e-06,1e-07\n"
    "100,,4e-06,4e-06,3e-06,2e-06,5e-08,5e-08\n"
)


def build_world(name: str, v: Callable[[str], str]) -> World:
    user = UserFactory(username=f"engineer-{name}")
    call_command(
        "create_organisation",
        v("cells.Organisation.name"),
        slug=f"injection-{name}",
        stdout=io.StringIO(),
    )
    organisation = Organisation.objects.get(slug=f"injection-{name}")
    # Its library's starting entries are the app's own text: without them the
    # library page is quicker to draw.
    organisation.library_devices.all().delete()
    Membership.objects.create(
        user=user, organisation=organisation, role=Role.SAFETY_ENGINEER
    )
    api = APIClient()
    api.force_authenticate(user)

    project = _answer(
        api.post(
            reverse("api:project-list"),
            {
                "organisation": organisation.pk,
                "name": v("cells.Project.name"),
                "customer_name": v("cells.Project.customer_name"),
                "site_name": v("cells.Project.site_name"),
                "country": "KR",
                "proposal_language": "en",
            },
            format="json",
        )
    )
    document = json.loads(PALLETISER.read_text(encoding="utf-8"))
    document["name"] = v("cells.Cell.name")
    document["task_description"] = v("cells.Cell.task_description")
    document["robot"]["manufacturer"] = v("cells.Cell.robot_manufacturer")
    document["robot"]["model"] = v("cells.Cell.robot_model")
    document["guard_segments"][0]["label"] = v("cells.GuardSegment.label")
    document["guard_segments"][0]["openings"][0]["label"] = v("cells.Opening.label")
    document["operator_stations"][0]["label"] = v("cells.OperatorStation.label")
    document["devices"][0]["label"] = v("cells.Device.label")
    document["devices"][0]["kcs_certified"] = True
    document["devices"][0]["kcs_certificate_no"] = v("cells.Device.kcs_certificate_no")
    imported = _answer(
        api.post(
            reverse("api:cell-import"),
            {"project": project["id"], "document": document},
            format="json",
        )
    )
    # The robot's safety configuration: another maker's identifier, typed.
    _answer(
        api.patch(
            reverse("api:cell-detail", args=[imported["id"]]),
            {
                "safety_config_kind": "other",
                "safety_config_value": v("cells.Cell.safety_config_value"),
            },
            format="json",
        ),
        200,
    )
    cell = Cell.objects.get(pk=imported["id"])
    world = World(
        user=user,
        organisation=organisation,
        project=cell.project,
        cell=cell,
    )
    world.hold(organisation, "name")
    world.hold(cell.project, "name", "customer_name", "site_name")
    world.hold(
        cell,
        "name",
        "task_description",
        "robot_manufacturer",
        "robot_model",
        "safety_config_value",
    )
    segment = cell.segments.order_by("pk").first()
    opening = segment.openings.get()
    station = cell.stations.order_by("pk").first()
    device = cell.devices.get(kind="light_curtain")
    world.hold(segment, "label")
    world.hold(opening, "label")
    world.hold(station, "label")
    world.hold(device, "label", "kcs_certificate_no")
    world.objects.update(
        segment=segment, opening=opening, station=station, device=device
    )

    certificate = _answer(
        api.post(
            reverse("api:certificate-list"),
            {
                "cell": cell.pk,
                "issuing_body": v("cells.CellCertificate.issuing_body"),
                "number": v("cells.CellCertificate.number"),
                "issued_on": "2026-01-05",
                "valid_until": "2029-01-04",
                "scope": v("cells.CellCertificate.scope"),
            },
            format="json",
        )
    )
    certificate = cell.certificates.get(pk=certificate["id"])
    world.objects["certificate"] = certificate
    world.hold(certificate, "issuing_body", "number", "scope")

    _underlay(world, v)
    _floor_image(world, v)
    _branding(world, v)
    _assess(world, v, opening=opening, device=device)
    _safety_functions(world, v, api)
    _costs(world, v, api)
    _proposal_texts(world, v)
    return world


def _proposal_texts(world: World, v) -> None:
    """The SA's executive summary and safety concept of the English proposal."""
    from compliance.proposals.services import proposal_texts_save

    text = proposal_texts_save(
        cell=world.cell,
        actor=world.user,
        language="en",
        summary=v("compliance.ProposalText.summary"),
        safety_concept=v("compliance.ProposalText.safety_concept"),
    )
    world.hold(text, "summary", "safety_concept")


def _underlay(world: World, v) -> None:
    """A DXF drawing of one hall wall imported as the plan's underlay, under
    the file name given."""
    import ezdxf

    from cells.layout_dxf.services import layout_dxf_import

    drawing = ezdxf.new()
    drawing.modelspace().add_line(
        (-500, -500), (6500, -500), dxfattribs={"layer": "HALL"}
    )
    text = io.StringIO()
    drawing.write(text)
    layout_dxf_import(
        cell=world.cell,
        data=text.getvalue().encode(),
        source_name=v("cells.LayoutUnderlay.source_name"),
        units="mm",
    )
    world.hold(world.cell.underlay, "source_name")


def _floor_image(world: World, v) -> None:
    """A floor-plan image under the plan, uploaded under the file name given."""
    from django.utils import timezone
    from PIL import Image

    from cells.layout_image.models import LayoutImage
    from cells.layout_image.services import layout_image_save

    picture = io.BytesIO()
    Image.new("L", (40, 20), 200).save(picture, format="PNG")
    image = LayoutImage(
        cell=world.cell,
        data=picture.getvalue(),
        content_type="image/png",
        width_px=40,
        height_px=20,
        file_name=v("cells.LayoutImage.file_name"),
        point1_x_px=0,
        point1_y_px=0,
        point2_x_px=39,
        point2_y_px=0,
        distance_mm=6000,
        plan_x_mm=-500,
        plan_y_mm=6500,
        uploaded_at=timezone.now(),
    )
    image.full_clean()
    world.hold(layout_image_save(image=image, new_data=True), "file_name")


def _branding(world: World, v) -> None:
    """The organisation's name and address on its proposals."""
    from PIL import Image

    from compliance.proposals.models import OrganisationBranding

    logo = io.BytesIO()
    Image.new("L", (60, 20), 90).save(logo, format="PNG")
    branding = OrganisationBranding.objects.create(
        organisation=world.organisation,
        display_name=v("compliance.OrganisationBranding.display_name"),
        address=v("compliance.OrganisationBranding.address"),
        logo=logo.getvalue(),
        logo_type="image/png",
    )
    world.hold(branding, "display_name", "address")


def _assess(world: World, v, *, opening, device) -> None:
    """Revision 1 with every text written and signed (a reason for each open
    fail), then revision 2 opened from it: a draft with the same texts."""
    user, cell = world.user, world.cell
    revision = assessment.assessment_open(cell=cell, actor=user)
    limits = {
        name: v(f"compliance.Revision.{name}")
        for name in (
            "intended_use",
            "foreseeable_misuse",
            "space_limits",
            "time_limits",
            "low_guard_justification",
            "conformity_route",
        )
    }
    revision = assessment.revision_update_limits(
        revision=revision,
        actor=user,
        version=revision.version,
        exposed_persons=["operators"],
        **limits,
    )
    hazard = assessment.hazard_add(
        revision=revision,
        actor=user,
        group="mechanical",
        origin="moving_elements",
        consequence="crushing",
        phase="operation",
        task=v("compliance.Hazard.task"),
        description=v("compliance.Hazard.description"),
        location_key=f"opening:{opening.pk}",
        severity="S2",
        frequency="F1",
        avoidance="P2",
    )
    assessment.measure_add(
        hazard=hazard,
        actor=user,
        step="safeguarding",
        description=v("compliance.Measure.description"),
        device=device,
    )
    revision = assessment.revision_submit(revision=revision, actor=user)
    open_findings = assessment.revision_sign_preview(revision=revision)
    signed = assessment.revision_sign(
        revision=revision,
        actor=user,
        password=PASSWORD,
        confirm=True,
        # The reasons are free text too (kept in the declaration's JSON).
        accepted={f.key: v("compliance.Measure.description") for f in open_findings},
    )
    draft = assessment.revision_start_next(revision=signed, actor=user)
    world.objects.update(
        signed=signed,
        revision=draft,
        hazard=draft.hazards.get(),
        measure=draft.hazards.get().measures.get(),
    )
    for revision in (signed, draft):
        world.hold(revision, *limits)
        hazard = revision.hazards.get()
        world.hold(hazard, "task", "description", "location_label")
        world.hold(hazard.measures.get(), "description", "linked_label")


def _safety_functions(world: World, v, api: APIClient) -> None:
    """The proposed functions accepted, one's texts and a subsystem's written,
    a validation record, a library entry of the organisation's own and its
    Table K.1 import."""
    user, cell = world.user, world.cell
    accepted = [
        functions.function_suggestion_accept(cell=cell, actor=user, key=s.key)
        for s in function_selectors.suggestions(cell)
    ]
    function = next(f for f in accepted if f.device_id == world.objects["device"].pk)
    function = functions.function_update(
        function=function,
        actor=user,
        version=SafetyFunction.objects.get(pk=function.pk).version,
        name=v("compliance.SafetyFunction.name"),
        trigger=v("compliance.SafetyFunction.trigger"),
        reaction=v("compliance.SafetyFunction.reaction"),
        reset_behaviour=v("compliance.SafetyFunction.reset_behaviour"),
        restart_behaviour=v("compliance.SafetyFunction.restart_behaviour"),
    )
    subsystem = function.subsystems.order_by("order").first()
    subsystem = functions.subsystem_update(
        subsystem=subsystem,
        actor=user,
        label=v("compliance.Subsystem.label"),
        source=v("compliance.Subsystem.source"),
    )
    test = function_selectors.plan_of(function)[0]
    record = functions.validation_record_add(
        function=function,
        actor=user,
        test=test.kind,
        performed_by=v("compliance.ValidationRecord.performed_by"),
        performed_on=datetime.date(2026, 11, 30),
        instrument=v("compliance.ValidationRecord.instrument"),
        measured_value=v("compliance.ValidationRecord.measured_value"),
        outcome="passed",
        notes=v("compliance.ValidationRecord.notes"),
    )
    world.hold(
        function, "name", "trigger", "reaction", "reset_behaviour", "restart_behaviour"
    )
    world.hold(subsystem, "label", "source")
    world.hold(record, "performed_by", "instrument", "measured_value", "notes")

    org = world.organisation
    library_device = _answer(
        api.post(
            reverse("organisation-library-devices", args=[org.pk]),
            {
                "key": v("compliance.LibraryDevice.key"),
                "kind": "light_curtain",
                "maker": v("compliance.LibraryDevice.maker"),
                "model": v("compliance.LibraryDevice.model"),
                "part_number": v("compliance.LibraryDevice.part_number"),
                "function": v("compliance.LibraryDevice.function"),
                "pl": "e",
                "certificates": v("compliance.LibraryDevice.certificates"),
                "kcs_certificate_no": v("compliance.LibraryDevice.kcs_certificate_no"),
                "price_low": "100.00",
                "price_high": "200.00",
                "currency": "USD",
                "price_source": v("compliance.LibraryDevice.price_source"),
                "data_source": v("compliance.LibraryDevice.data_source"),
                "notes": v("compliance.LibraryDevice.notes"),
            },
            format="json",
        )
    )
    library_device = LibraryDevice.objects.get(pk=library_device["id"])
    world.hold(
        library_device,
        "key",
        "maker",
        "model",
        "part_number",
        "function",
        "certificates",
        "kcs_certificate_no",
        "price_source",
        "data_source",
        "notes",
    )
    table = functions.pfhd_table_import(
        organisation=org,
        actor=user,
        text=FAKE_K1_CSV,
        source=v("compliance.PfhdTableImport.source"),
    )
    world.hold(table, "source")
    world.objects.update(
        function=function,
        subsystem=subsystem,
        record=record,
        library_device=library_device,
    )


def _costs(world: World, v, api: APIClient) -> None:
    """A line of the user's own, an edited derived line, an organisation's
    catalogue price and a plan assumption, each with its source."""
    cell, org = world.cell, world.organisation
    line = _answer(
        api.post(
            reverse("cell-custom-line-items", args=[cell.pk]),
            {
                "description": v("compliance.CustomLineItem.description"),
                "category": "service",
                "quantity": "2",
                "unit": "job",
                "price_low": "10.00",
                "price_high": "20.00",
                "currency": "USD",
                "source": v("compliance.CustomLineItem.source"),
            },
            format="json",
        )
    )
    items = _answer(api.get(reverse("cell-line-items", args=[cell.pk])), 200)
    line_key = next(i["key"] for i in items["items"] if i.get("catalogue_key"))
    _answer(
        api.put(
            reverse("cell-line-item", args=[cell.pk, line_key]),
            {
                "quantity": "3",
                "price_low": "50.00",
                "price_high": "60.00",
                "currency": "USD",
                "source": v("compliance.LineItemEdit.source"),
            },
            format="json",
        ),
        200,
    )
    catalogue_key = CATALOGUE[0].key
    _answer(
        api.put(
            reverse("organisation-catalogue-entry", args=[org.pk, catalogue_key]),
            {
                "price_low": "70.00",
                "price_high": "90.00",
                "currency": "USD",
                "source": v("compliance.CatalogueEdit.source"),
            },
            format="json",
        ),
        200,
    )
    assumption_key = sorted(EDITABLE_DURATION_KEYS)[0]
    _answer(
        api.put(
            reverse("cell-plan-assumption", args=[cell.pk, assumption_key]),
            {
                "weeks_low": "1.0",
                "weeks_high": "2.0",
                "source": v("compliance.PlanAssumption.source"),
            },
            format="json",
        ),
        200,
    )
    custom = CustomLineItem.objects.get(pk=line["id"])
    world.hold(custom, "description", "source")
    world.hold(LineItemEdit.objects.get(cell=cell, key=line_key), "source")
    world.hold(CatalogueEdit.objects.get(organisation=org, key=catalogue_key), "source")
    world.hold(PlanAssumption.objects.get(cell=cell, key=assumption_key), "source")
    world.objects.update(
        custom_line=custom,
        line_key=line_key,
        catalogue_key=catalogue_key,
        assumption_key=assumption_key,
    )


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


# What a page must not contain.

# Elements only a payload makes (the app draws none of them) ...
INJECTED_ELEMENTS = {"x", "para", "font", "img"}
# ... but for the app's own pictures: the floor-plan image, the logo and the
# proposal preview's pages.
APP_IMAGES = re.compile(
    r"/cells/\d+/layout/image/file\?v=\d+|/organisations/\d+/branding/logo/"
    r"|/proposal-previews/\d+/pages/\d+\.png\?size=thumbnail&v=\d+"
)
# Attributes that take a URL, where "javascript:" would run.
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "hx-get"}
SCRIPT_DATA_TYPES = {"application/json", "application/ld+json"}


class PageParser(HTMLParser):
    """A page's text and attribute values as the browser reads them, and the
    markup that only an unescaped payload could have made."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.problems: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        own = tag == "img" and APP_IMAGES.fullmatch(values.get("src") or "")
        if tag in INJECTED_ELEMENTS and not own:
            self.problems.append(f"a <{tag}> element {values}")
        for name, value in attrs:
            value = value or ""
            self.texts.append(value)
            if name.startswith("on"):
                self.problems.append(f"an event handler {name}={value!r} on <{tag}>")
            if name in URL_ATTRIBUTES and value.strip().lower().startswith(
                "javascript:"
            ):
                self.problems.append(f"a javascript: URL {name}={value!r}")
        if tag == "script":
            self._in_script = True
            if not values.get("src") and values.get("type") not in SCRIPT_DATA_TYPES:
                self.problems.append(f"an inline script {values}")

    def handle_startendtag(self, tag, attrs) -> None:
        self.handle_starttag(tag, attrs)
        if tag == "script":
            self._in_script = False

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if not self._in_script:
            self.texts.append(data)


def html_problems(content: str, values: dict[str, str]) -> tuple[list[str], str]:
    """What is wrong with a page, and its text (values separated by NULs)."""
    parser = PageParser()
    parser.feed(content)
    parser.close()
    problems = list(parser.problems)
    for key, value in values.items():
        if "<" in value and value in content:
            problems.append(f"{key} unescaped: {value[:60]!r}")
    return problems, "\x00".join(parser.texts)


SVG_FORBIDDEN = {"script", "foreignObject", *INJECTED_ELEMENTS}


def svg_problems(content: bytes) -> tuple[list[str], str]:
    """What is wrong with the layout SVG, and its text."""
    try:
        root = ET.fromstring(content)
    except ET.ParseError as exc:
        return [f"not well-formed XML: {exc}"], ""
    problems, texts = [], []
    for element in root.iter():
        tag = element.tag.rpartition("}")[2]
        if tag in SVG_FORBIDDEN:
            problems.append(f"a <{tag}> element in the SVG")
        for name, value in element.attrib.items():
            local = name.rpartition("}")[2]
            texts.append(value)
            if local.startswith("on"):
                problems.append(f"an event handler {local}={value!r} in the SVG")
            if local == "href" and value.strip().lower().startswith("javascript:"):
                problems.append(f"a javascript: URL in the SVG: {value!r}")
        texts.append(element.text or "")
        texts.append(element.tail or "")
    return problems, "\x00".join(texts)


def request_proposal(world: World, client: Client, capture) -> ProposalDocument:
    """A proposal of every section, asked for on its page; without a broker
    the task builds it in-process once the request's transaction commits."""
    from compliance.proposals.pdf.data import SECTIONS

    with capture(execute=True):
        response = client.post(
            reverse("compliance:proposal", args=[world.cell.pk]),
            {"language": "en", "sections": list(SECTIONS), "acknowledge": "on"},
        )
    assert response.status_code == 302, response.content[:2000]
    return ProposalDocument.objects.filter(proposal__cell=world.cell).latest("pk")


def request_preview(world: World, client: Client, capture):
    """The English proposal's preview, asked for on its page."""
    from compliance.proposals.models import ProposalPreview
    from compliance.proposals.pdf.data import SECTIONS

    with capture(execute=True):
        response = client.post(
            reverse("compliance:proposal_preview_request", args=[world.cell.pk]),
            {"language": "en", "sections": list(SECTIONS)},
        )
    assert response.status_code == 302, response.content[:2000]
    return ProposalPreview.objects.get(proposal__cell=world.cell, language="en")


@dataclass
class Rendered:
    """What a round saw: the text of each page, and what was wrong."""

    texts: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    pdf_text: str = ""


# The browsable API is DRF's templates, escaping as the pages do: the payloads
# that break out of text, attributes and SVG are enough there (and keep the
# test quick).
API_PAGE_PAYLOADS = {"script", "attribute", "svg_text"}


def render_everything(world: World, client: Client, *, api: bool) -> Rendered:
    """Every page once (a page for POST only answers 405), checked."""
    seen = Rendered()
    arguments = page_arguments(world)
    assert set(arguments) == url_names(), "a new page: add it to page_arguments"
    urls = [
        reverse(name, kwargs=kwargs)
        for name, each in sorted(arguments.items())
        for kwargs in each
    ]
    urls += [
        reverse(name, kwargs=arguments[name][0]) + q
        for name, q in EXTRA_QUERIES.items()
    ]
    if api:
        urls += [(url, "text/html") for url in api_pages(world)]
    for url in urls:
        url, accept = url if isinstance(url, tuple) else (url, "*/*")
        response = client.get(url, HTTP_ACCEPT=accept)
        if response.status_code not in (200, 302, 405):
            seen.problems.append(f"{url}: answered {response.status_code}")
            continue
        content_type = response.get("Content-Type", "")
        if content_type.startswith("text/html"):
            problems, text = html_problems(response.content.decode(), world.values)
        elif content_type.startswith("image/svg+xml"):
            problems, text = svg_problems(response.content)
        elif content_type.startswith("application/pdf"):
            pdf = PdfReader(io.BytesIO(response.content))
            # Every PDF: the proposal and the revisions' reports.
            seen.pdf_text += "\n".join(page.extract_text() for page in pdf.pages)
            problems, text = [], ""
        else:
            problems, text = [], ""
        seen.problems += [f"{url}: {p}" for p in problems]
        seen.texts[url] = text
    return seen


def stored_values(world: World) -> dict[str, list[str]]:
    """Each field's values as stored (a derived label is longer than the
    value its source was given)."""
    stored: dict[str, list[str]] = {}
    for key, holders in world.holders.items():
        name = key.rpartition(".")[2]
        for holder in holders:
            current = type(holder)._base_manager.get(pk=holder.pk)
            stored.setdefault(key, []).append(getattr(current, name))
    return stored


def pdf_strings(data: Any) -> list[str]:
    """Every text of the data a PDF was built from (kept beside it) that the
    PDF prints."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        if data.get("status") == "pass" and "rule_id" in data:
            # A passed finding is summarised by its rule and subject: its
            # sentence and figures stay in the kept data, not on the page.
            return [data["rule_id"], data.get("citation", ""), data.get("subject", "")]
        data = list(data.values())
    if isinstance(data, list):
        return [s for item in data for s in pdf_strings(item)]
    return []


def pdf_comparable(text: str) -> str:
    # A PDF's lines wrap where the text had none; the font has no glyph for
    # the right-to-left override, which pypdf reads back as NUL.
    return re.sub(r"\s+", "", text).replace("\u202e", "").replace("\x00", "")


@pytest.mark.django_db
@pytest.mark.parametrize("payload", list(PAYLOADS))
def test_payloads_are_shown_as_text_everywhere(
    payload, client, django_capture_on_commit_callbacks
):
    values = {key: value_for(key, PAYLOADS[payload]) for key in WRITABLE}
    world = build_world(payload.replace("_", "-"), values.__getitem__)
    world.values = values
    # Every free-text field was written (or NOT_USER_TEXT says why not).
    assert set(world.holders) == set(text_fields()) - set(NOT_USER_TEXT)
    stored = stored_values(world)
    for key, value in values.items():
        assert all(v == value for v in stored[key]), (key, stored[key], value)

    client.force_login(world.user)
    document = request_proposal(world, client, django_capture_on_commit_callbacks)
    document.refresh_from_db()
    assert (document.status, document.error) == ("ready", "")
    world.objects["document"] = document
    preview = request_preview(world, client, django_capture_on_commit_callbacks)
    assert (preview.status, preview.error) == ("ready", "")
    world.objects["preview"] = preview
    seen = render_everything(world, client, api=payload in API_PAGE_PAYLOADS)

    assert not seen.problems, "\n".join(seen.problems)
    # Each value is shown as typed somewhere (so escaped: nothing above found
    # it raw), a template's syntax never evaluated.
    shown = {
        key
        for key, each in stored.items()
        if all(any(value in text for text in seen.texts.values()) for value in each)
    }
    assert set(stored) - shown == set(NOT_SHOWN), "shown on no page, or now shown"
    # Everything the PDF was built from is in it literally: reportlab's
    # markup neither applied nor fatal.
    texts = pdf_strings(document.data)
    in_pdf = {key for key, value in values.items() if any(value in t for t in texts)}
    assert in_pdf >= {
        "cells.Cell.name",
        "cells.GuardSegment.label",
        "compliance.Hazard.task",
        "compliance.SafetyFunction.name",
    }
    pdf_text = pdf_comparable(seen.pdf_text)
    assert pdf_text, "the PDF was not downloaded"
    garbled = [k for k in sorted(in_pdf) if pdf_comparable(values[k]) not in pdf_text]
    assert not garbled, f"not in the PDF as typed: {garbled}"
    if payload.startswith("template_"):
        evaluated = ("49", str(datetime.date.today().year))
        for key, tag in TAGS.items():
            for result in evaluated:
                assert f"{result}{tag}" not in pdf_text, key
                assert not any(f"{result}{tag}" in t for t in seen.texts.values())


def test_every_allowance_names_a_text_field():
    """The allow-lists name fields that exist, so they cannot go stale."""
    fields = text_fields()
    assert set(NOT_USER_TEXT) <= set(fields)
    assert set(DERIVED) <= set(fields)
    assert set(NOT_SHOWN) <= set(WRITABLE)
    assert len(WRITABLE) == len(fields) - len(NOT_USER_TEXT) - len(DERIVED)


def test_the_checks_find_markup():
    """The page and SVG checks flag what an unescaped payload would make."""
    value = value_for("cells.Cell.name", PAYLOADS["attribute"])
    page = (
        f'<p>{value}</p><a href="javascript:alert(1)">x</a>'
        "<script>alert(1)</script><para>"
    )
    problems, _text = html_problems(page, {"cells.Cell.name": value})
    assert len(problems) == 6, problems  # img, onerror, href, script, para, raw
    # The app's own pictures pass; a payload's picture does not, even where it
    # names an app address past the one the app makes.
    own = '<img src="/cells/7/layout/image/file?v=123" alt="">'
    assert html_problems(own, {})[0] == []
    forged = '<img src="/cells/7/layout/image/file?v=1&amp;x=javascript:1" alt="">'
    assert len(html_problems(forged, {})[0]) == 1
    escaped, text = html_problems("<p>&lt;b&gt;Z00 &quot;&gt;</p>", {"k": "<b>Z00"})
    assert escaped == [] and '<b>Z00 ">' in text
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>x</script></svg>'
    assert svg_problems(svg)[0] == ["a <script> element in the SVG"]
    assert svg_problems(b"<svg><text>]]><x></text></svg>")[0][0].startswith("not")
