"""The pages a person can reach, on the demo data: walked by the browser's
accessibility test and by the Korean test (every page, read in Korean). A new
page fails the coverage test until it is walked here or said to be none."""

from __future__ import annotations

import io
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from cells.models import Cell, Organisation
from cells.motion.services import motion_program_import
from compliance.assessment import services as assessment_services
from compliance.assessment.models import Hazard, Revision
from compliance.calculators.registry import CALCULATORS
from compliance.costs.services import custom_line_save
from compliance.proposals.models import Proposal, ProposalDocument
from compliance.safety_functions.models import SafetyFunction, Subsystem
from tests.cells.certificates import CellCertificateFactory

EDIT_ROW = ".line-edit-row"  # a table's row being edited, in place

# Named URLs that are no page of their own, with the reason: the coverage test
# fails when a new page is neither walked nor listed here.
NOT_PAGES = {
    "healthz": "a probe for the load balancer, plain text",
    "readyz": "the readiness probe for the load balancer, JSON",
    "logout": "POST only",
    "set_language": "POST only",
    # No e-mail is configured and no page links the reset: not offered.
    "password_reset": "not offered (no e-mail configured, not linked)",
    "password_reset_done": "not offered (no e-mail configured, not linked)",
    "password_reset_confirm": "not offered (no e-mail configured, not linked)",
    "password_reset_complete": "not offered (no e-mail configured, not linked)",
    "cells:cell_layout_svg": "an SVG file",
    "compliance:concepts_generate": "POST only",
    "compliance:concept_choose": "POST only",
    "compliance:concept_copy": "POST only",
    "cells:layout_dxf_export": "a DXF file",
    "cells:layout_image_file": "the floor-plan image itself (PNG or JPEG)",
    "cells:layout_image_remove": "POST only",
    "cells:layout_image_preview": (
        "POST only (a PDF's first page drawn for the image page's script)"
    ),
    "cells:plan_edit": "POST only (the plan's drawing tools)",
    "cells:element_delete": "POST only (the editor's button asks first)",
    "cells:certificate_delete": "POST only",
    "compliance:catalogue_home": "redirects to the organisation's catalogue",
    "compliance:library_home": "redirects to the organisation's library",
    "compliance:compliance_summary": "an htmx fragment of the layout page",
    "compliance:hazard_row": "an htmx fragment of the assessment page",
    "compliance:proposal_document_row": "an htmx fragment of the proposal page",
    "compliance:proposal_document_download": "the PDF",
    "compliance:report": "the risk-assessment report, a PDF",
    "compliance:register_export": "the hazard register, an XLSX file",
    "compliance:branding_logo": "the organisation's logo itself (PNG or JPEG)",
    "compliance:library_export": "a CSV file",
    "compliance:assessment_start": "POST only",
    "compliance:suggestion_accept": "POST only",
    "compliance:suggestion_dismiss": "POST only",
    "compliance:hazard_delete": "POST only",
    "compliance:proposal_document_retry": "POST only",
    "compliance:proposal_document_rebuild": "POST only (GET returns to the proposal)",
    "compliance:proposal_preview_request": "POST only (the Preview button)",
    "compliance:proposal_preview": "an htmx fragment of the proposal page",
    "compliance:proposal_preview_page": "a page of the preview, a PNG image",
    "compliance:function_suggestion_accept": "POST only",
    "compliance:function_suggestion_dismiss": "POST only",
    "compliance:safety_function_delete": "POST only (the button asks first)",
    "compliance:subsystem_delete": "POST only",
    "compliance:subsystem_preview": "POST only, an htmx fragment",
    "compliance:validation_record_add": "POST only (its form is on the detail page)",
    "compliance:validation_record_delete": "POST only",
    "compliance:pfhd_table_delete": "POST only",
    "compliance:library_seed": "POST only",
    "compliance:custom_line_delete": "POST only",
    "compliance:exchange_rate_add": "POST only (its form is on the rates page)",
    "compliance:exchange_rate_delete": "POST only",
    "compliance:labour_rate_add": "POST only (its form is on the labour page)",
    "compliance:labour_rate_delete": "POST only",
    "compliance:work_default_set": "POST only (its form is on the labour page)",
    "compliance:work_default_delete": "POST only",
    "compliance:quote_import": "POST only (its form is on the quotes page)",
    "compliance:quote_delete": "POST only",
    "compliance:quote_template": "an XLSX download",
    "compliance:quote_export": "an XLSX download",
    "compliance:motion_import": "POST only (its form is on the Motion tab)",
    "compliance:motion_delete": "POST only (the button asks first)",
    "compliance:motion_file": "a robot program's file as imported",
    "compliance:motion_annotated": "a robot program's file, annotated",
}


