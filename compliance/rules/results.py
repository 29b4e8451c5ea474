"""A cell's findings, computed once per change of what they are computed from
and kept in Django's cache (local memory by default, Redis when
``CACHE_URL`` names it), under the content version of their inputs
(``compliance.rules.inputs``): the pages, the API and the proposal share them.

What is kept is plain data: the findings themselves are language-neutral
(English templates and values, rendered for each reader); what is kept
already rendered in a language is kept under that language too. Within a
request each is read from the cache once.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.utils.translation import get_language

from cells.models import Cell
from compliance.rules.cell_facts import cell_facts
from compliance.rules.engine import RuleFindings, all_rules, evaluate
from compliance.rules.facts import CellFacts
from compliance.rules.findings import Finding
from compliance.rules.inputs import cell_inputs, versions

logger = logging.getLogger(__name__)

# Long enough that a cell looked at now and then keeps its findings; the
# version in the key (which holds the day) is what keeps them right.
TIMEOUT_S = 7 * 24 * 3600
RULES_BY_ID = {rule.id: rule for rule in all_rules()}

# The values this process read or kept lately, in front of the cache: a key
# names its content (its version), so a value here is as right as the
# cache's, and is not read and unpickled again. Shared by the requests of
# the process: no reader changes what it is given.
RECENT_MAX = 32
_recent: OrderedDict[str, object] = OrderedDict()
_recent_lock = threading.Lock()


def _remember(key: str, value: object) -> None:
    with _recent_lock:
        _recent[key] = value
        _recent.move_to_end(key)
        while len(_recent) > RECENT_MAX:
            _recent.popitem(last=False)


def _recalled(key: str) -> object | None:
    with _recent_lock:
        value = _recent.get(key)
        if value is not None:
            _recent.move_to_end(key)
        return value


def forget_recent() -> None:
    """Forget what this process holds in front of the cache (tests, which
    clear the cache between them, clear this too)."""
    with _recent_lock:
        _recent.clear()


T = TypeVar("T")


def kept(cell: Cell, name: str, compute: Callable[[], T], *, costs: bool = False) -> T:
    """The value ``name`` of ``cell`` under the content version of its
    findings' inputs (with ``costs``, of its cost lines'): from this request,
    else the cache, else computed and kept.

    In the cache a cell holds one entry per name, with the version it was
    computed under: a new version replaces it, so edits leave no stale
    entries behind (issue 28); an entry of another version is a miss."""
    inputs = cell_inputs(cell)
    version = inputs.costs_version if costs else inputs.version
    key = f"csp:{name}:cell:{cell.pk}"
    versioned = f"{key}:{version}"
    memo = inputs.memo
    if versioned in memo:
        return memo[versioned]
    value = _recalled(versioned)
    if value is not None:
        memo[versioned] = value
        return value
    try:
        stored = cache.get(key)
    except Exception:  # a value an older release kept, which no longer reads
        logger.warning("Could not read %s from the cache: computing it again", key)
        stored = None
    value = None
    if isinstance(stored, tuple) and len(stored) == 2 and stored[0] == version:
        value = stored[1]
        _remember(versioned, value)
    if value is None:
        # Computed values are kept only if nothing changed while they were
        # computed: what was read is then what the version stands for. One
        # look at the versions, after the outermost computation, for all.
        inputs.computing += 1
        try:
            value = compute()
        finally:
            inputs.computing -= 1
        inputs.computed.append((key, costs, version, value))
        if not inputs.computing:
            # Of a cell read after its version was taken only (``versioned``).
            now = versions(cell.pk) if inputs.early else None
            for done_key, done_costs, done_version, done in inputs.computed:
                if now and (now.costs if done_costs else now.findings) == done_version:
                    cache.set(done_key, (done_version, done), TIMEOUT_S)
                    _remember(f"{done_key}:{done_version}", done)
            inputs.computed.clear()
    memo[versioned] = value
    return value


def in_language(name: str) -> str:
    """``name`` for what is kept rendered in the reader's language."""
    return f"{name}:{get_language() or ''}"


def cell_snapshot(cell: Cell, *, functions=None) -> CellFacts:
    """The cell as the rules read it (``cell_facts``: its layout named as the
    plan names it, the zone, devices, certificates, safety functions and the
    assessment's records), read once per request under the content version of
    its inputs and handed to the rules, the cost lines, the stamp and the
    proposal. Held for the request only: what is kept across requests is
    what it gives (findings, cost lines, stamp). ``functions``: the cell's
    safety functions with their verdicts, when the caller has them."""
    inputs = cell_inputs(cell)
    key = f"csp:facts:{inputs.version}"
    if key not in inputs.memo:
        inputs.memo[key] = cell_facts(cell, functions=functions)
    return inputs.memo[key]


def cell_results(cell: Cell) -> tuple[RuleFindings, ...]:
    """Every applicable rule with its findings (as ``engine.evaluate``), for a
    cell loaded by ``cells.selectors.cell_with_layout``."""

    def compute() -> tuple[tuple[str, tuple[Finding, ...]], ...]:
        return tuple((r.rule.id, r.findings) for r in evaluate(cell_snapshot(cell)))

    return tuple(
        RuleFindings(RULES_BY_ID[rule_id], findings)
        for rule_id, findings in kept(cell, "findings", compute)
    )


def cell_finding_list(cell: Cell) -> list[Finding]:
    """The findings of every rule, in the rules' order."""
    return [f for result in cell_results(cell) for f in result.findings]
