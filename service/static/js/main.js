// Start-up and routing by the URL's fragment: "#/" is the lobby, "#/g/<game id>" a table, "#/r/<game id>"
// a finished match's replay, "#/players/<id>" a player's profile, "#/leaderboards/<game>" a leaderboard.
// A share link carries only the game id; the seat token stays in localStorage. A private match's
// invitation adds its join code: "#/g/<game id>?join=<code>" (a fragment never reaches the server).
import { showLobby } from "./lobby.js";
import { showProfile, showLeaderboard } from "./players.js";
import { TableController, errorText } from "./table.js";
import { ReplayViewer } from "./replay.js";
import { el } from "./dom.js";
import { t, LANGUAGES, preferredLanguage, loadLanguage, chooseLanguage, currentLanguage } from "./i18n.js";
import { prefs, applyDeck } from "./prefs.js";
import { clearAllNotices } from "./notice.js";

let current = null;

async function route() {
  const root = document.getElementById("app");
  if (current) current.stop();
  current = null;
  clearAllNotices();
  window.scrollTo(0, 0); // a new page starts at its top (the lobby's form may have been scrolled)
  const match = location.hash.match(/^#\/g\/([A-Za-z0-9_-]{1,64})(?:\?(.*))?$/);
  const replay = location.hash.match(/^#\/r\/([A-Za-z0-9_-]{1,64})$/);
  const player = location.hash.match(/^#\/players\/([0-9a-f]{16})$/);
  const board = location.hash.match(/^#\/leaderboards\/([a-z-]{1,20})$/);
  try {
    if (replay) {
      current = new ReplayViewer(root, replay[1]);
      await current.start();
    } else if (match) {
      current = new TableController(root, match[1], joinCodeOf(match[2]));
      await current.start();
    } else if (player) {
      await showProfile(root, player[1]);
    } else if (board) {
      await showLeaderboard(root, board[1]);
    } else {
      showLobby(root);
    }
  } catch (err) {
    root.replaceChildren(el("section", { class: "panel" }, el("h1", {}, t("error.title")), el("p", {}, errorText(err)),
      el("a", { class: "button", href: "#/" }, t("nav.lobby"))));
    document.body.dataset.state = "error";
  }
}

// The join code of an invitation link's "?join=<code>" (the API takes 1 to 100 characters), else null.
function joinCodeOf(query) {
  const code = new URLSearchParams(query || "").get("join");
  return code && code.length <= 100 ? code : null;
}

// The language picker and the settings (four-colour deck, pace) in the top bar.
function topbar() {
  const language = document.getElementById("language");
  language.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) =>
    el("option", { value: code, lang: code, selected: code === currentLanguage() }, name)));
  language.addEventListener("change", async () => {
    chooseLanguage(language.value);
    await loadLanguage(language.value);
    route();
  });
  const four = document.getElementById("four-colour");
  four.checked = prefs.fourColour;
  four.addEventListener("change", () => { prefs.fourColour = four.checked; });
  const pace = document.getElementById("pace");
  pace.value = String(prefs.pace);
  if (pace.value !== String(prefs.pace)) pace.value = "1";
  pace.addEventListener("change", () => { prefs.pace = Number(pace.value); });
}

async function boot() {
  applyDeck();
  await loadLanguage(preferredLanguage());
  topbar();
  window.addEventListener("hashchange", route);
  await route();
}

boot();
