// The seat's socket and what the server sends over it: connect() opens it for a session,
// onMessage() takes each message (a view, the seats, who is here, an error, a hint, a review, a
// phrase said, a turn timed out), moveTo() follows the seat to a rematch, leaveTable() closes it.
import { PHRASES, act, askHint, maybeCheckDown, openResult, savedSort, selectCards, tellReading } from "./actions.js";
import { actionCards, cardName, shownText, spokenCards } from "./cards.js";
import { stopClock } from "./clock.js";
import { handEntries } from "./hand.js";
import { currentLanguage, t } from "./i18n.js";
import { celebrate } from "./motion.js";
import { seatName } from "./opponents.js";
import { renderPileDialog } from "./pile.js";
import { describe, mustPass, promptText } from "./prompt.js";
import { announce, clearAlert, clearError, ctx, noteGone, roundBanner, scheduleRender, scoreCtx, showAlert, showPromptAlert, showScreen, updateClock } from "./rendering.js";
import { decidedByStandIn, renderReview, resultTitle, reviewedHand } from "./results.js";
import { keptSelection } from "./selection.js";
import { CURRENT, TABLE_STATE, dropSession, refreshContinue, saveSession, sessions, tableInHistory, updateSession } from "./sessions.js";
import { Connection } from "./socket.js";
import { play } from "./sound.js";
import { PACES, renderStart } from "./start.js";
import { S, newUi, timedOut } from "./state.js";
import { recordResult } from "./stats.js";

const $ = (id) => document.getElementById(id);

const LOG_BEFORE = 40; // lines of earlier hands kept above a new hand's (the hand's own: all)
const SAID_MS = 5000; // how long a phrase stays by its speaker's name

export function connect(session) {
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

export function leaveTable() {
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

/** Someone at the table said a phrase: shown by their name for a few seconds, and read out. */
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
  // The server words the hint in every language (the hints section of rummykit/texts/).
  const text = (m.text && (m.text[currentLanguage()] || m.text.en)) || action;
  $("hint-text").textContent = t("hint.prefix", { text: shownText(text) });
  announce(t("hint.prefix", { text: spokenCards(text) })); // (its cards named in words)
  const verb = action.split(" ")[0];
  // The coach's advice only says; a hint the person asked for also selects the cards it names.
  if (asked && cards.length && verb !== "take" && verb !== "buy") selectCards(verb === "layoff" || verb === "swap" ? cards.slice(0, 1) : cards);
}

function onReview(m) {
  const review = S.ui.reviews.get(m.hand);
  if (!review || review.data) return;
  review.data = m;
  if (!$("dlg-result").open || reviewedHand(ctx()) !== m.hand) return;
  renderReview(ctx());
  $("review-title").scrollIntoView({ block: "start" }); // the summary, then the moves below it
}

/** ``m.previous`` (the hand before the one in play, as it ended) if this page has not shown
 * that hand's end: ``stored.ended`` (its session's) is an earlier hand. A session from before
 * pages kept ``ended``, or one just made, has nothing to catch up. */
function missedHand(m, stored) {
  if (!m.previous || !S.welcome || $("dlg-result").open) return null;
  const ended = stored.ended;
  return Number.isInteger(ended) && ended < m.previous.view.hand_number ? m.previous : null;
}
