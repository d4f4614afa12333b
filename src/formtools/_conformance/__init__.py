"""Checking formtools against Chromium and the HTML Standard: lint, diff, the report, the oracle."""
