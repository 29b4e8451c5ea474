"""Choosing a library device for a cell's device: its figures are copied in,
by the service, the layout editor's form and the API alike; an entry of
another organisation or of a kind the device cannot be is refused."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from cells.models import Device
from compliance.safety_functions.library.services import device_choose_library_device
from compliance.safety_functions.models import LibraryDevice
from tests.compliance.safety_functions.library.conftest import api, library_device
from tests.factories import DeviceFactory

pytestmark = pytest.mark.django_db


def entry(organisation, key) -> LibraryDevice:
    return LibraryDevice.objects.get(organisation=organisation, key=key)


def test_choosing_copies_the_figures_and_rounds_the_response_time_up(
    seeded, cell, owner
):
    device = DeviceFactory(cell=cell, kind="light_curtain", claimed_pl="c")
    lc3 = entry(seeded, "LC-3")  # 9.3 ms, no PL, no type recorded
    device_choose_library_device(device=device, library_device=lc3, actor=owner)
    device.refresh_from_db()
    assert device.library_device == lc3
    assert device.response_time_ms == 10  # 9.3 ms rounded up, never down
    assert device.claimed_pl == "c"  # the entry gives none: kept as recorded
    lc1 = entry(seeded, "LC-1")
    device_choose_library_device(device=device, library_device=lc1, actor=owner)
    device.refresh_from_db()
    assert (device.claimed_pl, device.response_time_ms) == ("e", 13)
    assert device.detection_capability_mm == 14


def test_a_kcs_certificate_is_copied_as_the_record(seeded, cell, owner):
    kcs = library_device(seeded, kcs_certificate_no="KCs-2026-0001", iec61496_type=4)
    device = DeviceFactory(cell=cell, kind="light_curtain")
    device_choose_library_device(device=device, library_device=kcs, actor=owner)
    device.refresh_from_db()
    assert (device.kcs_certificate_no, device.kcs_certified) == ("KCs-2026-0001", True)
    assert (device.iec61496_type, device.response_time_ms) == (4, 13)  # 12.4 up


def test_figures_of_the_previous_entry_are_not_left_behind(seeded, cell, owner):
    device = DeviceFactory(cell=cell, kind="laser_scanner")
    device_choose_library_device(
        device=device, library_device=entry(seeded, "SC-1"), actor=owner
    )
    device_choose_library_device(
        device=device, library_device=entry(seeded, "SC-2"), actor=owner
    )
    device.refresh_from_db()
    # SC-2 records no PL, type or response time: SC-1's are not kept.
    assert (device.claimed_pl, device.iec61496_type, device.response_time_ms) == (
        "",
        None,
        None,
    )


def test_an_entry_of_another_kind_or_organisation_is_refused(
    seeded, cell, owner, outsider
):
    device = DeviceFactory(cell=cell, kind="light_curtain")
    with pytest.raises(ValidationError) as caught:
        device_choose_library_device(
            device=device, library_device=entry(seeded, "SR-1"), actor=owner
        )
    assert "library_device" in caught.value.message_dict
    theirs = library_device(outsider.memberships.get().organisation)
    with pytest.raises(ValidationError):
        device_choose_library_device(device=device, library_device=theirs, actor=owner)
    device.refresh_from_db()
    assert device.library_device is None


def test_a_viewer_cannot_choose(seeded, cell, viewer):
    device = DeviceFactory(cell=cell, kind="light_curtain")
    with pytest.raises(PermissionDenied):
        device_choose_library_device(
            device=device, library_device=entry(seeded, "LC-1"), actor=viewer
        )


def test_compatible_kinds_follow_the_model(seeded, cell, owner):
    door = DeviceFactory(cell=cell, kind="interlocked_door")
    for key in ("IL-1", "IL-2-guard-locking"):
        device_choose_library_device(
            device=door, library_device=entry(seeded, key), actor=owner
        )
    controller = DeviceFactory(cell=cell, kind="safety_controller")
    device_choose_library_device(
        device=controller, library_device=entry(seeded, "SR-5"), actor=owner
    )
    assert controller.claimed_pl == "e"


# --- the layout editor's device form --------------------------------------------


def device_body(**overrides):
    return {"label": "LC9", "kind": "light_curtain", **overrides}


def test_the_device_form_offers_the_organisations_compatible_entries(
    owner_client, seeded, cell
):
    device = DeviceFactory(cell=cell, kind="light_curtain")
    url = reverse("cells:element_edit", args=[cell.pk, "device", device.pk])
    form = owner_client.get(url).context["editor"]["form"]
    offered = {d.key for d in form.fields["library_device"].queryset}
    assert {"LC-1", "LC-3", "LC-4"} <= offered
    assert not offered & {"LC-2", "SR-1", "SC-1"}


def test_choosing_on_the_form_fills_the_devices_fields(owner_client, seeded, cell):
    url = reverse("cells:element_add", args=[cell.pk, "device"])
    lc1 = entry(seeded, "LC-1")
    response = owner_client.post(
        url, device_body(library_device=lc1.pk, response_time_ms=50)
    )
    assert response.status_code == 302
    device = Device.objects.get(cell=cell, label="LC9")
    assert (device.library_device, device.claimed_pl, device.response_time_ms) == (
        lc1,
        "e",
        13,
    )
    # Saved again with the same entry, a figure typed by hand is kept.
    edit = reverse("cells:element_edit", args=[cell.pk, "device", device.pk])
    owner_client.post(edit, device_body(library_device=lc1.pk, response_time_ms=16))
    device.refresh_from_db()
    assert device.response_time_ms == 16


def test_an_incompatible_entry_is_a_form_error(owner_client, seeded, cell, outsider):
    url = reverse("cells:element_add", args=[cell.pk, "device"])
    response = owner_client.post(
        url, device_body(library_device=entry(seeded, "SR-1").pk)
    )
    form = response.context["editor"]["form"]
    assert "library_device" in form.errors
    assert "cannot be this kind of device" in response.text
    theirs = library_device(outsider.memberships.get().organisation)
    response = owner_client.post(url, device_body(library_device=theirs.pk))
    assert "library_device" in response.context["editor"]["form"].errors
    assert not Device.objects.filter(cell=cell, label="LC9").exists()


def test_the_rest_of_the_device_form_works_without_a_library_device(owner_client, cell):
    url = reverse("cells:element_add", args=[cell.pk, "device"])
    response = owner_client.post(url, device_body(claimed_pl="d", response_time_ms=20))
    assert response.status_code == 302
    device = Device.objects.get(cell=cell, label="LC9")
    assert (device.library_device, device.claimed_pl) == (None, "d")


# --- the API ----------------------------------------------------------------------


def test_choosing_over_the_api_copies_the_figures(owner, seeded, cell):
    body = {"cell": cell.pk, "kind": "laser_scanner", "label": "S1"}
    sc1 = entry(seeded, "SC-1")
    response = api(owner).post(
        reverse("api:device-list"), {**body, "library_device": sc1.pk}, format="json"
    )
    assert response.status_code == 201, response.json()
    data = response.json()
    assert (data["library_device"], data["claimed_pl"], data["iec61496_type"]) == (
        sc1.pk,
        "d",
        3,
    )
    assert data["response_time_ms"] == 95


@pytest.mark.parametrize("key", ["SR-1", "LC-1"])
def test_an_incompatible_entry_is_a_400_on_library_device(owner, seeded, cell, key):
    device = DeviceFactory(cell=cell, kind="laser_scanner")
    response = api(owner).patch(
        reverse("api:device-detail", args=[device.pk]),
        {"library_device": entry(seeded, key).pk},
        format="json",
    )
    assert response.status_code == 400
    assert "library_device" in response.json()


def test_another_organisations_entry_is_a_400_over_the_api(owner, cell, outsider):
    device = DeviceFactory(cell=cell, kind="light_curtain")
    theirs = library_device(outsider.memberships.get().organisation)
    response = api(owner).patch(
        reverse("api:device-detail", args=[device.pk]),
        {"library_device": theirs.pk},
        format="json",
    )
    assert response.status_code == 400 and "library_device" in response.json()


def test_an_entry_of_a_second_organisation_of_the_user_is_refused(owner, cell):
    from cells.models import Role
    from tests.factories import MembershipFactory, OrganisationFactory

    second = OrganisationFactory()
    MembershipFactory(user=owner, organisation=second, role=Role.SOLUTION_ARCHITECT)
    theirs = library_device(second, response_time_ms=Decimal(5))
    device = DeviceFactory(cell=cell, kind="light_curtain")
    response = api(owner).patch(
        reverse("api:device-detail", args=[device.pk]),
        {"library_device": theirs.pk},
        format="json",
    )
    assert response.status_code == 400
    assert "another organisation" in response.json()["library_device"][0]
