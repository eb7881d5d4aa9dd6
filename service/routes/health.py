"""Liveness and readiness for load balancers and Kubernetes probes."""

from __future__ import annotations

import redis
from flask import current_app
from flask_smorest import Blueprint

from service.http import json_response, problems
from service.problems import Problem
from service.schemas import Health

blp = Blueprint("health", __name__, description="Probes")


@blp.route("/livez", methods=["GET"])
@blp.doc(operationId="livez", security=[])
@blp.response(200, Health, description="The process is up")
@problems(blp)
def livez():
    """Liveness: the process is up

    For load balancers and Kubernetes' liveness probe; asks nothing of Redis."""
    return json_response({"status": "ok"})


@blp.route("/readyz", methods=["GET"])
@blp.doc(operationId="readyz", security=[])
@blp.response(200, Health, description="Ready: Redis answers")
@problems(blp, "unavailable")
def readyz():
    """Readiness: Redis answers

    For Kubernetes' readiness probe: 503 `unavailable` while Redis is out of reach."""
    try:
        current_app.extensions["talon_probe_redis"].ping()
    except redis.RedisError:
        raise Problem(503, "unavailable", "Redis is unreachable", headers={"Retry-After": "2"}) from None
    return json_response({"status": "ready"})
