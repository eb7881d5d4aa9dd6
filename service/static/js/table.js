// The table of one match: the seat's view from GET /v1/games/{id}, actions from its legal_actions,
// live updates over SSE. Spectators (no token) see the public view and may take an open seat.
import { api, prefs, seats as seatStore } from "./api.js";
import { LiveFeed } from "./live.js";
import { el, showMessage, clearMessage } from "./dom.js";
import { renderTable } from "./render.js";

const SAFETY_POLL_MS = 20000; // a missed update can never leave the screen stuck for long
const MAX_EVENT_PAGES = 20;

export class TableController {
  constructor(root, gameId) {
    Object.assign(this, { root, gameId });
    const stored = seatStore.get(gameId);
    this.token = stored?.token || null;
    this.view = null;
    this.rows = [];
    this.busy = false;
    this.ui = { showLastTrick: false, discard: new Set(), hint: null, hintAvailable: false, bid: {} };
    this.timer = null;
    this.feed = null;
  }

  async start() {
    window.talonTable = this; // the browser tests drop the stream through this handle
    try {
      await this.loadView();
    } catch (err) {
      this.root.replaceChildren(el("section", { class: "panel" }, el("h2", {}, "This match cannot be shown"),
        el("p", {}, err.message), el("a", { class: "button", href: "#/" }, "Back to the lobby")));
      document.body.dataset.state = "error";
      return;
    }
    await this.loadScoreRows();
    this.render();
    this.probeHint();
    this.feed = new LiveFeed(this.gameId, this.token, this.view.version, {
      onEvent: (event) => this.onEvent(event),
      onStatus: (status) => setLive(status),
    });
    this.feed.open();
    this.timer = setInterval(() => this.refresh(), SAFETY_POLL_MS);
  }

  stop() {
    if (this.feed) this.feed.close();
    clearInterval(this.timer);
    clearTimeout(this.refreshTimer);
    if (window.talonTable === this) window.talonTable = null;
    setLive(null);
  }

  async loadView() {
    try {
      const { data } = await api("GET", `/v1/games/${this.gameId}`, { token: this.token });
      this.view = data;
    } catch (err) {
      if (this.token && (err.status === 401 || err.status === 403)) {
        // The stored token no longer holds this seat (e.g. an operator reset it): watch instead.
        seatStore.drop(this.gameId);
        this.token = null;
        showMessage("Your seat in this match is no longer yours; you are watching.", "error");
        return this.loadView();
      }
      throw err;
    }
  }

  async loadScoreRows() {
    const rows = [];
    let cursor = "";
    for (let page = 0; page < MAX_EVENT_PAGES; page++) {
      const from = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const { data } = await api("GET", `/v1/games/${this.gameId}/events?limit=500${from}`, { token: this.token });
      rows.push(...data.events.filter((e) => e.type === "round_scored").map((e) => e.data));
      if (!data.has_more) break;
      cursor = data.next_cursor;
    }
    this.rows = rows;
  }

  onEvent(event) {
    if (event.type === "round_scored" && !this.rows.some((r) => r.round === event.data?.round)) this.rows.push(event.data);
    if (event.type === "round_scored" || event.type === "match_ended") this.ui.showLastTrick = false;
    // Several events come at once (a trick, the draw, the bot's reply): fetch the view once for them.
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => this.refresh(), 40);
  }

  async refresh() {
    if (this.busy) return;
    try {
      const known = this.view?.version;
      const { status, data } = await api("GET", `/v1/games/${this.gameId}`, {
        token: this.token, headers: known !== undefined ? { "If-None-Match": `"${known}"` } : {} });
      if (status === 304 || !data || data.version < (this.view?.version ?? 0)) return;
      this.setView(data);
    } catch (err) {
      showMessage(`Could not update the table: ${err.message}`, "error");
    }
  }

  setView(view) {
    const turnChanged = !this.view || JSON.stringify(this.view.legal_actions) !== JSON.stringify(view.legal_actions);
    this.view = view;
    if (turnChanged) {
      this.ui.discard = new Set();
      this.ui.hint = null;
    }
    this.render();
  }

  async act(action) {
    if (this.busy) return;
    this.busy = true;
    document.body.dataset.state = "busy";
    try {
      const { data } = await api("POST", `/v1/games/${this.gameId}/actions`, { token: this.token, body: action,
        headers: { "Idempotency-Key": randomKey() } });
      clearMessage();
      this.busy = false;
      this.setView(data);
      // Events that arrived while the action was on its way (a bot's quick reply) are newer than it.
      if (this.feed && this.feed.lastEventId > data.version) this.refresh();
    } catch (err) {
      this.busy = false;
      showMessage(err.message, "error");
      await this.refresh();
      this.render();
    }
  }

  async join(name, seat) {
    if (!name) { showMessage("Please enter your name first.", "error"); return; }
    prefs.name = name;
    try {
      const body = seat === undefined ? { name } : { name, seat };
      const { data } = await api("POST", `/v1/games/${this.gameId}/players`, { body });
      seatStore.put(this.gameId, data.seat, data.token);
      this.stop();
      showMessage(`You sit in seat ${data.seat + 1}.`);
      const next = new TableController(this.root, this.gameId);
      await next.start();
    } catch (err) {
      showMessage(err.message, "error");
      await this.refresh();
    }
  }

  // The hint button appears only when this server answers GET /v1/games/{id}/hint.
  async probeHint() {
    if (!this.token) return;
    try {
      await api("GET", `/v1/games/${this.gameId}/hint`, { token: this.token });
      this.ui.hintAvailable = true;
    } catch (err) {
      this.ui.hintAvailable = err.status !== 404 && err.status !== 405 && err.status !== 0;
    }
    this.render();
  }

  async hint() {
    try {
      const { data } = await api("GET", `/v1/games/${this.gameId}/hint`, { token: this.token });
      this.ui.hint = data;
    } catch (err) {
      this.ui.hint = null;
      showMessage(err.message, "error");
    }
    this.render();
  }

  render() {
    if (!this.view) return;
    const view = this.view;
    const mine = view.seat !== null && view.seat !== undefined;
    this.root.replaceChildren(renderTable(this, view, this.rows));
    const state = view.status === "finished" ? "finished"
      : this.busy ? "busy" : mine && view.legal_actions.length ? "my-turn" : "waiting";
    Object.assign(document.body.dataset, { state, version: String(view.version), phase: view.round?.phase || view.status });
  }
}

function randomKey() {
  return `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

function setLive(status) {
  const badge = document.getElementById("live");
  badge.hidden = !status;
  badge.textContent = status === "live" ? "● live" : "○ reconnecting…";
  badge.className = `live ${status || ""}`;
  if (status) document.body.dataset.live = status;
}
