"""A robot cell's motion programs: read into placed moves (``reading``) and
the straight pieces of the TCP's path (``path``). Pure, no Django."""

from __future__ import annotations

from cells.motion.errors import ProgramError
from cells.motion.path import (
    ARC_TOLERANCE_MM,
    Listed,
    Move,
    Point,
    Program,
    Segment,
    segments,
    to_plan,
)

__all__ = [
    "ARC_TOLERANCE_MM",
    "Listed",
    "Move",
    "Point",
    "Program",
    "ProgramError",
    "Segment",
    "segments",
    "to_plan",
]
