// A player's profile (name, rating per game, history of matches) at "#/players/<id>", and the
// leaderboard of one game at "#/leaderboards/<game>": both read the public API only.
import { Api } from "./api.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { gameTitle } from "./words.js";

const GAMES = ["sixty-six", "fifty-six", "smear"];
const PAGE = 20;

export async function showProfile(root, playerId) {
  const profile = await Api.player(playerId);
  document.title = t("title.profile", { name: profile.name });
  const history = el("tbody", { id: "history-rows" });
  const more = el("button", { type: "button", class: "button", id: "history-more", hidden: true }, t("profile.more"));
  const section = el("section", { class: "panel profile", id: "profile", "aria-labelledby": "profile-h" },
    el("h1", { id: "profile-h" }, profile.name),
    el("h2", {}, t("profile.ratings")),
    ratingsTable(profile.ratings),
    el("h2", {}, t("profile.history")),
    el("table", { class: "history", id: "history" },
      el("thead", {}, el("tr", {}, ...["profile.when", "profile.game", "profile.players", "profile.outcome", "profile.rating"]
        .map((key) => el("th", { scope: "col" }, t(key))))),
      history),
    more,
    el("p", {}, el("a", { href: "#/leaderboards/sixty-six" }, t("nav.leaderboards")), " · ",
      el("a", { href: "#/" }, t("nav.lobby"))));
  root.replaceChildren(section);
  let cursor = "";
  const load = async () => {
    const page = await Api.playerMatches(playerId, cursor, PAGE);
    history.append(...page.matches.map((match) => historyRow(match)));
    if (!history.children.length) history.append(el("tr", {}, el("td", { colspan: "5" }, t("profile.noMatches"))));
    cursor = page.next;
    more.hidden = !page.hasMore;
  };
  more.addEventListener("click", load);
  await load();
  document.body.dataset.state = "profile";
}

function ratingsTable(ratings) {
  if (!ratings.length) return el("p", { id: "ratings-none" }, t("profile.noRatings"));
  return el("table", { class: "ratings", id: "ratings" },
    el("thead", {}, el("tr", {}, ...["profile.game", "profile.rating", "profile.deviation", "profile.matches"]
      .map((key) => el("th", { scope: "col" }, t(key))))),
    el("tbody", {}, ...ratings.map((r) => el("tr", { dataset: { game: r.game } },
      el("td", {}, el("a", { href: `#/leaderboards/${r.game}` }, gameTitle(r.game))),
      el("td", { class: "num" }, String(r.rating)), el("td", { class: "num" }, `±${r.deviation}`),
      el("td", { class: "num" }, String(r.matches))))));
}

function historyRow(match) {
  const own = match.own;
  const names = match.players.map((p) => (p.player_id
    ? el("a", { href: `#/players/${p.player_id}` }, p.name || "?")
    : (p.name || t(`level.${p.level || "basic"}`))));
  const players = names.flatMap((name, i) => (i ? [", ", name] : [name]));
  const rating = own.rated ? `${own.rating_before} → ${own.rating_after}` : t("profile.unrated");
  return el("tr", { dataset: { game: match.game, outcome: own.outcome } },
    el("td", {}, new Date(match.ended_at).toLocaleString()),
    el("td", {}, gameTitle(match.game)),
    el("td", {}, ...players),
    el("td", { class: `outcome-${own.outcome}` }, t(`profile.outcome.${own.outcome}`)),
    el("td", { class: "num" }, rating));
}

export async function showLeaderboard(root, game) {
  if (!GAMES.includes(game)) game = GAMES[0];
  const board = await Api.leaderboard(game, 50);
  document.title = t("title.leaderboard", { game: gameTitle(game) });
  const tabs = el("nav", { class: "tabs", "aria-label": t("nav.leaderboards") }, ...GAMES.map((g) =>
    el("a", { href: `#/leaderboards/${g}`, "aria-current": g === game ? "page" : undefined }, gameTitle(g))));
  const rows = board.entries.map((e) => el("tr", {},
    el("td", { class: "num" }, String(e.rank)),
    el("td", {}, el("a", { href: `#/players/${e.player_id}` }, e.name)),
    el("td", { class: "num" }, String(e.rating)), el("td", { class: "num" }, `±${e.deviation}`),
    el("td", { class: "num" }, String(e.matches))));
  const table = rows.length
    ? el("table", { class: "leaderboard", id: "leaderboard" },
      el("thead", {}, el("tr", {}, ...["board.rank", "board.player", "profile.rating", "profile.deviation", "profile.matches"]
        .map((key) => el("th", { scope: "col" }, t(key))))),
      el("tbody", {}, ...rows))
    : el("p", { id: "leaderboard-empty" }, t("board.empty"));
  root.replaceChildren(el("section", { class: "panel board", id: "board", "aria-labelledby": "board-h" },
    el("h1", { id: "board-h" }, t("board.title", { game: gameTitle(game) })), tabs, table,
    el("p", { class: "hint", id: "board-threshold" },
      t("board.threshold", { matches: board.min_matches, deviation: board.max_deviation })),
    el("p", {}, el("a", { href: "#/" }, t("nav.lobby")))));
  document.body.dataset.state = "leaderboard";
}
