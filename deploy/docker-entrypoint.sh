#!/bin/sh
# The roles of the Talon image: api (gunicorn), worker (rq worker with the scheduler), dashboard
# (rq-dashboard behind basic auth), or any other command as given.
set -eu
case "${1:-api}" in
  api)
    # Prometheus multiprocess mode: every gunicorn worker writes here; /metrics aggregates them.
    export PROMETHEUS_MULTIPROC_DIR="${PROMETHEUS_MULTIPROC_DIR:-/tmp/talon-metrics}"
    rm -rf "$PROMETHEUS_MULTIPROC_DIR" && mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
    exec gunicorn -c /app/gunicorn.conf.py service.wsgi:app ;;
  worker)
    # One process: its metrics on TALON_WORKER_METRICS_PORT (default 9100).
    export TALON_WORKER_METRICS_PORT="${TALON_WORKER_METRICS_PORT:-9100}"
    exec python -m workers ;;
  dashboard)
    : "${RQ_DASHBOARD_PASSWORD:?set RQ_DASHBOARD_PASSWORD (e.g. to the operator token)}"
    exec rq-dashboard --redis-url "$REDIS_URL" --port "${RQ_DASHBOARD_PORT:-9181}" \
      --username "${RQ_DASHBOARD_USERNAME:-operator}" --password "$RQ_DASHBOARD_PASSWORD" ;;
  *)
    exec "$@" ;;
esac
