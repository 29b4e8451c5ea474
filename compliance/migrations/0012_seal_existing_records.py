"""Tamper-evidence, part 2: seal what was there before the seals.

Each organisation's audit entries are chained, oldest first; each signed
revision is sealed, and a ``sign`` entry carrying its seal joins the chain.
This trusts the records as they stand when the migration runs (nothing could
tell a change made before it), and it needs the key the servers will use:
run it with their ``INTEGRITY_KEY``.
"""

import importlib

from django.conf import settings
from django.db import migrations
from django.utils import timezone

from compliance.assessment import integrity

immutability = importlib.import_module(
    "compliance.migrations.0002_signed_revisions_are_immutable"
)

# The guards that refuse any change to a signed revision: lifted while the
# seal is written into revisions signed before seals existed.
LIFT = {
    "postgresql": [
        "ALTER TABLE compliance_revision DISABLE TRIGGER compliance_revision_immutable"
    ],
    "sqlite": immutability.SQLITE_REVERSE,
}
RESTORE = {
    "postgresql": [
        "ALTER TABLE compliance_revision ENABLE TRIGGER compliance_revision_immutable"
    ],
    "sqlite": immutability.SQLITE,
}


def _chain_entry(entry) -> integrity.ChainEntry:
    return integrity.ChainEntry(
        id=entry.pk or 0,
        organisation_id=entry.organisation_id,
        sequence=entry.sequence,
        previous_hash=entry.previous_hash,
        entry_hash=entry.entry_hash,
        assessment_id=entry.assessment_id,
        revision_number=entry.revision_number,
        actor_id=entry.actor_id,
        at=integrity.timestamp(entry.at),
        action=entry.action,
        object_type=entry.object_type,
        object_key=entry.object_key,
        before=entry.before,
        after=entry.after,
    )


def seal_existing(apps, schema_editor):
    AuditEntry = apps.get_model("compliance", "AuditEntry")
    Measure = apps.get_model("compliance", "Measure")
    Revision = apps.get_model("compliance", "Revision")
    key = settings.INTEGRITY_KEY.encode()
    heads: dict[int, tuple[int, str]] = {}

    def link(entry) -> None:
        sequence, previous = heads.get(entry.organisation_id, (0, integrity.GENESIS))
        entry.sequence, entry.previous_hash = sequence + 1, previous
        entry.entry_hash = integrity.seal(key, _chain_entry(entry).payload())
        heads[entry.organisation_id] = (entry.sequence, entry.entry_hash)

    for entry in AuditEntry.objects.order_by("organisation_id", "at", "id"):
        link(entry)
        AuditEntry.objects.filter(pk=entry.pk).update(
            sequence=entry.sequence,
            previous_hash=entry.previous_hash,
            entry_hash=entry.entry_hash,
        )

    signed = (
        Revision.objects.filter(status="signed", seal="")
        .select_related("assessment__cell__project")
        .order_by("id")
    )
    if not signed.exists():
        return
    immutability._run(LIFT)(apps, schema_editor)
    for revision in signed:
        links = [
            integrity.Link(str(m.key), kind, target)
            for m in Measure.objects.filter(hazard__revision=revision)
            for kind, target in (("device", m.device_id), ("segment", m.segment_id))
            if target is not None
        ]
        payload = integrity.revision_payload(
            revision_id=revision.pk,
            assessment_id=revision.assessment_id,
            cell_id=revision.assessment.cell_id,
            number=revision.number,
            content_hash=revision.content_hash,
            signed_at=integrity.timestamp(revision.signed_at),
            signed_by_id=revision.signed_by_id,
            links=links,
        )
        seal = integrity.seal(key, payload)
        Revision.objects.filter(pk=revision.pk).update(seal=seal)
        entry = AuditEntry(
            organisation_id=revision.assessment.cell.project.organisation_id,
            assessment_id=revision.assessment_id,
            revision_number=revision.number,
            actor_id=revision.signed_by_id,
            at=timezone.now(),
            action=integrity.SIGN_ACTION,
            object_type="revision",
            object_key=str(revision.pk),
            before=None,
            after={"signed": payload, "seal": seal},
        )
        link(entry)
        entry.save()
    immutability._run(RESTORE)(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("compliance", "0011_integrity_seals")]

    operations = [migrations.RunPython(seal_existing, migrations.RunPython.noop)]
