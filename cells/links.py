"""Links to many objects of one kind at the cost of one ``reverse``: a page
that lists hundreds of rows, each with its edit and delete links, builds the
URL once with a stand-in id and puts each row's id in its place."""

from __future__ import annotations

from collections.abc import Callable

from django.urls import reverse

# Stands for the row's id in the reversed URL: no real id is this large.
ID = 4_611_686_018_427_387_904


def link_for(name: str, *args: object) -> Callable[[object], str]:
    """``reverse(name, args=args)`` as a function of the id, where ``args``
    holds ``ID`` in the id's place: ``link_for("x", cell.pk, ID)(7)`` is
    ``reverse("x", args=[cell.pk, 7])``."""
    head, tail = reverse(name, args=args).split(str(ID))
    return lambda pk: f"{head}{pk}{tail}"
