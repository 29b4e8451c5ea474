"""Reading and judging a robot program grows with its length, not faster
(issue 32): a 10,000-line URScript program, read (``cells.motion.reading``),
cut into its path's pieces and judged segment by segment near two operator
stations (``ts15066_path``), costs at most 10 times a 1,000-line one, timed
in the same run, each size in turn, best of a few rounds.

Run with `make bench` (or `python bench/motion.py`). Pure: no server, no
database; bounded to a few seconds. The work is exactly ten times, so a
linear reading gives 10 and the machine's noise moves it either way: it
exits 1 past ``NOISE`` × 10, a growth no noise explains.
"""

from __future__ import annotations

import gc
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cells.motion.path import segments  # noqa: E402
from cells.motion.reading import read_program  # noqa: E402
from compliance.calculators.ts15066_path import (  # noqa: E402
    PathInput,
    PathSegmentIn,
    PlanPointIn,
    StationIn,
    ts15066_path,
)

ROUNDS = 7
LIMIT = 10.0
# A shared machine's timing noise, seen here between runs: ±10%.
NOISE = 1.2


def program(lines: int) -> bytes:
    """A palletising program of ``lines`` motion lines: a square pattern of
    places, fast far from the operator and slower near, a joint move every
    fiftieth line."""
    rows = ["def main():"]
    for i in range(lines):
        if i % 50 == 49:
            rows.append("  movej([0, -1.57, 1.57, 0, 0, 0], a=1.4, v=1.05)")
            continue
        angle = i * 0.37
        x = 0.45 * math.cos(angle)
        y = 0.45 * math.sin(angle)
        z = 0.2 + 0.1 * (i % 3)
        v = 0.25 if x > 0.3 else 1.0
        rows.append(f"  movel(p[{x:.4f}, {y:.4f}, {z:.3f}, 0, 3.14, 0], a=1.2, v={v})")
    rows.append("end")
    return ("\n".join(rows) + "\n").encode()


STATIONS = (
    StationIn(label="Load", x_mm=900, y_mm=0, body_regions=("chest", "hands_fingers")),
    StationIn(label="HMI", x_mm=0, y_mm=-1500, body_regions=("hands_fingers",)),
)


def judge(data: bytes) -> int:
    path = segments(read_program(data, format="urscript"))
    result = ts15066_path(
        PathInput(
            segments=tuple(
                PathSegmentIn(
                    index=s.index,
                    line=s.line,
                    start=PlanPointIn(
                        x_mm=s.start.x_mm, y_mm=s.start.y_mm, z_mm=s.start.z_mm
                    ),
                    end=PlanPointIn(x_mm=s.end.x_mm, y_mm=s.end.y_mm, z_mm=s.end.z_mm),
                    speed_mm_s=s.speed_mm_s,
                )
                for s in path
            ),
            stations=STATIONS,
            robot_moving_mass_kg=33.5,
            payload_kg=5.0,
        )
    )
    return len(result.segments)


def timed(data: bytes) -> float:
    # Each run starts on a collected heap (as bench/run.py): a collection owed
    # to the run before is not counted against this one.
    gc.collect()
    started = time.perf_counter()
    judge(data)
    return time.perf_counter() - started


def main() -> int:
    small, large = program(1_000), program(10_000)
    judge(small)  # warm: imports, the per-region limits
    # The two sizes in turn, so that a busy moment of the machine falls on
    # both; the best round of each.
    rounds = [(timed(small), timed(large)) for _ in range(ROUNDS)]
    t_small = min(r[0] for r in rounds)
    t_large = min(r[1] for r in rounds)
    ratio = t_large / t_small
    print(
        f"robot program, read and judged: 1,000 lines {t_small * 1000:.0f} ms, "
        f"10,000 lines {t_large * 1000:.0f} ms, ratio {ratio:.1f} "
        f"(linear: {LIMIT:.0f}; refused past {LIMIT * NOISE:.0f})"
    )
    return 0 if ratio <= LIMIT * NOISE else 1


if __name__ == "__main__":
    sys.exit(main())
