"""Calculator pages: a form whose result and working update as the user types."""

from __future__ import annotations

from itertools import groupby

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from compliance.calculators import ts15066
from compliance.calculators.forms import calculator_form_class
from compliance.calculators.presentation import present_result
from compliance.calculators.registry import CALCULATORS
from config.htmx import render_page


@login_required
def calculator_list(request: HttpRequest) -> HttpResponse:
    ordered = sorted(CALCULATORS.values(), key=lambda c: c.standard)
    groups = [
        (standard, list(calcs))
        for standard, calcs in groupby(ordered, lambda c: c.standard)
    ]
    return render(
        request, "compliance/calculators/calculator_list.html", {"groups": groups}
    )


def _translated_example(example) -> dict:
    """The example with the labels it gives translated (numbers as they are)."""

    def translated(value):
        if isinstance(value, dict):
            return {
                k: gettext(v) if k == "label" and isinstance(v, str) else translated(v)
                for k, v in value.items()
            }
        if isinstance(value, list | tuple):
            return [translated(v) for v in value]
        return value

    return translated(dict(example))


@login_required
def calculator_detail(request: HttpRequest, name: str) -> HttpResponse:
    calculator = CALCULATORS.get(name)
    if calculator is None:
        raise Http404("No such calculator.")
    form_class = calculator_form_class(calculator)
    if request.GET:
        form = form_class(request.GET)
        calc_input = form.calc_input if form.is_valid() else None
    else:
        # First visit: a worked example, already computed, its names (a
        # subsystem's label) in the reader's language.
        example = _translated_example(calculator.example)
        form = form_class(initial=example)
        calc_input = calculator.input_model.model_validate(example)
    result = calculator.run(calc_input) if calc_input is not None else None
    context = {
        "calculator": calculator,
        "form": form,
        "result": present_result(calculator, result) if result else None,
        "body_regions": ts15066.body_region_table() if name == "ts15066-pfl" else (),
    }
    return render_page(
        request,
        "compliance/calculators/calculator_detail.html",
        context,
        fragment="result",
    )
