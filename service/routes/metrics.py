"""GET /metrics: Prometheus metrics, for operators (the operator token)."""

from __future__ import annotations

from flask import Response, current_app
from flask_smorest import Blueprint
from prometheus_client import CONTENT_TYPE_LATEST

from app import telemetry
from service.http import problems, require_operator

blp = Blueprint("metrics", __name__, description="Prometheus metrics")


@blp.route("/metrics", methods=["GET"])
@blp.doc(operationId="metrics", security=[{"operator": []}])
@blp.response(
    200,
    {"type": "string"},
    description="Prometheus metrics (text exposition format), aggregated over the API's "
    "worker processes; queue depth and failed jobs from rq",
    content_type="text/plain",
)
@problems(blp, "unauthorized", "forbidden", "too-many-requests")
def metrics():
    """Prometheus metrics, for operators

    The text exposition format, summed over the API's processes. With the operator token only: the
    metrics tell how the service runs (the bots' decision times among them), nothing a player needs.
    Prometheus sends it with `authorization: {credentials_file: ...}` in its scrape config."""
    require_operator()
    body = telemetry.metrics_text(current_app.extensions["talon_settings"], current_app.extensions.get("talon_metrics"))
    return Response(body, content_type=CONTENT_TYPE_LATEST)
