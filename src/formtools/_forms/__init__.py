"""Stage 2 — forms: the form model (owners, controls), control values and constraint validation."""
