// The score sheet (one row per scored round) and the summary of why the last round's score changed.
import { el, suitText, cardText } from "./dom.js";

export function sideNames(view) {
  const name = (seat) => view.players[seat]?.name || `Seat ${seat + 1}`;
  return view.standing.map((side) => side.seats.map(name).join(" & "));
}

const UNIT = { "sixty-six": "game points", "fifty-six": "tables", smear: "points" };

export function scoreSheet(view, rows) {
  const names = sideNames(view);
  const start = view.game === "fifty-six" ? view.options.starting_tables : 0;
  let previous = names.map(() => start);
  const body = rows.map((row) => {
    const scores = (row.standing || []).map((s) => s.score);
    const cells = scores.map((score, i) => {
      const delta = score - (previous[i] ?? start);
      return el("td", {}, String(score), delta ? el("small", { class: delta > 0 ? "up" : "down" }, ` ${delta > 0 ? "+" : ""}${delta}`) : null);
    });
    previous = scores;
    return el("tr", {}, el("th", { scope: "row" }, String(row.round)), ...cells);
  });
  return el("table", { class: "sheet", id: "score-sheet" },
    el("caption", {}, `Score sheet (${UNIT[view.game]})`),
    el("thead", {}, el("tr", {}, el("th", {}, "Round"), ...names.map((n) => el("th", {}, n)))),
    el("tbody", {}, ...(body.length ? body : [el("tr", {}, el("td", { colspan: names.length + 1, class: "empty" }, "No round scored yet."))])));
}

export function roundSummary(view) {
  const result = view.last_result;
  if (!result) return null;
  const names = sideNames(view);
  const parts = { "sixty-six": summary66, "fifty-six": summary56, smear: summarySmear }[view.game](result, names, view);
  return el("section", { class: "panel summary", id: "round-summary" }, el("h3", {}, `Round ${result.round}: why the score changed`), ...parts);
}

function perSide(names, rows) {
  return el("table", { class: "mini" },
    el("thead", {}, el("tr", {}, el("th", {}), ...names.map((n) => el("th", {}, n)))),
    el("tbody", {}, ...rows.filter(([, values]) => values).map(([title, values]) =>
      el("tr", {}, el("th", { scope: "row" }, title), ...values.map((v) => el("td", {}, String(v)))))));
}

function summary66(r, names) {
  return [el("p", { class: "reason" }, r.reason),
    perSide(names, [["Card points", r.card_points], ["Marriages", r.meld_points], ["Last trick", r.last_trick_points],
      ["Total", r.totals], ["Tricks", r.tricks], ["Game points won", r.game_points],
      r.bonus_points?.some(Boolean) ? ["Draw bonus", r.bonus_points] : ["", null]])];
}

function summary56(r, names, view) {
  const c = r.contract;
  const declarer = view.players[c.declarer]?.name || `Seat ${c.declarer + 1}`;
  const dbl = c.redoubled ? ", redoubled" : c.doubled ? ", doubled" : "";
  const out = [el("p", { class: "reason" }, `${declarer} bid ${c.value} ${suitText(c.suit)}${dbl}${c.all_pass ? " (all passed)" : ""}: `,
    el("strong", {}, r.made ? "made" : "failed"), ` with ${r.card_points[r.contract_team]} card points. `,
    `${r.made ? "Each other team pays" : "The bidders pay each other team"} ${r.base} × ${r.multiplier} = ${r.per_team} table(s).`)];
  if (r.reason) out.push(el("p", {}, r.reason));
  out.push(perSide(names, [["Card points", r.card_points], ["Tables now", r.tables]]));
  const paid = (r.payments || []).filter((p) => p.paid !== p.owed);
  if (paid.length) out.push(el("p", {}, paid.map((p) => `${names[p.payer]} owed ${p.owed} but could pay only ${p.paid}.`).join(" ")));
  if (r.eliminated?.length) out.push(el("p", {}, `Out of tables: ${r.eliminated.map((t) => names[t]).join(", ")}.`));
  return out;
}

function summarySmear(r, names, view) {
  const bidder = view.players[r.bidder]?.name || `Seat ${r.bidder + 1}`;
  const points = el("ul", { class: "points" }, ...r.points.map((p) => el("li", {},
    el("strong", {}, p.point[0].toUpperCase() + p.point.slice(1)), ": ",
    p.team === null ? "not awarded" : names[p.team], p.card ? ` (${cardText(p.card)})` : "", p.why ? ` — ${p.why}` : "")));
  return [el("p", { class: "reason" }, `${bidder} bid ${r.bid} with ${suitText(r.trump)} trump: `,
    el("strong", {}, r.made ? "made" : "set back"), "."),
  points, perSide(names, [["Points won", r.points_won], ["Game count", r.game_counts], ["Score moved", r.deltas], ["Score", r.scores]])];
}
