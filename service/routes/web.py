"""The browser client at `/`: static HTML, CSS and JavaScript (no build step), kept out of the API spec.

The client talks to the service only through the public HTTP API, so it doubles as an example for
integrators. Its assets live in service/static/ and are served under /web/.
"""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, send_from_directory

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"

blp = Blueprint("web", __name__, static_folder=str(STATIC_DIR), static_url_path="/web")


@blp.route("/")
def index():
    # no-cache: a new release's page must not run against an old cached script, or the reverse.
    response = send_from_directory(STATIC_DIR, "index.html", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response
