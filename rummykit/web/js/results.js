// The end-of-hand and end-of-match screens: every number comes from the server's results.
import { actionCards, miniRow, shortCard, shownText } from "./cards.js";
import { el } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";
import { objectName, seatName } from "./opponents.js";

const RANKS = "A23456789TJQK";

/** A knocker's meld with the defender's lay-offs on it, a run in rank order. */
function meldWithLayoffs(meld, added) {
  const cards = [...meld.split(" "), ...added];
  const suits = new Set(cards.map((c) => c.slice(-1)));
  if (suits.size === 1) cards.sort((a, b) => RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]));
  return cards;
}

function table(head, rows, caption) {
  const tbl = el("table", "score-table");
  if (caption) tbl.append(el("caption", "", caption));
  const thead = el("thead");
  const tr = el("tr");
  head.forEach((h, i) => {
    const th = el("th", "", h);
    th.scope = "col";
    tr.append(th);
  });
  thead.append(tr);
  tbl.append(thead);
  const tbody = el("tbody");
  for (const row of rows) {
    const r = el("tr");
    row.forEach((cell, i) => {
      const c = el(i === 0 ? "th" : "td", "", String(cell));
      if (i === 0) c.scope = "row";
      r.append(c);
    });
    tbody.append(r);
  }
  tbl.append(tbody);
  // A wide table (4-6 players on a phone) scrolls by itself; the dialog never scrolls sideways.
  const box = el("div", "table-scroll");
  box.append(tbl);
  return box;
}

function seats(ctx) {
  return ctx.msg.view.scores.map((_, s) => s);
}

// ------------------------------------------------------------------------------------- hands

/** ``text`` with a capital letter starting each sentence: a name put in as "you" ("bạn") may
 * open one in another language's word order ("Ù Gin! Bạn được 25 điểm"). */
export function sentenceCase(text) {
  return text.replace(/(^|[.!?]\s+)(\p{Ll})/gu, (_, before, letter) => before + letter.toUpperCase());
}

/** Whether the computer made the move that decided the hand (Gin: the knock; the other games:
 * the winner's last move) in that seat for its person, who was away then; undefined when the
 * move is not known (names then follow the seat as it is now). From ``ctx.decidedByStandIn``
 * if given, else the marks of a hand shown after it ended (``ctx.standIns``, its moves' numbers),
 * else the log of the hand in play. */
export function decidedByStandIn(ctx, r) {
  if ("decidedByStandIn" in ctx) return ctx.decidedByStandIn;
  const gin = ctx.welcome.game === "gin";
  const seat = gin ? r.knocker : r.winner;
  if (seat === null || seat === undefined) return undefined;
  const decides = (action) => !gin || /^(knock|biggin)\b/.test(action);
  if (ctx.standIns) {
    const history = ctx.msg.view.hand.history;
    for (let i = history.length - 1; i >= 0; i--) {
      if (history[i][0] === seat && decides(history[i][1])) return ctx.standIns.has(i);
    }
    return undefined;
  }
  const log = (ctx.ui && ctx.ui.log) || [];
  for (let i = log.length - 1; i >= 0 && log[i].kind !== "hand"; i--) {
    const item = log[i];
    if (item.kind === "move" && item.entry.seat === seat && decides(item.entry.action)) return item.standIn;
  }
  return undefined;
}

function ginTitle(ctx, r) {
  const name = r.winner === null ? "" : objectName(ctx, r.winner);
  const k = `result.gin.${r.outcome}`;
  const knocker = r.knocker === null ? "" : seatName(ctx, r.knocker, decidedByStandIn(ctx, r));
  return sentenceCase(t(k, { name, count: r.points, knocker }));
}

