// The table's render module: render(ctx) rebuilds the table from the latest view message and the
// page's local state (selection, hand order, focus), drawing the piles, the action buttons and the
// invitations itself and the rest through its parts: scorebar.js, opponents.js, melds.js, hand.js
// (card nodes reused by id so focus and transitions survive) and prompt.js. No game rule here:
// buttons are enabled from the view's legal actions and the server's aids.
import { actionCards, cardName, face, shortCard } from "./cards.js";
import { $, el, enable, setSpoken, show, usable } from "./dom.js";
import { handNodes, renderHand, selectedCards } from "./hand.js";
import { currentLanguage, t } from "./i18n.js";
import { has, meldFor, verbs } from "./intents.js";
import { renderMelds } from "./melds.js";
import { flip, fly, measure } from "./motion.js";
import { away, people, renderOpponents, seatName, waitingFor } from "./opponents.js";
import { describe, notBuying, renderLog } from "./prompt.js";
import { renderScorebar } from "./scorebar.js";

function renderPiles(ctx) {
  const hand = ctx.msg.view.hand;
  const stock = $("stock");
  stock.textContent = "";
  stock.append(face(null), el("span", "pile-count", String(hand.stock_size)));
  stock.setAttribute("aria-label", t("pile.stock", { count: hand.stock_size }));
  // While the hand is played a pile is never disabled outright: a tap that cannot draw, take or
  // throw now says why (actions.js tapStock, tapPile), greyed out for assistive technology.
  const live = hand.phase !== "hand_over" && !ctx.msg.view.over;
  usable(stock, has(ctx.msg, "draw"), live);
  const pile = hand.discard_pile;
  const top = pile.length ? pile[pile.length - 1] : null;
  const discard = $("discard");
  discard.textContent = "";
  if (pile.length > 1) {
    const under = face(pile[pile.length - 2]);
    under.classList.add("under");
    discard.append(under);
  }
  if (top) discard.append(face(top));
  else discard.append(el("span", "empty-pile"));
  discard.setAttribute(
    "aria-label",
    top ? t("pile.discard", { card: cardName(top), count: pile.length }) : t("pile.discard_empty"),
  );
  // "Thrown cards (N)": every card thrown this hand, in a dialog (see pile.js).
  const thrown = hand.history.filter(([, action]) => /^(discard|knock) \S/.test(action)).length;
  $("btn-pile").hidden = thrown === 0;
  $("btn-pile").textContent = t("pile.view", { count: thrown });
  const selected = selectedCards(ctx);
  const canDiscardSelected = selected.length === 1 && has(ctx.msg, `discard ${selected[0]}`);
  usable(discard, has(ctx.msg, "take") || canDiscardSelected, live);
}

function knockLabel(ctx) {
  const dws = ctx.msg.aids && ctx.msg.aids.discard_deadwood;
  if (!dws) return t("action.knock");
  const sel = selectedCards(ctx);
  const knocks = verbs(ctx.msg, "knock").map((a) => a.split(" ")[1]);
  if (sel.length === 1 && knocks.includes(sel[0])) return dws[sel[0]] === 0 ? t("action.gin") : t("action.knock");
  if (!knocks.length) return t("action.knock");
  const best = Math.min(...knocks.map((c) => dws[c]));
  return best === 0 ? t("action.gin") : t("action.knock");
}

