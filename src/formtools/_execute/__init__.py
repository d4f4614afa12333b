"""Stages 4–9 — execute: validate, fill, entry list, encode, request, send, result."""
