// The lobby: quick play against bots (one click), your own matches to resume, a new match with any
// option (collapsed under its game), open matches to join and running ones to watch.
import { Api, seats as seatStore, joinCodes } from "./api.js";
import { el, update } from "./dom.js";
import { t } from "./i18n.js";
import { prefs } from "./prefs.js";
import { showNotice } from "./notice.js";
import { GAMES, TABLE_OPTIONS, FRIEND_TIMER_S, effectiveDefaults, optionLabel, optionHelp, valueLabel } from "./options.js";
import { gameTitle, placeOf, levelName, nameOf, sideName } from "./words.js";
import { errorText } from "./table.js";

const REFRESH_MS = 10000;
const GAME_NAMES = Object.keys(GAMES);
const SHOWN_RUNNING = 8;

export function showLobby(root) {
  const form = { game: "sixty-six", values: {}, touched: new Set(), seatKinds: {}, levels: BOT_LEVELS, private: false };
  const regions = {
    quick: el("section", { class: "panel quick", id: "quick-play", "aria-labelledby": "quick-h" }),
    mine: el("section", { class: "panel list", id: "my-matches", "aria-labelledby": "mine-h" }),
    create: el("section", { class: "panel create", id: "new-match", "aria-labelledby": "create-h" }),
    open: el("section", { class: "panel list", id: "open-matches", "aria-labelledby": "open-h" }),
    running: el("section", { class: "panel list", id: "running-matches", "aria-labelledby": "running-h" }),
  };
  const page = el("div", { class: "lobby" },
    el("div", { class: "lobby-main" }, regions.quick, regions.create),
    el("div", { class: "lobby-lists" }, regions.mine, regions.open, regions.running));
  root.replaceChildren(page);
  document.title = t("title.default");

  const nameInput = el("input", { id: "player-name", name: "name", maxlength: "40", autocomplete: "nickname", required: true, "aria-describedby": "name-help" });
  nameInput.value = prefs.name;
  nameInput.addEventListener("input", () => { prefs.name = nameInput.value.trim(); });
  regions.quick.append(...quickPlay(nameInput));
  const renderCreate = () => update(regions.create, createForm(form, renderCreate, nameInput));
  renderCreate();
  // Each list is a region named by its heading from the first paint, while its matches load: a region
  // whose heading is not there yet has no name, and its aria-labelledby points at nothing.
  fillList(regions.open, "lobby.openTitle", el("p", { class: "empty" }, t("loading")));
  fillList(regions.running, "lobby.runningTitle", el("p", { class: "empty" }, t("loading")));
  regions.mine.hidden = true; // shown once it lists a match of yours (myMatches)
  const refresh = () => Promise.all([myMatches(regions.mine), openList(regions.open), runningList(regions.running)]);
  refresh();
  document.body.dataset.state = "lobby"; // the lobby is usable before its lists come
  const timer = setInterval(() => { if (page.isConnected) refresh(); else clearInterval(timer); }, REFRESH_MS);
}

// The server's bot levels (SeatSpec.level in openapi.yaml), each with its words in the catalogs.
const BOT_LEVELS = ["random", "basic", "expert"];

// ---------------------------------------------------------------------------------------------------
// Quick play: you against basic bots, every default, one click

function quickPlay(nameInput) {
  const buttons = GAME_NAMES.map((game) => {
    const button = el("button", { type: "button", class: "quick-game", id: `quick-${game}`, dataset: { quick: game } },
      el("strong", {}, gameTitle(game)), el("span", {}, t(`blurb.${game}`)));
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await startMatch(game, {}, GAMES[game].seats({}), {}, playerName(nameInput), false);
      } finally { button.disabled = false; }
    });
    return button;
  });
  return [el("h1", { id: "quick-h" }, t("lobby.quickTitle")),
    el("p", { class: "lede" }, t("lobby.quickLede")),
    el("div", { class: "name-row" }, el("label", { for: "player-name" }, t("lobby.yourName")), nameInput,
      el("span", { id: "name-help", class: "small" }, t("lobby.nameHelp"))),
    el("div", { class: "quick-games" }, ...buttons)];
}

function playerName(nameInput) {
  const name = nameInput.value.trim() || t("names.defaultPlayer");
  prefs.name = name;
  return name;
}

// ---------------------------------------------------------------------------------------------------
// A new match with chosen seats and options

