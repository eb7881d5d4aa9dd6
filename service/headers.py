"""Security headers on every response of the service: the web client's page and assets, the rules
pages, the API reference and the API itself (service/observability.py's RequestTelemetry adds them to
every response the Flask app makes, error pages and parked long-polls' answers included).

The policy allows this origin's own scripts, styles, images and connections only: no inline script or
style, no eval, no plugin, no framing (clickjacking), no `<base>` rewrite. The web client is written for
it (service/static/js/dom.js never sets a `style` attribute), the rules pages link their stylesheet and
the API reference loads its start-up script from a file. Seat tokens live in the page's localStorage:
with no foreign or inline script running there, an injection cannot read them.
"""

from __future__ import annotations

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Frame-Options", "DENY"),  # frame-ancestors for browsers that predate it
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),  # a share link's game id stays on the page
)
