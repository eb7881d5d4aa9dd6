// Live updates over Server-Sent Events. EventSource cannot send Authorization, so a seat first gets a
// short-lived stream ticket with its token. After a dropped connection (or an expired ticket) it
// reconnects with a fresh ticket and `last_event_id` = the last event it saw, so nothing is missed.
import { api } from "./api.js";

// Every event type the games and the table write; SSE names each message by its type.
const EVENT_TYPES = [
  "match_created", "seat_claimed", "turn_timed_out", "seat_taken_over", "seat_returned", "seat_reset",
  "match_abandoned", "deal_committed", "deal_revealed", "dealt", "played", "trick_taken", "drew", "melded",
  "exchanged", "closed", "declared_out", "called", "auction_ended", "thrown_in", "bid", "passed",
  "auction_won", "widow_taken", "discarded", "round_ended", "round_scored", "match_ended",
];
const MAX_BACKOFF_MS = 8000;

export class LiveFeed {
  // onEvent(event) for each event (parsed), onStatus("live" | "reconnecting")
  constructor(gameId, token, lastEventId, { onEvent, onStatus }) {
    Object.assign(this, { gameId, token, lastEventId, onEvent, onStatus });
    this.source = null;
    this.backoff = 500;
    this.closed = false;
  }

  async open() {
    if (this.closed) return;
    let url = `/v1/games/${this.gameId}/stream?last_event_id=${this.lastEventId}`;
    try {
      if (this.token) {
        const { data } = await api("POST", `/v1/games/${this.gameId}/stream-tickets`, { token: this.token });
        url += `&ticket=${encodeURIComponent(data.ticket)}`;
      }
    } catch {
      this.retry();
      return;
    }
    if (this.closed) return;
    const source = new EventSource(url);
    this.source = source;
    const handle = (message) => {
      const version = Number(message.lastEventId);
      if (!Number.isFinite(version) || version <= this.lastEventId) return;
      this.lastEventId = version;
      this.backoff = 500;
      let event = null;
      try { event = JSON.parse(message.data); } catch { event = { version, type: message.type }; }
      this.onEvent(event);
    };
    for (const type of EVENT_TYPES) source.addEventListener(type, handle);
    source.onmessage = handle;
    source.onopen = () => this.onStatus("live");
    source.onerror = () => {
      // The browser's own retry would reuse an expired ticket: reconnect ourselves instead.
      source.close();
      if (this.source === source) this.retry();
    };
  }

  retry() {
    if (this.closed) return;
    this.onStatus("reconnecting");
    const delay = this.backoff;
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    setTimeout(() => this.open(), delay);
  }

  // Drop the connection on purpose (the tests use it to check the catch-up).
  drop() {
    if (this.source) this.source.close();
    this.source = null;
    this.retry();
  }

  close() {
    this.closed = true;
    if (this.source) this.source.close();
  }
}
