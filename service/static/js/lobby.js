// The lobby: create a match (any game, variant and option, bots per seat), open matches to join,
// running matches to watch.
import { api, botLevels, prefs, seats as seatStore } from "./api.js";
import { el, showMessage } from "./dom.js";
import { GAMES, TABLE_OPTIONS, effectiveDefaults, label } from "./options.js";

const REFRESH_MS = 10000;

export async function showLobby(root) {
  const levels = await botLevels();
  const form = { game: "sixty-six", values: {}, touched: new Set(), seatKinds: {} };
  const page = el("div", { class: "lobby" });
  const createBox = el("section", { class: "panel create", "aria-labelledby": "create-h" });
  const openBox = el("section", { class: "panel list", id: "open-matches" });
  const runningBox = el("section", { class: "panel list", id: "running-matches" });
  page.append(createBox, el("div", { class: "lists" }, openBox, runningBox));
  root.replaceChildren(page);

  const renderCreate = () => createBox.replaceChildren(...createForm(form, levels, renderCreate));
  renderCreate();
  const refresh = () => Promise.all([list(openBox, "waiting"), list(runningBox, "active")]);
  await refresh();
  const timer = setInterval(() => { if (page.isConnected) refresh(); else clearInterval(timer); }, REFRESH_MS);
  document.body.dataset.state = "lobby";
}

function currentValues(form) {
  const defaults = effectiveDefaults(form.game, form.values);
  const out = {};
  for (const option of GAMES[form.game].options) {
    out[option.name] = form.touched.has(option.name) ? form.values[option.name] : defaults[option.name];
  }
  return out;
}

function createForm(form, levels, rerender) {
  const game = GAMES[form.game];
  const values = currentValues(form);
  const defaults = effectiveDefaults(form.game, values);
  const nSeats = game.seats(values);

  const gamePicker = el("div", { class: "games", role: "radiogroup", "aria-label": "Game" },
    ...Object.entries(GAMES).map(([name, g]) => el("button", {
      type: "button", class: `game-choice ${name === form.game ? "chosen" : ""}`, role: "radio",
      "aria-checked": String(name === form.game), dataset: { game: name },
      onclick: () => { form.game = name; form.values = {}; form.touched = new Set(); form.seatKinds = {}; rerender(); },
    }, el("strong", {}, g.title), el("span", {}, g.blurb))));

  const optionRows = game.options.filter((o) => !o.showIf || o.showIf(values)).map((option) =>
    optionRow(option, values[option.name], defaults[option.name], (value) => {
      form.values[option.name] = value;
      form.touched.add(option.name);
      rerender();
    }));

  const tableRows = TABLE_OPTIONS.map((option) => optionRow(option, form.values[option.name] ?? option.default,
    option.default, (value) => { form.values[option.name] = value; form.touched.add(option.name); }, nSeats));

  const name = el("input", { id: "player-name", name: "name", maxlength: "40", required: true,
    value: form.name ?? prefs.name ?? "", placeholder: "Your name", autocomplete: "nickname",
    oninput: (e) => { form.name = e.target.value; } });
  const seatRows = [el("div", { class: "seat-row" }, el("span", { class: "seat-no" }, "Seat 1"),
    el("label", { for: "player-name", class: "sr" }, "Your name"), name)];
  for (let seat = 1; seat < nSeats; seat++) {
    const current = form.seatKinds[seat] || "bot:basic";
    const select = el("select", { id: `seat-${seat}`, dataset: { seat }, onchange: (e) => { form.seatKinds[seat] = e.target.value; } },
      ...levels.map((level) => el("option", { value: `bot:${level}`, selected: current === `bot:${level}` }, `Bot: ${level}`)),
      el("option", { value: "human", selected: current === "human" }, "A friend (share the link)"));
    seatRows.push(el("div", { class: "seat-row" }, el("label", { class: "seat-no", for: `seat-${seat}` }, `Seat ${seat + 1}`), select,
      teamNote(form.game, values, seat, nSeats)));
  }

  const submit = el("button", { type: "submit", class: "primary", id: "create" }, `Create ${game.title} match`);
  const formEl = el("form", { class: "create-form", onsubmit: async (e) => {
    e.preventDefault();
    submit.disabled = true;
    try { await createMatch(form, values, defaults, nSeats, name.value.trim()); } finally { submit.disabled = false; }
  } },
  el("h2", { id: "create-h" }, "New match"), gamePicker,
  el("fieldset", {}, el("legend", {}, "Players"), ...seatRows),
  el("details", { class: "options", open: true }, el("summary", {}, `${game.title} rules (defaults preselected)`), ...optionRows),
  el("details", { class: "options" }, el("summary", {}, "Table: dealer and turn timer"), ...tableRows),
  submit);
  return [formEl];
}

