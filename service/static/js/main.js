// Routing by the URL's fragment: "#/" is the lobby, "#/g/<game id>" a table. A share link carries
// only the game id; the seat token stays in localStorage.
import { showLobby } from "./lobby.js";
import { TableController } from "./table.js";
import { el, showMessage } from "./dom.js";

let current = null;

async function route() {
  const root = document.getElementById("app");
  if (current) current.stop();
  current = null;
  const match = location.hash.match(/^#\/g\/([A-Za-z0-9_-]{1,64})$/);
  try {
    if (match) {
      current = new TableController(root, match[1]);
      await current.start();
    } else {
      await showLobby(root);
    }
  } catch (err) {
    root.replaceChildren(el("section", { class: "panel" }, el("h2", {}, "Something went wrong"), el("p", {}, err.message),
      el("a", { class: "button", href: "#/" }, "Back to the lobby")));
    showMessage(err.message, "error");
    document.body.dataset.state = "error";
  }
}

window.addEventListener("hashchange", route);
route();
