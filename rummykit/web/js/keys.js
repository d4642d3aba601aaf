// Keys and drags: the hand's arrow keys, the page's one-letter keys (and their help, the ?
// key), and a card dragged onto the discard pile or to another place in the hand.
import { act, askHint, cannotTake, discardSelected, entryOf, focusMelds, knock, layDown, meld, nextHand, openPile, openResult, selectionChanged, send, tapCard, tapStock, toggleSort, toggleSound, undo, whyNoDiscard } from "./actions.js";
import { focusHandCard, handEntries } from "./hand.js";
import { t } from "./i18n.js";
import { has } from "./intents.js";
import { notYourTurn, scheduleRender, showAlert, showPromptAlert } from "./rendering.js";
import { S } from "./state.js";

const $ = (id) => document.getElementById(id);

export function handKeys(event) {
  const target = event.target.closest("button.card");
  if (!target || !S.msg) return;
  const entries = handEntries(S.msg.view.hand, S.ui);
  const index = entries.findIndex((e) => e.key === target.dataset.key);
  let next = -1;
  switch (event.key) {
    case "ArrowLeft":
    case "ArrowUp":
      next = Math.max(0, index - 1);
      break;
    case "ArrowRight":
    case "ArrowDown":
      next = Math.min(entries.length - 1, index + 1);
      break;
    case "Home":
      next = 0;
      break;
    case "End":
      next = entries.length - 1;
      break;
    case " ":
      event.preventDefault();
      if (S.welcome.game === "gin") {
        S.ui.selected = S.ui.selected.has(target.dataset.key) ? new Set() : new Set([target.dataset.key]);
        selectionChanged();
      } else tapCard(target.dataset.key);
      return;
    case "Enter":
      event.preventDefault();
      event.stopPropagation();
      // With nothing selected, Enter throws the card under the cursor (in every game).
      if (!S.ui.selected.size) S.ui.selected = new Set([target.dataset.key]);
      discardSelected();
      return;
    default:
      return;
  }
  event.preventDefault();
  const key = entries[next].key;
  S.ui.focusKey = key;
  if (S.welcome.game === "gin") {
    S.ui.selected = new Set([key]);
    selectionChanged();
  } else scheduleRender();
  // focus now so the next key press goes to the new card (the redraw keeps the node)
  focusHandCard(key);
}

// Whether the person moves by keys now (the last input was a key, not a tap or a click).
let byKeyboard = false;

/** A key pressed anywhere (seen before anything else handles it): the person uses the keys. */
export function keyPressed() {
  byKeyboard = true;
}

/** A tap or a click anywhere: the person no longer uses the keys. */
export function pointerPressed() {
  byKeyboard = false;
}

/** Gin: the card under the cursor is the selected card. When the focus lands on a card while
 * the person uses the keys (entering the hand, after a lay-off or a discard, a dialog closing),
 * that card is selected, as an arrow move does; a tap selects by itself (see tapCard). */
export function cardFocused(event) {
  const card = event.target.closest("button.card");
  if (!card || !byKeyboard || !S.msg || !S.welcome || S.welcome.game !== "gin") return;
  const key = card.dataset.key;
  if (!entryOf(key)) return;
  S.ui.focusKey = key;
  if (S.ui.selected.size === 1 && S.ui.selected.has(key)) return;
  S.ui.selected = new Set([key]);
  selectionChanged();
}

export function globalKeys(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const tag = event.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (key === "?") {
    event.preventDefault();
    if (!$("dlg-keys").open) openKeys();
    return;
  }
  if ($("dlg-result").open) {
    if (key === "n" && !$("btn-next").hidden) nextHand();
    return;
  }
  if (document.querySelector("dialog[open]") || $("table").hidden || !S.msg) return;
  const hand = S.msg.view.hand;
  const actions = {
    // (each says why when it cannot act, as a tap on a pile does)
    d: () => tapStock(),
    t: () => (has(S.msg, "take") ? act("take") : cannotTake()),
    p: () => (has(S.msg, "pass") ? act("pass") : notYourTurn() || showPromptAlert()),
    b: () => S.welcome.game === "crazy" && (has(S.msg, "buy") ? act("buy") : notYourTurn()),
    k: () => S.welcome.game === "gin" && knock(),
    m: () => S.welcome.game === "rummy" && meld(),
    l: () => S.welcome.game === "crazy" && layDown(),
    o: () => has(S.msg, "done") && act("done"),
    a: () => hand.phase === "layoff" && hand.to_act === S.session.seat && send({ t: "best_layoffs", seq: S.msg.seq }),
    u: () => undo(),
    h: () => askHint("person"),
    r: () => toggleSort(),
    f: () => focusMelds(),
    n: () => hand.phase === "hand_over" && openResult(),
    s: () => toggleSound(),
    v: () => openPile(),
  };
  if (actions[key]) {
    event.preventDefault();
    actions[key]();
    return;
  }
  // The prompt holds the focus when it is not this person's move (see placeLostFocus): keys
  // there act as with the focus nowhere.
  const nowhere = event.target === document.body || event.target === $("prompt");
  if (key === "Enter" && nowhere) {
    event.preventDefault();
    discardSelected();
    return;
  }
  // An arrow key with the focus nowhere (after D, T or a click on the table) moves into the hand.
  const arrows = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
  if (arrows.includes(key) && nowhere) {
    const entries = handEntries(hand, S.ui);
    if (!entries.length) return;
    event.preventDefault();
    const key0 = entries.some((e) => e.key === S.ui.focusKey) ? S.ui.focusKey : entries[0].key;
    S.ui.focusKey = key0;
    focusHandCard(key0);
  }
}

