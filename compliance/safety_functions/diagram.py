"""The block diagram of a safety function, as SISTEMA draws it: its
subsystems in series (input → logic → output) as boxes joined by arrows, and
beside them a bar from PL a to PL e with the PL reached filled in and the PLr
marked. Geometry only, in SVG user units; the template draws it and escapes
the labels. Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

PL_ORDER = "abcde"

BOX_W, BOX_H, GAP = 150, 64, 36
MARGIN = 12
BAR_W, BAR_GAP = 34, 44
BAR_STEP = 24  # height of one PL on the bar


@dataclass(frozen=True)
class Block:
    x: float
    y: float
    width: float
    height: float
    role: str  # input, logic, output
    label: str
    detail: str  # e.g. "PL e · 3.7 × 10⁻⁹ /h" or "Cat 3 · MTTFd 30 y"
    pl: str | None


@dataclass(frozen=True)
class Arrow:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class BarLevel:
    pl: str
    y: float
    filled: bool  # at or below the PL reached
    required: bool  # the PLr's level


@dataclass(frozen=True)
class Diagram:
    width: float
    height: float
    blocks: tuple[Block, ...]
    arrows: tuple[Arrow, ...]
    bar_x: float
    bar_width: float
    levels: tuple[BarLevel, ...]
    level_height: float
    pl: str | None
    plr: str | None
    meets: bool | None

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width:g} {self.height:g}"


@dataclass(frozen=True)
class BlockInput:
    role: str
    label: str
    detail: str
    pl: str | None


def block_diagram(
    blocks: Sequence[BlockInput], *, pl: str | None, plr: str | None
) -> Diagram:
    """Boxes left to right at equal gaps, the PL bar at the right."""
    count = max(1, len(blocks))
    bar_height = BAR_STEP * len(PL_ORDER)
    height = max(BOX_H, bar_height) + 2 * MARGIN + 16
    box_y = MARGIN + 16 + (max(BOX_H, bar_height) - BOX_H) / 2
    drawn, arrows = [], []
    for index, block in enumerate(blocks):
        x = MARGIN + index * (BOX_W + GAP)
        drawn.append(
            Block(
                x=x,
                y=box_y,
                width=BOX_W,
                height=BOX_H,
                role=block.role,
                label=block.label,
                detail=block.detail,
                pl=block.pl,
            )
        )
        if index:
            arrows.append(
                Arrow(
                    x1=x - GAP + 2,
                    y1=box_y + BOX_H / 2,
                    x2=x - 4,
                    y2=box_y + BOX_H / 2,
                )
            )
    boxes_width = count * BOX_W + (count - 1) * GAP
    bar_x = MARGIN + boxes_width + BAR_GAP
    bar_top = MARGIN + 16 + (max(BOX_H, bar_height) - bar_height) / 2
    reached = PL_ORDER.index(pl) if pl else -1
    levels = tuple(
        BarLevel(
            pl=level,
            # PL e at the top.
            y=bar_top + (len(PL_ORDER) - 1 - i) * BAR_STEP,
            filled=i <= reached,
            required=level == plr,
        )
        for i, level in enumerate(PL_ORDER)
    )
    meets = None if pl is None or plr is None else reached >= PL_ORDER.index(plr)
    return Diagram(
        width=bar_x + BAR_W + 70,
        height=height,
        blocks=tuple(drawn),
        arrows=tuple(arrows),
        bar_x=bar_x,
        bar_width=BAR_W,
        levels=levels,
        level_height=BAR_STEP,
        pl=pl,
        plr=plr,
        meets=meets,
    )
