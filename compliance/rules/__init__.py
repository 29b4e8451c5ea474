"""Jurisdiction rule packs as typed data with citations, and pure evaluators.

``engine.evaluate(CellFacts)`` gives each applicable rule with its findings.
``facts`` holds the cell model, ``findings`` the Rule and Finding models,
``korea`` (with ``korea_texts``) the Korea pack, and ``baseline`` (with
``sensing`` and ``collaborative``) the international baseline. No Django here:
the web layer builds ``CellFacts`` from the database.
"""
