"""``makemessages`` that also collects the texts of the data in ``fixtures/``.

The hazard catalogue, the cost catalogue and the device library are JSON files whose English texts
are message ids, translated when shown. xgettext reads only code, so for the
length of the run the texts are written to a Python file of ``gettext_noop``
calls in the project folder, where Django's command finds them, and the file
is removed again afterwards.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.commands import makemessages

from compliance.assessment.hazards import catalogue as hazards
from compliance.costs import catalogue as costs
from compliance.safety_functions.library import catalogue as library

COLLECTOR = "fixture_messages_tmp.py"


def fixture_messages() -> tuple[str, ...]:
    """Every text of the fixtures that the pages show translated."""
    return tuple(
        dict.fromkeys(
            hazards.fixture_messages()
            + costs.fixture_messages()
            + library.fixture_messages()
        )
    )


def collector_source(messages: tuple[str, ...]) -> str:
    lines = [
        "# Written by makemessages for the texts of fixtures/; removed after.",
        "from django.utils.translation import gettext_noop",
        "",
    ]
    lines += [f"gettext_noop({message!r})" for message in messages]
    return "\n".join(lines) + "\n"


class Command(makemessages.Command):
    help = makemessages.Command.help + " Includes the texts of fixtures/."

    def handle(self, *args, **options):
        path = Path(settings.BASE_DIR) / COLLECTOR
        path.write_text(collector_source(fixture_messages()), encoding="utf-8")
        try:
            return super().handle(*args, **options)
        finally:
            path.unlink(missing_ok=True)
