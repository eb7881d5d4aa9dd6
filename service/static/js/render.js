// Drawing the table from the controller's state: the latest view, the stage (what the pacing shows of
// the trick, the hand and the calls right now) and the page's own choices. Each region is updated only
// when its markup changes, so focus and hover stay where they are. Clicks go back to the controller.
import { el, update, cardEl, cardBack, cardText, suitEl, suitSymbol } from "./dom.js";
import { t } from "./i18n.js";
import {
  nameOf, isMe, levelName, sideOf, sideName, gameTitle, ringAngle, placeOf, actionLabel, contractText,
  callSentence, suitWord, winnerName, sheetUnit,
} from "./words.js";
import { GUARDED } from "./guards.js";
import { rankedHint, rankWord } from "./hints.js";
import { scoreSheet, lastResult } from "./summary.js";
import { variantWords } from "./options.js";

// The regions of a table page, built once per match.
export function skeleton() {
  const r = {
    join: el("div", { id: "join-slot" }),
    head: el("div", { class: "match-head", id: "head" }),
    ring: el("div", { class: "ring", id: "ring" }),
    caption: el("p", { class: "caption", id: "caption", "aria-hidden": "true" }),
    info: el("div", { class: "info-strip", id: "round-info" }),
    panel: el("div", { id: "panel-slot" }),
    controls: el("div", { class: "controls", id: "controls" }),
    hand: el("div", { class: "hand", id: "hand", role: "toolbar", "aria-label": t("hand.label") }),
    side: el("aside", { class: "side", "aria-label": t("side.label") }),
  };
  r.standing = el("div", { id: "standing-slot" });
  r.result = el("div", { id: "result-slot" });
  r.sheet = el("div", { id: "sheet-slot" });
  r.history = el("div", { id: "history-slot" });
  r.log = el("div", { id: "log-slot" });
  r.share = el("div", { id: "share-slot" });
  r.side.append(r.standing, r.result, r.sheet, r.history, r.log, r.share);
  r.dock = el("div", { class: "dock", id: "dock" }, r.panel, r.controls, r.hand);
  r.felt = el("section", { class: "felt", "aria-labelledby": "table-title" }, r.head, r.ring, r.caption, r.info);
  r.page = el("div", { class: "table-page" }, r.join, el("div", { class: "main-col" }, r.felt, r.dock), r.side);
  return r;
}

export function render(ctl, regions) {
  const view = ctl.latest;
  regions.page.dataset.game = view.game;
  regions.page.dataset.players = String(view.players.length);
  update(regions.join, joinBox(ctl, view));
  update(regions.head, head(ctl, view));
  update(regions.ring, ...ring(ctl, view));
  update(regions.caption, captionText(ctl, view));
  update(regions.info, ...info(ctl, view));
  update(regions.panel, panel(ctl, view));
  update(regions.controls, ...controls(ctl, view));
  update(regions.hand, ...hand(ctl, view));
  regions.hand.style.setProperty("--n", String(Math.max(2, regions.hand.querySelectorAll(".card").length)));
  regions.dock.hidden = !isSeated(view) || !view.round;
  update(regions.standing, standing(view));
  update(regions.result, lastResult(view));
  update(regions.sheet, scoreSheet(view, ctl.rows));
  update(regions.history, history(ctl, view));
  update(regions.log, tableLog(ctl));
  update(regions.share, share(ctl, view));
  placeTrick(regions.ring, view);
}

const isSeated = (view) => view.seat !== null && view.seat !== undefined;

// ---------------------------------------------------------------------------------------------------
// Header: the game, the deal, whose turn

function head(ctl, view) {
  const r = view.round;
  const bits = [r ? t("head.deal", { n: r.number }) : null, r ? t("head.dealer", { name: nameOf(view, r.dealer) }) : null,
    isSeated(view) ? null : t("head.watching")].filter(Boolean);
  const turn = turnText(ctl, view);
  return el("div", { class: "head-row" },
    el("h1", { id: "table-title" }, gameTitle(view.game), el("span", { class: "variant" }, variantWords(view))),
    el("span", { class: "sub" }, bits.join(" · ")),
    el("span", { class: `turn ${ctl.myTurn() ? "mine" : ""}`, id: "turn" }, turn));
}

