"""The device library's sources name the maker's document (issue 30): never
the repository and file a public compilation of it was read in."""

from __future__ import annotations

import re

from compliance.safety_functions.library.catalogue import STARTING_ENTRIES

# owner/repository, a data file, a code host.
REPOSITORY = re.compile(r"\b[\w.-]+/[\w.-]+ \(|\.(?:json|csv|py)\b|github", re.I)


def test_every_starting_entry_cites_a_document_not_a_repository_file():
    named = {e.data_source for e in STARTING_ENTRIES}
    assert len(named) > 5
    assert [s for s in named if REPOSITORY.search(s)] == []
    # What was read second-hand says so.
    compiled = [s for s in named if "public compilation" in s]
    assert compiled and all("was not read" in s for s in compiled)
