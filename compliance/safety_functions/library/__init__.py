"""The organisation's device library: makers' devices with their data-sheet
safety figures, starting from the reference entries."""