export function turnText(ctl, view) {
  if (view.status === "finished") return view.winner ? t("turn.matchWon", { winner: winnerName(view, view.winner) }) : t("turn.matchOver");
  if (view.status === "waiting") return t("turn.waitingPlayers");
  if (!ctl.settled) return "";
  const toAct = view.to_act || [];
  if (!toAct.length) return t("turn.scoring");
  if (ctl.myTurn()) return t("turn.yours");
  return t("turn.waitingFor", { names: toAct.map((s) => nameOf(view, s)).join(", ") });
}

// ---------------------------------------------------------------------------------------------------
// The ring: seats around the table (you at the bottom), the trick in the middle

function ring(ctl, view) {
  const stage = ctl.stage;
  const seats = view.players.map((p, seat) => seatChip(ctl, view, seat));
  return [el("ol", { class: "seats", id: "seats", "aria-label": t("seats.label") }, ...seats), centre(ctl, view, stage)];
}

function seatChip(ctl, view, seat) {
  const p = view.players[seat];
  const r = view.round;
  const team = sideOf(view, seat);
  const partnered = view.standing.some((s) => s.seats.length > 1);
  const acting = ctl.settled ? (view.to_act || []).includes(seat) : ctl.stage.actor === seat;
  const count = ctl.stage.sizes?.[seat] ?? r?.hand_sizes?.[seat];
  const out = r?.active_seats && !r.active_seats.includes(seat);
  const me = isMe(view, seat);
  const bidding = ctl.settled ? r?.phase === "auction" : ctl.stage.auction;
  const calls = ctl.stage.calls || r?.calls;
  const lastCall = bidding && calls ? [...calls].reverse().find((c) => c.seat === seat) : null;
  const role = p.kind === "bot" ? t("seat.bot", { level: levelName(p.level) })
    : p.taken_over ? t("seat.away") : !p.claimed ? t("seat.open") : me ? t("seat.you") : t("seat.human");
  const timer = ctl.timerFor(seat);
  const classes = ["seat", partnered ? `team-${team}` : "solo", acting ? "acting" : "", me ? "me" : "", out ? "out" : "",
    r?.dealer === seat ? "dealer" : ""].filter(Boolean).join(" ");
  const chip = el("li", { class: classes, id: `seat-${seat}`, dataset: { seat, angle: ringAngle(view, seat) },
    "aria-label": [nameOf(view, seat), placeOf(view, seat), acting ? t("seat.toAct") : null].filter(Boolean).join(", ") },
  el("span", { class: "name" }, nameOf(view, seat)),
  el("span", { class: "role" }, role, partnered && role ? el("span", { class: "team-tag" }, ` · ${team === sideOf(view, view.seat ?? 0) && isSeated(view) ? t("seat.partnerTeam") : t("seat.team", { team: String.fromCharCode(65 + team) })}`) : null),
  el("span", { class: "meta" },
    count === undefined || count === null ? null : el("span", { class: "count", "aria-label": t("seat.cards", { count }) }, cardBack({ class: "mini" }), ` ${count}`),
    r?.dealer === seat ? el("span", { class: "dealer-tag", title: t("seat.dealer") }, t("seat.dealerShort")) : null,
    lastCall ? el("span", { class: "call-bubble" }, callShort(view, lastCall)) : null),
  timer ? el("span", { class: `timer ${timer.urgent ? "urgent" : ""}`, dataset: { deadline: timer.deadline }, role: "timer", "aria-label": t("seat.timer") }, timer.text) : null);
  return chip;
}

function callShort(view, call) {
  if ("call" in call) return call.call === "bid" ? `${call.value} ${suitWord(call.suit)}` : t(`call.${call.call}`);
  return call.value === null || call.value === undefined ? t("call.pass") : String(call.value);
}

