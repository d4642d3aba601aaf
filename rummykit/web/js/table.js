// The table's render module: render(ctx) rebuilds the table from the latest view message and the
// page's local state (selection, hand order, focus). DOM nodes are keyed by card id and reused so
// focus and transitions survive. No game rule here: buttons are enabled from the view's legal
// actions and the server's aids.
import { actionCards, cardName, face, rankLabel, rankOrder, shortCard, suitOrder } from "./cards.js";
import { durationText } from "./clock.js";
import { currentLanguage, t } from "./i18n.js";
import { has, meldFor, meldsAccepting, verbs } from "./intents.js";
import { flip, fly, measure } from "./motion.js";
import { defaultsOf } from "./start.js";

const $ = (id) => document.getElementById(id);
const handNodes = new Map();

/** The seat's name inside a sentence ("7 points to you"): "you" for this page's own seat. */
export function objectName(ctx, seat) {
  return seat === ctx.seat ? t("seat.you_object") : seatName(ctx, seat);
}

/** The seat's display name: "You", a friend's name or "Player 3", "Computer", "Computer 2". */
export function seatName(ctx, seat, standIn = undefined) {
  // ``standIn``: whether a computer played this person's seat then (a log line keeps who made
  // its move, though the seat has changed hands since); by default, as the seat is now.
  const seats = ctx.welcome.seats;
  const info = seats[seat];
  const computerNow = standIn === undefined ? Boolean(info.stand_in) : standIn;
  if (seat === ctx.seat) return computerNow ? t("seat.computer_for_you") : t("seat.you");
  const person = info.name || t("seat.player_n", { n: seat + 1 });
  if (info.kind === "human" || info.stand_in) {
    return computerNow ? t("seat.computer_for", { name: person }) : person; // a person's seat
  }
  // Computers are numbered among themselves, in seat order: "Computer 1", "Computer 2".
  const own = (s) => s.kind === "computer" && !s.stand_in;
  const computers = seats.map((s, i) => (own(s) ? i : -1)).filter((i) => i >= 0);
  if (computers.length === 1) return t("seat.computer");
  return t("seat.computer_n", { n: computers.indexOf(seat) + 1 });
}

/** True for a seat kept for a friend who has not taken it yet. */
function waitingFor(ctx, seat) {
  const info = ctx.welcome.seats[seat];
  return info.kind === "human" && info.joined === false;
}

/** True for a person's seat whose page is not connected now (as far as the server said). */
function away(ctx, seat) {
  const info = ctx.welcome.seats[seat];
  return Boolean(ctx.online) && info.kind === "human" && info.joined !== false && !ctx.online.has(seat);
}

/** True for another person's seat whose page shows a hand's score now (as the server said). */
function reading(ctx, seat) {
  return Boolean(ctx.reading) && seat !== ctx.seat && ctx.reading.has(seat);
}

/** The hand as [{key, card}] in display order (sorted by suit or rank, or the player's order). */
export function handEntries(view, ui) {
  const seen = {};
  const entries = view.hand.map((card) => {
    seen[card] = (seen[card] || 0) + 1;
    return { key: `${card}#${seen[card] - 1}`, card };
  });
  if (ui.sortMode === "custom") {
    const pos = new Map(ui.order.map((k, i) => [k, i]));
    const known = entries.filter((e) => pos.has(e.key)).sort((a, b) => pos.get(a.key) - pos.get(b.key));
    const fresh = entries.filter((e) => !pos.has(e.key));
    return [...known, ...fresh];
  }
  if (ui.sortMode === "melds" && ui.melds) {
    // The melds of the best arrangement side by side (each run low to high), then the rest by suit.
    const place = new Map();
    ui.melds.forEach((meld, i) => meld.forEach((card, j) => place.set(card, i * 16 + j)));
    const at = (card) => (place.has(card) ? place.get(card) : 1000 + suitOrder(card));
    return entries.sort((a, b) => at(a.card) - at(b.card) || a.key.localeCompare(b.key));
  }
  const order = ui.sortMode === "rank" ? rankOrder : suitOrder;
  return entries.sort((a, b) => order(a.card) - order(b.card) || a.key.localeCompare(b.key));
}

/** The hand orders the sort button goes through: by melds too where the server finds them. */
export function sortModes(ctx) {
  return ctx.welcome.game === "crazy" ? ["suit", "rank"] : ["suit", "rank", "melds"];
}

