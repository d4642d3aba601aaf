// The other seats: their names in sentences, what each is doing (thinking, away, reading the
// rules), and their strip at the top of the table.
import { face, shortCard } from "./cards.js";
import { $, cardList, el, setSpoken } from "./dom.js";
import { t } from "./i18n.js";
import { turnMark } from "./scorebar.js";

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
export function waitingFor(ctx, seat) {
  const info = ctx.welcome.seats[seat];
  return info.kind === "human" && info.joined === false;
}

/** True for a person's seat whose page is not connected now (as far as the server said). */
export function away(ctx, seat) {
  const info = ctx.welcome.seats[seat];
  return Boolean(ctx.online) && info.kind === "human" && info.joined !== false && !ctx.online.has(seat);
}

/** True for another person's seat whose page shows a hand's score now (as the server said). */
export function reading(ctx, seat) {
  return Boolean(ctx.reading) && seat !== ctx.seat && ctx.reading.has(seat);
}

/** What ``seat`` said to the table a moment ago (shown for a few seconds), or null. */
export function saying(ctx, seat) {
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

export function renderOpponents(ctx) {
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
