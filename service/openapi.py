"""`python -m service.openapi` prints the OpenAPI document generated from the code (make openapi)."""
from __future__ import annotations

import sys

from service.app import create_app
from service.config import Settings


def generate() -> str:
    # The Redis client is created lazily and never used here: no server is needed to write the spec.
    app = create_app(Settings(redis_url="redis://127.0.0.1:1/0"))
    return app.extensions["talon_api"].spec.to_yaml()


if __name__ == "__main__":
    sys.stdout.write(generate())
