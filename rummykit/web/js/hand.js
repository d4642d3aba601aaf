// The person's hand: its order and selection, card nodes reused by id so focus and transitions
// survive redraws, and long hands laid out in even rows.
import { cardName, face, rankOrder, shortCard, suitOrder } from "./cards.js";
import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { meldsAccepting } from "./intents.js";

export const handNodes = new Map();

/** The hand as [{key, card}] in display order (sorted by suit or rank, or the player's order). */
export function handEntries(view, ui) {
  const seen = {};
  const entries = view.hand.map((card) => {
    seen[card] = (seen[card] || 0) + 1;
    return { key: `${card}#${seen[card] - 1}`, card };
  });
  if (ui.sortMode === "custom") {
    const pos = new Map(ui.order.map((k, i) => [k, i]));
    const known = entries.filter((e) => pos.has(e.key)).sort((a, b) => pos.get(a.key) - pos.get(b.key));
    const fresh = entries.filter((e) => !pos.has(e.key));
    return [...known, ...fresh];
  }
  if (ui.sortMode === "melds" && ui.melds) {
    // The melds of the best arrangement side by side (each run low to high), then the rest by suit.
    const place = new Map();
    ui.melds.forEach((meld, i) => meld.forEach((card, j) => place.set(card, i * 16 + j)));
    const at = (card) => (place.has(card) ? place.get(card) : 1000 + suitOrder(card));
    return entries.sort((a, b) => at(a.card) - at(b.card) || a.key.localeCompare(b.key));
  }
  const order = ui.sortMode === "rank" ? rankOrder : suitOrder;
  return entries.sort((a, b) => order(a.card) - order(b.card) || a.key.localeCompare(b.key));
}

/** The hand orders the sort button goes through: by melds too where the server finds them. */
export function sortModes(ctx) {
  return ctx.welcome.game === "crazy" ? ["suit", "rank"] : ["suit", "rank", "melds"];
}

export function selectedCards(ctx) {
  const entries = handEntries(ctx.msg.view.hand, ctx.ui);
  return entries.filter((e) => ctx.ui.selected.has(e.key)).map((e) => e.card);
}

let handWidth = 0;

const handSized = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
  const width = $("hand").clientWidth;
  if (width !== handWidth) balanceHandRows();
}) : null;

/** A hand too long for one row (Crazy Rummy after buys) is laid out in even rows, 9 and 9
 * rather than 16 and 2, each row as wide as the strip and starting at its left edge (the
 * overlap of the first card of a row would put it off the screen). A hand of one row is left
 * to the style sheet. */
function balanceHandRows() {
  const zone = $("hand");
  handWidth = zone.clientWidth;
  if (handSized && !zone.dataset.sized) {
    zone.dataset.sized = "1";
    handSized.observe(zone);
  }
  const cards = [...zone.querySelectorAll(":scope > .card")];
  zone.style.removeProperty("--m");
  cards.forEach((c) => c.classList.remove("row-start"));
  if (cards.length < 4 || !handWidth) return;
  const rows = new Set(cards.map((c) => c.offsetTop)).size;
  if (rows < 2) return;
  const per = Math.ceil(cards.length / rows);
  const style = getComputedStyle(zone);
  // (widths to the fraction of a pixel: a card is 47.26 px wide on a phone held sideways)
  const room = zone.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const width = cards[0].getBoundingClientRect().width;
  // (two pixels to spare, so the card after the row's last goes to the next row)
  const gap = Math.min((room - 2 - per * width) / (per - 1), 4);
  zone.style.setProperty("--m", `${gap}px`);
  cards.forEach((c, i) => c.classList.toggle("row-start", i > 0 && i % per === 0));
}

