"""PoC plans: the physical-first schedule and the sim-first comparison.

Pure Python with pydantic, no Django. ``schedule`` holds the activities, the
forward pass with its critical path, the plan inputs and the physical-first
plan; ``comparison`` adds the sim-first plan and compares the two honestly.
"""
