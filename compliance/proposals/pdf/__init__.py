"""The PoC proposal PDF: its data object (``data``) and its builder
(``builder``). Pure: no ORM, no Django beyond translating fixed labels."""

from reportlab import rl_config

# reportlab checks every attribute set on a graphics shape against its type
# (a development aid, "it slows down shapes"): a large plan sets some 11,000.
# The figures are built by this package's own code, which the tests draw.
# Set before reportlab.graphics.shapes is imported, it defines no checking
# __setattr__ at all.
rl_config.shapeChecking = 0
