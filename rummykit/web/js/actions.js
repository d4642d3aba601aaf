// What the person does at the table (the intents): taps and buttons become moves sent to the
// server, or a sentence saying why not; hints, phrases, the sort order, the guided game's tips,
// the thrown cards and the score screen's buttons. (intents.js reads what a view allows.)
import { actionCards, cardName, spokenCards } from "./cards.js";
import { focusHandCard, handEntries, selectedCards, sortModes } from "./hand.js";
import { t } from "./i18n.js";
import { has, meldFor, targetsFor, verbs } from "./intents.js";
import { renderPileDialog } from "./pile.js";
import { announce, ctx, notYourTurn, scheduleRender, showAlert, showPromptAlert } from "./rendering.js";
import { renderResult, renderReview, reviewedHand } from "./results.js";
import { contractText } from "./scorebar.js";
import { setSound, soundOn } from "./sound.js";
import { S, SETTINGS, timedOut } from "./state.js";

const $ = (id) => document.getElementById(id);

const REVIEW_WAIT_MS = 20_000; // how long "Review my moves" waits for its answer

// What a person may say at a table of several people (the server's PHRASES, in its order).
export const PHRASES = ["hello", "good_luck", "nice", "oops", "thinking", "your_turn", "thanks", "well_played", "again"];

export function send(message) {
  if (S.conn && S.conn.send(message)) return;
  const conn = $("conn");
  if (conn.hidden) return showAlert(t("conn.reconnecting"));
  // The pill at the top already says the connection is lost: point at it, not a second copy.
  conn.classList.remove("nudge");
  void conn.offsetWidth; // (the animation starts again)
  conn.classList.add("nudge");
  announce(conn.textContent);
}

/** Alone against the computer: take back the last move of this turn (the server says which). */
export function undo() {
  if (!S.msg || S.sentSeq === S.msg.seq) return;
  if (!S.msg.undo) return showAlert(whyNoUndo());
  S.sentSeq = S.msg.seq;
  S.ui.pendingEnds = null;
  send({ t: "undo", seq: S.msg.seq });
}

/** Why nothing can be taken back now. The server's ``undo`` decided; this only says why. */
function whyNoUndo() {
  const others = S.welcome.seats.filter((s, seat) => seat !== S.session.seat);
  if (others.some((s) => s.kind === "human" || s.stand_in)) return t("error.undo_friends");
  return t("error.undo_none");
}

export function act(action) {
  if (!S.msg || !action) return;
  if (timedOut(S.msg) === S.session.seat) return showAlert(t("log.timeout_own"));
  // One move per view: a second click before the answer (a double-click) is not sent again.
  if (S.sentSeq === S.msg.seq) return;
  S.sentSeq = S.msg.seq;
  S.ui.pendingEnds = null;
  // A move made with an action button (Meld, say, which stays): once it is answered, the focus
  // goes back to the hand (see placeLostFocus).
  const button = document.activeElement && document.activeElement.closest("#actions button");
  S.ui.moveButton = button || null;
  send({ t: "action", action, seq: S.msg.seq });
}

export function entryOf(key) {
  return handEntries(S.msg.view.hand, S.ui).find((e) => e.key === key);
}

export function selectionChanged() {
  S.ui.pendingEnds = null;
  S.ui.showMeld = "fits";
  maybeCheckDown();
  scheduleRender();
}

export function tapCard(key) {
  if (!S.msg) return;
  const ui = S.ui;
  const e = entryOf(key);
  if (!e) return;
  ui.focusKey = key;
  if (S.welcome.game === "gin") {
    if (ui.selected.has(key)) {
      if (has(S.msg, `discard ${e.card}`)) return act(`discard ${e.card}`);
      const hand = S.msg.view.hand;
      if (hand.phase === "discard" && hand.to_act === S.session.seat && e.card === hand.taken_from_discard) {
        showAlert(t("error.taken_back")); // a second tap throws a card, but not this one
      }
      ui.selected.clear();
    } else {
      ui.selected = new Set([key]);
    }
  } else if (ui.selected.has(key)) ui.selected.delete(key);
  else ui.selected.add(key);
  selectionChanged();
}