export function renderHand(ctx) {
  const { msg, ui, welcome } = ctx;
  const hand = msg.view.hand;
  const zone = $("hand");
  const entries = handEntries(hand, ui);
  const meldOf = new Map();
  const melds = (msg.aids && msg.aids.melds) || [];
  melds.forEach((m, i) => m.forEach((c) => meldOf.set(c, i)));
  const keys = new Set(entries.map((e) => e.key));
  const hadFocus = zone.contains(document.activeElement);
  const dws = msg.aids && msg.aids.discard_deadwood;
  const mine = hand.to_act === ctx.seat && hand.phase === "discard";
  for (const [key, node] of handNodes) {
    if (!keys.has(key)) {
      node.remove();
      handNodes.delete(key);
    }
  }
  if (!ui.focusKey || !keys.has(ui.focusKey)) {
    // The card under the cursor has gone (thrown, melded, laid off): the cursor keeps its place,
    // on the card that took the gone card's place, or on the new last card.
    const at = Math.max(0, Math.min(ui.focusIndex ?? 0, entries.length - 1));
    ui.focusKey = entries.length ? entries[at].key : null;
  }
  ui.focusIndex = entries.findIndex((e) => e.key === ui.focusKey);
  entries.forEach((e, index) => {
    let b = handNodes.get(e.key);
    if (!b) {
      b = el("button", "card");
      b.type = "button";
      b.dataset.key = e.key;
      b.append(face(e.card));
      handNodes.set(e.key, b);
    }
    b.dataset.card = e.card;
    const selected = ui.selected.has(e.key);
    b.setAttribute("aria-pressed", selected ? "true" : "false");
    let name = cardName(e.card);
    const m = meldOf.get(e.card);
    b.classList.remove("m0", "m1", "m2", "m3", "m4", "in-meld");
    if (m !== undefined && welcome.game !== "crazy") {
      b.classList.add("in-meld", `m${m % 5}`);
    }
    b.classList.toggle("new", ui.gained.has(e.key));
    const wild = Boolean(msg.aids && msg.aids.wilds && msg.aids.wilds.includes(e.card));
    b.classList.toggle("wild-card", wild);
    const taken = hand.taken_from_discard === e.card && hand.phase === "discard";
    b.classList.toggle("taken", taken);
    b.setAttribute("aria-label", wild ? `${name} (${t("card.wild")})` : name);
    const desc = [];
    if (m !== undefined && welcome.game !== "crazy") desc.push(t("hand.in_meld", { n: m + 1 }));
    if (wild) desc.push(t("card.wild"));
    if (taken) desc.push(t("hand.just_taken"));
    if (dws && dws[e.card] !== undefined && !taken) desc.push(t("hand.if_discarded", { n: dws[e.card] }));
    if (mine && welcome.game !== "gin") {
      const fits = [...meldsAccepting(msg, e.card)];
      if (fits.length) desc.push(t("hand.fits", { list: fits.join(", ") }));
    }
    if (desc.length) b.title = desc.join(" · ");
    else b.removeAttribute("title");
    b.tabIndex = e.key === ui.focusKey ? 0 : -1;
    b.style.setProperty("--i", String(index));
    if (zone.children[index] !== b) zone.insertBefore(b, zone.children[index] || null);
  });
  if (hadFocus && !zone.contains(document.activeElement) && ui.focusKey) handNodes.get(ui.focusKey)?.focus();
  zone.classList.toggle("many", entries.length > 11);
  zone.style.setProperty("--n", String(Math.max(2, entries.length)));
  // The cards a tall phone sizes the hand for: at least 11, so a draw or a discard does not
  // resize them (see app.css).
  zone.style.setProperty("--n-fit", String(Math.max(11, entries.length)));
  balanceHandRows();
  $("hand-title").textContent = t("hand.title", { count: entries.length });
  const dw = $("deadwood");
  const sel = selectedCards(ctx);
  if (dws && sel.length === 1 && dws[sel[0]] !== undefined) {
    dw.textContent = t("hand.deadwood_if", { card: shortCard(sel[0]), n: dws[sel[0]] });
  } else if (msg.aids && msg.aids.deadwood !== undefined && welcome.game === "gin") {
    dw.textContent = t(hand.hand.length === 11 ? "hand.deadwood_after" : "hand.deadwood", { n: msg.aids.deadwood });
  } else if (msg.aids && msg.aids.deadwood !== undefined && welcome.game === "rummy") {
    dw.textContent = t("hand.unmelded", { n: msg.aids.deadwood });
  } else dw.textContent = "";
  // The sort button names the order the hand is in now, and (in its label) what a tap does.
  const modes = sortModes(ctx);
  const next = modes[(modes.indexOf(ui.sortMode) + 1) % modes.length] || "suit";
  const now = t(`hand.sort_${ui.sortMode}`);
  const sort = $("btn-sort");
  sort.textContent = t("hand.sort", { mode: now });
  const what = t("hand.sort_label", { mode: now, next: t(`hand.sort_${next}`) });
  sort.title = what;
  sort.setAttribute("aria-label", what);
}

export function focusHandCard(key) {
  const node = handNodes.get(key);
  if (node) node.focus();
}