function centre(ctl, view, stage) {
  const r = view.round;
  if (!r) {
    return el("div", { class: "centre", id: "centre" }, el("p", { class: "idle" }, view.status === "waiting" ? t("centre.waiting") : ""));
  }
  const plays = stage.completed ? stage.completed.cards : stage.trick;
  const winner = stage.completed?.winner;
  const cards = plays.map((p) => cardEl(p.card, {
    class: `in-trick ${p.seat === winner ? "winner" : ""}`, dataset: { seat: p.seat, angle: ringAngle(view, p.seat) },
    label: t("trick.cardBy", { card: cardText(p.card), name: nameOf(view, p.seat) }),
  }));
  const last = stage.lastTrick;
  return el("div", { class: "centre", id: "centre" },
    el("div", { class: `trick ${stage.completed ? "complete" : ""}`, id: "trick", role: "group", "aria-label": t("trick.label"), dataset: { count: plays.length } }, ...cards),
    stockPile(view),
    last ? el("button", { type: "button", class: "last-trick-mini", id: "last-trick-button", "aria-haspopup": "dialog",
      onclick: () => ctl.showLastTrick() }, el("span", { class: "label" }, t("trick.last")),
    el("span", { class: "cards-inline" }, ...last.cards.map((p) => el("span", { class: `mini-card suit-${p.card[1]}` }, cardText(p.card))))) : null);
}

function captionText(ctl, view) {
  const stage = ctl.stage;
  if (!view.round) return "";
  if (stage.completed) {
    const points = stage.completed.points ?? 0;
    const key = isMe(view, stage.completed.winner) ? "trick.takenBy.you" : "trick.takenBy";
    return points ? t(key, { name: nameOf(view, stage.completed.winner), count: points }) : t(`${key}.none`, { name: nameOf(view, stage.completed.winner) });
  }
  return stage.caption || idleText(ctl, view);
}

// Sixty-Six: the stock face down with the trump card crosswise under it (or turned down when closed).
function stockPile(view) {
  const r = view.round;
  if (view.game !== "sixty-six" || !r || (!r.stock_size && !r.trump_card)) return null;
  return el("div", { class: `stock-pile ${r.closed ? "closed" : ""}`, id: "stock-pile", role: "img",
    "aria-label": r.closed ? t("info.closedBy", { name: nameOf(view, r.closer) }) : t("info.stockCards", { count: r.stock_size }) },
  r.trump_card && !r.closed ? cardEl(r.trump_card, { class: "small face-up", "aria-hidden": "true" }) : null,
  r.stock_size ? cardBack({ class: "small pile" }) : null,
  el("span", { class: "pile-count", "aria-hidden": "true" }, String(r.stock_size)));
}

function idleText(ctl, view) {
  const r = view.round;
  if (!ctl.settled) return "";
  if (r.phase === "auction") return t("centre.bidding");
  if (view.game === "smear" && r.phase === "play" && !r.tricks.length && !r.trick.length) {
    return isMe(view, r.leader) ? t("centre.smearFirstLead.you") : t("centre.smearFirstLead", { name: nameOf(view, r.leader) });
  }
  return "";
}

// Seats around the ring (kept inside it whatever their size) and trick cards towards the player who
// played them, from each seat's angle; set from code, since the page allows no inline styles in markup.
export function placeTrick(ringEl, view) {
  const W = ringEl.clientWidth;
  const H = ringEl.clientHeight;
  if (!W || !H) return;
  for (const chip of ringEl.querySelectorAll(".seat")) {
    const a = (Number(chip.dataset.angle) * Math.PI) / 180;
    chip.style.left = `${W / 2 + Math.cos(a) * (W / 2 - chip.offsetWidth / 2 - 4)}px`;
    chip.style.top = `${H / 2 + Math.sin(a) * (H / 2 - chip.offsetHeight / 2 - 4)}px`;
  }
  // Trick cards stay clear of the seats: as far out as the chips leave room for.
  const chips = [...ringEl.querySelectorAll(".seat")];
  const chipW = Math.max(0, ...chips.map((c) => c.offsetWidth));
  const chipH = Math.max(0, ...chips.map((c) => c.offsetHeight));
  const sample = ringEl.querySelector(".trick .card");
  const cardW = sample?.offsetWidth || 60;
  const cardH = sample?.offsetHeight || 84;
  const many = view.players.length > 4;
  const rx = Math.max(cardW * 0.6, Math.min(W * (many ? 0.26 : 0.2), W / 2 - chipW - cardW / 2 - 6));
  const ry = Math.max(cardH * 0.38, Math.min(H * (many ? 0.26 : 0.2), H / 2 - chipH - cardH / 2 - 6));
  for (const card of ringEl.querySelectorAll(".trick .card")) {
    const a = (Number(card.dataset.angle) * Math.PI) / 180;
    card.style.left = `${W / 2 + Math.cos(a) * rx}px`;
    card.style.top = `${H / 2 + Math.sin(a) * ry}px`;
  }
}

