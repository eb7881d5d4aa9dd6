"""The HTTP API: Flask app factory, routes, auth, problem details, SSE."""
