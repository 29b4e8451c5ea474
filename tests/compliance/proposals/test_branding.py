"""The organisation's branding page: its solution architects set the name,
address and logo of its proposals; the logo is checked by its content (a PNG
or JPEG, at most 1 MB and 4 megapixels) and kept in the database."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from compliance.proposals.models import OrganisationBranding

pytestmark = pytest.mark.django_db


def image(kind="PNG", size=(120, 40)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (31, 58, 95)).save(buffer, format=kind)
    return buffer.getvalue()


def upload(data: bytes, name="logo.png", content_type="image/png"):
    return SimpleUploadedFile(name, data, content_type=content_type)


def url(organisation) -> str:
    return reverse("compliance:branding_edit", args=[organisation.pk])


def post(client, organisation, **fields):
    data = {"display_name": "", "address": "", **fields}
    return client.post(url(organisation), data)


@pytest.mark.parametrize("kind,mime", [("PNG", "image/png"), ("JPEG", "image/jpeg")])
def test_an_architect_sets_the_name_address_and_logo(
    owner_client, organisation, kind, mime
):
    response = post(
        owner_client,
        organisation,
        display_name="Hanul Robotics Integration Ltd.",
        address="12 Teheran-ro\nSeoul",
        logo_file=upload(image(kind), name="whatever.bin", content_type="text/plain"),
    )
    assert response.status_code == 302
    branding = OrganisationBranding.objects.get(organisation=organisation)
    assert branding.display_name == "Hanul Robotics Integration Ltd."
    assert branding.address == "12 Teheran-ro\nSeoul"
    # The type is read from the content, not from the name or the browser.
    assert branding.logo_type == mime
    logo = owner_client.get(reverse("compliance:branding_logo", args=[organisation.pk]))
    assert logo["Content-Type"] == mime
    assert logo.content == bytes(branding.logo)
    page = owner_client.get(url(organisation))
    assert "Hanul Robotics Integration Ltd." in page.text


@pytest.mark.parametrize(
    "data,message",
    [
        (image("GIF"), "must be a PNG or JPEG"),
        (b"not an image at all, named logo.png", "must be a PNG or JPEG"),
        (image("PNG")[:60], "can be read"),
        (image("PNG", size=(2100, 2000)), "at most 4 megapixels"),
        (b"\x89PNG" + b"0" * (1024 * 1024), "at most 1 MB"),
    ],
)
def test_a_bad_logo_is_a_form_error_naming_the_field(
    owner_client, organisation, data, message
):
    response = post(owner_client, organisation, logo_file=upload(data))
    assert response.status_code == 400
    assert message in response.text
    assert response.context["form"].errors["logo_file"]
    assert not OrganisationBranding.objects.exists()


def test_too_long_an_address_is_a_form_error(owner_client, organisation):
    response = post(owner_client, organisation, address="x" * 401)
    assert response.status_code == 400
    assert "address" in response.context["form"].errors


def test_the_logo_can_be_removed(owner_client, organisation):
    post(owner_client, organisation, logo_file=upload(image()))
    post(owner_client, organisation, remove_logo="on")
    branding = OrganisationBranding.objects.get()
    assert branding.logo is None and branding.logo_type == ""
    logo = owner_client.get(reverse("compliance:branding_logo", args=[organisation.pk]))
    assert logo.status_code == 404


@pytest.mark.parametrize("member", ["safety_engineer", "viewer"])
def test_only_architects_change_the_branding(client, organisation, member, request):
    client.force_login(request.getfixturevalue(member))
    page = client.get(url(organisation))
    assert page.status_code == 200
    assert "<form" not in page.text.split("Proposal branding", 2)[-1]
    response = post(client, organisation, display_name="Taken over")
    assert response.status_code == 403
    assert not OrganisationBranding.objects.exists()


def test_another_organisations_branding_is_not_found(client, outsider, organisation):
    OrganisationBranding.objects.create(
        organisation=organisation, logo=image(), logo_type="image/png"
    )
    client.force_login(outsider)
    assert client.get(url(organisation)).status_code == 404
    assert post(client, organisation, display_name="x").status_code == 404
    logo = reverse("compliance:branding_logo", args=[organisation.pk])
    assert client.get(logo).status_code == 404


@pytest.mark.parametrize("saved", [False, True])
def test_the_page_makes_a_fixed_number_of_queries(
    owner_client, organisation, saved, django_assert_max_num_queries
):
    if saved:
        post(owner_client, organisation, address="a\nb", logo_file=upload(image()))
    with django_assert_max_num_queries(6):
        assert owner_client.get(url(organisation)).status_code == 200