function ginBody(ctx, r, body) {
  if (r.outcome === "cancelled") {
    body.append(el("p", "", t("result.gin.cancelled_text")));
    return;
  }
  for (const seat of [r.knocker, 1 - r.knocker]) {
    const box = el("section", "result-seat");
    const role = seat === r.knocker ? t("result.knocker") : t("result.defender");
    const name = seatName(ctx, seat, seat === r.knocker ? decidedByStandIn(ctx, r) : undefined);
    box.append(el("h3", "", `${name} (${role})`));
    const melds = el("div", "result-melds");
    r.melds[seat].forEach((m, i) => {
      // The defender's lay-offs are shown on the knocker's melds they went onto, marked.
      const added = seat === r.knocker ? r.layoffs.filter(([, n]) => n === i + 1).map(([c]) => c) : [];
      const laidText = t("result.laid_off_by", { name: seatName(ctx, 1 - r.knocker) });
      const laid = (card) => (added.includes(card) ? { cls: "laid-off", note: laidText } : null);
      const row = miniRow(meldWithLayoffs(m, added), laid);
      if (seat === r.knocker) {
        // Numbered as at the table and in "8♥ on meld 2": the melds lay-offs go onto.
        const no = el("span", "meld-no", String(i + 1));
        no.setAttribute("aria-hidden", "true");
        row.querySelector(".sr-only").textContent = t("meld.label", { n: i + 1, cards: row.querySelector(".sr-only").textContent });
        row.prepend(no);
      }
      melds.append(row);
    });
    if (!r.melds[seat].length) melds.append(el("p", "", t("result.no_melds")));
    box.append(melds);
    const dw = el("p", "result-deadwood");
    if (r.unmatched[seat].length) dw.append(el("span", "", t("result.deadwood", { n: r.deadwood[seat] })), miniRow(r.unmatched[seat]));
    else dw.textContent = t("result.no_deadwood");
    box.append(dw);
    body.append(box);
  }
  if (r.layoffs.length) {
    const lay = el("p", "result-layoffs");
    lay.textContent = t("result.layoffs", {
      list: r.layoffs.map(([c, n]) => t("result.layoff_item", { card: shortCard(c), n })).join(", "),
    });
    body.append(lay);
  } else if (r.outcome === "knock" || r.outcome === "undercut") {
    body.append(el("p", "result-layoffs", t("result.no_layoffs")));
  }
  const pts = el("p", "result-points");
  pts.textContent = sentenceCase(r.bonus
    ? t("result.points_bonus", { name: objectName(ctx, r.winner), count: r.points, bonus: r.bonus })
    : t("result.points", { name: objectName(ctx, r.winner), count: r.points }));
  // How the points add up: the loser's deadwood less the winner's, then the bonus.
  const loser = 1 - r.winner;
  const diff = r.deadwood[loser] - r.deadwood[r.winner];
  const sum = t("result.gin.difference", { a: r.deadwood[loser], b: r.deadwood[r.winner], diff });
  const plus = r.bonus ? " " + t("result.gin.plus_bonus", { bonus: r.bonus, count: r.points }) : "";
  body.append(pts, el("p", "result-sum", sum + plus));
}

/** One seat's cards left at the end of a Basic or Crazy Rummy hand (or that it went out). */
function leftLine(ctx, r, seat, text) {
  const p = el("p", "result-left");
  if (!r.remaining[seat].length) {
    p.textContent = t(seat === r.winner ? "result.went_out" : "result.no_cards");
    return p;
  }
  p.append(el("span", "", text), miniRow(r.remaining[seat]));
  return p;
}

function seatHeading(ctx, r, seat) {
  // (the one who went out named as the title names them: the computer, if it did for them)
  const h = el("h3", "", seatName(ctx, seat, seat === r.winner ? decidedByStandIn(ctx, r) : undefined));
  if (seat === r.winner) h.append(el("span", "went-out", ` · ${t("result.out_marker")}`));
  return h;
}

function rummyTitle(ctx, r) {
  if (r.outcome === "stalemate") return t("result.rummy.stalemate");
  return t("result.rummy.out", { name: seatName(ctx, r.winner, decidedByStandIn(ctx, r)), count: r.points });
}

function rummyBody(ctx, r, body) {
  // In a stalemate nobody scores, so nobody shows their cards: only this seat's are listed, and
  // one line says why the others' are not.
  const stalemate = r.outcome === "stalemate";
  const all = el("div", "result-seats");
  for (const seat of seats(ctx)) {
    if (stalemate && seat !== ctx.seat) continue;
    const box = el("section", "result-seat");
    box.append(seatHeading(ctx, r, seat), leftLine(ctx, r, seat, t("result.left", { count: r.hand_values[seat] })));
    all.append(box);
  }
  body.append(all);
  if (stalemate && seats(ctx).length > 1) body.append(el("p", "result-not-shown", t("result.not_shown")));
  if (r.rummy) body.append(el("p", "", t("result.rummy.bonus")));
  const limit = ctx.welcome.options && ctx.welcome.options.restock_limit;
  if (r.outcome === "stalemate" && Number.isInteger(limit)) {
    // Why the hand ended without a winner, and the house rule that makes it rarer.
    body.append(el("p", "result-why", t("result.rummy.stalemate_why", { count: limit })));
  }
}

