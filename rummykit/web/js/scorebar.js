// The score bar: the game, its house rules, the scores, whose turn it is and the contract.
import { durationText } from "./clock.js";
import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { saying, seatName } from "./opponents.js";
import { defaultsOf } from "./start.js";

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

export function renderScorebar(ctx) {
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
export function turnMark(hand, seat) {
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
