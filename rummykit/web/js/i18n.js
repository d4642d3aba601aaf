// Message catalogues: every visible string comes from /i18n/<lang>.json, which the server
// makes from the page section of rummykit/texts/<lang>.json. Named placeholders
// ({name}), plural forms chosen with Intl.PluralRules, <html lang> switched with the language.
export const LANGUAGES = ["vi", "en"];
let lang = "en";
let messages = {};
let plural = new Intl.PluralRules("en");
const listeners = [];

/** The language to start with: the saved choice, else Vietnamese if the browser asks for it. */
export function preferredLanguage() {
  const saved = localStorage.getItem("rummykit.lang");
  if (LANGUAGES.includes(saved)) return saved;
  const asked = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const l of asked) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export function currentLanguage() {
  return lang;
}

/** Load a catalogue and make it current; translates the static page and tells the listeners. */
export async function setLanguage(next) {
  const response = await fetch(`/i18n/${next}.json`);
  messages = await response.json();
  lang = next;
  plural = new Intl.PluralRules(next);
  localStorage.setItem("rummykit.lang", next);
  document.documentElement.lang = next;
  translateStatic(document);
  for (const fn of listeners) fn(next);
}

export function onLanguage(fn) {
  listeners.push(fn);
}

/** The message ``key`` with ``params`` filled in ({count} picks the plural form). */
export function t(key, params = {}) {
  let text = messages[key];
  if (text === undefined) return key;
  if (typeof text === "object") {
    const form = plural.select(params.count ?? 0);
    text = text[form] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Whether the catalogue has ``key``. */
export function has(key) {
  return key in messages;
}

/** Translate elements marked data-i18n (text), data-i18n-label (aria-label), data-i18n-title.
 * In an element that also has data-i18n-code, that text (a command) is set as <code>, which
 * never breaks across lines. */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const text = t(el.dataset.i18n);
    const command = el.dataset.i18nCode;
    if (!command || !text.includes(command)) {
      el.textContent = text;
      continue;
    }
    el.textContent = "";
    text.split(command).forEach((part, i) => {
      if (i) {
        const code = document.createElement("code");
        code.textContent = command;
        el.append(code);
      }
      el.append(part);
    });
  }
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}