function renderActions(ctx) {
  const { msg, ui, welcome } = ctx;
  const hand = msg.view.hand;
  const game = welcome.game;
  const mine = hand.to_act === ctx.seat;
  const sel = selectedCards(ctx);
  const offer = hand.phase === "offer";
  show("btn-draw", mine && has(msg, "draw"));
  show("btn-take", mine && has(msg, "take"));
  enable("btn-take", has(msg, "take"));
  const top = hand.discard_pile.length ? hand.discard_pile[hand.discard_pile.length - 1] : null;
  $("btn-take").textContent = top ? t("action.take_card", { card: shortCard(top) }) : t("action.take");
  // (named in words for a screen reader: "Take king of clubs")
  if (top) $("btn-take").setAttribute("aria-label", t("action.take_card", { card: cardName(top) }));
  else $("btn-take").removeAttribute("aria-label");
  show("btn-pass", mine && offer && has(msg, "pass"));
  enable("btn-pass", has(msg, "pass"));
  const discardOk = sel.length === 1 && has(msg, `discard ${sel[0]}`);
  // Greyed out but explained on a tap when it is this seat's move (which card, or why not).
  const moving = mine && hand.phase === "discard";
  show("btn-discard", moving);
  const playing = hand.phase !== "hand_over"; // after the hand only its score is left to see
  usable($("btn-discard"), discardOk, moving);
  show("btn-knock", game === "gin" && hand.phase !== "layoff" && hand.phase !== "hand_over");
  const anyKnock = verbs(msg, "knock").length > 0;
  // Greyed out on this seat's discard, a tap says why (the deadwood is over the knock limit).
  usable($("btn-knock"), anyKnock, mine && hand.phase === "discard");
  $("btn-knock").textContent = knockLabel(ctx);
  $("btn-knock").classList.toggle("lit", anyKnock);
  show("btn-meld", game === "rummy" && playing);
  const meldOk = sel.length >= 3 && meldFor(msg, sel) !== null;
  usable($("btn-meld"), meldOk, moving);
  // Lit as the next step when the selection makes the move (as Knock is when a knock is there).
  $("btn-meld").classList.toggle("lit", meldOk && moving);
  show("btn-down", game === "crazy" && playing && !(hand.laid_down && hand.laid_down[ctx.seat]));
  const downs = verbs(msg, "down");
  show("btn-pick", game === "crazy" && downs.length > 0);
  const downOk = ui.down && ui.down.key === [...sel].sort().join(" ") && ui.down.action;
  usable($("btn-down"), Boolean(downOk) && moving, moving);
  $("btn-down").classList.toggle("lit", Boolean(downOk) && moving);
  const layoff = game === "gin" && hand.phase === "layoff" && mine;
  show("btn-best-layoffs", layoff);
  show("btn-done", layoff);
  enable("btn-done", has(msg, "done"));
  enable("btn-best-layoffs", layoff);
  enable("btn-hint", mine && msg.view.hand.legal_actions.length > 0);
  // Alone against the computer, a move of this turn that showed no hidden card can be taken back.
  show("btn-undo", mine && Boolean(msg.undo));
  if (msg.undo) $("btn-undo").title = t("action.undo_title", { move: describe(ctx, { kind: "move", entry: msg.undo, gained: [] }) });
  show("btn-result", hand.phase === "hand_over");
  // Crazy Rummy: "May I?" when this seat is asked to buy (unless it said to stop asking).
  const buying = hand.phase === "buy" && mine && !notBuying(ctx);
  show("buy-panel", buying);
  // Two turns in a row out of time at a table with friends: the computer plays this seat's turns.
  show("away-panel", (msg.away || []).includes(ctx.seat));
  if (buying) {
    const card = hand.offered || top;
    const count = welcome.options.penalty_cards ?? 1;
    const words = (name) => t("buy.text", { card: card ? name(card) : "", count });
    setSpoken($("buy-text"), words(shortCard), words(cardName)); // (in words for a screen reader)
    enable("btn-buy", has(msg, "buy"));
  }
  show("end-choice", Boolean(ui.pendingEnds));
  renderChoices(ctx);
}

/** The ways to play the selected card on the tapped meld, one button each. */
function renderChoices(ctx) {
  const { ui } = ctx;
  const box = $("end-buttons");
  box.textContent = "";
  if (!ui.pendingEnds) return;
  for (const action of ui.pendingEnds) {
    const w = action.split(" ");
    const key = w[0] === "swap" ? "end.swap" : w[3] === "low" ? "end.low" : w[3] === "high" ? "end.high" : "end.layoff";
    const as = ctx.msg.aids && ctx.msg.aids.ends && ctx.msg.aids.ends[action];
    let label = t(key, { card: shortCard(w[1]) });
    if (as) label += " " + t("end.as", { card: shortCard(as) }); // "Low end (as 3♠)"
    let name = t(key, { card: cardName(w[1]) }); // the same in words, for a screen reader
    if (as) name += " " + t("end.as", { card: cardName(as) });
    const b = el("button", "", label);
    b.type = "button";
    b.setAttribute("aria-label", name);
    b.dataset.action = action;
    box.append(b);
  }
  if (ui.focusChoice) {
    ui.focusChoice = false;
    box.firstChild.focus();
  }
}

