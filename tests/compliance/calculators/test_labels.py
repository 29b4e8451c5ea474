"""Every field a calculator page shows has a label of its own, so a Korean
reader never meets a label made from an English field name (issue 15)."""

from __future__ import annotations

from compliance.calculators.presentation import (
    BASE_FIELDS,
    INPUT_LABELS,
    LABELS,
    _is_reason,
)
from compliance.calculators.registry import CALCULATORS


def test_every_input_and_result_field_of_every_calculator_is_labelled():
    missing = set()
    for name, calculator in CALCULATORS.items():
        for field in calculator.input_model.model_fields:
            if field not in LABELS and field not in INPUT_LABELS:
                missing.add(f"{name}: input {field}")
        for field in calculator.result_model.model_fields:
            if field in BASE_FIELDS or _is_reason(field):
                continue
            if field not in LABELS:
                missing.add(f"{name}: result {field}")
    assert sorted(missing) == [], "add these to presentation.LABELS"
