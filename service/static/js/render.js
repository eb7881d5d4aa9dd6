// Rendering one view of the table. Pure DOM building: every click goes back to the controller.
import { el, cardEl, cardBack, cardText, suitText, suitClass, SUIT_NAMES } from "./dom.js";
import { GAMES } from "./options.js";
import { roundSummary, scoreSheet, sideNames } from "./summary.js";

// Fifty-Six bidding conventions (games/fiftysix/rules.py): talk to the partner, no rules effect.
const CONVENTIONS = {
  number_first: "number first (“28 diamonds”)", suit_first: "suit first (“diamonds 28”)",
  plus_one: "plus one", plus_two: "plus two", plus_three: "plus three", plus_four: "plus four",
  no: "“No”: void in the suit bid last",
};
const BUTTON_ORDER = ["draw", "meld", "exchange", "close", "declare_out", "pass", "double", "redouble"];

export function describe(action, view) {
  switch (action.type) {
    case "play": return `play ${cardText(action.card)}`;
    case "bid": return action.suit ? `bid ${action.value} ${suitText(action.suit)}` : `bid ${action.value}`;
    case "meld": return `marriage in ${SUIT_NAMES[action.suit]} (${action.suit === view?.round?.trump ? 40 : 20})`;
    case "exchange": return `exchange ${cardText(view?.round?.exchange_card || "9" + (view?.round?.trump || "S"))} for the trump card`;
    case "close": return "close the stock";
    case "declare_out": return "declare out (I have 66)";
    case "discard": return `discard ${action.cards.map(cardText).join(" ")}, trump ${suitText(action.trump)}`;
    default: return action.type.replaceAll("_", " ");
  }
}

export function renderTable(ctl, view, rows) {
  const felt = el("section", { class: "felt", "aria-label": "Table" },
    header(ctl, view), seatsBar(view), centre(ctl, view), bidding(ctl, view), discardBox(ctl, view),
    controls(ctl, view), hand(ctl, view));
  const side = el("aside", { class: "side" }, standing(view), roundSummary(view), scoreSheet(view, rows),
    joinBox(ctl, view), share(view));
  return el("div", { class: "table-page", dataset: { game: view.game } }, felt, side);
}

const playerName = (view, seat) => view.players[seat]?.name || `Seat ${seat + 1}`;

function header(ctl, view) {
  const round = view.round;
  const title = `${GAMES[view.game].title}${view.options.variant ? ` · ${view.options.variant}` : ""}`;
  const bits = [round ? `Round ${round.number}` : null, round ? `dealer ${playerName(view, round.dealer)}` : null,
    view.seat === null ? "you are watching" : null].filter(Boolean);
  return el("div", { class: "match-head" }, el("h2", {}, title), el("span", { class: "sub" }, bits.join(" · ")),
    el("span", { class: "turn", id: "turn" }, turnText(view)));
}

function turnText(view) {
  if (view.status === "finished") return view.winner ? `Match over: ${winnerText(view)} won` : "Match over";
  if (view.status === "waiting") return "Waiting for players to take their seats";
  const toAct = view.to_act || [];
  if (!toAct.length) return "Scoring… the next deal comes by itself";
  if (toAct.includes(view.seat)) return "Your turn";
  return `Waiting for ${toAct.map((s) => playerName(view, s)).join(", ")}`;
}

function winnerText(view) {
  const w = view.winner;
  if (Array.isArray(w)) return w.map((s) => playerName(view, s)).join(" & ");
  if (typeof w === "number") return sideNames(view)[w] ?? playerName(view, w);
  if (w && Array.isArray(w.seats)) return w.seats.map((s) => playerName(view, s)).join(" & ");
  return String(w);
}

function teamOf(view, seat) {
  return view.standing.findIndex((side) => side.seats.includes(seat));
}