function currentValues(form) {
  const defaults = effectiveDefaults(form.game, form.values);
  const out = {};
  for (const option of GAMES[form.game].options) out[option.name] = form.touched.has(option.name) ? form.values[option.name] : defaults[option.name];
  return out;
}

// Team of a seat (0 = yours) in partnership games, else null.
function teamOf(game, values, seat, n) {
  if (game === "smear" || (game === "sixty-six" && values.variant === "4p")) return seat % 2;
  if (game === "fifty-six") return values.team_format === "two_sides" ? seat % 2 : seat % (n / 2);
  return null;
}

function createForm(form, rerender, nameInput) {
  const game = GAMES[form.game];
  const values = currentValues(form);
  const defaults = effectiveDefaults(form.game, values);
  const n = game.seats(values);
  const layout = { game: form.game, seat: 0, players: Array.from({ length: n }, (_, seat) => ({ seat, kind: "human" })) };
  const friends = Array.from({ length: n - 1 }, (_, i) => form.seatKinds[i + 1]).some((k) => k === "human");
  const timer = form.touched.has("turn_timeout_s") ? form.values.turn_timeout_s : friends ? FRIEND_TIMER_S : "";

  const picker = el("div", { class: "games", role: "radiogroup", "aria-labelledby": "game-label" },
    ...GAME_NAMES.map((name) => el("button", {
      type: "button", class: `game-choice ${name === form.game ? "chosen" : ""}`, role: "radio", "aria-checked": String(name === form.game),
      dataset: { game: name, focus: `game-${name}` },
      onclick: () => { Object.assign(form, { game: name, values: {}, touched: new Set(), seatKinds: {} }); rerender(); },
    }, el("strong", {}, gameTitle(name)), el("span", {}, t(`seats.${name}`)))));

  const seatRows = [el("li", { class: "seat-row me" }, el("span", { class: "seat-place" }, t("place.you")),
    el("span", { class: "seat-who" }, t("lobby.youSit")))];
  for (let seat = 1; seat < n; seat++) {
    const current = form.seatKinds[seat] || "bot:basic";
    const team = teamOf(form.game, values, seat, n);
    const select = el("select", { id: `seat-${seat}`, dataset: { seat }, onchange: (e) => { form.seatKinds[seat] = e.target.value; rerender(); } },
      ...form.levels.map((level) => el("option", { value: `bot:${level}`, selected: current === `bot:${level}` }, t("lobby.bot", { n: seat, level: levelName(level) }))),
      el("option", { value: "human", selected: current === "human" }, t("lobby.friend")));
    seatRows.push(el("li", { class: "seat-row" },
      el("label", { class: "seat-place", for: `seat-${seat}` }, placeOf(layout, seat)), select,
      team === null ? null : el("span", { class: `team-note team-${team}` }, team === 0 ? t("lobby.partner") : t("lobby.opponent"))));
  }

  const changed = game.options.filter((o) => (!o.showIf || o.showIf(values)) && form.touched.has(o.name) && values[o.name] !== defaults[o.name]);
  const optionRows = game.options.filter((o) => !o.showIf || o.showIf(values)).map((option) =>
    optionRow(option, values[option.name], defaults[option.name], (value) => { form.values[option.name] = value; form.touched.add(option.name); rerender(); }));
  const tableRows = TABLE_OPTIONS.map((option) => optionRow(option,
    option.timer ? timer : form.values[option.name] ?? option.default,
    option.timer ? (friends ? FRIEND_TIMER_S : "") : option.default,
    (value) => { form.values[option.name] = value; form.touched.add(option.name); rerender(); }, n));

  // A private table: kept through a change of game, like the player's name.
  const privateRow = el("div", { class: "private-row" },
    el("input", { type: "checkbox", id: "private-table", name: "private", checked: form.private, "aria-describedby": "private-help",
      onchange: (e) => { form.private = e.target.checked; } }),
    el("label", { for: "private-table" }, t("lobby.private")),
    el("small", { id: "private-help" }, t("lobby.privateHelp")));
  const submit = el("button", { type: "submit", class: "primary big", id: "create" }, t("lobby.create", { game: gameTitle(form.game) }));
  const formEl = el("form", { class: "create-form", onsubmit: async (e) => {
    e.preventDefault();
    submit.disabled = true;
    try { await createMatch(form, values, defaults, n, timer, playerName(nameInput)); } finally { submit.disabled = false; }
  } },
  el("h2", { id: "create-h" }, t("lobby.newMatch")),
  el("p", { id: "game-label", class: "small" }, t("lobby.chooseGame")), picker,
  el("fieldset", { class: "players" }, el("legend", {}, t("lobby.players")), el("ol", { class: "seat-list" }, ...seatRows)),
  el("details", { class: "options", id: "rules" }, el("summary", {}, t("lobby.rules", { game: gameTitle(form.game) }),
    el("span", { class: "small" }, ` — ${changed.length ? t("lobby.changes", { count: changed.length }) : t("lobby.standard")}`)), ...optionRows),
  el("details", { class: "options", id: "table-options" }, el("summary", {}, t("lobby.tableOptions"),
    el("span", { class: "small" }, ` — ${timer ? t("lobby.timerOn", { count: Number(timer) }) : t("lobby.timerOff")}`)), ...tableRows),
  privateRow, submit);
  return formEl;
}

