// Small DOM and card helpers shared by the lobby and the table.
export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣", NT: "NT" };
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs", NT: "no trump" };
const RANK_LABEL = { T: "10" };

// el("div", {class: "x", onclick: f}, child, "text", ...)
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "class") node.className = value;
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function suitClass(suit) {
  return suit === "H" || suit === "D" ? "red" : "black";
}

export function suitText(suit) {
  return suit ? SUITS[suit] || suit : "";
}

export function cardText(card) {
  return `${RANK_LABEL[card[0]] || card[0]}${SUITS[card[1]]}`;
}

// A card face: rank and suit in the corner and a big suit in the middle.
export function cardEl(card, attrs = {}) {
  const rank = RANK_LABEL[card[0]] || card[0];
  const suit = SUITS[card[1]];
  const cls = `card ${suitClass(card[1])} ${attrs.class || ""}`.trim();
  return el(attrs.onclick ? "button" : "div", { ...attrs, class: cls, dataset: { card, ...(attrs.dataset || {}) },
    "aria-label": `${rank} of ${SUIT_NAMES[card[1]]}`, type: attrs.onclick ? "button" : undefined },
  el("span", { class: "corner" }, rank, el("br"), suit), el("span", { class: "pip" }, suit));
}

export function cardBack(attrs = {}) {
  return el("div", { ...attrs, class: `card back ${attrs.class || ""}`.trim(), "aria-hidden": "true" });
}

// Messages at the top: errors stay until replaced, infos fade.
let messageTimer = null;
export function showMessage(text, kind = "info") {
  const box = document.getElementById("message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
  clearTimeout(messageTimer);
  if (text && kind !== "error") messageTimer = setTimeout(() => { box.hidden = true; }, 4000);
}

export function clearMessage() {
  showMessage("");
}
