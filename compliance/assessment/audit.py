"""The audit trail: who changed what in an assessment, before and after.

Writes go through ``AuditedQuerySet.update()`` and ``.delete()``, which record
one entry per row changed, so bulk updates are audited like single ones. The
person acting is taken from ``acting_as()``, which the services enter.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils.translation import gettext_lazy as _

from cells.models import Organisation


class AuditEntry(models.Model):
    """Who changed what in an assessment, when, with the values before and after.

    Written by the services for every change, including bulk and API writes.
    """

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="+"
    )
    # By name: the assessment's models import this module for its queryset.
    assessment = models.ForeignKey(
        "compliance.Assessment", on_delete=models.CASCADE, related_name="audit_entries"
    )
    revision_number = models.PositiveIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(max_length=30)
    object_type = models.CharField(max_length=20)
    object_key = models.CharField(max_length=40, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type} {self.object_key}"


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

    AuditEntry.objects.create(
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
        AuditEntry.objects.bulk_create(self._entries(context, "update", before, after))
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
        AuditEntry.objects.bulk_create(self._entries(context, "delete", before, {}))
        return super().delete()
