"""The register's rows written by Python (``register_html``) are the rows the
template's ``hazard-row`` partial writes, for every kind of hazard and
measure, editable or not, in English and Korean; and whatever a user typed
stays text."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from compliance.assessment import services
from compliance.assessment.views import register as views
from tests.compliance.conftest import CRUSHING, sign_revision, state_limits
from tests.factories import DeviceFactory, GuardSegmentFactory, OpeningFactory

TOKEN = re.compile(
    r'(name="csrfmiddlewaretoken" value|name="csrf-token" content)="[^"]+"'
)


class TemplateRows(views.RowWriter):
    """Leaves every row to the template's partial."""

    def row(self, row) -> str:
        return ""


def both(client, url, monkeypatch) -> tuple[str, str]:
    """The page with its rows written by Python, then by the template (the
    CSRF tokens, masked afresh each time, left out)."""
    by_python = client.get(url).text
    with monkeypatch.context() as patched:
        patched.setattr(views, "RowWriter", TemplateRows)
        by_template = client.get(url).text
    return TOKEN.sub("", by_python), TOKEN.sub("", by_template)


@pytest.fixture
def varied(cell, layout, safety_engineer):
    """A draft register with every kind of row: estimated or not, a low
    probability, a body region with its contact, a place, measures linked
    to a device whose check fails, a safety function, an unacceptable rest."""
    cell.stopping_time_ms = 300
    cell.save()
    curtain = DeviceFactory(
        cell=cell, label="LC <1>", x1_mm=2000, y1_mm=1500, x2_mm=2100, y2_mm=1500
    )
    low = GuardSegmentFactory(cell=cell, label="Low & fence", height_mm=1400)
    OpeningFactory(segment=low, label="Gap")
    revision = state_limits(
        services.assessment_open(cell=cell, actor=safety_engineer), safety_engineer
    )
    rows = [
        {"severity": "S2", "frequency": "F2", "avoidance": "P1"},
        {
            "severity": "S2",
            "frequency": "F1",
            "avoidance": "P2",
            "low_probability": True,
            "residual_severity": "S1",
            "residual_frequency": "F1",
            "residual_avoidance": "P1",
        },
        {
            "severity": "S1",
            "frequency": "F2",
            "avoidance": "P1",
            "body_region": "hands_fingers",
            "contact_type": "transient",
            "contact_area_cm2": Decimal("1.5"),
        },
        {},
    ]
    for i, values in enumerate(rows):
        hazard = services.hazard_add(
            revision=revision,
            actor=safety_engineer,
            **{**CRUSHING, "task": f"Task {i} <b>\"quoted\"</b> & 'single'"},
            location_key=f"segment:{low.pk}" if i == 1 else "",
            **values,
        )
        if i == 0:
            services.measure_add(
                hazard=hazard,
                actor=safety_engineer,
                step="safeguarding",
                description="Curtain <stops> it",
                device=curtain,
            )
            services.measure_add(
                hazard=hazard,
                actor=safety_engineer,
                step="safeguarding",
                description="Fence",
                segment=low,
                is_safety_function=True,
                plr_required="d",
            )
        if i == 1:
            services.measure_add(
                hazard=hazard,
                actor=safety_engineer,
                step="information_for_use",
                description="Sign",
            )
    return revision


def test_the_rows_are_the_templates_for_an_editor(owner_client, varied, monkeypatch):
    url = reverse("compliance:assessment", args=[varied.assessment.cell_id])
    python, template = both(owner_client, url, monkeypatch)
    assert python.count('class="hazard-row') == 4
    assert "Ineffective:" in python and "measure-actions" in python
    assert "&lt;b&gt;" in python and "<b>" not in python.split("<tbody>")[1]
    assert python == template


def test_the_rows_are_the_templates_for_a_reader_and_in_korean(
    viewer_client, varied, monkeypatch
):
    url = reverse("compliance:assessment", args=[varied.assessment.cell_id])
    python, template = both(viewer_client, url, monkeypatch)
    assert "measure-actions" not in python
    assert python == template
    viewer_client.post(reverse("set_language"), {"language": "ko", "next": "/"})
    python, template = both(viewer_client, url, monkeypatch)
    assert "위험" in python
    assert python == template


def test_the_rows_of_a_signed_revision_are_the_templates(
    owner_client, varied, safety_engineer, monkeypatch
):
    unestimated = varied.hazards.get(task__startswith="Task 3")
    services.hazard_delete(hazard=unestimated, actor=safety_engineer)
    revision = services.revision_submit(revision=varied, actor=safety_engineer)
    sign_revision(revision, safety_engineer)
    url = reverse("compliance:assessment", args=[varied.assessment.cell_id])
    python, template = both(owner_client, url, monkeypatch)
    assert python.count('class="hazard-row') == 3
    assert python == template


def test_a_row_being_edited_is_the_templates_and_the_others_pythons(
    owner_client, varied
):
    hazard = varied.hazards.get(task__startswith="Task 1")
    measure = hazard.measures.get()
    response = owner_client.get(reverse("compliance:measure_edit", args=[measure.pk]))
    assert response.status_code == 200
    assert 'class="measure measure-edit"' in response.text
    assert response.text.count('class="hazard-row') == 4


def test_a_value_is_written_as_the_template_writes_it():
    """``_v`` (issue 16: plain strings escaped without Django's lazy-text
    checks, 7,000 values a page) writes every kind of value the rows give it
    as ``{{ value }}`` does: strings (hostile ones too), lazy text, numbers,
    dates."""
    import datetime

    from django.template import Context, Template
    from django.utils.translation import gettext_lazy

    from compliance.assessment.register_html import _v

    template = Template("{{ value }}")
    values = [
        "Crushing <between> the gripper & the \"pallet\" 'edge'",
        "",
        gettext_lazy("Edit"),
        1800,
        Decimal("1.5"),
        2.25,
        datetime.date(2026, 12, 2),
    ]
    for value in values:
        assert _v(value) == template.render(Context({"value": value})), value
