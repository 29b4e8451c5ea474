"""Whether signed revisions and the audit trail are still as they were sealed.

``revision_is_intact`` answers for one revision (the pages and the API show
it); ``integrity_report`` checks every chain and every signed revision, for
``manage.py verify_integrity``. Both check seals with the server's key
(``integrity``), so content changed and hashed again without the key, or a
signed assessment moved to another cell, shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from compliance.assessment import audit, integrity, selectors
from compliance.assessment.audit import AuditEntry
from compliance.assessment.content import content_hash
from compliance.assessment.models import Measure, Revision, RevisionStatus


@dataclass(frozen=True)
class _Moved:
    """A device or guard a signed measure names that is now in another cell."""

    link: integrity.Link
    cell_id: int


def _links(revision: Revision) -> tuple[list[integrity.Link], list[_Moved]]:
    """What the revision's measures link to, and which of those left its cell
    (one query)."""
    cell_id = revision.assessment.cell_id
    links, moved = [], []
    rows = Measure.objects.filter(hazard__revision=revision).values_list(
        "key", "device_id", "device__cell_id", "segment_id", "segment__cell_id"
    )
    for key, device_id, device_cell, segment_id, segment_cell in rows:
        for kind, target, target_cell in (
            ("device", device_id, device_cell),
            ("segment", segment_id, segment_cell),
        ):
            if target is None:
                continue
            link = integrity.Link(measure_key=str(key), kind=kind, target_id=target)
            links.append(link)
            if target_cell != cell_id:
                moved.append(_Moved(link, target_cell))
    return links, moved


def revision_payload(
    revision: Revision,
    *,
    digest: str,
    signed_at: datetime | None,
    signed_by_id: int | None,
    links: list[integrity.Link],
) -> dict[str, Any]:
    return integrity.revision_payload(
        revision_id=revision.pk,
        assessment_id=revision.assessment_id,
        cell_id=revision.assessment.cell_id,
        number=revision.number,
        content_hash=digest,
        signed_at=integrity.timestamp(signed_at),
        signed_by_id=signed_by_id,
        links=links,
    )


def signing_seal(
    revision: Revision, *, digest: str, signed_at: datetime, signed_by_id: int
) -> tuple[dict[str, Any], str]:
    """The payload and seal of ``revision`` as it is being signed (its content
    locked by the signing transaction)."""
    links, _ = _links(revision)
    payload = revision_payload(
        revision,
        digest=digest,
        signed_at=signed_at,
        signed_by_id=signed_by_id,
        links=links,
    )
    return payload, integrity.seal(audit.integrity_key(), payload)


def _current_payload(revision: Revision) -> tuple[dict[str, Any], list[_Moved]]:
    links, moved = _links(revision)
    payload = revision_payload(
        revision,
        digest=revision.content_hash,
        signed_at=revision.signed_at,
        signed_by_id=revision.signed_by_id,
        links=links,
    )
    return payload, moved


def revision_is_intact(revision: Revision) -> bool:
    """Whether a signed revision still is what was signed: its content hashes
    to its content hash, its seal (under the server's key) matches its content
    hash, cell, signer, moment and links, and what its measures name is still
    in its cell."""
    if not revision.is_signed:
        return False
    if content_hash(selectors.revision_content(revision)) != revision.content_hash:
        return False
    payload, moved = _current_payload(revision)
    return not moved and integrity.is_sealed(
        audit.integrity_key(), payload, revision.seal
    )


@dataclass
class IntegrityReport:
    """What ``integrity_report`` checked, and every break it found."""

    breaks: list[integrity.Break] = field(default_factory=list)
    # organisation id -> (sequence, seal) of its chain's newest entry
    heads: dict[int, tuple[int, str]] = field(default_factory=dict)
    entries: int = 0
    signed_revisions: int = 0


def integrity_report() -> IntegrityReport:
    """Every chain and every signed revision, checked against their seals."""
    key = audit.integrity_key()
    report = IntegrityReport()
    signings: dict[int, integrity.ChainEntry] = {}
    organisations = (
        AuditEntry.objects.order_by()
        .values_list("organisation_id", flat=True)
        .distinct()
    )
    for organisation_id in sorted(organisations):
        entries = [
            entry.chain_entry()
            for entry in AuditEntry.objects.filter(organisation_id=organisation_id)
            .order_by("sequence", "id")
            .iterator()
        ]
        report.breaks += integrity.chain_breaks(key, entries)
        report.entries += len(entries)
        report.heads[organisation_id] = (entries[-1].sequence, entries[-1].entry_hash)
        for entry in entries:
            if (
                entry.action == integrity.SIGN_ACTION
                and entry.object_type == "revision"
            ):
                signings[int(entry.object_key)] = entry
    signed = Revision.objects.filter(status=RevisionStatus.SIGNED).select_related(
        *selectors.REVISION_RELATED
    )
    for revision in signed.order_by("id").iterator():
        report.signed_revisions += 1
        report.breaks += _revision_breaks(
            key, revision, signings.pop(revision.pk, None)
        )
    for revision_id, entry in signings.items():
        report.breaks.append(
            integrity.Break(
                _entry_where(entry),
                f"the revision it records as signed (id {revision_id}) is gone "
                "or no longer signed",
            )
        )
    return report


def _entry_where(entry: integrity.ChainEntry) -> str:
    return (
        f"organisation {entry.organisation_id}, audit entry #{entry.sequence} "
        f"(id {entry.id}, {entry.action} {entry.object_type} {entry.object_key})"
    )


# The fields of a signed revision's payload, as a break names them.
_PAYLOAD_NAMES = {
    "assessment": "assessment",
    "cell": "cell",
    "number": "revision number",
    "content_hash": "content hash",
    "signed_at": "moment of signing",
    "signed_by": "signer",
    "links": "devices and guards its measures name",
}


def _revision_breaks(
    key: bytes, revision: Revision, signing: integrity.ChainEntry | None
) -> list[integrity.Break]:
    cell_id = revision.assessment.cell_id
    where = (
        f"signed revision {revision.number} of assessment {revision.assessment_id} "
        f"(revision id {revision.pk}, cell {cell_id})"
    )
    breaks = []

    def problem(text: str) -> None:
        breaks.append(integrity.Break(where, text))

    if content_hash(selectors.revision_content(revision)) != revision.content_hash:
        problem(
            "its content no longer hashes to its content hash: changed after signing"
        )
    payload, moved = _current_payload(revision)
    if not integrity.is_sealed(key, payload, revision.seal):
        problem(
            "its seal does not match its content hash, cell, signer, moment or "
            "links: changed after signing, or sealed without the key"
        )
    for item in moved:
        problem(
            f"the {item.link.kind} id {item.link.target_id} that measure "
            f"{item.link.measure_key} names is now in cell {item.cell_id}"
        )
    if signing is None:
        problem("the audit chain has no sign entry for it")
        return breaks
    recorded = (signing.after or {}).get("signed") or {}
    for name, label in _PAYLOAD_NAMES.items():
        if recorded.get(name) != payload[name]:
            problem(
                f"its {label} is {_shown(payload[name])}, but was "
                f"{_shown(recorded.get(name))} when signed "
                f"(audit entry #{signing.sequence})"
            )
    if (signing.after or {}).get("seal") != revision.seal:
        problem(
            f"its seal is not the one recorded at signing "
            f"(audit entry #{signing.sequence})"
        )
    return breaks


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return f"{len(value)} links"
    return str(value)
