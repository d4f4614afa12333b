"""Stage 3 — synthesize: forms → tools under a profile.

A profile is a table of rules (:mod:`.profile`): ``chromium`` (:mod:`.chromium`) is the base,
``html`` (:mod:`.html`) and ``portable`` (:mod:`.portable`) are derived from it. Each built-in
profile is loaded the first time it is asked for (:func:`.profile.get_profile`).
"""
