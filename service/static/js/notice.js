// Banners under the top bar (an error, the connection, a bot that moved for you) and the live badge.
// Each banner has an id: showing it again replaces it, and it clears itself when its cause is gone.
import { el } from "./dom.js";
import { t } from "./i18n.js";

const timers = new Map();

// action: {label, run} adds a button (e.g. "Retry").
export function showNotice(id, text, { kind = "info", action = null, timeoutMs = null } = {}) {
  const box = document.getElementById("notices");
  if (!box) return;
  const existing = box.querySelector(`[data-notice="${id}"]`);
  if (existing && existing.classList.contains(kind) && existing.querySelector(".notice-action")?.textContent === (action?.label ?? undefined)) {
    existing.querySelector(".notice-text").textContent = text; // keeps focus on its buttons
    return;
  }
  const node = el("div", { class: `notice ${kind}`, dataset: { notice: id }, role: kind === "error" ? "alert" : "status" },
    el("span", { class: "notice-text" }, text),
    action ? el("button", { type: "button", class: "notice-action", dataset: { noticeAction: id }, onclick: action.run }, action.label) : null,
    el("button", { type: "button", class: "notice-close", "aria-label": t("notice.dismiss"), onclick: () => clearNotice(id) }, "×"));
  const old = box.querySelector(`[data-notice="${id}"]`);
  if (old) old.replaceWith(node); else box.append(node);
  clearTimeout(timers.get(id));
  if (timeoutMs) timers.set(id, setTimeout(() => clearNotice(id), timeoutMs));
}

export function clearNotice(id) {
  clearTimeout(timers.get(id));
  document.querySelector(`#notices [data-notice="${id}"]`)?.remove();
}

export function clearAllNotices() {
  for (const id of timers.keys()) clearTimeout(timers.get(id));
  document.getElementById("notices")?.replaceChildren();
}

// The live badge and the connection banner, from the feed's state. The banner counts down to the
// next attempt and offers to retry now; it goes away by itself once the connection is back.
let countdown = null;
export function showConnection(status, retryNow) {
  const badge = document.getElementById("live");
  clearInterval(countdown);
  if (!status) {
    badge.hidden = true;
    delete document.body.dataset.live;
    clearNotice("connection");
    return;
  }
  const state = status.state;
  badge.hidden = state === "ended";
  badge.className = `live ${state}`;
  badge.textContent = t(`live.${state}`);
  document.body.dataset.live = state;
  if (state === "live" || state === "ended") {
    clearNotice("connection");
    return;
  }
  const draw = () => {
    const seconds = Math.max(0, Math.ceil(((status.retryAt || Date.now()) - Date.now()) / 1000));
    const text = state === "offline" ? t("connection.offline", { count: seconds }) : t("connection.reconnecting");
    showNotice("connection", text, { kind: "error", action: { label: t("connection.retry"), run: retryNow } });
  };
  draw();
  if (state === "offline") countdown = setInterval(draw, 1000);
}