function crazyTitle(ctx, r) {
  if (r.outcome === "stock_out") return t("result.crazy.stock_out");
  return t("result.crazy.out", { name: seatName(ctx, r.winner, decidedByStandIn(ctx, r)) });
}

function crazyBody(ctx, r, body) {
  if (!ctx.msg.view.over) {
    // (at the end of the match, the match's table has every round)
    const rows = ctx.msg.view.hand_scores.map((scores, i) => [t("result.crazy.round", { n: i + 1 }), ...scores]);
    rows.push([t("result.total"), ...ctx.msg.view.scores]);
    body.append(table(["", ...seats(ctx).map((s) => seatName(ctx, s))], rows, t("result.crazy.table")));
  }
  const all = el("div", "result-seats");
  for (const seat of seats(ctx)) {
    const box = el("section", "result-seat");
    box.append(seatHeading(ctx, r, seat), leftLine(ctx, r, seat, t("result.crazy.points", { count: r.points[seat] })));
    all.append(box);
  }
  body.append(all);
}

// ------------------------------------------------------------------------------------- match

function matchBody(ctx, body) {
  const m = ctx.msg.view.result;
  const names = seats(ctx).map((s) => seatName(ctx, s));
  const game = ctx.welcome.game;
  const section = el("section", "match-result");
  let rows;
  if (game === "gin") {
    section.append(el("h3", "", t("result.match.winner", { name: seatName(ctx, m.winner) })));
    rows = [
      [t("result.match.hand_points"), ...m.hand_points],
      [t("result.match.game_bonus"), ...m.game_bonus],
      [t("result.match.box_bonus"), ...m.box_bonus.map((b, i) => t("result.match.boxes", { count: m.boxes[i], points: b }))],
    ];
    if (m.shutout) rows.push([t("result.match.shutout"), ...m.totals.map((_, i) => (i === m.winner ? "×2" : ""))]);
    rows.push([t("result.total"), ...m.totals]);
  } else {
    const winners = m.winners.map((s) => seatName(ctx, s)).join(", ");
    section.append(el("h3", "", t(m.winners.length > 1 ? "result.match.tie" : "result.match.winner", { name: winners })));
    if (game === "crazy") section.append(el("p", "", t("result.crazy.lowest")));
    rows = ctx.msg.view.hand_scores.map((s, i) => [t(game === "crazy" ? "result.crazy.round" : "result.hand_n", { n: i + 1 }), ...s]);
    rows.push([t("result.total"), ...m.totals]);
  }
  section.append(table(["", ...names], rows, t("result.match.table")));
  body.append(section);
}

/** The hand's outcome in one line, e.g. "Lan went out: 36 points" (also the log's last line). */
export function resultTitle(ctx, r) {
  if (ctx.welcome.game === "gin") return ginTitle(ctx, r);
  if (ctx.welcome.game === "crazy") return crazyTitle(ctx, r);
  return rummyTitle(ctx, r);
}

