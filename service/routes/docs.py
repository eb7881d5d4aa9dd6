"""The committed spec at /openapi.yaml, and a browsable reference at /docs with local assets (no CDN)."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, send_from_directory

blp = Blueprint("docs", __name__)

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"

DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Talon API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/start.js"></script>
</body></html>"""
# A file, not an inline script: the page runs under the service's Content-Security-Policy (service/headers.py).
START_SCRIPT = 'SwaggerUIBundle({url: "/openapi.yaml", dom_id: "#ui", deepLinking: true});\n'


def _assets_dir() -> Path:
    # Swagger UI 5 (the spec is OpenAPI 3.1, which Swagger UI 4 does not render), as the flask-swagger-ui
    # package ships its files; only the two assets below are served from it.
    import flask_swagger_ui

    return Path(flask_swagger_ui.__file__).resolve().parent / "dist"


@blp.route("/openapi.yaml")
def openapi_yaml():
    if not SPEC_PATH.exists():
        abort(404)
    return Response(SPEC_PATH.read_bytes(), mimetype="application/yaml")


@blp.route("/docs")
def docs_page():
    return Response(DOCS_PAGE, mimetype="text/html")


@blp.route("/docs/assets/start.js")
def docs_start():
    return Response(START_SCRIPT, mimetype="text/javascript", headers={"Cache-Control": "max-age=86400"})


@blp.route("/docs/assets/<path:name>")
def docs_asset(name: str):
    if name not in ("swagger-ui.css", "swagger-ui-bundle.js"):
        abort(404)
    return send_from_directory(_assets_dir(), name, max_age=86400)
