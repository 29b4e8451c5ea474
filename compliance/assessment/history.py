"""The assessment's history told as a story: who did what, in words.

The audit trail (``audit.AuditEntry``) keeps raw rows: ids, choice keys,
ISO timestamps in UTC, lists. This module only reads it and turns a page of
entries into sentences ("Kim Safety signed revision 3"), with each changed
value before → after as a reader wants it: a person's or a device's name
instead of its id, a choice's label, lists joined, yes/no, times in the
reader's time zone, long texts shortened (the full text kept beside).

Names are looked up for the whole page at once, one query per kind (people,
devices, guard segments, hazards, measures), so a page costs the same
number of queries whatever it shows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cells.models import Device, GuardSegment
from compliance.assessment import integrity
from compliance.assessment.audit import AuditEntry
from compliance.assessment.hazards import catalogue
from compliance.assessment.models import (
    Hazard,
    Measure,
    Revision,
    RevisionStatus,
)
from compliance.assessment.services import LIMIT_FIELDS

# A value longer than this is shown shortened, its full text beside it.
SHORT_CHARS = 80
PER_PAGE = 50

# Readable names of the fields a diff or the history can name, by field name
# and by column name (a deleted row's values are keyed ``device_id``).
FIELD_LABELS: dict[str, Any] = {
    name: model_field.verbose_name
    for model in (Revision, Hazard, Measure)
    for model_field in model._meta.fields
    for name in {model_field.name, model_field.attname}
}
FIELD_LABELS.update(
    {
        "link_kind": gettext_lazy("linked to"),
        "linked_label": gettext_lazy("linked to"),
        "location_label": gettext_lazy("where in the cell"),
        "submitted_by": gettext_lazy("submitted by"),
        "submitted_at": gettext_lazy("submitted on"),
        "approved_by": gettext_lazy("approved by"),
        "approved_at": gettext_lazy("approved on"),
        "signed_by": gettext_lazy("signed by"),
        "signed_at": gettext_lazy("signed on"),
        "created_by": gettext_lazy("created by"),
        "based_on": gettext_lazy("based on revision"),
        # A measure's text is its "measure" in the form; in a sentence about
        # a measure, its description.
        "description": gettext_lazy("description"),
    }
)
for _name in ("submitted_by", "approved_by", "signed_by", "created_by"):
    FIELD_LABELS[f"{_name}_id"] = FIELD_LABELS[_name]

# Fields a reader has no use for in the history: ids, keys, counters, and the
# location's key (its label says where).
HIDDEN = {
    "id",
    "key",
    "version",
    "order",
    "revision",
    "revision_id",
    "hazard",
    "hazard_id",
    "assessment",
    "assessment_id",
    "location_key",
    "dismissed_suggestions",
    "number",
}
PEOPLE = {"submitted_by", "approved_by", "signed_by", "created_by"}
HASHES = {"content_hash", "seal"}
# A step of the workflow says who and when in its sentence already.
WORKFLOW_SAID = {
    "status",
    *PEOPLE,
    "submitted_at",
    "approved_at",
    "signed_at",
    # The seal's own entry shows them.
    *HASHES,
}

# Kinds of change the history can be filtered by, with what each keeps.
KINDS = {
    "hazard": (gettext_lazy("Hazards"), Q(object_type="hazard")),
    "measure": (gettext_lazy("Measures"), Q(object_type="measure")),
    "limits": (
        gettext_lazy("Limits of the machine"),
        Q(object_type="revision", action="update", after__has_any_keys=LIMIT_FIELDS),
    ),
    "workflow": (
        gettext_lazy("Revisions, review and signing"),
        Q(object_type="revision")
        & (
            Q(action__in=["create", integrity.SIGN_ACTION])
            | Q(action="update", after__has_key="status")
        ),
    ),
    "suggestions": (
        gettext_lazy("Suggested hazards discarded"),
        Q(object_type="revision", after__has_key="dismissed_suggestions"),
    ),
}


def person_name(user) -> str:
    """The full name, or the username where none is recorded."""
    if user is None:
        return _("The system")
    return user.get_full_name().strip() or user.get_username()


def local_time(moment: dt.datetime) -> dt.datetime:
    return timezone.localtime(moment)


def format_time(moment: dt.datetime) -> str:
    """A moment in the reader's time zone, with the zone named: 2026-12-01 14:05 KST."""
    local = local_time(moment)
    return f"{formats.date_format(local, 'Y-m-d H:i')} {local.tzname()}"


