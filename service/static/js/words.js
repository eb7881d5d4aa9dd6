// Plain words for what happens at the table: names (never seat numbers), actions on buttons, every
// event told as a sentence, and each deal's result explained. All texts come from the catalogs.
import { t, listOf } from "./i18n.js";
import { cardText, suitSymbol } from "./dom.js";

// ---------------------------------------------------------------------------------------------------
// Names and places

// A bot created by the server is named "Bot <seat> (<level>)": shown as "Bot 1", its level apart.
const BOT_NAME = /^Bot (\d+) \(([a-z_]+)\)$/;

export function nameOf(view, seat) {
  const p = view.players?.[seat];
  if (!p) return t("names.seat", { n: seat + 1 });
  const bot = p.kind === "bot" ? BOT_NAME.exec(p.name || "") : null;
  if (bot) return t("names.bot", { n: bot[1] });
  if (p.kind === "bot") return t("names.bot", { n: seat });
  return p.name || t("names.open");
}

// "you" or the name: for sentences with a "you" form of their own, use isMe instead.
export function isMe(view, seat) {
  return view.seat !== null && view.seat !== undefined && seat === view.seat;
}

export function levelName(level) {
  return t(`level.${level}`);
}

export function sideOf(view, seat) {
  return (view.standing || []).findIndex((side) => side.seats.includes(seat));
}

// A side (a partnership or one player): "You", "You & Bot 2", "Bot 1 & Bot 3".
export function sideName(view, index) {
  const side = view.standing?.[index];
  if (!side) return "";
  const names = side.seats.map((s) => (isMe(view, s) ? t("names.you") : nameOf(view, s)));
  return names.length === 1 ? names[0] : t("names.pair", { a: names[0], b: listOf(names.slice(1)) });
}

export function mySide(view) {
  return view.seat === null || view.seat === undefined ? -1 : sideOf(view, view.seat);
}

export function gameTitle(game) {
  return t(`game.${game}`);
}

// Seats around the table as seen from `me` (or seat 0 for a spectator): 0 = me at the bottom. Sixty-Six
// and Smear go clockwise (the next player on your left), Fifty-Six counter-clockwise (on your right).
export function ringAngle(view, seat) {
  const n = view.players.length;
  const me = view.seat ?? 0;
  const k = (seat - me + n) % n;
  const direction = view.game === "fifty-six" ? -1 : 1;
  return 90 + direction * k * (360 / n);
}

// Where a seat sits for you, in words: "on your left", "opposite", ...
export function placeOf(view, seat) {
  if (isMe(view, seat)) return t("place.you");
  const a = ((ringAngle(view, seat) % 360) + 360) % 360; // 90 = bottom, 180 = left, 270 = top, 0 = right
  const sectors = [[22.5, "right"], [67.5, "lowerRight"], [112.5, "bottom"], [157.5, "lowerLeft"], [202.5, "left"],
    [247.5, "upperLeft"], [292.5, "opposite"], [337.5, "upperRight"], [360.1, "right"]];
  return t(`place.${sectors.find(([limit]) => a < limit)[1]}`);
}

// ---------------------------------------------------------------------------------------------------
// Actions: what a button says

const MELD_POINTS = (view, suit) => (suit === view.round?.trump ? 40 : 20);

export function suitWord(suit) {
  return suit === "NT" ? t("suit.noTrump") : suitSymbol(suit);
}