/** An element with a class and text, the page's usual building block. */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Fill ``node`` with ``text`` as shown. Where a screen reader should hear other words (cards
 * named, "king of clubs", where the text draws them with suit symbols, "K♣"), the shown text is
 * hidden from it and the words are there for it instead. */
export function setSpoken(node, text, spoken = text) {
  if (text === spoken) {
    node.textContent = text;
    return;
  }
  node.textContent = "";
  const shown = el("span", "", text);
  shown.setAttribute("aria-hidden", "true");
  node.append(shown, el("span", "sr-only", spoken));
}

function cardList(cards) {
  return cards.map(cardName).join(", ");
}

function show(id, visible) {
  $(id).hidden = !visible;
}

function enable(id, enabled) {
  $(id).disabled = !enabled;
  $(id).removeAttribute("aria-disabled");
}

/** Enable a button, or grey it out; with ``explain``, a greyed-out button still takes a tap and
 * its handler says why it cannot act now ("Select one card first", "7♥ cannot go back"). */
function usable(button, enabled, explain) {
  button.disabled = !enabled && !explain;
  if (!enabled && explain) button.setAttribute("aria-disabled", "true");
  else button.removeAttribute("aria-disabled");
}

// ------------------------------------------------------------------------------- score bar

/** This table's rules that differ from its preset's, in words ("Big gin: on"). */
export function houseRules(ctx) {
  const { welcome } = ctx;
  const game = (ctx.games || []).find((g) => g.key === welcome.game);
  if (!game || !game.specs) return [];
  const defaults = defaultsOf(game, welcome.variant);
  const out = [];
  for (const spec of game.specs) {
    if (game.main_options.includes(spec.name) || spec.name === "hands") continue; // shown already
    const value = welcome.options[spec.name];
    if (value === undefined || value === defaults[spec.name]) continue;
    let text;
    if (spec.kind === "bool") text = t(value ? "opt.on" : "opt.off");
    else if (spec.kind === "choice") text = t(`opt.${spec.name}.${value}`);
    else text = typeof value === "number" ? String(value) : t(`opt.none.${spec.none}`);
    out.push(`${t(`opt.${spec.name}`)}: ${text}`);
  }
  if (welcome.turn_time) out.push(`${t("start.turn_time")}: ${durationText(welcome.turn_time)}`);
  return out;
}

function renderScorebar(ctx) {
  const { msg, welcome } = ctx;
  const view = msg.view;
  const bar = $("scorebar");
  bar.textContent = "";
  const info = el("p", "game-line");
  const parts = [t(`game.${welcome.game}`)];
  if (welcome.game === "crazy") {
    const c = view.hand.contract;
    parts.push(t("score.round", { n: view.hand.round, total: 7 }));
    parts.push(t("score.contract", { contract: contractText(c) }));
    // How far this hand is from the contract, until it is laid down (the server counts it).
    const short = msg.aids && msg.aids.short;
    if (short === 0) parts.push(t("score.contract_ready"));
    else if (short > 0) parts.push(t("score.contract_short", { count: short }));
  } else {
    parts.push(t("score.hand", { n: view.hand_number }));
    if (welcome.options.hands) parts.push(t("score.hands_total", { count: welcome.options.hands }));
    else if (welcome.options.target_score) parts.push(t("score.target", { n: welcome.options.target_score }));
  }
  info.textContent = parts.join(" · ");
  bar.append(info);
  // The house rules are a line of the board, which scrolls: the bar above it stays in sight
  // (with the round's contract), so it stays short.
  const house = houseRules(ctx);
  $("house-line").textContent = house.length ? t("house.at_table", { list: house.join("; ") }) : "";
  $("house-line").hidden = !house.length;
  const list = el("ul", "scores");
  list.setAttribute("aria-label", t("score.label"));
  view.scores.forEach((score, seat) => {
    const li = el("li", seat === ctx.seat ? "me" : "");
    const name = el("span", "who", seatName(ctx, seat));
    const pts = el("span", "pts", t("score.points", { count: score }));
    li.append(name);
    const mark = turnMark(view.hand, seat);
    if (mark) {
      li.classList.add(mark); // the outline: whose turn it is; dashed for a seat asked to buy
      // the outline, in words, read after the name: "You, playing now, 0 points"
      li.append(el("span", "sr-only", `${t(`score.${mark}`)},`));
    }
    li.append(pts);
    // who dealt (opponents' boxes say it too; on a phone only this seat's pill shows)
    if (view.hand.dealer === seat && !view.over) li.append(el("span", "dealer", t("opp.dealer")));
    if (view.boxes) li.append(el("span", "boxes", t("score.boxes", { count: view.boxes[seat] })));
    const said = seat === ctx.seat && saying(ctx, seat);
    if (said) li.append(el("span", "bubble", said));
    list.append(li);
  });
  bar.append(list);
  $("table-title").textContent = t(`game.${welcome.game}`);
}