// ---------------------------------------------------------------------------------------------------
// What is known about the deal: trump, stock, contract, points

function info(ctl, view) {
  const r = view.round;
  if (!r) return [];
  const items = [];
  const add = (label, value, id) => items.push(el("div", { class: "fact", id }, el("span", { class: "k" }, label), el("span", { class: "v" }, value)));
  if (view.game === "sixty-six") {
    add(t("info.trump"), r.trump ? suitEl(r.trump) : "—");
    if (r.trump_card) add(t("info.faceUp"), cardEl(r.trump_card, { class: "small", id: "trump-card" }));
    else if (r.turned_card) add(t("info.turned"), cardEl(r.turned_card, { class: "small" }));
    add(t("info.stock"), r.closed ? t("info.closedBy", { name: nameOf(view, r.closer) }) : t("info.stockCards", { count: r.stock_size }), "stock");
    if (r.melds?.length) add(t("info.marriages"), r.melds.map((m) => `${nameOf(view, m.seat)} ${m.points} ${suitSymbol(m.suit)}`).join(", "));
    if (isSeated(view) && r.card_points?.length) {
      const mine = sideOf(view, view.seat);
      add(t("info.yourPoints"), t("info.pointsOf", { points: r.card_points[mine] + (r.meld_points?.[mine] || 0), target: r.target }), "my-points");
    }
  } else if (view.game === "fifty-six") {
    const c = r.contract;
    if (c) add(t("info.contract"), t("info.contractBy", { contract: contractText(c), name: nameOf(view, c.declarer) }), "contract");
    else if (r.high_bid) add(t("info.highBid"), t("info.contractBy", { contract: contractText({ ...r.high_bid, doubled: r.doubling === "doubled", redoubled: r.doubling === "redoubled" }), name: nameOf(view, r.high_bid.seat) }), "high-bid");
    add(t("info.trump"), c ? (c.suit === "NT" ? t("suit.noTrump") : suitEl(c.suit)) : t("info.notYet"));
    if (c && r.card_points) add(t("info.cardPoints"), sidePoints(view, r.card_points));
  } else {
    if (r.bid) add(t("info.bid"), t("info.bidBy", { value: r.bid, name: nameOf(view, r.bidder) }), "bid");
    else if (r.high_bid) {
      const call = (r.calls || []).find((c) => c.value === r.high_bid);
      add(t("info.highBid"), call ? t("info.bidBy", { value: r.high_bid, name: nameOf(view, call.seat) }) : String(r.high_bid), "high-bid");
    }
    add(t("info.trump"), r.trump ? [suitEl(r.trump), r.trump_public ? null : ` ${t("info.trumpSecret")}`]
      : t(r.widow_size ? "info.trumpByBidder" : "info.trumpByLead"), "trump");
    if (r.widow_size && r.widow) add(t("info.youTook"), el("span", { class: "cards-inline", id: "widow" }, ...r.widow.map((c) => cardEl(c, { class: "small" }))));
    if (r.discard?.length) add(t("info.youDiscarded"), el("span", { class: "cards-inline", id: "discarded-cards" }, ...r.discard.map((c) => cardEl(c, { class: "small" }))));
    else if (r.widow_size && r.discarded && !isMe(view, r.bidder)) add(t("info.widow"), t("info.widowOthers", { count: r.discarded }));
    if (r.trick_game_counts && r.tricks.length) add(t("info.gameCount"), sidePoints(view, r.trick_game_counts));
  }
  return items;
}

