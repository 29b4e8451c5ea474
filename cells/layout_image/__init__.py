"""A floor-plan image (PNG or JPEG, or a PDF's first page drawn) faded under a
cell's plan, placed by two points picked on it and the real distance between
them."""
