from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from cells.auth import api_token_create

MAX_DAYS = 365


class Command(BaseCommand):
    help = (
        "Make an API token for a user and print it, once (the server keeps only "
        "its digest). It expires after --days (default: the API_TOKEN_TTL_DAYS "
        "setting); revoke it with revoke_api_tokens or in the admin."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument(
            "--days", type=int, help=f"days until it expires (1 to {MAX_DAYS})"
        )

    def handle(self, *args, username: str, days: int | None, **opts):
        if days is not None and not 1 <= days <= MAX_DAYS:
            raise CommandError(f"--days must be from 1 to {MAX_DAYS}.")
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user {username!r}.")
        if not user.is_active:
            raise CommandError(f"{username} is not active.")
        instance, token = api_token_create(user=user, days=days)
        expiry = timezone.localtime(instance.expiry).isoformat(timespec="minutes")
        # The token alone on stdout, so `TOKEN=$(manage.py create_api_token me)`
        # works; what it is on stderr.
        self.stderr.write(f"API token for {username}, valid until {expiry}:")
        self.stdout.write(token)
