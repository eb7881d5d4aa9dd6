"""Event codec and the Redis event store. Knows no particular game.

The package itself imports nothing: `events.codec` alone (the log formatter's clock) must not pull in
redis-py, which the API's gunicorn master would otherwise import before its gevent workers patch it.
"""
