// The page's controller: screens, the seat's connection, intents from taps, keys and drags.
// It holds the latest view message (from the server) and the local-only ui state, and asks the
// render modules for one redraw per animation frame.
import { actionCards, cardName, shownText, spokenCards } from "./cards.js";
import { durationText, showClock, stopClock } from "./clock.js";
import { currentLanguage, has as hasText, onLanguage, preferredLanguage, setLanguage, t, translateStatic } from "./i18n.js";
import { has, meldFor, targetsFor, verbs } from "./intents.js";
import { celebrate } from "./motion.js";
import { renderPileDialog } from "./pile.js";
import { decidedByStandIn, renderResult, renderReview, resultTitle, reviewedHand } from "./results.js";
import { Connection } from "./socket.js";
import { play, setSound, soundOn } from "./sound.js";
import { clearStats, recordResult, renderStats } from "./stats.js";
import { keptSelection } from "./selection.js";
import { PACES, countHouse, dealAsked, opponentsText, readStart, renderChoice, renderFields, renderFriends, renderHouse, renderStart, showContinue, showFriendFields } from "./start.js";
import { contractText, describe, el, fitLog, fitMeldBars, focusHandCard, handEntries, mustPass, promptText, render, seatName, selectedCards, setSpoken, sortModes } from "./table.js";

const $ = (id) => document.getElementById(id);
const SESSIONS = "rummykit.sessions"; // every seat this browser holds, newest first
const CURRENT = "rummykit.current"; // sessionStorage: the table this tab shows (for a reload)
const OLD_SESSION = "rummykit.session"; // the one seat kept before there could be several
const MAX_SESSIONS = 20;
const KEEP_FINISHED_MS = 3 * 24 * 3600 * 1000; // a finished table's seat, to follow a rematch
const MAX_FINISHED_SHOWN = 3; // the last matches the start screen offers to see again
const SETTINGS = "rummykit.settings";
const REVIEW_WAIT_MS = 20_000; // how long "Review my moves" waits for its answer
const LOG_BEFORE = 40; // lines of earlier hands kept above a new hand's (the hand's own: all)
// What a person may say at a table of several people (the server's PHRASES, in its order).
const PHRASES = ["hello", "good_luck", "nice", "oops", "thinking", "your_turn", "thanks", "well_played", "again"];
const SAID_MS = 5000; // how long a phrase stays by its speaker's name

const S = {
  games: [],
  settings: loadSettings(),
  session: null,
  invitation: null,
  online: null, // the seats connected now (tables of several people), or null if not told
  reading: new Set(), // the seats whose page shows a hand's score (tables of several people)
  conn: null,
  welcome: null,
  msg: null,
  sentSeq: null, // the view a move was sent for, until an answer comes (see act)
  rematchJoined: false, // this page moved to a rematch while the final score stayed up
  rematchAsked: false, // this page asked for the rematch
  intro: null, // a guided game's first steps: {game, step, start: its settings until closed}
  ui: newUi(),
};

function newUi() {
  return {
    selected: new Set(),
    joinedAt: new Map(), // seat: when this page said that person joined (not "back" too)
    order: [],
    sortMode: "suit",
    focusKey: null,
    focusIndex: null, // where the cursor was at the last redraw (it keeps its place there)
    gained: new Set(),
    log: [],
    down: null,
    pendingEnds: null,
    focusChoice: false,
    backToHand: false, // a lay-off was sent from a meld: the focus goes back to the hand
    moveButton: null, // the action button that sent the move awaiting its answer (see act)
    showPiles: false, // scroll the board to the piles after the next render
    inviteTop: false, // ... or to its top, where the invitations open (see onView)
    showMeld: null, // after the next render, scroll to a table meld: its number, or "fits"
    resultShown: null,
    inviteShown: null,
    dealtWhileOpen: false,
    noBuyRound: null, // Crazy Rummy: the round in which this person asked not to be asked to buy
    melds: null, // Gin and Basic Rummy: the server's best melds of the hand, to sort it by melds
    personHint: null, // the view the person asked for a hint on (its answer selects cards)
    coachSeq: null, // the view the coach's advice was last asked for
    coachAsked: false, // the coach's advice is on its way (see askHint)
    backSent: false, // "I'm back" was pressed and the table has not answered yet
    said: new Map(), // seat -> the phrase it said a moment ago (see onSaid)
    reviews: new Map(), // hand number -> {hand, data, onlyDifferent}: its review (data once sent)
    reviewPick: null, // {shown, hand}: the hand picked for review on the score of hand ``shown``
    pastReviews: null, // the reviews of the match whose final score stays up after a rematch
    pastResult: null, // ... and its last view and welcome (see scoreCtx)
  };
}

/** The requests on their way, by name: a second press of the same button while the first is
 * answered sends nothing (a double-click on Play made two tables). */
const pending = new Set();

/** POST ``body`` to ``url`` once at a time per ``name``: {status, data}, status 0 when the server
 * could not be reached, or null when the same request is still on its way. */
async function post(name, url, body) {
  if (pending.has(name)) return null;
  pending.add(name);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    let data = {};
    try {
      data = await response.json();
    } catch {
      // (an answer that is not JSON: a proxy's error page)
    }
    const retry = Number(response.headers.get("Retry-After")) || 0; // (a 429's wait, in seconds)
    return { status: response.status, data: data && typeof data === "object" ? data : {}, retry };
  } catch {
    return { status: 0, data: {} };
  } finally {
    pending.delete(name);
  }
}

/** What went wrong with a request: ``key``'s words, the server's reason in English, or that the
 * server could not be reached. */
function failed(key, answer) {
  if (answer.status === 0) return showAlert(t("error.network"));
  if (answer.status === 429) return showAlert(t("error.limited", { seconds: Math.max(1, answer.retry || 60) }));
  const reason = typeof answer.data.error === "string" ? answer.data.error : "";
  showAlert(t(key) + (currentLanguage() === "en" && reason ? `: ${reason}` : ""));
}

/** A name the server refused: one short sentence, in the page's language, of what to change
 * (the server's ``why``; a reason this page does not know yet reads "Choose another name"). */
function nameRefused(data, name) {
  const key = `name.why.${data.why}`;
  showAlert(hasText(key) ? t(key, { name }) : t("name.why"));
}

/** The start screen's choices as last made, in their own shape (a value from an older page, or
 * edited by hand, is dropped rather than stopping the page). */
function loadSettings() {
  const plain = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);
  const saved = loadJSON(SETTINGS);
  // A first visit: Gin against one computer at Medium (Easy is for the guided game).
  if (!plain(saved)) return { game: "gin", opponents: 1, level: "medium", options: {} };
  const settings = { ...saved };
  if (!plain(settings.options)) settings.options = {};
  if (!plain(settings.sort)) delete settings.sort;
  for (const key of ["game", "variant", "preset", "level", "name", "pace"]) {
    if (key in settings && typeof settings[key] !== "string") delete settings[key];
  }
  return settings;
}

function loadJSON(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch {
    return null;
  }
}

