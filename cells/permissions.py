"""Who may do what: roles per organisation, looked up once per request."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from cells.models import EDITOR_ROLES, Membership, Role


def roles_by_organisation(user) -> dict[int, str]:
    """{organisation id: role} for the user, cached on the user object."""
    if not user.is_authenticated:
        return {}
    cached = getattr(user, "_csp_roles", None)
    if cached is None:
        cached = dict(
            Membership.objects.filter(user=user).values_list("organisation_id", "role")
        )
        user._csp_roles = cached
    return cached


def role_in(user, organisation_id: int) -> str | None:
    return roles_by_organisation(user).get(organisation_id)


def can_edit(user, organisation_id: int) -> bool:
    return role_in(user, organisation_id) in EDITOR_ROLES


def require_edit(user, organisation_id: int) -> None:
    """Raise PermissionDenied unless the user may change this organisation's data.

    Callers have already scoped the object to the user's organisations, so an
    outsider never gets this far (they get a 404).
    """
    if not can_edit(user, organisation_id):
        raise PermissionDenied(
            _("Viewers can read but not change this organisation's data.")
        )


def editable_organisation_ids(user) -> list[int]:
    return [
        org for org, role in roles_by_organisation(user).items() if role in EDITOR_ROLES
    ]


__all__ = [
    "Role",
    "can_edit",
    "editable_organisation_ids",
    "require_edit",
    "role_in",
    "roles_by_organisation",
]
