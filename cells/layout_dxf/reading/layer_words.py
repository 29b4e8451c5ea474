"""What a layer is first offered as, from its name: this app's own layers
read back as what they hold, and a customer's layers named as a door, a
fence, a wall or a machine in English, German or Korean are suggested as
such (issue 31), for the user to confirm. Pure, no Django."""

from __future__ import annotations

import re

from cells.layout_dxf.layers import DERIVED, GUARD_LAYERS

# kind: (whole words of a Latin name, parts of a Korean one). Doors first: a
# "SAFETY-DOOR" or a "FENCE-GATE" is a door in the fence, not a fence.
LAYER_WORDS: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "door": (
        frozenset(
            {
                "door",
                "doors",
                "gate",
                "gates",
                "tür",
                "tuer",
                "türen",
                "tueren",
                "schutztür",
                "schutztuer",
                # German "gate": a whole word only ("MOTOR" is no gate).
                "tor",
                "tore",
            }
        ),
        (),  # Korean door words are whole words: KOREAN_DOOR_WORDS
    ),
    "fence": (
        frozenset(
            {
                "fence",
                "fences",
                "fencing",
                "guard",
                "guards",
                "guarding",
                "safety",
                "zaun",
                "schutzzaun",
            }
        ),
        ("펜스", "울타리", "방호울"),
    ),
    "wall": (
        frozenset({"wall", "walls", "wand", "wände", "waende", "mauer"}),
        ("벽",),
    ),
    "machine_body": (
        frozenset({"machine", "machines", "maschine", "maschinen", "equipment"}),
        ("설비", "기계"),
    ),
}
# 문 (door) ends many Korean words that are no door: 창문 (window), 주문
# (order), 문자 (text: a common layer name), 문서 (document). So a Korean
# door word is matched only as a whole run of Hangul in the name ("문",
# "A-문-01", "출입문2"), and the compounds that are doors are listed.
KOREAN_DOOR_WORDS = frozenset(
    {"문", "도어", "출입문", "안전문", "방호문", "방화문", "자동문", "철문", "게이트"}
)
_WORD_SPLIT = re.compile(r"[^a-z0-9à-öø-ÿ]+")
_HANGUL_RUN = re.compile(r"[\uac00-\ud7a3]+")


def suggested_kind(layer_name: str) -> str | None:
    """The kind a layer's name suggests ("A-FENCE-01", "Zaun", "안전펜스",
    "DOOR", "출입문"): a guard kind or "door"; or None."""
    key = layer_name.casefold()
    words = set(_WORD_SPLIT.split(key))
    if KOREAN_DOOR_WORDS.intersection(_HANGUL_RUN.findall(key)):
        return "door"
    for kind, (latin, korean) in LAYER_WORDS.items():
        if words & latin or any(part in key for part in korean):
            return kind
    return None


def default_target(layer_name: str) -> str:
    """A guard layer this app's export wrote reads back as its kind, and its
    other layers (openings, devices, labels...: drawn from the cell) are left
    out; any other layer is underlay until mapped."""
    key = layer_name.casefold()
    for kind, name in GUARD_LAYERS.items():
        if key == name.casefold():
            return kind
    if key in {name.casefold() for name in DERIVED}:
        return "ignore"
    return "underlay"


def suggested_target(layer_name: str) -> str:
    """What the import form offers first for a layer: its default, or the
    kind its name suggests, for the user to confirm. A layer never becomes a
    guard or a door unless the user confirms it (the form sends what it
    shows; the API maps only what it is told)."""
    target = default_target(layer_name)
    if target != "underlay":
        return target
    return suggested_kind(layer_name) or "underlay"
