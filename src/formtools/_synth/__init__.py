"""Stage 3 — synthesize: forms → tools under a profile.

A profile is a table of rules (:mod:`.profile`): ``chromium`` (:mod:`.chromium`) is the base,
``html`` (:mod:`.html`) and ``portable`` (:mod:`.portable`) are derived from it. Importing this
package registers the three.
"""

from formtools._synth import chromium, html, portable  # noqa: F401  (registers the built-in profiles)
