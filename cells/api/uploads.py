"""Uploads refused before they are read: a request whose declared length is
past what its file may be, plus the other fields and the multipart framing."""

from __future__ import annotations

# Room for the other fields of a multipart request and its framing.
MULTIPART_ALLOWANCE_BYTES = 64 * 1024


def declared_too_large(request, file_limit_bytes: int) -> bool:
    """Whether the request says it is larger than a file of
    ``file_limit_bytes`` can make it, before any of it is read."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length > file_limit_bytes + MULTIPART_ALLOWANCE_BYTES
