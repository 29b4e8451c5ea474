"""Who may change what through the API: members read, editors write.

Objects are scoped to the user's organisations by the viewsets' querysets (an
outsider gets a 404 before any of this runs); these checks add the role.
"""

from __future__ import annotations

from django.db.models import Model
from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission

from cells.models import (
    Cell,
    Device,
    GuardSegment,
    Opening,
    OperatorStation,
    Organisation,
    Project,
)
from cells.permissions import can_edit, editable_organisation_ids


def organisation_id_of(obj: Model) -> int:
    """The organisation owning an organisation, project, cell or layout element.

    Uses the foreign keys the selectors already ``select_related``.
    """
    if isinstance(obj, Organisation):
        return obj.pk
    if isinstance(obj, Project):
        return obj.organisation_id
    if isinstance(obj, Cell):
        return obj.project.organisation_id
    if isinstance(obj, GuardSegment | OperatorStation | Device):
        return obj.cell.project.organisation_id
    if isinstance(obj, Opening):
        return obj.segment.cell.project.organisation_id
    raise TypeError(f"No organisation for {type(obj).__name__}")


class CanEditOrganisationData(BasePermission):
    """Reads for every member; writes only for editors of the object's organisation.

    A user who edits no organisation at all (a viewer everywhere) is refused
    any write up front, before their input is even validated.
    """

    message = _("Viewers can read but not change this organisation's data.")

    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(editable_organisation_ids(request.user))

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return can_edit(request.user, organisation_id_of(obj))