function sidePoints(view, values) {
  return values.map((v, i) => `${sideName(view, i)} ${v}`).join(" · ");
}

// ---------------------------------------------------------------------------------------------------
// The dock: bidding or discarding, the buttons, and the hand (pinned to the bottom on a phone)

function panel(ctl, view) {
  if (!isSeated(view) || !view.round) return null;
  const parts = [];
  if (ctl.settled) {
    const bids = view.legal_actions.filter((a) => a.type === "bid");
    if (bids.length) parts.push(view.game === "fifty-six" ? bidBox56(ctl, view, bids) : bidBoxSmear(ctl, bids));
    const discard = discardChoice(ctl, view);
    if (discard) parts.push(discardBox(ctl, view, discard));
  }
  if (ctl.ui.hint && ctl.settled) parts.push(hintBox(ctl, view));
  return parts.length ? el("div", { class: "panel-inner" }, ...parts) : null;
}

// Fifty-Six: the value with - and +, the suit, a convention, and one labelled button ("Bid 29 ♠").
function bidBox56(ctl, view, bids) {
  const values = [...new Set(bids.map((b) => b.value))].sort((a, b) => a - b);
  const value = values.includes(ctl.ui.bid.value) ? ctl.ui.bid.value : values[0];
  const suits = bids.filter((b) => b.value === value).map((b) => b.suit);
  const suit = suits.includes(ctl.ui.bid.suit) ? ctl.ui.bid.suit : null;
  const step = (delta) => () => {
    const i = Math.min(values.length - 1, Math.max(0, values.indexOf(value) + delta));
    ctl.ui.bid.value = values[i];
    ctl.render();
  };
  const chosen = bids.find((b) => b.value === value && b.suit === suit);
  const send = () => ctl.act(ctl.ui.bid.convention ? { ...chosen, convention: ctl.ui.bid.convention } : chosen);
  return el("div", { class: "bid-box", id: "bid-box", role: "group", "aria-label": t("bid.label") },
    el("div", { class: "bid-value" },
      el("button", { type: "button", class: "step", id: "bid-down", "aria-label": t("bid.lower"), disabled: value === values[0], onclick: step(-1) }, "−"),
      el("output", { id: "bid-value", "aria-live": "polite", "aria-label": t("bid.value") }, String(value)),
      el("button", { type: "button", class: "step", id: "bid-up", "aria-label": t("bid.higher"), disabled: value === values[values.length - 1], onclick: step(1) }, "+")),
    el("div", { class: "suits", role: "radiogroup", "aria-label": t("bid.suit") }, ...suits.map((s) => el("button", {
      type: "button", role: "radio", class: `suit-button suit-${s} ${s === suit ? "chosen" : ""}`, dataset: { bidSuit: s, focus: `bid-suit-${s}` },
      "aria-checked": String(s === suit), "aria-label": s === "NT" ? t("suit.noTrump") : t(`suit.name.${s}`),
      onclick: () => { ctl.ui.bid.suit = s; ctl.ui.bid.value = value; ctl.render(); } }, suitWord(s)))),
    el("label", { class: "convention" }, el("span", {}, t("bid.convention")),
      el("select", { id: "bid-convention", onchange: (e) => { ctl.ui.bid.convention = e.target.value; } },
        el("option", { value: "" }, t("convention.none")),
        ...["number_first", "suit_first", "plus_one", "plus_two", "plus_three", "plus_four", "no"].map((k) =>
          el("option", { value: k, selected: ctl.ui.bid.convention === k }, t(`convention.${k}`))))),
    el("button", { type: "button", class: "primary", id: "bid-send", disabled: !chosen, onclick: send },
      chosen ? t("action.bid56", { value, suit: suitWord(suit) }) : t("bid.pickSuit")));
}

function bidBoxSmear(ctl, bids) {
  return el("div", { class: "bid-box", id: "bid-box", role: "group", "aria-label": t("bid.label") },
    ...bids.map((b) => el("button", { type: "button", class: "primary", dataset: { bid: b.value, focus: `bid-${b.value}` }, onclick: () => ctl.act(b) },
      t("action.bid", { value: b.value }))));
}

