// The table of one match: the seat's view from the API, actions from its legal_actions, live events
// over SSE. Spectators (no token) see the public view and may take an open seat.
//
// The server answers at once, so one update may hold your card, the bot's reply, the trick's winner,
// the draw and the bot's next lead. The client paces what arrives: events are shown one by one from a
// queue (a card moves from its seat to the trick, a full trick stays about 1.2 s with its winner
// marked, every action is told in words), and the table becomes playable again once the queue is
// empty and the view it shows is the latest. `stage` is what the pacing shows right now of the trick,
// the hand, the hand sizes and the calls; everything else comes from the latest view.
import { Api, seats as seatStore, joinCodes, joinRefused, serverNow, onReach } from "./api.js";
import { LiveFeed } from "./live.js";
import { el, announce, prefersReducedMotion, cardText } from "./dom.js";
import { t } from "./i18n.js";
import { prefs } from "./prefs.js";
import { skeleton, render, turnText, placeTrick } from "./render.js";
import { narrate, nameOf, isMe } from "./words.js";
import { consequence, GUARDED } from "./guards.js";
import { confirmDialog, dealEndDialog, matchEndDialog, lastTrickDialog } from "./dialogs.js";
import { showNotice, clearNotice, showConnection } from "./notice.js";

const SAFETY_POLL_MS = 20000; // a missed update can never leave the screen stuck for long
const MAX_EVENT_PAGES = 40;
const FAST_FORWARD_AFTER = 40; // events waiting: too many to show one by one (a long absence)
// How long the table dwells on each kind of event at normal pace (ms).
const DWELL = {
  dealt: 500, played: 420, trick: 1200, gather: 260, drew: 250, melded: 1500, exchanged: 1500, closed: 1200,
  declared_out: 1000, call: 650, contract: 1100, widow: 700, discarded: 500, thrown_in: 1600, timed_out: 700,
};
const MOVE_MS = 260; // a card flying from its seat to the trick (none with reduced motion)

export class TableController {
  // `joinCode`: a private match's, from the invitation link; else the one this browser keeps for it.
  constructor(root, gameId, joinCode = null) {
    Object.assign(this, { root, gameId });
    const stored = seatStore.get(gameId);
    this.token = stored?.token || null;
    this.joinCode = joinCode || joinCodes.get(gameId) || null;
    this.latest = null;            // the newest view fetched
    this.processed = 0;            // the last event version shown
    this.queue = new Map();        // version -> event, waiting to be shown
    this.rows = [];                // round_scored data, for the score sheet
    this.stage = {};
    this.settled = true;           // nothing waits to be shown: the table is playable
    this.busy = false;             // an action is on its way
    this.running = false;
    this.skipping = false;
    this.lastEventAt = null;       // server time of the newest event (the turn timer counts from it)
    this.expectOwn = null;         // the card we played and already put on the table
    this.dialog = null;
    this.matchDialogShown = false;
    this.justEnded = false;
    this.ui = { discard: new Set(), hint: null, hintAvailable: true, hintNumbers: false, bid: {}, joinName: prefs.name };
    this.timers = [];
    this.stopped = false;
    this.log = [];                 // every sentence told at the table, for the log panel
  }

  // ---------------------------------------------------------------------------------------------
  // Loading

