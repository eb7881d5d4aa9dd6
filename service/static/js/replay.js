// The replay of a finished match (#/r/<game id>): the table as it stood at each version, every hand
// shown, stepped through with buttons, the slider (its arrow keys too) or Home/End. Only the public API:
// GET /v1/games/{id}/replay?version=N for the table, and the spectator's event log for what happened at
// each step (a finished match hides nothing the narration needs).
import { Api } from "./api.js";
import { el, update, cardEl, suitEl } from "./dom.js";
import { t } from "./i18n.js";
import { nameOf, sideName, gameTitle, narrate } from "./words.js";

export class ReplayViewer {
  constructor(root, gameId) {
    Object.assign(this, { root, gameId });
    this.steps = new Map();   // version -> the replay step, once fetched
    this.events = new Map();  // version -> the event (as a spectator sees it)
    this.version = null;
    this.last = null;
    this.wanted = null;       // the version asked for last: a slower earlier answer is not shown over it
    this.stopped = false;
  }

  async start() {
    document.body.dataset.state = "loading";
    let first;
    try {
      first = await Api.replay(this.gameId);
    } catch (err) {
      if (err.status !== 409) throw err;
      // A match still running has no replay yet: its hands are secret until it ends.
      this.root.replaceChildren(el("section", { class: "panel" }, el("h1", { id: "replay-h" }, t("replay.notFinished")),
        el("a", { class: "button", href: `#/g/${this.gameId}`, id: "replay-back" }, t("replay.back"))));
      document.body.dataset.state = "replay-unavailable";
      return;
    }
    this.last = first.last_version;
    this.steps.set(first.version, first);
    this.build(first);
    this.loadEvents();
    await this.go(1);
    this.regions.slider.focus({ preventScroll: true });
  }

  stop() {
    this.stopped = true;
  }

  build(step) {
    const view = step.view;
    const button = (id, label, run) => el("button", { type: "button", class: "secondary", id, onclick: run }, label);
    this.regions = {
      slider: el("input", { type: "range", id: "replay-slider", min: "1", max: String(this.last), value: "1", step: "1",
        "aria-label": t("replay.slider"), oninput: (e) => this.go(Number(e.target.value)) }),
      position: el("p", { id: "replay-position", "aria-live": "polite" }),
      happened: el("p", { id: "replay-happened", class: "caption" }),
      table: el("div", { id: "replay-table", class: "replay-table" }),
    };
    const controls = el("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
      button("replay-first", t("replay.first"), () => this.go(1)),
      button("replay-previous", t("replay.previous"), () => this.go(this.version - 1)),
      this.regions.slider,
      button("replay-next", t("replay.next"), () => this.go(this.version + 1)),
      button("replay-last", t("replay.last"), () => this.go(this.last)));
    this.root.replaceChildren(el("section", { class: "panel replay", "aria-labelledby": "replay-h" },
      el("p", { class: "kicker" }, t("replay.kicker")),
      el("h1", { id: "replay-h" }, t("replay.title", { game: gameTitle(view.game) })),
      el("p", {}, el("a", { href: `#/g/${this.gameId}`, id: "replay-back" }, t("replay.back")), " · ",
        el("a", { href: "#/" }, t("nav.lobby"))),
      controls, this.regions.position, this.regions.happened, this.regions.table));
    document.title = t("replay.title", { game: gameTitle(view.game) });
  }

  // Every event of the log, for the sentence of each step; the table does without them.
  async loadEvents() {
    let cursor = "";
    try {
      for (let page = 0; page < 40 && !this.stopped; page++) {
        const { events, hasMore, next } = await Api.events(this.gameId, null, cursor);
        for (const event of events) this.events.set(event.version, event);
        if (!hasMore || !next) break;
        cursor = next;
      }
    } catch {
      return; // the steps show without their sentence
    }
    if (this.version !== null) this.show(this.steps.get(this.version));
  }

  async go(version) {
    const target = Math.max(1, Math.min(this.last, Math.round(version)));
    this.wanted = target;
    document.body.dataset.state = "loading";
    let step = this.steps.get(target);
    if (!step) {
      step = await Api.replay(this.gameId, target);
      this.steps.set(target, step);
    }
    if (this.stopped || this.wanted !== target) return;
    this.version = target;
    this.show(step);
  }

  show(step) {
    const r = this.regions;
    const view = step.view;
    r.slider.value = String(step.version);
    r.slider.setAttribute("aria-valuetext", t("replay.position", { version: step.version, last: step.last_version }));
    r.position.textContent = t("replay.position", { version: step.version, last: step.last_version });
    const event = this.events.get(step.version);
    r.happened.textContent = event ? narrate(event, view) || "" : "";
    document.getElementById("replay-first").disabled = step.version <= 1;
    document.getElementById("replay-previous").disabled = step.version <= 1;
    document.getElementById("replay-next").disabled = step.version >= step.last_version;
    document.getElementById("replay-last").disabled = step.version >= step.last_version;
    update(r.table, ...tableOf(view, step.hands));
    Object.assign(document.body.dataset, { state: "replay", version: String(step.version) });
  }
}

function tableOf(view, hands) {
  const round = view.round;
  if (!round) return [el("p", { id: "replay-no-deal" }, t("replay.beforeDeal"))];
  const info = [t("replay.round", { n: round.number })];
  const parts = [el("p", { class: "replay-info" }, info.join(" "),
    round.trump ? [" · ", t("replay.trump"), " ", suitEl(round.trump)] : null)];
  parts.push(el("ul", { class: "replay-seats" }, ...view.players.map((p, seat) => {
    const tags = [];
    if (round.dealer === seat) tags.push(t("replay.dealer"));
    if ((view.to_act || []).includes(seat)) tags.push(t("replay.toAct"));
    const hand = hands?.[seat] || [];
    return el("li", { class: "replay-seat", dataset: { seat: String(seat) } },
      el("h2", {}, nameOf(view, seat), tags.length ? el("span", { class: "small" }, ` (${tags.join(", ")})`) : null),
      el("div", { class: "replay-hand", role: "list", "aria-label": t("replay.hand", { name: nameOf(view, seat) }) },
        ...hand.map((card) => el("span", { role: "listitem" }, cardEl(card)))),
      hand.length ? null : el("p", { class: "small" }, t("replay.emptyHand")));
  })));
  const trick = round.trick || [];
  parts.push(el("h2", {}, t("replay.trick")), trick.length
    ? el("div", { class: "trick-row", id: "replay-trick" }, ...trick.map((play) => el("figure", {},
      cardEl(play.card), el("figcaption", {}, nameOf(view, play.seat)))))
    : el("p", { id: "replay-trick", class: "small" }, t("replay.noTrick")));
  parts.push(el("h2", {}, t("replay.standing")), el("ul", { class: "final", id: "replay-standing" },
    ...view.standing.map((s, i) => el("li", {}, el("span", {}, sideName(view, i)), " ", el("strong", {}, String(s.score))))));
  return parts;
}
