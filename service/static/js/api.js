// The public HTTP API, and nothing else: every call the client makes goes through here.
const TIMEOUT_MS = 15000;

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

// One request; resolves to {status, data, etag}, or throws ApiError with the problem+json detail.
// Every request is bounded in time, so the screen never waits forever on a lost answer.
export async function api(method, path, { token, body, headers = {} } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  const init = { method, headers: { Accept: "application/json", ...headers }, signal: controller.signal };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    const why = err.name === "AbortError" ? "the server did not answer in time" : "the server cannot be reached";
    throw new ApiError(0, { detail: `${why}; try again` });
  } finally {
    clearTimeout(timer);
  }
  const etag = response.headers.get("ETag");
  if (response.status === 304) return { status: 304, data: null, etag };
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { detail: text.slice(0, 200) }; }
  if (!response.ok) {
    const retry = response.headers.get("Retry-After");
    const problem = data || {};
    if (response.status === 429 && retry) problem.detail = `${problem.detail || "too many requests"} (try again in ${retry} s)`;
    throw new ApiError(response.status, problem);
  }
  return { status: response.status, data, etag };
}

// Seat tokens stay in this browser's localStorage, one per game: never in a URL.
const KEY = (gameId) => `talon.seat.${gameId}`;

export const seats = {
  get(gameId) {
    try { return JSON.parse(localStorage.getItem(KEY(gameId))); } catch { return null; }
  },
  put(gameId, seat, token) { localStorage.setItem(KEY(gameId), JSON.stringify({ seat, token })); },
  drop(gameId) { localStorage.removeItem(KEY(gameId)); },
};

export const prefs = {
  get name() { return localStorage.getItem("talon.name") || ""; },
  set name(value) { localStorage.setItem("talon.name", value); },
};

// The bot levels this server offers, read from its published spec (SeatSpec.level's enum).
export async function botLevels() {
  const fallback = ["random", "basic"];
  try {
    const response = await fetch("/openapi.yaml");
    const text = await response.text();
    const block = text.split(/\n\s*SeatSpec:\n/)[1] || "";
    const level = block.split(/\n\s*level:\n/)[1] || "";
    const enumText = (level.split(/\n\s*enum:\n/)[1] || "").split(/\n\s*[a-z_]+:/)[0];
    const levels = [...enumText.matchAll(/^\s*- ([a-z_]+)\s*$/gm)].map((m) => m[1]);
    return levels.length ? levels : fallback;
  } catch {
    return fallback;
  }
}
