"""DXF in and out: a CAD drawing's lines as the cell's guard segments (and
the rest of the drawing as a faint underlay), and the cell's plan as a DXF
drawing with a layer per kind of element.

``reading`` and ``writing`` are pure (ezdxf and pydantic, no Django); the
rest is the feature's usual furniture.
"""