let drag = null;
let suppressClick = false;

/** A click on the hand: a tap on a card (not the click that ends a drag). */
export function tapHand(event) {
  if (suppressClick) return;
  const card = event.target.closest("button.card");
  if (card) tapCard(card.dataset.key);
}

export function dragStart(event) {
  const card = event.target.closest("button.card");
  if (!card || event.button > 0) return;
  drag = { key: card.dataset.key, el: card, x: event.clientX, y: event.clientY, id: event.pointerId, active: false };
}

export function dragMove(event) {
  if (!drag || event.pointerId !== drag.id) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.active) {
    if (Math.hypot(dx, dy) < 8) return;
    drag.active = true;
    drag.el.setPointerCapture(event.pointerId);
    drag.el.classList.add("dragging");
  }
  drag.el.style.transform = `translate(${dx}px, ${dy}px)`;
}

export function dragEnd(event) {
  if (!drag || event.pointerId !== drag.id) return;
  const d = drag;
  drag = null;
  if (!d.active) return;
  suppressClick = true;
  setTimeout(() => (suppressClick = false), 0);
  d.el.classList.remove("dragging");
  d.el.style.transform = "";
  const pile = $("discard").getBoundingClientRect();
  const e = entryOf(d.key);
  if (
    e &&
    event.clientX >= pile.left &&
    event.clientX <= pile.right &&
    event.clientY >= pile.top &&
    event.clientY <= pile.bottom
  ) {
    if (has(S.msg, `discard ${e.card}`)) act(`discard ${e.card}`);
    else if (notYourTurn()) return;
    else if (S.msg.view.hand.phase !== "discard") showPromptAlert();
    else showAlert(whyNoDiscard([e.card]));
    return;
  }
  // Reorder: the card goes before the nearest card under the pointer.
  const entries = handEntries(S.msg.view.hand, S.ui);
  const others = entries.filter((x) => x.key !== d.key);
  let best = others.length;
  let bestDistance = Infinity;
  others.forEach((x, i) => {
    const node = document.querySelector(`#hand button.card[data-key="${CSS.escape(x.key)}"]`);
    if (!node) return;
    const r = node.getBoundingClientRect();
    const cx = r.left + r.width / 2;
    const cy = r.top + r.height / 2;
    const dist = Math.hypot(event.clientX - cx, (event.clientY - cy) * 2);
    if (dist < bestDistance) {
      bestDistance = dist;
      best = event.clientX < cx ? i : i + 1;
    }
  });
  const order = others.map((x) => x.key);
  order.splice(best, 0, d.key);
  S.ui.order = order;
  S.ui.sortMode = "custom";
  scheduleRender();
}

/** A drag the browser took over (a scroll, a gesture): the card goes back to its place. */
export function dragCancel() {
  if (drag && drag.active) {
    drag.el.classList.remove("dragging");
    drag.el.style.transform = "";
  }
  drag = null;
}

export function renderKeys() {
  const list = $("keys-list");
  list.textContent = "";
  // N is worded for the game at the table (or chosen on the start screen): in Crazy Rummy the
  // next round, else the next hand.
  const atTable = S.welcome && !$("table").hidden;
  const game = atTable ? S.welcome.game : document.querySelector('input[name="game"]:checked')?.value;
  const keys = ["arrows", "space", "enter", "d", "t", "p", "b", "k", "m", "l", "f", "o", "a", "u", "h", "r", "s", "v", "n", "?"];
  for (const k of keys) {
    const dt = document.createElement("dt");
    dt.textContent = t(`keys.${k}.key`);
    const dd = document.createElement("dd");
    dd.textContent = k === "n" && game === "crazy" ? t("keys.n_crazy") : t(`keys.${k}`);
    list.append(dt, dd);
  }
}

/** The keys' help (the button, or ?), worded for the game now. */
export function openKeys() {
  renderKeys();
  $("dlg-keys").showModal();
}