@dataclass(frozen=True)
class Visit:
    name: str  # the URL's name, for the coverage test
    url: str
    # The viewer sees it without the editors' buttons and forms (the other
    # pages are the same for everyone, or closed to the viewer).
    viewer: bool = False
    status: int = 200
    # A link to click first, where the page is an htmx fragment of another.
    click: str = ""
    # Where axe looks, on a page that is another one (checked in full on its
    # own) with a form open: the layout with its editor, the costs with a line
    # being edited.
    scope: str = ""


def demo_world() -> dict:
    """The demo data, and the few rows a page needs to show all it can: a
    revision in review (the signing page), a certificate, a custom cost line
    and proposal documents (their table)."""
    call_command("seed_demo", stdout=io.StringIO())
    safety = get_user_model().objects.get(username="safety")
    designs = Cell.objects.filter(variant_of__isnull=True)
    palletiser = designs.get(name="케이스 팔레타이저 A")
    cobot = designs.get(name="머신 텐딩 협동로봇")
    signed = Revision.objects.get(assessment__cell=palletiser)
    in_review = assessment_services.revision_start_next(revision=signed, actor=safety)
    in_review = assessment_services.revision_submit(revision=in_review, actor=safety)
    draft = Revision.objects.get(assessment__cell=cobot)
    # A measure to edit and to delete (its editor and its question).
    measure = assessment_services.measure_add(
        hazard=Hazard.objects.filter(revision=draft).first(),
        actor=safety,
        step="information_for_use",
        description="Warning sign at the lathe door",
    )
    custom = custom_line_save(
        cell=palletiser, actor=safety, description="Turntable guard", quantity=1
    )
    proposal = Proposal.objects.create(
        cell=palletiser, number="CSP-0001-0001", created_by=safety
    )
    Status = ProposalDocument.Status
    for version, status in ((1, Status.FAILED), (2, Status.PENDING)):
        ProposalDocument.objects.create(
            proposal=proposal,
            version=version,
            language="ko",
            sections=["cover"],
            status=status,
            error="Worker lost" if status == Status.FAILED else "",
            requested_by=safety,
        )
    function = SafetyFunction.objects.filter(cell=palletiser).first()
    # A robot program on the Motion tab: moves far from people, one past the
    # pallet change (no body region recorded there: not checked), a joint
    # move and an output.
    program = motion_program_import(
        cell=palletiser,
        actor=safety,
        file_name="palletise.script",
        data=b"""def palletise():
  movel(p[0.40, 0.30, 0.60, 0, 3.14, 0], a=1.2, v=0.25)
  movel(p[0.40, -0.30, 0.60, 0, 3.14, 0], a=1.2, v=1.5)
  movel(p[0.00, 3.30, 0.60, 0, 3.14, 0], a=1.2, v=0.5)
  set_digital_out(0, True)
  movej([0, -1.57, 1.57, 0, 0, 0], a=1.4, v=1.05)
end
""",
    )
    return {
        "organisation": Organisation.objects.get(slug="demo"),
        "palletiser": palletiser,
        "cobot": cobot,
        "in_review": in_review,
        "draft": draft,
        "hazard": Hazard.objects.filter(revision=draft).first(),
        "measure": measure,
        "certificate": CellCertificateFactory(cell=cobot),
        "custom": custom,
        "function": function,
        "subsystem": Subsystem.objects.filter(function=function).first(),
        "motion_program": program,
    }


