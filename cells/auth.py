"""Signing in: the lockout after repeated wrong passwords (django-axes, set up in
``config/settings.py``), a password entered again to confirm an action, which
counts towards the same lockout, and the API's tokens (django-rest-knox: kept
as a digest, expiring, revoked by deleting them).

A username is locked out at one address after ``AXES_FAILURE_LIMIT`` wrong
passwords in a row, for ``AXES_COOLOFF_TIME``; ``manage.py
axes_reset_username <username>`` unlocks it sooner.
"""

from __future__ import annotations

import enum
from datetime import timedelta

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_username, get_cool_off
from django.contrib.auth import authenticate
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext
from knox.models import AuthToken
from knox.settings import knox_settings

# The pages that sign people in; any other page that checks a password (the
# signing form, the API) answers with its own error, which says it is locked.
SIGN_IN_VIEWS = {"login", "admin:login"}


def lockout_message() -> str:
    cool_off = get_cool_off()
    minutes = max(1, round(cool_off.total_seconds() / 60)) if cool_off else 0
    return ngettext(
        "Too many wrong passwords: signing in with this username from your "
        "address is locked for %(minutes)d minute. Try again later, or ask an "
        "administrator to unlock it.",
        "Too many wrong passwords: signing in with this username from your "
        "address is locked for %(minutes)d minutes. Try again later, or ask an "
        "administrator to unlock it.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None,
    credentials: dict | None,
) -> HttpResponse:
    """What a locked-out sign-in answers (``AXES_LOCKOUT_CALLABLE``): the sign-in
    page again, saying why, with 429 Too Many Requests."""
    match = request.resolver_match
    if original_response is not None and (
        match is None or match.view_name not in SIGN_IN_VIEWS
    ):
        return original_response
    username = get_client_username(request, credentials) or ""
    context = {
        "form": AuthenticationForm(request, initial={"username": username}),
        "next": request.POST.get("next", ""),
        "lockout": lockout_message(),
    }
    return render(request, "registration/login.html", context, status=429)


def client_ip(request: HttpRequest) -> str | None:
    """The client's address behind one reverse proxy (``BEHIND_TLS_PROXY``): the
    last address in ``X-Forwarded-For``, the one the proxy itself appended
    (earlier ones are whatever the client sent)."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    addresses = [a.strip() for a in forwarded.split(",") if a.strip()]
    return addresses[-1] if addresses else request.META.get("REMOTE_ADDR")


class PasswordCheck(enum.Enum):
    RIGHT = "right"
    WRONG = "wrong"
    LOCKED_OUT = "locked_out"


def password_check(*, user, password: str, request=None) -> PasswordCheck:
    """Whether ``password`` is ``user``'s, entered again to confirm an action.

    With the ``request`` it came in (a page's or the API's), it is checked as a
    sign-in would be: a wrong one counts towards the lockout of that username
    at that address, and while locked out even the right one is refused, so a
    borrowed session cannot be used to guess the password. Without one (the
    shell, the demo data) it is only compared.
    """
    if request is None:
        right = user.check_password(password)
        return PasswordCheck.RIGHT if right else PasswordCheck.WRONG
    username = user.get_username()
    signed_in = authenticate(request, username=username, password=password)
    if signed_in is not None and signed_in.pk == user.pk:
        return PasswordCheck.RIGHT
    if AxesProxyHandler.is_locked(request, {"username": username}):
        return PasswordCheck.LOCKED_OUT
    return PasswordCheck.WRONG


def api_token_create(*, user, days: int | None = None) -> tuple[AuthToken, str]:
    """A new API token for ``user``: the stored row (a digest of the token, its
    expiry) and the token itself, which only this caller ever sees. It expires
    after ``days``, or the ``REST_KNOX["TOKEN_TTL"]`` of the settings."""
    ttl = timedelta(days=days) if days is not None else knox_settings.TOKEN_TTL
    return AuthToken.objects.create(user=user, expiry=ttl)


def api_tokens_revoke(*, user) -> int:
    """Revoke every API token of ``user``; how many there were."""
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    return deleted
