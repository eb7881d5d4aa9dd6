"""Liveness and readiness for load balancers and Kubernetes probes."""
from __future__ import annotations

import redis
from flask_smorest import Blueprint

from service.http import json_response, problems, talon
from service.problems import Problem
from service.schemas import Health

blp = Blueprint("health", __name__, description="Probes")


@blp.route("/livez", methods=["GET"])
@blp.response(200, Health)
def livez():
    """The process is up"""
    return json_response({"status": "ok"})


@blp.route("/readyz", methods=["GET"])
@blp.response(200, Health)
@problems(blp, 503)
def readyz():
    """Ready to serve: Redis answers"""
    try:
        talon().redis.ping()
    except redis.RedisError:
        raise Problem(503, "unavailable", "Redis is unreachable", headers={"Retry-After": "2"}) from None
    return json_response({"status": "ready"})
