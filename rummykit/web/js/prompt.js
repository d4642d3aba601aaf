// What the table says: the prompt line, each move described in words, and the log.
import { actionCards, cardName, shortCard } from "./cards.js";
import { $, el, setSpoken } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";
import { has, verbs } from "./intents.js";
import { away, reading, seatName, waitingFor } from "./opponents.js";
import { contractText } from "./scorebar.js";

/** Crazy Rummy: this person asked not to be asked to buy again in this round, or pass is the
 * only answer to the offer (the page then passes itself). */
export function notBuying(ctx) {
  return ctx.ui.noBuyRound === ctx.msg.view.hand_number || mustPass(ctx.msg.view.hand);
}

/** Crazy Rummy: asked to buy, with pass the only legal answer (see messages.js onView). */
export function mustPass(hand) {
  return hand.phase === "buy" && hand.legal_actions.length === 1 && hand.legal_actions[0] === "pass";
}

/** Why this seat cannot buy: its buys this round are used up, else the stock cannot pay the
 * penalty (and keep a card for the draw of the player in turn, under ``buy_keeps_draw``): the
 * server's legal actions decided; this only explains. */
function cannotBuyText(ctx) {
  const hand = ctx.msg.view.hand;
  const limit = ctx.welcome.options.max_buys_per_round;
  const bought = hand.buys ? hand.buys[ctx.seat] : 0;
  if (Number.isInteger(limit) && bought >= limit) return t("prompt.cannot_buy_limit");
  if (ctx.welcome.options.buy_keeps_draw && hand.turn !== null) {
    return t("prompt.cannot_buy_draw", { name: seatName(ctx, hand.turn) });
  }
  return t("prompt.cannot_buy_penalty");
}

/** What this seat is to do now, or whom the table waits for; ``spoken``: with the cards named in
 * words, for a screen reader. */
export function promptText(ctx, spoken = false) {
  const { msg, welcome } = ctx;
  const cardText = spoken ? cardName : shortCard;
  const hand = msg.view.hand;
  if (msg.view.over) return t("prompt.match_over");
  if (hand.phase === "hand_over") return t(welcome.game === "crazy" ? "prompt.round_over" : "prompt.hand_over");
  if (msg.clock && msg.clock.out && msg.clock.seat === hand.to_act) {
    // The person's time ran out: the computer finishes the turn.
    if (hand.to_act === ctx.seat) return t(msg.clock.away ? "prompt.away_own" : "prompt.timed_out_own");
    const name = seatName(ctx, hand.to_act, false);
    return t(msg.clock.away ? "prompt.away" : "prompt.timed_out", { name });
  }
  if (hand.to_act !== ctx.seat) {
    const name = seatName(ctx, hand.to_act);
    if (waitingFor(ctx, hand.to_act)) {
      // Only the table's creator holds the links.
      const mine = ctx.invites.some((i) => i.seat === hand.to_act);
      return t(mine ? "prompt.waiting_join" : "prompt.waiting_join_other", { name });
    }
    if (away(ctx, hand.to_act)) return t("prompt.waiting_away", { name });
    if (hand.phase === "buy" && hand.discard_pile.length) {
      return t("prompt.waiting_buy", { name, card: cardText(hand.discard_pile[hand.discard_pile.length - 1]) });
    }
    if (reading(ctx, hand.to_act)) return t("prompt.waiting_reading", { name });
    if (ctx.welcome.seats[hand.to_act].kind === "human") return t("prompt.waiting_person", { name });
    return t("prompt.waiting", { name });
  }
  const top = hand.discard_pile.length ? cardText(hand.discard_pile[hand.discard_pile.length - 1]) : "";
  switch (hand.phase) {
    case "offer":
      return t(welcome.game === "crazy" ? "prompt.offer_crazy" : "prompt.offer", { card: top });
    case "draw":
      return has(msg, "take") ? t("prompt.draw", { card: top }) : t("prompt.draw_stock");
    case "buy":
      if (mustPass(hand)) return cannotBuyText(ctx);
      return t(notBuying(ctx) ? "prompt.not_buying" : "prompt.buy");
    case "layoff":
      return t("prompt.layoff");
    case "discard":
      if (welcome.game === "gin") return verbs(msg, "knock").length ? t("prompt.discard_gin_knock") : t("prompt.discard_gin");
      if (welcome.game === "crazy") {
        if (msg.aids && msg.aids.can_lay_down) return t("prompt.discard_crazy_down");
        return t(hand.laid_down && hand.laid_down[ctx.seat] ? "prompt.discard_crazy_is_down" : "prompt.discard_crazy_not_down");
      }
      return t("prompt.discard_rummy");
    default:
      return "";
  }
}

/** One log item as a line in the current language: a move (``entry`` as this seat saw it, with
 * the cards it brought this seat), a new hand, or cards that reached this hand. ``spoken``: for
 * the live region, with the cards named in words ("king of clubs", not "K♣"). */
