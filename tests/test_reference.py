"""The shared reference data is found relative to the project, and a check
that cannot find it fails (tests/reference.py, the ``reference`` fixture)."""

from __future__ import annotations

import pytest

from tests import reference as shared

ROOT = shared.CHECKOUT


def test_the_reference_folder_is_beside_the_checkout():
    assert ROOT.parent / "shared" / "reference" == shared.REFERENCE_DIR
    assert shared.reference_file("iso13857_tables.json").is_file()


def test_a_missing_reference_file_fails_naming_the_folder():
    with pytest.raises(pytest.fail.Exception) as failed:
        shared.reference_file("no_such_file.json")
    message = str(failed.value)
    assert "no_such_file.json" in message
    assert str(shared.REFERENCE_DIR) in message
    assert "must sit beside the checkout" in message


def test_a_missing_reference_folder_fails_naming_it(tmp_path, monkeypatch):
    nowhere = tmp_path / "shared" / "reference"
    monkeypatch.setattr(shared, "REFERENCE_DIR", nowhere)
    with pytest.raises(pytest.fail.Exception) as failed:
        shared.reference_file("iso13857_tables.json")
    message = str(failed.value)
    assert str(nowhere) in message
    assert "must sit beside the checkout" in message


def test_the_fixture_reads_a_file_and_fails_on_a_missing_one(reference):
    assert "table1_low_risk" in reference("iso13857_tables.json")
    with pytest.raises(pytest.fail.Exception) as failed:
        reference("no_such_file.json")
    assert "no_such_file.json" in str(failed.value)