export function discardSelected() {
  if (!S.msg || notYourTurn()) return;
  if (S.msg.view.hand.phase !== "discard") return showPromptAlert(); // what to do first (draw, pass, ...)
  const sel = selectedCards(ctx());
  if (sel.length === 1 && has(S.msg, `discard ${sel[0]}`)) act(`discard ${sel[0]}`);
  else showAlert(whyNoDiscard(sel));
}

/** Why these cards cannot be thrown now, in the discard phase (before it, the prompt says what
 * to do first). The view's legal actions decided; this only says why. */
export function whyNoDiscard(sel) {
  const hand = S.msg.view.hand;
  if (sel.length > 1) return t("error.discard_one");
  if (!sel.length) return t("error.select_one");
  if (sel[0] === hand.taken_from_discard) {
    // Crazy Rummy's two packs: the other copy is refused too (nobody could tell them apart).
    const copies = hand.hand.filter((c) => c === sel[0]).length;
    return copies > 1 ? t("error.taken_twin", { card: cardName(sel[0]) }) : t("error.taken_back");
  }
  return t("error.cannot_discard", { card: cardName(sel[0]) });
}

/** A tap on the stock: a draw, or why there is none. */
export function tapStock() {
  if (!S.msg) return;
  if (has(S.msg, "draw")) return act("draw");
  const hand = S.msg.view.hand;
  if (hand.phase === "hand_over" || notYourTurn()) return;
  if (hand.phase !== "discard") return showPromptAlert(); // what to do instead
  drawnAlready();
}

function drawnAlready() {
  if (S.welcome.game === "gin") return showAlert(t("error.drawn_gin"));
  showAlert(t(S.welcome.game === "crazy" ? "error.drawn_crazy" : "error.drawn"));
}

/** The T key when the discard cannot be taken: why (a tap on the pile may throw instead). */
export function cannotTake() {
  const hand = S.msg && S.msg.view.hand;
  if (!hand || hand.phase === "hand_over" || notYourTurn()) return;
  if (hand.phase === "draw" && hand.offered && hand.hand.every((c) => c === hand.offered)) {
    return showAlert(t("error.take_twin", { card: cardName(hand.offered) }));
  }
  if (hand.phase === "discard") return drawnAlready();
  showPromptAlert();
}

/** A tap on the discard pile: take its card, throw the selected one, or say why neither. */
export function tapPile() {
  if (!S.msg) return;
  if (has(S.msg, "take")) return act("take");
  const hand = S.msg.view.hand;
  if (hand.phase === "hand_over") return;
  const mine = hand.to_act === S.session.seat;
  if (mine && hand.phase === "draw" && hand.offered && hand.hand.every((c) => c === hand.offered)) {
    // Crazy Rummy's twin rule: taking it would leave only cards that may not be thrown.
    return showAlert(t("error.take_twin", { card: cardName(hand.offered) }));
  }
  if (hand.phase === "discard" && mine && !selectedCards(ctx()).length) {
    return showAlert(t("error.pile_select"));
  }
  discardSelected();
}

export function knock() {
  const knocks = verbs(S.msg, "knock").map((a) => a.split(" ")[1]);
  if (!knocks.length) {
    if (notYourTurn()) return;
    const hand = S.msg.view.hand;
    if (hand.phase !== "discard") return showPromptAlert(); // draw first
    // Greyed out: the deadwood left by the best throw is over the table's knock limit.
    const dws = Object.values((S.msg.aids && S.msg.aids.discard_deadwood) || {});
    const limit = S.welcome.options.knock_limit;
    return showAlert(t("error.knock_limit", { limit, count: dws.length ? Math.min(...dws) : 0 }));
  }
  const sel = selectedCards(ctx());
  if (sel.length === 1 && knocks.includes(sel[0])) return act(`knock ${sel[0]}`);
  if (sel.length === 1) return showAlert(t("error.cannot_knock", { card: cardName(sel[0]) }));
  const dws = (S.msg.aids && S.msg.aids.discard_deadwood) || {};
  const best = knocks.reduce((a, b) => ((dws[b] ?? 99) < (dws[a] ?? 99) ? b : a));
  act(`knock ${best}`);
}

