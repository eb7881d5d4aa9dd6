"""Talon's figures: `python -m bench` (or `make bench`) starts its own Redis, API and worker on loopback
ports, measures, prints a table, and stops everything. Bounded in time (about a minute)."""
