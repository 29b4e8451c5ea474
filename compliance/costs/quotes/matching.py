"""Which catalogue entry and library device a supplier quote's row prices.
Pure Python with pydantic, no Django.

A row is matched by its part number first (to a device of the
organisation's library with the same part number), then by its model (and
maker, when the row names one), then by its kind (a catalogue entry); each
match says how it was made, so that the person confirming it sees why. A
device of the library prices the catalogue entry of its kind (a safety relay
the safety controller's line, an interlock switch the interlocked door's).
Part numbers and models are compared without case, spaces, hyphens, dots,
slashes or underscores ("C4C-SA06010A10000" = "c4c sa06010a10000").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict

MatchedBy = Literal["part_number", "model", "kind", "person", "none"]

# The catalogue entry whose cost lines a library device of each kind prices
# (``safety_functions.models.LibraryKind``); a kind not here prices no line.
CATALOGUE_KEY_OF_LIBRARY_KIND = {
    "light_curtain": "light_curtain",
    "multibeam": "multibeam",
    "laser_scanner": "laser_scanner",
    "safety_mat": "safety_mat",
    "interlock_switch": "interlocked_door",
    "guard_locking": "interlocked_door",
    "emergency_stop": "emergency_stop",
    "safety_relay": "safety_controller",
    "safety_controller": "safety_controller",
    "safety_io": "safety_controller",
}

_NOISE = re.compile(r"[\s\-_./]+")


def normalised(text: str) -> str:
    """A part number or model as compared: no case, spaces or separators."""
    return _NOISE.sub("", text).casefold()


class LibraryItem(BaseModel):
    """A device of the organisation's library, as matching reads it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pk: int
    kind: str
    maker: str
    model: str
    part_number: str = ""


class RowIdentity(BaseModel):
    """What a quote's row says it is."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str = ""
    maker: str = ""
    part_number: str = ""
    model: str = ""


class Match(BaseModel):
    """What a row prices and how that was found."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    matched_by: MatchedBy
    catalogue_key: str = ""
    library_pk: int | None = None


NO_MATCH = Match(matched_by="none")


class Matcher:
    """Matches rows against one organisation's library and catalogue."""

    def __init__(
        self, library: Iterable[LibraryItem], catalogue_keys: Collection[str]
    ) -> None:
        self.catalogue_keys = frozenset(catalogue_keys)
        self._by_part: dict[str, LibraryItem] = {}
        self._by_model: dict[str, list[LibraryItem]] = {}
        # The first device of the library (in the order given) wins a tie.
        for item in library:
            if item.part_number.strip():
                self._by_part.setdefault(normalised(item.part_number), item)
            if item.model.strip():
                self._by_model.setdefault(normalised(item.model), []).append(item)

    def _device(self, item: LibraryItem, how: MatchedBy) -> Match:
        key = CATALOGUE_KEY_OF_LIBRARY_KIND.get(item.kind, "")
        if key not in self.catalogue_keys:
            key = ""
        return Match(matched_by=how, catalogue_key=key, library_pk=item.pk)

    def __call__(self, row: RowIdentity) -> Match:
        if row.part_number.strip():
            found = self._by_part.get(normalised(row.part_number))
            if found is not None:
                return self._device(found, "part_number")
        if row.model.strip():
            maker = normalised(row.maker)
            for item in self._by_model.get(normalised(row.model), ()):
                if not maker or normalised(item.maker) == maker:
                    return self._device(item, "model")
        if row.kind in self.catalogue_keys:
            return Match(matched_by="kind", catalogue_key=row.kind)
        return NO_MATCH
