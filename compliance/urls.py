from __future__ import annotations

from django.urls import path

from compliance import views

app_name = "compliance"
urlpatterns = [
    path("calculators/", views.calculator_list, name="calculator_list"),
    path("calculators/<slug:name>/", views.calculator_detail, name="calculator_detail"),
]
