// The public HTTP API, and nothing else: every path, header and response shape the client relies on
// is in this file, so a change of the API's contract is adapted here once.
const TIMEOUT_MS = 15000;

export class ApiError extends Error {
  // status 0: the server could not be reached (or did not answer in time).
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }

  get offline() { return this.status === 0; }
}

// The server's clock minus ours, from the Date header (whole seconds: +500 ms is the middle), so a
// turn timer counts down from the server's time of the last move.
let clockOffsetMs = 0;
export function serverNow() { return Date.now() + clockOffsetMs; }

function noteServerClock(response) {
  const date = Date.parse(response.headers.get("Date") || "");
  if (Number.isFinite(date)) clockOffsetMs = date + 500 - Date.now();
}

// Listeners told when a request reached the server (true) or could not (false): the connection badge.
const reachListeners = new Set();
export function onReach(listener) { reachListeners.add(listener); return () => reachListeners.delete(listener); }
function reached(ok) { for (const listener of reachListeners) listener(ok); }

// One request; resolves to {status, data, etag}, or throws ApiError with the problem+json detail.
// Every request is bounded in time, so the screen never waits forever on a lost answer.
async function request(method, path, { token, body, headers = {}, timeoutMs = TIMEOUT_MS } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const init = { method, headers: { Accept: "application/json", ...headers }, signal: controller.signal, cache: "no-store" };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    reached(false);
    throw new ApiError(0, { detail: err.name === "AbortError" ? "timeout" : "unreachable", offline: true });
  } finally {
    clearTimeout(timer);
  }
  reached(response.status < 500 || response.status === 501);
  noteServerClock(response);
  const etag = response.headers.get("ETag");
  if (response.status === 304) return { status: 304, data: null, etag };
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { detail: text.slice(0, 200) }; }
  if (!response.ok) {
    const problem = problemOf(data);
    const retry = response.headers.get("Retry-After");
    if (retry) problem.retryAfter = Number(retry);
    throw new ApiError(response.status, problem);
  }
  return { status: response.status, data, etag };
}

// Problem details (RFC 9457), whichever of the shapes the server sends.
function problemOf(data) {
  if (!data || typeof data !== "object") return {};
  const inner = data.error && typeof data.error === "object" ? data.error : data;
  return { ...inner };
}

// A list response's items, whichever key the server names them by.
function items(data, key) {
  if (Array.isArray(data)) return data;
  return data?.[key] || data?.items || data?.data || [];
}

const game = (id) => `/v1/games/${encodeURIComponent(id)}`;

