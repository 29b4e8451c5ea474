"""The world the injection test builds (``test_injection``): the payloads,
the user-writable text fields found by introspection, and one organisation
with a cell and everything around it, written through the API and the
services with a payload in every field."""

from __future__ import annotations

import datetime
import functools
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.apps import apps
from django.core.management import call_command
from django.db import models
from django.urls import reverse
from rest_framework.test import APIClient

from cells.models import Cell, Membership, Organisation, Role
from compliance.assessment import services as assessment
from compliance.costs.catalogue import CATALOGUE
from compliance.management.commands.seed_demo import PALLETISER
from compliance.models import (
    CatalogueEdit,
    CustomLineItem,
    ExchangeRate,
    LibraryDevice,
    LineItemEdit,
    PlanAssumption,
    SafetyFunction,
)
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
    "compliance.GuardingConcept.base_version": "a digest of the cell's design",
    "cells.MotionProgram.units": "mm or m, checked",
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
    "compliance.QuoteRow.kind": "a catalogue entry's key, checked on import",
    "compliance.QuoteRow.catalogue_key": "a catalogue entry's key, checked",
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
    "cells.DxfLayerMapping.layer_name": "a DXF layer's name, shown while importing",
    "compliance.SupplierQuote.file_name": "the imported quote's file name",
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
    # A zone cut below the robot's reach by its safety-rated limits, and why.
    document["robot"]["safety_rated_limits"] = True
    document["hazard_zone"]["radius_mm"] = document["robot"]["reach_mm"] - 100
    document["hazard_zone"]["reduction_reason"] = v(
        "cells.Cell.hazard_zone_reduction_reason"
    )
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
        "hazard_zone_reduction_reason",
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
    _motion_program(world, v)
    _branding(world, v)
    _assess(world, v, opening=opening, device=device)
    _safety_functions(world, v, api)
    _costs(world, v, api)
    _quotes(world, v)
    _labour(world, v)
    _proposal_texts(world, v)
    # Its guarding concepts: their reasons name its openings and devices.
    from compliance.concepts.services import concepts_generate

    concepts_generate(cell=cell, actor=user)
    world.objects["concept"] = cell.concepts.get(kind="fenced")
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
    # What a layer of that name became, remembered for the next import.
    from cells.layout_dxf.services import dxf_layers_remember
    from cells.models import DxfLayerMapping

    name = v("cells.DxfLayerMapping.layer_name")
    dxf_layers_remember(
        organisation_id=world.cell.project.organisation_id, mapping={name: "fence"}
    )
    world.hold(
        DxfLayerMapping.objects.get(layer_key=name.casefold()[:255]), "layer_name"
    )


def _motion_program(world: World, v) -> None:
    """A robot program imported under the file name given (issue 32)."""
    import hashlib

    from cells.models import MotionProgram

    data = b"x,y,z,speed_mm_s\n0,0,300,250\n400,0,300,250\n"
    program = MotionProgram.objects.create(
        cell=world.cell,
        file_name=v("cells.MotionProgram.file_name"),
        format="csv",
        data=data,
        sha256=hashlib.sha256(data).hexdigest(),
        imported_by=world.user,
    )
    world.hold(program, "file_name")
    world.objects["motion_program"] = program


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
        # Signing needs the residual risk estimated too (issue 27).
        residual_severity="S2",
        residual_frequency="F1",
        residual_avoidance="P2",
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


def _quotes(world: World, v) -> None:
    """A supplier quote imported from its spreadsheet, as the import page
    takes it: the supplier, the number and each row's texts hold a payload."""
    from compliance.costs.quotes.reading import QuoteFile, QuoteRowIn
    from compliance.costs.quotes.services import quote_import
    from compliance.costs.quotes.template import TemplateWords, quote_workbook

    quote = QuoteFile(
        supplier=v("compliance.SupplierQuote.supplier"),
        number=v("compliance.SupplierQuote.number"),
        quoted_on=datetime.date(2026, 11, 2),
        rows=(
            QuoteRowIn(
                row=8,
                kind="fence",
                maker=v("compliance.QuoteRow.maker"),
                part_number=v("compliance.QuoteRow.part_number"),
                model=v("compliance.QuoteRow.model"),
                description=v("compliance.QuoteRow.description"),
                unit="m",
                price_low=Decimal("80000"),
                price_high=Decimal("90000"),
                currency="KRW",
            ),
        ),
    )
    stored = quote_import(
        organisation=world.organisation,
        actor=world.user,
        data=quote_workbook(quote, TemplateWords()),
        filename=v("compliance.SupplierQuote.file_name"),
    )
    world.hold(stored, "supplier", "number", "file_name")
    row = stored.rows.get()
    world.hold(row, "maker", "part_number", "model", "description")
    world.objects.update(quote=stored, quote_row=row)


def _labour(world: World, v) -> None:
    """A labour rate and a default work of the organisation, each with its
    source, as the labour page takes them."""
    from compliance.plan.labour.services import labour_rate_add, work_default_set

    rate = labour_rate_add(
        organisation=world.organisation,
        actor=world.user,
        role="safety_engineering",
        unit="hour",
        rate_low=Decimal(95000),
        rate_high=Decimal(120000),
        currency="KRW",
        valid_from=datetime.date(2026, 1, 1),
        source=v("compliance.LabourRate.source"),
    )
    work = work_default_set(
        organisation=world.organisation,
        actor=world.user,
        activity="risk_assessment",
        role="safety_engineering",
        unit="hour",
        effort_low=Decimal(16),
        effort_high=Decimal(24),
        source=v("compliance.WorkDefault.source"),
    )
    world.hold(rate, "source")
    world.hold(work, "source")
    world.objects.update(labour_rate=rate, work_default=work)


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
    assumption_key = "installation"  # an activity of every plan
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
    rate = _answer(
        api.post(
            reverse("organisation-exchange-rates", args=[org.pk]),
            {
                "currency": "KRW",
                "units_per_usd": "1350",
                "valid_from": "2026-01-01",
                "source": v("compliance.ExchangeRate.source"),
            },
            format="json",
        )
    )
    exchange_rate = ExchangeRate.objects.get(pk=rate["id"])
    world.hold(exchange_rate, "source")
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
        exchange_rate=exchange_rate,
    )
