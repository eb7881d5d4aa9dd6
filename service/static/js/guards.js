// Moves that cannot be taken back and change the stakes (declare out, close, double, redouble) ask
// first, saying what they cost in numbers. The figures follow the game's scoring rules, from what the
// seat's view shows (tricks and card points are public).
import { t, listOf } from "./i18n.js";
import { nameOf, sideOf, contractText } from "./words.js";

export const GUARDED = new Set(["declare_out", "close", "double", "redouble"]);

// {title, body: [lines], confirm} for a guarded action, or null.
export function consequence(action, view) {
  switch (action.type) {
    case "declare_out": return declareOut(view);
    case "close": return close(view);
    case "double": return doubling(view, 1);
    case "redouble": return doubling(view, 2);
    default: return null;
  }
}

// --- Sixty-Six -------------------------------------------------------------------------------------

function sixtySix(view) {
  const r = view.round;
  const me = sideOf(view, view.seat);
  const sides = view.standing.map((_, i) => i);
  const total = (i) => (r.card_points?.[i] || 0) + (r.meld_points?.[i] || 0);
  const others = sides.filter((i) => i !== me);
  const half = view.options.schneider_threshold ?? 33;
  const target = r.target || 66;
  const twoOrThree = (tricks) => (tricks === 0 ? 3 : 2);
  const winScale = (tricks, points) => (tricks === 0 ? 3 : points < half ? 2 : 1);
  const opponents = listOf(others.map((i) => view.standing[i].seats.map((s) => nameOf(view, s)).join(" & ")));
  return { r, me, total, others, target, twoOrThree, winScale, opponents, tricks: r.tricks_won || [] };
}

function declareOut(view) {
  const g = sixtySix(view);
  const mine = g.total(g.me);
  const closer = g.r.closer === null || g.r.closer === undefined ? null : sideOf(view, g.r.closer);
  let line;
  if (mine >= g.target) {
    let points;
    if (closer === null || closer === g.me) points = g.others.reduce((s, o) => s + g.winScale(g.tricks[o], g.total(o)), 0);
    else points = g.others.length * g.twoOrThree(g.r.tricks_at_close?.[g.me] ?? 1);
    line = t("guard.declareOut.win", { total: mine, target: g.target, count: points });
  } else {
    let points;
    if (closer === g.me) points = g.others.reduce((s, o) => s + g.twoOrThree(g.r.tricks_at_close?.[o] ?? g.tricks[o]), 0);
    else if (view.options.false_declaration === "mirror") points = g.others.reduce((s, o) => s + g.winScale(g.tricks[o], g.total(o)), 0);
    else points = g.others.reduce((s, o) => s + g.twoOrThree(g.tricks[o]), 0);
    line = t("guard.declareOut.lose", { total: mine, target: g.target, count: points, opponents: g.opponents });
  }
  return { title: t("guard.declareOut.title"), body: [line, t("guard.declareOut.final")], confirm: t("guard.declareOut.confirm", { total: mine }) };
}

function close(view) {
  const g = sixtySix(view);
  const mine = g.total(g.me);
  const penalty = g.others.reduce((s, o) => s + g.twoOrThree(g.tricks[o]), 0);
  return {
    title: t("guard.close.title"),
    body: [t("guard.close.rules"), t("guard.close.need", { total: mine, target: g.target }),
      t("guard.close.fail", { count: penalty, opponents: g.opponents })],
    confirm: t("guard.close.confirm"),
  };
}

// --- Fifty-Six: tables won if made / lost if failed (RULES' bands), times the doubling --------------

const BANDS = [[28, 39, 1, 2], [40, 47, 2, 3], [48, 55, 3, 4], [56, 56, 4, 5]];

export function stake56(value, made, level, scoring) {
  const band = BANDS.find(([low, high]) => value >= low && value <= high) || BANDS[0];
  const base = made ? band[2] : band[3];
  return scoring === "additive" ? base + [0, 1, 2][level] : base * [1, 2, 4][level];
}

function doubling(view, level) {
  const r = view.round;
  const bid = r.high_bid || r.contract;
  if (!bid) return null;
  const scoring = view.options.double_scoring;
  const figures = {
    contract: contractText({ value: bid.value, suit: bid.suit }),
    name: nameOf(view, bid.seat ?? bid.declarer),
    madeBefore: stake56(bid.value, true, level - 1, scoring), made: stake56(bid.value, true, level, scoring),
    failedBefore: stake56(bid.value, false, level - 1, scoring), failed: stake56(bid.value, false, level, scoring),
  };
  const key = level === 1 ? "guard.double" : "guard.redouble";
  return { title: t(`${key}.title`, figures), body: [t(`${key}.made`, figures), t(`${key}.failed`, figures)], confirm: t(`${key}.confirm`) };
}
