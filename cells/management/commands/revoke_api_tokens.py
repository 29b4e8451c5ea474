from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from cells.auth import api_tokens_revoke


class Command(BaseCommand):
    help = "Revoke every API token of a user (they log in again for a new one)."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, username: str, **opts):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user {username!r}.")
        count = api_tokens_revoke(user=user)
        self.stdout.write(f"{count} token(s) of {username} revoked.")