export function meld() {
  if (notYourTurn()) return;
  if (S.msg.view.hand.phase !== "discard") return showPromptAlert(); // draw first
  if (!selectedCards(ctx()).length) return showAlert(t("error.select_meld"));
  const action = meldFor(S.msg, selectedCards(ctx()));
  if (action) act(action);
  else showAlert(`${t("error.no_meld")}. ${whyNoMeld()}`);
}

/** Basic Rummy: what a meld is, or, once this turn's new melds are used up (a house rule), that. */
function whyNoMeld() {
  const hand = S.msg.view.hand;
  const limit = S.welcome.options && S.welcome.options.melds_per_turn;
  let made = 0;
  for (let i = hand.history.length - 1; i >= 0 && hand.history[i][0] === S.session.seat; i--) {
    if (hand.history[i][1].startsWith("meld ")) made += 1;
  }
  if (Number.isInteger(limit) && made >= limit) return t("error.meld_limit", { count: limit });
  return t("error.meld_rule");
}

export function pickDown() {
  const down = verbs(S.msg, "down")[0];
  if (!down) return;
  selectCards(actionCards(down));
  announce(t("hand.picked", { cards: actionCards(down).map(cardName).join(", ") })); // (else silent)
}

export function selectCards(cards) {
  const entries = handEntries(S.msg.view.hand, S.ui);
  const chosen = new Set();
  const pool = [...entries];
  for (const c of cards) {
    const i = pool.findIndex((e) => e.card === c);
    if (i >= 0) chosen.add(pool.splice(i, 1)[0].key);
  }
  if (!chosen.size) return;
  S.ui.selected = chosen;
  if (S.welcome.game === "gin" && chosen.size === 1) {
    // Gin's cursor is its selection: the card chosen (by a hint) is the one under the cursor.
    const [key] = chosen;
    S.ui.focusKey = key;
    if ($("hand").contains(document.activeElement)) focusHandCard(key);
  }
  selectionChanged();
}

export function layDown() {
  if (notYourTurn()) return;
  if (S.msg.view.hand.phase !== "discard") return showPromptAlert(); // draw first
  const ui = S.ui;
  if (ui.down && ui.down.action) return act(ui.down.action);
  showAlert(noContractText());
}

/** Why the selected cards do not lay the contract down: what they make instead, as far as the
 * server's answer or the count of cards tells; else what the contract is. */
function noContractText() {
  const contract = S.msg.view.hand.contract;
  const asked = contractText(contract);
  const sel = selectedCards(ctx());
  const least = S.msg.aids.contract.cards; // (the fewest cards that make it, by the rules)
  const answer = S.ui.down && S.ui.down.answer;
  if (sel.length && sel.length < least) return t("error.contract_few", { contract: asked, count: least });
  if (answer && answer.reason === "blocked") return t("error.contract_blocked");
  if (answer && answer.spare) return t("error.contract_spare", { count: answer.spare });
  if (answer && answer.made) {
    const made = answer.made.books + answer.made.runs ? contractText(answer.made) : t("error.contract_nothing");
    return `${t("error.contract_made", { made, contract: asked })} ${t("error.contract_rule")}`;
  }
  return `${t("error.no_contract")} (${asked}). ${t("error.contract_rule")}`;
}

export function maybeCheckDown() {
  if (!S.msg || !S.welcome || S.welcome.game !== "crazy") return;
  const hand = S.msg.view.hand;
  const sel = selectedCards(ctx());
  const key = [...sel].sort().join(" ");
  if (S.ui.down && S.ui.down.key === key && S.ui.down.seq === S.msg.seq) return;
  S.ui.down = null;
  // (asked also when the hand cannot lay the contract down: the answer says what it makes)
  const least = S.msg.aids.contract.cards;
  if (hand.phase !== "discard" || hand.to_act !== S.session.seat || hand.laid_down[S.session.seat] || sel.length < least) return;
  S.ui.down = { key, action: null, seq: S.msg.seq };
  send({ t: "check_down", cards: sel });
}

