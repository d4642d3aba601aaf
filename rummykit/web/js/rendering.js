// Drawing and telling: one redraw of the table per animation frame (table.js draws it from
// ctx()), the focus kept in place, the board's scroll cue, the alert over the hand, the live
// region, the Crazy Rummy round banner, the turn's clock and which screen shows.
import { showClock, stopClock } from "./clock.js";
import { setSpoken } from "./dom.js";
import { focusHandCard } from "./hand.js";
import { t } from "./i18n.js";
import { seatName } from "./opponents.js";
import { fitLog, fitMeldBars, promptText } from "./prompt.js";
import { contractText } from "./scorebar.js";
import { play } from "./sound.js";
import { S, timedOut } from "./state.js";
import { render } from "./table.js";

const $ = (id) => document.getElementById(id);

/** What the render modules draw from: the latest messages, the ui state and this seat. */
export function ctx() {
  return {
    welcome: S.welcome,
    msg: S.msg,
    ui: S.ui,
    seat: S.session.seat,
    invites: S.session.invites || [],
    online: S.online,
    reading: S.reading,
    mayGive: (seat) => mayGive(seat),
    games: S.games,
    rematchJoined: S.rematchJoined,
  };
}

/** The context the score screen is drawn in: after a rematch someone else started, the final
 * score of the match that ended stays up (its view and reviews), while ``ctx()`` is the new one. */
export function scoreCtx() {
  const past = S.rematchJoined ? S.ui.pastResult : null;
  return past ? { ...ctx(), msg: past.msg, welcome: past.welcome } : ctx();
}

let frame = 0;
let moves = [];
export function scheduleRender(newMoves = []) {
  moves.push(...newMoves);
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    if (!S.msg || !S.welcome) return;
    const m = moves;
    moves = [];
    render(ctx(), m);
    fitLog(); // (once the rest of the board is drawn: it takes what room is left)
    fitMeldBars();
    // (after the render's own focus keeping, which waits for a microtask too: see melds.js)
    queueMicrotask(placeLostFocus);
    if (S.ui.showPiles) {
      // The piles (and the prompt beside them) are what a person needs at the start of their
      // turn: when the board above the hand is too short for everything, it scrolls to them,
      // with as much as fits of what is above them (the opponents), whatever the board showed
      // before (a meld a selected card fits, lower down). A table that opens with its
      // invitations shows them from their heading instead.
      S.ui.showPiles = false;
      $("board").scrollTop = 0;
      if (S.ui.inviteTop) {
        // (folded on a phone held sideways, whose board is too short for it and the table)
        if (matchMedia("(max-height: 500px)").matches) $("invite-details").open = false;
      } else if (S.msg.view.hand.phase === "layoff") {
        // (Gin's defender: the knocker's melds, which the prompt asks to tap, not the piles)
        $("melds-zone").scrollIntoView({ block: "nearest" });
      } else document.querySelector(".centre-zone").scrollIntoView({ block: "nearest" });
    }
    S.ui.inviteTop = false;
    if (S.ui.showMeld !== null) {
      // The meld the selected card can be laid off on (the first of them), or the one this
      // person has just made or added to: scrolled into sight if the board hides it.
      const which = S.ui.showMeld === "fits" ? ':not([aria-disabled="true"])' : `[data-meld="${S.ui.showMeld}"]`;
      S.ui.showMeld = null;
      document.querySelector(`#melds-zone .table-meld${which}`)?.scrollIntoView({ block: "nearest" });
    }
    updateScrollCue();
  });
}

/** The board's scroll cue: whether more of the table is above or below what the board shows
 * (on each render, scroll and change of size). */
const CUE_SLACK = 8; // px
export function updateScrollCue() {
  const board = $("board");
  const more = [];
  // (a few pixels more are not "more": no shadow over a table that shows whole)
  if (board.scrollTop > CUE_SLACK) more.push("above");
  if (board.scrollHeight - board.clientHeight - board.scrollTop > CUE_SLACK) more.push("below");
  const text = more.join(" ");
  if ($("board-wrap").dataset.more !== text) $("board-wrap").dataset.more = text;
}

let lastFocus = null; // the element that had the focus last (see placeLostFocus)

/** Any focus change on the page: remembered for placeLostFocus. */
export function focusMoved(event) {
  lastFocus = event.target;
}

/** Whether the element can hold the focus now: on the page, shown and not disabled. */
function focusable(el) {
  return el.isConnected && !el.disabled && el.getClientRects().length > 0;
}

/** After a redraw: a focus left nowhere because its element went (Play or Continue on the start
 * screen, the guided game's button, Discard or Lay down once used, a button of a closed
 * dialog), or still on the action button that made a move (Meld), goes to the hand's card
 * under the cursor on this person's move, else to the prompt, so a keyboard or screen reader
 * keeps a place. A focus the person put elsewhere (a click on the felt) is left alone; only
 * buttons get it, so a phone's keyboard never opens. */
function placeLostFocus() {
  if (!S.msg || !S.session || $("table").hidden || document.querySelector("dialog[open]")) return;
  const active = document.activeElement;
  const moved = S.ui.moveButton && S.sentSeq === null ? S.ui.moveButton : null;
  if (moved) S.ui.moveButton = null; // the move's answer has come
  const lost = !active || active === document.body || !focusable(active);
  if (lost ? !lastFocus || focusable(lastFocus) : active !== moved) return;
  const hand = S.msg.view.hand;
  const mine = hand.to_act === S.session.seat && hand.phase !== "hand_over" && hand.legal_actions.length > 0;
  if (mine && S.ui.focusKey) focusHandCard(S.ui.focusKey);
  else $("prompt").focus({ preventScroll: true });
}

