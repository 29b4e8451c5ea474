"""ISO 13849-1 Annex C (MTTFd from B10d), Annex D (channels) and Annex F (CCF).

Worked examples from iso13849_pl_verification.json: the GB/T 16855.1 example
(tradetang.com: B10d 20 000 000 and 400 000 at 300 d × 16 h, one cycle every
4 minutes → MTTFd 2778 and 56 years printed) and Dold SAFEMASTER STS/K (B10d
2 000 000 at 365 d × 24 h, one cycle an hour → n_op 8760 printed).
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from rest_framework.test import APIClient

from compliance.calculators.base import Certainty
from compliance.calculators.iso13849_b10d import (
    CALCULATORS,
    B10dInput,
    b10d_figures,
    b10d_mttfd,
)
from compliance.calculators.iso13849_ccf import ccf_score
from compliance.calculators.iso13849_channels import dcavg, parts_count, symmetrise


def run(b10d, days, hours, cycle, category=None):
    return b10d_mttfd(
        B10dInput(
            b10d_cycles=b10d,
            days_per_year=days,
            hours_per_day=hours,
            cycle_time_s=cycle,
            category=category,
        )
    )


def test_gbt_16855_example_small_load():
    result = run(20_000_000, 300, 16, 240)
    assert result.n_op_per_year == pytest.approx(72_000)
    assert result.mttfd_years == pytest.approx(2777.8, abs=0.05)  # printed 2778
    assert result.mttfd_capped_years == 100  # Categories B to 3
    assert result.mttfd_band == "high"
    assert any("above the cap" in w.text for w in result.warnings)


def test_gbt_16855_example_in_category_4_is_capped_at_2500_years():
    result = run(20_000_000, 300, 16, 240, category="4")
    assert result.mttfd_capped_years == 2500
    assert "2,500" in " ".join(s.render() for s in result.steps)


def test_gbt_16855_example_nominal_load():
    result = run(400_000, 300, 16, 240)
    assert result.mttfd_years == pytest.approx(55.6, abs=0.05)  # printed 56
    assert result.mttfd_capped_years == result.mttfd_years
    assert result.t10d_years == pytest.approx(5.56, abs=0.005)
    # T10d of 5.6 years is shorter than the 20-year mission time.
    assert any("replace the part before T10d" in w.text for w in result.warnings)


def test_dold_example():
    result = run(2_000_000, 365, 24, 3600)
    assert result.n_op_per_year == pytest.approx(8760)
    assert result.mttfd_years == pytest.approx(2283, abs=0.5)
    assert result.mttfd_capped_years == 100
    # T10d = 2 000 000 / 8760 = 228 years: no replacement within the mission.
    assert result.t10d_years == pytest.approx(228.3, abs=0.05)
    assert not any("replace" in w.text for w in result.warnings)


def test_formulas_are_shown_with_the_numbers():
    steps = [s.render() for s in run(400_000, 300, 16, 240).steps]
    assert (
        "n_op = d_op × h_op × 3600 / t_cycle = 300 × 16 × 3600 / 240 s = 72,000 /year"
        in steps[0]
    )
    assert (
        "MTTFd = B10d / (0.1 × n_op) = 400,000 / (0.1 × 72,000) = 55.56 years"
        in steps[1]
    )
    assert "T10d = B10d / n_op = 400,000 / 72,000 = 5.56 years" in steps[2]


def test_an_mttfd_under_three_years_has_no_band_and_a_warning():
    result = run(100_000, 366, 24, 1)  # 31.6 million cycles a year
    assert result.mttfd_years < 3
    assert result.mttfd_band is None
    assert any("under 3 years is not allowed" in w.text for w in result.warnings)


def test_result_cites_annex_c_with_sources():
    result = run(400_000, 300, 16, 240)
    assert result.clause.startswith("ISO 13849-1:2015, Annex C")
    assert result.certainty is Certainty.TWO_SOURCES
    assert any("tradetang" in s for s in result.sources)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("b10d_cycles", 0),
        ("b10d_cycles", 1e13),
        ("days_per_year", 0),
        ("days_per_year", 367),
        ("hours_per_day", 0),
        ("hours_per_day", 25),
        ("cycle_time_s", 0.001),
        ("cycle_time_s", 1e8),
        ("category", "5"),
    ],
)
def test_inputs_are_bounded(field, value):
    data = {
        "b10d_cycles": 400_000,
        "days_per_year": 300,
        "hours_per_day": 16,
        "cycle_time_s": 240,
        field: value,
    }
    with pytest.raises(ValidationError) as excinfo:
        B10dInput(**data)
    assert excinfo.value.errors()[0]["loc"] == (field,)


def test_the_extremes_of_the_bounds_give_finite_figures():
    slowest = run(1e12, 1, 0.01, 1e7)
    fastest = run(1, 366, 24, 0.01)
    for result in (slowest, fastest):
        assert 0 < result.mttfd_years < float("inf")
        assert 0 < result.t10d_years < float("inf")


def test_calculator_entry_runs_its_example():
    (calc,) = CALCULATORS
    assert calc.name == "b10d-mttfd"
    result = calc.run(calc.input_model(**calc.example))
    assert result.mttfd_years == pytest.approx(55.56, abs=0.005)


@pytest.fixture
def api(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


def test_b10d_over_the_api(api):
    response = api.post(
        "/api/v1/calculators/b10d-mttfd/",
        {
            "b10d_cycles": 20_000_000,
            "days_per_year": 300,
            "hours_per_day": 16,
            "cycle_time_s": 240,
            "category": "4",
        },
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["n_op_per_year"] == pytest.approx(72_000)
    assert body["mttfd_capped_years"] == 2500
    assert body["mttfd_band"] == "high"


def test_b10d_bad_input_over_the_api_names_the_field(api):
    response = api.post(
        "/api/v1/calculators/b10d-mttfd/",
        {
            "b10d_cycles": 1e6,
            "days_per_year": 400,
            "hours_per_day": 8,
            "cycle_time_s": 5,
        },
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()) == ["days_per_year"]


# --- Annex D ------------------------------------------------------------------------


def test_b10d_figures_are_plain_numbers_with_their_working():
    figures = b10d_figures(2_000_000, 365, 24, 3600)
    assert figures.n_op_per_year == pytest.approx(8760)
    assert len(figures.steps) == 3


@pytest.mark.parametrize(
    ("c1", "c2", "expected"), [(30, 30, 30), (100, 20, 68.89), (20, 100, 68.89)]
)
def test_symmetrisation(c1, c2, expected):
    figure = symmetrise(c1, c2)
    assert figure.value == pytest.approx(expected, abs=0.005)
    assert "Annex D" in figure.steps[0].text


def test_parts_count_of_the_gbt_example_channel_is_about_55_years():
    # 1 / (1/2777.8 + 1/55.6) = 54.5 years; the example prints "about 55 y".
    figure = parts_count([2777.8, 55.6])
    assert figure.value == pytest.approx(54.51, abs=0.01)
    assert figure.certainty is Certainty.TWO_SOURCES


def test_weighted_dcavg_rests_on_one_source():
    # (99/100 + 90/50) / (1/100 + 1/50) = 2.79 / 0.03 = 93 %.
    figure = dcavg([(99, 100), (90, 50)])
    assert figure.value == pytest.approx(93)
    assert figure.certainty is Certainty.ONE_SOURCE
    assert "one public source" in figure.steps[0].text


@pytest.mark.parametrize("bad", [[], [0.0], [-5.0]])
def test_parts_count_refuses_no_parts_or_non_positive_mttfd(bad):
    with pytest.raises(ValueError):
        parts_count(bad)


# --- Annex F ------------------------------------------------------------------------


def test_every_measure_scores_100_points():
    score = ccf_score(
        [
            "separation",
            "diversity",
            "overvoltage_protection",
            "well_tried_components",
            "fmea",
            "competence",
            "emc_contamination",
            "other_environment",
        ]
    )
    assert score.points == 100
    assert score.meets_minimum


def test_ccf_points_are_all_or_nothing_per_measure():
    # Separation 15 + diversity 20 + EMC 25 + other influences 10 = 70.
    score = ccf_score(
        ["separation", "diversity", "emc_contamination", "other_environment"]
    )
    assert score.points == 70
    assert score.meets_minimum
    assert score.certainty is Certainty.ONE_SOURCE  # the points: plc-studio only
    assert "70 ≥ 65 points" in score.steps[-1].formula


def test_a_measure_listed_twice_counts_once():
    assert ccf_score(["separation", "separation"]).points == 15


def test_below_65_points_does_not_meet_the_minimum():
    score = ccf_score(["separation", "fmea"])
    assert (score.points, score.meets_minimum) == (20, False)


def test_an_unknown_measure_is_an_error():
    with pytest.raises(ValueError, match="unknown CCF measures"):
        ccf_score(["prayer"])
