// Which selected cards stay selected when the hand changes.

function counts(cards) {
  const n = new Map();
  for (const card of cards) n.set(card, (n.get(card) || 0) + 1);
  return n;
}

/**
 * The selection (card keys such as "9H#0", "9H#1": a card and which copy of it) after the hand
 * went from ``before`` (null for a new hand) to ``after``, whose keys are ``keys``. A card gone
 * from the hand is unselected; when one of two copies goes (two packs), so is the other, whose
 * key the remaining copy now carries: it was not the person's choice.
 */
export function keptSelection(selected, before, after, keys) {
  const was = before ? counts(before) : new Map();
  const now = counts(after);
  const kept = new Set();
  for (const key of selected) {
    const card = key.slice(0, key.lastIndexOf("#"));
    if (!keys.has(key)) continue;
    if (before && (now.get(card) || 0) < (was.get(card) || 0)) continue;
    kept.add(key);
  }
  return kept;
}