@dataclass(frozen=True)
class Value:
    """One value as shown: ``text`` (shortened when long) and ``full``, the
    whole text where it was shortened."""

    text: str
    full: str = ""


@dataclass(frozen=True)
class Change:
    label: str
    before: Value | None
    after: Value | None


@dataclass
class Story:
    """One audit entry told as a sentence, with what it changed."""

    entry: AuditEntry
    actor: str
    at: dt.datetime
    at_text: str
    sentence: str
    subject: str = ""
    changes: list[Change] = field(default_factory=list)


def _shortened(text: str) -> Value:
    if len(text) <= SHORT_CHARS:
        return Value(text)
    return Value(text[: SHORT_CHARS - 1].rstrip() + "…", text)


class Names:
    """The names of what a page of entries refers to by id or key, looked up
    once for the page: one query per kind that occurs."""

    def __init__(self, entries: list[AuditEntry], assessment_id: int) -> None:
        user_ids: set[int] = set()
        device_ids: set[int] = set()
        segment_ids: set[int] = set()
        hazard_keys: set[str] = set()
        hazard_ids: set[int] = set()
        measure_keys: set[str] = set()
        # What a deleted row's last values say: the hazard's place and task,
        # the measure's hazard (no row is left to look them up in).
        self.deleted_hazards: dict[str, tuple[int | None, str]] = {}
        self.deleted_measures: dict[str, int | None] = {}
        for entry in entries:
            if entry.action == "delete" and entry.before:
                if entry.object_type == "hazard":
                    self.deleted_hazards[entry.object_key] = (
                        entry.before.get("order"),
                        entry.before.get("task", ""),
                    )
                elif entry.object_type == "measure":
                    self.deleted_measures[entry.object_key] = entry.before.get(
                        "hazard_id"
                    )
            for values in (entry.before or {}, entry.after or {}):
                for name, value in values.items():
                    if not isinstance(value, int) or isinstance(value, bool):
                        continue
                    base = name.removesuffix("_id")
                    if base in PEOPLE:
                        user_ids.add(value)
                    elif base == "device":
                        device_ids.add(value)
                    elif base == "segment":
                        segment_ids.add(value)
                    elif base == "hazard":
                        hazard_ids.add(value)
            if entry.object_type == "hazard":
                hazard_keys.add(entry.object_key)
            elif entry.object_type == "measure":
                measure_keys.add(entry.object_key)
        self.users = self._users(user_ids)
        self.devices = self._labels(Device, device_ids)
        self.segments = self._labels(GuardSegment, segment_ids)
        self.hazards, self.hazards_by_id = self._hazards(
            assessment_id, _valid_keys(hazard_keys), hazard_ids
        )
        self.measures = self._measures(assessment_id, _valid_keys(measure_keys))

    @staticmethod
    def _users(ids: set[int]) -> dict[int, str]:
        if not ids:
            return {}
        return {
            user.pk: person_name(user)
            for user in get_user_model().objects.filter(pk__in=ids)
        }

    @staticmethod
    def _labels(model, ids: set[int]) -> dict[int, str]:
        if not ids:
            return {}
        return dict(model.objects.filter(pk__in=ids).values_list("pk", "label"))

    @staticmethod
    def _hazards(assessment_id: int, keys: set[str], ids: set[int]):
        by_key: dict[tuple[str, int], tuple[int, str]] = {}
        by_id: dict[int, tuple[int, str]] = {}
        if not keys and not ids:
            return by_key, by_id
        rows = Hazard.objects.filter(
            Q(key__in=keys) | Q(pk__in=ids), revision__assessment_id=assessment_id
        ).values_list("pk", "key", "revision__number", "order", "task")
        for pk, key, number, order, task in rows:
            by_key[(str(key), number)] = (order, task)
            by_id[pk] = (order, task)
        return by_key, by_id

    @staticmethod
    def _measures(assessment_id: int, keys: set[str]):
        if not keys:
            return {}
        rows = Measure.objects.filter(
            key__in=keys, hazard__revision__assessment_id=assessment_id
        ).values_list("key", "hazard__revision__number", "description", "hazard__order")
        return {
            (str(key), number): (description, order)
            for key, number, description, order in rows
        }


