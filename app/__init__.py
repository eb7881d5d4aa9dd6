"""Talon's application layer."""
