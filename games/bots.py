"""The one bot interface: `choose(view, level, seed)` returns one of the view's `legal_actions`.

A bot sees exactly its seat's API view (the same JSON a client gets) and its seed, nothing else: no
engine state, no clock, no global random. Levels, for every game:

* random: uniform among the legal actions;
* basic:  the game's hand-written rules (games/<game>/bots.py);
* expert: search over the worlds consistent with the view (games/<game>/expert.py): worlds sampled
  from what the seat has seen, every candidate action tried in the same worlds and the deal played
  out by basic players (Sixty-Six: an exact solver once the stock is closed or exhausted; Fifty-Six
  and Smear: calls valued by playing the auction and the deal out; 3- and 4-player Sixty-Six: worlds
  played out through the engine itself, games/sixtysix/expert_multi.py).

Time budget: the expert's work is bounded by a sample count per game (`SAMPLES`), calibrated once on
this machine so that a decision's p95 stays within 300 ms (bench/botlab.py measures it). A caller with
a clock may also pass `stop`, a function that says when time is up; the pure core never reads a clock.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from importlib import import_module
from importlib.util import find_spec
from typing import Protocol

from games.engine import Action, View

LEVELS = ("random", "basic", "expert")

_PACKAGES = {"sixty-six": "games.sixtysix", "fifty-six": "games.fiftysix", "smear": "games.smear"}

# Work per expert decision: worlds times actions tried. Calibrated with bench/botlab.py.
SAMPLES = {"sixty-six": 96, "fifty-six": 120, "smear": 48}


class Policies(Protocol):
    """A game's bots module: its random and basic players."""

    def choose(self, view: View, level: str, rng: random.Random) -> Action: ...


class Expert(Protocol):
    """A game's expert module: the search, and the value it found for each legal action."""

    def choose(
        self, view: View, rng: random.Random, samples: int, stop: Callable[[], bool]
    ) -> tuple[Action, dict[str, float] | None]: ...


def action_key(action: Action) -> str:
    """How the expert's values name an action: the card of a play, "meld H", else the type; Smear's
    bids and discards, which a type alone would not tell apart, add their amount or cards and trump
    ("bid 3", "discard 8C 7D S")."""
    kind: str = action["type"]
    if kind == "play":
        card: str = action["card"]
        return card
    if kind == "meld":
        return f"meld {action['suit']}"
    if kind == "bid" and set(action) == {"type", "value"}:
        return f"bid {action['value']}"
    if kind == "discard" and set(action) == {"type", "cards", "trump"}:
        return f"discard {' '.join(action['cards'])} {action['trump']}"
    return kind


def _never() -> bool:
    return False


def _policies(game: str) -> Policies:
    module: Policies = import_module(f"{_PACKAGES[game]}.bots")  # imported when first asked for
    return module


def _expert(game: str) -> Expert:
    module: Expert = import_module(f"{_PACKAGES[game]}.expert")
    return module


def choose(
    view: View,
    level: str = "basic",
    seed: int | str = 0,
    stop: Callable[[], bool] | None = None,
    samples: int | None = None,
) -> Action:
    """The bot's action for `view` (one of `view["legal_actions"]`)."""
    return decide(view, level, seed, stop, samples)[0]


def decide(
    view: View, level: str, seed: int | str = 0, stop: Callable[[], bool] | None = None, samples: int | None = None
) -> tuple[Action, dict[str, float] | None]:
    """The action and, for the expert, the estimated value of each legal action (None otherwise)."""
    if level not in LEVELS:
        raise ValueError(f"bot level must be one of {', '.join(LEVELS)}")
    legal = view["legal_actions"]
    if not legal:
        raise ValueError("the view has no legal actions: it is not this seat's turn")
    rng = random.Random(f"{seed}")
    game: str = view["game"]
    if level != "expert" or find_spec(f"{_PACKAGES[game]}.expert") is None:
        return _policies(game).choose(view, level, rng), None
    budget = SAMPLES[game] if samples is None else samples
    return _expert(game).choose(view, rng, budget, stop or _never)