export function actionLabel(action, view) {
  switch (action.type) {
    case "play": return t("action.play", { card: cardText(action.card) });
    case "bid": return action.suit ? t("action.bid56", { value: action.value, suit: suitWord(action.suit) }) : t("action.bid", { value: action.value });
    case "meld": return t("action.meld", { points: MELD_POINTS(view, action.suit), suit: suitSymbol(action.suit) });
    case "exchange": return t("action.exchange", { card: cardText(view.round.exchange_card), trump: cardText(view.round.trump_card || view.round.exchange_card) });
    case "discard": return t("action.discard", { cards: action.cards.map(cardText).join(" "), suit: suitSymbol(action.trump) });
    default: return t(`action.${action.type}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Events: one sentence each (null for those a player need not be told)

function who(view, seat, key, params = {}) {
  return isMe(view, seat) ? t(`${key}.you`, params) : t(key, { name: nameOf(view, seat), ...params });
}

export function narrate(event, view, context = {}) {
  const d = event.data || {};
  const seat = d.seat ?? event.actor;
  switch (event.type) {
    case "dealt": return t("narr.dealt", { round: d.round, dealer: nameOf(view, d.dealer) });
    case "played":
      if (context.namesTrump) return who(view, seat, "narr.leadsTrump", { card: cardText(d.card), suit: suitSymbol(d.card[1]) });
      return who(view, seat, "narr.played", { card: cardText(d.card) });
    case "trick_taken": return who(view, d.winner, "narr.trick", { points: d.points ?? d.game_count ?? 0, count: d.points ?? d.game_count ?? 0 });
    case "drew": {
      const mine = (d.draws || []).find((x) => isMe(view, x.seat) && x.card);
      return mine ? t("narr.drew.you", { card: cardText(mine.card) }) : null;
    }
    case "melded": return who(view, seat, "narr.melded", { points: d.points, suit: suitSymbol(d.suit) });
    case "exchanged": return who(view, seat, "narr.exchanged", { gave: cardText(d.gave), took: cardText(d.took) });
    case "closed": return who(view, seat, "narr.closed");
    case "declared_out": return who(view, seat, "narr.declaredOut");
    case "called": return callSentence(view, d);
    case "auction_ended": return contractSentence(view, d.contract);
    case "thrown_in": return thrownIn(view, d);
    case "bid": return who(view, seat, "narr.bidSmear", { value: d.value });
    case "passed": return who(view, seat, "narr.passed");
    case "auction_won": return who(view, d.bidder, "narr.auctionWon", { value: d.bid });
    case "widow_taken": return d.cards ? t("narr.widow.you", { cards: d.cards.map(cardText).join(" ") })
      : t("narr.widow", { name: nameOf(view, seat), count: d.count });
    case "discarded": return d.cards ? t("narr.discarded.you", { cards: d.cards.map(cardText).join(" "), suit: suitSymbol(d.trump) })
      : t("narr.discarded", { name: nameOf(view, seat), count: d.count });
    case "round_scored": return t("narr.roundScored", { round: d.round });
    case "match_ended": return t("narr.matchEnded", { winner: winnerName(view, d.winner) });
    case "turn_timed_out": return who(view, d.seat, "narr.timedOut");
    case "seat_taken_over": return who(view, d.seat, "narr.takenOver");
    case "seat_returned": return who(view, d.seat, "narr.returned");
    case "seat_claimed": return isMe(view, d.seat) ? null : t("narr.claimed", { name: d.name || nameOf(view, d.seat) });
    case "seat_reset": return t("narr.reset", { name: nameOf(view, d.seat) });
    case "match_abandoned": return t("narr.abandoned");
    default: return null;
  }
}

export function callSentence(view, call) {
  const seat = call.seat;
  const convention = call.convention ? ` (${t(`convention.${call.convention}`)})` : "";
  if (call.call === "bid") return who(view, seat, "narr.bid56", { value: call.value, suit: suitWord(call.suit) }) + convention;
  return who(view, seat, `narr.${call.call}`) + convention;
}

// "28 ♠" / "28 ♠ doubled"
export function contractText(contract) {
  const level = contract.redoubled ? t("contract.redoubled") : contract.doubled ? t("contract.doubled") : "";
  return `${contract.value} ${suitWord(contract.suit)}${level ? ` ${level}` : ""}`;
}

function contractSentence(view, contract) {
  if (contract.all_pass) return t("narr.allPass56", { name: nameOf(view, contract.declarer), contract: contractText(contract) });
  return who(view, contract.declarer, "narr.contract", { contract: contractText(contract) });
}

function thrownIn(view, d) {
  if (d.rule === "pass_deal") return t("narr.thrownInPass", { name: nameOf(view, d.next_dealer) });
  return t("narr.thrownIn", { name: nameOf(view, d.dealer) });
}

export function winnerName(view, winner) {
  if (Array.isArray(winner)) {
    const side = (view.standing || []).findIndex((s) => s.seats.length === winner.length && s.seats.every((x) => winner.includes(x)));
    if (side >= 0) return sideName(view, side);
    return listOf(winner.map((s) => (isMe(view, s) ? t("names.you") : nameOf(view, s))));
  }
  if (typeof winner === "number") return sideName(view, winner);
  return "";
}

// ---------------------------------------------------------------------------------------------------
// A deal's result: {title, lines: [string], table: [[label, values per side]]}

export function dealResult(view, result) {
  const fn = { "sixty-six": result66, "fifty-six": result56, smear: resultSmear }[view.game];
  return fn(view, result);
}

// The sides that gained, as a headline: "You win 2 game points" / "Bot 1 wins 3 game points".
function gainHeadline(view, gains, unitKey) {
  const winners = gains.map((g, i) => [g, i]).filter(([g]) => g > 0);
  if (!winners.length) return t("result.drawn");
  return winners.map(([g, i]) => {
    const mine = i === mySide(view);
    const size = view.standing[i].seats.length;
    return mine ? t(`result.youWin.${unitKey}`, { count: g })
      : t(`result.sideWins.${unitKey}`, { side: sideName(view, i), count: g, n: size });
  }).join(" · ");
}

function result66(view, r) {
  const target = view.options?.variant === "4p" ? 101 : 66;
  const gains = r.game_points.map((g, i) => g + (r.bonus_points?.[i] || 0));
  const lines = [];
  const nameAt = (seat) => (seat === null || seat === undefined ? "" : isMe(view, seat) ? t("names.you") : nameOf(view, seat));
  const sideTotal = (seat) => r.totals[sideOf(view, seat)];
  const mine = (seat) => isMe(view, seat);
  const pick = (key, seat, params) => t(mine(seat) ? `${key}.you` : key, { name: nameAt(seat), ...params });
  switch (r.case) {
    case "A1": lines.push(pick("why66.declaredWon", r.declarer, { total: sideTotal(r.declarer), target })); break;
    case "A2": lines.push(pick("why66.declaredAgainstCloser", r.declarer, { total: sideTotal(r.declarer), closer: nameAt(r.closer) })); break;
    case "B1": lines.push(pick("why66.closedDeclaredShort", r.declarer, { total: sideTotal(r.declarer), target })); break;
    case "B2": lines.push(pick("why66.declaredShort", r.declarer, { total: sideTotal(r.declarer), target })); break;
    case "C1": {
      const won = gains[sideOf(view, r.closer)] > 0;
      lines.push(pick(won ? "why66.closedMade" : "why66.closedFailed", r.closer, { total: sideTotal(r.closer), target }));
      break;
    }
    default: {
      if (!gains.some(Boolean)) lines.push(t("why66.drawn", { totals: r.totals.join("–") }));
      else if (view.options?.last_trick_rule === "last_trick_wins_one_point") lines.push(t("why66.lastTrickWins"));
      else {
        const best = Math.max(...r.totals);
        lines.push(t("why66.higherTotal", { side: sideName(view, r.totals.indexOf(best)), best, others: r.totals.filter((x) => x !== best).join(", ") }));
      }
    }
  }
  const winnerSides = gains.map((g, i) => [g, i]).filter(([g]) => g > 0);
  for (const [, i] of winnerSides) {
    const losers = r.tricks.map((tr, j) => [tr, j]).filter(([, j]) => j !== i);
    if (["A1", "C2", "C1"].includes(r.case) && r.game_points[i] === 3 * losers.length && losers.every(([tr]) => tr === 0)) lines.push(t("why66.noTrick"));
    else if (["A1", "C2", "C1"].includes(r.case) && r.game_points[i] === 2 * losers.length) lines.push(t("why66.schneider", { under: view.options?.schneider_threshold ?? 33 }));
    if (r.bonus_points?.[i]) lines.push(t("why66.drawBonus", { count: r.bonus_points[i] }));
  }
  return {
    title: gainHeadline(view, gains, "gp"),
    lines,
    table: [[t("sheet.cardPoints"), r.card_points], [t("sheet.marriages"), r.meld_points],
      r.last_trick_points?.some(Boolean) ? [t("sheet.lastTrick"), r.last_trick_points] : null,
      [t("sheet.total"), r.totals], [t("sheet.tricks"), r.tricks], [t("sheet.gamePoints"), gains.map((g) => (g ? `+${g}` : "0"))]].filter(Boolean),
  };
}

function result56(view, r) {
  const c = r.contract;
  const team = r.contract_team;
  const mine = team === mySide(view);
  const params = { side: sideName(view, team), contract: contractText(c), points: r.card_points[team], value: c.value, n: view.standing[team].seats.length };
  const lines = [t(r.made ? "why56.made" : "why56.failed", params)];
  if (c.all_pass) lines.unshift(t("why56.allPass"));
  const level = c.redoubled ? 2 : c.doubled ? 1 : 0;
  lines.push(t("why56.stake", { base: r.base, count: r.per_team, level: t(`why56.level${level}`) }));
  for (const p of r.payments || []) {
    lines.push(t(p.paid < p.owed ? "why56.paidShort" : "why56.paid", { payer: sideName(view, p.payer), payee: sideName(view, p.payee), count: p.paid, owed: p.owed }));
  }
  for (const out of r.eliminated || []) lines.push(t("why56.eliminated", { side: sideName(view, out) }));
  const before = r.tables.map((x, i) => x - (r.payments || []).reduce((s, p) => s + (p.payee === i ? p.paid : 0) - (p.payer === i ? p.paid : 0), 0));
  const gains = r.tables.map((x, i) => x - before[i]);
  return {
    title: mine ? t(r.made ? "result56.youMade" : "result56.youFailed", { contract: contractText(c) })
      : t(r.made ? "result56.made" : "result56.failed", params),
    lines,
    table: [[t("sheet.cardPoints"), r.card_points], [t("sheet.tablesMoved"), gains.map((g) => (g > 0 ? `+${g}` : String(g)))], [t("sheet.tablesNow"), r.tables]],
  };
}

const SMEAR_CARD = { high: "A", low: "7", jack: "J" };

function resultSmear(view, r) {
  const bidder = r.bidder;
  const params = { name: isMe(view, bidder) ? t("names.you") : nameOf(view, bidder), bid: r.bid, count: r.bid, suit: suitSymbol(r.trump) };
  const title = t(isMe(view, bidder) ? (r.made ? "resultSmear.youMade" : "resultSmear.youSet") : (r.made ? "resultSmear.made" : "resultSmear.set"), params);
  const lines = r.points.map((p) => smearPoint(view, r, p));
  if (r.capped?.some(Boolean)) lines.push(t("whySmear.capped"));
  return {
    title,
    lines,
    table: [[t("sheet.pointsWon"), r.points_won], [t("sheet.gameCount"), r.game_counts],
      [t("sheet.scoreMoved"), r.deltas.map((d) => (d > 0 ? `+${d}` : String(d)))], [t("sheet.score"), r.scores]],
  };
}

function smearPoint(view, r, p) {
  const label = t(`point.${p.point}`);
  if (p.point === "game") {
    const counts = r.game_counts.join("–");
    return p.team === null ? t("whySmear.gameTie", { label, counts }) : t("whySmear.game", { label, side: sideName(view, p.team), counts });
  }
  if (p.team === null) {
    const card = p.card || (view.options?.high_low_rule === "highest_lowest_in_play" && p.point !== "jack" ? null : SMEAR_CARD[p.point] + r.trump);
    return t("whySmear.notPlayed", { label, card: card ? cardText(card) : "" });
  }
  const discarded = typeof p.why === "string" && p.why.includes("discard");
  const key = discarded ? "whySmear.discarded" : p.point === "jack" ? "whySmear.jack" : "whySmear.played";
  return t(key, { label, side: sideName(view, p.team), card: cardText(p.card), name: isMe(view, p.seat) ? t("names.you") : nameOf(view, p.seat) });
}

export function sheetUnit(game) {
  return t(`unit.${game}`);
}
