"""What the app wrote into a record is read in the reader's language from the
source stored beside it; what a person typed or changed stays as typed, even
where it reads like one of the app's texts (issues 15 and 26: one catalogue,
no regular expression mapping English back)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from compliance.calculators import written
from compliance.calculators.base import Line
from compliance.rules.selectors import function_names
from compliance.safety_functions import services
from compliance.safety_functions.models import SafetyFunction
from tests.factories import DeviceFactory

KO = {"HTTP_ACCEPT_LANGUAGE": "ko"}


def ko(text: str, source) -> str:
    with translation.override("ko"):
        return written.shown(text, source, translation.gettext)


def test_a_source_renders_english_and_korean_with_the_same_values():
    source = written.from_line(
        Line(text="Emergency stop %(label)s", values={"label": "E-stop HMI"})
    )
    assert written.render(source) == "Emergency stop E-stop HMI"
    shown = ko("Emergency stop E-stop HMI", source)
    assert "E-stop HMI" in shown and "Emergency" not in shown


def test_a_text_that_is_not_its_sources_english_is_shown_as_stored():
    source = written.source("Emergency stop %(label)s", {"label": "E-stop HMI"})
    for stored in (
        "Emergency stop at the operator panel",  # changed by a person
        "Emergency stop E-stop HMI (south)",
        "Emergency stop E-stop HM",  # cut to the field's length
    ):
        assert ko(stored, source) == stored
    assert ko("Safety controller", None) == "Safety controller"  # no source
    assert ko("Safety controller", {"text": "%(x)s", "values": {}}) == (
        "Safety controller"
    )


def test_a_nested_source_translates_the_apps_words_in_it():
    zone = written.source("a polygon of %(n)s corners", {"n": "5"})
    source = written.source(
        "Robot base at x %(x)s, y %(y)s mm; hazard zone %(zone)s. Perimeter "
        "guard: %(segments)s segments, %(length)s m, with %(openings)s openings.",
        {
            "x": "1",
            "y": "2",
            "zone": zone,
            "segments": "0",
            "length": "0.0",
            "openings": "0",
        },
    )
    assert "꼭짓점 5개의 다각형" in ko(written.render(source), source)


@pytest.fixture
def curtain(cell, layout):
    return DeviceFactory(
        cell=cell,
        kind="light_curtain",
        label="LC1",
        opening=layout["opening"],
        iec61496_type=4,
    )


def test_an_accepted_proposal_stores_english_and_its_source(cell, curtain, owner):
    with translation.override("ko"):
        function = services.function_suggestion_accept(
            cell=cell, actor=owner, key=f"device:{curtain.pk}"
        )
    function = SafetyFunction.objects.get(pk=function.pk)
    assert function.name == "Protective stop when LC1 detects a person at Infeed"
    assert function.texts["name"] == {
        "text": "Protective stop when %(label)s detects a person at %(opening)s",
        "values": {"label": "LC1", "opening": "Infeed"},
    }
    assert function.trigger == "LC1 interrupted"
    labels = [s.label for s in function.subsystems.all()]
    assert labels[0] == "LC1" and labels[1] == "Safety controller"
    with translation.override("ko"):
        name = written.field_shown(function, "name", translation.gettext)
        logic = function.subsystems.all()[1]
        assert written.field_shown(logic, "label", translation.gettext) != (
            "Safety controller"
        )
    assert "LC1" in name and "Infeed" in name and "Protective" not in name


def test_the_pages_and_findings_name_it_in_the_readers_language_until_renamed(
    owner_client, cell, curtain, owner
):
    function = services.function_suggestion_accept(
        cell=cell, actor=owner, key=f"device:{curtain.pk}"
    )
    detail = reverse("compliance:safety_function_detail", args=[function.pk])
    korean = owner_client.get(detail, **KO).text
    assert "Protective stop when LC1" not in korean
    with translation.override("ko"):
        names = function_names(SafetyFunction.objects.get(pk=function.pk).cell)
    assert names[function.name] != function.name

    # Renamed by a person: theirs, shown as typed in both languages, and no
    # longer among the names the findings translate.
    typed = "Protective stop when LC1 detects a person"
    SafetyFunction.objects.filter(pk=function.pk).update(name=typed)
    assert typed in owner_client.get(detail, **KO).text
    with translation.override("ko"):
        assert function_names(SafetyFunction.objects.get(pk=function.pk).cell) == {}