/** Why a card goes on no place of table meld ``n``: the page says what it can see (the server's
 * legal moves decide). In Crazy Rummy: not laid down yet, or a wild onto a meld that holds the
 * most wilds the rules allow. */
function noFitText(card, n) {
  const base = t("error.no_fit", { card: cardName(card), n });
  const hand = S.msg.view.hand;
  if (S.welcome.game !== "crazy") return base;
  if (!hand.laid_down[S.session.seat]) return `${base}: ${t("error.no_fit_not_down")}`;
  const meld = (hand.table || [])[n - 1];
  const wild = card === "X" || card.startsWith("2");
  if (meld && wild) {
    const limit = S.welcome.options[meld.kind === "book" ? "max_wilds_book" : "max_wilds_run"];
    const held = (meld.wild || []).filter(Boolean).length;
    if (limit > 0 && held >= limit) {
      return `${base}: ${t(meld.kind === "book" ? "error.no_fit_wilds_book" : "error.no_fit_wilds_run", { count: limit })}`;
    }
  }
  return base;
}

export function tapMeld(n) {
  const sel = selectedCards(ctx());
  if (sel.length !== 1) return showAlert(t(sel.length ? "error.layoff_one" : "error.select_one"));
  const targets = targetsFor(S.msg, sel[0], n);
  if (!targets.length) return showAlert(noFitText(sel[0], n));
  S.ui.backToHand = true; // after the lay-off the keyboard goes on in the hand
  if (targets.length === 1) return act(targets[0]);
  // More than one way to play the card on this meld (either end of a run, or a swap).
  S.ui.pendingEnds = targets;
  S.ui.focusChoice = true;
  scheduleRender();
}

/** F: to the melds on the table, first the one the selected card fits. */
export function focusMelds() {
  const melds = [...$("melds-zone").querySelectorAll("button.table-meld")];
  if (!melds.length) return showAlert(t("melds.none"), true);
  (melds.find((b) => b.getAttribute("aria-disabled") !== "true") || melds[0]).focus();
}

/** Arrow keys move along the melds on the table; Escape goes back to the hand. */
export function meldKeys(event) {
  const melds = [...$("melds-zone").querySelectorAll("button.table-meld")];
  const i = melds.indexOf(event.target);
  if (i < 0) return;
  const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
  if (step) {
    event.preventDefault();
    event.stopPropagation();
    melds[(i + step + melds.length) % melds.length].focus();
  } else if (event.key === "Home" || event.key === "End") {
    event.preventDefault();
    event.stopPropagation();
    melds[event.key === "Home" ? 0 : melds.length - 1].focus();
  } else if (event.key === "Escape") {
    event.preventDefault();
    $("hand").querySelector('button.card[tabindex="0"]')?.focus();
  }
}

export function toggleSay(open = $("say-panel").hidden) {
  const panel = $("say-panel");
  panel.hidden = !open;
  $("btn-say").setAttribute("aria-expanded", String(open));
  if (!open) return;
  panel.textContent = "";
  for (const phrase of PHRASES) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "small";
    b.dataset.phrase = phrase;
    b.textContent = t(`say.${phrase}`);
    panel.append(b);
  }
  panel.querySelector("button").focus();
}

export function askHint(who) {
  if (!S.msg) return;
  if (who === "person") S.ui.personHint = S.msg.seq;
  else S.ui.coachAsked = true;
  send({ t: "hint" });
}

const INTRO_STEPS = 4;

/** The guided game's first steps: one short tip at a time (see S.intro). */
export function renderIntro() {
  const { game, step } = S.intro;
  $("intro-title").textContent = t("intro.title", { game: t(`game.${game}`), n: step, count: INTRO_STEPS });
  $("intro-text").textContent = t(`intro.${game}.${step}`);
  $("btn-intro-back").hidden = step === 1;
  $("btn-intro-next").hidden = step === INTRO_STEPS;
  $("btn-intro-done").hidden = step !== INTRO_STEPS;
  ($("btn-intro-next").hidden ? $("btn-intro-done") : $("btn-intro-next")).focus();
}