  async start() {
    window.talonTable = this; // the browser tests drop the stream through this handle
    document.body.dataset.state = "loading";
    try {
      await this.loadView();
    } catch (err) {
      this.root.replaceChildren(el("section", { class: "panel" }, el("h1", {}, t("table.cannotShow")),
        el("p", {}, errorText(err)), el("a", { class: "button", href: "#/" }, t("nav.lobby"))));
      document.body.dataset.state = "error";
      return;
    }
    this.processed = this.latest.version;
    this.resetStage();
    this.regions = skeleton();
    this.regions.hand.addEventListener("keydown", (e) => moveAlongHand(e, this.regions.hand));
    this.regions.ring.addEventListener("click", (e) => { if (!this.settled && e.target.closest("#centre")) this.skip(); });
    this.root.replaceChildren(this.regions.page);
    this.render();
    if ((this.latest.seat === null || this.latest.seat === undefined) && this.regions.join.firstChild) this.regions.join.querySelector("#join-name")?.focus();
    this.feed = new LiveFeed(this.gameId, this.token, this.latest.version, {
      onEvent: (event) => this.onEvent(event),
      onStatus: (status) => this.onConnection(status),
    });
    if (this.latest.status === "finished") this.feed.end();
    else this.feed.open();
    this.unReach = onReach((ok) => { if (ok) this.feed.retryNow(); });
    this.timers.push(setInterval(() => this.refresh(), SAFETY_POLL_MS), setInterval(() => this.tick(), 1000));
    this.resizeObserver = new ResizeObserver(() => {
      document.documentElement.style.setProperty("--dock-h", `${this.regions.dock.offsetHeight}px`);
      placeTrick(this.regions.ring, this.latest);
    });
    this.resizeObserver.observe(this.regions.dock);
    this.resizeObserver.observe(this.regions.ring);
    await this.loadHistory();
  }

  stop() {
    this.stopped = true;
    this.feed?.close();
    this.unReach?.();
    this.timers.forEach(clearInterval);
    clearTimeout(this.refreshTimer);
    clearTimeout(this.gapTimer);
    this.resizeObserver?.disconnect();
    this.dialog?.close?.();
    document.querySelectorAll("dialog").forEach((d) => d.remove());
    if (window.talonTable === this) window.talonTable = null;
    showConnection(null);
    clearNotice("takeover");
    clearNotice("timed-out");
    clearNotice("action");
    document.title = t("title.default");
  }

  async loadView() {
    try {
      const { data } = await Api.view(this.gameId, this.token);
      this.latest = data;
    } catch (err) {
      if (this.token && (err.status === 401 || err.status === 403)) {
        // The stored token no longer holds this seat (e.g. an operator reset it): watch instead.
        seatStore.drop(this.gameId);
        this.token = null;
        showNotice("seat", t("notice.seatLost"), { kind: "error" });
        return this.loadView();
      }
      throw err;
    }
    return this.latest;
  }

  // The score sheet's rows and the time of the last event, from the event log.
  async loadHistory() {
    const rows = [];
    let cursor = "";
    let last = null;
    try {
      for (let page = 0; page < MAX_EVENT_PAGES; page++) {
        const { events, hasMore, next } = await Api.events(this.gameId, this.token, cursor);
        if (next) this.eventsCursor = next; // where fillGap reads on
        rows.push(...events.filter((e) => e.type === "round_scored").map((e) => e.data));
        if (events.length) last = events[events.length - 1];
        if (!hasMore || !next) break;
        cursor = next;
      }
    } catch {
      return; // the sheet fills in from live events; the safety poll keeps the table itself right
    }
    for (const row of this.rows) if (!rows.some((r) => r.round === row.round)) rows.push(row);
    this.rows = rows;
    if (last && (!this.lastEventAt || last.version >= this.latest.version)) this.lastEventAt = Date.parse(last.at);
    this.render();
  }

  // ---------------------------------------------------------------------------------------------
  // Updates: events queue up; the view is fetched once for a burst of them

  onEvent(event) {
    if (this.stopped || event.version <= this.processed || this.queue.has(event.version)) return;
    this.queue.set(event.version, event);
    if (event.at) this.lastEventAt = Date.parse(event.at);
    this.scheduleRefresh();
    this.pump();
  }

  onConnection(status) {
    showConnection(status, () => this.feed.retryNow());
    if (status.state === "live") this.scheduleRefresh();
  }

