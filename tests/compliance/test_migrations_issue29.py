"""Issue 29's migrations over rows: the rates a project had entered become
dated exchange rates of its organisation (compliance 0026), then the
project's fields go (cells 0025)."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [
    ("cells", "0024_row_versions"),
    ("compliance", "0025_supplier_quotes_exchange_rates"),
]
AFTER = [
    ("cells", "0025_project_rates_to_organisation"),
    ("compliance", "0026_exchange_rates_from_projects"),
]


@pytest.mark.django_db(transaction=True)
def test_project_rates_become_the_organisations_dated_rates():
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE)
        old = executor.loader.project_state(BEFORE).apps
        Organisation = old.get_model("cells", "Organisation")
        Project = old.get_model("cells", "Project")
        ExchangeRate = old.get_model("compliance", "ExchangeRate")
        acme = Organisation.objects.create(name="Acme", slug="acme")
        other = Organisation.objects.create(name="Other", slug="other")
        day = datetime.date(2026, 11, 30)
        Project.objects.create(
            organisation=acme,
            name="First",
            customer_name="C",
            krw_per_usd=Decimal(1350),
            eur_per_usd=Decimal("0.9"),
            rates_date=day,
        )
        # The same currency and day again: the first project's is kept.
        Project.objects.create(
            organisation=acme,
            name="Second",
            customer_name="C",
            krw_per_usd=Decimal(1400),
            rates_date=day,
        )
        undated = Project.objects.create(
            organisation=other,
            name="Undated",
            customer_name="C",
            krw_per_usd=1300,
            eur_per_usd=Decimal("0.95"),
        )
        made = timezone.make_aware(datetime.datetime(2026, 3, 4, 12))
        Project.objects.filter(pk=undated.pk).update(created_at=made)
        Project.objects.create(organisation=other, name="None", customer_name="C")
        # A rate the organisation already has for that day stays as it is.
        ExchangeRate.objects.create(
            organisation=other,
            currency="KRW",
            units_per_usd=1250,
            valid_from=datetime.date(2026, 3, 4),
            source="Bank",
        )

        MigrationExecutor(connection).migrate(AFTER)
    finally:
        call_command("migrate", verbosity=0)

    from cells.models import Project as Current
    from compliance.costs.models import ExchangeRate as Rate

    assert "krw_per_usd" not in {f.name for f in Current._meta.get_fields()}
    rows = sorted(
        Rate.objects.values_list(
            "organisation__slug", "currency", "units_per_usd", "valid_from", "source"
        )
    )
    assert rows == [
        ("acme", "EUR", Decimal("0.9"), day, "Entered on project First"),
        ("acme", "KRW", Decimal(1350), day, "Entered on project First"),
        # Undated: from the day the project was made.
        (
            "other",
            "EUR",
            Decimal("0.95"),
            datetime.date(2026, 3, 4),
            "Entered on project Undated",
        ),
        ("other", "KRW", Decimal(1250), datetime.date(2026, 3, 4), "Bank"),
    ]