function seatsBar(view) {
  const n = view.players.length;
  const first = view.seat ?? 0;
  const order = Array.from({ length: n }, (_, i) => (first + i) % n);
  const round = view.round;
  const active = round?.active_seats;
  return el("ol", { class: "seats", id: "seats" }, ...order.map((seat) => {
    const p = view.players[seat];
    const team = teamOf(view, seat);
    const turn = (view.to_act || []).includes(seat);
    const count = round?.hand_sizes?.[seat];
    const out = active && !active.includes(seat);
    return el("li", { class: `seat team-${team} ${turn ? "turn" : ""} ${seat === view.seat ? "me" : ""} ${out ? "out" : ""}`,
      dataset: { seat } },
    el("span", { class: "name" }, p.name || (p.claimed ? `Seat ${seat + 1}` : "open seat"), seat === view.seat ? " (you)" : ""),
    el("span", { class: "meta" },
      p.kind === "bot" ? `bot · ${p.level}` : p.taken_over ? "away · bot plays" : "human",
      p.team !== null && p.team !== undefined ? ` · team ${String.fromCharCode(65 + p.team)}` : "",
      round?.dealer === seat ? " · dealer" : ""),
    el("span", { class: "count", title: "cards in hand" }, count === undefined ? "" : `🂠 ${count}`),
    turn ? el("span", { class: "turn-dot", "aria-label": "to act" }) : null);
  }));
}

function centre(ctl, view) {
  const round = view.round;
  if (!round) return el("div", { class: "centre" }, el("p", { class: "idle" }, view.status === "waiting" ? "Cards are dealt when every seat is taken." : ""));
  const trick = el("div", { class: "trick", id: "trick", "aria-label": "Current trick" },
    ...(round.trick || []).map((p) => el("figure", {}, cardEl(p.card), el("figcaption", {}, playerName(view, p.seat)))));
  if (!round.trick?.length) trick.append(el("p", { class: "idle" }, round.phase === "auction" ? "Bidding…" : "No card played yet"));
  const last = round.tricks?.[round.tricks.length - 1];
  const lastBox = ctl.ui.showLastTrick && last ? el("div", { class: "last-trick", id: "last-trick" },
    el("h4", {}, `Last trick: won by ${playerName(view, last.winner)}${last.points !== undefined ? ` (${last.points} points)` : ""}`),
    el("div", { class: "trick small" }, ...last.cards.map((p) => el("figure", {}, cardEl(p.card), el("figcaption", {}, playerName(view, p.seat)))))) : null;
  return el("div", { class: "centre" }, info(view), trick, lastBox);
}