def _without(values: dict | None, names: set[str]) -> dict:
    return {k: v for k, v in (values or {}).items() if k not in names}


def _valid_keys(keys: Iterable[str]) -> set[str]:
    """The keys that are UUIDs (a revision's entries carry its id instead)."""
    import uuid

    valid = set()
    for key in keys:
        try:
            valid.add(str(uuid.UUID(key)))
        except ValueError:
            continue
    return valid


def _hazard_ref(order: int | None, task: str = "") -> str:
    """H2, as the register numbers it; the task where its place is unknown."""
    if order:
        return _("H%(order)s") % {"order": order}
    return f"“{task}”" if task else _("(removed)")


class Teller:
    """Tells a page of entries, with the page's ``Names``."""

    def __init__(self, names: Names) -> None:
        self.names = names

    # Values ------------------------------------------------------------------

    def value(self, name: str, raw: Any, values: dict) -> Value:
        base = name.removesuffix("_id") if name.endswith("_id") else name
        if raw is None or raw == "" or raw == []:
            return Value("—")
        if isinstance(raw, bool):
            return Value(_("yes") if raw else _("no"))
        if base in PEOPLE and isinstance(raw, int):
            return Value(self.names.users.get(raw, _("a former user")))
        if base == "device" and isinstance(raw, int):
            return Value(
                self.names.devices.get(raw) or values.get("linked_label") or "—"
            )
        if base == "segment" and isinstance(raw, int):
            return Value(
                self.names.segments.get(raw) or values.get("linked_label") or "—"
            )
        if base in HASHES and isinstance(raw, str):
            return Value(raw[:12] + "…", raw)
        if name.endswith("_at") and isinstance(raw, str):
            moment = parse_datetime(raw)
            if moment is not None:
                if timezone.is_naive(moment):
                    moment = timezone.make_aware(moment, dt.UTC)
                return Value(format_time(moment))
        if name == "exposed_persons" and isinstance(raw, list):
            return _shortened(", ".join(self._person(p) for p in raw))
        if name in ("group", "origin", "consequence") and isinstance(raw, str):
            return Value(self._catalogue(name, raw, values))
        label = self._choice(name, raw)
        if label is not None:
            return Value(label)
        if isinstance(raw, list):
            return _shortened(", ".join(str(v) for v in raw))
        if isinstance(raw, dict):
            return _shortened(
                "; ".join(f"{self.label(k)}: {v}" for k, v in raw.items())
            )
        return _shortened(str(raw))

    @staticmethod
    def _person(person_id: Any) -> str:
        try:
            return _(catalogue.exposed_person(str(person_id)).label)
        except (KeyError, ValueError):
            return str(person_id)

    @staticmethod
    def _catalogue(name: str, raw: str, values: dict) -> str:
        try:
            if name == "group":
                return _(catalogue.group(raw).name)
            lookup = catalogue.origin if name == "origin" else catalogue.consequence
            return _(lookup(values.get("group", ""), raw).text)
        except (KeyError, ValueError):
            return raw

    @staticmethod
    def _choice(name: str, raw: Any) -> str | None:
        for model in (Hazard, Measure, Revision):
            try:
                model_field = model._meta.get_field(name)
            except Exception:
                continue
            if model_field.choices:
                for key, label in model_field.flatchoices:
                    if key == raw:
                        return str(_(label)) if label else str(raw)
                return None
        return None

    @staticmethod
    def label(name: str) -> str:
        label = FIELD_LABELS.get(name)
        if label is None:
            return _("another field")
        return str(label)

    def changes(self, before: dict | None, after: dict | None) -> list[Change]:
        before, after = before or {}, after or {}
        shown = []
        names = [n for n in after if n not in HIDDEN]
        names += [n for n in before if n not in HIDDEN and n not in after]
        has_link = any(n.removesuffix("_id") in ("device", "segment") for n in names)
        for name in names:
            if name == "linked_label" and has_link:
                continue
            old, new = before.get(name), after.get(name)
            if name in before and name in after and old == new:
                continue
            shown.append(
                Change(
                    self.label(name),
                    self.value(name, old, before) if name in before else None,
                    self.value(name, new, after) if name in after else None,
                )
            )
        return shown

    # Sentences ---------------------------------------------------------------

    def story(self, entry: AuditEntry) -> Story:
        actor = person_name(entry.actor)
        story = Story(
            entry=entry,
            actor=actor,
            at=local_time(entry.at),
            at_text=format_time(entry.at),
            sentence="",
        )
        teller = {
            "revision": self._revision,
            "hazard": self._hazard,
            "measure": self._measure,
        }.get(entry.object_type, self._other)
        teller(entry, story)
        return story

    def _revision(self, entry: AuditEntry, story: Story) -> None:
        who, number = story.actor, entry.revision_number
        after = entry.after or {}
        if entry.action == "create":
            if "based_on" in after:
                story.sentence = _(
                    "%(actor)s started revision %(number)s from signed revision "
                    "%(based_on)s"
                ) % {"actor": who, "number": number, "based_on": after["based_on"]}
            else:
                story.sentence = _(
                    "%(actor)s started the risk assessment with revision %(number)s"
                ) % {"actor": who, "number": number}
            return
        if entry.action == integrity.SIGN_ACTION:
            signed = after.get("signed") or {}
            story.sentence = _(
                "%(actor)s sealed the signature of revision %(number)s in the "
                "audit trail"
            ) % {"actor": who, "number": number}
            story.changes = [
                Change(
                    self.label("content_hash"),
                    None,
                    self.value("content_hash", signed.get("content_hash"), {}),
                ),
                Change(
                    self.label("seal"), None, self.value("seal", after.get("seal"), {})
                ),
            ]
            return
        if entry.action == "update" and "status" in after:
            sentences = {
                RevisionStatus.IN_REVIEW: _(
                    "%(actor)s submitted revision %(number)s for review"
                ),
                RevisionStatus.DRAFT: _(
                    "%(actor)s sent revision %(number)s back to draft"
                ),
                RevisionStatus.APPROVED: _("%(actor)s approved revision %(number)s"),
                RevisionStatus.SIGNED: _("%(actor)s signed revision %(number)s"),
            }
            template = sentences.get(
                after["status"], _("%(actor)s changed revision %(number)s")
            )
            story.sentence = template % {"actor": who, "number": number}
            story.changes = self.changes(
                _without(entry.before, WORKFLOW_SAID), _without(after, WORKFLOW_SAID)
            )
            return
        if entry.action == "update" and "dismissed_suggestions" in after:
            story.sentence = _(
                "%(actor)s discarded a suggested hazard in revision %(number)s"
            ) % {"actor": who, "number": number}
            return
        changes = self.changes(entry.before, entry.after)
        if entry.action == "update" and set(after) & set(LIMIT_FIELDS):
            story.sentence = _(
                "%(actor)s changed the limits of the machine of revision %(number)s"
            ) % {"actor": who, "number": number}
        else:
            story.sentence = _("%(actor)s changed revision %(number)s") % {
                "actor": who,
                "number": number,
            }
        story.changes = changes

    def _hazard_of(self, entry: AuditEntry) -> tuple[str, str]:
        """The hazard's reference (H2) and its task, as far as known."""
        found = self.names.hazards.get(
            (entry.object_key, entry.revision_number)
        ) or self.names.deleted_hazards.get(entry.object_key)
        values = entry.before or entry.after or {}
        order = found[0] if found else values.get("order")
        task = found[1] if found else values.get("task", "")
        return _hazard_ref(order, task), task

    def _hazard(self, entry: AuditEntry, story: Story) -> None:
        ref, task = self._hazard_of(entry)
        story.subject = task if task not in ref else ""
        args = {"actor": story.actor, "hazard": ref, "number": entry.revision_number}
        if entry.action == "create":
            story.sentence = (
                _("%(actor)s added hazard %(hazard)s to revision %(number)s") % args
            )
            story.changes = [
                c
                for c in self.changes(None, entry.after)
                if c.after and c.after.text not in ("—", _("no"))
            ]
        elif entry.action == "delete":
            story.sentence = (
                _("%(actor)s deleted hazard %(hazard)s from revision %(number)s") % args
            )
        else:
            self._changed(
                story,
                self.changes(entry.before, entry.after),
                one=_(
                    "%(actor)s changed hazard %(hazard)s’s %(field)s: %(before)s → %(after)s"
                ),
                many=_("%(actor)s changed hazard %(hazard)s"),
                args=args,
            )

    def _measure(self, entry: AuditEntry, story: Story) -> None:
        found = self.names.measures.get((entry.object_key, entry.revision_number))
        values = entry.before or entry.after or {}
        if found:
            description, order = found
        else:
            description = (entry.after or {}).get("description") or values.get(
                "description", ""
            )
            hazard_id = values.get("hazard_id") or self.names.deleted_measures.get(
                entry.object_key
            )
            hazard = self.names.hazards_by_id.get(hazard_id)
            order = hazard[0] if hazard else None
        args = {
            "actor": story.actor,
            "hazard": _hazard_ref(order),
            "measure": description,
        }
        story.subject = description
        if entry.action == "create":
            story.sentence = _("%(actor)s added a measure to hazard %(hazard)s") % args
            story.changes = [
                c
                for c in self.changes(None, entry.after)
                if c.after and c.after.text not in ("—", _("no"))
            ]
        elif entry.action == "delete":
            story.sentence = (
                _("%(actor)s deleted a measure of hazard %(hazard)s") % args
            )
        else:
            self._changed(
                story,
                self.changes(entry.before, entry.after),
                one=_(
                    "%(actor)s changed the %(field)s of a measure of hazard "
                    "%(hazard)s: %(before)s → %(after)s"
                ),
                many=_("%(actor)s changed a measure of hazard %(hazard)s"),
                args=args,
            )

    @staticmethod
    def _changed(story: Story, changes: list[Change], *, one, many, args) -> None:
        """One short change goes into the sentence; several are listed."""
        if len(changes) == 1:
            change = changes[0]
            before = change.before or Value("—")
            after = change.after or Value("—")
            if not before.full and not after.full:
                if story.subject in (before.text, after.text):
                    story.subject = ""
                story.sentence = one % {
                    **args,
                    "field": change.label,
                    "before": before.text,
                    "after": after.text,
                }
                return
        story.sentence = many % args
        story.changes = changes

    def _other(self, entry: AuditEntry, story: Story) -> None:
        story.sentence = _("%(actor)s changed revision %(number)s") % {
            "actor": story.actor,
            "number": entry.revision_number,
        }
        story.changes = self.changes(entry.before, entry.after)


def tell(entries: list[AuditEntry], assessment_id: int) -> list[Story]:
    """The page's entries as stories, newest first as given."""
    teller = Teller(Names(entries, assessment_id))
    return [teller.story(entry) for entry in entries]
