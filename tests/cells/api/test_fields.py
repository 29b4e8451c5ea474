"""Numbers over the API are numbers: ``true`` and ``false`` are refused.

DRF's FloatField takes ``false`` as 0.0; the app's float fields are
``StrictFloatField`` instead, and a walk over every serializer of the project
keeps it that way."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from django.urls import reverse
from rest_framework import serializers
from rest_framework.test import APIClient

from cells.api.fields import StrictFloatField
from compliance.safety_functions import services as function_services

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("value", [False, True])
def test_the_strict_float_refuses_a_boolean(value):
    field = StrictFloatField()
    with pytest.raises(serializers.ValidationError):
        field.run_validation(value)


@pytest.mark.parametrize(("value", "expected"), [(0, 0.0), ("2.5", 2.5), (1e-9, 1e-9)])
def test_the_strict_float_takes_numbers(value, expected):
    assert StrictFloatField().run_validation(value) == expected


def _project_serializers():
    for package in ("cells", "compliance"):
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if ".migrations" in info.name:
                continue
            module = importlib.import_module(info.name)
            for obj in vars(module).values():
                if (
                    inspect.isclass(obj)
                    and issubclass(obj, serializers.BaseSerializer)
                    and obj.__module__ == module.__name__
                ):
                    yield obj


def _floats(serializer, path):
    for name, field in serializer.fields.items():
        inner = field.child if isinstance(field, serializers.ListSerializer) else field
        if isinstance(inner, serializers.BaseSerializer):
            yield from _floats(inner, f"{path}.{name}")
        elif isinstance(inner, serializers.ListField | serializers.DictField):
            if type(inner.child) is serializers.FloatField:
                yield f"{path}.{name}"
        elif type(inner) is serializers.FloatField:
            yield f"{path}.{name}"


def test_no_serializer_of_the_project_has_a_lax_float():
    lax = [
        found
        for cls in _project_serializers()
        for found in _floats(cls(), f"{cls.__module__}.{cls.__name__}")
    ]
    assert lax == []


@pytest.fixture
def owner_api(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


# Each a boolean today's DRF FloatField took as a figure (1.0 or 0.0) that the
# field's range then let through.
@pytest.mark.parametrize(
    ("field", "value"),
    [("dcavg_percent", False), ("mttfd_years", True), ("b10d_cycles", True)],
)
def test_a_library_device_refuses_a_boolean_figure(
    owner_api, organisation, field, value
):
    url = reverse("organisation-library-devices", args=[organisation.pk])
    body = {"key": "MY-1", "kind": "other", "maker": "M", "model": "N", field: value}
    response = owner_api.post(url, body, format="json")
    assert response.status_code == 400
    assert response.json()[field] == ["A valid number is required."]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("dcavg_percent", False),
        ("dcavg_percent", True),
        ("mttfd_years", True),
        ("mttfd_channel2_years", True),
        ("b10d_cycles", True),
        ("hours_per_day", True),
        ("cycle_time_s", True),
        ("days_per_year", True),
    ],
)
def test_a_subsystem_refuses_a_boolean_figure(owner_api, cell, owner, field, value):
    function = function_services.function_create(
        cell=cell,
        actor=owner,
        name="Protective stop at the infeed",
        safeguard="guarded_opening",
        trigger="Light curtain interrupted",
        reaction="Protective stop",
    )
    url = reverse("safety-function-subsystems", args=[function.pk])
    body = {"role": "input", "label": "LC", "route": "designed", "category": "3"}
    response = owner_api.post(url, {**body, field: value}, format="json")
    assert response.status_code == 400
    assert response.json()[field] == ["A valid number is required."]
