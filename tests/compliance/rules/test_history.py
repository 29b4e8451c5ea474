"""The rule set's releases: every rule's fingerprint is recorded, a stamp
names what findings were computed under, and a later change of a rule, a
pack or an edition shows as computed under superseded rules."""

from __future__ import annotations

import dataclasses

from compliance.rules import history
from compliance.rules.engine import ALL_PACKS, KOREA, all_rules, computed_under
from compliance.rules.facts import EditionFacts
from tests.compliance.rules.cells import palletising_cell


def test_the_rules_in_the_code_are_the_newest_release():
    current = history.fingerprints(all_rules())
    assert current == dict(history.CURRENT.rules), (
        "a rule changed: record a new release (python -m compliance.rules.history "
        "record <version> <date>) with its notes in RELEASE_NOTES and CHANGE_NOTES"
    )


def test_every_release_and_every_change_has_a_note():
    for item in history.RELEASES:
        assert history.RELEASE_NOTES.get(item.version), item.version
    for rule in all_rules():
        for event in history.rule_history(rule.id):
            if event.change == "changed":
                assert event.note, (rule.id, event.version)


def test_a_fingerprint_follows_the_text_and_the_hand_raised_revision():
    rule = KOREA.rules[0]
    assert history.fingerprint(rule) == history.fingerprint(dataclasses.replace(rule))
    reworded = dataclasses.replace(rule, citation=rule.citation + " (2025)")
    rechecked = dataclasses.replace(rule, revision=rule.revision + 1)
    assert history.fingerprint(reworded) != history.fingerprint(rule)
    assert history.fingerprint(rechecked) != history.fingerprint(rule)
    # Checked again on a later day: the rule itself is the same.
    redated = dataclasses.replace(rule, checked_on=rule.checked_on.replace(year=2030))
    assert history.fingerprint(redated) == history.fingerprint(rule)


def test_a_fingerprint_follows_the_korean_the_catalogue_gives_the_text(
    monkeypatch,
):
    # For Korean law the catalogue's Korean is the article itself: a changed
    # word there is a changed rule.
    rule = KOREA.rules[0]
    before = history.fingerprint(rule)
    catalogue = dict(history._catalogue())
    catalogue[rule.text] = catalogue[rule.text].replace("1.8미터", "2미터")
    monkeypatch.setattr(history, "_catalogue", lambda: catalogue)
    assert history.fingerprint(rule) != before


def test_a_stamp_names_the_release_packs_editions_and_rules():
    stamp = computed_under(palletising_cell())
    assert stamp.ruleset == history.CURRENT.version
    assert set(stamp.packs) == {"korea", "baseline"}
    assert stamp.editions["iso13855"] == "2010"
    assert stamp.rules["KR-223-fence-height"] == history.fingerprint(KOREA.rules[0])
    assert "INTL-13855-2024-distance" not in stamp.rules


def test_todays_stamp_is_not_superseded_by_itself():
    stamp = computed_under(palletising_cell())
    assert not history.superseded(stamp, stamp).superseded


def test_a_changed_rule_supersedes_the_stamps_kept_before():
    kept = computed_under(palletising_cell())
    changed = dict(kept.rules, **{"KR-223-fence-height": "000000000000"})
    today = kept.model_copy(update={"rules": changed})
    found = history.superseded(kept, today)
    assert found.superseded
    assert [(d.rule_id, d.change) for d in found.rules] == [
        ("KR-223-fence-height", "changed")
    ]


def test_an_edition_chosen_since_supersedes_with_the_difference():
    kept = computed_under(palletising_cell())
    now = palletising_cell().model_copy(
        update={"editions": EditionFacts(iso13855="2024")}
    )
    found = history.superseded(kept, computed_under(now))
    assert [(e.standard, e.was, e.now) for e in found.editions] == [
        ("iso13855", "2010", "2024")
    ]
    changes = {d.rule_id: d.change for d in found.rules}
    assert changes["INTL-13855-2024-distance"] == "added"
    assert changes["INTL-13855-distance"] == "removed"


def test_a_stamp_kept_before_stamps_existed_reads_as_release_1():
    found = history.superseded(None, computed_under(palletising_cell()))
    assert found.computed_under.ruleset == 1
    assert found.superseded  # release 2 changed and added rules
    changes = {d.rule_id: d.change for d in found.rules}
    assert changes["INTL-13855-distance"] == "changed"
    assert changes["INTL-10218-1-robot-class"] == "added"
    assert "KR-222-224-procedures" not in changes  # unchanged since release 1
    # Changed in release 2 (its edition) and 3 (reaching over, issue 27).
    events = next(d for d in found.rules if d.rule_id == "INTL-13855-distance").events
    assert [e.version for e in events] == [2, 3] and all(e.note for e in events)


def test_each_rule_has_a_history_starting_with_its_addition():
    for pack in ALL_PACKS:
        for rule in pack.rules:
            events = history.rule_history(rule.id)
            assert events and events[0].change == "added"
    assert history.rule_history("INTL-13855-distance")[-1].change == "changed"


def test_recording_a_release_writes_every_rules_fingerprint(tmp_path, monkeypatch):
    import json

    import pytest
    from django.core.management import CommandError, call_command

    copy = tmp_path / "ruleset_history.json"
    copy.write_text(history.HISTORY_FILE.read_text(encoding="utf-8"), "utf-8")
    monkeypatch.setattr(history, "HISTORY_FILE", copy)
    newest = max(r["version"] for r in json.loads(copy.read_text())["releases"])

    call_command("record_rules_release", str(newest + 1), "2027-01-20")

    releases = json.loads(copy.read_text())["releases"]
    assert releases[-1]["version"] == newest + 1
    assert releases[-1]["released_on"] == "2027-01-20"
    assert releases[-1]["rules"] == history.fingerprints(all_rules())
    with pytest.raises(CommandError, match="released_on"):
        call_command("record_rules_release", "9", "20 January")