function ctx() {
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
function scoreCtx() {
  const past = S.rematchJoined ? S.ui.pastResult : null;
  return past ? { ...ctx(), msg: past.msg, welcome: past.welcome } : ctx();
}

// --------------------------------------------------------------------------------- rendering

let frame = 0;
let moves = [];
function scheduleRender(newMoves = []) {
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
    // (after the render's own focus keeping, which waits for a microtask too: see table.js)
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
function updateScrollCue() {
  const board = $("board");
  const more = [];
  // (a few pixels more are not "more": no shadow over a table that shows whole)
  if (board.scrollTop > CUE_SLACK) more.push("above");
  if (board.scrollHeight - board.clientHeight - board.scrollTop > CUE_SLACK) more.push("below");
  const text = more.join(" ");
  if ($("board-wrap").dataset.more !== text) $("board-wrap").dataset.more = text;
}

let lastFocus = null; // the element that had the focus last (see placeLostFocus)

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

function announce(text) {
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
function showAlert(text, notice = false, spoken = text) {
  const box = $("alert");
  setSpoken(box, text, spoken);
  if (dialogLive()) announce(spoken); // (the alert box, outside the dialog, is not read then)
  box.classList.toggle("notice", notice);
  clearTimeout(alertTimer);
  alertTimer = setTimeout(() => (box.textContent = ""), 6000);
}

/** Take the alert away now (its news is out of date), or only if it says ``text``. */
function clearAlert(text = null) {
  const box = $("alert");
  if (text !== null && box.textContent !== text) return;
  clearTimeout(alertTimer);
  box.textContent = "";
}

let bannerTimer = 0;
/** A new Crazy Rummy round: its number and contract in a banner over the table for a moment. */
function roundBanner(m) {
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
function clearError() {
  const box = $("alert");
  if (!box.textContent || box.classList.contains("notice")) return;
  box.textContent = "";
  clearTimeout(alertTimer);
}

let notTurnAt = 0;
/** A tap or key that would act when it is not this seat's turn says whose turn it is (at most
 * once in 2 s); true if it is not this seat's turn. */
function notYourTurn() {
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

function showScreen(name) {
  if (name === "start") started = false;
  $("loading").hidden = true;
  $("start").hidden = name !== "start";
  $("join").hidden = name !== "join";
  $("table").hidden = name !== "table";
  document.body.dataset.screen = name;
}

// ------------------------------------------------------------------------------------- start

async function boot() {
  await setLanguage(preferredLanguage());
  markLanguage();
  if (localStorage.getItem("rummykit.fourColour") === "1") setFourColour(true);
  const response = await fetch("/api/games");
  S.games = (await response.json()).games;
  renderStart(S.games, S.settings);
  if (!(await openInvitation())) {
    showScreen("start");
    // A reload (or a tab restored) goes back to the game this tab was showing.
    const current = sessionStorage.getItem(CURRENT);
    const session = current && sessions().find((x) => x.table === current);
    if (session) connect(session);
    else if (history.state && history.state[TABLE_STATE]) history.replaceState(null, "");
  }
  await refreshContinue();
  renderKeys();
}

// ---------------------------------------------------------------------------------- sessions
// A session is one seat this browser holds: {table, seat, token, invites}. There may be several
// (a game against the computer, and a seat at a friend's table), so none is ever overwritten.

function sessions() {
  let list = loadJSON(SESSIONS);
  if (!Array.isArray(list)) list = [];
  const old = loadJSON(OLD_SESSION);
  if (old && old.table) {
    list = [old, ...list.filter((x) => x.table !== old.table)];
    localStorage.setItem(SESSIONS, JSON.stringify(list));
    localStorage.removeItem(OLD_SESSION);
  }
  return list.filter((x) => x && typeof x.table === "string" && typeof x.token === "string");
}

function saveSession(session) {
  const list = [session, ...sessions().filter((x) => x.table !== session.table)];
  // Over the limit, finished tables' seats go first, then the oldest.
  while (list.length > MAX_SESSIONS) {
    const finished = list.map((x) => Boolean(x.finished)).lastIndexOf(true);
    list.splice(finished > 0 ? finished : list.length - 1, 1);
  }
  localStorage.setItem(SESSIONS, JSON.stringify(list));
}

function updateSession(table, change) {
  const list = sessions().map((x) => (x.table === table ? { ...x, ...change } : x));
  localStorage.setItem(SESSIONS, JSON.stringify(list));
}

function dropSession(table) {
  localStorage.setItem(SESSIONS, JSON.stringify(sessions().filter((x) => x.table !== table)));
}

/** The table's public facts, "gone" if the server does not know it (404), or null when it
 * could not be asked (network, restart): a seat is forgotten only when its table is gone. */
async function tableInfo(table) {
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(table)}`);
    if (response.status === 404) return "gone";
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

/** The start screen's unfinished games: each stored seat still at an unfinished table, and
 * below them the last matches this browser finished (a few days): "See the result" opens such a
 * table again on its final score (Review my moves, Rematch). A finished table's seat follows
 * its rematch when one is started, even by someone else later. */
async function refreshContinue() {
  const found = [];
  const finished = [];
  for (const session of sessions()) {
    let info = await tableInfo(session.table);
    let current = session;
    if (info && info !== "gone" && info.over && info.next) {
      current = { ...session, table: info.next, invites: [], finished: undefined, celebrated: undefined, ended: 0 };
      dropSession(session.table);
      saveSession(current);
      info = await tableInfo(current.table);
    }
    if (info === "gone") {
      dropSession(current.table);
    } else if (info && info.over) {
      if (!current.finished) {
        current = { ...current, finished: Date.now() };
        updateSession(current.table, { finished: current.finished });
      }
      if (Date.now() - current.finished > KEEP_FINISHED_MS) dropSession(current.table);
      else finished.push({ session: current, info });
    } else if (info) {
      found.push({ session: current, info });
    }
  }
  finished.sort((a, b) => b.session.finished - a.session.finished);
  showContinue(found, finished.slice(0, MAX_FINISHED_SHOWN));
}

/** True from a Play press that made a table until the start screen shows again: a second
 * press (a double click) while the new table's first view is on its way makes no other. */
let started = false;

async function startGame(settings, deal = dealAsked()) {
  if (started) return;
  settings = { ...settings, sort: S.settings.sort }; // (the form has no sort order)
  S.settings = settings;
  localStorage.setItem(SETTINGS, JSON.stringify(settings));
  const answer = await post("create", "/api/tables", {
    game: settings.variant,
    opponents: settings.opponents,
    level: settings.level,
    options: settings.options,
    friends: settings.friends || 0,
    name: settings.friends ? settings.name || null : null,
    turn_time: settings.friends ? settings.turn_time || 0 : 0,
    deal: settings.friends ? null : deal, // (none with friends: the server refuses one)
  });
  if (!answer) return; // (a second press while the first is answered)
  const data = answer.data;
  if (answer.status !== 201 && data.field === "name") return nameRefused(data, settings.name);
  if (answer.status !== 201) return failed("error.create", answer);
  started = true;
  clearAlert(); // (a name refused on the way here is out of date)
  // The invitation links live only here (the server keeps their hashes): kept with the session
  // so that they survive a reload until every friend has joined.
  const invites = (data.invites || []).map((i) => ({ seat: i.seat, link: inviteLink(data.table, i.code) }));
  // (``ended``: no hand of the new table has ended yet, see missedHand)
  const session = { table: data.table, seat: data.seat, token: data.token, invites, ended: 0 };
  saveSession(session);
  connect(session);
}

function inviteLink(table, code) {
  return `${location.origin}/#join=${table}.${code}`;
}

// ---------------------------------------------------------------------------------- joining

const JOIN = /^#join=([0-9a-f]{1,64})\.([A-Za-z0-9_-]{1,64})$/;

/** A page opened from an invitation link: the join screen (or Continue, if already seated). A
 * link cut short (a chat app broke it) says so. */
async function openInvitation() {
  const found = JOIN.exec(location.hash);
  if (!found) {
    if (!location.hash.startsWith("#join=")) return false;
    history.replaceState(null, "", location.pathname + location.search);
    showAlert(t("join.broken"));
    return false;
  }
  history.replaceState(null, "", location.pathname + location.search);
  const [, table, code] = found;
  if (sessions().some((x) => x.table === table)) {
    showAlert(t("join.already")); // already seated there (the friend, or the creator's own link)
    return false;
  }
  const info = await tableInfo(table);
  if (!info || info === "gone" || info.over) {
    showAlert(t("join.gone"));
    return false;
  }
  const open = info.seats.filter((s) => s.kind === "human" && !s.joined).length;
  if (!open) {
    showAlert(t("join.taken"));
    return false;
  }
  S.invitation = { table, code };
  const host = info.seats[0].name;
  // The game with its rules' preset (Basic Rummy has two), and who else is at the table.
  const preset = hasText(`preset.${info.variant}`) ? ` · ${t(`preset.${info.variant}`)}` : "";
  const game = t(`game.${info.game}`) + preset;
  const invited = host ? t("join.text_from", { name: host, game }) : t("join.text", { game });
  const seat = info.seats.findIndex((s) => s.kind === "human" && !s.joined);
  const others = ` ${t("join.with", { names: opponentsText(info, seat) })}`;
  const timed = info.turn_time ? ` ${t("join.turn_time", { limit: durationText(info.turn_time) })}` : "";
  $("join-text").textContent = invited + others + timed;
  $("join-name").value = S.settings.name || "";
  showScreen("join");
  $("join-name").focus();
  return true;
}

async function joinTable() {
  const inv = S.invitation;
  if (!inv) return;
  const name = $("join-name").value.trim();
  if (name) {
    S.settings = { ...S.settings, name };
    localStorage.setItem(SETTINGS, JSON.stringify(S.settings));
  }
  const answer = await post("join", `/api/tables/${encodeURIComponent(inv.table)}/join`, { code: inv.code, name: name || null });
  if (!answer || S.invitation !== inv) return; // (a second press, or the join screen was left)
  const data = answer.data;
  if (answer.status === 0 || answer.status === 429) return failed("join.gone", answer); // (try again)
  if (answer.status !== 200) {
    if (answer.status === 409) return showAlert(t("join.name_taken", { name })); // (choose another)
    if (answer.status === 400 && data.field === "name") return nameRefused(data, name);
    if (answer.status === 400) return failed("join.gone", answer);
    // 403: the code matches no open seat: taken since the page opened, or the link cut short.
    showAlert(answer.status === 403 ? t("join.not_valid") : t("join.gone"));
    cancelJoin();
    return;
  }
  S.invitation = null;
  clearAlert(); // (a name refused on the way here is out of date)
  const session = { table: data.table, seat: data.seat, token: data.token, invites: [], ended: 0 };
  saveSession(session);
  connect(session);
}

function cancelJoin() {
  S.invitation = null;
  renderStart(S.games, S.settings);
  showScreen("start");
  refreshContinue();
}

// One history entry for the table, above the start screen's: the browser's Back goes from a
// table to the start screen (the game stays on the server, to Continue), or first closes a
// dialog open on it; Forward goes back to the table. A reload keeps the entry.
const TABLE_STATE = "rummykitTable";

function tableInHistory(table) {
  const state = { [TABLE_STATE]: table };
  if (history.state && history.state[TABLE_STATE]) history.replaceState(state, "");
  else history.pushState(state, "");
}

function onHistory(event) {
  // An address with a "#" part typed or pasted in (an invitation, see the hashchange listener,
  // or a link cut short): not a step back, since a table's entry has none.
  if (location.hash) return;
  const table = event.state && event.state[TABLE_STATE];
  const atTable = document.body.dataset.screen === "table" || S.conn;
  if (!table && atTable) {
    const open = [...document.querySelectorAll("dialog[open]")];
    if (open.length && S.session) {
      open.forEach((d) => d.close());
      history.pushState({ [TABLE_STATE]: S.session.table }, "");
      return;
    }
    leaveTable();
  } else if (table && !atTable) {
    const session = sessions().find((x) => x.table === table);
    if (session) {
      saveSession(session);
      connect(session);
    }
  }
}

function connect(session) {
  if (S.conn) S.conn.close();
  stopClock(); // the next table's first view says whether a clock runs there
  tableInHistory(session.table);
  sessionStorage.setItem(CURRENT, session.table);
  S.session = session;
  S.online = null;
  S.reading = new Set();
  S.welcome = null;
  S.msg = null;
  S.sentSeq = null;
  S.rematchAsked = false;
  S.ui = newUi();
  $("log").textContent = "";
  $("hand").textContent = "";
  S.conn = new Connection({
    ...session,
    // The computer's pace this person chose on the start screen (the table follows its slowest).
    hello: () => ({ pace: PACES.includes(S.settings.pace) ? S.settings.pace : "normal" }),
    onMessage,
    onStatus: (status) => {
      const conn = $("conn");
      conn.hidden = status === "open";
      conn.textContent = t(`conn.${status}`);
      clearAlert(t("conn.reconnecting")); // the pill says it now, or it is over: not twice
    },
    onReplaced: () => {
      // The same seat was opened in another window: that one plays; this one offers Continue.
      leaveTable();
      showAlert(t("conn.replaced"));
    },
    onRefused: () => {
      dropSession(session.table);
      showAlert(t("error.auth"));
      leaveTable();
    },
  });
  S.conn.open();
}

/** Copy an invitation link (or hand it to the phone's share sheet). */
async function shareLink(link, viaShare) {
  if (viaShare && navigator.share) {
    try {
      await navigator.share({ title: "rummykit", text: t("invite.share_text"), url: link });
      return;
    } catch {
      // cancelled: fall through to copying
    }
  }
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch {
    // No clipboard API (plain http on another address): select the text for the person to copy.
    const input = [...document.querySelectorAll("#invite-list input")].find((i) => i.value === link);
    if (input) {
      input.focus();
      input.select();
      copied = document.execCommand && document.execCommand("copy");
    }
  }
  showAlert(copied ? t("invite.copied") : t("invite.copy_by_hand"), copied);
}

/** The next match at this table, with the same people (the server makes it once). */
/** The match just over, dealt again at a new table: the same game, options and computers. */
function dealAgain(deal) {
  const w = S.welcome;
  if (!w || !Number.isInteger(deal)) return;
  const computer = w.seats.find((s) => s.kind === "computer");
  const settings = {
    ...S.settings,
    game: w.game,
    variant: w.variant,
    preset: w.variant,
    opponents: w.seats.length - 1,
    friends: 0,
    level: computer ? computer.level : S.settings.level,
    options: w.options,
  };
  $("dlg-result").close();
  started = false; // (straight to the new table: its history entry takes this table's place)
  startGame(settings, deal);
}

async function rematch() {
  const session = S.session;
  if (!session) return;
  if (S.rematchJoined) return $("dlg-result").close(); // already at the new match
  S.rematchAsked = true; // its news may come over the socket before the answer does
  const answer = await post("rematch", `/api/tables/${encodeURIComponent(session.table)}/rematch`, {
    seat: session.seat,
    token: session.token,
  });
  // (A second press; or the page left the table meanwhile, or is at the new match already: its
  // news came over the socket first.)
  if (!answer || !S.rematchAsked) return;
  if (answer.status !== 201) {
    S.rematchAsked = false;
    return failed("error.rematch", answer);
  }
  moveTo(answer.data.table);
}

/** Follow this seat to the next match at the table (same seat, same token). */
function moveTo(table, { keepScore = false } = {}) {
  if (!S.session || S.session.table === table) return;
  if ($("dlg-result").open) {
    if (keepScore) {
      // Someone else started the rematch: the final score stays up until this person closes it.
      S.rematchJoined = true;
      $("btn-rematch").textContent = t("result.to_rematch");
    } else $("dlg-result").close();
  }
  dropSession(S.session.table);
  const session = { ...S.session, table, invites: [], finished: undefined, celebrated: undefined, ended: 0 };
  saveSession(session);
  // The reviews this score screen shows already stay with it; no new one can be asked (this
  // page's socket is at the new match now).
  const kept = S.rematchJoined ? { reviews: S.ui.reviews, pick: S.ui.reviewPick, msg: S.msg, welcome: S.welcome } : null;
  connect(session);
  if (kept) {
    S.ui.pastReviews = new Map([...kept.reviews].filter(([, review]) => review.data));
    S.ui.reviewPick = kept.pick;
    if (kept.msg && kept.welcome) S.ui.pastResult = { msg: kept.msg, welcome: kept.welcome };
    renderReview(scoreCtx());
  }
}

/** When each other person's page was last seen to close (seat -> Date.now()); a seat gone
 * since before this page connected counts from when it learnt so. */
const goneSince = new Map();
const giveTimers = new Map(); // seat -> the render due when its button may show

function noteGone(online) {
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

/** A friend is not coming, or has left: the computer plays their seat, at the level of the
 * table's other computers, or medium. */
async function giveToComputer(seat) {
  const session = S.session;
  if (!session || !S.welcome) return;
  const game = S.games.find((g) => g.key === S.welcome.game) || { levels: [] };
  const other = S.welcome.seats.find((x) => x.kind === "computer" && !x.stand_in);
  const wanted = other ? other.level : "medium";
  const level = game.levels.includes(wanted) ? wanted : game.levels[0] || "random";
  const url = `/api/tables/${encodeURIComponent(session.table)}/seats/${seat}/computer`;
  const answer = await post(`computer ${seat}`, url, { by: session.seat, token: session.token, level });
  if (answer && answer.status !== 200 && S.session === session) {
    failed("error.give_seat", answer);
  }
  // The seats message that follows redraws the table and drops the link.
}

/** The Menu button: at a table whose match goes on with friends who took their seats, it asks
 * first (a slip of the finger would leave them waiting); anywhere else it leaves at once (the
 * game is kept). */
function askLeave() {
  const seats = S.welcome && S.session ? S.welcome.seats : [];
  const friends = seats.filter((s, seat) => seat !== S.session.seat && s.kind === "human" && s.joined).length;
  if (!friends || !S.msg || S.msg.view.over) return leaveTable();
  $("leave-text").textContent = t("leave.text", { count: friends });
  $("dlg-leave").returnValue = "";
  $("dlg-leave").showModal();
}

function leaveTable() {
  // (by the Menu or New game button: the table's history entry goes too, so that Back then
  // leaves the page as it would from the start screen)
  if (history.state && history.state[TABLE_STATE]) history.back();
  stopClock();
  sessionStorage.removeItem(CURRENT);
  S.rematchAsked = false; // (a rematch answered after this does not pull the page back)
  $("banner").hidden = true;
  if (S.conn) S.conn.close();
  S.conn = null;
  if ($("dlg-result").open) $("dlg-result").close();
  if ($("dlg-leave").open) $("dlg-leave").close(); // (the seat opened elsewhere meanwhile)
  document.title = "rummykit";
  renderStart(S.games, S.settings);
  showScreen("start");
  $("start-title").focus({ preventScroll: true }); // (the focus was at the table, now hidden)
  refreshContinue();
}

// ---------------------------------------------------------------------------------- messages

function onMessage(m) {
  if (m.t === "welcome") {
    if (!S.welcome) S.ui.sortMode = savedSort(m.game); // a new table (not a reconnect)
    S.welcome = m;
    // A new socket (a reconnect too): the server tells who is here again, and this page, if it
    // shows a score, says again that it is reading it (the server forgot with the old socket).
    S.online = null;
    return;
  }
  if (m.t === "view") return onView(m);
  if (m.t === "seats") return onSeats(m);
  if (m.t === "presence") {
    const before = S.online;
    S.online = new Set(m.online);
    noteGone(S.online);
    S.reading = new Set(m.reading || []);
    // Back at the table (a reconnect) with the score open: the others hear it again.
    if (!before && $("dlg-result").open) tellReading(true);
    if (before && S.welcome && S.session) {
      // A person at the table left or came back: said aloud (the prompt changes silently).
      S.welcome.seats.forEach((s, seat) => {
        if (seat === S.session.seat || s.kind !== "human" || !s.joined) return;
        if (before.has(seat) === S.online.has(seat)) return;
        if (S.online.has(seat) && Date.now() - (S.ui.joinedAt.get(seat) || 0) < 5000) return; // (said: joined)
        announce(t(S.online.has(seat) ? "presence.back" : "presence.left", { name: s.name || t("seat.player_n", { n: seat + 1 }) }));
      });
    }
    return scheduleRender();
  }
  if (m.t === "rematch") {
    if (S.rematchAsked) return moveTo(m.table); // this person asked for it
    if (S.session && S.session.table !== m.table) {
      showAlert(t("result.rematch_started"), true); // (read out: the alert box is an alert)
    }
    return moveTo(m.table, { keepScore: true });
  }
  if (m.t === "error") {
    S.sentSeq = null; // the move was refused: the same view may send another
    S.ui.moveButton = null; // (and the focus stays on the button that tried it)
    S.ui.backSent = false; // (an "I'm back" refused may be tried again)
    if (m.code === "not_your_turn" && (S.ui.coachAsked || S.ui.personHint !== null)) {
      // A hint asked for as the turn passed (a seat handed to the computer): the coach's is
      // not the person's business.
      const asked = S.ui.personHint !== null;
      S.ui.personHint = null;
      if (!asked) {
        S.ui.coachAsked = false;
        return;
      }
    }
    if (m.code === "not_over") {
      // a review asked for was refused: its button comes back
      for (const [hand, review] of S.ui.reviews) if (!review.data) S.ui.reviews.delete(hand);
      if ($("dlg-result").open) renderReview(ctx());
    }
    if (m.code === "stale") {
      // A move made on a view the table has left (a repeated click, or someone moved first):
      // nothing changed, and the current view answers it better than words.
      S.conn.send({ t: "view" });
      return;
    }
    const base = t(`error.${m.code}`);
    showAlert(currentLanguage() === "en" || base === `error.${m.code}` ? `${base}: ${m.message}` : base);
    return;
  }
  if (m.t === "hint") return onHint(m);
  if (m.t === "review") return onReview(m);
  if (m.t === "said") return onSaid(m);
  if (m.t === "timeout") return onTimeout(m);
  if (m.t === "check_down") {
    const key = [...m.cards].sort().join(" ");
    const down = S.ui.down;
    // (an answer for an older view, or other cards, no longer applies)
    if (down && down.key === key && down.seq === m.seq && S.msg && m.seq === S.msg.seq) {
      down.action = m.down;
      down.answer = m; // (what the cards make instead: for the message if Lay down is tapped)
    }
    scheduleRender();
  }
}

/** A friend took their seat, or came back to it: name them, say so, and drop their link from
 * the session. */
function onSeats(m) {
  if (!S.welcome) return;
  const before = S.welcome.seats;
  S.welcome = { ...S.welcome, seats: m.seats };
  if (S.msg && "clock" in m) {
    // A friend came (their turn's clock starts), or the computer took a person's seat.
    S.msg = { ...S.msg, clock: m.clock };
    updateClock();
  }
  m.seats.forEach((s, seat) => {
    const was = before[seat];
    if (s.kind === "human" && s.joined && was && !was.joined) {
      const key = was.stand_in ? "invite.back" : "invite.joined";
      const text = t(key, { name: s.name || t("seat.player_n", { n: seat + 1 }) });
      showAlert(text, true); // (read out: the alert box is an alert)
      S.ui.joinedAt.set(seat, Date.now());
    }
  });
  if (S.session && S.session.invites && S.session.invites.length) {
    // A link is kept while its seat waits for its friend (not once taken, or given to the computer).
    const waiting = (seat) => seat && seat.kind === "human" && seat.joined === false;
    S.session.invites = S.session.invites.filter((i) => waiting(m.seats[i.seat]));
    // (what the stored seat has learnt since, e.g. ``ended``, is kept)
    const stored = sessions().find((x) => x.table === S.session.table) || S.session;
    saveSession({ ...stored, invites: S.session.invites });
  }
  scheduleRender();
}

/** A log item when the stock grew within a hand: the discard pile became the new stock. */
function restockItem(prev, m, newHand) {
  if (!prev || newHand || !S.welcome || m.view.hand.stock_size <= prev.view.hand.stock_size) return null;
  const options = S.welcome.options || {};
  const shuffled = S.welcome.game === "crazy" || options.restock === "shuffle";
  // Basic Rummy counts its restocks; after the last one a stock that runs out ends the hand.
  const last = S.welcome.game === "rummy" && m.view.hand.restocks >= options.restock_limit;
  return { kind: "restock", shuffled, last };
}

function keyOf(entries) {
  return new Set(entries.map((e) => e.key));
}

function onView(m) {
  if (S.msg && m.seq < S.msg.seq) return;
  // This person's time for the turn ran out: the computer finishes it, so the page offers no
  // move until the turn has passed (the server would refuse it).
  if (timedOut(m) === S.session.seat) m = { ...m, view: { ...m.view, hand: { ...m.view.hand, legal_actions: [] } } };
  S.sentSeq = null;
  const prev = S.msg;
  const ui = S.ui;
  const newHand = !prev || prev.view.hand_number !== m.view.hand_number;
  if (newHand) {
    // Another person dealt the next hand while this page still shows the last one's score: the
    // score stays up until this person closes it (Next hand then only closes it).
    ui.dealtWhileOpen = Boolean(prev && $("dlg-result").open);
    if (ui.dealtWhileOpen) {
      $("btn-next").textContent = t(S.welcome && S.welcome.game === "crazy" ? "result.to_next_round" : "result.to_next_hand");
    }
    ui.selected.clear();
    ui.order = [];
    if (ui.sortMode === "custom") ui.sortMode = S.welcome ? savedSort(S.welcome.game) : "suit";
    ui.resultShown = null;
    ui.down = null;
    if (prev) {
      // A new hand (or round, with its contract) is written in the log and read out; of the
      // hands before, only the last lines stay.
      if (ui.log.length > LOG_BEFORE) ui.log.splice(0, ui.log.length - LOG_BEFORE);
      const item = { kind: "hand", n: m.view.hand_number, contract: m.view.hand.contract || null };
      ui.log.push(item);
      announce(describe({ ...ctx(), msg: m }, item, true));
      if (!ui.dealtWhileOpen) roundBanner(m); // (else once the last round's score is closed)
    } else if (m.view.hand.contract) {
      // A Crazy Rummy table opened (a new one, or Continue): its round and contract read out
      // first, as a new round's are (the banner is for the eyes only).
      const item = { kind: "hand", n: m.view.hand_number, contract: m.view.hand.contract };
      announce(describe({ ...ctx(), msg: m }, item, true));
    }
  }
  if (!prev || m.hand_log) {
    // The first view after a (re)connect carries the hand's moves so far: a page that joins
    // mid-hand (Continue, reload) starts its log from them, and one whose connection dropped
    // adds (and reads out) the moves made meanwhile, after those it showed.
    const moves = m.hand_log || m.view.hand.history.map(([seat, action]) => ({ seat, action }));
    const start = ui.log.findLastIndex((item) => item.kind === "hand") + 1;
    const shown = prev ? ui.log.slice(start).filter((item) => item.kind === "move").length : 0;
    for (const entry of moves.slice(shown)) {
      const got = entry.gained || [];
      const mine = entry.seat === S.session.seat;
      const items = [{ kind: "move", entry, gained: mine ? got : [], standIn: Boolean(entry.stand_in) }];
      if (!mine && got.length) items.push({ kind: "got", cards: got });
      for (const item of items) {
        ui.log.push(item);
        if (prev) announce(describe({ ...ctx(), msg: m }, item, true));
      }
    }
  }
  const before = prev && !newHand ? keyOf(handEntries(prev.view.hand, ui)) : new Set();
  S.msg = m;
  ui.melds = (m.aids && m.aids.melds) || null; // for the hand sorted by melds
  const afterEntries = handEntries(m.view.hand, ui);
  const after = keyOf(afterEntries);
  const removed = [...before].filter((k) => !after.has(k));
  ui.gained = newHand || !prev ? new Set() : new Set([...after].filter((k) => !before.has(k)));
  ui.selected = keptSelection(ui.selected, prev && !newHand ? prev.view.hand.hand : null, m.view.hand.hand, after);
  if (m.undone) {
    // The cards a move taken back returns (a meld, a lay-down, a lay-off) come back selected, to
    // try again, not marked as just drawn.
    ui.selected = ui.gained;
    ui.gained = new Set();
  }
  ui.pendingEnds = null;
  $("hint-text").textContent = "";
  if (m.undone) {
    // The move taken back leaves the log; a line says it was taken back.
    const i = ui.log.findLastIndex((item) => item.kind === "move" && item.entry.seat === m.undone.seat);
    const gained = i >= 0 ? ui.log[i].gained : [];
    if (i >= 0 && ui.log[i].entry.action === m.undone.action) ui.log.splice(i, 1);
    const item = { kind: "undo", entry: m.undone, gained };
    ui.log.push(item);
    announce(describe(ctx(), item, true));
  }
  // A move of this person was accepted: an error about an earlier try no longer applies.
  if (m.undone || m.log.some((e) => e.seat === S.session.seat && !e.stand_in)) clearError();
  const newMoves = [];
  let restock = restockItem(prev, m, newHand);
  for (const entry of m.log) {
    const mine = entry.seat === S.session.seat;
    // Who made the move stays with the line: the person, or a computer playing for them.
    const standIn = Boolean(entry.stand_in);
    const items = [{ kind: "move", entry, gained: mine ? m.gained : [], standIn }];
    // A card that reaches this hand on another seat's move (the draw after a buy offer).
    if (!mine && m.gained.length) items.push({ kind: "got", cards: m.gained });
    // The stock was refilled before a draw from it (Crazy), or at the start of the next turn.
    if (restock) items.splice(/^(draw|buy)/.test(entry.action) ? 0 : items.length, 0, restock);
    restock = null; // once, however many moves the message carries
    for (const item of items) {
      ui.log.push(item);
      announce(describe(ctx(), item, true));
    }
    newMoves.push({ entry, removedKeys: mine ? removed : [] });
  }
  const hand = m.view.hand;
  for (const entry of m.log) {
    // This person's new meld, or the meld a card of theirs went onto, is shown on the board.
    if (entry.seat !== S.session.seat) continue;
    const w = entry.action.split(" ");
    if (w[0] === "meld" || w[0] === "down") ui.showMeld = (hand.table || []).length;
    else if (w[0] === "layoff" || w[0] === "swap") ui.showMeld = Number(w[2]);
  }
  if (hand.phase === "hand_over" && hand.result && ui.endLogged !== m.view.hand_number) {
    // How the hand ended stays in the log once its score is closed.
    ui.endLogged = m.view.hand_number;
    const result = hand.result;
    // (who made the deciding move, the person or the computer for them, is read from this
    // hand's log now: the line stays after the next hand's moves come)
    const decided = decidedByStandIn(ctx(), result);
    ui.log.push({ kind: "end", line: (c) => resultTitle({ ...c, decidedByStandIn: decided }, result) });
  }
  // The end of the last hand, when this page never showed it (it was closed, or its connection
  // was down, while the others finished that hand and dealt this one): the log says how it
  // ended, and its score opens as it does for a hand dealt while the score is up.
  const stored = sessions().find((x) => x.table === S.session.table) || {};
  const missed = missedHand(m, stored);
  if (missed) {
    const past = { msg: { ...m, view: missed.view, log: [], gained: [] }, standIns: new Set(missed.stand_in) };
    const result = missed.view.hand.result;
    const line = { kind: "end", line: (c) => resultTitle({ ...c, ...past }, result) };
    const at = prev ? ui.log.findLastIndex((item) => item.kind === "hand") : -1;
    if (at >= 0) ui.log.splice(at, 0, line);
    else ui.log.unshift(line, { kind: "hand", n: m.view.hand_number, contract: m.view.hand.contract || null });
    announce(resultTitle({ ...ctx(), ...past }, result));
    recordResult(S.welcome, past.msg); // (the record counts that hand too, once)
    ui.dealtWhileOpen = true;
    openResult({ ...ctx(), ...past });
    const crazy = S.welcome.game === "crazy"; // (after the score's own wording of the button)
    $("btn-next").textContent = t(crazy ? "result.to_next_round" : "result.to_next_hand");
  }
  const awayNow = (m.away || []).includes(S.session.seat);
  if (!awayNow) ui.backSent = false;
  if (awayNow && !(prev && (prev.away || []).includes(S.session.seat))) announce(t("away.title"));
  const myTurnNow = hand.to_act === S.session.seat && timedOut(m) === null;
  const myTurnBefore = prev && prev.view.hand.to_act === S.session.seat && timedOut(prev) === null && !newHand;
  updateClock();
  // "Stop asking this round": asked to buy again in the same round, the page says pass itself;
  // so it does when pass is the only answer (no buy left, or no card to pay the penalty with).
  const forced = myTurnNow && mustPass(hand);
  const autoPass = forced || (myTurnNow && hand.phase === "buy" && ui.noBuyRound === m.view.hand_number);
  if (forced && ui.forcedPassRound !== m.view.hand_number) {
    ui.forcedPassRound = m.view.hand_number; // said once a round, with the reason
    showPromptAlert(true); // (read out: the alert box is an alert)
  }
  if (myTurnNow && !myTurnBefore && S.welcome && !autoPass) {
    // (asked to buy: what the "May I?" panel says too, the card and the penalty)
    const card = hand.phase === "buy" ? hand.offered || hand.discard_pile.at(-1) : null;
    const count = S.welcome.options.penalty_cards ?? 1;
    const offer = card ? ` ${t("buy.text", { card: cardName(card), count })}` : "";
    announce(promptText(ctx(), true) + offer);
  }
  // Still reading the last hand's score when another person dealt the next one: the score
  // says when the turn has come.
  const turnLine = $("result-turn");
  turnLine.hidden = !($("dlg-result").open && ui.dealtWhileOpen && myTurnNow);
  if (!turnLine.hidden) {
    const crazy = S.welcome && S.welcome.game === "crazy";
    turnLine.textContent = t(crazy ? "result.your_turn_round" : "result.your_turn_hand", { n: m.view.hand_number });
  }
  if (!prev || (myTurnNow && !myTurnBefore && !autoPass)) ui.showPiles = true;
  if (!prev) ui.inviteTop = Boolean(S.session.invites && S.session.invites.length);
  // The start screen's Continue says when this browser last saw the table (and its "Last
  // match" line when the match ended).
  const change = { seen: Date.now() };
  // ``ended``: the last hand whose end this page showed (its score opens below when it is over).
  if (hand.phase === "hand_over") change.ended = m.view.hand_number;
  else if (missed) change.ended = missed.view.hand_number;
  else if (!Number.isInteger(stored.ended)) change.ended = m.view.hand_number - 1; // (new here)
  if (m.view.over && !sessions().some((x) => x.table === S.session.table && x.finished)) change.finished = change.seen;
  // The first time this browser shows the end of a match this person won (not after a reload).
  const cheered = (x) => x.table === S.session.table && x.celebrated;
  const wonMatch = m.view.over && m.view.result.winners.includes(S.session.seat) && !sessions().some(cheered);
  if (wonMatch) change.celebrated = true;
  updateSession(S.session.table, change);
  showScreen("table");
  scheduleRender(newMoves);
  if ($("dlg-pile").open) renderPileDialog(ctx()); // the thrown cards as they are now
  if (autoPass) act("pass");
  if (m.view.over && $("dlg-leave").open) $("dlg-leave").close(); // (nobody plays on now)
  if (hand.phase === "hand_over" && S.welcome) recordResult(S.welcome, m);
  // "Advice on every turn": the hard player's hint, asked for once per view of this seat's move.
  if (S.settings.coach && myTurnNow && !autoPass && hand.phase !== "hand_over" && ui.coachSeq !== m.seq) {
    ui.coachSeq = m.seq;
    askHint("coach");
  }
  if (prev) {
    // Sounds, if on: the end of a hand (won, or not), the turn coming to this person, a move.
    const over = hand.phase === "hand_over" && ui.resultShown !== m.view.hand_number;
    const winner = over && hand.result ? hand.result.winner : null;
    if (wonMatch) play("match");
    else if (over && winner !== null) play(winner === S.session.seat ? "win" : "lose");
    else if (myTurnNow && !myTurnBefore && !autoPass && !over) play("turn");
    else if (m.log.length) play("card");
  }
  if (hand.phase === "hand_over" && ui.resultShown !== m.view.hand_number && S.welcome) {
    ui.resultShown = m.view.hand_number;
    openResult();
    // (a tab out of sight runs no animation: the suits fall when it is looked at again)
    if (wonMatch && document.hidden) {
      document.addEventListener("visibilitychange", () => celebrate($("dlg-result")), { once: true });
    } else if (wonMatch) celebrate($("dlg-result"));
  }
  maybeCheckDown();
}

// ------------------------------------------------------------------------------------ intents

function send(message) {
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
function undo() {
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

function act(action) {
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

function entryOf(key) {
  return handEntries(S.msg.view.hand, S.ui).find((e) => e.key === key);
}

function selectionChanged() {
  S.ui.pendingEnds = null;
  S.ui.showMeld = "fits";
  maybeCheckDown();
  scheduleRender();
}

function tapCard(key) {
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

/** The prompt (what to do now) as a message over the hand, its cards named in words for a
 * screen reader. */
function showPromptAlert(notice = false) {
  showAlert(promptText(ctx()), notice, promptText(ctx(), true));
}

function discardSelected() {
  if (!S.msg || notYourTurn()) return;
  if (S.msg.view.hand.phase !== "discard") return showPromptAlert(); // what to do first (draw, pass, ...)
  const sel = selectedCards(ctx());
  if (sel.length === 1 && has(S.msg, `discard ${sel[0]}`)) act(`discard ${sel[0]}`);
  else showAlert(whyNoDiscard(sel));
}

/** Why these cards cannot be thrown now, in the discard phase (before it, the prompt says what
 * to do first). The view's legal actions decided; this only says why. */
function whyNoDiscard(sel) {
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
function tapStock() {
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
function cannotTake() {
  const hand = S.msg && S.msg.view.hand;
  if (!hand || hand.phase === "hand_over" || notYourTurn()) return;
  if (hand.phase === "draw" && hand.offered && hand.hand.every((c) => c === hand.offered)) {
    return showAlert(t("error.take_twin", { card: cardName(hand.offered) }));
  }
  if (hand.phase === "discard") return drawnAlready();
  showPromptAlert();
}

/** A tap on the discard pile: take its card, throw the selected one, or say why neither. */
function tapPile() {
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

function knock() {
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

function meld() {
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

function pickDown() {
  const down = verbs(S.msg, "down")[0];
  if (!down) return;
  selectCards(actionCards(down));
  announce(t("hand.picked", { cards: actionCards(down).map(cardName).join(", ") })); // (else silent)
}

function selectCards(cards) {
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

function layDown() {
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

function maybeCheckDown() {
  if (!S.msg || !S.welcome || S.welcome.game !== "crazy") return;
  const hand = S.msg.view.hand;
  const sel = selectedCards(ctx());
  const key = [...sel].sort().join(" ");
  if (S.ui.down && S.ui.down.key === key && S.ui.down.seq === S.msg.seq) return;
  S.ui.down = null;
  // (asked also when the hand cannot lay the contract down: the answer says what it makes)
  const least = S.msg.aids.contract.cards;
  if (hand.phase !== "discard" || hand.to_act !== S.session.seat || hand.down[S.session.seat] || sel.length < least) return;
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
  if (!hand.down[S.session.seat]) return `${base}: ${t("error.no_fit_not_down")}`;
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

function tapMeld(n) {
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
function focusMelds() {
  const melds = [...$("melds-zone").querySelectorAll("button.table-meld")];
  if (!melds.length) return showAlert(t("melds.none"), true);
  (melds.find((b) => b.getAttribute("aria-disabled") !== "true") || melds[0]).focus();
}

/** Arrow keys move along the melds on the table; Escape goes back to the hand. */
function meldKeys(event) {
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

/** Someone at the table said a phrase: shown by their name for a few seconds, and read out. */
/** A table with friends and a time for a turn: the clock of the person to act, as the server
 * last told it. */
function updateClock() {
  const clock = S.msg && S.msg.clock;
  if (!clock || clock.out || S.msg.view.hand.phase === "hand_over") return stopClock();
  showClock(clock, clock.seat === S.session.seat, (seconds) => {
    announce(t("turn_time.low", { count: seconds }));
    play("turn");
  });
}

/** The seat whose time for the turn ran out (the computer finishes it), or null. */
function timedOut(m) {
  return m.clock && m.clock.out ? m.clock.seat : null;
}

/** A person's time for the turn ran out: the computer finishes it; the log and the prompt say so. */
function onTimeout(m) {
  if (!S.welcome || !S.msg || !S.welcome.seats[m.seat]) return;
  stopClock();
  const item = { kind: "timeout", seat: m.seat };
  S.ui.log.push(item);
  announce(describe(ctx(), item, true));
  // Until the computer's first move comes, this view says so too.
  const hand = S.msg.view.hand;
  const mine = m.seat === S.session.seat;
  const legal = mine ? [] : hand.legal_actions;
  S.msg = { ...S.msg, clock: { seat: m.seat, left: 0, limit: S.welcome.turn_time, out: true }, view: { ...S.msg.view, hand: { ...hand, legal_actions: legal } } };
  if (mine) showAlert(t("log.timeout_own"), true);
  scheduleRender();
}

function onSaid(m) {
  if (!S.welcome || !PHRASES.includes(m.phrase) || !S.welcome.seats[m.seat]) return;
  const ui = S.ui;
  ui.said.set(m.seat, m.phrase);
  if (m.seat !== S.session.seat) announce(t("say.heard", { name: seatName(ctx(), m.seat), text: t(`say.${m.phrase}`) }));
  // A nudge to the person whose turn it is: their turn's chime again (if sounds are on).
  const mine = S.msg && S.msg.view.hand.to_act === S.session.seat;
  if (m.phrase === "your_turn" && m.seat !== S.session.seat && mine) play("turn");
  scheduleRender();
  setTimeout(() => {
    if (ui.said.get(m.seat) !== m.phrase) return; // said something else since
    ui.said.delete(m.seat);
    scheduleRender();
  }, SAID_MS);
}

function toggleSay(open = $("say-panel").hidden) {
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

function askHint(who) {
  if (!S.msg) return;
  if (who === "person") S.ui.personHint = S.msg.seq;
  else S.ui.coachAsked = true;
  send({ t: "hint" });
}

function onHint(m) {
  if (S.ui.personHint !== m.seq) S.ui.coachAsked = false;
  if (!S.msg || m.seq !== S.msg.seq) return; // advice for a position the table has left
  // Answers are told apart by the view they were asked on, so a lost answer (a dropped
  // socket) cannot shift the coach's advice onto the person's request.
  const asked = S.ui.personHint === m.seq;
  if (asked) S.ui.personHint = null;
  else S.ui.coachAsked = false;
  const action = m.action;
  const cards = actionCards(action);
  // The server words the hint in every language (rummykit/players/reasons.py is its catalogue).
  const text = (m.text && (m.text[currentLanguage()] || m.text.en)) || action;
  $("hint-text").textContent = t("hint.prefix", { text: shownText(text) });
  announce(t("hint.prefix", { text: spokenCards(text) })); // (its cards named in words)
  const verb = action.split(" ")[0];
  // The coach's advice only says; a hint the person asked for also selects the cards it names.
  if (asked && cards.length && verb !== "take" && verb !== "buy") selectCards(verb === "layoff" || verb === "swap" ? cards.slice(0, 1) : cards);
}

const INTRO_STEPS = 4;

/** The guided game's first steps: one short tip at a time (see S.intro). */
function renderIntro() {
  const { game, step } = S.intro;
  $("intro-title").textContent = t("intro.title", { game: t(`game.${game}`), n: step, count: INTRO_STEPS });
  $("intro-text").textContent = t(`intro.${game}.${step}`);
  $("btn-intro-back").hidden = step === 1;
  $("btn-intro-next").hidden = step === INTRO_STEPS;
  $("btn-intro-done").hidden = step !== INTRO_STEPS;
  ($("btn-intro-next").hidden ? $("btn-intro-done") : $("btn-intro-next")).focus();
}

function introStep(by) {
  S.intro.step = Math.min(INTRO_STEPS, Math.max(1, S.intro.step + by));
  renderIntro();
  // (the focus stays on the button: the new tip is read out from the dialog's live region)
  announce(spokenCards(`${$("intro-title").textContent}. ${$("intro-text").textContent}`));
}

/** "Thrown cards": the discard pile and each player's throws this hand, in a dialog. */
function openPile() {
  if (!S.msg) return;
  renderPileDialog(ctx());
  if (!$("dlg-pile").open) $("dlg-pile").showModal();
}

/** The S key at the table: sounds on or off, said aloud and shown. */
function toggleSound() {
  const on = !soundOn();
  setSound(on);
  $("sound").checked = on;
  showAlert(t(on ? "sound.on" : "sound.off"), true);
}

function toggleSort() {
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
function savedSort(game) {
  const mode = (S.settings.sort || {})[game];
  return sortModes({ welcome: { game } }).includes(mode) ? mode : "suit";
}

/** At a table of several people, the others' pages say who is still reading a hand's score. */
function tellReading(on) {
  if (S.online && S.conn) S.conn.send({ t: "reading", on });
}

/** ``m.previous`` (the hand before the one in play, as it ended) if this page has not shown
 * that hand's end: ``stored.ended`` (its session's) is an earlier hand. A session from before
 * pages kept ``ended``, or one just made, has nothing to catch up. */
function missedHand(m, stored) {
  if (!m.previous || !S.welcome || $("dlg-result").open) return null;
  const ended = stored.ended;
  return Number.isInteger(ended) && ended < m.previous.view.hand_number ? m.previous : null;
}

/** Open the score of the hand just over (or, given ``c``, of the hand ``c.msg`` holds). */
function openResult(c = ctx()) {
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
function askReview() {
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

function onReview(m) {
  const review = S.ui.reviews.get(m.hand);
  if (!review || review.data) return;
  review.data = m;
  if (!$("dlg-result").open || reviewedHand(ctx()) !== m.hand) return;
  renderReview(ctx());
  $("review-title").scrollIntoView({ block: "start" }); // the summary, then the moves below it
}

function nextHand() {
  if (!S.msg) return;
  const dealt = S.ui.dealtWhileOpen; // already dealt by another person: only close the score
  if ($("dlg-result").open) $("dlg-result").close();
  if (!dealt) send({ t: "next_hand", seq: S.msg.seq });
}

// ---------------------------------------------------------------------------- keys and drags

function handKeys(event) {
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

/** Gin: the card under the cursor is the selected card. When the focus lands on a card while
 * the person uses the keys (entering the hand, after a lay-off or a discard, a dialog closing),
 * that card is selected, as an arrow move does; a tap selects by itself (see tapCard). */
function cardFocused(event) {
  const card = event.target.closest("button.card");
  if (!card || !byKeyboard || !S.msg || !S.welcome || S.welcome.game !== "gin") return;
  const key = card.dataset.key;
  if (!entryOf(key)) return;
  S.ui.focusKey = key;
  if (S.ui.selected.size === 1 && S.ui.selected.has(key)) return;
  S.ui.selected = new Set([key]);
  selectionChanged();
}

function globalKeys(event) {
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

function dragStart(event) {
  const card = event.target.closest("button.card");
  if (!card || event.button > 0) return;
  drag = { key: card.dataset.key, el: card, x: event.clientX, y: event.clientY, id: event.pointerId, active: false };
}

function dragMove(event) {
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

function dragEnd(event) {
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

// ------------------------------------------------------------------------------------- wiring

function renderKeys() {
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
function openKeys() {
  renderKeys();
  $("dlg-keys").showModal();
}

function markLanguage() {
  for (const b of document.querySelectorAll("button.lang")) {
    b.setAttribute("aria-pressed", b.dataset.lang === currentLanguage() ? "true" : "false");
  }
}

function setFourColour(on) {
  document.documentElement.classList.toggle("four-colour", on);
  $("btn-colours").setAttribute("aria-pressed", on ? "true" : "false");
  localStorage.setItem("rummykit.fourColour", on ? "1" : "0");
}

let rulesAsked = 0; // the last rules asked for win (tabs tapped quickly, a language change)

async function openRules(game) {
  for (const b of document.querySelectorAll(".rules-tab")) {
    b.setAttribute("aria-pressed", b.dataset.game === game ? "true" : "false");
  }
  const asked = ++rulesAsked;
  const body = $("rules-body");
  body.setAttribute("aria-busy", "true");
  const response = await fetch(`/rules/${game}.${currentLanguage()}.html`);
  const text = response.ok ? await response.text() : "";
  if (asked !== rulesAsked) return;
  body.innerHTML = text;
  body.dataset.game = game;
  body.removeAttribute("aria-busy");
  // The strategy tips close the rules: a button at the top goes straight to them.
  const tips = body.querySelector("#tips");
  if (tips) {
    tips.tabIndex = -1;
    const jump = el("button", "small rules-jump", t("rules.tips"));
    jump.type = "button";
    jump.addEventListener("click", () => {
      tips.scrollIntoView({ block: "start" });
      tips.focus({ preventScroll: true });
    });
    body.prepend(jump);
  }
}

function wire() {
  for (const b of document.querySelectorAll("button.lang")) {
    b.addEventListener("click", () => setLanguage(b.dataset.lang));
  }
  onLanguage(() => {
    markLanguage();
    renderKeys();
    if (!$("start").hidden) {
      renderStart(S.games, readStart(S.games));
      refreshContinue();
    }
    if (S.msg && S.welcome) {
      scheduleRender(); // the log is kept as moves, so it is worded again in the new language
      if ($("dlg-result").open && !S.ui.dealtWhileOpen) renderResult(scoreCtx());
    }
    if ($("dlg-rules").open) openRules($("rules-body").dataset.game || "gin");
    if ($("dlg-pile").open && S.msg) renderPileDialog(ctx());
    if ($("dlg-intro").open && S.intro) renderIntro();
    if (!$("say-panel").hidden) toggleSay(true); // its phrases in the new language
  });
  $("btn-colours").addEventListener("click", () =>
    setFourColour(!document.documentElement.classList.contains("four-colour")),
  );
  $("btn-keys").addEventListener("click", openKeys);
  $("btn-rules").addEventListener("click", () => {
    $("dlg-rules").showModal();
    // (tapped before the list of games has come: the game last played, else Gin)
    const startScreenGame = S.games.length ? readStart(S.games).game : S.settings?.game || "gin";
    openRules(S.welcome && !$("table").hidden ? S.welcome.game : startScreenGame);
  });
  for (const b of document.querySelectorAll(".rules-tab")) b.addEventListener("click", () => openRules(b.dataset.game));
  $("opponents").addEventListener("change", () => renderFriends());
  $("friends").addEventListener("change", showFriendFields);
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    joinTable();
  });
  $("btn-join-cancel").addEventListener("click", cancelJoin);
  $("opponents-zone").addEventListener("click", (event) => {
    const c = event.target.closest("button[data-computer]");
    if (c) giveToComputer(Number(c.dataset.computer));
  });
  $("btn-invite-how").addEventListener("click", () => {
    // Localhost links: the technical way out, shown on demand.
    const open = $("invite-how").hidden;
    $("invite-how").hidden = !open;
    $("btn-invite-how").setAttribute("aria-expanded", String(open));
  });
  $("invite-list").addEventListener("click", (event) => {
    const b = event.target.closest("button[data-link]");
    if (b) shareLink(b.dataset.link, b.dataset.share === "1");
    const c = event.target.closest("button[data-computer]");
    if (c) giveToComputer(Number(c.dataset.computer));
  });
  $("game-choices").addEventListener("change", () => {
    const settings = readStart(S.games);
    renderFields(S.games.find((g) => g.key === settings.game), { ...S.settings, game: null });
  });
  const startGameInfo = () => S.games.find((g) => g.key === readStart(S.games).game);
  $("preset").addEventListener("change", () => {
    const game = startGameInfo();
    renderHouse(game, $("preset").value, null); // the other preset's rules
  });
  $("house-fields").addEventListener("change", () => countHouse(startGameInfo()));
  $("house-fields").addEventListener("input", () => countHouse(startGameInfo()));
  $("btn-house-reset").addEventListener("click", () => {
    const game = startGameInfo();
    renderHouse(game, $("house-fields").dataset.preset, null);
    renderChoice(S.games);
  });
  $("coach").addEventListener("change", () => {
    S.settings = { ...S.settings, coach: $("coach").checked };
    localStorage.setItem(SETTINGS, JSON.stringify(S.settings));
  });
  $("sound").checked = soundOn();
  $("sound").addEventListener("change", () => setSound($("sound").checked));
  $("pace").addEventListener("change", () => {
    S.settings = { ...S.settings, pace: $("pace").value };
    localStorage.setItem(SETTINGS, JSON.stringify(S.settings));
  });
  $("btn-stats-clear").addEventListener("click", () => {
    if (!confirm(t("stats.clear_confirm"))) return;
    clearStats();
    renderStats();
  });
  $("btn-guided").addEventListener("click", () => {
    // The chosen game against one easy computer, with the advice on (remembered, as if ticked);
    // in Crazy Rummy two, since a card is bought only from a third player's discard, and its
    // tips teach buying. The game's first steps come first: the table is made when they are
    // closed (Got it, or Esc), so the computer does not play while the person reads.
    const settings = readStart(S.games);
    const game = S.games.find((g) => g.key === settings.game);
    $("coach").checked = true;
    const guided = {
      ...settings,
      opponents: Math.max(game.min_players - 1, game.key === "crazy" ? 2 : 1),
      friends: 0,
      level: game.levels.includes("easy") ? "easy" : settings.level,
      coach: true,
    };
    S.intro = { game: game.key, step: 1, start: guided };
    renderIntro();
    $("dlg-intro").showModal();
  });
  $("dlg-intro").addEventListener("close", () => {
    const guided = S.intro && S.intro.start;
    if (!guided) return;
    S.intro.start = null;
    startGame(guided);
  });
  // What Play starts, said under it as the choices change (in the folded settings or not).
  for (const type of ["change", "input"]) $("start-form").addEventListener(type, () => renderChoice(S.games));
  $("btn-start").addEventListener("click", () => {
    // A field the browser would refuse (a target score out of range) is in the folded settings:
    // unfold them, so that it can be shown and fixed.
    if (!$("start-form").checkValidity()) $("settings").open = true;
  });
  $("start-form").addEventListener("submit", (event) => {
    event.preventDefault();
    startGame(readStart(S.games));
  });
  $("continue-box").addEventListener("click", (event) => {
    const remove = event.target.closest("button[data-remove]");
    if (remove) {
      // Forget the seat in this browser only: the table itself goes on without it.
      if (!confirm(t(remove.dataset.finished ? "start.remove_last_confirm" : "start.remove_confirm"))) return;
      if (sessionStorage.getItem(CURRENT) === remove.dataset.remove) sessionStorage.removeItem(CURRENT);
      dropSession(remove.dataset.remove);
      refreshContinue();
      return;
    }
    const b = event.target.closest("button[data-table]");
    const session = b && sessions().find((x) => x.table === b.dataset.table);
    if (session) {
      saveSession(session); // the one played last comes first
      connect(session);
    }
  });
  const hand = $("hand");
  hand.addEventListener("click", (event) => {
    if (suppressClick) return;
    const card = event.target.closest("button.card");
    if (card) tapCard(card.dataset.key);
  });
  hand.addEventListener("keydown", handKeys);
  hand.addEventListener("focusin", cardFocused);
  hand.addEventListener("pointerdown", dragStart);
  hand.addEventListener("pointermove", dragMove);
  hand.addEventListener("pointerup", dragEnd);
  hand.addEventListener("pointercancel", () => {
    if (drag && drag.active) {
      drag.el.classList.remove("dragging");
      drag.el.style.transform = "";
    }
    drag = null;
  });
  $("stock").addEventListener("click", tapStock);
  $("discard").addEventListener("click", tapPile);
  $("melds-zone").addEventListener("click", (event) => {
    const b = event.target.closest("button.table-meld");
    const hand = S.msg && S.msg.view.hand;
    // Melds can always be reached and read; a tap does something on this seat's move only.
    const myMove = hand && hand.to_act === S.session.seat && (hand.phase === "discard" || hand.phase === "layoff");
    if (b && myMove) tapMeld(Number(b.dataset.meld));
    else if (b && selectedCards(ctx()).length) notYourTurn(); // a lay-off tried out of turn
  });
  $("melds-zone").addEventListener("keydown", meldKeys);
  $("btn-draw").addEventListener("click", () => act("draw"));
  $("btn-take").addEventListener("click", () => act("take"));
  $("btn-pass").addEventListener("click", () => act("pass"));
  $("btn-buy").addEventListener("click", () => act("buy"));
  $("btn-nobuy").addEventListener("click", () => act("pass"));
  $("btn-back").addEventListener("click", () => {
    if (S.ui.backSent) return; // (a double press: the second would be refused)
    S.ui.backSent = true;
    send({ t: "back" });
  });
  $("btn-nobuy-round").addEventListener("click", () => {
    if (!S.msg) return;
    S.ui.noBuyRound = S.msg.view.hand_number;
    act("pass");
  });
  $("btn-discard").addEventListener("click", discardSelected);
  $("btn-knock").addEventListener("click", knock);
  $("btn-meld").addEventListener("click", meld);
  $("btn-down").addEventListener("click", layDown);
  $("btn-pick").addEventListener("click", pickDown);
  $("btn-done").addEventListener("click", () => act("done"));
  $("btn-best-layoffs").addEventListener("click", () => send({ t: "best_layoffs", seq: S.msg.seq }));
  $("btn-hint").addEventListener("click", () => askHint("person"));
  $("btn-undo").addEventListener("click", () => undo());
  $("btn-sort").addEventListener("click", toggleSort);
  $("btn-say").addEventListener("click", () => toggleSay());
  $("say-panel").addEventListener("click", (event) => {
    const b = event.target.closest("button[data-phrase]");
    if (!b) return;
    send({ t: "say", phrase: b.dataset.phrase });
    toggleSay(false);
    $("btn-say").focus();
  });
  $("say-panel").addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    toggleSay(false);
    $("btn-say").focus();
  });
  $("end-buttons").addEventListener("click", (event) => {
    const b = event.target.closest("button[data-action]");
    if (b && (S.ui.pendingEnds || []).includes(b.dataset.action)) act(b.dataset.action);
  });
  $("btn-result").addEventListener("click", () => openResult());
  $("btn-leave").addEventListener("click", askLeave);
  $("dlg-leave").addEventListener("close", () => {
    if ($("dlg-leave").returnValue === "leave") leaveTable();
  });
  $("btn-next").addEventListener("click", nextHand);
  $("btn-review").addEventListener("click", askReview);
  $("btn-pile").addEventListener("click", openPile);
  $("btn-intro-next").addEventListener("click", () => introStep(1));
  $("btn-intro-back").addEventListener("click", () => introStep(-1));
  $("btn-intro-done").addEventListener("click", () => $("dlg-intro").close());
  $("review-hand").addEventListener("change", () => {
    S.ui.reviewPick = { shown: Number($("dlg-result").dataset.hand), hand: Number($("review-hand").value) };
    renderReview(scoreCtx());
  });
  $("dlg-result").addEventListener("close", () => {
    if (S.ui.dealtWhileOpen && S.msg) roundBanner(S.msg);
    S.ui.dealtWhileOpen = false;
    $("result-turn").hidden = true;
    tellReading(false);
  });
  $("btn-see-table").addEventListener("click", () => $("dlg-result").close());
  $("btn-rematch").addEventListener("click", rematch);
  $("btn-deal-again").addEventListener("click", () => dealAgain(Number($("btn-deal-again").dataset.deal)));
  // (the finished table's seat stays stored a while: it follows a rematch someone starts later)
  $("btn-newgame").addEventListener("click", leaveTable);
  document.addEventListener("keydown", globalKeys);
  document.addEventListener("focusin", (event) => (lastFocus = event.target));
  document.addEventListener("keydown", () => (byKeyboard = true), true);
  document.addEventListener("pointerdown", () => (byKeyboard = false), true);
  window.addEventListener("popstate", onHistory);
  $("board").addEventListener("scroll", updateScrollCue, { passive: true });
  // A new size of the board (a phone turned, the "May I?" panel shown): the log fits again.
  new ResizeObserver(() => S.msg && S.welcome && fitLog()).observe($("board"));
  new ResizeObserver(() => S.msg && S.welcome && fitMeldBars()).observe($("hand"));
  const sized = new ResizeObserver(updateScrollCue);
  sized.observe($("board"));
  for (const part of $("board").children) sized.observe(part);
  // An invitation link pasted into a tab that already shows the page.
  window.addEventListener("hashchange", async () => {
    if (JOIN.test(location.hash) && S.games.length) {
      if (S.conn) leaveTable();
      await openInvitation();
    }
  });
}

wire();
boot();
// exposed for debugging in the console only
window.rummykit = { state: S, contractText };
translateStatic(document);
