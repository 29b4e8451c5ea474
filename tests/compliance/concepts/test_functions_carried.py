"""A concept carries the safety functions of the cell as drawn (issue 27):
those whose device it has, with their subsystems, never their validation
records; a copied concept carries the functions of the concept it copies."""

from __future__ import annotations

import datetime

import pytest

from compliance.concepts import services as concept_services
from compliance.concepts.models import GuardingConcept
from compliance.safety_functions import selectors, services
from compliance.safety_functions.models import SafetyFunction, ValidationRecord
from tests.factories import DeviceFactory

pytestmark = pytest.mark.django_db

FUNCTION = {
    "safeguard": "guarded_opening",
    "trigger": "interrupted",
    "reaction": "Protective stop, stop category 1",
    "stop_category": "1",
}


def _function(cell, actor, device, name):
    function = services.function_create(
        cell=cell, actor=actor, device=device, name=name, **FUNCTION
    )
    services.subsystem_add(
        function=function,
        actor=actor,
        role="input",
        label=device.label,
        device=device,
        route="certified",
        pl="e",
        pfhd_per_hour=3.7e-9,
    )
    return function


def test_a_concept_carries_the_functions_of_the_devices_it_keeps(
    api, owner, palletiser
):
    curtain = palletiser.devices.get(label="LC1")
    kept = _function(palletiser, owner, curtain, "Protective stop by LC1")
    for test in selectors.plan_of(kept)[:1]:
        services.validation_record_add(
            function=kept,
            actor=owner,
            test=test.kind,
            performed_by="K. Lee",
            performed_on=datetime.date(2026, 11, 30),
            measured_value="",
            outcome="passed",
        )
    odd = DeviceFactory(cell=palletiser, kind="interlocked_door", label="DS9")
    _function(palletiser, owner, odd, "Stop by DS9")

    response = api.post(f"/api/v1/cells/{palletiser.pk}/concepts/generate/")
    assert response.status_code == 201, response.json()
    fenced = GuardingConcept.objects.get(cell=palletiser, kind="fenced")
    functions = list(SafetyFunction.objects.filter(cell=fenced.variant))
    assert [f.name for f in functions] == ["Protective stop by LC1"]
    (function,) = functions
    assert function.device.cell_id == fenced.variant_id
    assert function.device.label == "LC1"
    (part,) = function.subsystems.all()
    assert part.device_id == function.device_id and part.pl == "e"
    # Its tests are to be recorded again for the concept's function.
    assert not ValidationRecord.objects.filter(function=function).exists()
    assert ValidationRecord.objects.filter(function=kept).count() == 1
    values = next(
        r["values"] for r in fenced.reasons if r["text"].startswith("Safety functions")
    )
    assert values == {"copied": 1, "left": 1}

    copy = concept_services.concept_copy(concept=fenced, actor=owner)
    assert [f.name for f in SafetyFunction.objects.filter(cell=copy.variant)] == [
        "Protective stop by LC1"
    ]