// Smear's widow: the trump named, the cards that may go with it (legal_actions lists every legal
// discard, so a trump that must stay cannot be picked), and whether the picked cards are one of them.
export function discardChoice(ctl, view) {
  if (!ctl.settled) return null;
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

function discardBox(ctl, view, choice) {
  const { size, trumps, trump, picked, legal } = choice;
  return el("div", { class: "discard-box", id: "discard-box", role: "group", "aria-label": t("discard.label") },
    el("p", { class: "discard-help" }, t("discard.help", { count: size, picked: picked.length })),
    el("div", { class: "suits", role: "radiogroup", "aria-label": t("discard.trump") }, el("span", { class: "k" }, t("discard.trump")),
      ...trumps.map((s) => el("button", { type: "button", role: "radio", class: `suit-button suit-${s} ${s === trump ? "chosen" : ""}`,
        dataset: { trump: s, focus: `trump-${s}` }, "aria-checked": String(s === trump), "aria-pressed": String(s === trump), "aria-label": t(`suit.name.${s}`),
        onclick: () => { ctl.ui.discardTrump = s; ctl.render(); } }, suitSymbol(s)))),
    el("button", { type: "button", class: "primary", id: "discard", disabled: !legal,
      onclick: () => ctl.act({ type: "discard", cards: picked, trump }) },
    legal ? t("discard.send", { cards: picked.map(cardText).join(" "), suit: suitSymbol(trump) }) : t("discard.pick", { count: size - picked.length })));
}

function hintBox(ctl, view) {
  const rows = rankedHint(ctl.ui.hint, view);
  const numbers = ctl.ui.hintNumbers;
  return el("section", { class: "hint-box", id: "hint-text", "aria-label": t("hint.title") },
    el("div", { class: "hint-head" }, el("strong", {}, t("hint.title")),
      el("button", { type: "button", class: "link", id: "hint-numbers", "aria-pressed": String(numbers), onclick: () => { ctl.ui.hintNumbers = !numbers; ctl.render(); } },
        numbers ? t("hint.hideNumbers") : t("hint.showNumbers")),
      el("button", { type: "button", class: "link", "aria-label": t("hint.close"), onclick: () => { ctl.ui.hint = null; ctl.render(); } }, "×")),
    el("ol", { class: "hint-list" }, ...rows.slice(0, 6).map((row) => el("li", { class: `rank-${row.rank}` },
      el("span", { class: "rank-tag" }, rankWord(row.rank)), " ", row.label,
      numbers && typeof row.value === "number" ? el("span", { class: "value" }, ` ${row.value > 0 ? "+" : ""}${row.value.toFixed(2)}`) : null))),
    numbers ? el("p", { class: "small" }, t(`hint.meaning.${view.game}`)) : null);
}

function controls(ctl, view) {
  if (!isSeated(view) || !view.round) return [];
  const out = [];
  if (view.status === "finished" && ctl.settled) {
    // A finished match opened later (or after its dialog was closed) still offers what comes next.
    const rematch = ctl.rematchChoice();
    if (rematch) out.push(el("button", { type: "button", class: "primary", id: "rematch-button", onclick: () => rematch.run() }, rematch.label));
    out.push(el("a", { class: "button secondary", id: "new-match-link", href: "#/" }, t("matchEnd.newMatch")));
    out.push(el("a", { class: "button secondary", id: "replay-link", href: `#/r/${view.game_id}` }, t("matchEnd.replay")));
    return out;
  }
  if (ctl.settled) {
    const order = ["draw", "meld", "exchange", "pass", "close", "declare_out", "double", "redouble"];
    const actions = view.legal_actions.filter((a) => order.includes(a.type)).sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
    for (const a of actions) {
      const guarded = GUARDED.has(a.type);
      out.push(el("button", { type: "button", class: `action ${guarded ? "secondary guarded" : a.type === "pass" ? "secondary" : "primary"}`,
        dataset: { action: a.type, suit: a.suit, focus: `action-${a.type}-${a.suit || ""}` }, "aria-haspopup": guarded ? "dialog" : undefined,
        onclick: () => ctl.request(a) }, actionLabel(a, view) + (guarded ? "…" : "")));
    }
  }
  if (ctl.ui.hintAvailable && ctl.settled && view.legal_actions.length && !ctl.ui.hint) {
    out.push(el("button", { type: "button", id: "hint", class: "ghost", onclick: () => ctl.hint() }, t("hint.button")));
  }
  return out;
}

function hand(ctl, view) {
  const r = view.round;
  if (!isSeated(view) || !r) return [];
  const cards = ctl.stage.hand || r.hand || [];
  const myTurn = ctl.myTurn();
  const plays = new Set(myTurn ? view.legal_actions.filter((a) => a.type === "play").map((a) => a.card) : []);
  const discard = discardChoice(ctl, view);
  const suggested = ctl.ui.hint?.suggestion;
  const hinted = suggested?.type === "play" ? suggested.card : null;
  const inPlay = myTurn && plays.size > 0;
  const nodes = cards.map((card, index) => {
    const common = { button: true, dataset: { index, focus: `card-${card}-${index}` }, tabindex: "-1" };
    if (discard) {
      if (!discard.allowed.has(card)) return cardEl(card, { ...common, class: "kept", "aria-disabled": "true", label: t("discard.kept", { card: cardText(card) }) });
      const picked = ctl.ui.discard.has(card);
      return cardEl(card, { ...common, class: `selectable ${picked ? "picked" : ""}`, "aria-pressed": String(picked),
        onclick: () => ctl.toggleDiscard(card, discard) });
    }
    if (plays.has(card)) {
      return cardEl(card, { ...common, class: `playable ${card === hinted ? "hinted" : ""}`, onclick: () => ctl.act({ type: "play", card }) });
    }
    return cardEl(card, { ...common, class: inPlay ? "unplayable" : "", "aria-disabled": "true" });
  });
  // One card is reachable by Tab; the arrow keys move along the hand (a toolbar).
  const first = nodes.find((n) => n.classList.contains("playable") || n.classList.contains("selectable")) || nodes[0];
  if (first) { first.setAttribute("tabindex", "0"); first.dataset.focusFallback = ""; }
  if (!nodes.length) return [el("p", { class: "idle" }, t("hand.empty"))];
  return nodes;
}

// ---------------------------------------------------------------------------------------------------
// Side panels

function standing(view) {
  const target = view.options.match_target;
  const unit = sheetUnit(view.game);
  return el("section", { class: "panel standing", id: "standing", "aria-labelledby": "standing-h" },
    el("h2", { id: "standing-h" }, view.status === "finished" ? t("standing.final") : t("standing.title"),
      target && view.game !== "fifty-six" ? el("span", { class: "small" }, ` ${t("standing.to", { target })}`) : null),
    el("ul", {}, ...view.standing.map((side, i) => el("li", { class: `team-${i} ${side.seats.includes(view.seat) ? "mine" : ""}` },
      el("span", {}, sideName(view, i)), el("strong", {}, `${side.score} ${unit}`)))),
    view.status === "finished" && view.winner ? el("p", { class: "winner", id: "winner" }, t("standing.winner", { winner: winnerName(view, view.winner) })) : null);
}

// The deal's bidding, collapsed once it is over.
function history(ctl, view) {
  const r = view.round;
  const calls = ctl.stage.calls || r?.calls;
  if (!r || !Array.isArray(calls) || !calls.length) return null;
  const items = calls.map((c) => el("li", {}, "call" in c ? callSentence(view, c)
    : (c.value === null || c.value === undefined ? t(isMe(view, c.seat) ? "narr.passed.you" : "narr.passed", { name: nameOf(view, c.seat) })
      : t(isMe(view, c.seat) ? "narr.bidSmear.you" : "narr.bidSmear", { name: nameOf(view, c.seat), value: c.value }))));
  return el("details", { class: "panel calls-panel", id: "bidding", open: r.phase === "auction" ? true : undefined },
    el("summary", {}, t("history.bidding")), el("ol", { class: "calls", id: "bidding-history" }, ...items));
}

// Everything told at the table since the page opened, newest first: for whoever looked away.
function tableLog(ctl) {
  if (!ctl.log.length) return null;
  return el("details", { class: "panel log-panel" }, el("summary", {}, t("log.title")),
    el("ol", { class: "log", id: "log", reversed: true }, ...ctl.log.slice(-40).reverse().map((line) => el("li", {}, line))));
}

// A private match's open seats are taken with its join code: the link of whoever holds the code carries
// it (an invitation); anyone else's lets others watch only.
function share(ctl, view) {
  const open = view.players.some((p) => p.kind === "human" && !p.claimed) && view.status !== "finished";
  const invitation = Boolean(view.private && ctl.joinCode && open);
  const link = `${location.origin}/#/g/${view.game_id}${invitation ? `?join=${encodeURIComponent(ctl.joinCode)}` : ""}`;
  const [title, help] = invitation ? [t("share.privateInvite"), t("share.privateHelp")]
    : open && !view.private ? [t("share.invite"), t("share.inviteHelp")] : [t("share.title"), t("share.watchHelp")];
  const input = el("input", { id: "share-link", readonly: true, value: link, "aria-label": t("share.link") });
  input.addEventListener("focus", () => input.select());
  const copy = el("button", { type: "button", class: "secondary", id: "copy-link" }, t("share.copy"));
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(link); copy.textContent = t("share.copied"); } catch { input.select(); }
  });
  return el("section", { class: "panel share", "aria-labelledby": "share-h", dataset: { invitation: String(invitation) } },
    el("h2", { id: "share-h" }, title), el("p", { class: "small", id: "share-help" }, help),
    el("div", { class: "share-row" }, input, copy), el("a", { class: "button secondary", href: "#/" }, t("nav.lobby")),
    // Anyone, seated or watching, may watch a finished match again with every hand shown.
    view.status === "finished" && view.round ? el("a", { class: "button secondary", id: "watch-again", href: `#/r/${view.game_id}` }, t("matchEnd.replay")) : null);
}