def visits(d: dict) -> list[Visit]:
    """Every page, on the demo data: the palletiser for a cell's pages, the
    cobot where its draft assessment or its certificate is needed."""
    org, cell, cobot = d["organisation"].pk, d["palletiser"].pk, d["cobot"].pk
    project = d["palletiser"].project_id
    layout = d["palletiser"]
    opening = layout.segments.filter(openings__isnull=False).first().openings.first()
    elements = {
        "segment": layout.segments.first().pk,
        "opening": opening.pk,
        "device": layout.devices.first().pk,
        "station": layout.stations.first().pk,
    }
    library_device = d["organisation"].library_devices.first().pk
    # The demo's example quote of parts (seed_demo), one of its rows.
    quote = d["organisation"].supplier_quotes.order_by("pk").first()
    quote_row = quote.rows.order_by("row").first().pk
    limits = reverse("compliance:limits_edit", args=[d["draft"].pk])

    def v(name: str, *args, **options) -> Visit:
        return Visit(name, reverse(name, args=args), **options)

    return [
        v("cells:project_list", viewer=True),
        v("cells:project_create"),
        v("cells:project_detail", project, viewer=True),
        v("cells:project_edit", project),
        v("cells:project_delete", project),
        v("cells:cell_create", project),
        v("cells:cell_detail", cell, viewer=True),
        v("cells:cell_edit", cell),
        v("cells:cell_delete", cell),
        v("cells:hazard_zone_edit", cell, scope="#editor"),
        *[
            visit
            for kind, pk in elements.items()
            for visit in (
                v("cells:element_add", cell, kind, scope="#editor"),
                v("cells:element_edit", cell, kind, pk, scope="#editor"),
            )
        ],
        v("cells:layout_dxf_import", cell),
        v("cells:layout_image_edit", cell),
        v("cells:certificate_add", cobot),
        v("cells:certificate_edit", cobot, d["certificate"].pk),
        v("compliance:cell_compliance", cell),
        v("compliance:assessment", cell, viewer=True),
        v("compliance:assessment", cobot, viewer=True),
        # Its link opens the form inside the assessment page.
        Visit(
            "compliance:limits_edit",
            reverse("compliance:assessment", args=[cobot]),
            click=f"a[href='{limits}']",
            scope="#limits",
        ),
        v("compliance:history", cell),
        v("compliance:revision_diff", d["in_review"].pk),
        v("compliance:register_import", d["draft"].pk),
        v("compliance:revision_action", d["in_review"].pk, "sign"),
        v("compliance:hazard_add", d["draft"].pk, scope="#add-hazard"),
        v("compliance:hazard_edit", d["hazard"].pk, scope=".hazard-form-row"),
        v("compliance:measure_add", d["hazard"].pk, scope=".measure-form-row"),
        # Opened directly, each editor is the whole page with it open.
        v("compliance:limits_edit", d["draft"].pk, scope="#limits"),
        v("compliance:measure_edit", d["measure"].pk, scope=".measure-edit"),
        v("compliance:measure_delete", d["measure"].pk, scope=".measure-confirm"),
        v("compliance:safety_functions", cell, viewer=True),
        v("compliance:safety_function_add", cell),
        v("compliance:safety_documents", cell),
        v("compliance:safety_function_detail", d["function"].pk, viewer=True),
        v("compliance:safety_function_edit", d["function"].pk),
        v("compliance:subsystem_add", d["function"].pk),
        v("compliance:subsystem_edit", d["subsystem"].pk),
        v("compliance:pfhd_table", org),
        v("compliance:cell_costs", cell, viewer=True),
        v("compliance:custom_line_add", cell, scope=".add-line"),
        v("compliance:custom_line_edit", cell, d["custom"].pk, scope=EDIT_ROW),
        v("compliance:line_item_edit", cell, "fence:1800", scope=EDIT_ROW),
        v("compliance:cell_plan", cell, viewer=True),
        v("compliance:cell_motion", cell, viewer=True),
        v("compliance:motion_program", cell, d["motion_program"].pk, viewer=True),
        v("compliance:cell_concepts", cell, viewer=True),
        v("compliance:project_concepts", project, viewer=True),
        v("compliance:plan_assumption_edit", cell, "risk_assessment", scope=EDIT_ROW),
        v("compliance:proposal", cell, viewer=True),
        # Opened directly, the tab with the English texts being edited.
        v("compliance:proposal_texts_edit", cell, "en", scope="#texts-en"),
        v("compliance:catalogue", org, viewer=True),
        v("compliance:branding_edit", org, viewer=True),
        v("compliance:catalogue_edit", org, "fence", scope=EDIT_ROW),
        v("compliance:exchange_rates", org, viewer=True),
        v("compliance:labour", org, viewer=True),
        v("compliance:quote_list", org, viewer=True),
        v("compliance:quote_detail", quote.pk, viewer=True),
        v("compliance:quote_row_match", quote.pk, quote_row, scope=EDIT_ROW),
        v("compliance:library", org, viewer=True),
        v("compliance:library_device_add", org),
        v("compliance:library_device_edit", org, library_device),
        v("compliance:library_device_delete", org, library_device),
        v("compliance:library_import", org),
        v("compliance:rules"),
        v("compliance:calculator_list"),
        *[v("compliance:calculator_detail", name) for name in CALCULATORS],
        v("password_change"),
        v("password_change_done"),
        Visit("not-found", "/cells/999999/", status=404),
    ]


SIGNED_OUT = [Visit("login", reverse("login"))]


def page_names() -> set[str]:
    """The named URLs outside the API and the admin."""

    def walk(patterns, prefix: str, namespace: str):
        for p in patterns:
            if isinstance(p, URLResolver):
                inner = ":".join(filter(None, [namespace, p.namespace or ""]))
                yield from walk(p.url_patterns, prefix + str(p.pattern), inner)
            elif isinstance(p, URLPattern) and p.name:
                route = prefix + str(p.pattern)
                if route.startswith(("api/", "admin/")):
                    continue
                yield f"{namespace}:{p.name}" if namespace else p.name

    return set(walk(get_resolver().url_patterns, "", ""))
