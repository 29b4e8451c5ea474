"""Safety functions of a cell (ISO 13849-1): the chain from a hazard's PLr to
the devices that carry the function, the PL they reach, the specification and
the validation plan; and the organisation's device library."""