function teamNote(gameName, values, seat, nSeats) {
  let team = null;
  if (gameName === "smear" || (gameName === "sixty-six" && values.variant === "4p")) team = seat % 2;
  if (gameName === "fifty-six") team = values.team_format === "two_sides" ? seat % 2 : seat % (nSeats / 2);
  if (team === null) return null;
  return el("span", { class: `team-note team-${team}` }, team === 0 ? "your team" : `team ${String.fromCharCode(65 + team)}`);
}

function optionRow(option, value, dflt, onchange, nSeats) {
  const id = `opt-${option.name}`;
  let input;
  if (option.type === "bool") {
    input = el("input", { type: "checkbox", id, name: option.name, checked: Boolean(value), onchange: (e) => onchange(e.target.checked) });
  } else if (option.type === "choice") {
    input = el("select", { id, name: option.name, onchange: (e) => onchange(coerce(option, e.target.value)) },
      ...option.values.map((v) => el("option", { value: v, selected: String(v) === String(value) }, label(v) + (String(v) === String(dflt) ? " (default)" : ""))));
  } else if (option.type === "seat") {
    input = el("select", { id, name: option.name, onchange: (e) => onchange(e.target.value) },
      el("option", { value: "" }, "random (default)"),
      ...Array.from({ length: nSeats }, (_, s) => el("option", { value: s, selected: String(value) === String(s) }, `seat ${s + 1}`)));
  } else {
    input = el("input", { type: "number", id, name: option.name, min: option.min, max: option.max, value: value ?? "",
      inputmode: "numeric", onchange: (e) => onchange(e.target.value === "" ? "" : Number(e.target.value)) });
  }
  const shownDefault = dflt === "" ? "none" : option.type === "bool" ? (dflt ? "on" : "off") : label(dflt);
  return el("div", { class: "option" }, el("label", { for: id }, option.label), input,
    el("small", {}, `${option.help} Default: ${shownDefault}.`));
}

function coerce(option, raw) {
  return option.values.find((v) => String(v) === raw) ?? raw;
}

async function createMatch(form, values, defaults, nSeats, name) {
  if (!name) { showMessage("Please enter your name first.", "error"); return; }
  prefs.name = name;
  const options = {};
  for (const option of GAMES[form.game].options) {
    if (option.name === "players") continue; // the number of seats says it
    const hidden = option.showIf && !option.showIf(values);
    if (!hidden && values[option.name] !== defaults[option.name]) options[option.name] = values[option.name];
  }
  for (const option of TABLE_OPTIONS) {
    // What the form shows is sent unless the server would do the same without it.
    const value = form.values[option.name] ?? option.default;
    const serverDefault = option.serverDefault ?? option.default;
    if (value !== undefined && value !== "" && value !== serverDefault) options[option.name] = Number(value);
  }
  const seatSpecs = [{ kind: "human" }];
  for (let seat = 1; seat < nSeats; seat++) {
    const [kind, level] = (form.seatKinds[seat] || "bot:basic").split(":");
    seatSpecs.push(kind === "bot" ? { kind, level } : { kind });
  }
  try {
    const created = await api("POST", "/v1/games", { body: { game: form.game, options, seats: seatSpecs } });
    const gameId = created.data.game_id;
    const claimed = await api("POST", `/v1/games/${gameId}/players`, { body: { name, seat: 0 } });
    seatStore.put(gameId, claimed.data.seat, claimed.data.token);
    location.hash = `#/g/${gameId}`;
  } catch (err) {
    showMessage(err.message, "error");
  }
}

async function list(box, status) {
  const title = status === "waiting" ? "Open matches: take a seat" : "Running matches: watch";
  try {
    const { data } = await api("GET", `/v1/games?status=${status}&limit=20`);
    const rows = data.games.map((g) => el("li", { dataset: { gameId: g.game_id } },
      el("span", { class: "what" }, `${GAMES[g.game]?.title || g.game} ${g.variant || ""}`.trim()),
      el("span", { class: "who" }, status === "waiting" ? `${g.open_seats} of ${g.players} seats open` : `${g.players} players`),
      el("a", { class: "button", href: `#/g/${g.game_id}` }, status === "waiting" ? (seatStore.get(g.game_id) ? "Return" : "Join") : "Watch")));
    box.replaceChildren(el("h2", {}, title), rows.length ? el("ul", {}, ...rows) : el("p", { class: "empty" }, "None right now."));
  } catch (err) {
    box.replaceChildren(el("h2", {}, title), el("p", { class: "empty" }, `Could not load the list: ${err.message}`));
  }
}
