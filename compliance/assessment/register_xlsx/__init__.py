"""The hazard register of a revision as an XLSX workbook, out and in.

``export.register_workbook`` writes the template (sheets "Hazards",
"Measures" and "Read me"); ``importer.register_import`` reads the same
template into a draft revision: every row checked, errors by sheet and row,
nothing saved unless every row passes, new hazards appended (never an
existing one overwritten). Writes go through ``compliance.assessment.services``,
so each hazard and measure gets its audit entry.
"""
