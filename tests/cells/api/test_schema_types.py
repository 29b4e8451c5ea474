"""The schema says what each field holds: no component property is left as
"anything" (``{}``), which a client cannot generate code or checks from."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db

# Free-form on purpose or not yet described, each with its reason.
FREE_FORM = {
    # A calculator's JSON Schema and worked example: the calculators' own.
    "CalculatorDescription.input_schema",
    "CalculatorDescription.example",
}
TYPED = {"type", "$ref", "oneOf", "anyOf", "allOf", "enum", "const"}


@pytest.fixture(scope="module")
def components():
    return SchemaGenerator().get_schema(request=None, public=True)["components"][
        "schemas"
    ]


def _untyped(schema) -> bool:
    if not TYPED & set(schema):
        return True
    return any(_untyped(option) for option in schema.get("oneOf", ()))


def test_every_property_of_every_component_has_a_type(components):
    untyped = [
        f"{name}.{prop}"
        for name, component in components.items()
        for prop, schema in component.get("properties", {}).items()
        if _untyped(schema) and f"{name}.{prop}" not in FREE_FORM
    ]
    assert untyped == []


def test_an_audit_entry_side_is_an_object_or_null(components):
    for side in ("before", "after"):
        schema = components["AuditEntry"]["properties"][side]
        assert schema["type"] == ["object", "null"]
        assert schema["additionalProperties"] is True


def test_the_table_k1_rows_are_numbers(components):
    row = components["K1Row"]["properties"]
    assert row["mttfd_years"]["type"] == "number"
    assert row["cat_4_high"]["type"] == ["number", "null"]
