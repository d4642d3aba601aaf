// Intents from the legal actions the server lists. The page holds no rule: every check below is
// "does the view list this action?", never "would this be legal?".
import { actionCards } from "./cards.js";

export function legal(msg) {
  return msg ? msg.view.hand.legal_actions : [];
}

export function has(msg, action) {
  return legal(msg).includes(action);
}

export function verbs(msg, verb) {
  return legal(msg).filter((a) => a === verb || a.startsWith(verb + " "));
}

/** The legal "meld ..." action made of exactly these cards, if any. */
export function meldFor(msg, cards) {
  const want = [...cards].sort().join(" ");
  for (const a of verbs(msg, "meld")) {
    if (actionCards(a).sort().join(" ") === want) return a;
  }
  return null;
}

/** Legal lay-offs and swaps of ``card`` onto table meld number ``n`` (1-based). */
export function targetsFor(msg, card, n) {
  return legal(msg).filter((a) => {
    const w = a.split(" ");
    return (w[0] === "layoff" || w[0] === "swap") && w[1] === card && Number(w[2]) === n;
  });
}

/** Meld numbers that accept ``card`` (by a lay-off or a swap). */
export function meldsAccepting(msg, card) {
  const out = new Set();
  for (const a of legal(msg)) {
    const w = a.split(" ");
    if ((w[0] === "layoff" || w[0] === "swap") && w[1] === card) out.add(Number(w[2]));
  }
  return out;
}
