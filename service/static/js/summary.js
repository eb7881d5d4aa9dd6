// The score sheet (one row per scored deal) and the last deal's result in plain words.
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { dealResult, sideName, sheetUnit } from "./words.js";

export function scoreSheet(view, rows) {
  const names = view.standing.map((_, i) => sideName(view, i));
  const start = view.game === "fifty-six" ? view.options.starting_tables : 0;
  let previous = names.map(() => start);
  const body = rows.map((row) => {
    const scores = (row.standing || []).map((s) => s.score);
    const cells = scores.map((score, i) => {
      const delta = score - (previous[i] ?? start);
      return el("td", {}, String(score), delta ? el("small", { class: delta > 0 ? "up" : "down" }, ` ${delta > 0 ? "+" : "−"}${Math.abs(delta)}`) : null);
    });
    previous = scores;
    return el("tr", {}, el("th", { scope: "row" }, String(row.round)), ...cells);
  });
  return el("details", { class: "panel sheet-panel" }, el("summary", {}, t("sheet.title", { unit: sheetUnit(view.game) })),
    el("table", { class: "sheet", id: "score-sheet" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("sheet.deal")), ...names.map((n) => el("th", { scope: "col" }, n)))),
      el("tbody", {}, ...(body.length ? body : [el("tr", {}, el("td", { colspan: names.length + 1, class: "empty" }, t("sheet.none")))]))));
}

// The figures of a result as a small table: one row per figure, one column per side.
export function resultTable(view, rows) {
  const names = view.standing.map((_, i) => sideName(view, i));
  return el("table", { class: "mini" },
    el("thead", {}, el("tr", {}, el("td", {}), ...names.map((n) => el("th", { scope: "col" }, n)))),
    el("tbody", {}, ...rows.map(([title, values]) =>
      el("tr", {}, el("th", { scope: "row" }, title), ...values.map((v) => el("td", {}, String(v)))))));
}

export function lastResult(view) {
  const result = view.last_result;
  if (!result) return null;
  const words = dealResult(view, result);
  return el("details", { class: "panel summary", id: "round-summary" },
    el("summary", {}, t("summary.title", { n: result.round }), el("span", { class: "summary-title" }, words.title)),
    el("ul", { class: "why" }, ...words.lines.map((line) => el("li", {}, line))),
    resultTable(view, words.table));
}
