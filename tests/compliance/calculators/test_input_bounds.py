"""Calculator inputs over the API are strict numbers with physical bounds: a
boolean or a string is not a number, a time must be long enough to be real,
and each refusal is a 400 naming the field. The pages, which send text, keep
working."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from compliance.calculators.forms import _unwrap_optional
from compliance.calculators.iso13855_common import MIN_TIME_MS
from compliance.calculators.registry import CALCULATORS
from compliance.calculators.validation import nested_model


@pytest.fixture
def api(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


def _numbers(model) -> list[tuple[str, type]]:
    """(name, int or float) of every number an input model takes."""
    found = []
    for name, info in model.model_fields.items():
        annotation, _ = _unwrap_optional(info.annotation)
        if annotation in (int, float):
            found.append((name, annotation))
    return found


def _cases():
    """(calculator, path to the field, the example with the field replaced)."""
    for name, calculator in sorted(CALCULATORS.items()):
        example = dict(calculator.example)
        for field, kind in _numbers(calculator.input_model):
            yield name, (field,), kind
        for field, info in calculator.input_model.model_fields.items():
            model, many = nested_model(info.annotation)
            if model is not None and many:
                for inner, kind in _numbers(model):
                    if inner in example[field][0]:
                        yield name, (field, 0, inner), kind


CASES = list(_cases())


def _with(example: dict, path: tuple, value) -> dict:
    body = {
        k: (list(v) if isinstance(v, list | tuple) else v) for k, v in example.items()
    }
    if len(path) == 1:
        body[path[0]] = value
    else:
        field, index, inner = path
        body[field] = [dict(item) for item in example[field]]
        body[field][index][inner] = value
    return body


def _key(path: tuple) -> str:
    return ".".join(str(p) for p in path)


def url(name: str) -> str:
    return reverse(f"calculator-{name}")


def test_every_calculator_has_numbers_to_check():
    assert {name for name, _, _ in CASES} >= set(CALCULATORS) - {"plr"}


@pytest.mark.parametrize("value", [True, False])
@pytest.mark.parametrize(("name", "path", "kind"), CASES)
def test_a_boolean_is_not_a_number(api, name, path, kind, value):
    body = _with(CALCULATORS[name].example, path, value)

    response = api.post(url(name), body, format="json")

    assert response.status_code == 400
    assert _key(path) in response.json()


@pytest.mark.parametrize(("name", "path", "kind"), CASES)
def test_a_string_is_not_a_number_in_json(api, name, path, kind):
    example = CALCULATORS[name].example
    value = _dig(example, path)
    body = _with(example, path, str(value))

    response = api.post(url(name), body, format="json")

    assert response.status_code == 400
    assert _key(path) in response.json()


@pytest.mark.parametrize(("name", "path", "kind"), [c for c in CASES if c[2] is float])
def test_a_whole_number_is_a_float(api, name, path, kind):
    example = CALCULATORS[name].example
    value = _dig(example, path)
    if value != int(value) or (path[-1] not in example and len(path) == 1):
        pytest.skip("the example gives no whole value here")
    body = _with(example, path, int(value))

    response = api.post(url(name), body, format="json")

    assert response.status_code == 200, response.json()


def _dig(example, path):
    """The example's value at ``path``, else 1."""
    value = example
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError):
            return 1
    return value


# Times that must be real: from a stop signal to standstill, a device's
# response. 0.1 ms is below any safety device's or machine's. (A time that
# may be 0, "none", such as a controller's or the SSM terms, keeps 0.)
POSITIVE_TIMES = [
    (name, field)
    for name, calc in sorted(CALCULATORS.items())
    for field, info in calc.input_model.model_fields.items()
    if field.endswith("_time_ms")
    and info.is_required()
    and not any(getattr(m, "ge", None) == 0 for m in info.metadata)
]


def test_the_positive_times_are_found():
    assert ("iso13855-espe", "stopping_time_ms") in POSITIVE_TIMES
    assert ("iso13855-interlock", "overall_stopping_time_ms") in POSITIVE_TIMES


@pytest.mark.parametrize(("name", "field"), POSITIVE_TIMES)
@pytest.mark.parametrize("value", [5e-324, 1e-6, 0.09])
def test_a_time_too_short_to_be_real_is_refused_by_name(api, name, field, value):
    calculator = CALCULATORS[name]
    body = {**calculator.example, field: value}

    response = api.post(url(name), body, format="json")

    assert response.status_code == 400
    assert field in response.json()
    assert f"{MIN_TIME_MS:g}" in str(response.json()[field])


@pytest.mark.parametrize(("name", "field"), POSITIVE_TIMES)
def test_the_shortest_real_time_is_taken(api, name, field):
    calculator = CALCULATORS[name]
    body = {**calculator.example, field: MIN_TIME_MS}

    response = api.post(url(name), body, format="json")

    assert response.status_code == 200, response.json()


def test_a_moving_mass_of_5e_324_kg_is_refused_by_name(api):
    body = {**CALCULATORS["ts15066-pfl"].example, "robot_moving_mass_kg": 5e-324}

    response = api.post(url("ts15066-pfl"), body, format="json")

    assert response.status_code == 400
    assert "robot_moving_mass_kg" in response.json()


# --- The pages send text: still numbers to them ---------------------------------


@pytest.mark.parametrize("name", sorted(CALCULATORS))
def test_the_pages_read_typed_numbers(owner_client, name):
    calculator = CALCULATORS[name]
    form_class_fields = {}
    for field, value in calculator.example.items():
        if isinstance(value, list | tuple):
            if value and isinstance(value[0], dict):
                for index, item in enumerate(value[:3]):
                    for key, inner in item.items():
                        form_class_fields[f"s{index}-{key}"] = _as_text(inner)
            else:
                form_class_fields[field] = [str(v) for v in value]
        else:
            form_class_fields[field] = _as_text(value)

    response = owner_client.get(
        reverse("compliance:calculator_detail", args=[name]),
        form_class_fields,
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    assert 'class="steps"' in response.text, response.text[:2000]


def _as_text(value) -> str:
    if value is True:
        return "on"
    if value is False:
        return ""
    return str(value)
