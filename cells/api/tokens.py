"""API tokens over HTTP: log in with a username and password for a token that
expires, log out to revoke it (or all of one's tokens).

Logging in is a sign-in like the page's: wrong passwords count towards the
same lockout (django-axes), and it has a stricter throttle of its own.
"""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_cool_off
from django.contrib.auth import authenticate, user_logged_in
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from knox import views as knox_views
from rest_framework import serializers
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells.api.throttling import AnonThrottle, ScopedThrottle
from cells.auth import api_token_create, lockout_message


class TokenLoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(
        max_length=4096, trim_whitespace=False, style={"input_type": "password"}
    )


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(
        help_text="Send it as `Authorization: Token <token>`. Shown only this "
        "once: the server keeps a digest of it."
    )
    expiry = serializers.DateTimeField(help_text="When the token stops working.")


NO_CONTENT = OpenApiResponse(description="Revoked.")


class TokenLoginView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [AnonThrottle, ScopedThrottle]
    throttle_scope = "token_login"

    @extend_schema(
        operation_id="auth_login",
        summary="Log in for an API token",
        description="A username and password give a new token that expires "
        "(`expiry`). Wrong passwords count towards the sign-in lockout: "
        "after too many, 429 until it ends.",
        request=TokenLoginSerializer,
        responses={
            200: TokenSerializer,
            400: OpenApiResponse(description="Wrong username or password."),
            429: OpenApiResponse(description="Locked out, or too many requests."),
        },
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        body = TokenLoginSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        username = body.validated_data["username"]
        user = authenticate(
            request, username=username, password=body.validated_data["password"]
        )
        if user is None:
            if AxesProxyHandler.is_locked(request, {"username": username}):
                cool_off = get_cool_off()
                raise Throttled(
                    wait=cool_off.total_seconds() if cool_off else None,
                    detail=lockout_message(),
                )
            raise ValidationError(
                {"non_field_errors": [_("Wrong username or password.")]}
            )
        instance, token = api_token_create(user=user)
        # What signing in on the page sends: the last login is recorded and
        # the user's earlier failures are forgotten.
        user_logged_in.send(sender=user.__class__, request=request, user=user)
        return Response(
            TokenSerializer({"token": token, "expiry": instance.expiry}).data
        )


@extend_schema_view(
    post=extend_schema(
        operation_id="auth_logout",
        summary="Revoke the token this request is made with",
        request=None,
        responses={204: NO_CONTENT},
        tags=["auth"],
    )
)
class TokenLogoutView(knox_views.LogoutView):
    pass


@extend_schema_view(
    post=extend_schema(
        operation_id="auth_logout_all",
        summary="Revoke every API token of the user this request is made with",
        request=None,
        responses={204: NO_CONTENT},
        tags=["auth"],
    )
)
class TokenLogoutAllView(knox_views.LogoutAllView):
    pass
