"""Tenancy: another organisation's cell is a 404 for the import page and
both endpoints (tests/test_tenancy.py walks them too); a viewer reads (the
export) but cannot import."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.cells.layout_dxf.support import fenced_square, to_bytes, upload
from tests.cells.layout_dxf.test_api import assert_nothing_saved, export_url, post
from tests.cells.layout_dxf.test_pages import page_url

pytestmark = pytest.mark.django_db


def test_a_viewer_cannot_import(viewer_api, cell):
    response = post(viewer_api, cell, to_bytes(fenced_square()))
    assert response.status_code == 403
    assert_nothing_saved(cell)


def test_an_outsider_gets_404_for_both_endpoints(outsider_api, cell):
    assert post(outsider_api, cell, to_bytes(fenced_square())).status_code == 404
    assert outsider_api.get(export_url(cell)).status_code == 404
    assert_nothing_saved(cell)


def test_a_viewer_cannot_open_the_import_page(viewer_client, cell):
    assert viewer_client.get(page_url(cell)).status_code == 403
    response = viewer_client.post(
        page_url(cell),
        {"action": "upload", "file": upload(to_bytes(fenced_square()))},
    )
    assert response.status_code == 403


def test_an_outsider_gets_404_for_the_pages(outsider_client, cell):
    assert outsider_client.get(page_url(cell)).status_code == 404
    export = reverse("cells:layout_dxf_export", args=[cell.pk])
    assert outsider_client.get(export).status_code == 404


def test_a_viewer_may_export(viewer_api, viewer_client, cell):
    assert viewer_api.get(export_url(cell)).status_code == 200
    export = reverse("cells:layout_dxf_export", args=[cell.pk])
    assert viewer_client.get(export).status_code == 200