export function describe(ctx, item, spoken = false) {
  const cardText = spoken ? cardName : shortCard;
  const list = (cards) => cards.map(cardText).join(spoken ? ", " : " ");
  if (item.kind === "hand") {
    const text = t(ctx.welcome.game === "crazy" ? "log.new_round" : "log.new_hand", { n: item.n });
    return item.contract ? `${text} ${t("score.contract", { contract: contractText(item.contract) })}` : text;
  }
  if (item.kind === "got") return t("log.you_got", { cards: list(item.cards) });
  if (item.kind === "end") return item.line(ctx);
  if (item.kind === "undo") return t("log.undo", { move: describe(ctx, { ...item, kind: "move" }, spoken) });
  if (item.kind === "timeout") {
    return item.seat === ctx.seat ? t("log.timeout_own") : t("log.timeout", { name: seatName(ctx, item.seat, false) });
  }
  if (item.kind === "restock") {
    const text = t(item.shuffled ? "log.restock_shuffle" : "log.restock_turn_over");
    return item.last ? `${text} ${t("log.restock_last")}` : text;
  }
  const { entry, gained } = item;
  const me = entry.seat === ctx.seat && !item.standIn;
  const name = seatName(ctx, entry.seat, item.standIn);
  const words = entry.action.split(" ");
  const verb = words[0];
  const cards = actionCards(entry.action).map(cardText);
  const card = entry.card ? cardText(entry.card) : "";
  switch (verb) {
    case "draw":
      if (me && gained.length) return t("log.draw_own", { cards: list(gained) });
      // Crazy Rummy: the card left on the pile is offered to the others before the draw comes.
      if (card && ctx.welcome.game === "crazy") return me ? t("log.draw_leave_own", { card }) : t("log.draw_leave", { name, card });
      return t("log.draw", { name });
    case "take":
      return card ? t("log.take", { name, card }) : t("log.take_pile", { name });
    case "pass":
      if (!card) return t("log.pass", { name });
      return t(entry.phase === "buy" ? "log.pass_buy" : "log.pass_offer", { name, card });
    case "buy": {
      if (!card) return t("log.buy_pile", { name });
      const penalty = [...gained];
      const i = penalty.indexOf(entry.card);
      if (i >= 0) penalty.splice(i, 1);
      return me && penalty.length
        ? t("log.buy_own", { card, cards: list(penalty) })
        : t("log.buy", { name, card });
    }
    case "discard":
      return t("log.discard", { name, card: cards[0] });
    case "knock":
      return t("log.knock", { name });
    case "biggin":
      return t("log.big_gin", { name });
    case "layoff":
      return t("log.layoff", { name, card: cards[0], n: words[2] });
    case "swap":
      return t("log.swap", { name, card: cards[0], n: words[2] });
    case "done":
      return t("log.done", { name });
    case "meld":
      return t("log.meld", { name, cards: cards.join(spoken ? ", " : " ") });
    case "down": {
      const groups = entry.action.slice(5).split("|");
      const melds = groups.map((g) => list(g.trim().split(" ")));
      return t("log.down", { name, cards: melds.join(spoken ? "; " : " | ") });
    }
    default:
      return `${name}: ${entry.action}`;
  }
}

export function renderLog(ctx) {
  // A whole Crazy Rummy round can be hundreds of lines: only new lines are added, unless the
  // lines shown changed (a new hand trims the old ones, a move taken back) or their words did
  // (the language, a friend's name).
  const list = $("log");
  const items = ctx.ui.log;
  const words = `${currentLanguage()}|${JSON.stringify(ctx.welcome.seats)}`;
  const shown = list.shownItems || [];
  const grows = list.shownWords === words && shown.length <= items.length && shown.every((it, i) => it === items[i]);
  if (!grows) list.textContent = "";
  for (const item of items.slice(grows ? shown.length : 0)) list.append(el("li", "", describe(ctx, item)));
  list.shownItems = items.slice();
  list.shownWords = words;
  list.scrollTop = list.scrollHeight; // the newest move in view; older ones scroll back
  setSpoken($("prompt"), promptText(ctx), promptText(ctx, true));
}

/** Each meld bar under the hand as wide as the part of its card that shows: under a fan the
 * next card covers the rest, and a bar a whole card wide ran beneath it, so that a beginner read
 * that card as melded too. (Layout positions, not the ones of a card sliding to its place.) */
export function fitMeldBars() {
  for (const b of $("hand").querySelectorAll(".card.in-meld")) {
    const next = b.nextElementSibling;
    const sameRow = next && Math.abs(next.offsetTop - b.offsetTop) < b.offsetHeight / 2;
    const shows = sameRow ? Math.min(b.offsetWidth, next.offsetLeft - b.offsetLeft) : b.offsetWidth;
    b.style.setProperty("--bar-w", `${Math.max(0, shows)}px`);
  }
}

/** Fit the log to the board: on a phone held upright it takes the felt left empty below the
 * table, or gives up room to it, down to three lines (its height set once per layout, so the
 * melds do not move as it grows), and
 * everywhere, scrolled to the newest move, its top line is the start of a move, not the end
 * of one cut in half ("pile"): the room left over goes below the last move. */
export function fitLog() {
  const log = $("log");
  const board = $("board");
  log.style.height = "";
  log.style.paddingBottom = "";
  if (matchMedia("(max-width: 759px) and (orientation: portrait)").matches && !board.hidden) {
    // The table's height inside the board, scrolled or not, against the board's own.
    const origin = board.getBoundingClientRect().top - board.scrollTop;
    const shown = [...board.children].filter((c) => c.getClientRects().length);
    const bottom = Math.max(...shown.map((c) => c.getBoundingClientRect().bottom)) - origin;
    const spare = Math.floor(board.clientHeight - bottom - 8);
    // More felt than table: the log takes it. Less ("May I?" open, melds on the table): the
    // log gives up room first, down to three lines, so the rest stays in view.
    const least = 3 * parseFloat(getComputedStyle(log).lineHeight);
    const height = spare > 0 ? log.clientHeight + spare : Math.max(least, log.clientHeight + spare);
    if (height !== log.clientHeight) log.style.height = `${height}px`;
  }
  const room = log.clientHeight;
  if (log.scrollHeight > room) {
    let used = 0;
    for (let li = log.lastElementChild; li; li = li.previousElementSibling) {
      const h = li.getBoundingClientRect().height;
      if (used + h > room) break;
      used += h;
    }
    if (used > 0 && used < room) log.style.paddingBottom = `${room - used}px`;
  }
  log.scrollTop = log.scrollHeight;
}
