"""Adapters of the application's ports to the libraries that implement them (app/ports.py)."""