// A private match opened without its invitation link: no seat to take, and what to do about it.
function privateNote(view) {
  return el("section", { class: "panel join", id: "join", "aria-labelledby": "join-h" },
    el("h2", { id: "join-h" }, t("join.privateTitle", { game: gameTitle(view.game) })),
    el("p", { id: "private-note" }, t("join.privateAsk")));
}

// A spectator at a match with an open seat: the first thing on the page, ready to type a name.
function joinBox(ctl, view) {
  if (isSeated(view) || view.status === "finished") return null;
  const open = view.players.filter((p) => p.kind === "human" && !p.claimed);
  if (!open.length) return null;
  const host = view.players.find((p) => p.kind === "human" && p.claimed);
  if (view.private && !ctl.joinCode) return privateNote(view);
  const nameInput = el("input", { id: "join-name", maxlength: "40", autocomplete: "nickname", required: true });
  nameInput.value = ctl.ui.joinName ?? ""; // a property, not markup: typing does not redraw the form
  nameInput.addEventListener("input", (e) => { ctl.ui.joinName = e.target.value; });
  const seatSelect = open.length > 1 ? el("select", { id: "join-seat", "aria-label": t("join.seat") },
    ...open.map((p) => el("option", { value: p.seat }, placeOf(view, p.seat)))) : null;
  return el("section", { class: "panel join", id: "join", "aria-labelledby": "join-h" },
    el("h2", { id: "join-h" }, host ? t("join.invited", { name: host.name, game: gameTitle(view.game) }) : t("join.title", { game: gameTitle(view.game) })),
    el("p", {}, t("join.open", { count: open.length })),
    el("form", { class: "join-form", onsubmit: (e) => {
      e.preventDefault();
      const form = e.target;
      ctl.join(form.querySelector("#join-name").value.trim(), form.querySelector("#join-seat") ? Number(form.querySelector("#join-seat").value) : open[0].seat);
    } },
    el("label", { for: "join-name" }, t("join.name")), nameInput, seatSelect,
    el("button", { type: "submit", class: "primary", id: "join-button" }, t("join.sit"))));
}
