"""PoC plans: the physical-first schedule and the sim-first comparison.

Pure Python with pydantic, no Django: ``schedule`` (activities, the forward
pass and the critical path), ``inputs`` (the plan's inputs and assumption
defaults), ``physical`` and ``sim_first`` (the two plans), ``comparison`` and
``explanations`` (comparing them honestly). The Django edge (``models``,
``selectors``, ``services``, ``views``, ``api``) sits beside them and is not
imported here.
"""
