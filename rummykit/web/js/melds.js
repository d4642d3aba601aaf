// The melds on the table: one button per meld, what a selected card would do on it, and the
// focus kept on a meld across redraws.
import { cardName, face, rankLabel, shortCard } from "./cards.js";
import { $, el, usable } from "./dom.js";
import { selectedCards } from "./hand.js";
import { t } from "./i18n.js";
import { meldsAccepting } from "./intents.js";
import { seatName } from "./opponents.js";

/** What each card of a table meld stands for, when it is a wild there (else null). */
function wildTargets(m) {
  const cards = m.meld.split(" ");
  const wild = m.wild || cards.map(() => false);
  return cards.map((c, i) => {
    if (!wild[i]) return null;
    if (m.stands_for) return { name: cardName(m.stands_for[i]), short: shortCard(m.stands_for[i]) };
    const rank = rankLabel(m.rank);
    return { name: t("card.rank_any", { rank: t(`rank.${m.rank}`) }), short: rank };
  });
}

/** A table meld as a button: its number (as the log and lay-offs name it), its cards, and the
 * card each wild stands for. ``m`` is {meld, wild?, stands_for?, rank?}. */
function meldButton(number, m, enabled) {
  const cards = m.meld.split(" ");
  const targets = wildTargets(m);
  const b = el("button", "table-meld");
  b.type = "button";
  b.dataset.meld = String(number);
  const names = cards.map((c, i) =>
    targets[i] ? t("card.wild_as", { card: cardName(c), as: targets[i].name }) : cardName(c),
  );
  b.setAttribute("aria-label", t("meld.label", { n: number, cards: names.join(", ") }));
  b.append(el("span", "meld-no", String(number)));
  cards.forEach((c, i) => {
    const f = face(c);
    if (targets[i]) {
      f.classList.add("wild");
      f.append(el("span", "stands", `=${targets[i].short}`));
    }
    b.append(f);
  });
  // Never disabled: a keyboard or screen-reader user can always reach and read the melds, and a
  // tap on one the selected card does not fit says why (actions.js tapMeld).
  usable(b, enabled, true);
  return b;
}

/** After a redraw: the focus goes back to the hand after a lay-off from the keyboard, else back
 * to the same meld (so a screen reader keeps its place). */
function keepMeldFocus(ctx, number) {
  if (document.activeElement && document.activeElement !== document.body) return;
  const meld = $("melds-zone").querySelector(`button.table-meld[data-meld="${number}"]`);
  const card = $("hand").querySelector('button.card[tabindex="0"]');
  if (ctx.ui.backToHand && card) card.focus();
  else if (meld) meld.focus();
  else if (card) card.focus();
  ctx.ui.backToHand = false;
}

export function renderMelds(ctx) {
  const { msg, welcome } = ctx;
  const hand = msg.view.hand;
  const zone = $("melds-zone");
  // The zone is drawn anew: a meld that had the focus gets it back (see keepMeldFocus).
  const focused = zone.contains(document.activeElement) ? document.activeElement.dataset.meld : null;
  zone.textContent = "";
  if (focused) queueMicrotask(() => keepMeldFocus(ctx, focused));
  const selected = selectedCards(ctx);
  const canTarget = selected.length === 1;
  // Whether the board has a place for melds on the table (Gin's only at a knock): a wide or
  // short screen puts it beside the piles (app.css).
  $("board").classList.toggle("table-melds", welcome.game !== "gin" || (hand.knocker !== null && hand.knocker !== undefined));
  if (welcome.game === "gin") {
    if (hand.knocker === null || hand.knocker === undefined) return;
    const group = el("section", "meld-group");
    group.append(el("h3", "", t("melds.knocker", { name: seatName(ctx, hand.knocker) })));
    const list = el("div", "meld-list");
    const accepting = canTarget ? meldsAccepting(msg, selected[0]) : new Set();
    hand.knock_melds.forEach((m, i) => list.append(meldButton(i + 1, { meld: m }, accepting.has(i + 1))));
    group.append(list);
    if (hand.knock_deadwood.length) {
      const dw = el("p", "knock-deadwood", t("melds.knock_deadwood", { cards: hand.knock_deadwood.map(shortCard).join(" ") }));
      group.append(dw);
    }
    zone.append(group);
    return;
  }
  const table = hand.table || [];
  if (!table.length) {
    zone.append(el("p", "no-melds", t("melds.none")));
    return;
  }
  const owners = [];
  table.forEach((m, i) => {
    if (!owners.includes(m.owner)) owners.push(m.owner);
  });
  owners.sort((a, b) => ((a - ctx.seat + 99) % 99) - ((b - ctx.seat + 99) % 99));
  const accepting = canTarget ? meldsAccepting(msg, selected[0]) : new Set();
  for (const owner of owners) {
    const group = el("section", "meld-group");
    const by = owner === ctx.seat ? t("melds.by_you") : t("melds.by", { name: seatName(ctx, owner) });
    group.append(el("h3", "", by));
    const list = el("div", "meld-list");
    table.forEach((m, i) => {
      if (m.owner === owner) list.append(meldButton(i + 1, m, accepting.has(i + 1)));
    });
    group.append(list);
    zone.append(group);
  }
}
