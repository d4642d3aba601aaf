// The page's controller: it wires the page's buttons, keys and dialogs to the modules that act
// on them, and starts the page (boot). The shared state is in state.js; what the server sends is
// taken in messages.js, what the person does in actions.js and keys.js, the way to a table in
// joining.js and sessions.js, and each redraw is asked of rendering.js.
import { act, askHint, askReview, discardSelected, introStep, knock, layDown, meld, meldKeys, nextHand, openPile, openResult, pickDown, renderIntro, send, tapMeld, tapPile, tapStock, tellReading, toggleSay, toggleSort, undo } from "./actions.js";
import { el } from "./dom.js";
import { selectedCards } from "./hand.js";
import { currentLanguage, onLanguage, preferredLanguage, setLanguage, t, translateStatic } from "./i18n.js";
import { JOIN, askLeave, cancelJoin, dealAgain, giveToComputer, joinTable, onHistory, openInvitation, rematch, shareLink, startGame } from "./joining.js";
import { cardFocused, dragCancel, dragEnd, dragMove, dragStart, globalKeys, handKeys, keyPressed, openKeys, pointerPressed, renderKeys, tapHand } from "./keys.js";
import { connect, leaveTable } from "./messages.js";
import { renderPileDialog } from "./pile.js";
import { fitLog, fitMeldBars } from "./prompt.js";
import { ctx, focusMoved, notYourTurn, roundBanner, scheduleRender, scoreCtx, showScreen, updateScrollCue } from "./rendering.js";
import { renderResult, renderReview } from "./results.js";
import { contractText } from "./scorebar.js";
import { CURRENT, TABLE_STATE, dropSession, refreshContinue, saveSession, sessions } from "./sessions.js";
import { setSound, soundOn } from "./sound.js";
import { countHouse, readStart, renderChoice, renderFields, renderFriends, renderHouse, renderStart, showFriendFields } from "./start.js";
import { S, SETTINGS } from "./state.js";
import { clearStats, renderStats } from "./stats.js";

const $ = (id) => document.getElementById(id);

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
  hand.addEventListener("click", tapHand);
  hand.addEventListener("keydown", handKeys);
  hand.addEventListener("focusin", cardFocused);
  hand.addEventListener("pointerdown", dragStart);
  hand.addEventListener("pointermove", dragMove);
  hand.addEventListener("pointerup", dragEnd);
  hand.addEventListener("pointercancel", dragCancel);
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
  document.addEventListener("focusin", focusMoved);
  document.addEventListener("keydown", keyPressed, true);
  document.addEventListener("pointerdown", pointerPressed, true);
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
