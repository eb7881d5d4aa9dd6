"""Deployment files: rendered and checked by the real tools where they exist, and structurally always."""
