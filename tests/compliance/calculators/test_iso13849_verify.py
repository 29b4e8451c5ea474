"""ISO 13849-1 verification of the PL a safety function reaches (``pl-verify``).

Figures from iso13849_pl_verification.json and iso13849_risk_graph.json: the
simplified procedure (2015 Table 6 / 2023 Figure 12), the category rules, the
Annex C cap, Annex D symmetrisation, the PFHd summation and the series table
(6.3), the alternative procedure's PFHd per PL. Device figures from
devices_typical.json (each from the maker's data sheet).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from rest_framework.test import APIClient

from compliance.calculators import iso13849_verification_tables as vt
from compliance.calculators.base import Certainty
from compliance.calculators.iso13849_channels import symmetrise
from compliance.calculators.iso13849_series import SeriesPart, combine
from compliance.calculators.iso13849_tables import PL_ORDER
from compliance.calculators.iso13849_verify import (
    CALCULATORS,
    ROUTES,
    PlVerifyInput,
    SubsystemInput,
    pl_verify,
)
from compliance.calculators.validation import field_errors

# Certified devices (devices_typical.json): SICK deTec4 Core light curtain,
# Pilz PNOZ compact safety relay, SICK Speed Monitor MOC3ZA, SICK microScan3.
DETEC4 = {"label": "SICK deTec4", "pl": "e", "pfhd_per_hour": 3.7e-9}
PNOZ = {"label": "Pilz PNOZ compact", "pl": "e", "pfhd_per_hour": 2.31e-9}
MOC3ZA = {"label": "SICK MOC3ZA", "pl": "e", "pfhd_per_hour": 4.1e-8}
MICROSCAN3 = {"label": "SICK microScan3", "pl": "d", "pfhd_per_hour": 8e-8}


def designed(category, mttfd=None, dc=None, ccf=80, **extra):
    item = {"category": category, "mttfd_years": mttfd, **extra}
    if dc is not None:
        item["dcavg_percent"] = dc
    if category in ("2", "3", "4") and ccf is not None:
        item["ccf_points"] = ccf
    return {k: v for k, v in item.items() if v is not None}


def verify(*subsystems, plr=None, k1=None):
    return pl_verify(PlVerifyInput(subsystems=subsystems, plr=plr), k1)


def errors_of(data) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as excinfo:
        PlVerifyInput.model_validate(data)
    return field_errors(excinfo.value, PlVerifyInput)


# --- The simplified procedure, cell by cell -----------------------------------

# Every permitted cell of "simplified_procedure.rows": category, a DCavg in the
# band, an MTTFd in the band → PL (plc-studio and CODE_RG; Pizzato for some).
CELLS = [
    ("B", None, "low", 5, "a"),
    ("B", None, "medium", 20, "b"),
    ("B", None, "high", 50, "b"),  # the conflict, resolved as b with a warning
    ("1", None, "high", 50, "c"),
    ("2", 75, "low", 5, "a"),
    ("2", 75, "medium", 20, "b"),
    ("2", 75, "high", 50, "c"),
    ("2", 95, "low", 5, "b"),
    ("2", 95, "medium", 20, "c"),
    ("2", 95, "high", 50, "d"),
    ("3", 75, "low", 5, "b"),
    ("3", 75, "medium", 20, "c"),
    ("3", 75, "high", 50, "d"),
    ("3", 95, "low", 5, "c"),
    ("3", 95, "medium", 20, "d"),
    ("3", 95, "high", 50, "d"),
    ("4", 99, "high", 50, "e"),
]


@pytest.mark.parametrize(("category", "dc", "band", "mttfd", "expected"), CELLS)
def test_simplified_procedure_gives_the_published_pl(
    category, dc, band, mttfd, expected
):
    result = verify(designed(category, mttfd, dc))
    (sub,) = result.subsystems
    assert sub.pl == expected
    assert result.pl == expected
    assert sub.route == "designed"
    assert sub.mttfd_band == ("medium" if (category, band) == ("B", "high") else band)
    assert sub.pfhd_basis == "pl_range"
    assert (sub.pfhd_min_per_hour, sub.pfhd_max_per_hour) == (
        vt.PL_PFHD[expected].pfhd_min_per_h,
        vt.PL_PFHD[expected].pfhd_max_per_h,
    )
    assert any("Table K.1 (Annex K) is needed" in s.text for s in sub.steps)


@pytest.mark.parametrize(("category", "dc", "band", "mttfd", "expected"), CELLS)
def test_the_table_data_holds_each_published_cell(category, dc, band, mttfd, expected):
    dc_band = {None: "none", 75: "low", 95: "medium", 99: "high"}[dc]
    cell = vt.SIMPLIFIED_ROWS[(category, dc_band)].cells[band]
    assert cell.pl == expected
    assert cell.sources
    # Only the Cat B / MTTFd high cell is not confirmed by two sources.
    assert cell.confirmed_two_sources is ((category, band) != ("B", "high"))


@pytest.mark.parametrize(
    ("category", "dc_band", "band"),
    [
        ("1", "none", "low"),
        ("1", "none", "medium"),
        ("4", "high", "low"),
        ("4", "high", "medium"),
    ],
)
def test_not_permitted_cells_are_empty_in_the_table(category, dc_band, band):
    cell = vt.SIMPLIFIED_ROWS[(category, dc_band)].cells[band]
    assert cell.pl is None
    assert cell.note == "not permitted"


@pytest.mark.parametrize(
    ("subsystem", "field", "words"),
    [
        (designed("1", 5), "mttfd_years", "at least 30 years"),
        (designed("1", 20), "mttfd_years", "at least 30 years"),
        (designed("4", 5, 99), "mttfd_years", "at least 30 years"),
        (designed("4", 20, 99), "mttfd_years", "at least 30 years"),
        (designed("4", 50, 95), "dcavg_percent", "at least 99 %"),
        (designed("4", 50, 70), "dcavg_percent", "at least 99 %"),
        (designed("4", 50), "dcavg_percent", "needs its DCavg"),
        (designed("2", 50, 50), "dcavg_percent", "at least 60 %"),
        (designed("3", 50, 59.9), "dcavg_percent", "at least 60 %"),
        (designed("3", 50), "dcavg_percent", "needs its DCavg"),
        (designed("3", 50, 95, ccf=None), "ccf_points", "at least 65 points"),
        (designed("2", 50, 95, ccf=64), "ccf_points", "at least 65 CCF points"),
        (designed("4", 50, 99, ccf=0), "ccf_points", "at least 65 CCF points"),
        (designed("B", 2.9), "mttfd_years", "under 3 years"),
        (designed("3", 0.5, 95), "mttfd_years", "under 3 years"),
        (designed("3", None, 95), "mttfd_years", "needs the MTTFd"),
    ],
)
def test_category_rules_are_refused_naming_the_field(subsystem, field, words):
    errors = errors_of({"subsystems": [DETEC4, subsystem]})
    key = f"subsystems.1.{field}"
    assert list(errors) == [key]
    assert words in errors[key][0]


def test_ccf_measures_below_65_points_are_refused_naming_them():
    # Separation 15 + diversity 20 + FMEA 5 = 40 points.
    errors = errors_of(
        {
            "subsystems": [
                designed(
                    "3",
                    50,
                    95,
                    ccf=None,
                    ccf_measures=["separation", "diversity", "fmea"],
                )
            ]
        }
    )
    assert "40 given" in errors["subsystems.0.ccf_measures"][0]


def test_unknown_category_is_refused_naming_the_field():
    errors = errors_of({"subsystems": [{"category": "5", "mttfd_years": 50}]})
    assert list(errors) == ["subsystems.0.category"]


@pytest.mark.parametrize(
    ("mttfd", "band"),
    [(3, "low"), (9.99, "low"), (10, "medium"), (29.99, "medium"), (30, "high")],
)
def test_mttfd_band_edges_are_inclusive_below(mttfd, band):
    (sub,) = verify(designed("3", mttfd, 95)).subsystems
    assert sub.mttfd_band == band


@pytest.mark.parametrize(
    ("dc", "band"), [(60, "low"), (89.9, "low"), (90, "medium"), (98.9, "medium")]
)
def test_dc_band_edges_are_inclusive_below(dc, band):
    (sub,) = verify(designed("3", 50, dc)).subsystems
    assert sub.dcavg_band == band


# --- Limits stated as warnings -------------------------------------------------


def test_cat_b_with_mttfd_high_counts_as_medium_and_says_so():
    (sub,) = verify(designed("B", 80)).subsystems
    assert (sub.pl, sub.mttfd_band) == ("b", "medium")
    assert sub.certainty is Certainty.ONE_SOURCE  # the sources disagree on it
    assert any("at most as MTTFd medium" in w.text for w in sub.warnings)


def test_cat_3_with_dc_high_reads_the_dc_medium_column_from_one_source():
    result = verify(designed("3", 50, 99.5))
    (sub,) = result.subsystems
    assert (sub.pl, sub.dcavg_band) == ("d", "medium")
    assert sub.certainty is Certainty.ONE_SOURCE
    assert any("no column for DCavg high" in w.text for w in result.warnings)


def test_dc_is_not_credited_in_category_1():
    (sub,) = verify(designed("1", 50, 95)).subsystems
    assert (sub.pl, sub.dcavg_band) == ("c", "none")
    assert any("not credited" in w.text for w in sub.warnings)


@pytest.mark.parametrize(("category", "cap"), [("3", 100), ("4", 2500)])
def test_mttfd_above_the_cap_is_capped_with_a_warning(category, cap):
    dc = 99 if category == "4" else 95
    (sub,) = verify(designed(category, 3000, dc)).subsystems
    assert sub.mttfd_years == cap
    assert any("above the cap" in w.render() for w in sub.warnings)


def test_two_different_channels_are_symmetrised_annex_d():
    (sub,) = verify(designed("3", 100, 95, mttfd_channel2_years=20)).subsystems
    assert sub.mttfd_years == pytest.approx(68.89, abs=0.005)
    assert sub.mttfd_band == "high"
    assert any("symmetrised" in s.text for s in sub.steps)


def test_channels_are_capped_before_they_are_symmetrised():
    # 150 years counts as 100 in Cat 3, then (100, 20) → 68.89.
    (sub,) = verify(designed("3", 150, 95, mttfd_channel2_years=20)).subsystems
    assert sub.mttfd_years == pytest.approx(68.89, abs=0.005)


def test_equal_channels_symmetrise_to_themselves():
    # palletizer-sim test vector mttfdSym(30, 30) = 30.
    assert symmetrise(30, 30).value == pytest.approx(30)
    assert symmetrise(100, 20).value == pytest.approx(68.89, abs=0.005)


def test_a_second_channel_is_refused_in_a_single_channel_category():
    errors = errors_of({"subsystems": [designed("2", 50, 95, mttfd_channel2_years=40)]})
    assert "Categories 3 and 4 only" in errors["subsystems.0.mttfd_channel2_years"][0]


def test_a_low_second_channel_is_named_as_the_problem():
    errors = errors_of({"subsystems": [designed("4", 100, 99, mttfd_channel2_years=2)]})
    assert list(errors) == ["subsystems.0.mttfd_channel2_years"]


# --- Designed from B10d -----------------------------------------------------------


CONTACTORS = designed(
    "3",
    dc=99,
    ccf=80,
    b10d_cycles=1_300_000,
    days_per_year=220,
    hours_per_day=16,
    cycle_time_s=60,
)


def test_designed_subsystem_from_b10d():
    # n_op = 220 × 16 × 3600 / 60 = 211 200; MTTFd = 1.3e6 / 21 120 = 61.55 y.
    (sub,) = verify(CONTACTORS).subsystems
    assert sub.mttfd_years == pytest.approx(61.553, abs=0.001)
    assert sub.pl == "d"
    formulas = " ".join(s.formula for s in sub.steps)
    assert "211,200 /year" in formulas
    # T10d = 1.3e6 / 211 200 = 6.16 years < 20.
    assert any("replace the part before" in w.text for w in sub.warnings)


@pytest.mark.parametrize("missing", ["days_per_year", "hours_per_day", "cycle_time_s"])
def test_b10d_without_its_use_is_refused_naming_the_missing_field(missing):
    item = {k: v for k, v in CONTACTORS.items() if k != missing}
    errors = errors_of({"subsystems": [item]})
    assert list(errors) == [f"subsystems.0.{missing}"]


def test_b10d_and_mttfd_together_are_refused():
    errors = errors_of({"subsystems": [{**CONTACTORS, "mttfd_years": 50}]})
    assert list(errors) == ["subsystems.0.b10d_cycles"]


def test_b10d_too_low_for_category_4_names_b10d():
    # 1 300 000 cycles, one every 2 s, 24 h × 220 d: MTTFd 1.37 years.
    item = {**CONTACTORS, "category": "4", "cycle_time_s": 2, "hours_per_day": 24}
    errors = errors_of({"subsystems": [item]})
    assert list(errors) == ["subsystems.0.b10d_cycles"]


# --- Certified and PL-only subsystems -------------------------------------------


def test_certified_pfhd_above_the_band_of_its_pl_is_refused():
    errors = errors_of({"subsystems": [{"pl": "e", "pfhd_per_hour": 2e-7}]})
    assert list(errors) == ["subsystems.0.pfhd_per_hour"]
    assert "above the band of PL e" in errors["subsystems.0.pfhd_per_hour"][0]


def test_certified_pfhd_below_the_band_of_its_pl_is_accepted():
    # A PL d device whose PFHd would fit PL e (e.g. limited by its category).
    result = verify({"pl": "d", "pfhd_per_hour": 3.7e-9})
    assert result.subsystems[0].pfhd_basis == "maker"
    assert result.pl == "d"


def test_pfhd_without_pl_is_refused_naming_pl():
    errors = errors_of({"subsystems": [{"pfhd_per_hour": 1e-8}]})
    assert list(errors) == ["subsystems.0.pl"]


@pytest.mark.parametrize(
    ("pl", "pfhd"), [("b", 5e-06), ("c", 1.7e-06), ("d", 2.9e-07), ("e", 4.7e-08)]
)
def test_pl_only_takes_the_alternative_procedure_pfhd_from_one_source(pl, pfhd):
    result = verify({"label": "Door switch", "pl": pl})
    (sub,) = result.subsystems
    assert (sub.route, sub.pfhd_basis, sub.pfhd_per_hour) == (
        "pl_only",
        "alternative_procedure",
        pfhd,
    )
    assert sub.certainty is Certainty.ONE_SOURCE
    assert result.certainty is Certainty.ONE_SOURCE
    assert any("one public source" in w.text for w in sub.warnings)


def test_pl_only_a_has_no_alternative_value_and_gives_the_range():
    (sub,) = verify({"pl": "a"}).subsystems
    assert sub.pfhd_per_hour is None
    assert (sub.pfhd_basis, sub.pfhd_min_per_hour, sub.pfhd_max_per_hour) == (
        "pl_range",
        1e-05,
        1e-04,
    )


@pytest.mark.parametrize(
    "subsystem",
    [
        {"pl": "e", "category": "3"},
        {"pl": "e", "pfhd_per_hour": 1e-8, "mttfd_years": 50},
        {"pl": "d", "ccf_measures": ["separation"]},
        {},
        {"label": "just a name"},
    ],
)
def test_mixing_routes_or_giving_nothing_is_refused_for_the_subsystem(subsystem):
    errors = errors_of({"subsystems": [DETEC4, subsystem]})
    assert list(errors) == ["subsystems.1"]


# --- Series combination (6.3) -------------------------------------------------------


def test_pfhd_summation_gives_the_pl_from_the_band():
    # 3.7e-9 + 2.31e-9 + 4.1e-8 = 4.701e-8 /h: PL e (1e-8 ≤ PFHd < 1e-7).
    result = verify(DETEC4, PNOZ, MOC3ZA)
    assert result.combination == "pfhd_sum"
    assert result.pfhd_per_hour == pytest.approx(4.701e-8)
    assert result.pfhd_min_per_hour == result.pfhd_max_per_hour == result.pfhd_per_hour
    assert result.pl == "e"
    assert result.certainty is Certainty.TWO_SOURCES


def test_pfhd_sum_never_gives_more_than_the_lowest_subsystem():
    # 3.7e-9 + 2.31e-9 + 8e-8 = 8.601e-8 /h lies in PL e's band, but the
    # scanner is PL d.
    result = verify(DETEC4, PNOZ, MICROSCAN3)
    assert result.pfhd_per_hour == pytest.approx(8.601e-8)
    assert result.pl == "d"
    assert any("PL e → d" in s.formula for s in result.steps)


def test_pfhd_sum_can_fall_to_a_lower_band():
    # Three PL d parts of 4e-7 /h add up to 1.2e-6 /h: PL c.
    part = {"pl": "d", "pfhd_per_hour": 4e-7}
    assert verify(part, part, part).pl == "c"


PL_D = designed("3", 20, 95)  # Cat 3, DC medium, MTTFd medium → PL d


def test_three_pl_d_in_series_stay_d_by_the_series_table():
    result = verify(PL_D, PL_D, PL_D)
    assert result.combination == "series_table"
    assert result.pl == "d"
    assert result.pfhd_per_hour is None
    # The range: 3 × 1e-7 ≤ PFHd < 3 × 1e-6.
    assert result.pfhd_min_per_hour == pytest.approx(3e-7)
    assert result.pfhd_max_per_hour == pytest.approx(3e-6)


def test_four_pl_d_in_series_give_c_by_the_series_table():
    assert verify(PL_D, PL_D, PL_D, PL_D).pl == "c"


# iso13849_risk_graph.json "series_combination" (Schmersal, Festo; Rockwell).
@pytest.mark.parametrize(
    ("pl", "count", "expected"),
    [
        ("a", 3, "a"),
        ("a", 4, None),
        ("b", 2, "b"),
        ("b", 3, "a"),
        ("c", 2, "c"),
        ("c", 3, "b"),
        ("d", 3, "d"),
        ("d", 4, "c"),
        ("e", 3, "e"),
        ("e", 4, "d"),
    ],
)
def test_series_table_rows(pl, count, expected):
    # Parts known only by a PFHd range at the bottom of their band, so that
    # only the table decides.
    low = vt.PL_PFHD[pl].pfhd_min_per_h
    parts = [SeriesPart(pl, None, low / 10, low)] * count
    combination = combine(parts)
    assert combination.combination == "series_table"
    assert combination.pl == expected
    if expected is None:
        assert "not permitted" in combination.refusal


def test_the_series_table_never_claims_more_than_the_summed_lower_bounds():
    # Two certified PL e parts of 9e-8 /h already add up to 1.8e-7 /h (PL d's
    # band); the table alone would say e for three PL e parts.
    part = {"pl": "e", "pfhd_per_hour": 9e-8}
    result = verify(part, part, designed("4", 50, 99))
    assert result.combination == "series_table"
    assert result.pl == "d"


def test_four_pl_a_subsystems_in_series_are_refused():
    errors = errors_of({"subsystems": [{"pl": "a"}] * 4})
    assert list(errors) == ["subsystems"]
    assert "not permitted" in errors["subsystems"][0]


def test_a_pfhd_sum_below_pl_a_is_refused():
    part = {"pl": "a", "pfhd_per_hour": 6e-5}
    errors = errors_of({"subsystems": [part, part]})
    assert "does not reach PL a" in errors["subsystems"][0]


# --- PLr ----------------------------------------------------------------------


def test_meets_plr_when_the_pl_reaches_it():
    result = verify(DETEC4, PNOZ, MOC3ZA, plr="e")
    assert result.meets_plr is True
    assert any("PL e ≥ PLr e" in s.formula for s in result.steps)


def test_a_pl_below_the_plr_fails_first():
    result = verify(DETEC4, PNOZ, MICROSCAN3, plr="e")
    assert result.meets_plr is False
    assert "below its required PL e" in result.warnings[0].render()


def test_without_plr_there_is_no_verdict():
    assert verify(DETEC4).meets_plr is None


# --- The calculator and its example ----------------------------------------------


def test_example_light_curtain_relay_and_contactors_reach_pl_d():
    (calc,) = CALCULATORS
    assert calc.name == "pl-verify"
    assert calc.standard == "ISO 13849-1:2015"
    result = calc.run(calc.input_model.model_validate(calc.example))
    assert result.pl == "d"
    assert result.plr == "d" and result.meets_plr is True
    assert result.combination == "series_table"
    assert [s.route for s in result.subsystems] == [
        "certified",
        "certified",
        "designed",
    ]
    assert result.subsystems[2].mttfd_years == pytest.approx(61.553, abs=0.001)
    assert "Figure 12" in result.clause
    assert result.sources and result.steps
    assert all(name in calc.result_model.model_fields for name in calc.headline)
    assert result.k1_source is None


def test_more_than_eight_subsystems_are_refused_at_once():
    errors = errors_of({"subsystems": [{"bogus": i} for i in range(10_000)]})
    assert errors == {"subsystems": ["Give at most 8 subsystems."]}


def test_no_subsystem_is_refused():
    assert list(errors_of({"subsystems": []})) == ["subsystems"]


def test_subsystem_label_is_bounded():
    errors = errors_of({"subsystems": [{**DETEC4, "label": "x" * 81}]})
    assert list(errors) == ["subsystems.0.label"]


# --- Over HTTP and on the page -------------------------------------------------------


@pytest.fixture
def api(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


URL = "/api/v1/calculators/pl-verify/"


def test_api_names_the_nested_field_of_a_category_rule(api):
    body = {"subsystems": [DETEC4, designed("4", 50, 70)], "plr": "d"}
    response = api.post(URL, body, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["subsystems.1.dcavg_percent"]


def test_api_answers_the_example(api):
    response = api.post(URL, CALCULATORS[0].example, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["pl"] == "d"
    assert body["subsystems"][2]["pfhd_basis"] == "pl_range"
    assert all(isinstance(line, str) for line in body["subsystems"][0]["steps"])


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ({"subsystems": "all of them"}, "subsystems"),
        ({"subsystems": [1, 2]}, "subsystems.0"),
        (
            {"subsystems": [{**DETEC4, "pfhd_per_hour": "lots"}]},
            "subsystems.0.pfhd_per_hour",
        ),
        (
            {"subsystems": [{**DETEC4, "pfhd_per_hour": 1e308}]},
            "subsystems.0.pfhd_per_hour",
        ),
        ({"subsystems": [designed("3", 1e300, 95)]}, "subsystems.0.mttfd_years"),
        (
            {"subsystems": [designed("3", 50, 95, ccf=10**30)]},
            "subsystems.0.ccf_points",
        ),
        ({"subsystems": [{**DETEC4, "colour": "red"}]}, "subsystems.0.colour"),
        ({"subsystems": [DETEC4], "plr": "f"}, "plr"),
        ({"subsystems": [{"bogus": 1}] * 10_000}, "subsystems"),
        (
            {
                "subsystems": [
                    designed("3", 50, 95, ccf=None, ccf_measures=["x"] * 10_000)
                ]
            },
            "subsystems.0.ccf_measures",
        ),
    ],
)
def test_api_bad_input_is_a_400_naming_the_field(api, body, key):
    response = api.post(URL, body, format="json")
    assert response.status_code == 400
    assert key in response.json()


def page():
    return reverse("compliance:calculator_detail", args=["pl-verify"])


def test_page_shows_the_example_worked(owner_client):
    response = owner_client.get(page())
    assert response.status_code == 200
    assert 'name="s2-b10d_cycles"' in response.text
    assert '<span class="value">d</span>' in response.text


def test_page_computes_submitted_rows_and_ignores_blank_ones(owner_client):
    query = {
        "s0-label": "Light curtain",
        "s0-pl": "e",
        "s0-pfhd_per_hour": "3.7e-9",
        "s1-label": "left blank",
        "s2-pl": "e",
        "s2-pfhd_per_hour": "2.31e-9",
        "plr": "e",
    }
    response = owner_client.get(page(), query, HTTP_HX_REQUEST="true")
    assert '<span class="value">e</span>' in response.text
    assert "Correct the inputs" not in response.text


def test_page_puts_a_nested_error_on_the_row_field(owner_client):
    query = {
        "s0-category": "4",
        "s0-mttfd_years": "50",
        "s0-dcavg_percent": "70",
        "s0-ccf_points": "80",
    }
    response = owner_client.get(page(), query, HTTP_HX_REQUEST="true")
    assert "Correct the inputs" in response.text
    assert (
        "<strong>Input: Average diagnostic coverage DCavg (%)</strong>" in response.text
    )


def test_page_with_every_row_blank_asks_for_a_subsystem(owner_client):
    response = owner_client.get(page(), {"plr": "d"}, HTTP_HX_REQUEST="true")
    assert "Give at least one subsystem." in response.text


def test_page_puts_a_subsystem_rule_under_its_row(owner_client):
    query = {"s1-pl": "e", "s1-category": "3"}
    response = owner_client.get(page(), query, HTTP_HX_REQUEST="true")
    assert "Logic: Describe the subsystem one way" in response.text


# --- Properties -----------------------------------------------------------------------

MTTFD = st.floats(min_value=3, max_value=3000)
DC = st.floats(min_value=0, max_value=100)
CATEGORIES = st.sampled_from(vt.CATEGORY_ORDER)


def _pl_or_none(category, mttfd, dc):
    """The subsystem's PL, or None where the category does not permit it."""
    try:
        inp = PlVerifyInput(subsystems=[designed(category, mttfd, dc)])
    except ValidationError:
        return None
    return PL_ORDER.index(pl_verify(inp).pl)


