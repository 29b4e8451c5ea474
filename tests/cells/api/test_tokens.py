"""API tokens: stored as a digest, expiring, revocable, from the token login or
the shell; and the API's throttles."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from cells.auth import api_token_create
from tests.cells.api.support import list_url
from tests.compliance.conftest import PASSWORD
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LOGIN = reverse("api:auth-login")
LOGOUT = reverse("api:auth-logout")
LOGOUT_ALL = reverse("api:auth-logout-all")


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def log_in(client: APIClient, password: str, username: str = "owner"):
    return client.post(
        LOGIN, {"username": username, "password": password}, format="json"
    )


def test_logging_in_gives_a_token_that_works_and_expires(owner):
    response = log_in(APIClient(), PASSWORD)

    assert response.status_code == 200
    token = response.json()["token"]
    assert with_token(token).get(list_url("project")).status_code == 200
    stored = AuthToken.objects.get(user=owner)
    assert stored.expiry - timezone.now() > timedelta(days=29)
    assert stored.expiry - timezone.now() <= timedelta(days=30)


def test_the_database_holds_a_digest_of_the_token_not_the_token(owner):
    _, token = api_token_create(user=owner)

    stored = AuthToken.objects.get(user=owner)

    assert stored.digest == hashlib.sha512(token.encode()).hexdigest()
    assert token not in stored.digest
    assert len(stored.token_key) < len(token) / 2  # a prefix, to find the row
    assert not AuthToken.objects.filter(digest=token).exists()


def test_a_token_past_its_expiry_is_refused(owner):
    _, token = api_token_create(user=owner)
    AuthToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))

    response = with_token(token).get(list_url("project"))

    assert response.status_code == 401
    assert not AuthToken.objects.exists()  # cleaned up


def test_a_revoked_token_is_refused(owner):
    _, token = api_token_create(user=owner)
    _, other = api_token_create(user=owner)

    logged_out = with_token(token).post(LOGOUT)

    assert logged_out.status_code == 204
    assert with_token(token).get(list_url("project")).status_code == 401
    assert with_token(other).get(list_url("project")).status_code == 200


def test_logging_out_everywhere_revokes_every_token_of_that_user(owner, viewer):
    tokens = [api_token_create(user=owner)[1] for _ in range(3)]
    _, colleagues = api_token_create(user=viewer)

    assert with_token(tokens[0]).post(LOGOUT_ALL).status_code == 204

    assert all(
        with_token(token).get(list_url("project")).status_code == 401
        for token in tokens
    )
    assert with_token(colleagues).get(list_url("project")).status_code == 200


def test_a_token_of_the_old_kind_is_refused(owner):
    # DRF's authtoken tokens were 40 hex digits, stored as sent.
    response = with_token("9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b").get(
        list_url("project")
    )

    assert response.status_code == 401


def test_a_wrong_password_gives_no_token(owner):
    response = log_in(APIClient(), "not-the-password")

    assert response.status_code == 400
    assert "Wrong username or password." in response.json()["non_field_errors"]
    assert not AuthToken.objects.exists()


def test_six_wrong_passwords_then_the_right_one_give_no_token(owner, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "token_login": None},
    }
    client = APIClient()
    for _ in range(6):
        log_in(client, "not-the-password")

    response = log_in(client, PASSWORD)

    assert response.status_code == 429
    assert "Too many wrong passwords" in response.json()["detail"]
    assert int(response["Retry-After"]) == 15 * 60
    assert not AuthToken.objects.exists()


def test_the_token_login_and_the_sign_in_page_share_the_lockout(client, owner):
    for _ in range(5):
        log_in(APIClient(), "not-the-password")

    response = client.post(
        reverse("login"), {"username": "owner", "password": PASSWORD}
    )

    assert response.status_code == 429


def test_the_token_login_has_a_throttle_of_its_own(owner, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "token_login": "3/min"},
    }
    client = APIClient()
    answers = [log_in(client, PASSWORD).status_code for _ in range(4)]

    assert answers == [200, 200, 200, 429]


def test_the_api_answers_429_past_a_users_rate(owner, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": "3/min", "token_login": None},
    }
    client = APIClient()
    client.force_authenticate(owner)

    answers = [client.get(list_url("project")).status_code for _ in range(4)]

    assert answers == [200, 200, 200, 429]


def test_the_api_answers_429_past_the_anonymous_rate(db, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "2/min", "user": None, "token_login": None},
    }
    client = APIClient()

    # The token login is open to anonymous callers; an empty body is a 400.
    answers = [client.post(LOGIN, {}, format="json").status_code for _ in range(3)]

    assert answers == [400, 400, 429]


def test_create_api_token_prints_the_token_once(owner):
    out, err = StringIO(), StringIO()

    call_command("create_api_token", "owner", "--days", "2", stdout=out, stderr=err)

    token = out.getvalue().strip()
    assert "valid until" in err.getvalue()
    assert with_token(token).get(list_url("project")).status_code == 200
    stored = AuthToken.objects.get(user=owner)
    assert timedelta(days=1) < stored.expiry - timezone.now() <= timedelta(days=2)


@pytest.mark.parametrize(
    "args", [["nobody"], ["owner", "--days", "0"], ["owner", "--days", "366"]]
)
def test_create_api_token_refuses_an_unknown_user_or_a_bad_lifetime(owner, args):
    with pytest.raises(CommandError):
        call_command("create_api_token", *args, stdout=StringIO(), stderr=StringIO())


def test_revoke_api_tokens_revokes_every_token_of_the_user(owner, viewer):
    _, token = api_token_create(user=owner)
    _, kept = api_token_create(user=viewer)

    call_command("revoke_api_tokens", "owner", stdout=StringIO())

    assert with_token(token).get(list_url("project")).status_code == 401
    assert with_token(kept).get(list_url("project")).status_code == 200


def test_a_token_made_in_the_admin_must_have_an_expiry(client, owner):
    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    client.force_login(admin)
    url = reverse("admin:knox_authtoken_add")

    refused = client.post(url, {"user": owner.pk, "expiry": ""})
    made = client.post(
        url, {"user": owner.pk, "expiry": "2099-06-01 12:00"}, follow=True
    )

    assert refused.status_code == 200 and "This field is required" in refused.text
    assert AuthToken.objects.get().expiry.year == 2099
    assert "TOKEN " in made.text  # shown once, by knox
