"""gunicorn settings for the Talon API. Threads, because SSE and long-polls hold a request open."""
import os

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
