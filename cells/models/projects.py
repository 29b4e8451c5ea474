"""Projects: a customer and site, the country whose law applies, the
proposal's language and currency. The exchange rates are the organisation's
(``compliance.costs.models.ExchangeRate``), dated, never the project's."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cells.models.organisations import Organisation
from compliance.calculators import editions as standard_editions


class Country(models.TextChoices):
    """Where the cell will stand; selects the jurisdiction's rules."""

    KR = "KR", _("Korea, Republic of")
    JP = "JP", _("Japan")
    CN = "CN", _("China")
    TW = "TW", _("Taiwan")
    VN = "VN", _("Viet Nam")
    US = "US", _("United States")
    CA = "CA", _("Canada")
    MX = "MX", _("Mexico")
    DE = "DE", _("Germany")
    FR = "FR", _("France")
    GB = "GB", _("United Kingdom")
    IT = "IT", _("Italy")
    ES = "ES", _("Spain")
    PL = "PL", _("Poland")
    CZ = "CZ", _("Czechia")
    SE = "SE", _("Sweden")
    NL = "NL", _("Netherlands")


# The site's time zone: a proposal's and a signature's dates are the site's
# (a proposal built at 23:30 UTC is dated the next day in Seoul). A country
# with one zone has it by default; one with several starts from its first
# listed here, which the project can change.
COUNTRY_ZONES: dict[str, tuple[str, ...]] = {
    "KR": ("Asia/Seoul",),
    "JP": ("Asia/Tokyo",),
    "CN": ("Asia/Shanghai",),
    "TW": ("Asia/Taipei",),
    "VN": ("Asia/Ho_Chi_Minh",),
    "US": (
        "America/New_York",
        "America/Chicago",
        "America/Denver",
        "America/Phoenix",
        "America/Los_Angeles",
    ),
    "CA": (
        "America/Toronto",
        "America/Winnipeg",
        "America/Edmonton",
        "America/Vancouver",
        "America/Halifax",
    ),
    "MX": ("America/Mexico_City", "America/Monterrey", "America/Tijuana"),
    "DE": ("Europe/Berlin",),
    "FR": ("Europe/Paris",),
    "GB": ("Europe/London",),
    "IT": ("Europe/Rome",),
    "ES": ("Europe/Madrid",),
    "PL": ("Europe/Warsaw",),
    "CZ": ("Europe/Prague",),
    "SE": ("Europe/Stockholm",),
    "NL": ("Europe/Amsterdam",),
}
TIME_ZONE_CHOICES = [(zone, zone) for zones in COUNTRY_ZONES.values() for zone in zones]


class ProposalLanguage(models.TextChoices):
    KO = "ko", _("Korean")
    EN = "en", _("English")


class ProjectQuerySet(models.QuerySet["Project"]):
    def for_user(self, user) -> ProjectQuerySet:
        return self.filter(organisation__memberships__user=user)


def default_currency(country: str) -> str:
    """The currency a project in ``country`` proposes in unless it chooses
    another, among those the app prices in (KRW, USD, EUR): KRW in Korea, EUR
    in the EU and the EEA (the euro, or the nearest the app has), USD
    elsewhere."""
    code = country.upper()
    if code == "KR":
        return "KRW"
    if standard_editions.jurisdiction_of(code) == "EU":
        return "EUR"
    return "USD"


class Project(models.Model):
    """A customer engagement: one site, one or more robot cells, one proposal."""

    organisation = models.ForeignKey(
        Organisation,
        on_delete=models.CASCADE,
        related_name="projects",
        verbose_name=_("organisation"),
    )
    name = models.CharField(_("project name"), max_length=200)
    customer_name = models.CharField(_("customer"), max_length=200)
    site_name = models.CharField(_("site"), max_length=200, blank=True)
    country = models.CharField(
        _("country"), max_length=2, choices=Country.choices, default=Country.KR
    )
    proposal_language = models.CharField(
        _("proposal language"),
        max_length=2,
        choices=ProposalLanguage.choices,
        default=ProposalLanguage.KO,
    )
    currency = models.CharField(
        _("proposal currency"),
        max_length=3,
        choices=[("KRW", "KRW"), ("USD", "USD"), ("EUR", "EUR")],
        default="KRW",
    )
    time_zone = models.CharField(
        _("time zone of the site"),
        max_length=40,
        blank=True,
        choices=TIME_ZONE_CHOICES,
        help_text=_(
            "The proposal's and the signatures' dates are the site's. Empty: "
            "the country's (its first zone where it has several)."
        ),
    )
    planned_start = models.DateField(
        _("planned start of service"),
        null=True,
        blank=True,
        help_text=_(
            "When the cell is to be put into service. In the EU it decides the "
            "law: the Machinery Directive up to 19 January 2027, the Machinery "
            "Regulation from 20 January 2027."
        ),
    )
    # {standard key: edition year} for the standards with two editions in
    # force (compliance.calculators.editions); a standard left out takes the
    # jurisdiction's default.
    standard_editions = models.JSONField(
        _("editions of the standards"), default=dict, blank=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    objects = ProjectQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-id"]
        verbose_name = _("project")
        verbose_name_plural = _("projects")
        constraints = [
            models.CheckConstraint(
                condition=Q(country__in=Country.values), name="project_country_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        problems = standard_editions.choice_problems(self.standard_editions)
        if problems:
            raise ValidationError(
                {
                    "standard_editions": _("Not an edition the app knows: %(what)s.")
                    % {"what": "; ".join(problems)}
                }
            )
        zones = COUNTRY_ZONES.get(self.country, ())
        if self.time_zone and self.time_zone not in zones:
            raise ValidationError(
                {
                    "time_zone": _("Choose a time zone of %(country)s: %(zones)s.")
                    % {
                        "country": self.get_country_display(),
                        "zones": ", ".join(zones),
                    }
                }
            )

    @property
    def zone(self) -> ZoneInfo:
        """The site's time zone: the one chosen, else the country's (its
        first where it has several), else the app's."""
        zone = self.time_zone or next(
            iter(COUNTRY_ZONES.get(self.country, ())), settings.TIME_ZONE
        )
        return ZoneInfo(zone)

    def local_date(self, moment: datetime) -> date:
        """The day ``moment`` (aware) falls on at the site."""
        return moment.astimezone(self.zone).date()

    @property
    def jurisdiction(self) -> str:
        """The rule packs' jurisdiction: KR, EU, US or INTL."""
        return standard_editions.jurisdiction_of(self.country)

    @property
    def editions(self) -> dict[str, str]:
        """The edition of every standard the project computes with: its
        choices, else its jurisdiction's defaults."""
        return standard_editions.resolve(self.country, self.standard_editions)

    @property
    def edition_labels(self) -> tuple[str, ...]:
        """The editions computed with, as cited: ("ISO 13855:2024", ...)."""
        return standard_editions.labels(self.editions)
