"""Certificate records of a cell (a KIRIA collaborative-robot workplace
certificate): records, not layout, so the exchange document leaves them out."""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import (
    MaxLengthValidator,
)
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils.translation import gettext_lazy as _

from cells.models.cell import Cell


class CertificateKind(models.TextChoices):
    """What a certificate on file for a cell certifies; more kinds may follow."""

    KIRIA_COBOT_WORKPLACE = (
        "kiria_cobot_workplace",
        _("KIRIA collaborative-robot workplace safety certification"),
    )


CERTIFICATE_SCOPE_MAX_LENGTH = 1000


class CellCertificate(models.Model):
    """A certificate on file for one cell, as issued: e.g. the KIRIA
    collaborative-robot workplace safety certificate (협동로봇 설치 작업장
    안전인증), the practical form of the Minister's recognition under the
    Art. 223 proviso (Rules on OSH Standards) that lets a collaborative robot
    work without the fence, for the certified scope only.

    A record, not layout: the exchange document (``cells.exchange``) does not
    carry certificates. A certificate is issued for one workplace after its
    own audit, so a cell imported from a document starts without one.
    """

    cell = models.ForeignKey(
        Cell,
        on_delete=models.CASCADE,
        related_name="certificates",
        verbose_name=_("cell"),
    )
    kind = models.CharField(
        _("kind"),
        max_length=40,
        choices=CertificateKind.choices,
        default=CertificateKind.KIRIA_COBOT_WORKPLACE,
    )
    issuing_body = models.CharField(
        _("issuing body"),
        max_length=200,
        help_text=_(
            "Who issued it, as the certificate names them, e.g. KIRIA "
            "(한국로봇산업진흥원)."
        ),
    )
    number = models.CharField(_("certificate number"), max_length=60)
    issued_on = models.DateField(_("issued on"))
    valid_until = models.DateField(
        _("valid until"), help_text=_("The last day the certificate is valid.")
    )
    scope = models.TextField(
        _("certified scope"),
        max_length=CERTIFICATE_SCOPE_MAX_LENGTH,
        blank=True,
        validators=[MaxLengthValidator(CERTIFICATE_SCOPE_MAX_LENGTH)],
        help_text=_(
            "What the certificate covers, as it states it: the application, the "
            "robot, the work area. The exemption holds for this scope only."
        ),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    created_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    # Raised by every save of the row: a save that names the version it read
    # is refused when another saved since (``cells.services``, issue 28).
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)

    class Meta:
        ordering = ["-valid_until", "id"]
        verbose_name = _("certificate")
        verbose_name_plural = _("certificates")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=CertificateKind.values),
                name="certificate_kind_valid",
            ),
            models.CheckConstraint(
                condition=~Q(number=""), name="certificate_number_given"
            ),
            models.CheckConstraint(
                condition=Q(valid_until__gt=models.F("issued_on")),
                name="certificate_valid_after_issued",
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(
                    Length("scope"), CERTIFICATE_SCOPE_MAX_LENGTH
                ),
                name="certificate_scope_length",
            ),
        ]

    def __str__(self) -> str:
        return self.number

    def is_valid_on(self, day: date) -> bool:
        """Whether the certificate is in force on ``day`` (both ends included)."""
        return self.issued_on <= day <= self.valid_until

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.number is not None and not self.number.strip():
            errors["number"] = _("Give the number printed on the certificate.")
        if self.issuing_body is not None and not self.issuing_body.strip():
            errors["issuing_body"] = _("Give who issued the certificate.")
        if (
            self.issued_on is not None
            and self.valid_until is not None
            and self.valid_until <= self.issued_on
        ):
            errors["valid_until"] = _(
                "The certificate must be valid until a date after it was issued "
                "(%(issued)s)."
            ) % {"issued": self.issued_on.isoformat()}
        if errors:
            raise ValidationError(errors)
