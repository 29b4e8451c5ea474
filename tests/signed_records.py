"""Signed risk assessments cannot be deleted, not even by the test database's
flush on SQLite (PostgreSQL truncates, which row triggers do not see). Tests
that commit signed records (browser tests) remove them with this on teardown."""

from __future__ import annotations

import importlib

from django.db import connection

immutability = importlib.import_module(
    "compliance.migrations.0002_signed_revisions_are_immutable"
)


def remove_signed_records() -> None:
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        for statement in immutability.SQLITE_REVERSE:
            cursor.execute(statement)
        for table in (
            "compliance_auditentry",
            "compliance_measure",
            "compliance_hazard",
            "compliance_revision",
            "compliance_assessment",
        ):
            cursor.execute(f"DELETE FROM {table}")
        for statement in immutability.SQLITE:
            cursor.execute(statement)
