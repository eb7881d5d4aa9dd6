// Every match option of each game (names as the API takes them), with its default. Labels, help and
// the words for each value are in the catalogs: opt.<name> / opt.<name>.help / val.<name>.<value>.
// The lobby sends only the options that differ from the defaults shown, so the server stays the
// authority on defaults.
import { t, has } from "./i18n.js";

const bool = (name, dflt = false) => ({ name, type: "bool", default: dflt });
const choice = (name, values, dflt, more = {}) => ({ name, type: "choice", values, default: dflt, ...more });
const int = (name, min, max, dflt) => ({ name, type: "int", min, max, default: dflt });

const SCHNAPSEN = {
  variant: "2p20", meld_after_close: true, last_trick_rule: "last_trick_wins_one_point",
  closed_scoring: "at_closing", min_stock_to_close: 4, close_before_draw: false,
};
const STOCK = { "2p24": 12, "2p20": 10, "2p32": 20, "3p": 9, "4p": 20 };

export const GAMES = {
  "sixty-six": {
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
      choice("profile", ["sixty_six", "schnapsen"], "sixty_six"),
      choice("variant", ["2p24", "2p20", "2p32", "3p", "4p"], "2p24"),
      choice("three_player_mode", ["talon_with_dead_cards", "pagat_no_talon"], "talon_with_dead_cards", { showIf: (o) => o.variant === "3p" }),
      int("match_target", 1, 1000, 7),
      choice("dealer_rule", ["alternate", "winner_deals", "loser_deals"], "alternate"),
      bool("close_before_draw", true),
      bool("meld_after_close"),
      choice("false_declaration", ["two_or_three", "mirror"], "two_or_three"),
      choice("last_trick_rule", ["plus10", "last_trick_wins_one_point"], "plus10"),
      choice("closed_scoring", ["final_totals", "at_closing"], "final_totals"),
      bool("non_closer_may_exchange_at_close"),
      int("min_stock_to_close", 0, 20, 0),
      int("min_stock_for_exchange", 0, 20, 0),
      int("schneider_threshold", 0, 101, 33),
      bool("draw_bonus"),
    ],
  },
  "fifty-six": {
    seats: (o) => Number(o.players) || 4,
    defaults: () => ({}),
    options: [
      choice("players", [4, 6, 8], 4),
      choice("team_format", ["pairs", "two_sides"], "pairs", { showIf: (o) => Number(o.players) > 4 }),
      int("starting_tables", 1, 1000, 12),
      choice("double_scoring", ["multiply", "additive"], "multiply"),
      bool("pass_is_final"),
      bool("first_bidder_must_bid"),
      choice("all_pass_contract", ["28nt_non_dealer", "redeal"], "28nt_non_dealer"),
    ],
  },
  smear: {
    seats: () => 4,
    defaults: () => ({}),
    options: [
      choice("widow_size", [0, 1, 2, 3], 0),
      choice("all_pass", ["redeal_same_dealer", "stick_dealer", "pass_deal"], "redeal_same_dealer"),
      choice("high_low_rule", ["ace_seven", "highest_lowest_in_play"], "ace_seven"),
      choice("game_tie", ["none", "non_bidders", "bidders"], "none"),
      bool("discards_count_for_high_low_jack"),
      int("match_target", 1, 1000, 15),
      choice("both_reach", ["higher_score_then_bidder", "bidder_wins"], "higher_score_then_bidder"),
      bool("win_only_on_successful_bid"),
      bool("cap_non_bidder_at_15"),
    ],
  },
};

// Options shared by every game (the table's own). The turn timer's default depends on the seats: none
// when you play only bots, two minutes when a friend sits at the table.
export const TABLE_OPTIONS = [
  { name: "first_dealer", type: "seat", default: "" },
  { ...int("turn_timeout_s", 1, 86400, ""), timer: true },
  int("takeover_after", 1, 20, 2),
];
export const FRIEND_TIMER_S = 120;

export function optionLabel(name) { return t(`opt.${name}`); }
export function optionHelp(name) { return t(`opt.${name}.help`); }

export function valueLabel(name, value) {
  const key = `val.${name}.${value}`;
  return has(key) ? t(key) : String(value);
}

// The defaults shown for the current selections.
export function effectiveDefaults(gameName, values) {
  const game = GAMES[gameName];
  const out = {};
  for (const option of game.options) out[option.name] = option.default;
  return { ...out, ...game.defaults(values) };
}

// A few words for the match's variant: "24 cards", "Schnapsen", "6 players, pairs", "widow of 2".
export function variantWords(view) {
  const o = view.options || {};
  let words = "";
  if (view.game === "sixty-six") words = o.profile === "schnapsen" ? t("val.profile.schnapsen") : valueLabel("variant", o.variant);
  else if (view.game === "fifty-six") words = t("variant.players", { count: view.players.length });
  else words = o.widow_size ? t("variant.widow", { count: o.widow_size }) : t("variant.noWidow");
  return words ? ` · ${words}` : "";
}
