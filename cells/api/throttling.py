"""How often the API answers one client: DRF's throttles, reading their rates
from the settings at each request.

DRF copies ``DEFAULT_THROTTLE_RATES`` into its throttle classes when it is
first imported, so a changed setting (an override in a test) would go unseen;
these read the current value instead.
"""

from __future__ import annotations

from rest_framework import throttling
from rest_framework.settings import api_settings


class CurrentRatesMixin:
    @property
    def THROTTLE_RATES(self) -> dict[str, str | None]:  # DRF's name
        return api_settings.DEFAULT_THROTTLE_RATES


class AnonThrottle(CurrentRatesMixin, throttling.AnonRateThrottle):
    """Anonymous callers, by address."""


class UserThrottle(CurrentRatesMixin, throttling.UserRateThrottle):
    """Signed-in callers, by user; anonymous ones by address."""


class ScopedThrottle(CurrentRatesMixin, throttling.ScopedRateThrottle):
    """A view's own ``throttle_scope``, by user or address."""
