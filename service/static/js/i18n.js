// Every text the page shows comes from a message catalog (service/static/i18n/<language>.json).
// t("key", {name: "Ana", count: 3}) fills {placeholders}; a value that is an object picks its plural
// form (Intl.PluralRules: one, few, many, other) by `count`. English fills in for a missing key.

// The languages the rules of these games came to us in, each named in itself.
export const LANGUAGES = { en: "English", pl: "Polski", hr: "Hrvatski", gl: "Galego" };
const STORE_KEY = "talon.lang";

let lang = "en";
let catalog = {};
let english = {};
let plurals = new Intl.PluralRules("en");

export function currentLanguage() { return lang; }

// The stored choice, else the first of the browser's languages we have, else English.
export function preferredLanguage() {
  const stored = localStorage.getItem(STORE_KEY);
  if (stored && LANGUAGES[stored]) return stored;
  for (const tag of navigator.languages?.length ? navigator.languages : [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES[base]) return base;
  }
  return "en";
}

async function fetchCatalog(code) {
  const response = await fetch(`/web/i18n/${code}.json`);
  if (!response.ok) throw new Error(`no catalog for ${code}`);
  return response.json();
}

export async function loadLanguage(code) {
  const wanted = LANGUAGES[code] ? code : "en";
  const [base, own] = await Promise.all([
    fetchCatalog("en"), wanted === "en" ? null : fetchCatalog(wanted).catch(() => null)]);
  english = base;
  catalog = own || base;
  lang = own ? wanted : "en";
  plurals = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
  translatePage(document);
}

export function chooseLanguage(code) {
  localStorage.setItem(STORE_KEY, code);
}

export function has(key) { return key in catalog || key in english; }

export function t(key, params = {}) {
  let text = key in catalog ? catalog[key] : english[key];
  if (text === undefined) return key;
  if (typeof text === "object") {
    const form = typeof params.count === "number" ? plurals.select(params.count) : "other";
    text = text[form] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (params[name] === undefined ? whole : String(params[name])));
}

// Static markup: data-i18n="key" sets the text, data-i18n-label="key" the aria-label,
// data-i18n-title="key" the title.
export function translatePage(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
}

// "Ana, Ben and Bot 2" in the current language.
export function listOf(names) {
  try {
    return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(names);
  } catch {
    return names.join(", ");
  }
}