/** How a seat is marked on the table: "acting" for the seat whose turn it is, "asked" for one
 * asked whether to buy the card that player passed on (Crazy Rummy), or null. */
function turnMark(hand, seat) {
  if (hand.phase === "buy" && hand.turn !== null && hand.turn !== undefined) {
    if (hand.turn === seat) return "acting";
    return hand.to_act === seat ? "asked" : null;
  }
  return hand.to_act === seat ? "acting" : null;
}

export function contractText(c) {
  const parts = [];
  if (c.books) parts.push(t("contract.books", { count: c.books }));
  if (c.runs) parts.push(t("contract.runs", { count: c.runs }));
  return parts.join(" + ");
}

// ---------------------------------------------------------------------------------- opponents

/** What ``seat`` said to the table a moment ago (shown for a few seconds), or null. */
function saying(ctx, seat) {
  const said = ctx.ui.said && ctx.ui.said.get(seat);
  return said ? t(`say.${said}`) : null;
}

/** How many people are at the table: seats they took (a computer standing in for one who left
 * counts as theirs), not seats still kept for a friend who has not come. */
export function people(welcome) {
  return welcome.seats.filter((s) => (s.kind === "human" && s.joined) || s.stand_in).length;
}

/** ``text`` with each number bound to the word after it ("0 điểm", "7 cards", "1 lần"), so
 * that a narrow box never breaks a line between them. */
function together(text) {
  return text.replace(/(\d) (?=\S)/gu, "$1\u00a0");
}

function renderOpponents(ctx) {
  const { msg } = ctx;
  const hand = msg.view.hand;
  const zone = $("opponents-zone");
  const n = hand.hand_sizes.length;
  const wanted = [];
  for (let i = 1; i < n; i++) wanted.push((ctx.seat + i) % n);
  zone.textContent = "";
  for (const seat of wanted) {
    const box = el("section", "opp");
    box.dataset.seat = String(seat);
    const mark = turnMark(hand, seat);
    if (mark) box.classList.add(mark);
    const head = el("h3", "opp-name", seatName(ctx, seat));
    const level = ctx.welcome.seats[seat].level;
    // The space before each "·" is where the line may break; "· Easy" stays together.
    if (level) head.append(" ", el("span", "level", `· ${t(`level.${level}`)}`));
    if (waitingFor(ctx, seat)) head.append(" ", el("span", "level", `· ${t("opp.not_joined")}`));
    else if (away(ctx, seat)) head.append(" ", el("span", "level", `· ${t("opp.away")}`));
    // Two turns in a row out of time: the computer plays this person's turns until they are back.
    else if ((ctx.msg.away || []).includes(seat)) head.append(" ", el("span", "level", `· ${t("opp.away_clock")}`));
    else if (reading(ctx, seat)) head.append(" ", el("span", "level", `· ${t("opp.reading")}`));
    box.append(head);
    const said = saying(ctx, seat);
    if (said) box.append(el("p", "bubble", said));
    if (mark) box.append(el("p", "sr-only", t(`score.${mark}`)));
    if (away(ctx, seat) && !ctx.msg.view.over && (!ctx.mayGive || ctx.mayGive(seat))) {
      // Anyone at the table may let the computer go on for a person who has left (the creator
      // too: else a table whose creator closed the page would wait for ever).
      const b = el("button", "small", t("opp.computer"));
      b.type = "button";
      b.dataset.computer = String(seat);
      b.setAttribute("aria-label", t("invite.computer_for", { name: seatName(ctx, seat) }));
      box.append(b);
    }
    const count = hand.hand_sizes[seat];
    const backs = el("div", "backs");
    backs.setAttribute("aria-hidden", "true");
    for (let i = 0; i < Math.min(count, 14); i++) backs.append(face(null));
    box.append(backs);
    const facts = [t("opp.cards", { count })];
    // The score is in the score bar too; on a phone only this copy of it is shown.
    const score = el("span", "opp-score", t("score.points", { count: ctx.msg.view.scores[seat] }));
    // Gin's boxes (hands won) too, which the score bar's hidden pill would have said.
    if (ctx.msg.view.boxes) score.append(` · ${t("score.boxes", { count: ctx.msg.view.boxes[seat] })}`);
    if (hand.dealer === seat) facts.push(t("opp.dealer"));
    if (hand.laid_down && hand.laid_down[seat]) facts.push(t("opp.down"));
    if (hand.buys && hand.buys[seat]) facts.push(t("opp.buys", { count: hand.buys[seat] }));
    const line = el("p", "opp-facts", together(facts.join(" · ")));
    score.textContent = together(score.textContent);
    line.append(score);
    box.append(line);
    const known = hand.known_cards ? hand.known_cards[seat] : [];
    if (known && known.length) {
      const p = el("p", "opp-known");
      const cards = known.map(shortCard).join(" ");
      setSpoken(p, t("opp.known", { cards }), t("opp.known", { cards: cardList(known) }));
      // On a wide screen the line is only "↩" and the cards (the mark of a taken card in the
      // hand), on one line: the words around the cards are wrapped to be hidden there.
      const shown = p.querySelector('[aria-hidden="true"]') || p;
      const [before, after = ""] = t("opp.known", { cards: "\u0000" }).split("\u0000");
      shown.textContent = "";
      shown.append(el("span", "known-words", before), el("span", "known-cards", cards), el("span", "known-words", after));
      p.title = t("opp.known", { cards });
      box.append(p);
    }
    zone.append(box);
  }
}

