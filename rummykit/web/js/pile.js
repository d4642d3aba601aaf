// The thrown cards: the discard pile as it is now (oldest first), and every card each player
// threw this hand, those picked up again marked. All of it is public: the page works it out from
// this seat's own view (the pile and the moves as the seat saw them), nothing more.
import { miniRow } from "./cards.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./opponents.js";

/** Every card thrown this hand, in order: [{seat, card, takenBy}] (takenBy: a seat, or null). */
export function throws(history) {
  const all = [];
  const pile = []; // the thrown cards still on the pile, newest last
  for (const [seat, action] of history) {
    const [verb, card] = action.split(" ");
    if ((verb === "discard" || verb === "knock") && card) {
      // (a knock's card is face down: the other seat's history says only "knock")
      const item = { seat, card, takenBy: null };
      all.push(item);
      if (verb === "discard") pile.push(item);
    } else if ((verb === "take" || verb === "buy") && pile.length) {
      pile.pop().takenBy = seat; // the top card: the up-card, if nothing was thrown yet, is not in the list
    }
  }
  return all;
}

/** The cards of ``items`` in a row, those picked up again faded and said to be. */
function row(items, ctx) {
  const taken = (_, i) => {
    const by = items[i].takenBy;
    return by === null || by === undefined ? null : { cls: "taken", note: t("pile.taken_by", { name: seatName(ctx, by) }) };
  };
  return miniRow(items.map((item) => item.card), taken);
}

/** Fill the thrown-cards dialog from the current view. */
export function renderPileDialog(ctx) {
  const hand = ctx.msg.view.hand;
  const body = document.getElementById("pile-body");
  body.textContent = "";
  const now = el("section", "pile-now");
  now.append(el("h3", "", t("pile.now")));
  if (hand.discard_pile.length) now.append(row(hand.discard_pile.map((card) => ({ card, takenBy: null })), ctx));
  else now.append(el("p", "", t("pile.discard_empty")));
  body.append(now);
  const thrown = throws(hand.history);
  const by = el("section", "pile-by");
  by.append(el("h3", "", t("pile.by_player")));
  ctx.msg.view.scores.forEach((_, seat) => {
    const mine = thrown.filter((item) => item.seat === seat);
    const p = el("p", "pile-seat");
    p.append(el("span", "pile-name", `${seatName(ctx, seat)}: `));
    if (mine.length) p.append(row(mine, ctx));
    else p.append(el("span", "", t("pile.none")));
    by.append(p);
  });
  body.append(by);
}
