"""The admin: every model of the project's apps is in it, each of its pages
opens for a superuser without a query per row, and what is signed or sealed
(a signed revision and all it holds, the audit trail, a built proposal
version) is shown read-only and cannot be deleted."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib import admin
from django.db import connection
from django.db.models import Model
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from cells.models import (
    Cell,
    CellCertificate,
    Device,
    DxfLayerMapping,
    LayoutImage,
    LayoutUnderlay,
    Membership,
    MotionProgram,
    Opening,
    Organisation,
    Project,
    Role,
)
from compliance.assessment import services
from compliance.assessment.models import SignatureDeclaration
from compliance.models import (
    Assessment,
    AuditEntry,
    CatalogueEdit,
    CustomLineItem,
    DismissedFunctionSuggestion,
    ExchangeRate,
    GuardingConcept,
    Hazard,
    LabourRate,
    LibraryDevice,
    LineItemEdit,
    Measure,
    PfhdTableImport,
    PlanAssumption,
    Proposal,
    ProposalDocument,
    ProposalPreview,
    ProposalPreviewPage,
    ProposalText,
    QuoteRow,
    Revision,
    SafetyFunction,
    Subsystem,
    SupplierQuote,
    ValidationRecord,
    WorkDefault,
)
from compliance.proposals.models import OrganisationBranding
from tests.compliance.conftest import CRUSHING, sign_revision, state_limits
from tests.factories import (
    CellFactory,
    DeviceFactory,
    GuardSegmentFactory,
    MembershipFactory,
    OpeningFactory,
    OperatorStationFactory,
    UserFactory,
)

PROJECT_APPS = ("cells", "compliance")

# Models deliberately not in the admin, each with the reason. None at present:
# a model is registered, or edited inline on the page of the one it belongs to.
LEFT_OUT: dict[type[Model], str] = {}


def _project_models() -> list[type[Model]]:
    return [
        m for label in PROJECT_APPS for m in apps.get_app_config(label).get_models()
    ]


def _registered() -> list[type[Model]]:
    return [m for m in _project_models() if admin.site.is_registered(m)]


def _inline_models() -> set[type[Model]]:
    return {
        inline.model
        for model in apps.get_models()
        if admin.site.is_registered(model)
        for inline in admin.site.get_model_admin(model).inlines
    }


def _id(model: type[Model]) -> str:
    return model.__name__


def _url(model: type[Model], view: str, *args) -> str:
    meta = model._meta
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_{view}", args=args)


# One object of each model, in a world of its own ------------------------------


def _world() -> SimpleNamespace:
    """A fresh organisation with a safety engineer and a cell with a guard,
    an opening in it and an operator station."""
    cell = CellFactory()
    organisation = cell.project.organisation
    engineer = UserFactory()
    MembershipFactory(
        user=engineer, organisation=organisation, role=Role.SAFETY_ENGINEER
    )
    segment = GuardSegmentFactory(cell=cell)
    OperatorStationFactory(cell=cell)
    return SimpleNamespace(
        cell=cell,
        organisation=organisation,
        engineer=engineer,
        segment=segment,
        opening=OpeningFactory(segment=segment),
    )


def _revision(w) -> Revision:
    revision = services.assessment_open(cell=w.cell, actor=w.engineer)
    return state_limits(revision, w.engineer)


def _hazard(w, revision=None) -> Hazard:
    return services.hazard_add(
        revision=revision or _revision(w),
        actor=w.engineer,
        severity="S2",
        frequency="F2",
        avoidance="P1",
        # Signing needs the residual risk estimated too (issue 27).
        residual_severity="S2",
        residual_frequency="F2",
        residual_avoidance="P1",
        **CRUSHING,
    )


def _measure(w, hazard=None) -> Measure:
    return services.measure_add(
        hazard=hazard or _hazard(w),
        actor=w.engineer,
        step="safeguarding",
        description="Fence",
        segment=w.segment,
    )


def _signed(w) -> Revision:
    """Revision 1 with a hazard and a measure, signed."""
    revision = _revision(w)
    _measure(w, _hazard(w, revision))
    submitted = services.revision_submit(revision=revision, actor=w.engineer)
    return sign_revision(submitted, w.engineer)


def _proposal(w) -> Proposal:
    return Proposal.objects.create(cell=w.cell, number=f"P-{w.cell.pk}")


def _document(w, **values) -> ProposalDocument:
    return ProposalDocument.objects.create(
        proposal=_proposal(w), version=1, language="en", **values
    )


def _preview(w) -> ProposalPreview:
    preview = ProposalPreview.objects.create(
        proposal=_proposal(w), language="en", status="ready", page_count=1
    )
    ProposalPreviewPage.objects.create(
        preview=preview,
        number=1,
        width_px=800,
        height_px=1131,
        image=b"png",
        thumbnail=b"png",
    )
    return preview


def _function(w) -> SafetyFunction:
    return SafetyFunction.objects.create(
        cell=w.cell,
        name="Infeed light curtain",
        safeguard="guarded_opening",
        trigger="LC1 interrupted",
        reaction="Protective stop",
    )


def _library_device(w) -> LibraryDevice:
    return LibraryDevice.objects.create(
        organisation=w.organisation,
        key="LC-1",
        kind="light_curtain",
        maker="Sick",
        model="deTec4",
    )


ONE: dict[type[Model], Callable[[SimpleNamespace], Model]] = {
    Organisation: lambda w: w.organisation,
    Membership: lambda w: Membership.objects.get(user=w.engineer),
    Project: lambda w: w.cell.project,
    Cell: lambda w: w.cell,  # its guard and station are inlines of its page
    Opening: lambda w: w.opening,
    Device: lambda w: DeviceFactory(cell=w.cell, library_device=_library_device(w)),
    CellCertificate: lambda w: CellCertificate.objects.create(
        cell=w.cell,
        issuing_body="KIRIA",
        number="CR-2024-001",
        issued_on=date(2024, 3, 1),
        valid_until=date(2027, 2, 28),
    ),
    LayoutImage: lambda w: LayoutImage.objects.create(
        cell=w.cell,
        data=b"png",
        content_type="image/png",
        width_px=400,
        height_px=300,
        file_name="hall.png",
        point1_x_px=0,
        point1_y_px=0,
        point2_x_px=400,
        point2_y_px=0,
        distance_mm=8000,
        plan_x_mm=0,
        plan_y_mm=0,
        uploaded_at=timezone.now(),
    ),
    MotionProgram: lambda w: MotionProgram.objects.create(
        cell=w.cell,
        file_name="main.script",
        format="urscript",
        data=b"movel(p[0.4, -0.3, 0.3, 0, 3.14, 0], a=1.2, v=0.25)\n",
        sha256="0" * 64,
    ),
    DxfLayerMapping: lambda w: DxfLayerMapping.objects.create(
        organisation=w.cell.project.organisation,
        layer_name="A-ZAUN",
        layer_key="a-zaun",
        target="fence",
    ),
    LayoutUnderlay: lambda w: LayoutUnderlay.objects.create(
        cell=w.cell, lines=[[0, 0, 8000, 0]], source_name="hall.dxf"
    ),
    Assessment: lambda w: _revision(w).assessment,
    Revision: _revision,
    Hazard: _hazard,
    Measure: _measure,
    SignatureDeclaration: lambda w: _signed(w).declaration,
    AuditEntry: lambda w: AuditEntry.objects.get(
        assessment=services.assessment_open(cell=w.cell, actor=w.engineer).assessment
    ),
    Proposal: _proposal,
    ProposalText: lambda w: ProposalText.objects.create(
        proposal=_proposal(w), language="en", summary="A fenced palletiser."
    ),
    ProposalDocument: _document,
    ProposalPreview: _preview,  # with its page, an inline of its page
    OrganisationBranding: lambda w: OrganisationBranding.objects.create(
        organisation=w.organisation, display_name="Acme Safety"
    ),
    LibraryDevice: _library_device,
    PfhdTableImport: lambda w: PfhdTableImport.objects.create(
        organisation=w.organisation, source="Our copy of ISO 13849-1:2023", rows=[]
    ),
    SafetyFunction: _function,
    Subsystem: lambda w: Subsystem.objects.create(
        function=_function(w),
        role="input",
        label="LC1",
        library_device=_library_device(w),
    ),
    ValidationRecord: lambda w: ValidationRecord.objects.create(
        function=_function(w),
        test="function",
        performed_by="Kim Minji",
        performed_on=date(2025, 5, 2),
        outcome="passed",
        recorded_by=w.engineer,
    ),
    DismissedFunctionSuggestion: lambda w: DismissedFunctionSuggestion.objects.create(
        cell=w.cell, key="emergency_stop"
    ),
    LineItemEdit: lambda w: LineItemEdit.objects.create(
        cell=w.cell, key="fence", quantity=12
    ),
    CustomLineItem: lambda w: CustomLineItem.objects.create(
        cell=w.cell, description="Commissioning", category="service", quantity=1
    ),
    CatalogueEdit: lambda w: CatalogueEdit.objects.create(
        organisation=w.organisation, key="fence", price_low=100, source="Quote 12"
    ),
    LabourRate: lambda w: LabourRate.objects.create(
        organisation=w.organisation,
        role="installation",
        unit="hour",
        rate_low=50000,
        rate_high=60000,
        currency="KRW",
        valid_from=date(2026, 12, 1),
        source="Rate card",
    ),
    WorkDefault: lambda w: WorkDefault.objects.create(
        organisation=w.organisation,
        activity="installation",
        role="installation",
        unit="hour",
        effort_low=8,
        effort_high=16,
        source="Past projects",
    ),
    ExchangeRate: lambda w: ExchangeRate.objects.create(
        organisation=w.organisation,
        currency="KRW",
        units_per_usd=1400,
        valid_from=date(2026, 12, 1),
        source="Bank rate sheet",
    ),
    SupplierQuote: lambda w: (
        QuoteRow.objects.create(
            quote=SupplierQuote.objects.create(
                organisation=w.organisation,
                supplier="Hanbit",
                number="Q-1",
                quoted_on=date(2026, 11, 2),
            ),
            row=8,
            unit="piece",
            price_low=10,
            price_high=12,
            currency="KRW",
        ).quote
    ),
    PlanAssumption: lambda w: PlanAssumption.objects.create(
        cell=w.cell, key="risk_assessment", weeks_low=1, weeks_high=2
    ),
    GuardingConcept: lambda w: GuardingConcept.objects.create(
        cell=w.cell, kind="as_drawn", base_version="v"
    ),
}


@pytest.fixture
def superuser_client(client, db):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


# Every model is in the admin ----------------------------------------------------


def test_every_model_of_the_project_is_in_the_admin():
    inline = _inline_models()
    missing = [
        _id(m)
        for m in _project_models()
        if not admin.site.is_registered(m) and m not in inline and m not in LEFT_OUT
    ]
    assert missing == [], "Register these in their app's admin.py (or inline them)"


def test_every_model_in_the_admin_has_an_object_to_test_with():
    assert [_id(m) for m in _registered() if m not in ONE] == []


# Its pages open -----------------------------------------------------------------


@pytest.mark.parametrize("model", _registered(), ids=_id)
def test_the_list_and_the_add_page_open_with_nothing_in_them(superuser_client, model):
    response = superuser_client.get(_url(model, "changelist"))
    assert response.status_code == 200
    assert response.context["cl"].result_count == 0

    if admin.site.get_model_admin(model).has_add_permission(response.wsgi_request):
        assert superuser_client.get(_url(model, "add")).status_code == 200


@pytest.mark.parametrize("model", _registered(), ids=_id)
def test_a_row_is_listed_and_its_page_opens(superuser_client, model):
    obj = ONE[model](_world())

    response = superuser_client.get(_url(model, "changelist"))
    assert response.status_code == 200
    assert response.context["cl"].result_count == 1
    change = _url(model, "change", obj.pk)
    assert change in response.content.decode()
    assert superuser_client.get(change).status_code == 200


@pytest.mark.parametrize("model", _registered(), ids=_id)
def test_the_list_asks_the_database_no_more_for_two_rows_than_for_one(
    superuser_client, model
):
    ONE[model](_world())
    url = _url(model, "changelist")
    superuser_client.get(url)  # what is cached for the process, cached
    with CaptureQueriesContext(connection) as one_row:
        superuser_client.get(url)
    ONE[model](_world())
    with CaptureQueriesContext(connection) as two_rows:
        response = superuser_client.get(url)

    assert response.context["cl"].result_count == 2
    assert len(two_rows) == len(one_row), [q["sql"] for q in two_rows]


# What is signed or sealed is read-only ------------------------------------------


def _read_only(client, model: type[Model], obj: Model) -> None:
    """The page shows ``obj`` with nothing to save; saving and deleting it
    are refused."""
    page = client.get(_url(model, "change", obj.pk))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="_save"' not in html
    assert 'class="deletelink"' not in html
    assert client.post(_url(model, "change", obj.pk), {}).status_code == 403
    assert client.get(_url(model, "delete", obj.pk)).status_code == 403
    assert client.post(_url(model, "delete", obj.pk), {"post": "yes"}).status_code == (
        403
    )
    assert type(obj).objects.filter(pk=obj.pk).exists()


SEALED: dict[str, Callable[[SimpleNamespace], tuple[type[Model], Model]]] = {
    "signed revision": lambda w: (Revision, _signed(w)),
    "hazard of a signed revision": lambda w: (
        Hazard,
        Hazard.objects.get(revision=_signed(w)),
    ),
    "measure of a signed revision": lambda w: (
        Measure,
        Measure.objects.get(hazard__revision=_signed(w)),
    ),
    "signature declaration": lambda w: (
        SignatureDeclaration,
        _signed(w).declaration,
    ),
    "audit entry": lambda w: (AuditEntry, ONE[AuditEntry](w)),
    "ready proposal version": lambda w: (
        ProposalDocument,
        _document(w, status="ready", pdf=b"%PDF-1.4", sha256="a" * 64),
    ),
}


@pytest.mark.parametrize("case", SEALED)
def test_what_is_signed_or_sealed_is_read_only_and_kept(superuser_client, case):
    model, obj = SEALED[case](_world())
    _read_only(superuser_client, model, obj)


@pytest.mark.parametrize("model", [Revision, Hazard, Measure], ids=_id)
def test_a_draft_is_still_edited_in_the_admin(superuser_client, model):
    w = _world()
    obj = {Revision: _revision, Hazard: _hazard, Measure: _measure}[model](w)

    html = superuser_client.get(_url(model, "change", obj.pk)).content.decode()

    assert 'name="_save"' in html
    assert 'class="deletelink"' in html


@pytest.mark.parametrize("status", ["pending", "failed"])
def test_an_unfinished_proposal_version_can_be_removed(superuser_client, status):
    document = _document(_world(), status=status)

    response = superuser_client.post(
        _url(ProposalDocument, "delete", document.pk), {"post": "yes"}
    )

    assert response.status_code == 302
    assert not ProposalDocument.objects.filter(pk=document.pk).exists()


# What the app's workers, imports and records write is shown, not edited ---------

MADE_BY_THE_APP = [
    ProposalPreview,
    PfhdTableImport,
    LayoutUnderlay,
    MotionProgram,
    ValidationRecord,
]


@pytest.mark.parametrize("model", MADE_BY_THE_APP, ids=_id)
def test_what_the_app_writes_is_shown_read_only_but_can_be_removed(
    superuser_client, model
):
    obj = ONE[model](_world())
    change = _url(model, "change", obj.pk)

    html = superuser_client.get(change).content.decode()
    assert 'name="_save"' not in html
    assert superuser_client.post(change, {}).status_code == 403
    response = superuser_client.post(_url(model, "delete", obj.pk), {"post": "yes"})
    assert response.status_code == 302
    assert not model.objects.filter(pk=obj.pk).exists()


def test_a_device_a_measure_names_stays_in_its_cell(superuser_client):
    w = _world()
    device = DeviceFactory(cell=w.cell)
    services.measure_add(
        hazard=_hazard(w),
        actor=w.engineer,
        step="safeguarding",
        description="Light curtain",
        device=device,
    )
    free = DeviceFactory(cell=w.cell)

    named = superuser_client.get(_url(Device, "change", device.pk))
    other = superuser_client.get(_url(Device, "change", free.pk))

    assert "cell" in named.context["adminform"].readonly_fields
    assert "cell" not in other.context["adminform"].readonly_fields
