// Small DOM helpers of the table's render modules: nodes by id, new elements, spoken text,
// showing, enabling and explaining buttons.
import { cardName } from "./cards.js";

export const $ = (id) => document.getElementById(id);

/** An element with a class and text, the page's usual building block. */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Fill ``node`` with ``text`` as shown. Where a screen reader should hear other words (cards
 * named, "king of clubs", where the text draws them with suit symbols, "K♣"), the shown text is
 * hidden from it and the words are there for it instead. */
export function setSpoken(node, text, spoken = text) {
  if (text === spoken) {
    node.textContent = text;
    return;
  }
  node.textContent = "";
  const shown = el("span", "", text);
  shown.setAttribute("aria-hidden", "true");
  node.append(shown, el("span", "sr-only", spoken));
}

export function cardList(cards) {
  return cards.map(cardName).join(", ");
}

export function show(id, visible) {
  $(id).hidden = !visible;
}

export function enable(id, enabled) {
  $(id).disabled = !enabled;
  $(id).removeAttribute("aria-disabled");
}

/** Enable a button, or grey it out; with ``explain``, a greyed-out button still takes a tap and
 * its handler says why it cannot act now ("Select one card first", "7♥ cannot go back"). */
export function usable(button, enabled, explain) {
  button.disabled = !enabled && !explain;
  if (!enabled && explain) button.setAttribute("aria-disabled", "true");
  else button.removeAttribute("aria-disabled");
}
