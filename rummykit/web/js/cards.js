// Cards as text: parsing the notation ("7H", "TC", "X"), names from the catalogue, faces drawn
// with CSS (real text, sized in em). The drawing is decorative; the button carries the name.
import { t } from "./i18n.js";

export const SUITS = ["C", "D", "H", "S"];
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };

/** {rank, suit} of a card string; a joker is {rank: "X", suit: null}. */
export function parseCard(text) {
  if (text === "X") return { rank: "X", suit: null };
  return { rank: text.slice(0, -1), suit: text.slice(-1) };
}

/** The rank as printed on a card face: "10" for T. */
export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

/** A short printed form: "7♥", "10♣", "🃏" for a joker. */
export function shortCard(text) {
  const { rank, suit } = parseCard(text);
  if (suit === null) return t("card.joker_short");
  return rankLabel(rank) + SYMBOL[suit];
}

/** ``text`` (the server's words: a hint, a review) with a joker written as the rest of the page
 * writes it ("Joker", not the 🃏 sign, which some devices draw as an empty box). */
export function shownText(text) {
  return text.replace(/🃏/gu, t("card.joker_short"));
}

/** The card's accessible name from the catalogue: "7 of hearts" / "7 cơ". */
export function cardName(text) {
  const { rank, suit } = parseCard(text);
  if (suit === null) return t("card.joker");
  return t("card.name", { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) });
}

const SUIT_OF = { "♣": "C", "♦": "D", "♥": "H", "♠": "S" };

/** ``text`` (the server's words, a hint say) with each card written short ("K♣", "10♥", "🃏")
 * named in words instead ("king of clubs"), for a screen reader. */
export function spokenCards(text) {
  return text.replace(/(10|[2-9AJQK])([♣♦♥♠])|🃏/gu, (short, rank, suit) =>
    rank ? cardName((rank === "10" ? "T" : rank) + SUIT_OF[suit]) : cardName("X"),
  );
}

/** The suits in the hand's order: black and red take turns, so neighbouring suits never share
 * a colour (♦ beside ♥ is easy to misread in a long hand). */
const SHOWN_SUITS = ["S", "H", "C", "D"];

/** Sort keys for the two sort orders of the hand (display only, not a rule). */
export function suitOrder(text) {
  const { rank, suit } = parseCard(text);
  if (suit === null) return 1000;
  return SHOWN_SUITS.indexOf(suit) * 20 + RANKS.indexOf(rank);
}
export function rankOrder(text) {
  const { rank, suit } = parseCard(text);
  if (suit === null) return 1000;
  return RANKS.indexOf(rank) * 4 + SHOWN_SUITS.indexOf(suit);
}

/** Fill ``el`` with a card face: corner index and pips, or a picture (J, Q, K, joker); or a back
 * when ``text`` is null. */
export function drawFace(el, text) {
  el.textContent = "";
  if (text === null) {
    el.className = "face back";
    return el;
  }
  const { rank, suit } = parseCard(text);
  el.className = "face " + (suit === null ? "joker" : `suit-${suit}`);
  const corner = document.createElement("span");
  corner.className = "corner";
  const r = document.createElement("span");
  r.className = "rank";
  r.textContent = suit === null ? "★" : rankLabel(rank);
  const s = document.createElement("span");
  s.className = "pip";
  // A joker's corner spells JOKER down the card, so it reads even where the hand overlaps it.
  s.textContent = suit === null ? "JOKER" : SYMBOL[suit];
  corner.append(r, s);
  el.append(corner, suit === null || "JQK".includes(rank) ? picture(rank, suit) : pips(rank, suit));
  return el;
}

/** Where a number card's pips go, as a real deck lays them out: [column, row] in the pip box
 * (0 to 1 across and down); pips in the lower half are printed upside down. */
const PIPS = {
  A: [[0.5, 0.5]],
  2: [[0.5, 0], [0.5, 1]],
  3: [[0.5, 0], [0.5, 0.5], [0.5, 1]],
  4: [[0, 0], [1, 0], [0, 1], [1, 1]],
  5: [[0, 0], [1, 0], [0.5, 0.5], [0, 1], [1, 1]],
  6: [[0, 0], [1, 0], [0, 0.5], [1, 0.5], [0, 1], [1, 1]],
  7: [[0, 0], [1, 0], [0.5, 0.25], [0, 0.5], [1, 0.5], [0, 1], [1, 1]],
  8: [[0, 0], [1, 0], [0.5, 0.25], [0, 0.5], [1, 0.5], [0.5, 0.75], [0, 1], [1, 1]],
  9: [[0, 0], [1, 0], [0, 1 / 3], [1, 1 / 3], [0.5, 0.5], [0, 2 / 3], [1, 2 / 3], [0, 1], [1, 1]],
  T: [[0, 0], [1, 0], [0.5, 1 / 6], [0, 1 / 3], [1, 1 / 3], [0, 2 / 3], [1, 2 / 3], [0.5, 5 / 6], [0, 1], [1, 1]],
};

/** A number card's (or an ace's) pips, in the suit's colour (four-colour deck included). */
function pips(rank, suit) {
  const box = document.createElement("span");
  box.className = rank === "A" ? "pips ace" : rank === "T" ? "pips ten" : "pips";
  for (const [x, y] of PIPS[rank]) {
    const pip = document.createElement("span");
    pip.textContent = SYMBOL[suit];
    pip.style.left = `${x * 100}%`;
    pip.style.top = `${y * 100}%`;
    if (y > 0.5) pip.className = "down";
    box.append(pip);
  }
  return box;
}

/** A court card's picture or the joker's (openly licensed drawings served with the page, see
 * web/cards/README.md), under the corner index, which stays the part to read. */
function picture(rank, suit) {
  const box = document.createElement("span");
  box.className = suit === null ? "picture joker-picture" : `picture court-${rank}${suit}`;
  return box;
}

/** A new decorative face element (aria-hidden) for ``text`` (null: a back). */
export function face(text) {
  const el = document.createElement("span");
  el.setAttribute("aria-hidden", "true");
  return drawFace(el, text);
}

/** Cards of an action's notation: "meld 7C 7D 7H" -> ["7C", "7D", "7H"]. */
export function actionCards(action) {
  return action
    .split(/[\s|:]+/)
    .slice(1)
    .filter((w) => /^([2-9TJQKA][CDHS]|X)$/.test(w));
}

/** ``cards`` as small faces in a row, with one line of their names for a screen reader.
 * ``mark(card, index)`` may give ``{cls, note}``: a class for that face, and words said after
 * its name and shown as its title (a card laid off, a card picked up again). */
export function miniRow(cards, mark = () => null) {
  const row = document.createElement("span");
  row.className = "mini-row";
  const names = [];
  const faces = cards.map((card, i) => {
    const f = face(card);
    f.classList.add("mini");
    const m = mark(card, i);
    if (m) {
      f.classList.add(m.cls);
      f.title = m.note;
    }
    names.push(m ? `${cardName(card)} (${m.note})` : cardName(card));
    return f;
  });
  const said = document.createElement("span");
  said.className = "sr-only";
  said.textContent = names.join(", ");
  row.append(said, ...faces);
  return row;
}