/** The live region of the dialog open on top, if any: while a modal dialog is open the page's
 * own live regions are outside what a screen reader may read, so news goes there. */
function dialogLive() {
  const open = [...document.querySelectorAll("dialog[open]")].pop();
  return open ? open.querySelector(":scope > .dialog-live") : null;
}

export function announce(text) {
  if (!text) return;
  const live = dialogLive() || $("live");
  const p = document.createElement("p");
  p.textContent = text;
  live.append(p);
  while (live.children.length > 4) live.firstChild.remove();
}

let alertTimer = 0;
/** A short message over the hand for 6 s: an error (dark red) or, with ``notice``, news;
 * ``spoken``: the same with the cards named in words, for a screen reader. */
export function showAlert(text, notice = false, spoken = text) {
  const box = $("alert");
  setSpoken(box, text, spoken);
  if (dialogLive()) announce(spoken); // (the alert box, outside the dialog, is not read then)
  box.classList.toggle("notice", notice);
  clearTimeout(alertTimer);
  alertTimer = setTimeout(() => (box.textContent = ""), 6000);
}

/** Take the alert away now (its news is out of date), or only if it says ``text``. */
export function clearAlert(text = null) {
  const box = $("alert");
  if (text !== null && box.textContent !== text) return;
  clearTimeout(alertTimer);
  box.textContent = "";
}

let bannerTimer = 0;
/** A new Crazy Rummy round: its number and contract in a banner over the table for a moment. */
export function roundBanner(m) {
  const hand = m.view.hand;
  if (!S.welcome || S.welcome.game !== "crazy" || !hand.contract || hand.phase === "hand_over") return;
  const banner = $("banner");
  banner.textContent = "";
  const main = document.createElement("div");
  main.className = "banner-main";
  main.textContent = t("score.round", { n: hand.round, total: 7 });
  const sub = document.createElement("div");
  sub.className = "banner-sub";
  sub.textContent = t("score.contract", { contract: contractText(hand.contract) });
  banner.append(main, sub);
  banner.hidden = false;
  banner.style.animation = "none"; // (restarted: a banner still showing begins again)
  void banner.offsetWidth;
  banner.style.animation = "";
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(() => (banner.hidden = true), 2800);
}

/** An error over the hand goes as soon as a move of this person is accepted (news stays). */
export function clearError() {
  const box = $("alert");
  if (!box.textContent || box.classList.contains("notice")) return;
  box.textContent = "";
  clearTimeout(alertTimer);
}

let notTurnAt = 0;
/** A tap or key that would act when it is not this seat's turn says whose turn it is (at most
 * once in 2 s); true if it is not this seat's turn. */
export function notYourTurn() {
  const hand = S.msg && S.msg.view.hand;
  if (!hand || !S.welcome || hand.phase === "hand_over") return false;
  if (hand.to_act === S.session.seat && timedOut(S.msg) === S.session.seat) {
    // The time for this turn ran out: the computer is finishing it.
    showAlert(t((S.msg.away || []).includes(S.session.seat) ? "away.title" : "log.timeout_own"));
    return true;
  }
  if (hand.to_act === S.session.seat) return false;
  if (typeof hand.to_act !== "number") return false;
  if (Date.now() - notTurnAt >= 2000) {
    notTurnAt = Date.now();
    showAlert(t("error.wait_turn", { name: seatName(ctx(), hand.to_act) }));
  }
  return true;
}

export function showScreen(name) {
  if (name === "start") S.started = false;
  $("loading").hidden = true;
  $("start").hidden = name !== "start";
  $("join").hidden = name !== "join";
  $("table").hidden = name !== "table";
  document.body.dataset.screen = name;
}

/** The prompt (what to do now) as a message over the hand, its cards named in words for a
 * screen reader. */
export function showPromptAlert(notice = false) {
  showAlert(promptText(ctx()), notice, promptText(ctx(), true));
}

/** A table with friends and a time for a turn: the clock of the person to act, as the server
 * last told it. */
export function updateClock() {
  const clock = S.msg && S.msg.clock;
  if (!clock || clock.out || S.msg.view.hand.phase === "hand_over") return stopClock();
  showClock(clock, clock.seat === S.session.seat, (seconds) => {
    announce(t("turn_time.low", { count: seconds }));
    play("turn");
  });
}

/** When each other person's page was last seen to close (seat -> Date.now()); a seat gone
 * since before this page connected counts from when it learnt so. */
const goneSince = new Map();
const giveTimers = new Map(); // seat -> the render due when its button may show

export function noteGone(online) {
  if (!S.welcome) return;
  S.welcome.seats.forEach((s, seat) => {
    if (online.has(seat) || s.kind !== "human") goneSince.delete(seat);
    else if (!goneSince.has(seat)) goneSince.set(seat, Date.now());
  });
}

/** May this page let the computer play ``seat`` now? The server keeps a person's seat for
 * ``give_after`` seconds after their page closed (a phone that locked its screen for a
 * moment), unless their turn's time ran out; the button shows once it may (a render is due
 * then). */
function mayGive(seat) {
  const ranOut = (S.msg?.away || []).includes(seat) || (S.msg?.clock?.out && S.msg.clock.seat === seat);
  const wait = Number(S.welcome?.give_after) || 0;
  const left = (goneSince.get(seat) ?? Date.now()) + wait * 1000 - Date.now();
  if (ranOut || left <= 0) return true;
  if (!giveTimers.has(seat)) {
    giveTimers.set(seat, setTimeout(() => {
      giveTimers.delete(seat);
      scheduleRender();
    }, left + 50));
  }
  return false;
}