function info(view) {
  const r = view.round;
  const items = [];
  const trump = r.trump ? el("span", { class: `suit ${suitClass(r.trump)}` }, `${suitText(r.trump)} ${SUIT_NAMES[r.trump]}`) : "not yet known";
  if (view.game === "sixty-six") {
    items.push(["Trump", trump]);
    items.push(["Face-up card", r.trump_card ? cardEl(r.trump_card, { class: "small", id: "trump-card" }) : r.turned_card ? cardEl(r.turned_card, { class: "small" }) : "—"]);
    items.push(["Stock", r.closed ? `closed by ${playerName(view, r.closer)} (${r.stock_size} left)` : `${r.stock_size} card${r.stock_size === 1 ? "" : "s"}`]);
    if (r.melds?.length) items.push(["Marriages", r.melds.map((m) => `${playerName(view, m.seat)} ${suitText(m.suit)} ${m.points}${m.active ? "" : " (after a trick)"}`).join(", ")]);
    if (r.card_points) items.push(["Card points", view.seat !== null && r.card_points.length ? sideScores(view, r.card_points) : "—"]);
  } else if (view.game === "fifty-six") {
    const c = r.contract;
    if (c) items.push(["Contract", `${c.value} ${suitText(c.suit)}${c.redoubled ? " redoubled" : c.doubled ? " doubled" : ""} by ${playerName(view, c.declarer)}`]);
    else if (r.high_bid) items.push(["High bid", `${r.high_bid.value} ${suitText(r.high_bid.suit)} by ${playerName(view, r.high_bid.seat)}${r.doubling !== "none" ? ` (${r.doubling})` : ""}`]);
    items.push(["Trump", c && c.suit === "NT" ? "no trump" : trump]);
    if (r.card_points) items.push(["Card points", sideScores(view, r.card_points)]);
  } else {
    if (r.bid) items.push(["Bid", `${r.bid} by ${playerName(view, r.bidder)}`]);
    else if (r.high_bid) {
      const call = (r.calls || []).find((c) => c.value === r.high_bid);  // bids only rise: one call has it
      items.push(["High bid", call ? `${r.high_bid} by ${playerName(view, call.seat)}` : String(r.high_bid)]);
    }
    items.push(["Trump", r.trump ? trump : "shown by the first card led"]);
    if (r.widow_size) {
      items.push(["Widow", `${r.widow_size} card(s); taken ${r.widow_taken}, discarded ${r.discarded}`]);
      if (r.widow) items.push(["You took", el("span", { class: "cards-inline", id: "widow" }, ...r.widow.map((c) => cardEl(c, { class: "small" })))]);
      if (r.discard?.length) items.push(["You discarded", el("span", { class: "cards-inline", id: "discarded-cards" }, ...r.discard.map((c) => cardEl(c, { class: "small" })))]);
    }
    if (r.trick_game_counts) items.push(["Game count", sideScores(view, r.trick_game_counts)]);
  }
  return el("dl", { class: "info", id: "round-info" }, ...items.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
}

function sideScores(view, values) {
  const names = sideNames(view);
  return values.map((v, i) => `${names[i]} ${v}`).join(" · ");
}

function bidding(ctl, view) {
  const r = view.round;
  if (!r || !Array.isArray(r.calls) || (r.phase !== "auction" && !r.calls.length)) return null;
  const history = el("ol", { class: "calls", id: "bidding-history" }, ...r.calls.map((c) => el("li", {},
    el("span", { class: "who" }, playerName(view, c.seat)), " ", callText(c),
    c.convention ? el("span", { class: "tag", title: "convention" }, CONVENTIONS[c.convention] || c.convention) : null)));
  const bids = view.legal_actions.filter((a) => a.type === "bid");
  const box = bids.length ? (view.game === "fifty-six" ? bidBox56(ctl, bids) : el("div", { class: "bid-box", id: "bid-box" },
    ...bids.map((b) => el("button", { type: "button", class: "primary", dataset: { bid: b.value }, onclick: () => ctl.act(b) }, `Bid ${b.value}`)))) : null;
  return el("div", { class: "bidding panel" }, el("h3", {}, "Bidding"), r.calls.length ? history : el("p", { class: "idle" }, "No call yet."), box);
}

function callText(c) {
  if ("call" in c) return c.call === "bid" ? el("strong", {}, `${c.value} `, el("span", { class: suitClass(c.suit) }, suitText(c.suit))) : c.call;
  return c.value === null || c.value === undefined ? "pass" : el("strong", {}, `bid ${c.value}`);
}

function bidBox56(ctl, bids) {
  const values = [...new Set(bids.map((b) => b.value))].sort((a, b) => a - b);
  const chosen = values.includes(ctl.ui.bid.value) ? ctl.ui.bid.value : values[0];
  const valueSelect = el("select", { id: "bid-value", "aria-label": "Bid value", onchange: (e) => { ctl.ui.bid.value = Number(e.target.value); ctl.render(); } },
    ...values.map((v) => el("option", { value: v, selected: v === chosen }, String(v))));
  const convention = el("select", { id: "bid-convention", "aria-label": "Convention", onchange: (e) => { ctl.ui.bid.convention = e.target.value; } },
    el("option", { value: "" }, "no convention"),
    ...Object.entries(CONVENTIONS).map(([k, text]) => el("option", { value: k, selected: ctl.ui.bid.convention === k }, text)));
  const suits = bids.filter((b) => b.value === chosen).map((b) => el("button", {
    type: "button", class: `suit-button ${suitClass(b.suit)}`, dataset: { bidSuit: b.suit },
    onclick: () => ctl.act(ctl.ui.bid.convention ? { ...b, convention: ctl.ui.bid.convention } : b) }, suitText(b.suit)));
  return el("div", { class: "bid-box", id: "bid-box" }, el("label", {}, "Bid ", valueSelect), el("span", { class: "suits" }, ...suits), convention);
}

// The discard (Smear's widow): the trump named, the cards that may go with it (legal_actions lists every
// legal discard, so a trump you must keep cannot be picked), and whether the picked cards are one of them.
function discardChoice(ctl, view) {
  const options = view.legal_actions.filter((a) => a.type === "discard");
  if (!options.length) return null;
  const trumps = [...new Set(options.map((a) => a.trump))];
  const trump = trumps.includes(ctl.ui.discardTrump) ? ctl.ui.discardTrump : trumps[0];
  const withTrump = options.filter((a) => a.trump === trump);
  const allowed = new Set(withTrump.flatMap((a) => a.cards));
  for (const card of [...ctl.ui.discard]) if (!allowed.has(card)) ctl.ui.discard.delete(card);
  const picked = view.round.hand.filter((c) => ctl.ui.discard.has(c));
  const key = (cards) => [...cards].sort().join(",");
  const legal = withTrump.some((a) => key(a.cards) === key(picked));
  return { size: options[0].cards.length, trumps, trump, allowed, picked, legal };
}

function discardBox(ctl, view) {
  const choice = discardChoice(ctl, view);
  if (!choice) return null;
  const { size, trumps, trump, picked, legal } = choice;
  const submit = () => ctl.act({ type: "discard", cards: picked, trump });
  return el("div", { class: "discard panel", id: "discard-box" },
    el("p", {}, `Pick ${size} card${size > 1 ? "s" : ""} from your hand to discard (${picked.length} picked), and name trump:`),
    el("span", { class: "suits" }, ...trumps.map((s) => el("button", { type: "button", class: `suit-button ${suitClass(s)} ${s === trump ? "chosen" : ""}`,
      dataset: { trump: s }, "aria-pressed": String(s === trump), onclick: () => { ctl.ui.discardTrump = s; ctl.render(); } }, suitText(s)))),
    el("button", { type: "button", class: "primary", id: "discard", disabled: !legal, onclick: submit }, "Discard"));
}

function controls(ctl, view) {
  const r = view.round;
  const buttons = view.legal_actions.filter((a) => !["play", "bid", "discard"].includes(a.type))
    .sort((a, b) => BUTTON_ORDER.indexOf(a.type) - BUTTON_ORDER.indexOf(b.type))
    .map((a) => el("button", { type: "button", class: `action ${a.type === "pass" ? "" : "primary"}`,
      dataset: { action: a.type, suit: a.suit }, onclick: () => ctl.act(a) }, capital(describe(a, view))));
  const extras = [];
  if (r?.tricks?.length) extras.push(el("button", { type: "button", id: "last-trick-button", class: "ghost",
    "aria-pressed": String(ctl.ui.showLastTrick), onclick: () => { ctl.ui.showLastTrick = !ctl.ui.showLastTrick; ctl.render(); } },
  ctl.ui.showLastTrick ? "Hide last trick" : "Last trick"));
  if (ctl.ui.hintAvailable && view.legal_actions.length) extras.push(el("button", { type: "button", id: "hint", class: "ghost", onclick: () => ctl.hint() }, "Hint"));
  const hint = ctl.ui.hint ? hintText(ctl.ui.hint, view) : null;
  if (!buttons.length && !extras.length && !hint) return null;
  return el("div", { class: "controls", id: "controls" }, ...buttons, ...extras, hint);
}

function hintText(hint, view) {
  const action = hint.action || hint.suggestion || hint.best;
  const lines = [];
  if (action && typeof action === "object") lines.push(el("strong", {}, `Suggested: ${describe(action, view)}`));
  if (hint.reason) lines.push(el("span", {}, ` — ${hint.reason}`));
  const scored = hint.values || hint.estimates || hint.actions || hint.options;
  if (Array.isArray(scored)) {
    lines.push(el("ul", {}, ...scored.slice(0, 6).map((s) => el("li", {}, s.action ? describe(s.action, view) : "",
      Object.entries(s).filter(([k, v]) => k !== "action" && typeof v !== "object").map(([k, v]) => ` ${k.replaceAll("_", " ")} ${typeof v === "number" ? Math.round(v * 100) / 100 : v}`).join(",")))));
  }
  return el("div", { class: "hint-text", id: "hint-text" }, ...lines);
}

function hand(ctl, view) {
  const r = view.round;
  if (view.seat === null || !r || !r.hand) {
    if (!r?.hand_sizes || view.seat !== null) return null;
    return null;
  }
  const plays = new Set(view.legal_actions.filter((a) => a.type === "play").map((a) => a.card));
  const discard = discardChoice(ctl, view);
  const suggested = ctl.ui.hint?.suggestion || ctl.ui.hint?.action;
  const hinted = suggested?.type === "play" ? suggested.card : null;
  const cards = r.hand.map((card, index) => {
    if (discard && !discard.allowed.has(card)) {
      return cardEl(card, { class: "dim", title: "kept: this trump may not be discarded", dataset: { index } });
    }
    if (discard) {
      const picked = ctl.ui.discard.has(card);
      const full = !picked && discard.picked.length >= discard.size;
      return cardEl(card, { class: `selectable ${picked ? "picked" : ""}`, "aria-pressed": String(picked), dataset: { index },
        onclick: () => { if (picked) ctl.ui.discard.delete(card); else if (!full) ctl.ui.discard.add(card); ctl.render(); } });
    }
    if (plays.has(card)) {
      return cardEl(card, { class: `playable ${card === hinted ? "hinted" : ""}`, dataset: { index }, onclick: () => ctl.act({ type: "play", card }) });
    }
    return cardEl(card, { class: view.legal_actions.length ? "dim" : "", dataset: { index } });
  });
  return el("div", { class: "hand", id: "hand", "aria-label": "Your hand" }, ...(cards.length ? cards : [el("p", { class: "idle" }, "No cards in hand.")]));
}

function standing(view) {
  const names = sideNames(view);
  const unit = { "sixty-six": "game points", "fifty-six": "tables", smear: "points" }[view.game];
  const target = view.options.match_target;
  return el("section", { class: "panel standing", id: "standing" },
    el("h3", {}, view.status === "finished" ? `Final score` : "Score", target ? el("small", {}, ` (to ${target})`) : null),
    el("ul", {}, ...view.standing.map((side, i) => el("li", { class: `team-${i}` }, el("span", {}, names[i]), el("strong", {}, `${side.score} ${unit}`)))),
    view.status === "finished" ? el("p", { class: "winner", id: "winner" }, `🏆 ${winnerText(view)} won the match.`) : null);
}

function joinBox(ctl, view) {
  if (view.seat !== null || view.status !== "waiting") return null;
  const open = view.players.filter((p) => p.kind === "human" && !p.claimed);
  if (!open.length) return null;
  const name = el("input", { id: "join-name", maxlength: "40", placeholder: "Your name", value: localStorage.getItem("talon.name") || "" });
  const seat = el("select", { id: "join-seat", "aria-label": "Seat" }, ...open.map((p) => el("option", { value: p.seat }, `Seat ${p.seat + 1}`)));
  return el("section", { class: "panel join", id: "join" }, el("h3", {}, "Take a seat"),
    el("p", {}, `${open.length} open seat${open.length > 1 ? "s" : ""}.`),
    el("form", { onsubmit: (e) => { e.preventDefault(); ctl.join(name.value.trim(), Number(seat.value)); } },
      name, seat, el("button", { type: "submit", class: "primary", id: "join-button" }, "Sit down")));
}

function share(view) {
  const link = `${location.origin}/#/g/${view.game_id}`;
  const input = el("input", { id: "share-link", readonly: true, value: link, onfocus: (e) => e.target.select() });
  const copy = el("button", { type: "button", class: "ghost", onclick: async () => {
    try { await navigator.clipboard.writeText(link); copy.textContent = "Copied"; } catch { input.select(); }
  } }, "Copy");
  const open = view.players.some((p) => p.kind === "human" && !p.claimed);
  return el("section", { class: "panel share" }, el("h3", {}, open ? "Invite a friend" : "Link to this match"),
    el("p", { class: "small" }, open ? "Send this link: it opens this match, where your friend takes the open seat." : "Anyone with the link can watch."),
    el("div", { class: "share-row" }, input, copy), el("a", { class: "button ghost", href: "#/" }, "Lobby"));
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
