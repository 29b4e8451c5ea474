from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils.text import slugify

from cells.models import Organisation


class Command(BaseCommand):
    help = "Create an organisation (a tenant). Prints its slug for invite_user."

    def add_arguments(self, parser):
        parser.add_argument("name")
        parser.add_argument("--slug", default="")

    def handle(self, *args, name: str, slug: str, **options):
        slug = slug or slugify(name)
        if not slug:
            raise CommandError(
                "Give a --slug: the name has no letters to make one from."
            )
        if Organisation.objects.filter(slug=slug).exists():
            raise CommandError(f"An organisation with slug {slug!r} exists already.")
        organisation = Organisation.objects.create(name=name, slug=slug)
        # Its device library starts with the reference's entries.
        from compliance.safety_functions.library.services import library_seed

        added = library_seed(organisation=organisation)
        self.stdout.write(f"Created organisation {organisation.name} (slug: {slug}).")
        self.stdout.write(f"Its device library starts with {added} reference entries.")
