"""Standards calculators: pure functions, one module per standard, no Django.

``registry.CALCULATORS`` maps each calculator's URL name to its description.
"""
