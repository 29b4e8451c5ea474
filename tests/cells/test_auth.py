"""Signing in: wrong passwords lock a username out at that address for a while
(django-axes), the sign-in page says so, and passwords must be strong enough."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import RequestFactory
from django.urls import reverse

from cells.auth import client_ip
from compliance.management.commands.seed_demo import DEMO_PASSWORD
from tests.compliance.conftest import PASSWORD
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

WRONG = "not-the-password"


@pytest.fixture
def person():
    return UserFactory(username="jiwoo")


def sign_in(client, password, username="jiwoo", address="192.0.2.10"):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_six_wrong_passwords_then_the_right_one_is_refused(client, person):
    for _ in range(6):
        sign_in(client, WRONG)

    response = sign_in(client, PASSWORD)

    assert response.status_code == 429
    assert not signed_in(client)
    assert "Too many wrong passwords" in response.text
    assert "locked for 15 minutes" in response.text
    # The page is the sign-in form again, the username kept.
    assert 'name="password"' in response.text and 'value="jiwoo"' in response.text


def test_fewer_wrong_passwords_than_the_limit_do_not_lock(client, person):
    for _ in range(4):
        sign_in(client, WRONG)

    response = sign_in(client, PASSWORD)

    assert response.status_code == 302
    assert signed_in(client)


def test_signing_in_forgets_the_earlier_wrong_passwords(client, person):
    for _ in range(4):
        sign_in(client, WRONG)
    sign_in(client, PASSWORD)
    client.logout()
    for _ in range(4):
        sign_in(client, WRONG)

    sign_in(client, PASSWORD)

    assert signed_in(client)


def test_the_lockout_is_for_that_username_at_that_address(client, person):
    UserFactory(username="minseo")
    for _ in range(5):
        sign_in(client, WRONG)

    elsewhere = sign_in(client, PASSWORD, address="198.51.100.7")
    client.logout()
    colleague = sign_in(client, PASSWORD, username="minseo")

    assert elsewhere.status_code == 302
    assert colleague.status_code == 302


def test_the_lockout_ends_after_the_cool_off(client, person):
    for _ in range(5):
        sign_in(client, WRONG)
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16)
    )

    response = sign_in(client, PASSWORD)

    assert response.status_code == 302
    assert signed_in(client)


def test_axes_reset_username_unlocks_at_once(client, person):
    for _ in range(5):
        sign_in(client, WRONG)
    assert sign_in(client, PASSWORD).status_code == 429

    call_command("axes_reset_username", "jiwoo")

    assert sign_in(client, PASSWORD).status_code == 302


def test_the_admin_sign_in_is_locked_out_too(client, person):
    person.is_staff = True
    person.save()
    for _ in range(5):
        sign_in(client, WRONG)

    response = client.post(
        reverse("admin:login"),
        {"username": "jiwoo", "password": PASSWORD},
        REMOTE_ADDR="192.0.2.10",
    )

    assert response.status_code == 429
    assert not signed_in(client)


def test_behind_a_proxy_the_client_is_the_address_the_proxy_appended():
    request = RequestFactory().get(
        "/", HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.5", REMOTE_ADDR="127.0.0.1"
    )

    assert client_ip(request) == "203.0.113.5"
    assert client_ip(RequestFactory().get("/", REMOTE_ADDR="127.0.0.1")) == (
        "127.0.0.1"
    )


@pytest.mark.parametrize(
    "password",
    [
        "password1",  # a common password
        "short-pw1",  # nine characters
        "4820193756",  # only digits
        "jiwoo.park.kim",  # too like the username and email
    ],
)
def test_weak_passwords_are_refused(password):
    user = get_user_model()(username="jiwoo.park", email="jiwoo.park@example.com")

    with pytest.raises(ValidationError):
        validate_password(password, user)


@pytest.mark.parametrize(
    ("username", "password"),
    [
        ("sa", DEMO_PASSWORD),
        ("safety", DEMO_PASSWORD),
        ("viewer", DEMO_PASSWORD),
        ("owner", PASSWORD),
        ("engineer", PASSWORD),
    ],
)
def test_the_demo_and_test_passwords_pass_the_validators(username, password):
    validate_password(password, get_user_model()(username=username))