@settings(max_examples=150, deadline=None)
@given(category=CATEGORIES, low=MTTFD, high=MTTFD, dc=DC)
def test_a_higher_mttfd_never_lowers_the_pl(category, low, high, dc):
    low, high = sorted((low, high))
    before, after = _pl_or_none(category, low, dc), _pl_or_none(category, high, dc)
    if before is not None and after is not None:
        assert after >= before


@settings(max_examples=150, deadline=None)
@given(category=CATEGORIES, mttfd=MTTFD, low=DC, high=DC)
def test_a_higher_dcavg_never_lowers_the_pl(category, mttfd, low, high):
    low, high = sorted((low, high))
    before, after = (
        _pl_or_none(category, mttfd, low),
        _pl_or_none(category, mttfd, high),
    )
    if before is not None and after is not None:
        assert after >= before


@settings(max_examples=150, deadline=None)
@given(lower=CATEGORIES, higher=CATEGORIES, mttfd=MTTFD, dc=DC)
def test_a_higher_category_where_permitted_never_lowers_the_pl(
    lower, higher, mttfd, dc
):
    lower, higher = sorted((lower, higher), key=vt.CATEGORY_ORDER.index)
    before, after = _pl_or_none(lower, mttfd, dc), _pl_or_none(higher, mttfd, dc)
    if before is not None and after is not None:
        assert after >= before