/** Fill the result dialog for the hand just over (and the match, if it is over). */
export function renderResult(ctx) {
  const view = ctx.msg.view;
  const r = view.hand.result;
  const body = document.getElementById("result-body");
  body.textContent = "";
  const game = ctx.welcome.game;
  let title = "";
  if (r) {
    if (game === "gin") {
      title = ginTitle(ctx, r);
      ginBody(ctx, r, body);
    } else if (game === "crazy") {
      title = crazyTitle(ctx, r);
      crazyBody(ctx, r, body);
    } else {
      title = rummyTitle(ctx, r);
      rummyBody(ctx, r, body);
    }
  }
  if (game !== "crazy" && !view.over) {
    // Every hand so far, then the running totals: in Basic Rummy (up to six seats, whose cards
    // left make a long list) above the seats, so a laptop's short screen opens on them; in Gin
    // (two seats) below the melds.
    const rows = (view.hand_scores || []).map((s, i) => [t("result.hand_n", { n: i + 1 }), ...s]);
    rows.push([t("result.total"), ...view.scores]);
    const scores = table(["", ...seats(ctx).map((s) => seatName(ctx, s))], rows, t("result.scores"));
    if (game === "gin") body.append(scores);
    else body.prepend(scores);
  }
  if (view.over) {
    // The match's winner and final score come first (a laptop's short screen opens on them,
    // above the buttons), then the last hand's headline and details.
    const details = [...body.childNodes];
    body.textContent = "";
    matchBody(ctx, body);
    if (title) body.append(el("p", "hand-headline", title));
    body.append(...details);
    // (its headline says who won; the title says so too when it was the reader)
    const won = view.result.winners.includes(ctx.seat);
    const shared = view.result.winners.length > 1;
    title = t(won ? (shared ? "result.match.title_shared" : "result.match.title_won") : "result.match.title");
  }
  document.getElementById("result-title").textContent = title;
  const next = document.getElementById("btn-next");
  next.textContent = t(game === "crazy" ? "result.next_round" : "result.next_hand");
  next.hidden = view.over;
  // A rematch seats the same people again (whoever asks first starts it for everyone).
  const rematch = document.getElementById("btn-rematch");
  rematch.hidden = !view.over;
  rematch.textContent = t(ctx.rematchJoined ? "result.to_rematch" : "result.rematch");
  document.getElementById("btn-newgame").hidden = !view.over;
  // Against the computer the match's deal number is told at its end: play it again, or pass
  // it on (the same cards and the same computer moves for whoever opens the address).
  const deal = view.over && ctx.msg.deal_number ? ctx.msg.deal_number : null;
  const again = document.getElementById("btn-deal-again");
  again.hidden = deal === null;
  if (deal !== null) {
    again.textContent = t("result.deal_again", { deal });
    again.dataset.deal = String(deal);
    body.append(el("p", "result-deal", t("result.deal_link", { deal, link: `${location.origin}/?deal=${deal}` })));
  }
  document.getElementById("dlg-result").dataset.hand = String(view.hand_number);
  renderReview(ctx);
}

// ------------------------------------------------------------------------------------ review

const MARKS = { same: "✓", as_good: "≈", different: "✗" };

/** One decision, numbered among the person's own decisions of the hand (``n``). */
function reviewStep(step, n, lang) {
  const li = el("li", `review-step ${step.verdict}`);
  const head = el("p", "review-line");
  const mark = el("span", "review-mark", MARKS[step.verdict]);
  mark.setAttribute("aria-hidden", "true");
  head.append(mark, el("span", "sr-only", `${t(`review.verdict.${step.verdict}`)}: `));
  head.append(el("span", "review-number", `${n}. `));
  head.append(el("span", "review-you", t("review.you", { text: shownText(step.played_text[lang] || step.played_text.en) })));
  li.append(head);
  if (step.verdict === "same") return li;
  const move = shownText(step.advice_move[lang] || step.advice_move.en);
  const reason = shownText(step.advice_reason[lang] || step.advice_reason.en);
  const key = step.verdict === "as_good" ? "review.computer_as_good" : "review.computer";
  li.append(el("p", "review-computer", t(key, { move, why: reason ? ` (${reason})` : "" })));
  if (step.verdict === "different") {
    // The hand as it was, the card played and the card the computer would play marked (and
    // the pile's top card, when the choice was whether to take it).
    const row = el("div", "review-hand");
    row.append(el("span", "review-label", `${t("review.hand")}:`));
    row.append(markedRow(step.hand, step.played, step.advice.action));
    if (step.top && ["draw", "offer", "buy"].includes(step.phase)) {
      const pile = el("span", "review-pile");
      const taking = (action) => /^(take|buy)\b/.test(action) ? `${action} ${step.top}` : "";
      pile.append(el("span", "review-label", `${t("review.pile_label")}:`));
      pile.append(markedRow([step.top], taking(step.played), taking(step.advice.action)));
      row.append(pile);
    }
    li.append(row);
  }
  return li;
}