export const Api = {
  createGame: (spec) => request("POST", "/v1/games", { body: spec }).then((r) => r.data),
  // A private match's seats need its join code (`joinCode`); other matches ignore it.
  claimSeat: (gameId, name, seat, joinCode) => {
    const body = seat === undefined ? { name } : { name, seat };
    if (joinCode) body.join_code = joinCode;
    return request("POST", `${game(gameId)}/players`, { body }).then((r) => r.data);
  },
  // {status, data}: data is null on 304 (nothing new since `known`).
  // With `wait` (seconds) as well, the server answers once the version moves past `known` (a long-poll).
  view: (gameId, token, known, wait) =>
    request("GET", wait ? `${game(gameId)}?wait=${wait}` : game(gameId),
      { token, headers: known === undefined ? {} : { "If-None-Match": `"${known}"` } }),
  act: (gameId, token, action, idempotencyKey) =>
    request("POST", `${game(gameId)}/actions`, { token, body: action, headers: { "Idempotency-Key": idempotencyKey } }).then((r) => r.data),
  // One page of events as the caller may see them: {events, hasMore, next} (`next`: the cursor of the
  // page after it; "" for the first page).
  async events(gameId, token, cursor = "", limit = 500) {
    const from = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const { data } = await request("GET", `${game(gameId)}/events?limit=${limit}${from}`, { token });
    return { events: items(data, "events"), hasMore: Boolean(data.has_more), next: data.next_cursor };
  },
  hint: (gameId, token) => request("GET", `${game(gameId)}/hint`, { token }).then((r) => r.data),
  // The rematch of a finished match: {game_id, seat, token, view}.
  rematch: (gameId, token) => request("POST", `${game(gameId)}/rematch`, { token }).then((r) => r.data),
  // A finished match at `version` (omitted: its last), every hand shown: {game_id, version, last_version,
  // view, hands}.
  replay: (gameId, version) =>
    request("GET", `${game(gameId)}/replay${version === undefined ? "" : `?version=${version}`}`).then((r) => r.data),
  // Players: a profile {player_id, name, ratings}, a page of their matches {matches, hasMore, next},
  // and a game's leaderboard {entries, min_matches, max_deviation, me}.
  player: (id) => request("GET", `/v1/players/${encodeURIComponent(id)}`).then((r) => r.data),
  async playerMatches(id, cursor = "", limit = 20) {
    const from = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const { data } = await request("GET", `/v1/players/${encodeURIComponent(id)}/matches?limit=${limit}${from}`);
    return { matches: items(data, "matches"), hasMore: Boolean(data.has_more), next: data.next_cursor };
  },
  leaderboard: (gameName, limit = 50) =>
    request("GET", `/v1/leaderboards/${encodeURIComponent(gameName)}?limit=${limit}`).then((r) => r.data),
  // Lobby lists: [{game_id, game, variant, status, players, open_seats, created_ms}].
  async list(status, limit = 20) {
    const { data } = await request("GET", `/v1/games?status=${status}&limit=${limit}`);
    return items(data, "games");
  },
  // A URL for EventSource: a seat needs a ticket (EventSource cannot send a header); each ticket opens
  // one stream, so every (re)connect asks for a new one.
  async streamUrl(gameId, token, lastEventId) {
    // The last version seen; none (a first connection) means from the first event.
    const after = Number.isInteger(lastEventId) && lastEventId >= 0 ? lastEventId : 0;
    let url = `${game(gameId)}/stream?last_event_id=${after}`;
    if (token) {
      const { data } = await request("POST", `${game(gameId)}/stream-tickets`, { token, timeoutMs: 5000 });
      url += `&ticket=${encodeURIComponent(data.ticket)}`;
    }
    return url;
  },
};

// Seat tokens stay in this browser's localStorage, one per game: never in a URL.
const KEY = (gameId) => `talon.seat.${gameId}`;

export const seats = {
  get(gameId) {
    try { return JSON.parse(localStorage.getItem(KEY(gameId))); } catch { return null; }
  },
  put(gameId, seat, token) { localStorage.setItem(KEY(gameId), JSON.stringify({ seat, token, at: Date.now() })); },
  drop(gameId) { localStorage.removeItem(KEY(gameId)); },
  // Every game this browser holds a seat in, newest first.
  all() {
    const out = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith("talon.seat.")) continue;
      const gameId = key.slice("talon.seat.".length);
      const value = seats.get(gameId);
      if (value?.token) out.push({ gameId, ...value });
    }
    return out.sort((a, b) => (b.at || 0) - (a.at || 0));
  },
};

// A private match's join code, next to its seat token: the creator's answer shows it once, and the
// table's invitation link carries it (in the URL's fragment, which never reaches the server's logs).
// Kept apart from the seat, so a seat lost (an operator's reset) does not lose the invitation.
const JOIN_KEY = (gameId) => `talon.join.${gameId}`;

export const joinCodes = {
  get(gameId) { return localStorage.getItem(JOIN_KEY(gameId)); },
  put(gameId, code) { localStorage.setItem(JOIN_KEY(gameId), code); },
};

// A join-code-refused problem (403): the match is private and no code, or another one, was sent.
export function joinRefused(err) {
  return err?.status === 403 && String(err.problem?.type || "").endsWith("/join-code-refused");
}
