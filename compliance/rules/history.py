"""The rule set's versions: what each release of the app changed in the rules,
and the stamp a set of findings records of the rules it was computed under.
Pure Python, no Django.

Each rule has a fingerprint: a short SHA-256 of what it says and how it
checks (its id, jurisdiction, citation, its text in English and the Korean
the catalogue gives it, certainty, volatility, caveat, sources and
``Rule.revision``, which is raised by hand when the check itself changes).
``ruleset_history.json`` keeps, for every release of the rules, the
fingerprint of every rule then; ``RELEASE_NOTES`` below says in words what
each release changed. A test fails when the rules in the code no
longer match the newest release: a change to a rule is recorded as a new
release, with its note, before it ships (``manage.py record_rules_release
<version> <date>`` writes the fingerprints).

A stamp (``ComputedUnder``) names the release, the packs applied with their
versions, the editions of the standards computed with, and the fingerprint
of each rule applied. Findings, signed revisions and proposal documents keep
one; ``superseded`` compares a kept stamp with the rules of today and gives
the difference rule by rule.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from compliance.calculators.base import gettext_noop

if TYPE_CHECKING:
    from compliance.rules.findings import Rule

HISTORY_FILE = Path(__file__).with_name("ruleset_history.json")
# The Korean of the rules' texts: the catalogue's source, as shipped (the
# compiled .mo is a build product; the fingerprint follows what is written).
LOCALE = Path(__file__).resolve().parents[2] / "locale"
CATALOGUE = LOCALE / "ko" / "LC_MESSAGES" / "django.po"

# What each release changed, in words (marked for the catalogue). Version 1
# is the rule set as it stood before releases were recorded (issue 17): a
# stamp kept before then (a signed revision or a proposal without one) is
# read as computed under version 1.
RELEASE_NOTES: dict[int, str] = {
    1: gettext_noop("The rules as they stood before releases were recorded."),
    2: gettext_noop(
        "Standards editions and jurisdictions: ISO 13855:2024 beside 2010, ISO "
        "10218:2025 robot classes and cybersecurity, ISO 13849-1:2023 cited, "
        "the robot's safety configuration, the EU Machinery Directive and "
        "Regulation packs and the US pack."
    ),
    3: gettext_noop(
        "Guarding concepts: a light curtain or grid closes the opening it guards "
        "only where it spans it, stands in its plane or has its sides closed, and "
        "covers its height; an opening is guarded no better than its devices; a "
        "narrow gap is judged by ISO 13857 Table 4; a Korean collaborative cell "
        "without a fence needs the KIRIA certification rather than failing."
    ),
    4: gettext_noop(
        "Safety laser scanners: a protective field is judged as drawn on the plan, "
        "round its scanner; every approach no guard closes must lie inside a field "
        "from S out to the hazard zone, or fails at that side."
    ),
    5: gettext_noop(
        "Robot programs: with the robot's program imported, power and force "
        "limiting and speed and separation monitoring judge each straight move at "
        "its own speed where people stand, cite the failing moves by line and say "
        "which joint moves are not checked."
    ),
}

# Why a rule changed in a release, by (version, rule id); a rule added or
# removed needs no note.
CHANGE_NOTES: dict[tuple[int, str], str] = {
    (5, "INTL-15066-pfl"): gettext_noop(
        "With a robot program imported, each straight move is judged at its own "
        "speed within reach of each operator station (the station's exposed "
        "regions with those the signed assessment names); the worst move decides "
        "and the failing moves are cited by line."
    ),
    (5, "INTL-15066-ssm"): gettext_noop(
        "With a robot program imported, S_p is computed at each straight move's "
        "speed and kept from each operator station and from the protective "
        "field's boundary; a fail names the station and the shortfall."
    ),
    (2, "INTL-13855-distance"): gettext_noop(
        "Now applies to projects computing with ISO 13855:2010 only; "
        "INTL-13855-2024-distance covers ISO 13855:2024."
    ),
    (2, "INTL-13849-function"): gettext_noop(
        "Cites ISO 13849-1:2023 (6.1.8, and Clause 10 for the validation) in "
        "place of the 2015 edition and ISO 13849-2."
    ),
    (2, "INTL-61496-type"): gettext_noop(
        "Cites ISO 13849-1:2023 for the PLr; the check is unchanged."
    ),
    (2, "INTL-15066-pfl"): gettext_noop(
        "Says where ISO 10218-2:2025 holds the body-model limits (Annex M, one "
        "secondary source, not confirmed); the limits and the check are "
        "unchanged."
    ),
    (2, "INTL-15066-mode"): gettext_noop(
        "Its Korean text names collaborative applications without the English "
        "term beside it; the check is unchanged."
    ),
    (2, "INTL-safeguarded-space"): gettext_noop(
        "Speaks of collaborative applications, as ISO 10218:2025 does, rather "
        "than collaborative robots; the check is unchanged."
    ),
    (3, "INTL-safeguarded-space"): gettext_noop(
        "A gap narrow enough for ISO 13857 Table 4 is judged as an opening by "
        "its width and distance; one out of reach closes the perimeter."
    ),
    (3, "INTL-opening-guarded"): gettext_noop(
        "A light curtain or grid closes its opening only where it spans it, "
        "stands in its plane or has its sides closed, and covers its height; "
        "the opening is guarded no better than the devices it relies on."
    ),
    (3, "INTL-13855-distance"): gettext_noop(
        "A device in front of its guard is reached over at its own top beam, "
        "not at the fence above the opening."
    ),
    (3, "KR-223-fence-height"): gettext_noop(
        "A collaborative application without a fence needs the KIRIA "
        "certification and the conformity route (needs evidence) rather than "
        "failing."
    ),
    (4, "INTL-15066-ssm"): gettext_noop(
        "S_p is compared with the field as drawn on the plan "
        "(INTL-scanner-approach), not with a typed depth; a scanner not on the "
        "plan needs evidence."
    ),
    (4, "INTL-opening-guarded"): gettext_noop(
        "An opening a scanner guards is guarded no better than the field covers "
        "the way in through it."
    ),
    (4, "INTL-13855-2024-distance"): gettext_noop(
        "A scanner's verdict is never better than its field as drawn on the plan."
    ),
    (3, "KR-cobot-route"): gettext_noop(
        "Names the KIRIA certificate among what is missing when the conformity "
        "route is not recorded."
    ),
}

Change = Literal["added", "changed", "removed"]


@functools.cache
def _catalogue() -> dict[str, str]:
    """Every translated message of the Korean catalogue, read once."""
    from babel.messages.pofile import read_po

    with CATALOGUE.open("rb") as handle:
        return {
            message.id: message.string
            for message in read_po(handle)
            if isinstance(message.id, str) and message.id and not message.fuzzy
        }


def korean(text: str) -> str:
    """The catalogue's Korean of a rule's text; "" when it has none."""
    return _catalogue().get(text, "")


def fingerprint(rule: Rule) -> str:
    """What the rule says and how it checks, as 12 hex digits."""
    data = {
        "id": rule.id,
        "jurisdiction": rule.jurisdiction,
        "citation": rule.citation,
        # Both languages, under the names they had when a rule carried its
        # Korean itself: the fingerprints recorded then still hold.
        "text_en": rule.text,
        "text_ko": korean(rule.text),
        "certainty": str(rule.certainty),
        "volatility": rule.volatility,
        "caveat": rule.caveat,
        "sources": list(rule.sources),
        "revision": getattr(rule, "revision", 1),
    }
    if getattr(rule, "edition", None):
        data["edition"] = list(rule.edition)
    text = json.dumps(data, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def fingerprints(rules: Iterable[Rule]) -> dict[str, str]:
    return {rule.id: fingerprint(rule) for rule in rules}


@dataclass(frozen=True)
class Release:
    """One release of the rule set: its number, date, and every rule's
    fingerprint then."""

    version: int
    released_on: date
    rules: Mapping[str, str]

    @property
    def note(self) -> str:
        return RELEASE_NOTES.get(self.version, "")


def _load() -> tuple[Release, ...]:
    data = json.loads(HISTORY_FILE.read_text(encoding="utf-8"))
    return tuple(
        Release(
            version=int(item["version"]),
            released_on=date.fromisoformat(item["released_on"]),
            rules=dict(item["rules"]),
        )
        for item in data["releases"]
    )


RELEASES: tuple[Release, ...] = _load()
CURRENT: Release = RELEASES[-1]


def release(version: int) -> Release | None:
    return next((r for r in RELEASES if r.version == version), None)


class RuleEvent(BaseModel):
    """One step in a rule's history: added, changed or removed in a release."""

    model_config = ConfigDict(frozen=True)

    version: int
    released_on: date
    change: Change
    note: str = ""  # English, marked for the catalogue; "" when none