/** ``cards`` as mini cards, those ``played`` names outlined red, those ``advised`` names green. */
function markedRow(cards, played, advised) {
  // Counted, not a set: of two copies of a card (two packs), a move that names it once marks one.
  const tally = (action) => actionCards(action).reduce((n, c) => n.set(c, (n.get(c) || 0) + 1), new Map());
  const mine = tally(played);
  const its = tally(advised);
  const take = (n, card) => (n.get(card) ? (n.set(card, n.get(card) - 1), true) : false);
  const row = miniRow(cards);
  row.querySelectorAll(".face").forEach((f, i) => {
    if (take(mine, cards[i])) f.classList.add("review-played");
    if (take(its, cards[i])) f.classList.add("review-advised");
  });
  return row;
}

function legend() {
  const p = el("p", "review-legend");
  p.setAttribute("aria-hidden", "true"); // the lines already say which card is whose
  p.append(el("span", "swatch played"), t("review.legend_played"), el("span", "swatch advised"), t("review.legend_advised"));
  return p;
}

/** The hand to review: the one on the score screen (which stays up while another person deals
 * the next one), or an earlier one of the match picked beside the button. */
export function reviewedHand(ctx) {
  const shown = Number(document.getElementById("dlg-result").dataset.hand);
  const pick = ctx.ui.reviewPick;
  return pick && pick.shown === shown && pick.hand >= 1 && pick.hand <= shown ? pick.hand : shown;
}

/** The hand picker: every hand of the match so far (shown once there are two). */
function renderPicker(ctx, shown, hand) {
  const select = document.getElementById("review-hand");
  select.hidden = !(shown > 1);
  select.textContent = "";
  const key = ctx.welcome && ctx.welcome.game === "crazy" ? "result.crazy.round" : "result.hand_n";
  for (let n = 1; n <= shown; n += 1) select.append(new Option(t(key, { n }), String(n), false, n === hand));
}

/** The review of the picked hand, once the server has sent it (see messages.js). */
export function renderReview(ctx) {
  const box = document.getElementById("review");
  const button = document.getElementById("btn-review");
  const shown = Number(document.getElementById("dlg-result").dataset.hand);
  const hand = reviewedHand(ctx);
  renderPicker(ctx, shown, hand);
  // After a rematch someone else started, the final score stays up with the reviews it had; the
  // page's connection is at the new match, so no other can be asked for.
  const closed = Boolean(ctx.rematchJoined);
  const review = (closed ? (ctx.ui.pastReviews || new Map()).get(hand) : ctx.ui.reviews.get(hand)) || null;
  button.hidden = Boolean(review) || closed;
  box.hidden = !review && !closed;
  box.textContent = "";
  if (!review) {
    if (closed) box.append(el("p", "", t("review.after_rematch")));
    return;
  }
  const label = shown > 1 ? `${document.getElementById("review-hand").selectedOptions[0].text} · ` : "";
  const title = el("h3", "", label + t("review.title"));
  title.id = "review-title";
  title.tabIndex = -1;
  box.append(title);
  if (!review.data) {
    box.append(el("p", "review-pending", t("review.pending")));
    return;
  }
  const data = review.data;
  const lang = currentLanguage();
  // The moves the computer made for this person while they were away are not theirs to review.
  const stoodIn = data.stood_in || 0;
  if (!data.steps.length) {
    box.append(el("p", "", t(stoodIn ? "review.none_stand_in" : "review.none")));
    return;
  }
  const differs = data.steps.some((s) => s.verdict === "different");
  const summary = { level: t(`level.${data.level}`), agreed: data.agreed, count: data.decisions };
  box.append(el("p", "review-summary", differs ? t("review.summary", summary) : t("review.all_same")));
  if (stoodIn) box.append(el("p", "review-left-out", t("review.left_out", { count: stoodIn })));
  const list = el("ol", "review-steps");
  list.setAttribute("aria-labelledby", "review-title");
  if (differs) {
    const label = el("label", "review-filter");
    const only = el("input");
    only.type = "checkbox";
    only.checked = review.onlyDifferent !== false;
    only.addEventListener("change", () => {
      review.onlyDifferent = only.checked;
      list.classList.toggle("only-different", only.checked);
    });
    label.append(only, document.createTextNode(` ${t("review.only_different")}`));
    box.append(label, legend());
    list.classList.toggle("only-different", only.checked);
  }
  data.steps.forEach((step, i) => list.append(reviewStep(step, i + 1, lang)));
  box.append(list);
  if (differs) box.append(el("p", "review-note", t("review.note")));
}
