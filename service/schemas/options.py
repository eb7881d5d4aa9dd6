"""Each game's options: what `POST /v1/games` accepts (all optional, with defaults) and what the view
shows (every option in force, the table's own included).

Names, values and ranges come from the games' option modules, so the spec cannot list a value the
engine does not know. A range that depends on other options (the stock's size, the number of seats) is
checked by the engine when the match is created: 422 `invalid-option`. Each option links to its part of
the game's rules page (`/rules/<game>#option-<name>`).
"""

from __future__ import annotations

from marshmallow import fields, validate

from games.fiftysix import options as fiftysix
from games.sixtysix import options as sixtysix
from games.smear import options as smear
from games.table import DEFAULT_TAKEOVER_AFTER, TAKEOVER_RANGE, TURN_TIMEOUT_RANGE
from service.schemas.base import JsonBoolean, JsonWholeNumber, Model

SIXTY_SIX_STOCK = max(sixtysix.stock_size(v) for v in sixtysix.VARIANTS.values())


class Option:
    """One option: its field's kind, default (None: it depends, as the text says) and what it does."""

    def __init__(
        self,
        name: str,
        kind: str,
        description: str,
        default=None,
        *,
        choices=None,
        low=None,
        high=None,
        nullable: bool = False,
    ):
        self.name, self.kind, self.description, self.default = name, kind, description, default
        self.choices, self.low, self.high, self.nullable = choices, low, high, nullable

    def field(self, game: str, *, shown: bool) -> fields.Field:
        """The field as the create request takes it (shown=False) or as the view shows it (shown=True)."""
        link = f"/rules/{game}#option-{self.name}"
        meta = {"description": f"{self.description} See [the rules]({link})."}
        if self.default is not None and not shown:
            meta["default"] = self.default
        checks = []
        if self.choices is not None:
            checks.append(validate.OneOf(list(self.choices)))
        if self.low is not None:
            checks.append(validate.Range(min=self.low, max=self.high))
        # An option's value is of its JSON type: "7" for a number or 1 for a boolean is a wrong type (400).
        kind = {"text": fields.String, "bool": JsonBoolean, "int": JsonWholeNumber}[self.kind]
        return kind(required=shown, allow_none=self.nullable, validate=checks, metadata=meta)


TABLE = [
    Option("first_dealer", "int", "The seat that deals first; omitted, a seat drawn at random.", low=0, high=7),
    Option(
        "turn_timeout_s",
        "int",
        f"Seconds a human seat has to act before a `{'basic'}` bot acts for it; null or omitted, no timer.",
        low=TURN_TIMEOUT_RANGE[0],
        high=TURN_TIMEOUT_RANGE[1],
        nullable=True,
    ),
    Option(
        "takeover_after",
        "int",
        "Turn timeouts in a row after which the bot keeps the seat until its human acts again with the seat's token.",
        DEFAULT_TAKEOVER_AFTER,
        low=TAKEOVER_RANGE[0],
        high=TAKEOVER_RANGE[1],
    ),
]

SIXTY_SIX = [
    Option(
        "profile",
        "text",
        "`sixty_six`, or `schnapsen`: the Schnapsen rule set, which changes the defaults of "
        "variant (2p20), meld_after_close (true), last_trick_rule (last_trick_wins_one_point), "
        "closed_scoring (at_closing), min_stock_to_close (4) and close_before_draw (false). "
        "Options given explicitly still win.",
        "sixty_six",
        choices=sixtysix.CHOICES["profile"],
    ),
    Option(
        "variant",
        "text",
        "The pack and the number of players: 2p24 (2 players, 24 cards A T K Q J 9), 2p20 "
        "(2 players, 20 cards), 2p32 (2 players, 32 cards), 3p (3 players, 32 cards), 4p (two "
        "partnerships, two 24-card decks, to 101). Omitted, it follows the number of seats: "
        "2p24 for 2 (2p20 with the schnapsen profile), 3p for 3, 4p for 4.",
        choices=tuple(sixtysix.VARIANTS),
    ),
    Option(
        "three_player_mode",
        "text",
        "3p only: `talon_with_dead_cards` (two cards set aside, a stock) or "
        "`pagat_no_talon` (24 cards, no stock, strict play from the first trick).",
        "talon_with_dead_cards",
        choices=sixtysix.CHOICES["three_player_mode"],
    ),
    Option("match_target", "int", "Game points that win the match.", 7, low=1, high=sixtysix.MAX_MATCH_TARGET),
    Option(
        "dealer_rule",
        "text",
        "Who deals next: `alternate`, the side that scored (`winner_deals`) or the side that did not (`loser_deals`).",
        "alternate",
        choices=sixtysix.CHOICES["dealer_rule"],
    ),
    Option(
        "close_before_draw",
        "bool",
        "The winner of a trick may close the stock before drawing (otherwise only the leader, before leading).",
        True,
    ),
    Option("meld_after_close", "bool", "Marriages may still be shown once the stock is closed or used up.", False),
    Option(
        "false_declaration",
        "text",
        "What a false 'out' gives the opponents: 2 game points, 3 if they have no "
        "trick (`two_or_three`), or what the declarer would have won (`mirror`).",
        "two_or_three",
        choices=sixtysix.CHOICES["false_declaration"],
    ),
    Option(
        "last_trick_rule",
        "text",
        "The last trick scores +10 card points (`plus10`) or wins the deal for one game "
        "point (`last_trick_wins_one_point`).",
        "plus10",
        choices=sixtysix.CHOICES["last_trick_rule"],
    ),
    Option(
        "closed_scoring",
        "text",
        "A closed stock is scored on the final totals or on the totals when it was closed (`at_closing`).",
        "final_totals",
        choices=sixtysix.CHOICES["closed_scoring"],
    ),
    Option(
        "non_closer_may_exchange_at_close",
        "bool",
        "When a player closes, an opponent holding the lowest trump exchanges it for the face-up card.",
        False,
    ),
    Option(
        "min_stock_to_close",
        "int",
        f"Cards that must be left in the stock to close it (at most the variant's "
        f"stock, {SIXTY_SIX_STOCK} in 2p32 and 4p).",
        0,
        low=0,
        high=SIXTY_SIX_STOCK,
    ),
    Option(
        "min_stock_for_exchange",
        "int",
        "Cards that must be left in the stock to exchange the trump card.",
        0,
        low=0,
        high=SIXTY_SIX_STOCK,
    ),
    Option(
        "schneider_threshold",
        "int",
        "Card points under which the losing side pays one game point more; omitted, half the target (33, or 51 in 4p).",
        low=0,
        high=101,
    ),
    Option("draw_bonus", "bool", "A drawn deal adds one game point to the next deal's winner.", False),
]

