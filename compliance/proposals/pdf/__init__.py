"""The PoC proposal PDF: its data object (``data``) and its builder
(``builder``). Pure: no ORM, no Django beyond translating fixed labels."""