// ------------------------------------------------------------------------------------ piles

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

// ------------------------------------------------------------------------------ table melds

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

function renderMelds(ctx) {
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

// -------------------------------------------------------------------------------------- hand

export function selectedCards(ctx) {
  const entries = handEntries(ctx.msg.view.hand, ctx.ui);
  return entries.filter((e) => ctx.ui.selected.has(e.key)).map((e) => e.card);
}

let handWidth = 0;
const handSized = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
  const width = $("hand").clientWidth;
  if (width !== handWidth) balanceHandRows();
}) : null;

/** A hand too long for one row (Crazy Rummy after buys) is laid out in even rows, 9 and 9
 * rather than 16 and 2, each row as wide as the strip and starting at its left edge (the
 * overlap of the first card of a row would put it off the screen). A hand of one row is left
 * to the style sheet. */
function balanceHandRows() {
  const zone = $("hand");
  handWidth = zone.clientWidth;
  if (handSized && !zone.dataset.sized) {
    zone.dataset.sized = "1";
    handSized.observe(zone);
  }
  const cards = [...zone.querySelectorAll(":scope > .card")];
  zone.style.removeProperty("--m");
  cards.forEach((c) => c.classList.remove("row-start"));
  if (cards.length < 4 || !handWidth) return;
  const rows = new Set(cards.map((c) => c.offsetTop)).size;
  if (rows < 2) return;
  const per = Math.ceil(cards.length / rows);
  const style = getComputedStyle(zone);
  // (widths to the fraction of a pixel: a card is 47.26 px wide on a phone held sideways)
  const room = zone.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const width = cards[0].getBoundingClientRect().width;
  // (two pixels to spare, so the card after the row's last goes to the next row)
  const gap = Math.min((room - 2 - per * width) / (per - 1), 4);
  zone.style.setProperty("--m", `${gap}px`);
  cards.forEach((c, i) => c.classList.toggle("row-start", i > 0 && i % per === 0));
}

