"""The browser client at `/`: static HTML, CSS, JavaScript and message catalogs (no build step), kept
out of the API spec.

The client talks to the service only through the public HTTP API, so it doubles as an example for
integrators. Its assets live in service/static/ and are served under /web/; the icon also at the two
addresses browsers ask for by themselves.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, request, send_from_directory

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"
ICON = "favicon.svg"

blp = Blueprint("web", __name__, static_folder=str(STATIC_DIR), static_url_path="/web")


@blp.route("/")
def index():
    # no-cache: a new release's page must not run against an old cached script, or the reverse.
    response = send_from_directory(STATIC_DIR, "index.html", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.route("/favicon.svg")
@blp.route("/favicon.ico")
def favicon():
    # An SVG under either name: browsers take it, and no request for the icon ends in a 404.
    return send_from_directory(STATIC_DIR, ICON, mimetype="image/svg+xml", max_age=86400)


@blp.after_request
def static_headers(response):
    """The assets are revalidated on every load (no build step means no hashed names: a cached script
    must not outlive a release). The security headers are service/headers.py's, on every response."""
    if request.path.startswith("/web/"):
        response.headers["Cache-Control"] = "no-cache"
    return response
