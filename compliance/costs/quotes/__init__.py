"""Supplier quotes: an organisation's suppliers' prices, imported from a
spreadsheet (``reading``, pure), matched to the device library and the
catalogue (``matching``, pure) and pricing the cost lines of every cell of
the organisation (``pricing``, pure). ``models``, ``services``,
``selectors``, ``views`` and ``api`` are the Django edge."""
