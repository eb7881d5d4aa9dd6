"""The app serves plain functions only (service/app.py TalonFlask): a coroutine function registered as a
view, a hook or an error handler would be called without being run, so the service refuses to start."""

from __future__ import annotations

import pytest

from service.app import TalonFlask, refuse_coroutines
from tests.support.talon import make_app


def test_the_service_registers_no_coroutine_function(redis_url):
    app = make_app(redis_url)
    assert isinstance(app, TalonFlask)
    refuse_coroutines(app)  # what create_app ran: nothing to refuse


@pytest.mark.parametrize("where", ["view", "before_request", "error_handler"])
def test_a_coroutine_function_stops_the_start(where):
    app = TalonFlask(__name__)

    async def handler(*args):
        return "never awaited"

    if where == "view":
        app.add_url_rule("/", view_func=handler)
    elif where == "before_request":
        app.before_request(handler)
    else:
        app.register_error_handler(KeyError, handler)
    with pytest.raises(TypeError, match="handler"):
        refuse_coroutines(app)


def test_plain_views_are_called_as_they_are():
    app = TalonFlask(__name__)
    app.add_url_rule("/", view_func=lambda: "plain")
    refuse_coroutines(app)
    assert app.test_client().get("/").get_data(as_text=True) == "plain"
