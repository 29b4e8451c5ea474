"""Proposal PDFs over the API: ask for one (202 with the document's URL), poll
the document (202 while it is being built, 200 once finished), download it.
With the broker down, asking answers 503 and leaves no document."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cells import selectors as cell_selectors
from compliance.proposals.models import ProposalDocument
from compliance.proposals.pdf.data import SECTIONS
from compliance.proposals.services import (
    QUEUE_UNAVAILABLE,
    QueueUnavailable,
    proposal_document_recover,
    proposal_request,
)
from compliance.proposals.views import documents_for, pdf_response, ready_document
from compliance.rules.selectors import cell_stamp, shown_supersession
from compliance.rules.serializers import (
    ComputedUnderSerializer,
    RuleDifferenceSerializer,
)


class ProposalRequestSerializer(serializers.Serializer):
    language = serializers.ChoiceField(choices=["ko", "en"])
    sections = serializers.MultipleChoiceField(
        choices=list(SECTIONS), required=False, default=list(SECTIONS)
    )

    def validate_sections(self, value):
        if not value:
            raise serializers.ValidationError("Choose at least one section.")
        return sorted(value, key=SECTIONS.index)


class ProposalDocumentSerializer(serializers.ModelSerializer):
    number = serializers.CharField(source="proposal.number", read_only=True)
    sections = serializers.ListField(
        child=serializers.ChoiceField(choices=list(SECTIONS)), read_only=True
    )
    # What the check before building said when it was asked for.
    notes = serializers.ListField(child=serializers.CharField(), read_only=True)
    url = serializers.SerializerMethodField()
    pdf_url = serializers.SerializerMethodField()
    computed_under = ComputedUnderSerializer(
        read_only=True,
        allow_null=True,
        help_text="The rules, packs and editions its findings were computed "
        "under; null until built, and for versions built before this was "
        "recorded (taken as release 1).",
    )
    superseded = serializers.SerializerMethodField(
        help_text="Built versions: whether the rules it was computed under differ "
        "from the cell's rules now (a rule, a pack or an edition changed); build "
        "it again to compute under the current rules. Null until built."
    )
    superseded_rules = serializers.SerializerMethodField(
        help_text="Built versions: the rules that differ, each added, changed or "
        "removed since; empty when none does."
    )

    class Meta:
        model = ProposalDocument
        fields = [
            "id",
            "number",
            "version",
            "language",
            "sections",
            "status",
            "error",
            "requested_at",
            "started_at",
            "finished_at",
            "attempts",
            "sha256",
            "size_bytes",
            "notes",
            "url",
            "pdf_url",
            "computed_under",
            "superseded",
            "superseded_rules",
        ]

    def _absolute(self, name: str, pk: int) -> str:
        request = self.context.get("request")
        path = reverse(name, args=[pk])
        return request.build_absolute_uri(path) if request else path

    def _under(self, document) -> dict[str, Any] | None:
        today = self.context.get("today")
        if today is None or document.status != ProposalDocument.Status.READY:
            return None
        return shown_supersession(document.computed_under, today)

    def get_superseded(self, document) -> bool | None:
        under = self._under(document)
        return None if under is None else under["superseded"]

    @extend_schema_field(RuleDifferenceSerializer(many=True))
    def get_superseded_rules(self, document) -> list[dict[str, str]]:
        under = self._under(document)
        if under is None:
            return []
        return [
            {"rule_id": r["rule_id"], "change": r["change"]} for r in under["rules"]
        ]

    def get_url(self, document) -> str:
        return self._absolute("proposal-document", document.pk)

    def get_pdf_url(self, document) -> str | None:
        if document.status != ProposalDocument.Status.READY:
            return None
        return self._absolute("proposal-document-pdf", document.pk)


class ProposalQueueUnavailable(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = QUEUE_UNAVAILABLE
    default_code = "queue_unavailable"


def _today(request: Request, cell_id: int):
    return cell_stamp(cell_selectors.cell_with_layout(request.user, cell_id))


def _document(request: Request, document) -> dict[str, Any]:
    today = (
        _today(request, document.proposal.cell_id)
        if document.status == ProposalDocument.Status.READY
        else None
    )
    return ProposalDocumentSerializer(
        document, context={"request": request, "today": today}
    ).data


class CellProposalsView(APIView):
    @extend_schema(
        tags=["proposals"],
        summary="The proposal documents (versions) of a cell",
        responses={200: ProposalDocumentSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        documents = documents_for(request.user).filter(proposal__cell=cell)
        context = {"request": request, "today": _today(request, cell.pk)}
        return Response(
            ProposalDocumentSerializer(documents, many=True, context=context).data
        )

    @extend_schema(
        tags=["proposals"],
        summary="Ask for a new proposal PDF",
        request=ProposalRequestSerializer,
        responses={
            202: ProposalDocumentSerializer,
            503: OpenApiResponse(
                description="The task queue cannot be reached; nothing was queued"
            ),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_for(request.user, pk)
        serializer = ProposalRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            document = proposal_request(
                cell=cell, actor=request.user, **serializer.validated_data
            )
        except QueueUnavailable as exc:
            raise ProposalQueueUnavailable from exc
        document.refresh_from_db()
        data = _document(request, document)
        return Response(
            data, status=status.HTTP_202_ACCEPTED, headers={"Location": data["url"]}
        )


class ProposalDocumentView(APIView):
    @extend_schema(
        tags=["proposals"],
        summary="A proposal document: 202 while it is being built, 200 once finished",
        responses={200: ProposalDocumentSerializer, 202: ProposalDocumentSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        document = get_object_or_404(documents_for(request.user), pk=pk)
        # Claim on read: a document whose worker died is sent again.
        with suppress(QueueUnavailable):  # tried again at the next poll
            proposal_document_recover(document=document)
        code = status.HTTP_200_OK if document.finished else status.HTTP_202_ACCEPTED
        return Response(_document(request, document), status=code)


class ProposalDocumentPdfView(APIView):
    @extend_schema(
        tags=["proposals"],
        summary="The PDF of a ready proposal document",
        responses={
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY),
            404: OpenApiResponse(description="No such document, or not ready yet"),
        },
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        return pdf_response(ready_document(request.user, pk))
