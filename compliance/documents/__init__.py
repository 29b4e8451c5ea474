"""The document kit every report stands on: the bundled fonts, the theme
(colours, measures, number and date formats), the A4 page, flowables, a
table-and-paragraph kit and the figures' canvas renderer. Pure (no Django);
it imports no report: the proposal and the risk-assessment report both build
on it, neither imports the other. Reports translate their fixed labels with
Django's ``gettext`` under ``override(language)``: one catalogue (the
project's ``LOCALE_PATHS``) for the pages, the API and the PDFs."""

from reportlab import rl_config

# reportlab checks every attribute set on a graphics shape against its type
# (a development aid, "it slows down shapes"): a large plan sets some 11,000.
# The figures are built by the reports' own code, which the tests draw. Set
# before reportlab.graphics.shapes is imported, it defines no checking
# __setattr__ at all.
rl_config.shapeChecking = 0