function optionRow(option, value, dflt, onchange, nSeats) {
  const id = `opt-${option.name}`;
  let input;
  if (option.type === "bool") {
    input = el("input", { type: "checkbox", id, name: option.name, checked: Boolean(value), onchange: (e) => onchange(e.target.checked) });
  } else if (option.type === "choice") {
    input = el("select", { id, name: option.name, onchange: (e) => onchange(option.values.find((v) => String(v) === e.target.value) ?? e.target.value) },
      ...option.values.map((v) => el("option", { value: v, selected: String(v) === String(value) },
        valueLabel(option.name, v) + (String(v) === String(dflt) ? ` (${t("lobby.default")})` : ""))));
  } else if (option.type === "seat") {
    const layout = { game: "sixty-six", seat: 0, players: Array.from({ length: nSeats }, () => ({})) };
    input = el("select", { id, name: option.name, onchange: (e) => onchange(e.target.value === "" ? "" : Number(e.target.value)) },
      el("option", { value: "" }, `${t("val.first_dealer.random")} (${t("lobby.default")})`),
      ...Array.from({ length: nSeats }, (_, s) => el("option", { value: s, selected: String(value) === String(s) }, placeOf(layout, s))));
  } else {
    input = el("input", { type: "number", id, name: option.name, min: option.min, max: option.max, value: value ?? "", inputmode: "numeric",
      placeholder: option.timer ? t("lobby.noTimer") : undefined, onchange: (e) => onchange(e.target.value === "" ? "" : Number(e.target.value)) });
  }
  const shown = dflt === "" || dflt === undefined ? t("lobby.none") : option.type === "bool" ? (dflt ? t("lobby.on") : t("lobby.off")) : valueLabel(option.name, dflt);
  return el("div", { class: "option" }, el("label", { for: id }, optionLabel(option.name)), input,
    el("small", { id: `${id}-help` }, `${optionHelp(option.name)} ${t("lobby.defaultIs", { value: shown })}`));
}

async function createMatch(form, values, defaults, n, timer, name) {
  const options = {};
  for (const option of GAMES[form.game].options) {
    if (option.name === "players") continue; // the number of seats says it
    const hidden = option.showIf && !option.showIf(values);
    if (!hidden && values[option.name] !== defaults[option.name]) options[option.name] = values[option.name];
  }
  for (const option of TABLE_OPTIONS) {
    const value = option.timer ? timer : form.values[option.name];
    if (value !== undefined && value !== "" && value !== null && value !== option.default) options[option.name] = Number(value);
  }
  const seatSpecs = Array.from({ length: n - 1 }, (_, i) => {
    const [kind, level] = (form.seatKinds[i + 1] || "bot:basic").split(":");
    return kind === "bot" ? { kind, level } : { kind };
  });
  await startMatch(form.game, options, n, seatSpecs, name, form.private);
}

// Creates the match, takes seat 0 and opens the table. `others` are the other seats (default: basic bots).
// A private match's join code is shown once: this browser keeps it for the table's invitation link.
async function startMatch(game, options, n, others, name, isPrivate) {
  const seatSpecs = [{ kind: "human" }, ...(Array.isArray(others) && others.length ? others : Array.from({ length: n - 1 }, () => ({ kind: "bot", level: "basic" })))];
  try {
    const created = await Api.createGame({ game, options, seats: seatSpecs, ...(isPrivate ? { private: true } : {}) });
    if (created.join_code) joinCodes.put(created.game_id, created.join_code);
    const claimed = await Api.claimSeat(created.game_id, name, 0, created.join_code);
    seatStore.put(created.game_id, claimed.seat, claimed.token);
    location.hash = `#/g/${created.game_id}`;
  } catch (err) {
    showNotice("action", t("lobby.createFailed", { reason: errorText(err) }), { kind: "error" });
  }
}

