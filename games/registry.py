"""Which games Talon serves, by their API name. Each value is a game package's RULES object."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from types import ModuleType
from typing import Any

from games.engine import Rules

# API name -> module holding RULES. Imported lazily so a game's import cost is paid only when used.
_GAME_MODULES = {
    "sixty-six": "games.sixtysix",
    "smear": "games.smear",
    "fifty-six": "games.fiftysix",
}

BOT_LEVELS = ("random", "basic", "expert")  # games.bots.LEVELS


def game_names() -> tuple[str, ...]:
    return tuple(_GAME_MODULES)


# The state type is the named game's, known at run time only: callers hold a state only to hand it back
# to the same game's rules, so it is Any to them.
@cache  # asked on every event folded and every view; the answer never changes
def rules_for(game: str) -> Rules[Any]:
    rules: Rules[Any] = import_module(_GAME_MODULES[game]).RULES
    return rules


def bots_for(game: str) -> ModuleType:
    return import_module(_GAME_MODULES[game] + ".bots")


def engines_version() -> str:
    """One string that changes whenever any engine's code version changes (snapshot validity)."""
    return "table4;" + ";".join(f"{g}={rules_for(g).engine_version}" for g in _GAME_MODULES)