  scheduleRefresh(delay = 30) {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => this.refresh(), delay);
  }

  async refresh() {
    if (this.stopped || !this.latest) return;
    if (this.refreshing) { this.refreshAgain = true; return; }
    this.refreshing = true;
    try {
      const { status, data } = await Api.view(this.gameId, this.token, this.latest.version);
      if (status !== 304 && data && data.version >= this.latest.version) {
        this.latest = data; // (the same version may still differ: a rematch offered)
        this.render();
      }
      clearNotice("update");
    } catch (err) {
      if (!err.offline) showNotice("update", t("notice.updateFailed", { reason: errorText(err) }), { kind: "error", action: { label: t("connection.retry"), run: () => this.refresh() } });
    } finally {
      this.refreshing = false;
    }
    if (this.refreshAgain) { this.refreshAgain = false; this.scheduleRefresh(0); }
    this.pump();
    if (this.settled && !this.running) this.settle();
  }

  pump() {
    if (!this.running && !this.stopped) this.run();
  }

  // Shows queued events in order. A gap (events the stream did not bring, e.g. across a reconnect) is
  // filled from the event log.
  async run() {
    this.running = true;
    try {
      for (;;) {
        if (this.stopped) return;
        const next = this.queue.get(this.processed + 1);
        if (!next) {
          const newest = Math.max(this.latest.version, ...this.queue.keys());
          if (newest > this.processed) {
            if (await this.fillGap()) continue;
            // The log could not be read (the server is away): try again in a moment, not at once.
            this.gapPending = true;
            clearTimeout(this.gapTimer);
            this.gapTimer = setTimeout(() => { this.gapPending = false; this.pump(); }, 1000);
          }
          break;
        }
        this.queue.delete(next.version);
        if (this.settled) { this.settled = false; this.render(); }
        await this.show(next);
        this.processed = next.version;
      }
    } finally {
      this.running = false;
    }
    this.settle();
  }

  // Events the stream skipped, read from the log where the last page read ended (a cursor is opaque:
  // the client keeps the one it was given, it never makes one from a version).
  async fillGap() {
    try {
      let added = false;
      for (let page = 0; page < MAX_EVENT_PAGES; page++) {
        const { events, hasMore, next } = await Api.events(this.gameId, this.token, this.eventsCursor || "");
        if (next) this.eventsCursor = next;
        for (const event of events) {
          if (event.version > this.processed && !this.queue.has(event.version)) { this.queue.set(event.version, event); added = true; }
        }
        if (events.length) this.lastEventAt = Date.parse(events[events.length - 1].at) || this.lastEventAt;
        if (!hasMore || !next) break;
      }
      return added;
    } catch {
      return false;
    }
  }

  // Everything shown: the table shows the latest view and is playable again.
  settle() {
    // Not while a move is on its way: its card is on the table already, ahead of the view.
    if (this.running || this.stopped || this.dialog || this.busy) return;
    if (this.latest.version < this.processed) { this.scheduleRefresh(60); return; }
    if (this.latest.version > this.processed) { if (!this.gapPending) this.pump(); return; }
    const wasMine = this.settled && this.myTurn();
    this.settled = true;
    this.skipping = false;
    this.resetStage();
    this.render();
    this.afterSettle(wasMine);
  }

  afterSettle(wasMine) {
    const view = this.latest;
    const me = view.players[view.seat];
    if (me && !me.taken_over) clearNotice("takeover");
    if (this.myTurn() && !wasMine) announce(t("turn.yours"));
    if (view.status === "finished") {
      this.feed?.end();
      if (this.justEnded && !this.matchDialogShown) this.showMatchEnd();
      this.watchForRematch();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Showing one event

  resetStage() {
    const r = this.latest.round;
    const last = r?.tricks?.[r.tricks.length - 1];
    this.stage = {
      trick: [...(r?.trick || [])], completed: null, hand: null, sizes: null, calls: null,
      lastTrick: last ? { cards: last.cards, winner: last.winner } : null, actor: null, caption: null,
      tricks: r?.tricks?.length || 0, deal: r?.number, auction: r?.phase === "auction",
    };
  }

  // Before the first event of a burst: the stage takes its hand, sizes and calls from the view shown.
  ensureStageCopies() {
    const r = this.latest.round;
    if (!this.stage.hand) this.stage.hand = [...(r?.hand || [])];
    if (!this.stage.sizes) this.stage.sizes = [...(r?.hand_sizes || [])];
    if (!this.stage.calls) this.stage.calls = [...(r?.calls || [])];
  }

  pace() {
    if (this.skipping || this.queue.size > FAST_FORWARD_AFTER || document.hidden) return 0;
    const timeout = this.latest.options?.turn_timeout_s;
    // A short turn timer leaves little time to watch: the table moves on faster.
    return prefs.pace * (timeout && timeout <= 15 ? 0.35 : 1);
  }

  wait(ms) {
    const scaled = ms * this.pace();
    if (scaled <= 0) return Promise.resolve();
    return new Promise((resolve) => { this.wake = resolve; setTimeout(resolve, scaled); });
  }

  skip() {
    this.skipping = true;
    this.wake?.();
  }

  tell(event, context) {
    const text = narrate(event, this.latest, context);
    if (!text) return null;
    this.stage.caption = text;
    this.log.push(text);
    const actor = event.data?.seat ?? event.actor;
    if (!isMe(this.latest, actor) || event.type === "turn_timed_out") announce(text);
    return text;
  }

  async show(event) {
    const d = event.data || {};
    const view = this.latest;
    const s = this.stage;
    const seat = d.seat ?? event.actor;
    this.ensureStageCopies();
    switch (event.type) {
      case "dealt": {
        Object.assign(s, { trick: [], completed: null, lastTrick: null, calls: [], tricks: 0, deal: d.round, actor: null });
        const mine = view.seat !== null && view.seat !== undefined ? d.hands?.[view.seat] : null;
        s.hand = mine ? sortLike(mine, view.round?.number === d.round ? view.round.hand : null) : s.hand;
        s.sizes = [...(d.hand_sizes || s.sizes)];
        this.tell(event);
        this.render();
        await this.wait(DWELL.dealt);
        break;
      }
      case "played": await this.showPlay(event); break;
      case "trick_taken": await this.showTrick(event); break;
      case "drew": {
        for (const draw of d.draws || []) {
          s.sizes[draw.seat] = (s.sizes[draw.seat] || 0) + 1;
          if (isMe(view, draw.seat) && draw.card) s.hand = sortLike([...s.hand, draw.card], view.round?.hand);
        }
        const said = this.tell(event);
        this.render();
        if (said) await this.wait(DWELL.drew);
        break;
      }
      case "exchanged":
        if (isMe(view, seat)) s.hand = sortLike([...s.hand.filter((c) => c !== d.gave), d.took], view.round?.hand);
        await this.beat(event, seat, DWELL.exchanged);
        break;
      case "melded": await this.beat(event, seat, DWELL.melded); break;
      case "closed": await this.beat(event, seat, DWELL.closed); break;
      case "declared_out": await this.beat(event, seat, DWELL.declared_out); break;
      case "called": s.auction = true; s.calls.push({ seat: d.seat, call: d.call, value: d.value, suit: d.suit, convention: d.convention }); await this.beat(event, seat, DWELL.call); break;
      case "bid": s.auction = true; s.calls.push({ seat, value: d.value }); await this.beat(event, seat, DWELL.call); break;
      case "passed": s.auction = true; s.calls.push({ seat, value: null }); await this.beat(event, seat, DWELL.call); break;
      case "auction_ended": s.auction = false; await this.beat(event, d.contract?.declarer, DWELL.contract); break;
      case "auction_won": s.auction = false; await this.beat(event, d.bidder, DWELL.contract); break;
      case "widow_taken":
        if (d.cards && isMe(view, seat)) s.hand = sortLike([...s.hand, ...d.cards], null);
        s.sizes[seat] = (s.sizes[seat] || 0) + (d.cards?.length ?? d.count ?? 0);
        await this.beat(event, seat, DWELL.widow);
        break;
      case "discarded":
        if (d.cards && isMe(view, seat)) s.hand = s.hand.filter((c) => !d.cards.includes(c));
        s.sizes[seat] = (s.sizes[seat] || 0) - (d.cards?.length ?? d.count ?? 0);
        await this.beat(event, seat, DWELL.discarded);
        break;
      case "thrown_in": s.auction = false; await this.beat(event, null, DWELL.thrown_in); break;
      case "round_scored": await this.showDealEnd(event); break;
      case "match_ended":
        this.justEnded = true;
        this.tell(event);
        this.feed?.end();
        break;
      case "match_abandoned": this.tell(event); this.feed?.end(); break;
      case "turn_timed_out":
        if (isMe(view, d.seat)) showNotice("timed-out", t("notice.botPlayedForYou"), { kind: "warn", timeoutMs: 15000 });
        await this.beat(event, d.seat, DWELL.timed_out);
        break;
      case "seat_taken_over":
        if (isMe(view, d.seat)) showNotice("takeover", t("notice.botKeepsSeat"), { kind: "warn" });
        this.tell(event);
        break;
      case "seat_returned": case "seat_claimed": case "seat_reset": this.tell(event); break;
      default: break;
    }
  }

  // An action told in words, its seat marked for a moment.
  async beat(event, seat, dwell) {
    this.stage.actor = seat ?? null;
    this.tell(event);
    this.render();
    await this.wait(dwell);
  }

  async showPlay(event) {
    const d = event.data;
    const s = this.stage;
    const view = this.latest;
    const absorbed = this.expectOwn && isMe(view, d.seat) && this.expectOwn === d.card;
    const first = view.game === "smear" && s.tricks === 0 && s.trick.length === (absorbed ? 1 : 0);
    if (absorbed) {
      this.expectOwn = null; // already on the table since the click
      this.tell(event, { namesTrump: first });
      this.render();
      return;
    }
    const from = this.originOf(d.seat, d.card);
    s.trick.push({ seat: d.seat, card: d.card });
    if (isMe(view, d.seat)) s.hand = s.hand.filter((c) => c !== d.card);
    if (s.sizes[d.seat]) s.sizes[d.seat] -= 1;
    s.actor = d.seat;
    this.tell(event, { namesTrump: first });
    this.render();
    this.flyIn(d.seat, d.card, from);
    await this.wait(DWELL.played);
  }

  async showTrick(event) {
    const d = event.data;
    const s = this.stage;
    s.completed = { winner: d.winner, cards: d.cards, points: d.points ?? d.game_count ?? 0 };
    s.actor = d.winner;
    this.tell(event);
    this.render();
    await this.wait(DWELL.trick);
    await this.gather(d.winner);
    Object.assign(s, { lastTrick: { cards: d.cards, winner: d.winner }, trick: [], completed: null, tricks: s.tricks + 1, caption: null });
    this.render();
  }

  async showDealEnd(event) {
    const d = event.data;
    if (!this.rows.some((r) => r.round === d.round)) this.rows.push(d);
    this.tell(event);
    const later = [...this.queue.values()].some((e) => e.type === "round_scored");
    if (later) return; // catching up: only the newest deal's end is worth a stop
    const last = [...this.queue.values()].some((e) => e.type === "match_ended") || this.latest.status === "finished";
    this.render();
    document.body.dataset.state = "deal-over";
    this.dialog = dealEndDialog(this.latest, d, { last });
    await this.dialog;
    this.dialog = null;
    this.updateState();
    this.focusHand();
  }

  // Where a played card comes from: its place in your hand, or the seat of the player.
  originOf(seat, card) {
    if (!this.regions) return null;
    const inHand = isMe(this.latest, seat) ? this.regions.hand.querySelector(`[data-card="${card}"]`) : null;
    const node = inHand || this.regions.ring.querySelector(`#seat-${seat}`);
    return node ? node.getBoundingClientRect() : null;
  }

  flyIn(seat, card, from) {
    if (!from || prefersReducedMotion() || this.pace() === 0) return;
    const node = this.regions.ring.querySelector(`#trick [data-card="${card}"][data-seat="${seat}"]`);
    if (!node?.animate) return;
    const to = node.getBoundingClientRect();
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    node.animate([{ transform: `translate(-50%, -50%) translate(${dx}px, ${dy}px) scale(.9)` }, { transform: "translate(-50%, -50%)" }],
      { duration: MOVE_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
  }

  // The trick slides to its winner's seat before it is cleared.
  async gather(winner) {
    const seatNode = this.regions?.ring.querySelector(`#seat-${winner}`);
    if (!seatNode || prefersReducedMotion() || this.pace() === 0) return;
    const to = seatNode.getBoundingClientRect();
    const animations = [...this.regions.ring.querySelectorAll("#trick .card")].map((node) => {
      const from = node.getBoundingClientRect();
      const dx = to.left + to.width / 2 - (from.left + from.width / 2);
      const dy = to.top + to.height / 2 - (from.top + from.height / 2);
      return node.animate?.([{ transform: "translate(-50%, -50%)", opacity: 1 },
        { transform: `translate(-50%, -50%) translate(${dx}px, ${dy}px) scale(.4)`, opacity: 0 }],
      { duration: DWELL.gather, easing: "ease-in", fill: "forwards" });
    }).filter(Boolean);
    await Promise.all(animations.map((a) => a.finished.catch(() => null)));
  }

  // ---------------------------------------------------------------------------------------------
  // Acting

  myTurn() {
    const v = this.latest;
    return Boolean(v && this.settled && !this.busy && v.status === "active" && v.seat !== null && v.seat !== undefined && v.legal_actions.length);
  }

  // A click on a move: the risky ones ask first, with what they cost.
  async request(action) {
    if (!this.myTurn()) return;
    if (GUARDED.has(action.type)) {
      const words = consequence(action, this.latest);
      if (words) {
        this.dialog = confirmDialog(words);
        const confirmed = await this.dialog;
        this.dialog = null;
        if (!confirmed) { this.settle(); this.focusHand(); return; }
      }
    }
    await this.act(action);
  }

  // `key` is the Idempotency-Key: a retry after a lost answer sends the same one, so a move that did
  // reach the server is not made twice.
  async act(action, key = randomKey(), retry = false) {
    if (this.busy || (!retry && !this.myTurn())) return;
    this.busy = true;
    clearNotice("action");
    if (action.type === "play") this.playAtOnce(action.card);
    else this.render();
    try {
      const data = await Api.act(this.gameId, this.token, action, key);
      if (data.version > this.latest.version) this.latest = data;
      this.ui.discard = new Set();
      this.ui.hint = null;
      this.ui.bid = { convention: this.ui.bid.convention };
      this.busy = false;
      this.pump();
    } catch (err) {
      this.busy = false;
      this.expectOwn = null;
      const retry = err.offline ? { label: t("connection.retry"), run: () => { clearNotice("action"); this.act(action, key, true); } } : null;
      showNotice("action", err.offline ? t("notice.moveNotSent") : t("notice.moveRefused", { reason: errorText(err) }), { kind: "error", action: retry });
      await this.refresh();
      this.settled = false;
      this.settle();
    }
  }

  // Your own card goes to the table as you click it; the event that confirms it is not shown twice.
  playAtOnce(card) {
    const view = this.latest;
    this.ensureStageCopies();
    const from = this.originOf(view.seat, card);
    this.stage.trick.push({ seat: view.seat, card });
    this.stage.hand = this.stage.hand.filter((c) => c !== card);
    if (this.stage.sizes[view.seat]) this.stage.sizes[view.seat] -= 1;
    this.stage.caption = t("narr.played.you", { card: cardText(card) });
    this.expectOwn = card;
    this.settled = false;
    this.render();
    this.flyIn(view.seat, card, from);
  }

  toggleDiscard(card, choice) {
    if (this.ui.discard.has(card)) this.ui.discard.delete(card);
    else if (choice.picked.length < choice.size) this.ui.discard.add(card);
    this.render();
  }

  async join(name, seat) {
    if (!name) { showNotice("action", t("join.needName"), { kind: "error" }); return; }
    prefs.name = name;
    try {
      const data = await Api.claimSeat(this.gameId, name, seat, this.latest.private ? this.joinCode : undefined);
      seatStore.put(this.gameId, data.seat, data.token);
      // A seat at a private table: the code stays, so this player's share link invites too.
      if (data.view?.private && this.joinCode) joinCodes.put(this.gameId, this.joinCode);
      this.stop();
      const next = new TableController(this.root, this.gameId);
      window.scrollTo(0, 0);
      await next.start();
      window.scrollTo(0, 0);
      next.focusHand();
    } catch (err) {
      showNotice("action", errorText(err), { kind: "error" });
      await this.refresh();
    }
  }

  async hint() {
    try {
      this.ui.hint = await Api.hint(this.gameId, this.token);
      this.ui.hintNumbers = false;
    } catch (err) {
      this.ui.hint = null;
      if (err.status === 404 || err.status === 405) this.ui.hintAvailable = false;
      else if (err.status !== 409) showNotice("action", errorText(err), { kind: "error" });
    }
    this.render();
    this.regions.panel.querySelector("#hint-text")?.focus?.();
  }

  showLastTrick() {
    const trick = this.stage.lastTrick;
    if (!trick) return;
    lastTrickDialog(this.latest, trick, () => this.regions.ring.querySelector("#last-trick-button")?.focus());
  }

  // ---------------------------------------------------------------------------------------------
  // The end of the match

  rematchChoice() {
    const view = this.latest;
    if (view.seat === null || view.seat === undefined || view.status !== "finished") return null;
    if ("rematch" in view) {
      const offered = view.rematch?.game_id;
      return { label: offered ? t("matchEnd.joinRematch") : t("matchEnd.rematch"), run: () => this.rematch() };
    }
    // A server without the rematch endpoint: against bots, the same table is made from the lobby's calls.
    const others = view.players.filter((p) => p.seat !== view.seat);
    if (others.every((p) => p.kind === "bot")) return { label: t("matchEnd.rematch"), run: () => this.rematchAgainstBots() };
    return null;
  }

  showMatchEnd() {
    this.matchDialogShown = true;
    document.body.dataset.state = "finished";
    matchEndDialog(this.latest, {
      rematch: this.rematchChoice(),
      onNewMatch: () => { location.hash = "#/"; },
      onClose: () => this.focusHand(),
    });
  }

  // The stream ends with the match, so a rematch another seat asks for is waited for by long-polling the
  // view (its offer is an event of the finished match): the button then reads "Join the rematch".
  async watchForRematch() {
    if (this.watchingRematch) return;
    this.watchingRematch = true;
    const waiting = () => !this.stopped && this.token && this.latest.status === "finished" && "rematch" in this.latest && !this.latest.rematch;
    // For half an hour at most: a table left open on a finished match does not poll for ever.
    for (let polls = 0; polls < 180 && waiting(); polls++) {
      try {
        const { status, data } = await Api.view(this.gameId, this.token, this.latest.version, 10);
        if (this.stopped) return;
        if (status !== 304 && data && data.version >= this.latest.version) {
          this.latest = data;
          this.render();
          this.pump();
        }
      } catch {
        await new Promise((resolve) => { setTimeout(resolve, 5000); });
      }
    }
    const button = document.getElementById("rematch");
    const choice = this.stopped ? null : this.rematchChoice();
    if (button && choice) button.textContent = choice.label;
  }

  async rematch() {
    try {
      const data = await Api.rematch(this.gameId, this.token);
      seatStore.put(data.game_id, data.seat, data.token);
      location.hash = `#/g/${data.game_id}`;
    } catch (err) {
      showNotice("action", t("notice.rematchFailed", { reason: errorText(err) }), { kind: "error" });
    }
  }

  async rematchAgainstBots() {
    const view = this.latest;
    const options = {};
    for (const [name, value] of Object.entries(view.options)) {
      if (value !== null && value !== undefined && name !== "first_dealer") options[name] = value;
    }
    const seatSpecs = view.players.map((p) => (p.kind === "bot" ? { kind: "bot", level: p.level } : { kind: "human" }));
    try {
      const created = await Api.createGame({ game: view.game, options, seats: seatSpecs });
      const claimed = await Api.claimSeat(created.game_id, prefs.name || view.players[view.seat].name, view.seat);
      seatStore.put(created.game_id, claimed.seat, claimed.token);
      location.hash = `#/g/${created.game_id}`;
    } catch (err) {
      showNotice("action", t("notice.rematchFailed", { reason: errorText(err) }), { kind: "error" });
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Drawing

  timerFor(seat) {
    const view = this.latest;
    const timeout = view.options?.turn_timeout_s;
    const p = view.players[seat];
    if (!timeout || !this.settled || !this.lastEventAt || view.status !== "active") return null;
    if (!(view.to_act || []).includes(seat) || p.kind !== "human" || !p.claimed || p.taken_over) return null;
    const deadline = this.lastEventAt + timeout * 1000;
    return { deadline, ...countdown(deadline) };
  }

  tick() {
    for (const node of this.regions?.ring.querySelectorAll(".timer[data-deadline]") || []) {
      const c = countdown(Number(node.dataset.deadline));
      node.textContent = c.text;
      node.classList.toggle("urgent", c.urgent);
    }
  }

  focusHand() {
    const hand = this.regions?.hand;
    const target = hand?.querySelector(".playable, .selectable") || hand?.querySelector("[tabindex='0']") || this.regions?.controls.querySelector("button");
    target?.focus({ preventScroll: true });
  }

  render() {
    if (!this.latest || !this.regions || this.stopped) return;
    render(this, this.regions);
    this.updateState();
  }

  updateState() {
    const view = this.latest;
    const mine = this.myTurn();
    const state = this.dialog && document.getElementById("deal-end") ? "deal-over"
      : view.status === "finished" && this.settled ? "finished"
        : this.busy ? "busy" : !this.settled ? "animating" : mine ? "my-turn" : "waiting";
    Object.assign(document.body.dataset, { state, version: String(this.settled ? view.version : this.processed), phase: view.round?.phase || view.status });
    document.title = mine ? t("title.yourTurn", { game: t(`game.${view.game}`) }) : view.status === "finished" ? t("title.over") : t("title.table", { game: t(`game.${view.game}`) });
    const turn = document.getElementById("turn");
    if (turn) turn.textContent = turnText(this, view);
  }
}

function countdown(deadline) {
  const left = Math.max(0, Math.round((deadline - serverNow()) / 1000));
  return { text: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`, urgent: left <= 10 };
}

// A hand in the order the view sorts it (by suit and rank): cards the view does not know go last.
function sortLike(cards, reference) {
  if (!reference) return [...cards];
  const index = new Map(reference.map((c, i) => [c, i]));
  return [...cards].sort((a, b) => (index.get(a) ?? 99) - (index.get(b) ?? 99));
}

// The hand is a toolbar: the arrow keys move between cards, Home and End to the ends.
function moveAlongHand(e, hand) {
  const keys = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1, Home: -Infinity, End: Infinity };
  if (!(e.key in keys)) return;
  const cards = [...hand.querySelectorAll(".card")];
  const at = cards.indexOf(document.activeElement);
  if (at < 0) return;
  e.preventDefault();
  const step = keys[e.key];
  const next = step === -Infinity ? 0 : step === Infinity ? cards.length - 1 : Math.min(cards.length - 1, Math.max(0, at + step));
  cards[at].setAttribute("tabindex", "-1");
  cards[next].setAttribute("tabindex", "0");
  cards[next].focus();
}

function randomKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `web-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export function errorText(err) {
  if (err.offline) return t("error.offline");
  if (err.status === 409 || err.status === 412) return t("error.conflict");
  if (err.status === 422) return t("error.rule");
  if (err.status === 404) return t("error.notFound");
  if (joinRefused(err)) return t("error.joinCodeRefused");
  if (err.status === 429) return t("error.tooMany", { count: err.problem?.retryAfter ?? 1 });
  return err.problem?.detail || err.problem?.title || err.message || t("error.unknown");
}
