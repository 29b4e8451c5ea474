"""The plan as SVG written by Python (``cells.drawing_svg``): element for
element the drawing the template wrote (``layout_svg_reference.html``, that
template as it was), every text escaped, no script however hostile a label."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.template import engines

from cells.drawing import DrawingLabels, Requirement, layout_drawing
from cells.drawing_svg import SvgWords, render_svg
from cells.models import Cell
from cells.selectors import cell_with_layout
from cells.views import _drawing
from tests.cells.test_drawing import document, square_fence
from tests.factories import (
    DeviceFactory,
    GuardSegmentFactory,
    OpeningFactory,
    OperatorStationFactory,
)

REFERENCE = (Path(__file__).parent / "layout_svg_reference.html").read_text()
IMAGE = SimpleNamespace(
    href="/cells/1/layout/image/?v=1&x=2",
    x=-10.5,
    y=20.0,
    width=300.0,
    height=200.5,
    opacity=0.4,
)


def by_template(drawing, name="Cell", pk=1, **context) -> str:
    cell = SimpleNamespace(pk=pk, name=name)
    template = engines["django"].from_string(REFERENCE)
    return template.render({"drawing": drawing, "cell": cell, **context})


def by_python(drawing, name="Cell", pk=1, selected_key="", underlay_image=None):
    return render_svg(
        drawing,
        name=name,
        title_id=f"layout-title-{pk}",
        words=SvgWords(),
        selected_key=selected_key,
        image=underlay_image,
    )


def tree(svg: str):
    """The SVG as nested (tag, attributes, text, children), without the
    whitespace between elements."""

    def shape(element):
        text = element.text if element.text and element.text.strip() else ""
        return (element.tag, element.attrib, text, [shape(e) for e in element])

    return shape(ET.fromstring(svg))


def assert_same(drawing, **context):
    expected = tree(by_template(drawing, **context))
    assert tree(by_python(drawing, **context)) == expected


def test_the_demo_cells_are_drawn_as_the_template_drew_them(admin_user):
    cells = Cell.objects.filter(variant_of__isnull=True)  # the cells as drawn
    assert cells.count() == 2
    for cell in cells:
        loaded = cell_with_layout(admin_user, cell.pk, with_underlay=True)
        drawing = _drawing(loaded)
        for key in ("", "s0", "s0o0", "d0", "t1"):
            assert_same(drawing, name=cell.name, pk=cell.pk, selected_key=key)


@pytest.fixture
def admin_user(django_user_model, db):
    user = django_user_model.objects.create_superuser("admin", password="x" * 12)
    from cells.models import Membership, Organisation

    call_command("seed_demo", stdout=io.StringIO())
    Membership.objects.create(
        user=user, organisation=Organisation.objects.get(slug="demo"), role="viewer"
    )
    return user


def _everything():
    """A drawing with each kind of element: rings, a gap, the zone past the
    guard, distances round the zone, devices of each kind, an underlay."""
    doc = document(
        robot={
            "manufacturer": "Acme",
            "model": "R",
            "kind": "industrial",
            "payload_kg": "10",
            "reach_mm": 1000,
            "max_tcp_speed_mm_s": 1000,
            "moving_mass_kg": "50",
            "end_effector_mm": 150,
            "workpiece_mm": 200,
        },
        operator_stations=[{"label": "HMI", "x_mm": 2000, "y_mm": -800}],
        devices=[
            {
                "label": "LC1",
                "kind": "light_curtain",
                "x1_mm": 1000,
                "y1_mm": 0,
                "x2_mm": 1500,
                "y2_mm": 0,
                "detection_lower_mm": 300,
                "detection_upper_mm": 1500,
            },
            {
                "label": "Mat",
                "kind": "safety_mat",
                "x1_mm": 3000,
                "y1_mm": 300,
                "x2_mm": 3600,
                "y2_mm": 900,
            },
            {
                "label": "Scan",
                "kind": "laser_scanner",
                "x1_mm": 500,
                "y1_mm": 1800,
                "field_height_mm": 300,
            },
            {"label": "Bare", "kind": "laser_scanner", "x1_mm": 600, "y1_mm": 1900},
        ],
    )
    return layout_drawing(
        doc,
        labels=DrawingLabels(),
        required=[
            Requirement(device_index=0, required_mm=850, status="fail"),
            Requirement(device_index=2, required_mm=400, status="pass"),
        ],
        underlay=[[0, 0, 5000, 0], [0, 0, 0, 3000]],
    )


def test_every_kind_of_element_is_drawn_as_the_template_drew_it():
    drawing = _everything()
    assert drawing.hazard_rings and drawing.gaps
    assert drawing.clearances and drawing.mats and drawing.scanners
    for key in ("", "d0", "d1", "d2", "s0o0", "t0"):
        assert_same(drawing, selected_key=key, underlay_image=IMAGE)


def test_the_zone_past_the_guard_is_drawn_as_the_template_drew_it():
    drawing = layout_drawing(
        document(robot_base={"x_mm": 300, "y_mm": 3000}, guard_segments=square_fence())
    )
    assert drawing.reach is not None
    assert_same(drawing)


def test_a_polygon_zone_is_drawn_as_the_template_drew_it():
    drawing = layout_drawing(
        document(
            hazard_zone={
                "shape": "polygon",
                "polygon_mm": [[1000, 500], [3000, 500], [3000, 1800], [1000, 1800]],
            },
            devices=[
                {
                    "label": "LC1",
                    "kind": "light_curtain",
                    "x1_mm": 1000,
                    "y1_mm": 0,
                    "x2_mm": 1500,
                    "y2_mm": 0,
                }
            ],
        ),
        required=[Requirement(device_index=0, required_mm=600, status="pass")],
    )
    assert drawing.hazard_polygon and drawing.clearances
    assert_same(drawing)


def test_a_large_cell_is_drawn_as_the_template_drew_it(cell, owner):
    for i in range(60):
        segment = GuardSegmentFactory(
            cell=cell, label=f"G{i}", start_y_mm=i * 300, end_y_mm=i * 300
        )
        if i % 4 == 0:
            opening = OpeningFactory(segment=segment, label=f"O{i}")
            DeviceFactory(
                cell=cell,
                label=f"D{i}",
                opening=opening,
                x1_mm=1000,
                y1_mm=i * 300,
                x2_mm=1800,
                y2_mm=i * 300,
            )
    OperatorStationFactory(cell=cell, label="Panel")
    loaded = cell_with_layout(owner, cell.pk, with_underlay=True)
    assert_same(_drawing(loaded), name=cell.name, pk=cell.pk, selected_key="s3")


HOSTILE = [
    "</text><script>alert(1)</script>",
    '"onload="alert(1)',
    "]]><x/>",
    "<![CDATA[",
    "'&amp;<",
    "<!-- -->",
]


@pytest.mark.parametrize("label", HOSTILE)
def test_hostile_labels_are_text_never_markup(cell, owner, label):
    cell.name = label
    cell.save()
    segment = GuardSegmentFactory(cell=cell, label=label[:30])
    OpeningFactory(segment=segment, label=label[:30])
    DeviceFactory(
        cell=cell,
        label=label,
        x1_mm=1000,
        y1_mm=0,
        x2_mm=1800,
        y2_mm=0,
        detection_lower_mm=0,
        detection_upper_mm=1000,
    )
    DeviceFactory(
        cell=cell,
        kind="safety_mat",
        label=label,
        x1_mm=0,
        y1_mm=500,
        x2_mm=600,
        y2_mm=900,
    )
    DeviceFactory(
        cell=cell,
        kind="laser_scanner",
        label=label,
        x1_mm=300,
        y1_mm=-300,
        field_height_mm=200,
    )
    OperatorStationFactory(cell=cell, label=label[:30])
    loaded = cell_with_layout(owner, cell.pk, with_underlay=True)
    drawing = _drawing(loaded)
    words = SvgWords(plan_of="<b>%(name)s</b>", hazard_zone="<i>", robot_base='"')
    svg = render_svg(
        drawing,
        name=label,
        title_id=label,
        words=words,
        selected_key=label,
        image=SimpleNamespace(**{**vars(IMAGE), "href": label}),
    )
    root = ET.fromstring(svg)  # well-formed: nothing broke out
    elements = list(root.iter())
    assert not [e for e in elements if e.tag.split("}")[-1] in ("script", "x", "b")]
    assert not [a for e in elements for a in e.attrib if a.startswith("on")]
    # Every label arrives as the text it is.
    assert root.find("{http://www.w3.org/2000/svg}title").text == f"<b>{label}</b>"
    groups = [e for e in elements if e.get("data-label") is not None]
    assert {e.get("data-label") for e in groups} == {label, label[:30]}
    texts = "".join(e.text or "" for e in elements)
    assert label in texts
