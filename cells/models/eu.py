"""The EU's conformity choices of a cell as machinery: its place in the
Machinery Regulation's annexes and the procedure the integrator follows."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class AnnexCategory(models.TextChoices):
    """EU: whether the cell, as machinery, is in the Regulation's Annex I (the
    Directive's Annex IV), which sets its conformity assessment procedure."""

    NOT_LISTED = "not_listed", _("Not listed (Regulation Annex I, Directive Annex IV)")
    PART_A = "part_a", _("Regulation Annex I Part A (Directive: Annex IV)")
    PART_B = "part_b", _("Regulation Annex I Part B (Directive: Annex IV)")


class ConformityProcedure(models.TextChoices):
    """EU: the conformity assessment procedure the integrator follows."""

    INTERNAL_CONTROL = (
        "internal_control",
        _("Internal production control: module A (Directive Annex VIII)"),
    )
    TYPE_EXAMINATION = (
        "type_examination",
        _("EU type-examination: modules B and C (Directive Annex IX)"),
    )
    FULL_QUALITY_ASSURANCE = (
        "full_quality_assurance",
        _("Full quality assurance: module H (Directive Annex X)"),
    )
    UNIT_VERIFICATION = (
        "unit_verification",
        _("Unit verification: module G (Regulation only)"),
    )
