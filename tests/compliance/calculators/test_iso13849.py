"""ISO 13849-1 Annex A risk graph: PLr, PFHd targets and the PL ↔ SIL table."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from compliance.calculators.base import Certainty
from compliance.calculators.iso13849 import CALCULATORS, PlrInput, pl_table, plr
from compliance.calculators.iso13849_tables import PL_ORDER


def _plr(severity, frequency, avoidance, low_probability=False):
    return plr(
        PlrInput(
            severity=severity,
            frequency=frequency,
            avoidance=avoidance,
            low_probability=low_probability,
        )
    )


# Every row of "risk_graph" in iso13849_risk_graph.json. Sources: public
# TypeScript course code (requiredPL), Festo safety guide p.13 and the
# Contrinex risk-graph figure; S2/F1/P1 → c is also in the Keyence guide and a
# breakpilot commit message.
@pytest.mark.parametrize(
    ("severity", "frequency", "avoidance", "expected"),
    [
        ("S1", "F1", "P1", "a"),
        ("S1", "F1", "P2", "b"),
        ("S1", "F2", "P1", "b"),
        ("S1", "F2", "P2", "c"),
        ("S2", "F1", "P1", "c"),
        ("S2", "F1", "P2", "d"),
        ("S2", "F2", "P1", "d"),
        ("S2", "F2", "P2", "e"),
    ],
)
def test_risk_graph_gives_the_published_plr(severity, frequency, avoidance, expected):
    assert _plr(severity, frequency, avoidance).plr == expected


# "pl_pfhd_per_hour" (Keyence, Festo p.12, Schneider eXLhoist, course code) and
# "pl_to_sil" (JUMO safetyM manual 6.13, jherrodthomas wiki).
@pytest.mark.parametrize(
    ("severity", "frequency", "avoidance", "pfhd_min", "pfhd_max", "sil"),
    [
        ("S1", "F1", "P1", 1e-05, 1e-04, None),
        ("S1", "F1", "P2", 3e-06, 1e-05, 1),
        ("S1", "F2", "P2", 1e-06, 3e-06, 1),
        ("S2", "F1", "P2", 1e-07, 1e-06, 2),
        ("S2", "F2", "P2", 1e-08, 1e-07, 3),
    ],
)
def test_plr_carries_its_pfhd_range_and_sil(
    severity, frequency, avoidance, pfhd_min, pfhd_max, sil
):
    result = _plr(severity, frequency, avoidance)
    assert result.pfhd_min_per_h == pfhd_min
    assert result.pfhd_max_per_h == pfhd_max
    assert result.sil == sil
    assert result.sil_certainty is Certainty.TWO_SOURCES


def test_pl_a_has_no_sil_and_says_so():
    result = _plr("S1", "F1", "P1")
    assert result.sil is None
    assert any("no SIL equivalent" in line.text for line in result.steps)


def test_pl_table_lists_every_pl_with_pfhd_and_sil():
    rows = pl_table()
    assert [row.pl for row in rows] == ["a", "b", "c", "d", "e"]
    assert [(row.pfhd_min_per_h, row.pfhd_max_per_h) for row in rows] == [
        (1e-05, 1e-04),
        (3e-06, 1e-05),
        (1e-06, 3e-06),
        (1e-07, 1e-06),
        (1e-08, 1e-07),
    ]
    assert [row.sil for row in rows] == [None, 1, 1, 2, 3]
    # "sil_pfh_high_demand" (Schneider eXLhoist, Lenze): SIL 2 is 1e-7 .. 1e-6.
    assert (rows[3].sil_pfh_min_per_h, rows[3].sil_pfh_max_per_h) == (1e-07, 1e-06)
    assert rows[0].sil_pfh_min_per_h is None
    assert all(row.certainty is Certainty.TWO_SOURCES and row.sources for row in rows)


def test_low_probability_lowers_plr_by_one_level_with_a_warning():
    result = _plr("S2", "F2", "P2", low_probability=True)
    assert result.plr == "e"  # the graph value stays the default
    assert result.plr_low_probability == "d"
    assert any("justified in the risk assessment" in w.text for w in result.warnings)
    assert any("PLr e → d" in line.formula for line in result.steps)


def test_low_probability_never_goes_below_pl_a():
    result = _plr("S1", "F1", "P1", low_probability=True)
    assert result.plr_low_probability == "a"


def test_without_low_probability_there_is_no_lowered_plr():
    result = _plr("S2", "F1", "P1")
    assert result.plr_low_probability is None
    assert not any("justified" in w.text for w in result.warnings)


def test_result_carries_clause_steps_certainty_and_sources():
    result = _plr("S2", "F1", "P2")
    # Issue 17: the 2023 edition is cited; the graph is the 2015 Annex A's.
    assert result.clause.startswith("ISO 13849-1:2023, risk graph")
    assert "Annex A of the 2015 edition" in result.clause
    assert result.steps and all(line.render() for line in result.steps)
    assert result.certainty is Certainty.TWO_SOURCES
    assert result.sources
    assert any("2023" in w.text for w in result.warnings)


_WORSE = {
    "severity": ("S1", "S2"),
    "frequency": ("F1", "F2"),
    "avoidance": ("P1", "P2"),
}


@settings(max_examples=100)
@given(
    severity=st.sampled_from(["S1", "S2"]),
    frequency=st.sampled_from(["F1", "F2"]),
    avoidance=st.sampled_from(["P1", "P2"]),
    worsen=st.sampled_from(sorted(_WORSE)),
    low_probability=st.booleans(),
)
def test_plr_never_decreases_when_a_parameter_gets_worse(
    severity, frequency, avoidance, worsen, low_probability
):
    base = {"severity": severity, "frequency": frequency, "avoidance": avoidance}
    worse = {**base, worsen: _WORSE[worsen][1]}
    before = plr(PlrInput(**base, low_probability=low_probability))
    after = plr(PlrInput(**worse, low_probability=low_probability))
    assert PL_ORDER.index(after.plr) >= PL_ORDER.index(before.plr)
    if low_probability:
        assert PL_ORDER.index(after.plr_low_probability) >= PL_ORDER.index(
            before.plr_low_probability
        )


@pytest.mark.parametrize(
    ("field", "value"),
    [("severity", "S3"), ("frequency", "F0"), ("avoidance", "P3")],
)
def test_unknown_parameter_value_is_rejected_naming_the_field(field, value):
    data = {"severity": "S1", "frequency": "F1", "avoidance": "P1", field: value}
    with pytest.raises(ValidationError) as excinfo:
        PlrInput(**data)
    assert excinfo.value.errors()[0]["loc"] == (field,)


def test_unknown_field_is_rejected():
    with pytest.raises(ValidationError) as excinfo:
        PlrInput(severity="S1", frequency="F1", avoidance="P1", sil=2)
    assert excinfo.value.errors()[0]["loc"] == ("sil",)


def test_calculator_entry_runs_its_example():
    (calc,) = CALCULATORS
    assert calc.name == "plr"
    result = calc.run(calc.input_model(**calc.example))
    assert result.plr == "e"
    assert all(name in calc.result_model.model_fields for name in calc.headline)
