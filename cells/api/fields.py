"""Serializer fields shared by every app's API."""

from __future__ import annotations

from typing import Any

from django.db import models
from rest_framework import serializers


class StrictFloatField(serializers.FloatField):
    """A number that refuses ``true`` and ``false``.

    DRF's FloatField takes them as 1.0 and 0.0 (``float(False)``), so a
    client's mistake would be stored as a figure. Its IntegerField and
    DecimalField already refuse them.
    """

    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool):
            self.fail("invalid")
        return super().to_internal_value(data)


# For a ModelSerializer's ``serializer_field_mapping``: model floats as strict.
STRICT_FIELD_MAPPING = {
    **serializers.ModelSerializer.serializer_field_mapping,
    models.FloatField: StrictFloatField,
}
