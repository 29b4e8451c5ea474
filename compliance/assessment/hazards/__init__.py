"""ISO 12100 hazard identification and risk estimation as pure data and functions.

``catalogue`` holds the ISO 12100:2010 Annex B hazard catalogue, the life-cycle
phases, the exposed persons, the three-step method and the elements of risk;
``risk`` turns ISO 13849-1 risk-graph parameters into a risk level and judges
whether a residual risk is acceptable; ``suggestions`` proposes the hazards a
robot cell typically has from a plain description of the cell, with the
hazards its application brings (``applications``).

Stdlib and pydantic only: nothing here imports Django, so the web layer, the
API, the PDF builder and background tasks can all use it.
"""
