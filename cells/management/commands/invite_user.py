from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from cells.models import Membership, Organisation, Role


class Command(BaseCommand):
    help = (
        "Add a person to an organisation with a role. A new user gets a one-time "
        "password, printed once; they change it after signing in."
    )

    def add_arguments(self, parser):
        parser.add_argument("organisation", help="the organisation's slug")
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument("--role", choices=Role.values, default=Role.VIEWER)

    @transaction.atomic
    def handle(
        self, *args, organisation: str, username: str, email: str, role: str, **opts
    ):
        org = Organisation.objects.filter(slug=organisation).first()
        if org is None:
            raise CommandError(f"No organisation with slug {organisation!r}.")
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=username, defaults={"email": email}
        )
        password = None
        if created:
            password = secrets.token_urlsafe(12)
            user.set_password(password)
            user.save()
        membership, _ = Membership.objects.update_or_create(
            user=user, organisation=org, defaults={"role": role}
        )
        self.stdout.write(
            f"{username} is now {membership.get_role_display()} in {org.name}."
        )
        if password:
            self.stdout.write(f"One-time password: {password}")
