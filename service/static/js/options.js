// Every match option of RULES.md (names as in games/*/options.py), with its default and a short
// explanation. The lobby sends only the options that differ from the defaults shown, so the server
// stays the authority on defaults.

const bool = (name, label, help, dflt = false) => ({ name, label, help, type: "bool", default: dflt });
const choice = (name, label, help, values, dflt, more = {}) => ({ name, label, help, type: "choice", values, default: dflt, ...more });
const int = (name, label, help, min, max, dflt) => ({ name, label, help, type: "int", min, max, default: dflt });

const SCHNAPSEN = {
  variant: "2p20", meld_after_close: true, last_trick_rule: "last_trick_wins_one_point",
  closed_scoring: "at_closing", min_stock_to_close: 4, close_before_draw: false,
};
const STOCK = { "2p24": 12, "2p20": 10, "2p32": 20, "3p": 9, "4p": 20 };

export const GAMES = {
  "sixty-six": {
    title: "Sixty-Six",
    blurb: "Race to 66 card points with marriages, closing the stock and declaring out. 2, 3 or 4 players.",
    seats: (o) => ({ "2p24": 2, "2p20": 2, "2p32": 2, "3p": 3, "4p": 4 })[o.variant] || 2,
    // Defaults that follow from other choices: the Schnapsen profile and the variant.
    defaults(o) {
      const d = o.profile === "schnapsen" ? { ...SCHNAPSEN } : {};
      const variant = o.variant || d.variant || "2p24";
      d.schneider_threshold = variant === "4p" ? 51 : 33;
      if (d.min_stock_to_close) d.min_stock_to_close = Math.min(d.min_stock_to_close, variant === "3p" && o.three_player_mode === "pagat_no_talon" ? 0 : STOCK[variant]);
      return d;
    },
    options: [
      choice("profile", "Rule set", "Sixty-Six, or the full Schnapsen rules (20 cards, marriages after closing, last trick wins, Viennese closing).", ["sixty_six", "schnapsen"], "sixty_six"),
      choice("variant", "Variant", "2p24: 2 players, 24 cards (A T K Q J 9). 2p20: Schnapsen-size. 2p32: 32 cards. 3p: 3 players, 32 cards. 4p: two partnerships, two decks, to 101.", ["2p24", "2p20", "2p32", "3p", "4p"], "2p24"),
      choice("three_player_mode", "Three players", "With two dead cards and a stock, or pagat's game without a stock (strict play from the start).", ["talon_with_dead_cards", "pagat_no_talon"], "talon_with_dead_cards", { showIf: (o) => o.variant === "3p" }),
      int("match_target", "Match to", "Game points that win the match.", 1, 1000, 7),
      choice("dealer_rule", "Next dealer", "Deal alternates, or the winner or loser of the deal deals next.", ["alternate", "winner_deals", "loser_deals"], "alternate"),
      bool("close_before_draw", "Close before drawing", "After winning a trick you may close the stock before the draw (otherwise only when leading).", true),
      bool("meld_after_close", "Marriages after closing", "Schnapsen style: marriages may still be shown once the stock is closed or used up."),
      choice("false_declaration", "False 'out'", "Who declares out without 66 gives the opponents 2 (3 if they have no trick), or what the declarer would have won.", ["two_or_three", "mirror"], "two_or_three"),
      choice("last_trick_rule", "Last trick", "The last trick earns +10 card points (66), or wins the deal outright (Schnapsen).", ["plus10", "last_trick_wins_one_point"], "plus10"),
      choice("closed_scoring", "Scoring a closed stock", "Count the final totals (66), or the totals at the moment of closing (Viennese Schnapsen).", ["final_totals", "at_closing"], "final_totals"),
      bool("non_closer_may_exchange_at_close", "Exchange when the opponent closes", "pagat's rule: when a player closes, the opponent may still exchange the trump card."),
      int("min_stock_to_close", "Least stock to close", "Cards that must be left in the stock for closing to be allowed.", 0, 20, 0),
      int("min_stock_for_exchange", "Least stock to exchange", "Cards that must be left in the stock for the trump exchange.", 0, 20, 0),
      int("schneider_threshold", "Schneider under", "Card points under which the loser is 'schneider' (pays more).", 0, 101, 33),
      bool("draw_bonus", "Draw bonus", "A drawn deal carries a game point over to the next one."),
    ],
  },
  "fifty-six": {
    title: "Fifty-Six",
    blurb: "Bid for the 56 points in the pack with your partner, double and redouble, pay in tables. 4, 6 or 8 players.",
    seats: (o) => Number(o.players) || 4,
    defaults: () => ({}),
    options: [
      choice("players", "Players", "4 players (two pairs), 6 or 8 (pairs or two sides).", [4, 6, 8], 4),
      choice("team_format", "Teams", "pairs: partners sit opposite, N/2 teams. two_sides: two teams sitting alternately.", ["pairs", "two_sides"], "pairs", { showIf: (o) => Number(o.players) > 4 }),
      int("starting_tables", "Starting tables", "Tables (stakes) each team starts with; a team with none left is out.", 1, 1000, 12),
      choice("double_scoring", "Doubles", "multiply: ×2 doubled, ×4 redoubled. additive: +1 and +2 tables (tournament).", ["multiply", "additive"], "multiply"),
      bool("pass_is_final", "Passing is final", "A player who passes drops out of the auction."),
      bool("first_bidder_must_bid", "First bidder must bid", "Tournament rule: the first to speak may not pass and bids at least 28."),
      choice("all_pass_contract", "When all pass", "28 no-trump for the non-dealer team, or a redeal by the same dealer.", ["28nt_non_dealer", "redeal"], "28nt_non_dealer"),
    ],
  },
  smear: {
    title: "Smear",
    blurb: "Four-Point Northeastern Wisconsin Smear: bid for High, Low, Jack and Game in partnership. 4 players.",
    seats: () => 4,
    defaults: () => ({}),
    options: [
      int("widow_size", "Widow", "Cards the bidder takes from the widow and then discards (0 = no widow).", 0, 3, 0),
      choice("all_pass", "When all pass", "Redeal by the same dealer, the dealer is stuck with a bid of 2, or the deal passes on.", ["redeal_same_dealer", "stick_dealer", "pass_deal"], "redeal_same_dealer"),
      choice("high_low_rule", "High and Low", "Whoever plays the trump Ace / 7, or the highest / lowest trump in play.", ["ace_seven", "highest_lowest_in_play"], "ace_seven"),
      choice("game_tie", "Tied Game point", "Nobody, the non-bidders or the bidders score Game when it is tied.", ["none", "non_bidders", "bidders"], "none"),
      bool("discards_count_for_high_low_jack", "Discards count", "The bidder's discards count for High, Low and Jack."),
      int("match_target", "Match to", "Points that win the match.", 1, 1000, 15),
      choice("both_reach", "Both teams reach the target", "The higher score wins (then the bidders), or the bidders win.", ["higher_score_then_bidder", "bidder_wins"], "higher_score_then_bidder"),
      bool("win_only_on_successful_bid", "Win only on a made bid", "A team can win the match only on a deal in which it made its bid."),
      bool("cap_non_bidder_at_15", "Cap non-bidders", "The non-bidding team cannot pass the target on its points alone."),
    ],
  },
};

// Options shared by every game (the table's own).
export const TABLE_OPTIONS = [
  { name: "first_dealer", label: "First dealer", help: "Random, or a seat.", type: "seat", default: "" },
  // A table from the lobby gets a timer by default, so one player walking away does not stall the others.
  { ...int("turn_timeout_s", "Turn timer (s)", "Empty: no timer. Otherwise a bot moves for a player who takes longer (they take the seat back by playing).", 1, 86400, 120), serverDefault: "" },
  int("takeover_after", "Bot takes over after", "Timeouts in a row after which a bot keeps the seat until its player acts.", 1, 20, 2),
];

export function label(value) {
  return String(value).replaceAll("_", " ");
}

// The defaults shown for the current selections.
export function effectiveDefaults(gameName, values) {
  const game = GAMES[gameName];
  const out = {};
  for (const option of game.options) out[option.name] = option.default;
  return { ...out, ...game.defaults(values) };
}