SUBSYSTEMS = st.one_of(
    st.builds(
        lambda pl, pfhd: {"pl": pl, "pfhd_per_hour": pfhd},
        st.sampled_from(PL_ORDER),
        st.floats(min_value=1e-9, max_value=9e-5),
    ),
    st.builds(lambda pl: {"pl": pl}, st.sampled_from(PL_ORDER)),
    st.builds(designed, CATEGORIES, MTTFD, DC),
)


def _valid(subsystems):
    try:
        return PlVerifyInput(subsystems=subsystems)
    except ValidationError:
        return None


@settings(max_examples=200, deadline=None)
@given(chain=st.lists(SUBSYSTEMS, min_size=1, max_size=7), extra=SUBSYSTEMS)
def test_adding_a_subsystem_in_series_never_raises_the_pl(chain, extra):
    before, after = _valid(chain), _valid([*chain, extra])
    if before is None or after is None:
        return
    assert PL_ORDER.index(pl_verify(after).pl) <= PL_ORDER.index(pl_verify(before).pl)


@pytest.mark.parametrize(
    ("data", "route"),
    [(DETEC4, "certified"), ({"pl": "d"}, "pl_only"), (PL_D, "designed")],
)
def test_a_subsystem_input_knows_its_route(data, route):
    assert SubsystemInput.model_validate(data).route == route


def test_the_route_codes_named_in_the_schema_settings_match_the_model():
    # config/settings.py names the choice set by ROUTES (ENUM_NAME_OVERRIDES).
    assert ROUTES == ("certified", "pl_only", "designed")
