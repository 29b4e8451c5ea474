"""Assumptions, exclusions and disclaimers. A function from the ``Kit`` to the
flowables the section adds after its heading."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.platypus import (
    Flowable,
)

from compliance.proposals.pdf.kit import Kit


def terms(p: Kit) -> list[Flowable]:
    data = p.data
    story: list[Flowable] = []
    for title, items in (
        (_("Assumptions"), data.assumptions),
        (_("Exclusions"), data.exclusions),
        (_("Disclaimers"), data.disclaimers),
    ):
        if items:  # an empty list is left out, heading and all
            story += [p.para(title, "h2"), *p.bullets(items)]
    return story
