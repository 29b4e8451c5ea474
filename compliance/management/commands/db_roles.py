"""Set up the owner and app roles of PostgreSQL (``config/database_roles.py``).

    # once, connected as a superuser (DATABASE_URL):
    manage.py db_roles create --owner-url postgres://csp_owner:…@db/planner \\
                              --app-url postgres://csp_app:…@db/planner
    # after every migration, connected as the owner (DATABASE_URL):
    manage.py db_roles grant --app-url postgres://csp_app:…@db/planner
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from config import database_roles
from config.database_roles import Role


class Command(BaseCommand):
    help = (
        "create: make the owner and app roles and hand the database to the owner "
        "(as a superuser). grant: give the app role its row rights (as the owner)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("action", choices=["create", "grant"])
        parser.add_argument(
            "--owner-url",
            default="",
            help="The owner's URL (create): its user, password.",
        )
        parser.add_argument(
            "--app-url", required=True, help="The app's URL: its user (and password)."
        )
        parser.add_argument(
            "--for-tests",
            action="store_true",
            help="create: the owner may also create databases and act as the app "
            "role, as the test suite needs.",
        )

    def handle(self, *args, action: str, owner_url: str, app_url: str, **options):
        if connection.vendor != "postgresql":
            self.stdout.write("Not PostgreSQL: there are no roles to set up.")
            return
        try:
            app = Role.from_url(app_url)
            if action == "create":
                done = self._create(Role.from_url(owner_url), app, options["for_tests"])
            else:
                with connection.cursor() as cursor:
                    done = database_roles.grant_app(cursor, app=app.name)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        for statement in done:
            self.stdout.write(f"  {statement}")
        self.stdout.write(self.style.SUCCESS(f"{action}: done"))

    def _create(self, owner: Role, app: Role, for_tests: bool) -> list[str]:
        database = connection.settings_dict["NAME"]
        with connection._nodb_cursor() as nodb_cursor:
            done = database_roles.create_roles(
                nodb_cursor,
                database=database,
                owner=owner,
                app=app,
                for_tests=for_tests,
            )
        with connection.cursor() as cursor:
            return done + database_roles.hand_over(
                cursor, database=database, owner=owner, app=app
            )
