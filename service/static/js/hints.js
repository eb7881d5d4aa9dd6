// The expert's hint as ranked choices: its suggestion first, then the others as good or risky by how
// far their value falls below the best one, in the units each game's value is given in.
import { t } from "./i18n.js";
import { actionLabel } from "./words.js";

// How far below the best a choice may be and still be "good": Sixty-Six (2 players) values run from
// -1 to 1 (the chance to win the match), the others count game points, tables or Smear points.
function margin(view) {
  if (view.game === "sixty-six") return view.players.length === 2 ? 0.1 : 0.3;
  if (view.game === "fifty-six") return 0.25;
  return 0.4;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// [{action, label, rank: "best"|"good"|"risky", value}] with the suggestion first.
export function rankedHint(hint, view) {
  const rows = (hint.values || []).map((row) => ({ action: row.action, value: row.value }));
  if (!rows.some((row) => same(row.action, hint.suggestion))) rows.unshift({ action: hint.suggestion, value: null });
  const valued = rows.filter((row) => typeof row.value === "number");
  const best = valued.length ? Math.max(...valued.map((row) => row.value)) : null;
  const rankOf = (row) => {
    if (same(row.action, hint.suggestion)) return "best";
    if (best === null || typeof row.value !== "number") return "risky";
    return best - row.value <= margin(view) ? "good" : "risky";
  };
  const order = { best: 0, good: 1, risky: 2 };
  return rows.map((row) => ({ ...row, rank: rankOf(row), label: actionLabel(row.action, view) }))
    .sort((a, b) => order[a.rank] - order[b.rank] || (b.value ?? -Infinity) - (a.value ?? -Infinity));
}

export function rankWord(rank) {
  return t(`hint.${rank}`);
}
