"""A robot program's findings cite their clauses in the reader's language
(issue 32): the default contact reach and ISO 13854's gaps among them."""

from __future__ import annotations

from django.utils import translation

from compliance.calculators.presentation import shown_citation
from compliance.calculators.ts15066_path_models import CLAMPING_CLAUSE, REACH_CLAUSE


def test_the_reach_and_clamping_clauses_are_shown_in_korean():
    with translation.override("ko"):
        assert shown_citation(REACH_CLAUSE) == (
            "ISO 13855:2010, 6.2.3(C = 850 mm, 기본 접촉 도달 범위)"
        )
        assert shown_citation(CLAMPING_CLAUSE) == (
            "ISO 13854:2017(끼임 방지를 위한 최소 틈새)"
        )
