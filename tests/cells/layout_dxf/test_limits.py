"""The import's bounds, tried as an attacker would (issue 31): a DXF of 60 MB,
one of 200,000 entities, a binary file named .dxf. Each is a clear 400 naming
the limit, quickly, and nothing already saved is lost."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cells.layout_dxf import reading
from cells.models import GuardSegment, LayoutUnderlay
from tests.cells.layout_dxf.support import upload
from tests.factories import GuardSegmentFactory

pytestmark = pytest.mark.django_db


def post(client, cell, data: bytes, name: str = "hall.dxf"):
    return client.post(
        reverse("api:cell-layout-dxf-import", args=[cell.pk]),
        {"file": upload(data, name), "height_mm": 1800},
        format="multipart",
    )


@pytest.fixture
def saved(cell):
    """What the cell held before: it must still be there after each refusal."""
    GuardSegmentFactory(cell=cell, label="F1")
    LayoutUnderlay.objects.create(cell=cell, lines=[[0, 0, 5000, 0]])
    return cell


def assert_kept(cell) -> None:
    assert list(
        GuardSegment.objects.filter(cell=cell).values_list("label", flat=True)
    ) == ["F1"]
    assert LayoutUnderlay.objects.get(cell=cell).lines == [[0, 0, 5000, 0]]


def bare_entities(count: int) -> bytes:
    """A text DXF of ``count`` POINT entities, as small as DXF allows (about
    20 bytes each): 200,000 of them stay under the 5 MB limit, so it is the
    count that must refuse them."""
    head = b"0\nSECTION\n2\nHEADER\n9\n$INSUNITS\n70\n4\n0\nENDSEC\n"
    body = b"0\nSECTION\n2\nENTITIES\n" + b"0\nPOINT\n8\nA\n" * count
    return head + body + b"0\nENDSEC\n0\nEOF\n"


def test_a_dxf_of_60_mb_is_refused_naming_the_limit(owner_api, saved):
    data = b"0\nSECTION\n" + b"999\nfiller comment line\n" * (60 * 1024 * 1024 // 22)
    assert len(data) > 60 * 1024 * 1024
    response = post(owner_api, saved, data)
    assert response.status_code == 400
    assert "5 MB" in response.json()["file"][0]
    assert_kept(saved)


def test_a_dxf_of_200000_entities_is_refused_naming_the_limit(
    owner_api, saved, monkeypatch
):
    data = bare_entities(200_000)
    assert len(data) < reading.MAX_FILE_BYTES

    def build(_data):  # ezdxf builds some 5,000 a second: 40 s for these
        raise AssertionError("the drawing was built before its entities were counted")

    monkeypatch.setattr(reading, "load", build)
    response = post(owner_api, saved, data)
    assert response.status_code == 400
    (message,) = response.json()["file"]
    assert "200,000" in message and "10,000" in message
    assert_kept(saved)


def test_entities_are_counted_as_ezdxf_counts_them():
    # A polyline's vertices and an insert's attributes belong to it; the
    # blocks section is not the model space.
    import ezdxf

    from cells.layout_dxf.reading.files import count_entities
    from tests.cells.layout_dxf.support import to_bytes

    doc = ezdxf.new("R2010")
    block = doc.blocks.new("PANEL")
    block.add_line((0, 0), (1000, 0))
    block.add_attdef("TAG", (0, 0))
    msp = doc.modelspace()
    msp.add_polyline2d([(0, 0), (1, 0), (1, 1)])
    msp.add_blockref("PANEL", (0, 0)).add_attrib("TAG", "A")
    msp.add_line((0, 0), (5, 5))
    assert count_entities(to_bytes(doc)) == len(msp) == 3


def test_a_binary_file_named_dxf_is_refused(owner_api, saved):
    data = bytes(range(256)) * 400
    response = post(owner_api, saved, data, name="layout.dxf")
    assert response.status_code == 400
    assert "not a DXF drawing" in response.json()["file"][0]
    assert_kept(saved)


def test_a_drawing_with_nothing_usable_names_what_it_held(owner_api, saved):
    import ezdxf

    from tests.cells.layout_dxf.support import to_bytes

    doc = ezdxf.new("R2010")
    doc.header["$INSUNITS"] = 4
    msp = doc.modelspace()
    msp.add_text("Hall 3", dxfattribs={"layer": "TEXT"})
    msp.add_text("North", dxfattribs={"layer": "TEXT"})
    msp.add_point((0, 0))
    response = post(owner_api, saved, to_bytes(doc))
    assert response.status_code == 400
    (message,) = response.json()["file"]
    assert "TEXT 2" in message and "POINT 1" in message
    assert_kept(saved)
