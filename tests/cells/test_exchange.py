"""The exchange document by itself (pure pydantic): every number in it
refuses ``true`` and ``false``, which pydantic's lax mode would read as 1 and
0. A walk over the document's models keeps it so for fields added later."""

from __future__ import annotations

import types
from decimal import Decimal
from typing import Annotated, Literal, Union, get_args, get_origin

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from cells import exchange


def _models():
    for value in vars(exchange).values():
        if (
            isinstance(value, type)
            and issubclass(value, BaseModel)
            and value.__module__ == exchange.__name__
            and value is not exchange._Doc
        ):
            yield value


def _with_a_boolean(annotation):
    """A value of ``annotation`` with ``True`` where a number goes, or None
    when it holds no number (text, choices, yes/no, nested documents)."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _with_a_boolean(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        arms = (_with_a_boolean(arm) for arm in get_args(annotation))
        return next((arm for arm in arms if arm is not None), None)
    if origin is list:
        inner = _with_a_boolean(get_args(annotation)[0])
        return None if inner is None else [inner]
    if origin is tuple:
        parts = [_with_a_boolean(arg) for arg in get_args(annotation)]
        return None if None in parts else tuple(parts)
    if origin is Literal or annotation is bool:
        return None
    if annotation in (int, float, Decimal):
        return True
    return None


NUMBERS = [
    pytest.param(model, name, sample, id=f"{model.__name__}.{name}")
    for model in _models()
    for name, info in model.model_fields.items()
    if (sample := _with_a_boolean(info.annotation)) is not None
]


def test_the_walk_finds_the_numbers():
    ids = {f"{model.__name__}.{name}" for model, name, _ in (p.values for p in NUMBERS)}
    assert {"RobotDoc.payload_kg", "PointDoc.x_mm", "HazardZoneDoc.polygon_mm"} <= ids
    assert {"DeviceDoc.beam_count", "OpeningRef.segment"} <= ids


@pytest.mark.parametrize(("model", "name", "sample"), NUMBERS)
def test_every_number_of_the_document_refuses_a_boolean(model, name, sample):
    info = model.model_fields[name]
    annotation = info.annotation
    if info.metadata:  # the field's own bounds, e.g. Field(ge=0)
        annotation = Annotated[annotation, *info.metadata]
    field = TypeAdapter(annotation)

    with pytest.raises(ValidationError) as caught:
        field.validate_python(sample)

    assert "not true or false" in str(caught.value)


def test_a_number_written_as_a_string_still_reads():
    assert exchange.PointDoc.model_validate({"x_mm": "12", "y_mm": 0}).x_mm == 12


def test_the_bounds_stay_plain_json_schema():
    # The API's schema shows them: minimum and maximum, not pydantic's own keys.
    schema = exchange.CellDocument.model_json_schema()["$defs"]
    x_mm = schema["PointDoc"]["properties"]["x_mm"]
    (beams, _none) = schema["DeviceDoc"]["properties"]["beam_count"]["anyOf"]

    assert (x_mm["minimum"], x_mm["maximum"]) == (-100_000, 100_000)
    assert (beams["minimum"], beams["maximum"]) == (0, exchange.BEAM_COUNT_LIMIT)
    assert "le" not in x_mm and "le" not in beams