// ---------------------------------------------------------------------------------------------------
// Lists

function scoreLine(view) {
  return view.standing.map((s, i) => `${sideName(view, i)} ${s.score}`).join(" · ");
}

function playersLine(view) {
  return view.players.map((p) => nameOf(view, p.seat)).join(", ");
}

// Matches this browser holds a seat in (the tokens in localStorage), with their score.
async function myMatches(box) {
  const stored = seatStore.all().slice(0, 12);
  const views = await Promise.all(stored.map((seat) => Api.view(seat.gameId, seat.token).then((r) => r.data).catch((err) => {
    if (err.status === 404) seatStore.drop(seat.gameId); // the match is gone
    return null;
  })));
  const rows = stored.map((seat, i) => [seat, views[i]]).filter(([, view]) => view && view.status !== "finished").map(([seat, view]) =>
    el("li", { dataset: { gameId: seat.gameId } },
      el("span", { class: "what" }, el("strong", {}, gameTitle(view.game)), el("span", { class: "who" }, playersLine(view))),
      el("span", { class: "score" }, scoreLine(view)),
      el("a", { class: "button primary", href: `#/g/${seat.gameId}`, "aria-label": t("lobby.resumeLabel", { game: gameTitle(view.game) }) }, t("lobby.resume"))));
  update(box, rows.length ? [el("h2", { id: "mine-h" }, t("lobby.mine")), el("ul", {}, ...rows)] : []);
  box.hidden = !rows.length;
}

// A list region's content under its heading, whose id is the one the region's aria-labelledby names.
function fillList(box, titleKey, content) {
  update(box, el("h2", { id: box.getAttribute("aria-labelledby") }, t(titleKey)), content);
}

async function openList(box) {
  try {
    const games = await Api.list("waiting", 20);
    const views = await Promise.all(games.slice(0, SHOWN_RUNNING).map((g) => Api.view(g.game_id).then((r) => r.data).catch(() => null)));
    const rows = games.slice(0, SHOWN_RUNNING).map((g, i) => {
      const view = views[i];
      const host = view?.players.find((p) => p.kind === "human" && p.claimed)?.name;
      return el("li", { dataset: { gameId: g.game_id } },
        el("span", { class: "what" }, el("strong", {}, gameTitle(g.game)),
          el("span", { class: "who" }, host ? t("lobby.hostedBy", { name: host }) : "", " · ", t("lobby.openSeats", { count: g.open_seats }))),
        el("a", { class: "button primary", href: `#/g/${g.game_id}` }, seatStore.get(g.game_id) ? t("lobby.resume") : t("lobby.join")));
    });
    fillList(box, "lobby.openTitle", rows.length ? el("ul", {}, ...rows) : el("p", { class: "empty" }, t("lobby.noneOpen")));
  } catch (err) {
    fillList(box, "lobby.openTitle", el("p", { class: "empty" }, t("lobby.listFailed", { reason: errorText(err) })));
  }
}

async function runningList(box) {
  try {
    const games = (await Api.list("active", 20)).slice(0, SHOWN_RUNNING);
    const views = await Promise.all(games.map((g) => Api.view(g.game_id).then((r) => r.data).catch(() => null)));
    const rows = games.map((g, i) => {
      const view = views[i];
      const mine = seatStore.get(g.game_id);
      return el("li", { dataset: { gameId: g.game_id } },
        el("span", { class: "what" }, el("strong", {}, gameTitle(g.game)), el("span", { class: "who" }, view ? playersLine(view) : "")),
        view ? el("span", { class: "score" }, scoreLine(view)) : null,
        el("a", { class: `button ${mine ? "primary" : "secondary"}`, href: `#/g/${g.game_id}` }, mine ? t("lobby.resume") : t("lobby.watch")));
    });
    fillList(box, "lobby.runningTitle", rows.length ? el("ul", {}, ...rows) : el("p", { class: "empty" }, t("lobby.noneRunning")));
  } catch (err) {
    fillList(box, "lobby.runningTitle", el("p", { class: "empty" }, t("lobby.listFailed", { reason: errorText(err) })));
  }
}
