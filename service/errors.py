"""One exception, one status: how the domain's refusals become problem+json responses."""

from __future__ import annotations

import logging

import redis
from werkzeug.exceptions import HTTPException

from app.matches import IdempotencyKeyReused, UnknownGame, VersionMismatch
from app.players import UnknownPlayer
from events.store import VersionConflict
from games.errors import (
    ActionShapeError,
    JoinCodeRefused,
    NotActive,
    NotFinished,
    NotYourTurn,
    OptionError,
    RuleError,
    SeatUnavailable,
    StateConflict,
)
from service.problems import Problem, from_http_exception, problem_response

log = logging.getLogger("talon.errors")


def http_error(exc: HTTPException):
    return from_http_exception(exc)


def _problem(exc: Problem):
    return problem_response(exc)


def _unknown_game(exc: UnknownGame):
    return problem_response(Problem(404, "unknown-game", f"there is no game {exc.args[0]!r}"))


def _unknown_player(exc: UnknownPlayer):
    return problem_response(Problem(404, "unknown-player", f"there is no player {exc.args[0]!r}"))


def _shape(exc: ActionShapeError):
    return problem_response(Problem(400, "malformed-action", exc.detail))


def _not_your_turn(exc: NotYourTurn):
    return problem_response(Problem(409, "not-your-turn", exc.detail))


def _not_active(exc: StateConflict):
    return problem_response(Problem(409, "match-not-active", exc.detail))


def _not_finished(exc: NotFinished):
    return problem_response(Problem(409, "match-not-finished", exc.detail))


def _seat_unavailable(exc: SeatUnavailable):
    return problem_response(Problem(409, "seat-unavailable", exc.detail))


def _join_code(exc: JoinCodeRefused):
    return problem_response(Problem(403, "join-code-refused", exc.detail))


def _rule(exc: RuleError):
    return problem_response(Problem(422, "rule-violation", str(exc), rule=exc.rule))


# OptionError names an option, or one of the request's own fields.
REQUEST_FIELDS = ("game", "seats", "decks", "seed")


def _option(exc: OptionError):
    field = exc.field if exc.field in REQUEST_FIELDS else f"options.{exc.field}"
    return problem_response(
        Problem(422, "invalid-option", exc.detail, errors=[{"in": "body", "field": field, "detail": exc.detail}])
    )


def _version_mismatch(exc: VersionMismatch):
    return problem_response(
        Problem(
            412,
            "version-mismatch",
            f"If-Match does not match the current version {exc.current_version}",
            current_version=exc.current_version,
        )
    )


def _version_conflict(exc: VersionConflict):
    return problem_response(
        Problem(
            409,
            "busy",
            "the game moved on while this request was decided; try again",
            current_version=exc.current_version,
        )
    )


def _idempotency(exc: IdempotencyKeyReused):
    return problem_response(
        Problem(409, "idempotency-key-reused", "this Idempotency-Key was used before with another request")
    )


def _redis_down(exc: redis.RedisError):
    log.warning("redis unavailable: %s", exc)
    return problem_response(
        Problem(503, "unavailable", "storage is unreachable; try again shortly", headers={"Retry-After": "2"})
    )


STORAGE_FULL_RETRY_S = 5


def _redis_refused_write(exc: redis.RedisError):
    """Redis refuses writes while it is out of memory (`maxmemory` with `noeviction`, deploy/README) or is
    a read-only replica (during a failover): nothing was written, and a retry may succeed."""
    log.warning("redis refused a write: %s", exc)
    return problem_response(
        Problem(
            503,
            "unavailable",
            "storage refuses writes for now; try again shortly",
            headers={"Retry-After": str(STORAGE_FULL_RETRY_S)},
        )
    )


def _unexpected(exc: Exception):
    log.exception("unexpected error")
    return problem_response(Problem(500, "internal-error", "an unexpected error occurred; nothing was changed"))


HANDLERS = {
    Problem: _problem,
    UnknownGame: _unknown_game,
    UnknownPlayer: _unknown_player,
    ActionShapeError: _shape,
    NotYourTurn: _not_your_turn,
    StateConflict: _not_active,
    NotActive: _not_active,
    NotFinished: _not_finished,
    SeatUnavailable: _seat_unavailable,
    RuleError: _rule,
    JoinCodeRefused: _join_code,
    OptionError: _option,
    VersionMismatch: _version_mismatch,
    VersionConflict: _version_conflict,
    IdempotencyKeyReused: _idempotency,
    redis.ConnectionError: _redis_down,
    redis.TimeoutError: _redis_down,
    redis.exceptions.OutOfMemoryError: _redis_refused_write,
    redis.exceptions.ReadOnlyError: _redis_refused_write,
    Exception: _unexpected,
}
