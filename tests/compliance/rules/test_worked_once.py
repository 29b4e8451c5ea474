"""Work a large cell's findings out once per distinct thing (issue 26): a
calculator's answer for the same figures, a formula's words, a text's
translation within one rendering. Just after a change the compliance page
and the findings API of the bench's large cell spent most of their time
translating the same few messages hundreds of times and running the same
calculation for each of 200 equal segments."""

from __future__ import annotations

from compliance.calculators.base import _FORMULA_WORD, formula_text
from compliance.calculators.iso13857 import ReachOverInput, reach_over
from compliance.rules.findings import calculate
from compliance.rules.selectors import remembering


def _old_formula_text(formula, translate):
    return _FORMULA_WORD.sub(lambda m: translate(m.group()), formula)


def test_a_formulas_words_are_translated_as_before():
    def marked(word):
        return f"<{word}>"

    for formula in (
        "S = 2000 × 0.150 + 0 = 300 mm",
        "none",  # a formula that is one word
        "low",
        "PL_low, high (table row)",
        "rows a (c) and column b, depth 3 points/year",
        "years",
    ):
        assert formula_text(formula, marked) == _old_formula_text(formula, marked)
    assert formula_text("none", marked) == "<none>"


def test_the_same_figures_give_the_same_answer_once():
    figures = {
        "hazard_height_mm": 1400,
        "hazard_lower_mm": 0,
        "structure_height_mm": 1800,
        "risk": "high",
        "horizontal_distance_mm": 900,
    }
    first, error = calculate(reach_over, ReachOverInput, **figures)
    again, _ = calculate(reach_over, ReachOverInput, **dict(reversed(figures.items())))
    assert error == "" and first is again
    other, _ = calculate(
        reach_over, ReachOverInput, **{**figures, "horizontal_distance_mm": 100}
    )
    assert other != first


def test_figures_outside_the_calculation_still_say_why():
    result, error = calculate(
        reach_over,
        ReachOverInput,
        hazard_height_mm=-5,
        hazard_lower_mm=0,
        structure_height_mm=1800,
        risk="high",
        horizontal_distance_mm=900,
    )
    assert result is None and error


def test_a_list_among_the_figures_is_worked_out_each_time():
    seen = []

    def run(model):
        seen.append(model)
        return model

    from pydantic import BaseModel

    class Listed(BaseModel):
        values: list[int]

    calculate(run, Listed, values=[1, 2])
    calculate(run, Listed, values=[1, 2])
    assert len(seen) == 2


def test_a_rendering_translates_each_text_once():
    asked = []

    def translate(text):
        asked.append(text)
        return text.upper()

    once = remembering(translate)
    assert [once(t) for t in ("a", "b", "a", "a")] == ["A", "B", "A", "A"]
    assert asked == ["a", "b"]


def test_a_plans_perimeter_is_worked_out_once(monkeypatch):
    # The enclosure and openings rules and the proposal's summary each asked
    # for the perimeter of the same plan (issue 26).
    from cells.perimeter import plan
    from compliance.rules import safeguarding
    from tests.compliance.rules.cells import palletising_cell

    facts = palletising_cell()
    plan.analysed.cache_clear()
    worked = []
    real = plan.analyse_perimeter
    monkeypatch.setattr(
        plan,
        "analyse_perimeter",
        lambda layout: worked.append(layout) or real(layout),
    )
    first = safeguarding.perimeter_of(facts)
    assert safeguarding.perimeter_of(facts) is first
    assert len(worked) == 1