/** The links for the friends' seats not taken yet (only the table's creator has them). */
function renderInvites(ctx) {
  const open = ctx.invites.filter((i) => waitingFor(ctx, i.seat));
  const panel = $("invite-panel");
  panel.hidden = !open.length;
  if (!open.length) return;
  if (ctx.ui.inviteShown !== ctx.welcome.table) {
    // Open at first on a desktop, and on a phone with room for one link; several links on a
    // phone start as a one-line summary, so the table stays in view.
    ctx.ui.inviteShown = ctx.welcome.table;
    const phone = window.matchMedia("(max-width: 640px)").matches;
    $("invite-details").open = !phone || (open.length === 1 && window.innerHeight >= 700);
  }
  $("invite-count").textContent = t("invite.count", { count: open.length });
  $("invite-local").hidden = !/^(localhost|127\.|\[::1\])/.test(location.hostname);
  const list = $("invite-list");
  const shown = [...list.querySelectorAll("input")].map((i) => i.value).join(" ");
  if (shown === open.map((i) => i.link).join(" ") && list.dataset.lang === currentLanguage()) return;
  list.textContent = "";
  list.dataset.lang = currentLanguage();
  for (const inv of open) {
    const li = el("li", "invite-item");
    const id = `invite-${inv.seat}`;
    const label = el("label", "", t("invite.seat", { name: seatName(ctx, inv.seat) }));
    label.htmlFor = id;
    const input = el("input");
    input.id = id;
    input.type = "text";
    input.readOnly = true;
    input.value = inv.link;
    const copy = el("button", "small", t("invite.copy"));
    copy.type = "button";
    copy.dataset.link = inv.link;
    copy.setAttribute("aria-label", t("invite.copy_for", { name: seatName(ctx, inv.seat) }));
    const computer = el("button", "small", t("invite.computer"));
    computer.type = "button";
    computer.dataset.computer = String(inv.seat);
    computer.setAttribute("aria-label", t("invite.computer_for", { name: seatName(ctx, inv.seat) }));
    li.append(label, input, copy, computer);
    if (navigator.share) {
      const share = el("button", "small", t("invite.share"));
      share.type = "button";
      share.dataset.link = inv.link;
      share.dataset.share = "1";
      li.append(share);
    }
    list.append(li);
  }
}

/** Rebuild the table from the latest view; animate what moved (never blocking input). */
export function render(ctx, moves) {
  const before = measure(handNodes);
  const pileBefore = $("discard").getBoundingClientRect();
  const stockRect = $("stock").getBoundingClientRect();
  $("table").dataset.seq = String(ctx.msg.seq);
  $("table").dataset.phase = ctx.msg.view.hand.phase;
  // In another tab, the page's title says when this seat is to move.
  const hand = ctx.msg.view.hand;
  const out = ctx.msg.clock && ctx.msg.clock.out;
  const mine = hand.to_act === ctx.seat && !out && !ctx.msg.view.over;
  document.title = mine ? t(hand.phase === "buy" ? "title.may_i" : "title.your_turn") : "rummykit";
  renderInvites(ctx);
  renderScorebar(ctx);
  renderOpponents(ctx);
  renderPiles(ctx);
  renderMelds(ctx);
  renderHand(ctx);
  renderActions(ctx);
  renderLog(ctx);
  // At a table of several people each can say a friendly phrase to the others.
  $("btn-say").hidden = people(ctx.welcome) < 2;
  if ($("btn-say").hidden) $("say-panel").hidden = true;
  flip(handNodes, before);
  animateMoves(ctx, moves || [], before, pileBefore, stockRect);
}

function oppRect(seat) {
  const box = document.querySelector(`.opp[data-seat="${seat}"]`);
  return box ? box.getBoundingClientRect() : null;
}

function animateMoves(ctx, moves, before, pileBefore, stockRect) {
  const pile = $("discard").getBoundingClientRect();
  const meldsRect = $("melds-zone").getBoundingClientRect();
  const w = pile.width || 60;
  for (const { entry, removedKeys } of moves) {
    const verb = entry.action.split(" ")[0];
    const card = actionCards(entry.action)[0] || entry.card || null;
    if (entry.seat === ctx.seat) {
      if (verb === "discard" && removedKeys.length) fly(before.get(removedKeys[0]), pile, card, w);
      continue;
    }
    const from = oppRect(entry.seat);
    if (verb === "discard") fly(from, pile, card, w);
    else if (verb === "draw") fly(stockRect, from, null, w * 0.6);
    else if (verb === "take" || verb === "buy") fly(pileBefore, from, entry.card || null, w * 0.6);
    else if (verb === "meld" || verb === "layoff" || verb === "down" || verb === "swap") fly(from, meldsRect, card, w * 0.6);
    else if (verb === "knock") fly(from, pile, null, w);
  }
}
