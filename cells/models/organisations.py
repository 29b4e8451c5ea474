"""Organisations and their people: every object belongs to one, and a
person's role decides what they may change."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Organisation(models.Model):
    """A company using the planner (an integrator, a consultancy). Owns all data."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    requires_two_person_signoff = models.BooleanField(
        _("two-person sign-off"),
        default=False,
        help_text=_(
            "A risk assessment must be approved by a second person before a safety "
            "engineer signs it."
        ),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("organisation")
        verbose_name_plural = _("organisations")

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    SOLUTION_ARCHITECT = "solution_architect", _("Solution architect")
    SAFETY_ENGINEER = "safety_engineer", _("Safety engineer")
    VIEWER = "viewer", _("Viewer")


EDITOR_ROLES = frozenset({Role.SOLUTION_ARCHITECT, Role.SAFETY_ENGINEER})


class Membership(models.Model):
    """A person's role in one organisation. Viewers read; the other roles edit."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("user"),
    )
    organisation = models.ForeignKey(
        Organisation,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("organisation"),
    )
    role = models.CharField(_("role"), max_length=32, choices=Role.choices)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "organisation"], name="membership_unique_user_org"
            ),
            models.CheckConstraint(
                condition=Q(role__in=Role.values), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.organisation} ({self.get_role_display()})"

    @property
    def can_edit(self) -> bool:
        return self.role in EDITOR_ROLES
