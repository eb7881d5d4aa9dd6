// Small DOM helpers shared by the lobby and the table: building elements, card faces, and updating
// one region of the page without disturbing the others (so keyboard focus survives an update).
import { t } from "./i18n.js";

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RANKS = "AKQJT987";

// el("div", {class: "x", onclick: f}, child, "text", ...). Never a `style` attribute: the page runs
// under a Content-Security-Policy without inline styles (set element.style from code instead).
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
  return `suit-${suit}`;
}

export function suitSymbol(suit) {
  return SUIT_SYMBOL[suit] || suit || "";
}

// A suit as a symbol with its name for screen readers: <span class="suit-H" title="hearts">♥</span>.
export function suitEl(suit) {
  if (suit === "NT") return el("span", { class: "suit-NT" }, t("suit.noTrump"));
  return el("span", { class: `sym ${suitClass(suit)}`, role: "img", "aria-label": t(`suit.name.${suit}`) }, suitSymbol(suit));
}

export function rankText(rank) {
  return t(`rank.short.${rank}`);
}

// "10♠", "Q♦" (the rank letters of the player's language).
export function cardText(card) {
  return `${rankText(card[0])}${suitSymbol(card[1])}`;
}

// "ten of spades": what a screen reader says for a card.
export function cardName(card) {
  return t("card.name", { rank: t(`rank.long.${card[0]}`), suit: t(`suit.of.${card[1]}`) });
}

// A card face: rank and suit in the corner and a big suit in the middle. `attrs.button` makes it a
// button (the hand); otherwise an image with the card's name.
export function cardEl(card, attrs = {}) {
  const { button, class: extra, label, ...rest } = attrs;
  const rank = rankText(card[0]);
  const cls = `card ${suitClass(card[1])} ${extra || ""}`.trim();
  const face = [el("span", { class: "corner", "aria-hidden": "true" }, el("span", { class: "rank" }, rank), el("span", { class: "s" }, suitSymbol(card[1]))),
    el("span", { class: "pip", "aria-hidden": "true" }, suitSymbol(card[1]))];
  if (button) {
    return el("button", { type: "button", ...rest, class: cls, "aria-label": label || cardName(card), dataset: { card, ...(rest.dataset || {}) } }, ...face);
  }
  return el("span", { ...rest, class: cls, role: "img", "aria-label": label || cardName(card), dataset: { card, ...(rest.dataset || {}) } }, ...face);
}

export function cardBack(attrs = {}) {
  return el("span", { ...attrs, class: `card back ${attrs.class || ""}`.trim(), "aria-hidden": "true" });
}

// Replaces a region's content only when what it shows changed (the same markup is left alone, so focus,
// hover and scroll stay). When focus was inside, it returns to the element with the same focus key
// (data-focus or id), else to `fallback` (a selector inside the region), else to the region.
export function update(region, ...children) {
  const fresh = el("div", {}, ...children);
  const markup = fresh.innerHTML;
  if (region.dataset.markup === markup && region.childNodes.length === fresh.childNodes.length) return false;
  const focusKey = focusKeyOf(region);
  const typing = focusKey !== null && "value" in document.activeElement ? document.activeElement.value : null;
  region.replaceChildren(...fresh.childNodes);
  region.dataset.markup = markup;
  if (focusKey !== null) {
    restoreFocus(region, focusKey);
    if (typing !== null && document.activeElement && "value" in document.activeElement) document.activeElement.value = typing;
  }
  return true;
}

function focusKeyOf(region) {
  const active = document.activeElement;
  if (!active || active === document.body || !region.contains(active)) return null;
  return active.dataset?.focus || active.id || "";
}

function restoreFocus(region, key) {
  const same = key ? region.querySelector(`[data-focus="${CSS.escape(key)}"], #${CSS.escape(key)}`) : null;
  const target = same || region.querySelector("[data-focus-fallback]") || region.querySelector("button:not([disabled]), [tabindex='0']");
  if (target) target.focus({ preventScroll: true });
  else if (region.tabIndex >= 0 || region.hasAttribute("tabindex")) region.focus({ preventScroll: true });
}

// Messages for screen readers: one polite live region, lines gathered for a moment then cleared.
let announceTimer = null;
export function announce(text) {
  const box = document.getElementById("announce");
  if (!box || !text) return;
  const line = el("p", {}, text);
  box.append(line);
  while (box.childNodes.length > 4) box.firstChild.remove();
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => box.replaceChildren(), 8000);
}

export function prefersReducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}