FIFTY_SIX = [
    Option(
        "players",
        "int",
        "4, 6 or 8: must equal the number of seats, which it follows when omitted.",
        choices=fiftysix.PLAYER_COUNTS,
    ),
    Option(
        "team_format",
        "text",
        "`pairs` (teams of two, partners opposite: N/2 teams) or `two_sides` (two teams sitting alternately).",
        "pairs",
        choices=fiftysix.CHOICES["team_format"],
    ),
    Option(
        "starting_tables",
        "int",
        "Tables (stakes) each team starts with; a team without tables is out.",
        12,
        low=1,
        high=fiftysix.MAX_TABLES,
    ),
    Option(
        "double_scoring",
        "text",
        "`multiply`: a double pays x2, a redouble x4; `additive`: +1 and +2 tables.",
        "multiply",
        choices=fiftysix.CHOICES["double_scoring"],
    ),
    Option("pass_is_final", "bool", "A seat that passes is out of the auction.", False),
    Option("first_bidder_must_bid", "bool", "The first to speak may not pass: the opening call is a bid.", False),
    Option(
        "all_pass_contract",
        "text",
        "When everyone passes: 28 no-trump for the team of the dealer's left "
        "(`28nt_non_dealer`) or a redeal by the same dealer (`redeal`).",
        "28nt_non_dealer",
        choices=fiftysix.CHOICES["all_pass_contract"],
    ),
]

SMEAR = [
    Option(
        "widow_size",
        "int",
        "Cards the bidder takes after the auction and discards again, naming trump (0: no widow).",
        0,
        low=smear.LIMITS["widow_size"][0],
        high=smear.LIMITS["widow_size"][1],
    ),
    Option(
        "all_pass",
        "text",
        "When everyone passes: a redeal by the same dealer, the dealer must bid "
        "(`stick_dealer`), or the deal passes on (`pass_deal`).",
        "redeal_same_dealer",
        choices=smear.CHOICES["all_pass"],
    ),
    Option(
        "high_low_rule",
        "text",
        "High and Low go to whoever plays the trump ace and seven (`ace_seven`), or the "
        "highest and lowest trump in play.",
        "ace_seven",
        choices=smear.CHOICES["high_low_rule"],
    ),
    Option(
        "game_tie",
        "text",
        "Who scores the Game point when the Game count is tied.",
        "none",
        choices=smear.CHOICES["game_tie"],
    ),
    Option(
        "discards_count_for_high_low_jack", "bool", "Trumps the bidder discarded count for High, Low and Jack.", False
    ),
    Option(
        "match_target",
        "int",
        "Points that win the match.",
        15,
        low=smear.LIMITS["match_target"][0],
        high=smear.LIMITS["match_target"][1],
    ),
    Option(
        "both_reach",
        "text",
        "When both teams reach the target in one deal: the higher score wins, the bidders on "
        "a tie (`higher_score_then_bidder`), or the bidders (`bidder_wins`).",
        "higher_score_then_bidder",
        choices=smear.CHOICES["both_reach"],
    ),
    Option(
        "win_only_on_successful_bid", "bool", "A team wins the match only on a deal in which it made its bid.", False
    ),
    Option("cap_non_bidder_at_15", "bool", "The non-bidding team cannot pass the target on a deal.", False),
]

GAMES = {"sixty-six": ("SixtySix", SIXTY_SIX), "fifty-six": ("FiftySix", FIFTY_SIX), "smear": ("Smear", SMEAR)}


def _schema(name: str, game: str, options: list[Option], *, shown: bool, description: str) -> type[Model]:
    schema = Model.from_dict({o.name: o.field(game, shown=shown) for o in options}, name=name)
    schema.__doc__ = description
    return schema


def _input(game: str) -> type[Model]:
    prefix, options = GAMES[game]
    return _schema(
        f"{prefix}OptionsInput",
        game,
        options + TABLE,
        shown=False,
        description=(
            f"The options of a {game} match, each optional: an omitted option takes its default. Rules: /rules/{game}"
        ),
    )


def _shown(game: str) -> type[Model]:
    prefix, options = GAMES[game]
    return _schema(
        f"{prefix}Options",
        game,
        options + TABLE,
        shown=True,
        description=(f"Every option of this {game} match in force, defaults filled in. Rules: /rules/{game}"),
    )


def _game_only(game: str) -> type[Model]:
    prefix, options = GAMES[game]
    return _schema(
        f"{prefix}GameOptions",
        game,
        options,
        shown=True,
        description=(f"The {game} options in force when the match was created (the table's own are beside them)."),
    )


INPUT = {game: _input(game) for game in GAMES}
SHOWN = {game: _shown(game) for game in GAMES}
GAME_ONLY = {game: _game_only(game) for game in GAMES}
