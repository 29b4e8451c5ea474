"""Where the texts the app wrote before 0023 came from, recovered once.

Until 0023 the app kept only the English of an accepted proposal's function
name, trigger, reaction and subsystem labels, an accepted suggestion's hazard
task and description and the space limits from the layout, and matched it
back to its message id each time it was shown. This migration does that match
one last time and stores the source beside the text
(``compliance.calculators.written``), so nothing is matched again. A text that
matches no message id (a person's own) gets no source. A signed revision's
records are never changed (the database refuses it): their texts are shown as
stored.

The message ids are read from the code as it stands when the migration runs;
if that code has gone, there is nothing left to match and nothing is done.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.db import migrations

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _matcher(msgids):
    plain, patterns = set(), []
    for msgid in dict.fromkeys(msgids):
        if not _PLACEHOLDER.search(msgid):
            plain.add(msgid)
            continue
        parts = _PLACEHOLDER.split(msgid)
        regex = "".join(
            re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)"
            for i, part in enumerate(parts)
        )
        patterns.append((re.compile(regex, re.DOTALL), msgid))
    patterns.sort(key=lambda item: (-len(item[0].groupindex), -len(item[1])))

    def match(text):
        if not text:
            return None
        if text in plain:
            return {"text": text, "values": {}}
        for pattern, msgid in patterns:
            found = pattern.fullmatch(text)
            if found:
                return {"text": msgid, "values": found.groupdict()}
        return None

    return match


def _noop_texts(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "gettext_noop"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ]


def _sources(match, record, fields):
    texts = {}
    for field in fields:
        found = match(getattr(record, field))
        if found is not None:
            texts[field] = found
    return texts or None


def backfill(apps, schema_editor):
    try:
        from compliance.assessment import space_limits
        from compliance.assessment.hazards import suggestions
        from compliance.safety_functions import proposing
    except ImportError:  # the code it matched against has gone
        return
    functions = _matcher(_noop_texts(Path(proposing.__file__)))
    every = getattr(suggestions, "_every_suggestion", lambda: ())()
    hazards = _matcher([t for s in every for t in (s.task, s.rationale)])
    zones = _matcher([space_limits.ZONE_CIRCLE, space_limits.ZONE_POLYGON])
    limits = _matcher([space_limits.TEXT])

    SafetyFunction = apps.get_model("compliance", "SafetyFunction")
    Subsystem = apps.get_model("compliance", "Subsystem")
    Hazard = apps.get_model("compliance", "Hazard")
    Revision = apps.get_model("compliance", "Revision")
    for function in SafetyFunction.objects.filter(texts__isnull=True).iterator():
        texts = _sources(functions, function, ("name", "trigger", "reaction"))
        if texts:
            SafetyFunction.objects.filter(pk=function.pk).update(texts=texts)
    for subsystem in Subsystem.objects.filter(texts__isnull=True).iterator():
        texts = _sources(functions, subsystem, ("label",))
        if texts:
            Subsystem.objects.filter(pk=subsystem.pk).update(texts=texts)
    drafts = Revision.objects.exclude(status="signed")
    for hazard in Hazard.objects.filter(
        texts__isnull=True, revision__in=drafts
    ).iterator():
        texts = _sources(hazards, hazard, ("task", "description"))
        if texts:
            Hazard.objects.filter(pk=hazard.pk).update(texts=texts)
    for revision in drafts.filter(texts__isnull=True).iterator():
        found = limits(revision.space_limits)
        zone = zones(found["values"].get("zone", "")) if found else None
        if zone is not None:
            found["values"]["zone"] = zone
            Revision.objects.filter(pk=revision.pk).update(
                texts={"space_limits": found}
            )


class Migration(migrations.Migration):
    dependencies = [("compliance", "0023_stored_text_sources")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