function renderHand(ctx) {
  const { msg, ui, welcome } = ctx;
  const hand = msg.view.hand;
  const zone = $("hand");
  const entries = handEntries(hand, ui);
  const meldOf = new Map();
  const melds = (msg.aids && msg.aids.melds) || [];
  melds.forEach((m, i) => m.forEach((c) => meldOf.set(c, i)));
  const keys = new Set(entries.map((e) => e.key));
  const hadFocus = zone.contains(document.activeElement);
  const dws = msg.aids && msg.aids.discard_deadwood;
  const mine = hand.to_act === ctx.seat && hand.phase === "discard";
  for (const [key, node] of handNodes) {
    if (!keys.has(key)) {
      node.remove();
      handNodes.delete(key);
    }
  }
  if (!ui.focusKey || !keys.has(ui.focusKey)) {
    // The card under the cursor has gone (thrown, melded, laid off): the cursor keeps its place,
    // on the card that took the gone card's place, or on the new last card.
    const at = Math.max(0, Math.min(ui.focusIndex ?? 0, entries.length - 1));
    ui.focusKey = entries.length ? entries[at].key : null;
  }
  ui.focusIndex = entries.findIndex((e) => e.key === ui.focusKey);
  entries.forEach((e, index) => {
    let b = handNodes.get(e.key);
    if (!b) {
      b = el("button", "card");
      b.type = "button";
      b.dataset.key = e.key;
      b.append(face(e.card));
      handNodes.set(e.key, b);
    }
    b.dataset.card = e.card;
    const selected = ui.selected.has(e.key);
    b.setAttribute("aria-pressed", selected ? "true" : "false");
    let name = cardName(e.card);
    const m = meldOf.get(e.card);
    b.classList.remove("m0", "m1", "m2", "m3", "m4", "in-meld");
    if (m !== undefined && welcome.game !== "crazy") {
      b.classList.add("in-meld", `m${m % 5}`);
    }
    b.classList.toggle("new", ui.gained.has(e.key));
    const wild = Boolean(msg.aids && msg.aids.wilds && msg.aids.wilds.includes(e.card));
    b.classList.toggle("wild-card", wild);
    const taken = hand.taken_from_discard === e.card && hand.phase === "discard";
    b.classList.toggle("taken", taken);
    b.setAttribute("aria-label", wild ? `${name} (${t("card.wild")})` : name);
    const desc = [];
    if (m !== undefined && welcome.game !== "crazy") desc.push(t("hand.in_meld", { n: m + 1 }));
    if (wild) desc.push(t("card.wild"));
    if (taken) desc.push(t("hand.just_taken"));
    if (dws && dws[e.card] !== undefined && !taken) desc.push(t("hand.if_discarded", { n: dws[e.card] }));
    if (mine && welcome.game !== "gin") {
      const fits = [...meldsAccepting(msg, e.card)];
      if (fits.length) desc.push(t("hand.fits", { list: fits.join(", ") }));
    }
    if (desc.length) b.title = desc.join(" · ");
    else b.removeAttribute("title");
    b.tabIndex = e.key === ui.focusKey ? 0 : -1;
    b.style.setProperty("--i", String(index));
    if (zone.children[index] !== b) zone.insertBefore(b, zone.children[index] || null);
  });
  if (hadFocus && !zone.contains(document.activeElement) && ui.focusKey) handNodes.get(ui.focusKey)?.focus();
  zone.classList.toggle("many", entries.length > 11);
  zone.style.setProperty("--n", String(Math.max(2, entries.length)));
  // The cards a tall phone sizes the hand for: at least 11, so a draw or a discard does not
  // resize them (see app.css).
  zone.style.setProperty("--n-fit", String(Math.max(11, entries.length)));
  balanceHandRows();
  $("hand-title").textContent = t("hand.title", { count: entries.length });
  const dw = $("deadwood");
  const sel = selectedCards(ctx);
  if (dws && sel.length === 1 && dws[sel[0]] !== undefined) {
    dw.textContent = t("hand.deadwood_if", { card: shortCard(sel[0]), n: dws[sel[0]] });
  } else if (msg.aids && msg.aids.deadwood !== undefined && welcome.game === "gin") {
    dw.textContent = t(hand.hand.length === 11 ? "hand.deadwood_after" : "hand.deadwood", { n: msg.aids.deadwood });
  } else if (msg.aids && msg.aids.deadwood !== undefined && welcome.game === "rummy") {
    dw.textContent = t("hand.unmelded", { n: msg.aids.deadwood });
  } else dw.textContent = "";
  // The sort button names the order the hand is in now, and (in its label) what a tap does.
  const modes = sortModes(ctx);
  const next = modes[(modes.indexOf(ui.sortMode) + 1) % modes.length] || "suit";
  const now = t(`hand.sort_${ui.sortMode}`);
  const sort = $("btn-sort");
  sort.textContent = t("hand.sort", { mode: now });
  const what = t("hand.sort_label", { mode: now, next: t(`hand.sort_${next}`) });
  sort.title = what;
  sort.setAttribute("aria-label", what);
}

// ----------------------------------------------------------------------------------- actions

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

// ------------------------------------------------------------------------------------ prompt

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

function renderLog(ctx) {
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

// ----------------------------------------------------------------------------- invitations

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

// ------------------------------------------------------------------------------------ render

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

export function focusHandCard(key) {
  const node = handNodes.get(key);
  if (node) node.focus();
}
