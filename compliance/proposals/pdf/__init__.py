"""The PoC proposal PDF: its data object (``data``) and its builder
(``builder``), on the document kit (``compliance.documents``). Pure: no ORM,
no Django beyond translating fixed labels."""

# The kit first: it turns reportlab's shape checking off before any shape
# class is made.
import compliance.documents  # noqa: F401
