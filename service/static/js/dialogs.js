// Modal dialogs (<dialog>: the browser keeps focus inside and Esc closes): confirming a risky move,
// the end of a deal, the end of the match, and the last trick.
import { el, cardEl, cardText } from "./dom.js";
import { t } from "./i18n.js";
import { dealResult, nameOf, winnerName, sideName, isMe, gameTitle } from "./words.js";
import { resultTable } from "./summary.js";

function open(id, labelId, children, { onClose, className = "" } = {}) {
  document.getElementById(id)?.remove();
  const dialog = el("dialog", { id, class: `dialog ${className}`, "aria-labelledby": labelId }, ...children);
  dialog.addEventListener("close", () => { dialog.remove(); onClose?.(dialog.returnValue); });
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

// Resolves true when confirmed; false on Cancel, Esc or a click outside. Cancel has the focus first.
export function confirmDialog({ title, body, confirm }) {
  return new Promise((resolve) => {
    const cancelButton = el("button", { type: "button", class: "secondary", id: "confirm-cancel", autofocus: true }, t("dialog.cancel"));
    const okButton = el("button", { type: "button", class: "danger", id: "confirm-ok" }, confirm);
    const dialog = open("confirm", "confirm-h", [
      el("h2", { id: "confirm-h" }, title),
      ...body.map((line) => el("p", {}, line)),
      el("div", { class: "dialog-buttons" }, cancelButton, okButton)], { onClose: (value) => resolve(value === "ok") });
    // The answer is given on the click itself (the dialog's close event comes a task later).
    cancelButton.addEventListener("click", () => { resolve(false); dialog.close("cancel"); });
    okButton.addEventListener("click", () => { resolve(true); dialog.close("ok"); });
    dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close("cancel"); });
  });
}

// The end of a deal, in plain words, with the figures; resolves when the player goes on.
export function dealEndDialog(view, result, { last = false } = {}) {
  return new Promise((resolve) => {
    const words = dealResult(view, result);
    const next = el("button", { type: "button", class: "primary", id: "next-deal", autofocus: true }, last ? t("dealEnd.seeResult") : t("dealEnd.next"));
    const dialog = open("deal-end", "deal-end-h", [
      el("p", { class: "kicker" }, t("dealEnd.kicker", { n: result.round })),
      el("h2", { id: "deal-end-h" }, words.title),
      el("ul", { class: "why" }, ...words.lines.map((line) => el("li", {}, line))),
      resultTable(view, words.table),
      el("p", { class: "standing-line" }, t("dealEnd.standing"), " ",
        (result.standing || view.standing).map((s, i) => `${sideName(view, i)} ${s.score}`).join(" · ")),
      el("div", { class: "dialog-buttons" }, next)], { onClose: () => resolve(), className: "deal-end" });
    next.addEventListener("click", () => { resolve(); dialog.close("next"); });
  });
}

// The end of the match: who won, the final score, Rematch (same seats and options), New match and the
// replay.
// `rematch` is {label, run} or null; a rematch another player offered reads "Join the rematch".
export function matchEndDialog(view, { rematch, onNewMatch, onClose }) {
  const youWon = Array.isArray(view.winner) && view.winner.includes(view.seat);
  const buttons = [];
  if (rematch) {
    const button = el("button", { type: "button", class: "primary", id: "rematch", autofocus: true }, rematch.label);
    button.addEventListener("click", async () => {
      button.disabled = true;
      try { await rematch.run(); } finally { button.disabled = false; }
    });
    buttons.push(button);
  }
  const newMatch = el("button", { type: "button", class: rematch ? "secondary" : "primary", id: "new-match" }, t("matchEnd.newMatch"));
  const stay = el("button", { type: "button", class: "secondary", id: "stay" }, t("matchEnd.stay"));
  // The replay: every deal again, every hand shown (a link: it opens like any page of the client).
  const replay = el("a", { class: "button secondary", id: "watch-replay", href: `#/r/${view.game_id}` }, t("matchEnd.replay"));
  replay.addEventListener("click", () => dialog.close("replay"));
  buttons.push(newMatch, replay, stay);
  const dialog = open("match-end", "match-end-h", [
    el("p", { class: "kicker" }, t("matchEnd.kicker", { game: gameTitle(view.game) })),
    el("h2", { id: "match-end-h" }, view.winner ? (youWon ? t("matchEnd.youWon") : t("matchEnd.won", { winner: winnerName(view, view.winner) })) : t("matchEnd.over")),
    el("ul", { class: "final" }, ...view.standing.map((s, i) => el("li", { class: s.seats.includes(view.seat) ? "mine" : "" },
      el("span", {}, sideName(view, i)), el("strong", {}, String(s.score))))),
    rematch?.note ? el("p", { class: "small" }, rematch.note) : null,
    el("div", { class: "dialog-buttons" }, ...buttons)], { onClose, className: "match-end" });
  newMatch.addEventListener("click", () => { dialog.close("new"); onNewMatch(); });
  stay.addEventListener("click", () => dialog.close("stay"));
  return dialog;
}

export function lastTrickDialog(view, trick, onClose) {
  const close = el("button", { type: "button", class: "primary", autofocus: true }, t("dialog.close"));
  const winner = trick.winner;
  const dialog = open("last-trick", "last-trick-h", [
    el("h2", { id: "last-trick-h" }, isMe(view, winner) ? t("lastTrick.you") : t("lastTrick.by", { name: nameOf(view, winner) })),
    el("div", { class: "trick-row" }, ...trick.cards.map((p) => el("figure", { class: p.seat === winner ? "winner" : "" },
      cardEl(p.card, { label: t("trick.cardBy", { card: cardText(p.card), name: nameOf(view, p.seat) }) }),
      el("figcaption", {}, nameOf(view, p.seat))))),
    el("div", { class: "dialog-buttons" }, close)], { onClose });
  close.addEventListener("click", () => dialog.close());
}
