"""Labour, engineering and certification work of a cell's plan: the
organisation's rates per role, its default effort or fee per activity, and
each activity's cost from them (effort × rate, both ends)."""
