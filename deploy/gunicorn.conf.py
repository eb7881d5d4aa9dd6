"""gunicorn settings for the Talon API.

gevent workers: every connection is a greenlet on one event loop per process, so an open event stream,
a waiting long-poll or a client that sends its request slowly holds no OS thread (docs/ARCHITECTURE.md,
"Serving connections"). The application code is plain blocking Flask; gevent's monkey-patching, which
the worker applies before it loads the app, makes its socket and Redis waits cooperative."""

import gc
import logging
import os
import resource
import signal

from gunicorn.glogging import Logger

from app.settings import Settings  # light: nothing that opens a socket before the workers patch

_settings = Settings.from_env()
bind = _settings.gunicorn_bind or f"0.0.0.0:{_settings.port}"
workers = _settings.web_concurrency
# gunicorn's gevent worker, accepting TALON_ACCEPT_PER_TURN connections per turn of its loop, not one.
worker_class = "service.gworker.TalonGeventWorker"
# Connections each worker process holds at most (streams and long-polls included); beyond them the
# process stops accepting until one closes. The file-descriptor limit must allow them (raised below).
worker_connections = _settings.worker_connections
# The worker's heartbeat to the arbiter runs on the loop: a response never blocks it for long.
timeout = 60
graceful_timeout = 20
# Also the time a client has to send a request's line and headers (gevent workers bound that read by
# it, for the first request of a connection as for the next ones): a client that never finishes its
# headers is dropped after it. A request's body has Settings.body_timeout_s (service/http.py).
keepalive = 5
accesslog = _settings.access_log  # unset: no access log
errorlog = "-"
loglevel = _settings.log_level.lower()
# Several instances on one host would share (and delete) one control socket in $HOME.
control_socket_disable = True

# gunicorn's own lines as JSON like the app's (service/observability.py); the root logger gets its
# handler from the app, so nothing is printed twice.
_formatter = "app.logformat.TextFormatter" if _settings.log_format == "text" else "app.logformat.JsonFormatter"
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "root": {"level": loglevel.upper(), "handlers": []},
    "loggers": {
        "gunicorn.error": {
            "level": loglevel.upper(),
            "handlers": ["stderr"],
            "propagate": False,
            "qualname": "gunicorn.error",
        },
        # gunicorn logs every request here once a logconfig_dict is given; the app logs its own request
        # lines already, so only GUNICORN_ACCESSLOG turns these on (a formatted line per request costs).
        "gunicorn.access": {
            "level": "INFO" if accesslog else "WARNING",
            "handlers": ["stderr"],
            "propagate": False,
            "qualname": "gunicorn.access",
        },
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


def _raise_file_limit() -> None:
    """Every connection is a file descriptor: lift the soft limit to the hard one (often 1024 soft)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def post_worker_init(worker):
    """On SIGTERM (a stop, a deploy) the worker lets open long-polls and event streams end within
    seconds (service/shutdown.py), instead of its graceful stop waiting the whole graceful_timeout for
    them and then cutting them off."""
    import gevent

    from service import collector, shutdown

    stop = worker.handle_exit

    def handle_exit(sig, frame):
        # Out of the signal handler, as gunicorn's gevent worker does for its other signals: waking the
        # waiters takes locks that the interrupted code may hold.
        gevent.spawn(shutdown.begin)
        stop(sig, frame)

    signal.signal(signal.SIGTERM, handle_exit)
    _raise_file_limit()
    # gevent records, for every greenlet, the stack that spawned it (a dozen objects): kept for each of
    # thousands of open connections, they were a tenth of what a full garbage collection had to walk.
    gevent.config.track_greenlet_tree = False
    # The app is loaded: what exists now (modules, the app, schemas, the spec; ~66k objects) lives as long
    # as the process, and a full garbage collection that walks it took 30-80 ms here, a pause of every
    # thread of the worker that showed in the latency's tail. Frozen, the collector no longer walks it.
    gc.freeze()
    # And from now on, what survives each full collection (the records, sockets and held tables of the
    # connections the worker holds): the next one walks only what is newer (service/collector.py).
    collector.install()
    if _settings.health_bind:  # the probes answered by a thread of their own (service/health.py)
        from service import health

        health.start(_settings.health_bind, _settings.redis_url)


# Prometheus multiprocess mode: each worker writes its samples to PROMETHEUS_MULTIPROC_DIR (which
# must exist and be empty at start: scripts/run and the deploy config give a fresh one), and /metrics
# on any worker aggregates them. A worker that exits is marked dead so its live gauges drop out.
def on_starting(server):
    if _settings.metrics_dir:
        os.makedirs(_settings.metrics_dir, exist_ok=True)


def child_exit(server, worker):
    if _settings.metrics_dir:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