export function introStep(by) {
  S.intro.step = Math.min(INTRO_STEPS, Math.max(1, S.intro.step + by));
  renderIntro();
  // (the focus stays on the button: the new tip is read out from the dialog's live region)
  announce(spokenCards(`${$("intro-title").textContent}. ${$("intro-text").textContent}`));
}

/** "Thrown cards": the discard pile and each player's throws this hand, in a dialog. */
export function openPile() {
  if (!S.msg) return;
  renderPileDialog(ctx());
  if (!$("dlg-pile").open) $("dlg-pile").showModal();
}

/** The S key at the table: sounds on or off, said aloud and shown. */
export function toggleSound() {
  const on = !soundOn();
  setSound(on);
  $("sound").checked = on;
  showAlert(t(on ? "sound.on" : "sound.off"), true);
}

export function toggleSort() {
  const modes = sortModes(ctx());
  S.ui.sortMode = modes[(modes.indexOf(S.ui.sortMode) + 1) % modes.length] || "suit";
  S.ui.order = [];
  // Remembered per game with the page's settings: a reload, the next hand or the next table of
  // that game sorts the hand the same way.
  S.settings = { ...S.settings, sort: { ...(S.settings.sort || {}), [S.welcome.game]: S.ui.sortMode } };
  localStorage.setItem(SETTINGS, JSON.stringify(S.settings));
  scheduleRender();
  announce(t("hand.sorted", { mode: t(`hand.sort_${S.ui.sortMode}`) })); // (the cards move silently)
}

/** The hand's order chosen last with the sort button for ``game`` (by suit at first). */
export function savedSort(game) {
  const mode = (S.settings.sort || {})[game];
  return sortModes({ welcome: { game } }).includes(mode) ? mode : "suit";
}

/** At a table of several people, the others' pages say who is still reading a hand's score. */
export function tellReading(on) {
  if (S.online && S.conn) S.conn.send({ t: "reading", on });
}

/** Open the score of the hand just over (or, given ``c``, of the hand ``c.msg`` holds). */
export function openResult(c = ctx()) {
  S.rematchJoined = false;
  renderResult(c);
  const dlg = $("dlg-result");
  const next = $("btn-next");
  // The focus goes to the button at the bottom, but the dialog opens at its top (the headline);
  // marked autofocus, the dialog opens on it (not on its first button, then this one).
  next.autofocus = !next.hidden;
  $("btn-rematch").autofocus = next.hidden;
  if (!dlg.open) {
    dlg.showModal();
    tellReading(true);
  }
  (next.hidden ? $("btn-rematch") : next).focus({ preventScroll: true });
  dlg.scrollTop = 0;
}

/** "Review my moves": the server compares each of this seat's decisions in the hand on the
 * score screen with the strongest computer player's. */
export function askReview() {
  if (S.rematchJoined) return; // (the button is hidden then)
  const hand = reviewedHand(ctx());
  if (!hand || S.ui.reviews.has(hand)) return;
  const review = { hand, data: null };
  S.ui.reviews.set(hand, review);
  renderReview(ctx());
  // The button is gone: the focus goes to the review's heading, which the dialog scrolls to.
  $("review-title").focus({ preventScroll: true });
  $("review").scrollIntoView({ block: "nearest" });
  // An answer lost on the way (a dropped socket): the button comes back after a while.
  setTimeout(() => {
    if (S.ui.reviews.get(hand) !== review || review.data) return;
    S.ui.reviews.delete(hand);
    if ($("dlg-result").open) renderReview(ctx());
  }, REVIEW_WAIT_MS);
  send({ t: "review", hand });
}

export function nextHand() {
  if (!S.msg) return;
  const dealt = S.ui.dealtWhileOpen; // already dealt by another person: only close the score
  if ($("dlg-result").open) $("dlg-result").close();
  if (!dealt) send({ t: "next_hand", seq: S.msg.seq });
}
