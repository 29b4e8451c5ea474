"""Set-up of a web process as it starts (``config.wsgi``), once, before its
first request.

The cycle collector: a page computed afresh (the compliance page of a large
cell just after a change) makes some tens of thousands of short-lived
objects (findings, facts, rows), freed by reference counting; at Python's
default the collector ran a young collection every 700 of them and walked
everything the process had loaded each time it reached the older
generations. So what is loaded at start (Django, the URLconf, the rule
packs, the catalogues) is set aside from it (``gc.freeze``) and the youngest
objects are collected less often. The same thresholds as a PDF worker's
(``compliance.proposals.building.prepare_worker``). Process-wide, so it is
done here, never by a view."""

from __future__ import annotations

import gc

# The youngest generation is collected after this many allocations
# (Python's default: 700, 10, 10).
WEB_GC_THRESHOLD = (50_000, 20, 20)


def prepare_web_process() -> None:
    """Freeze what the process has loaded and raise the collector's
    thresholds; call once, after the app is loaded."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*WEB_GC_THRESHOLD)
