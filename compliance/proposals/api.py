"""Proposal PDFs over the API: ask for one (202 with the document's URL), poll
the document (202 while it is being built, 200 once finished), download it.
With the broker down, asking answers 503 and leaves no document."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from django.db import transaction
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
from cells.permissions import require_edit
from compliance.proposals import authoring, selectors
from compliance.proposals.models import (
    LANGUAGE_CODES,
    LANGUAGES,
    ProposalDocument,
    ProposalText,
    ShownPasses,
    ShownRules,
)
from compliance.proposals.pdf.data import CUSTOMER_SECTIONS, SECTIONS
from compliance.proposals.selectors import cell_status
from compliance.proposals.services import (
    proposal_choices_save,
    proposal_request,
    proposal_texts_save,
)
from compliance.proposals.tasks import (
    QUEUE_UNAVAILABLE,
    QueueUnavailable,
    proposal_document_recover,
)
from compliance.proposals.views import documents_for, pdf_response, ready_document
from compliance.rules.selectors import cell_stamp, shown_supersession
from compliance.rules.serializers import (
    ComputedUnderSerializer,
    RuleDifferenceSerializer,
)


class ProposalRequestSerializer(serializers.Serializer):
    language = serializers.ChoiceField(choices=LANGUAGE_CODES)
    sections = serializers.MultipleChoiceField(
        choices=list(SECTIONS), required=False, default=list(CUSTOMER_SECTIONS)
    )
    rules_shown = serializers.ChoiceField(
        choices=ShownRules.choices,
        required=False,
        help_text="Which rules to list; left out: as the proposal keeps it.",
    )
    passes_shown = serializers.ChoiceField(
        choices=ShownPasses.choices,
        required=False,
        help_text="How to show the passed checks; left out: as the proposal keeps it.",
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
            "rules_shown",
            "passes_shown",
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
        given = serializer.validated_data
        try:
            document = proposal_request(
                cell=cell,
                actor=request.user,
                language=given["language"],
                sections=given["sections"],
                rules=given.get("rules_shown"),
                passes=given.get("passes_shown"),
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


# --- what the SA writes and chooses (issue 15) ----------------------------------


class ProposalTextSerializer(serializers.Serializer):
    language = serializers.ChoiceField(choices=LANGUAGE_CODES)
    summary = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        max_length=ProposalText.SUMMARY_MAX,
        help_text="The executive summary as the proposal prints it: the SA's, "
        "or else the one generated from the cell. Send it to write it; send "
        '"" (or the generated text unchanged) to use the generated one.',
    )
    safety_concept = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        max_length=ProposalText.SAFETY_CONCEPT_MAX,
        help_text="How the cell is safeguarded, as for the summary.",
    )
    summary_written = serializers.BooleanField(
        read_only=True, help_text="Written by the SA (else generated)."
    )
    safety_concept_written = serializers.BooleanField(
        read_only=True, help_text="Written by the SA (else generated)."
    )


class ProposalAuthoringSerializer(serializers.Serializer):
    number = serializers.CharField(
        read_only=True, allow_null=True, help_text="None until the first version."
    )
    rules_shown = serializers.ChoiceField(
        choices=ShownRules.choices,
        required=False,
        help_text="Only the rules that apply to the cell, or every rule of the "
        "packs checked.",
    )
    passes_shown = serializers.ChoiceField(
        choices=ShownPasses.choices,
        required=False,
        help_text="The passed checks summarised a line per rule, in full, or "
        "left out (fails, warnings and findings needing evidence are always in "
        "full).",
    )
    texts = ProposalTextSerializer(
        many=True,
        required=False,
        max_length=len(LANGUAGES),
        help_text="The texts in each language (Korean and English).",
    )

    def validate_texts(self, value):
        languages = [text["language"] for text in value]
        if len(set(languages)) != len(languages):
            raise serializers.ValidationError("Give each language once.")
        return value


def _authoring(cell, status) -> dict[str, Any]:
    """The proposal's choices and texts as they stand (a cell without a
    proposal yet: the defaults and the generated texts)."""
    proposal = selectors.proposal_of(cell)
    written = selectors.written_texts(cell)
    texts = []
    for code, _label in LANGUAGES:
        own = written.get(code)
        generated = authoring.generated_texts(status, code)
        texts.append(
            {
                "language": code,
                "summary": (own.summary if own else "") or generated.summary,
                "safety_concept": (own.safety_concept if own else "")
                or generated.safety_concept,
                "summary_written": bool(own and own.summary),
                "safety_concept_written": bool(own and own.safety_concept),
            }
        )
    return {
        "number": proposal.number if proposal else None,
        "rules_shown": proposal.rules_shown if proposal else ShownRules.APPLICABLE,
        "passes_shown": proposal.passes_shown if proposal else ShownPasses.SUMMARY,
        "texts": texts,
    }


class CellProposalView(APIView):
    """What the cell's proposal shows: the SA's choices and texts."""

    @extend_schema(
        tags=["proposals"],
        summary="The proposal's texts and choices of what to show",
        responses={200: ProposalAuthoringSerializer},
    )
    def get(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_with_layout(request.user, pk)
        data = _authoring(cell, cell_status(cell))
        return Response(ProposalAuthoringSerializer(data).data)

    @extend_schema(
        tags=["proposals"],
        summary="Write the proposal's texts or change what it shows",
        request=ProposalAuthoringSerializer,
        responses={200: ProposalAuthoringSerializer},
    )
    def patch(self, request: Request, pk: int) -> Response:
        cell = cell_selectors.cell_with_layout(request.user, pk)
        require_edit(request.user, cell.project.organisation_id)
        serializer = ProposalAuthoringSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        given = serializer.validated_data
        status_ = cell_status(cell)
        with transaction.atomic():
            if "rules_shown" in given or "passes_shown" in given:
                proposal_choices_save(
                    cell=cell,
                    actor=request.user,
                    rules=given.get("rules_shown"),
                    passes=given.get("passes_shown"),
                )
            for text in given.get("texts", ()):
                proposal_texts_save(
                    cell=cell,
                    actor=request.user,
                    language=text["language"],
                    summary=text.get("summary"),
                    safety_concept=text.get("safety_concept"),
                    generated=authoring.generated_texts(status_, text["language"]),
                )
        return Response(ProposalAuthoringSerializer(_authoring(cell, status_)).data)
