"""A floor-plan image (PNG or JPEG) drawn faded under a cell's plan, placed
by two points picked on it and the real distance between them."""
