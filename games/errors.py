"""Errors the pure engines raise. The service maps each one to one HTTP status."""

from __future__ import annotations


class GameError(Exception):
    """Base class: an action or option the engine refuses. Nothing was changed."""

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class ActionShapeError(GameError):
    """The action object is not one this game knows (unknown type, missing or malformed field). HTTP 400."""


class NotYourTurn(GameError):
    """The seat may not act now (another seat's turn, or the round is being scored). HTTP 409."""


class RuleError(GameError):
    """A well-formed action the rules forbid now. `rule` names the section, e.g. "66 §2.6". HTTP 422."""

    def __init__(self, rule: str, detail: str):
        super().__init__(detail)
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.detail} ({self.rule})"


class OptionError(GameError):
    """An option that is unknown or out of range when a match is created. HTTP 422 with the field."""

    def __init__(self, field: str, detail: str):
        super().__init__(detail)
        self.field = field


class StateConflict(GameError):
    """The table is not in a state where this request makes sense (seat taken, game not active). HTTP 409."""


class SeatUnavailable(StateConflict):
    """The seat asked for is taken, is a bot's, or does not exist; or no human seat is open."""


class JoinCodeRefused(GameError):
    """A private match's seats are claimed only with its join code. HTTP 403."""


class NotActive(StateConflict):
    """Actions are only accepted while the match is active (every seat taken, not finished)."""


class NotFinished(StateConflict):
    """A rematch or a replay of a match that is still running: both are for finished matches. HTTP 409."""
