"""An organisation's supplier quotes over the API: list them, import one
from its spreadsheet, read one with its rows and how each was matched,
confirm or correct a row's match, delete a quote. Writes go through
``compliance.costs.quotes.services``: a file with any problem answers 400
listing each row and column at fault and saves nothing; a quote number
already stored answers 409 with what the file would change until the
request says ``replace``; another organisation's quote is a 404."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors as cell_selectors
from cells.permissions import require_edit
from compliance.costs.catalogue import CATALOGUE_BY_KEY
from compliance.costs.quotes import reading, selectors, services
from compliance.costs.quotes.models import QuoteRow, SupplierQuote
from compliance.safety_functions.models import LibraryDevice


class QuoteRowSerializer(serializers.ModelSerializer):
    """One item of a quote and what it prices (``catalogue_key``, and the
    library device it names), with how that was found (``matched_by``)."""

    class Meta:
        model = QuoteRow
        fields = [
            "id",
            "row",
            "kind",
            "maker",
            "part_number",
            "model",
            "description",
            "unit",
            "price_low",
            "price_high",
            "currency",
            "minimum_order",
            "lead_time_weeks_low",
            "lead_time_weeks_high",
            "catalogue_key",
            "library_device",
            "matched_by",
        ]
        read_only_fields = fields


class SupplierQuoteSerializer(serializers.ModelSerializer):
    """A supplier's quote: who, its number, its date and validity, whether it
    has expired today."""

    expired = serializers.SerializerMethodField()

    class Meta:
        model = SupplierQuote
        fields = ["id", "supplier", "number", "quoted_on", "valid_until", "expired"]
        read_only_fields = fields

    def get_expired(self, quote: SupplierQuote) -> bool:
        return quote.expired_on(timezone.localdate())


class SupplierQuoteDetailSerializer(SupplierQuoteSerializer):
    rows = QuoteRowSerializer(many=True, read_only=True)

    class Meta(SupplierQuoteSerializer.Meta):
        fields = [*SupplierQuoteSerializer.Meta.fields, "rows"]
        read_only_fields = fields


class QuoteImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="The quote as XLSX or CSV (UTF-8).")
    replace = serializers.BooleanField(
        default=False,
        help_text="Replace the stored quote of the same supplier and number.",
    )


class RowMatchSerializer(serializers.Serializer):
    catalogue_key = serializers.CharField(
        allow_blank=True, max_length=60, help_text="A catalogue entry, or ''."
    )
    library_device = serializers.IntegerField(required=False, allow_null=True)


def _organisation(request: Request, pk: int):
    return get_object_or_404(cell_selectors.organisations_for(request.user), pk=pk)


def _problems(error: reading.QuoteFileError) -> list[dict]:
    return [
        {"row": p.row, "column": p.column, "message": p.message.render(_)}
        for p in error.problems
    ]


class QuoteListView(APIView):
    """The organisation's supplier quotes: list them, or import one."""

    parser_classes = [MultiPartParser]

    @extend_schema(
        tags=["compliance"],
        summary="The organisation's supplier quotes, newest first",
        responses={200: SupplierQuoteSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        organisation = _organisation(request, pk)
        quotes = SupplierQuote.objects.filter(organisation=organisation)
        return Response(SupplierQuoteSerializer(quotes, many=True).data)

    @extend_schema(
        tags=["compliance"],
        summary="Import a supplier quote from its spreadsheet",
        request={"multipart/form-data": QuoteImportSerializer},
        responses={
            201: SupplierQuoteDetailSerializer,
            400: OpenApiResponse(description="Nothing was imported: the problems."),
            409: OpenApiResponse(description="Stored already: what would change."),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        organisation = _organisation(request, pk)
        require_edit(request.user, organisation.pk)
        given = QuoteImportSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        upload = given.validated_data["file"]
        if upload.size > reading.MAX_FILE_BYTES:
            raise ValidationError(
                {
                    "file": [
                        _("The file is larger than %(mb)s MB.")
                        % {"mb": reading.MAX_FILE_BYTES // 2**20}
                    ]
                }
            )
        data, name = upload.read(), upload.name or ""
        try:
            preview = services.quote_import_preview(
                organisation=organisation, actor=request.user, data=data, filename=name
            )
            if preview.replaces and not given.validated_data["replace"]:
                return Response(
                    {
                        "detail": _(
                            "This quote is stored already: send replace=true to "
                            "replace it."
                        ),
                        "added": len(preview.added),
                        "removed": len(preview.removed),
                        "changed": len(preview.changed),
                    },
                    status=status.HTTP_409_CONFLICT,
                )
            quote = services.quote_import(
                organisation=organisation,
                actor=request.user,
                data=data,
                filename=name,
                replace=preview.replaces,
            )
        except reading.QuoteFileError as error:
            raise ValidationError({"file": _problems(error)}) from error
        quote = selectors.quote_for(request.user, quote.pk)
        return Response(
            SupplierQuoteDetailSerializer(quote).data, status=status.HTTP_201_CREATED
        )


class QuoteDetailView(APIView):
    """One supplier quote with its rows: read it, or delete it."""

    @extend_schema(
        tags=["compliance"],
        summary="A supplier quote with its rows and their matches",
        responses={200: SupplierQuoteDetailSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        quote = selectors.quote_for(request.user, pk)
        return Response(SupplierQuoteDetailSerializer(quote).data)

    @extend_schema(tags=["compliance"], responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        quote = selectors.quote_for(request.user, pk)
        services.quote_delete(quote=quote, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class QuoteRowMatchView(APIView):
    """Confirm or correct what one row of a quote prices."""

    @extend_schema(
        tags=["compliance"],
        summary="Confirm or correct a quote row's match",
        request=RowMatchSerializer,
        responses={200: QuoteRowSerializer},
    )
    def put(self, request: Request, pk: int, row_pk: int) -> Response:
        quote = selectors.quote_for(request.user, pk)
        row = next((r for r in quote.rows.all() if r.pk == row_pk), None)
        if row is None:
            return Response(status=status.HTTP_404_NOT_FOUND)
        require_edit(request.user, quote.organisation_id)
        given = RowMatchSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        key = given.validated_data["catalogue_key"]
        if key and key not in CATALOGUE_BY_KEY:
            raise ValidationError(
                {"catalogue_key": [_("There is no such catalogue entry.")]}
            )
        device_id = given.validated_data.get("library_device")
        device = None
        if device_id is not None:
            device = LibraryDevice.objects.filter(
                organisation_id=quote.organisation_id, pk=device_id
            ).first()
            if device is None:
                raise ValidationError(
                    {"library_device": [_("There is no such library device.")]}
                )
        row = services.quote_row_match(
            row=row, actor=request.user, catalogue_key=key, library_device=device
        )
        return Response(QuoteRowSerializer(row).data)
