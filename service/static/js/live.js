// Live updates over Server-Sent Events, and the connection state the page shows.
//
// A stream ticket opens one stream only, so every (re)connect gets a new ticket: on an error the
// EventSource is closed (its own retry would reuse the ticket) and reopened by us, with backoff, from
// `last_event_id` = the last event seen, so nothing is missed. A stream that ends after the match has
// ended is not an outage.
import { Api } from "./api.js";

// Every event type the games and the table write; SSE names each message by its type.
const EVENT_TYPES = [
  "match_created", "seat_claimed", "turn_timed_out", "seat_taken_over", "seat_returned", "seat_reset",
  "match_abandoned", "deal_committed", "deal_revealed", "dealt", "played", "trick_taken", "drew", "melded",
  "exchanged", "closed", "declared_out", "called", "auction_ended", "thrown_in", "bid", "passed",
  "auction_won", "widow_taken", "discarded", "round_ended", "round_scored", "match_ended",
];
const FINAL_TYPES = new Set(["match_ended", "match_abandoned"]);
const BACKOFF_MS = [0, 500, 1000, 2000, 4000, 8000];
// A stream that ends normally (its time limit) reconnects within this time without showing a change.
const GRACE_MS = 400;

export class LiveFeed {
  // onEvent(event) for each event; onStatus({state: "live" | "reconnecting" | "offline" | "ended", retryAt}).
  constructor(gameId, token, lastEventId, { onEvent, onStatus }) {
    Object.assign(this, { gameId, token, lastEventId, onEvent, onStatus });
    this.source = null;
    this.attempt = 0;
    this.closed = false;
    this.ended = false;
    this.timer = null;
    this.graceTimer = null;
    this.state = null;
    this.onOnline = () => this.retryNow();
    window.addEventListener("online", this.onOnline);
  }

  setStatus(state, extra = {}) {
    this.state = state;
    this.onStatus({ state, ...extra });
  }

  // One stream at a time: while a ticket is on its way or a stream is open, nothing else opens one.
  async open() {
    if (this.closed || this.ended || this.opening || this.source) return;
    clearTimeout(this.timer);
    this.opening = true;
    let url;
    try {
      url = await Api.streamUrl(this.gameId, this.token, this.lastEventId);
    } catch (err) {
      this.opening = false;
      this.fail(err.offline ? "offline" : "reconnecting");
      return;
    }
    this.opening = false;
    if (this.closed || this.ended) return;
    const source = new EventSource(url);
    this.source = source;
    const handle = (message) => {
      const version = Number(message.lastEventId);
      if (!Number.isFinite(version) || version <= this.lastEventId) return;
      this.lastEventId = version;
      let event;
      try { event = JSON.parse(message.data); } catch { event = { version, type: message.type, data: {} }; }
      if (FINAL_TYPES.has(event.type)) this.ended = true;
      this.onEvent(event);
    };
    for (const type of EVENT_TYPES) source.addEventListener(type, handle);
    source.onmessage = handle;
    source.onopen = () => {
      this.attempt = 0;
      clearTimeout(this.graceTimer);
      this.setStatus("live");
    };
    source.onerror = () => {
      source.close();
      if (this.source !== source) return;
      this.source = null;
      if (this.ended) { this.setStatus("ended"); return; }
      this.fail("reconnecting");
    };
  }

  // The stream dropped or could not open: show it (after a short grace for a normal reconnect) and
  // try again with backoff.
  fail(state) {
    if (this.closed || this.ended) return;
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    const retryAt = Date.now() + delay;
    clearTimeout(this.graceTimer);
    if (state === "offline" || this.state !== "live") this.setStatus(state, { retryAt });
    else this.graceTimer = setTimeout(() => { if (!this.source || this.source.readyState !== 1) this.setStatus(state, { retryAt }); }, GRACE_MS);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), delay);
  }

  retryNow() {
    if (this.closed || this.ended || this.opening || this.source) return;
    this.attempt = 0;
    clearTimeout(this.timer);
    this.open();
  }

  // Drop the connection on purpose (the tests use it to check the catch-up).
  drop() {
    if (!this.source) return;
    this.source.close();
    this.source = null;
    this.fail("reconnecting");
  }

  // The match is over: no more events will come, and the stream's end is expected.
  end() {
    this.ended = true;
    if (this.source) this.source.close();
    this.source = null;
    clearTimeout(this.timer);
    this.setStatus("ended");
  }

  close() {
    this.closed = true;
    window.removeEventListener("online", this.onOnline);
    clearTimeout(this.timer);
    clearTimeout(this.graceTimer);
    if (this.source) this.source.close();
  }
}
