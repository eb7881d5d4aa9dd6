// This browser's settings: the player's name, the deck's colours and the pace of the table.
const get = (key, fallback) => localStorage.getItem(key) ?? fallback;

export const prefs = {
  get name() { return get("talon.name", ""); },
  set name(value) { localStorage.setItem("talon.name", value); },
  // Four colours: spades black, hearts red, diamonds blue, clubs green (hearts and diamonds apart).
  get fourColour() { return get("talon.fourColour", "0") === "1"; },
  set fourColour(on) { localStorage.setItem("talon.fourColour", on ? "1" : "0"); applyDeck(); },
  // How long the table lingers on each move: 1 normal, 0.5 fast, 0 no pauses.
  get pace() {
    const value = Number(get("talon.pace", "1"));
    return Number.isFinite(value) && value >= 0 ? value : 1;
  },
  set pace(value) { localStorage.setItem("talon.pace", String(value)); },
};

export function applyDeck() {
  document.documentElement.classList.toggle("four-colour", prefs.fourColour);
}
