"""gunicorn settings for the Talon API. Threads, because SSE and long-polls hold a request open."""
import gc
import logging
import os
import signal

from gunicorn.glogging import Logger

bind = os.environ.get("GUNICORN_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "16"))
# An SSE response may last stream_max_s (300 s); gthread workers heartbeat independently of requests.
timeout = 60
graceful_timeout = 20
keepalive = 5
accesslog = os.environ.get("GUNICORN_ACCESSLOG")  # unset: no access log
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
# Several instances on one host would share (and delete) one control socket in $HOME.
control_socket_disable = True

# gunicorn's own lines as JSON like the app's (service/observability.py); the root logger gets its
# handler from the app, so nothing is printed twice.
_formatter = ("service.observability.TextFormatter" if os.environ.get("LOG_FORMAT") == "text"
              else "service.observability.JsonFormatter")
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "root": {"level": loglevel.upper(), "handlers": []},
    "loggers": {
        "gunicorn.error": {"level": loglevel.upper(), "handlers": ["stderr"], "propagate": False,
                           "qualname": "gunicorn.error"},
        # gunicorn logs every request here once a logconfig_dict is given; the app logs its own request
        # lines already, so only GUNICORN_ACCESSLOG turns these on (a formatted line per request costs).
        "gunicorn.access": {"level": "INFO" if accesslog else "WARNING", "handlers": ["stderr"], "propagate": False,
                            "qualname": "gunicorn.access"},
    },
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "talon", "stream": "ext://sys.stderr"}},
    "formatters": {"talon": {"()": _formatter}},
}


class TalonLogger(Logger):
    """gunicorn's logger, building a request's access-log line only when the access logger writes it.

    gunicorn counts its access log as on whenever a logconfig_dict is given (ours, for JSON lines), and
    then gathers and formats every request's fields before the logger drops the line below its level:
    about 5% of a worker's CPU under load (py-spy), for nothing unless GUNICORN_ACCESSLOG is set."""

    def setup(self, cfg):
        super().setup(cfg)  # applies logconfig_dict, which sets the access logger's level
        self._access_log_enabled = self._access_log_enabled and self.access_log.isEnabledFor(logging.INFO)


logger_class = TalonLogger


def post_worker_init(worker):
    """On SIGTERM (a stop, a deploy) the worker lets open long-polls and event streams end within
    seconds (service/shutdown.py), instead of its graceful stop waiting the whole graceful_timeout for
    them and then cutting them off."""
    from service import shutdown
    stop = worker.handle_exit

    def handle_exit(sig, frame):
        shutdown.begin()
        stop(sig, frame)

    signal.signal(signal.SIGTERM, handle_exit)
    signal.siginterrupt(signal.SIGTERM, False)  # as gunicorn had it: the signal does not disturb requests
    # The app is loaded: what exists now (modules, the app, schemas, the spec; ~66k objects) lives as long
    # as the process, and a full garbage collection that walks it took 30-80 ms here, a pause of every
    # thread of the worker that showed in the latency's tail. Frozen, the collector no longer walks it.
    gc.freeze()


# Prometheus multiprocess mode: each worker writes its samples to PROMETHEUS_MULTIPROC_DIR (which
# must exist and be empty at start: scripts/run and the deploy config give a fresh one), and /metrics
# on any worker aggregates them. A worker that exits is marked dead so its live gauges drop out.
def on_starting(server):
    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if path:
        os.makedirs(path, exist_ok=True)


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess
        multiprocess.mark_process_dead(worker.pid)
