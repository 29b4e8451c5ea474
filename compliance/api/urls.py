from __future__ import annotations

from django.urls import path

from compliance.api import views
from compliance.calculators.registry import CALCULATORS

urlpatterns = [
    path("calculators/", views.CalculatorListView.as_view(), name="calculator-list"),
    path(
        "calculators/ts15066-body-regions/",
        views.BodyRegionsView.as_view(),
        name="calculator-body-regions",
    ),
    *(
        path(
            f"calculators/{name}/",
            views.calculator_view(calc).as_view(),
            name=f"calculator-{name}",
        )
        for name, calc in CALCULATORS.items()
    ),
]
