"""The risk-assessment report: one revision as the PDF a safety engineer files.

Pure (no Django): ``data.ReportData`` in, ``builder.build_report_pdf`` out.
The data is assembled from the database by ``compliance.assessment.report_views``.
"""
