"""The audit trail: who changed what in an assessment, before and after.

Writes go through ``AuditedQuerySet.update()`` and ``.delete()``, which record
one entry per row changed, so bulk updates are audited like single ones. The
person acting is taken from ``acting_as()``, which the services enter.

Entries are only ever added (``append``): each organisation's entries form a
chain sealed with the server's key (``integrity``), and on PostgreSQL the app's
role may not update or delete them (``config/database_roles.py``).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cells.models import Organisation
from compliance.assessment import integrity


class AuditEntry(models.Model):
    """Who changed what in an assessment, when, with the values before and after.

    Written by the services for every change, including bulk and API writes,
    and never changed or deleted: the trail outlives what it describes (an
    assessment deleted with its cell keeps its entries). Each entry is the
    next link of its organisation's chain: ``sequence`` counts from 1,
    ``previous_hash`` is the seal of the entry before, ``entry_hash`` its own.
    """

    # No database constraints, nothing cascades: the entries stay when the
    # organisation or the assessment they name is deleted.
    organisation = models.ForeignKey(
        Organisation,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    # By name: the assessment's models import this module for its queryset.
    assessment = models.ForeignKey(
        "compliance.Assessment",
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="audit_entries",
    )
    revision_number = models.PositiveIntegerField()
    # A person who changed an assessment is kept: deactivate the account.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    # Set when the entry is made, not when saved: the seal covers it.
    at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)
    action = models.CharField(max_length=30)
    object_type = models.CharField(max_length=20)
    object_key = models.CharField(max_length=40, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    sequence = models.PositiveBigIntegerField(editable=False)
    previous_hash = models.CharField(max_length=64, editable=False)
    entry_hash = models.CharField(
        _("seal (HMAC-SHA256)"), max_length=64, editable=False
    )

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "sequence"], name="auditentry_chain_sequence"
            )
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type} {self.object_key}"

    def chain_entry(self) -> integrity.ChainEntry:
        return integrity.ChainEntry(
            id=self.pk,
            organisation_id=self.organisation_id,
            sequence=self.sequence,
            previous_hash=self.previous_hash,
            entry_hash=self.entry_hash,
            assessment_id=self.assessment_id,
            revision_number=self.revision_number,
            actor_id=self.actor_id,
            at=integrity.timestamp(self.at),
            action=self.action,
            object_type=self.object_type,
            object_key=self.object_key,
            before=self.before,
            after=self.after,
        )


def integrity_key() -> bytes:
    return settings.INTEGRITY_KEY.encode()


# The first key of PostgreSQL's two-key advisory locks that guard the chains
# (the second is the organisation's id); any constant no one else uses.
CHAIN_LOCK = 1_302_013


def _lock_chain(organisation_id: int) -> None:
    """Hold the organisation's chain until the transaction ends, so two writers
    cannot both take the same place in it. SQLite needs nothing: its write
    transactions already run one at a time (IMMEDIATE, see settings)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)",
                [CHAIN_LOCK, organisation_id % 2**31],
            )


def append(entries: list[AuditEntry]) -> None:
    """Add ``entries`` at the end of their organisations' chains, sealed."""
    if not entries:
        return
    key = integrity_key()
    with transaction.atomic():
        by_organisation: dict[int, list[AuditEntry]] = {}
        for entry in entries:
            by_organisation.setdefault(entry.organisation_id, []).append(entry)
        for organisation_id in sorted(by_organisation):
            _lock_chain(organisation_id)
            head = (
                AuditEntry.objects.filter(organisation_id=organisation_id)
                .order_by("-sequence")
                .values_list("sequence", "entry_hash")
                .first()
            )
            sequence, previous = head or (0, integrity.GENESIS)
            for entry in by_organisation[organisation_id]:
                sequence += 1
                entry.sequence, entry.previous_hash = sequence, previous
                entry.entry_hash = integrity.seal(key, entry.chain_entry().payload())
                previous = entry.entry_hash
        AuditEntry.objects.bulk_create(entries)


_actor: contextvars.ContextVar[Any] = contextvars.ContextVar(
    "audit_actor", default=None
)


@contextlib.contextmanager
def acting_as(user) -> Iterator[None]:
    token = _actor.set(user if user is not None and user.is_authenticated else None)
    try:
        yield
    finally:
        _actor.reset(token)


def current_actor():
    return _actor.get()


def jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def record(
    *,
    organisation_id: int,
    assessment_id: int,
    revision_number: int,
    action: str,
    object_type: str,
    object_key: str = "",
    before: dict | None = None,
    after: dict | None = None,
) -> None:
    append(
        [
            AuditEntry(
                organisation_id=organisation_id,
                assessment_id=assessment_id,
                revision_number=revision_number,
                actor=current_actor(),
                action=action,
                object_type=object_type,
                object_key=object_key,
                before=jsonable(before) if before is not None else None,
                after=jsonable(after) if after is not None else None,
            )
        ]
    )


class AuditedQuerySet(models.QuerySet):
    """A queryset whose update() and delete() leave an audit entry per row.

    The model names, as ``audit_paths``, the lookups from a row to its
    organisation id, assessment id and revision number, and its ``audit_type``.
    """

    def _context(self) -> dict[int, dict[str, Any]]:
        paths = self.model.audit_paths
        rows = (
            self.values("id", "key", *paths.values())
            if hasattr(self.model, "key")
            else self.values("id", *paths.values())
        )
        return {row["id"]: row for row in rows}

    def _entries(self, context, action, before, after):

        paths = self.model.audit_paths
        actor = current_actor()
        return [
            AuditEntry(
                organisation_id=row[paths["organisation"]],
                assessment_id=row[paths["assessment"]],
                revision_number=row[paths["revision_number"]],
                actor=actor,
                action=action,
                object_type=self.model.audit_type,
                object_key=str(row.get("key", row["id"])),
                before=jsonable(before.get(pk)) if before.get(pk) is not None else None,
                after=jsonable(after.get(pk)) if after.get(pk) is not None else None,
            )
            for pk, row in context.items()
        ]

    def update(self, **kwargs: Any) -> int:

        fields = [name for name in kwargs if name != "version"]
        context = self._context()
        if not context:
            return 0
        ids = list(context)
        before = self._rows_by_id(ids, fields)
        count = super().update(**kwargs)
        after = self._rows_by_id(ids, fields)
        append(self._entries(context, "update", before, after))
        return count

    def _rows_by_id(
        self, ids: list[int], fields: list[str]
    ) -> dict[int, dict[str, Any]]:
        rows = self.model.objects.filter(id__in=ids)
        rows = rows.values("id", *fields) if fields else rows.values()
        return {row.pop("id"): row for row in rows}

    def delete(self):

        context = self._context()
        before = self._rows_by_id(list(context), [])
        # Entries first: the rows they describe are about to go.
        append(self._entries(context, "delete", before, {}))
        return super().delete()
