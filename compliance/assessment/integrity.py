"""Tamper-evidence for signed revisions and the audit trail (pure: stdlib only).

A content hash alone proves nothing to someone who can rewrite the database:
they change the content and hash it again with the same public function. So
every record that matters is *sealed*: an HMAC-SHA256 under a key the servers
hold (``INTEGRITY_KEY``) and the database does not.

- Each organisation's audit entries form a chain. Entry *n* carries, in
  ``previous_hash``, the seal of entry *n - 1* (``GENESIS`` for the first),
  and its own seal covers its fields and that previous seal. An entry changed,
  removed or slipped in without the key breaks the chain from there on.
- A signed revision's seal covers its content hash, its number, its assessment
  and cell, who signed and when, and what each of its measures links to.
  Signing also appends a ``sign`` entry carrying that seal to the chain, so a
  signed revision that disappears is missed by the chain too.

What the chain cannot show, without a copy of its newest seal kept elsewhere:
its newest entries cut off, or an organisation's whole chain removed with
everything it describes (see the README, "Tamper-evidence").
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

# The seal of the entry before the first of a chain.
GENESIS = "0" * 64
# The payloads' format: a later change of what is sealed gets a new number.
FORMAT = 1
SIGN_ACTION = "sign"


def canonical(payload: Mapping[str, Any]) -> bytes:
    """One spelling of a payload: sorted keys, no spaces, UTF-8."""
    return json.dumps(
        payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()


def seal(key: bytes, payload: Mapping[str, Any]) -> str:
    return hmac.new(key, canonical(payload), hashlib.sha256).hexdigest()


def is_sealed(key: bytes, payload: Mapping[str, Any], mac: str) -> bool:
    return hmac.compare_digest(seal(key, payload), mac or "")


def timestamp(moment: datetime | None) -> str:
    """A moment as sealed: ISO 8601 in UTC, to the microsecond ("" for none)."""
    if moment is None:
        return ""
    if moment.tzinfo is None:
        raise ValueError("a sealed moment must be timezone-aware")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def key_id(key: bytes) -> str:
    """A short public name of the key, to tell keys apart without showing one."""
    return hmac.new(key, b"cell-safety-planner key id", hashlib.sha256).hexdigest()[:12]


@dataclass(frozen=True)
class ChainEntry:
    """An audit entry as sealed: its fields as plain values (``at`` in ISO
    8601, UTC) and the seals."""

    id: int
    organisation_id: int
    sequence: int
    previous_hash: str
    entry_hash: str
    assessment_id: int
    revision_number: int
    actor_id: int | None
    at: str
    action: str
    object_type: str
    object_key: str
    before: Any
    after: Any

    def payload(self) -> dict[str, Any]:
        return entry_payload(
            organisation_id=self.organisation_id,
            sequence=self.sequence,
            previous_hash=self.previous_hash,
            assessment_id=self.assessment_id,
            revision_number=self.revision_number,
            actor_id=self.actor_id,
            at=self.at,
            action=self.action,
            object_type=self.object_type,
            object_key=self.object_key,
            before=self.before,
            after=self.after,
        )


def entry_payload(
    *,
    organisation_id: int,
    sequence: int,
    previous_hash: str,
    assessment_id: int,
    revision_number: int,
    actor_id: int | None,
    at: str,
    action: str,
    object_type: str,
    object_key: str,
    before: Any,
    after: Any,
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "record": "audit_entry",
        "organisation": organisation_id,
        "sequence": sequence,
        "previous": previous_hash,
        "assessment": assessment_id,
        "revision_number": revision_number,
        "actor": actor_id,
        "at": at,
        "action": action,
        "object_type": object_type,
        "object_key": object_key,
        "before": before,
        "after": after,
    }


@dataclass(frozen=True)
class Link:
    """What one measure of a signed revision names: a device or a guard
    segment of the cell, by id."""

    measure_key: str
    kind: str  # "device" or "segment"
    target_id: int


def revision_payload(
    *,
    revision_id: int,
    assessment_id: int,
    cell_id: int,
    number: int,
    content_hash: str,
    signed_at: str,
    signed_by_id: int | None,
    links: Iterable[Link],
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "record": "signed_revision",
        "revision": revision_id,
        "assessment": assessment_id,
        "cell": cell_id,
        "number": number,
        "content_hash": content_hash,
        "signed_at": signed_at,
        "signed_by": signed_by_id,
        "links": sorted(
            [link.measure_key, link.kind, link.target_id] for link in links
        ),
    }


@dataclass(frozen=True)
class Break:
    """One place where the records no longer match their seals."""

    where: str
    problem: str

    def __str__(self) -> str:
        return f"{self.where}: {self.problem}"


def chain_breaks(key: bytes, entries: Sequence[ChainEntry]) -> list[Break]:
    """Each break in one organisation's chain, its entries in sequence order.

    Every entry is checked against its own seal and its predecessor's, so one
    changed entry is named once, and entries after it still count as intact.
    """
    breaks = []
    expected, previous = 1, GENESIS
    for entry in entries:
        where = (
            f"organisation {entry.organisation_id}, audit entry #{entry.sequence} "
            f"(id {entry.id}, {entry.action} {entry.object_type} {entry.object_key})"
        )
        if entry.sequence > expected:
            missing = (
                f"#{expected}"
                if entry.sequence == expected + 1
                else f"#{expected} to #{entry.sequence - 1}"
            )
            breaks.append(Break(where, f"entries {missing} before it are missing"))
        elif entry.sequence < expected:
            breaks.append(Break(where, "its number repeats an earlier entry's"))
        if entry.sequence == expected and entry.previous_hash != previous:
            breaks.append(
                Break(where, "it does not carry the seal of the entry before it")
            )
        if not is_sealed(key, entry.payload(), entry.entry_hash):
            breaks.append(
                Break(
                    where,
                    "its seal does not match its content: changed after it was "
                    "written, or written without the key",
                )
            )
        expected, previous = max(expected, entry.sequence + 1), entry.entry_hash
    return breaks