def rule_history(rule_id: str) -> tuple[RuleEvent, ...]:
    """Every release that added, changed or removed ``rule_id``, oldest first."""
    events: list[RuleEvent] = []
    before: str | None = None
    for item in RELEASES:
        now = item.rules.get(rule_id)
        change: Change | None = None
        if now is not None and before is None:
            change = "added"
        elif now is None and before is not None:
            change = "removed"
        elif now != before:
            change = "changed"
        if change is not None:
            events.append(
                RuleEvent(
                    version=item.version,
                    released_on=item.released_on,
                    change=change,
                    note=CHANGE_NOTES.get((item.version, rule_id), ""),
                )
            )
        before = now
    return tuple(events)


def removed_rules() -> tuple[str, ...]:
    """Rules some release had that the newest has not, in order first seen."""
    seen = dict.fromkeys(rule for item in RELEASES for rule in item.rules)
    return tuple(rule for rule in seen if rule not in CURRENT.rules)


# --- stamps -----------------------------------------------------------------


class ComputedUnder(BaseModel):
    """The rules a set of findings was computed under: the release, the packs
    applied (key: the release that last changed it), the editions of the
    standards (key: year) and each rule applied (id: fingerprint)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ruleset: int = Field(ge=1)
    packs: dict[str, int] = {}
    editions: dict[str, str] = {}
    rules: dict[str, str] = {}


def pack_version(rule_ids: Iterable[str]) -> int:
    """The newest release that added, changed or removed one of the rules."""
    ids = set(rule_ids)
    latest = RELEASES[0].version
    before: Mapping[str, str] = {}
    for item in RELEASES:
        if any(item.rules.get(r) != before.get(r) for r in ids):
            latest = item.version
        before = item.rules
    return latest


def stamp(
    packs: Mapping[str, Iterable[Rule]], editions: Mapping[str, str]
) -> ComputedUnder:
    """The stamp of findings computed with ``packs`` (key: rules applied)."""
    rules: dict[str, str] = {}
    versions: dict[str, int] = {}
    for key, pack_rules in packs.items():
        found = fingerprints(pack_rules)
        rules |= found
        versions[key] = pack_version(found)
    return ComputedUnder(
        ruleset=CURRENT.version,
        packs=versions,
        editions=dict(editions),
        rules=rules,
    )


# The stamp of findings kept before stamps existed: release 1, no detail.
LEGACY = ComputedUnder(ruleset=1)


class RuleDifference(BaseModel):
    """How one rule differs between a kept stamp and the rules of today."""

    model_config = ConfigDict(frozen=True)

    rule_id: str
    change: Change
    # The releases after the stamp's that changed it, with their notes.
    events: tuple[RuleEvent, ...] = ()


class EditionDifference(BaseModel):
    model_config = ConfigDict(frozen=True)

    standard: str
    was: str
    now: str


class Supersession(BaseModel):
    """What changed since a stamp: rule by rule, pack by pack, edition by
    edition. Empty (``superseded`` False) when nothing did."""

    model_config = ConfigDict(frozen=True)

    computed_under: ComputedUnder
    current_ruleset: int
    rules: tuple[RuleDifference, ...] = ()
    packs_added: tuple[str, ...] = ()
    packs_removed: tuple[str, ...] = ()
    editions: tuple[EditionDifference, ...] = ()

    @property
    def superseded(self) -> bool:
        return bool(
            self.rules or self.packs_added or self.packs_removed or self.editions
        )


def superseded(kept: ComputedUnder | None, today: ComputedUnder) -> Supersession:
    """How the rules ``today`` (the stamp the same cell would get now) differ
    from ``kept``. A kept stamp without rule fingerprints (before stamps were
    recorded) is compared with its release's fingerprints, restricted to the
    rules applied today and to those its release had."""
    kept = kept or LEGACY
    old_rules = dict(kept.rules)
    if not old_rules:
        then = release(kept.ruleset) or RELEASES[0]
        old_rules = {
            rule: fp
            for rule, fp in then.rules.items()
            if rule in today.rules or _same_family(rule, today.rules)
        }
    differences: list[RuleDifference] = []
    for rule_id, fp in today.rules.items():
        if rule_id not in old_rules:
            differences.append(
                RuleDifference(
                    rule_id=rule_id, change="added", events=_after(rule_id, kept)
                )
            )
        elif old_rules[rule_id] != fp:
            differences.append(
                RuleDifference(
                    rule_id=rule_id, change="changed", events=_after(rule_id, kept)
                )
            )
    for rule_id in old_rules:
        if rule_id not in today.rules:
            differences.append(
                RuleDifference(
                    rule_id=rule_id, change="removed", events=_after(rule_id, kept)
                )
            )
    editions = tuple(
        EditionDifference(standard=key, was=kept.editions[key], now=year)
        for key, year in today.editions.items()
        if key in kept.editions and kept.editions[key] != year
    )
    return Supersession(
        computed_under=kept,
        current_ruleset=today.ruleset,
        rules=tuple(differences),
        packs_added=tuple(p for p in today.packs if kept.packs and p not in kept.packs),
        packs_removed=tuple(p for p in kept.packs if p not in today.packs),
        editions=editions,
    )


def _same_family(rule_id: str, today: Mapping[str, str]) -> bool:
    """A legacy stamp names no rules: of release 1's rules, those of the
    jurisdictions applied today count (a Korean cell's KR rules, everyone's
    INTL rules)."""
    prefix = rule_id.split("-", 1)[0]
    return any(r.split("-", 1)[0] == prefix for r in today)


def _after(rule_id: str, kept: ComputedUnder) -> tuple[RuleEvent, ...]:
    return tuple(e for e in rule_history(rule_id) if e.version > kept.ruleset)


# --- recording a release --------------------------------------------------------


def record(version: int, released_on: date, rules: Mapping[str, str]) -> None:
    """Write ``rules`` as release ``version`` (replacing it if it is there)."""
    data = json.loads(HISTORY_FILE.read_text(encoding="utf-8"))
    kept = [r for r in data["releases"] if int(r["version"]) != version]
    kept.append(
        {
            "version": version,
            "released_on": released_on.isoformat(),
            "rules": dict(sorted(rules.items())),
        }
    )
    data["releases"] = sorted(kept, key=lambda r: int(r["version"]))
    HISTORY_FILE.write_text(
        json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
