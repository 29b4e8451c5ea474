"""Tenancy: another organisation's cell is a 404 for the page, the image,
remove and a PDF's page drawn before the upload (tests/test_tenancy.py walks
them too); a viewer sees the image but cannot upload, place, preview or
remove it; signed out, the login page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cells.layout_image.models import LayoutImage
from tests.cells.layout_image.support import (
    file_url,
    page_url,
    pdf,
    png,
    post,
    remove_url,
    saved_image,
    upload,
)

pytestmark = pytest.mark.django_db


def preview(client, cell):
    url = reverse("cells:layout_image_preview", args=[cell.pk])
    return client.post(url, {"file": upload(pdf(), "hall.pdf")})


def test_an_outsider_gets_404_for_the_page_the_image_and_remove(outsider_client, cell):
    image = saved_image(cell)
    assert outsider_client.get(page_url(cell)).status_code == 404
    assert post(outsider_client, cell, png()).status_code == 404
    assert outsider_client.get(file_url(cell)).status_code == 404
    assert outsider_client.post(remove_url(cell)).status_code == 404
    assert preview(outsider_client, cell).status_code == 404
    kept = LayoutImage.objects.get(cell=cell)
    assert kept.uploaded_at == image.uploaded_at


def test_a_viewer_cannot_upload(viewer_client, cell):
    assert viewer_client.get(page_url(cell)).status_code == 403
    assert post(viewer_client, cell, png()).status_code == 403
    assert post(viewer_client, cell, pdf(), name="hall.pdf").status_code == 403
    assert preview(viewer_client, cell).status_code == 403
    assert not LayoutImage.objects.exists()


def test_a_viewer_cannot_change_or_remove_it(viewer_client, cell):
    saved_image(cell)
    assert post(viewer_client, cell, distance_mm=1000).status_code == 403
    assert viewer_client.post(remove_url(cell)).status_code == 403
    assert LayoutImage.objects.get(cell=cell).distance_mm == 5000


def test_a_safety_engineer_may_upload(client, safety_engineer, cell):
    client.force_login(safety_engineer)
    assert post(client, cell, png()).status_code == 302


def test_signed_out_is_sent_to_log_in(client, cell):
    saved_image(cell)
    for response in (
        client.get(page_url(cell)),
        client.get(file_url(cell)),
        client.post(remove_url(cell)),
        preview(client, cell),
    ):
        assert response.status_code == 302
        assert "/login/" in response.url
    assert LayoutImage.objects.exists()
