// The start screen: choose the game, opponents, their level and the main options, or continue.
import { TURN_TIMES, durationText } from "./clock.js";
import { currentLanguage, has, t } from "./i18n.js";
import { renderStats } from "./stats.js";

const $ = (id) => document.getElementById(id);

/** How fast the computer seats may move (the server's ``PACES``), slowest first. */
export const PACES = ["slow", "normal", "fast"];

function option(value, text, selected) {
  const o = document.createElement("option");
  o.value = String(value);
  o.textContent = text;
  o.selected = selected;
  return o;
}

/** Draw the form for ``games`` (from GET /api/games) with ``settings`` (the last choice). */
export function renderStart(games, settings) {
  const choices = $("game-choices");
  choices.textContent = "";
  const current = games.find((g) => g.key === settings.game) || games[0];
  for (const g of games) {
    const label = document.createElement("label");
    label.className = "choice";
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "game";
    input.value = g.key;
    input.checked = g.key === current.key;
    const text = document.createElement("span");
    text.className = "choice-text";
    const strong = document.createElement("strong");
    strong.textContent = t(`game.${g.key}`);
    const small = document.createElement("small");
    small.textContent = t(`game.${g.key}.about`);
    text.append(strong, small);
    label.append(input, text);
    choices.append(label);
  }
  renderFields(current, settings);
  $("coach").checked = Boolean(settings.coach);
  $("pace").value = PACES.includes(settings.pace) ? settings.pace : "normal";
  renderChoice(games);
  renderStats();
}

export function renderFields(game, settings) {
  const presetField = $("preset-field");
  const preset = $("preset");
  preset.textContent = "";
  presetField.hidden = game.presets.length < 2;
  for (const p of game.presets) preset.append(option(p, t(`preset.${p}`), p === settings.preset));
  const opponents = $("opponents");
  opponents.textContent = "";
  const min = game.min_players - 1;
  const max = game.max_players - 1;
  const wanted = settings.game === game.key ? settings.opponents : game.default_players - 1;
  for (let n = min; n <= max; n++) opponents.append(option(n, t("start.opponents_n", { count: n }), n === wanted));
  $("opponents-field").hidden = min === max;
  renderFriends(settings.game === game.key ? settings.friends || 0 : 0);
  $("name").value = settings.name || "";
  const turnTime = $("turn-time");
  turnTime.textContent = "";
  const wantedTime = TURN_TIMES.includes(settings.turn_time) ? settings.turn_time : 0;
  for (const s of TURN_TIMES) turnTime.append(option(s, durationText(s), s === wantedTime));
  const level = $("level");
  level.textContent = "";
  // The random player is for tests and benchmarks: a person gets the real levels.
  const levels = game.levels.filter((l) => l !== "random");
  for (const l of levels.length ? levels : game.levels) level.append(option(l, t(`level.${l}`), l === settings.level));
  const target = $("target");
  const hasTarget = game.main_options.includes("target_score");
  $("target-field").hidden = !hasTarget;
  if (hasTarget) {
    const saved = settings.game === game.key ? settings.options?.target_score : undefined;
    target.value = String(saved ?? game.options.target_score);
  }
  const hasKnock = game.main_options.includes("knock_limit");
  $("knock-field").hidden = !hasKnock;
  if (hasKnock) {
    const saved = settings.game === game.key ? settings.options?.knock_limit : undefined;
    $("knock").value = String(saved ?? game.options.knock_limit);
  }
  $("start-summary").textContent = t(`game.${game.key}.summary`);
  const chosen = game.presets.length ? preset.value || game.presets[0] : game.key;
  const same = settings.game === game.key && (settings.preset || game.key) === chosen;
  renderHouse(game, chosen, same ? settings.options : null);
}

// ------------------------------------------------------------------------------ house rules

/** The options of ``preset`` (or of the game, without presets) as JSON data. */
export function defaultsOf(game, preset) {
  return (game.preset_options && game.preset_options[preset]) || game.options;
}

/** How an empty number field reads back: what None is written as in the options' JSON. */
function noneValue(spec) {
  return spec.none === "unlimited" ? "unlimited" : null;
}

/** Every option the main fields do not show, as a form field, set to ``saved`` or to the
 * preset's value. */
export function renderHouse(game, preset, saved) {
  const box = $("house-fields");
  box.textContent = "";
  box.dataset.game = game.key;
  box.dataset.preset = preset;
  const defaults = defaultsOf(game, preset);
  for (const spec of game.specs || []) {
    if (game.main_options.includes(spec.name)) continue;
    const value = saved && spec.name in saved ? saved[spec.name] : defaults[spec.name];
    const id = `opt-${spec.name}`;
    const row = document.createElement("div");
    row.className = spec.kind === "bool" ? "field check" : "field";
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = t(`opt.${spec.name}`);
    let input;
    if (spec.kind === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = value === true;
    } else if (spec.kind === "choice") {
      input = document.createElement("select");
      for (const c of spec.choices) input.append(option(c, t(`opt.${spec.name}.${c}`), c === value));
    } else {
      input = document.createElement("input");
      input.type = "number";
      input.min = String(spec.low);
      input.max = String(spec.high);
      input.step = "1";
      input.inputMode = "numeric";
      input.required = spec.none === null;
      if (spec.none !== null) input.placeholder = spec.none === "unlimited" ? "∞" : "—"; // the help says what empty means
      input.value = value === null || value === undefined || typeof value === "string" ? "" : String(value);
    }
    input.id = id;
    input.dataset.option = spec.name;
    row.append(label, input);
    if (has(`opt.${spec.name}.help`)) {
      const help = document.createElement("small");
      help.className = "help";
      help.id = `${id}-help`;
      help.textContent = t(`opt.${spec.name}.help`);
      input.setAttribute("aria-describedby", help.id);
      row.append(help);
    }
    box.append(row);
  }
  countHouse(game);
}

/** The house rules chosen: each option whose value differs from the preset's. */
export function readHouse(game) {
  const box = $("house-fields");
  if (!game.specs || box.dataset.game !== game.key) return {};
  const defaults = defaultsOf(game, box.dataset.preset);
  const out = {};
  for (const spec of game.specs) {
    const input = box.querySelector(`[data-option="${spec.name}"]`);
    if (!input) continue;
    let value;
    if (spec.kind === "bool") value = input.checked;
    else if (spec.kind === "choice") value = input.value;
    else if (input.value.trim() === "" && spec.none !== null) value = noneValue(spec);
    else value = parseInt(input.value, 10);
    if (typeof value === "number" && !Number.isFinite(value)) continue;
    if (value !== defaults[spec.name]) out[spec.name] = value;
  }
  return out;
}

/** "(2 changed)" beside the house rules' title, or nothing. */
export function countHouse(game) {
  const n = Object.keys(readHouse(game)).length;
  $("house-count").textContent = n ? t("house.changed", { count: n }) : "";
}

/** The "of them, friends" choice (0 to the number of opponents), and what depends on it. */
export function renderFriends(wanted) {
  const opponents = parseInt($("opponents").value, 10) || 0;
  const friends = $("friends");
  const keep = Math.min(wanted ?? (parseInt(friends.value, 10) || 0), opponents);
  // A game of exactly two (Gin) has no Opponents field: ask who the one opponent is.
  const single = $("opponents-field").hidden && opponents === 1;
  const label = document.querySelector('label[for="friends"]');
  label.dataset.i18n = single ? "start.opponent_is" : "start.friends";
  label.textContent = t(label.dataset.i18n);
  friends.textContent = "";
  for (let n = 0; n <= opponents; n++) {
    let text = n ? t("start.friends_n", { count: n }) : t("start.friends_none");
    if (single) text = t(n ? "start.opponent_friend" : "start.opponent_computer");
    friends.append(option(n, text, n === keep));
  }
  showFriendFields();
}

/** The deal number asked for in the page's address (``?deal=42``), or null: at a table against
 * the computer, the same number deals the same cards (the server's ``DEAL_RANGE``). */
export function dealAsked() {
  const deal = new URLSearchParams(location.search).get("deal");
  return deal && /^[1-9][0-9]{0,8}$/.test(deal) ? Number(deal) : null;
}

/** The name field is for games with friends; the level is for the computer's seats only. */
export function showFriendFields() {
  const opponents = parseInt($("opponents").value, 10) || 0;
  const friends = parseInt($("friends").value, 10) || 0;
  // How friends join, once one is chosen: in Gin's one seat, and with no seat left to the
  // computer, without "the other seats".
  const help = $("friends-help");
  help.hidden = friends === 0;
  if (friends) $("friends").setAttribute("aria-describedby", "friends-help");
  else $("friends").removeAttribute("aria-describedby");
  const single = $("opponents-field").hidden && opponents === 1;
  help.dataset.i18n = single ? "start.friends_help_one" : friends >= opponents ? "start.friends_help_all" : "start.friends_help";
  help.textContent = t(help.dataset.i18n);
  $("name-field").hidden = friends === 0;
  $("turn-time-field").hidden = friends === 0;
  // With friends in every seat there is no computer: its level and speed are not asked.
  $("level-field").hidden = friends >= opponents && opponents > 0;
  $("pace-field").hidden = $("level-field").hidden;
  const deal = dealAsked();
  const note = $("deal-note");
  note.hidden = deal === null;
  if (deal !== null) note.textContent = t(friends ? "start.deal_friends" : "start.deal", { deal });
}

/** The settings the form shows now. */
export function readStart(games) {
  const key = document.querySelector('input[name="game"]:checked')?.value || games[0].key;
  const game = games.find((g) => g.key === key);
  const options = {};
  if (game.main_options.includes("target_score")) {
    const v = parseInt($("target").value, 10);
    if (Number.isFinite(v) && v > 0) options.target_score = v;
  }
  if (game.main_options.includes("knock_limit")) {
    const v = parseInt($("knock").value, 10);
    if (Number.isFinite(v) && v >= 0) options.knock_limit = v;
  }
  const preset = game.presets.length ? $("preset").value || game.presets[0] : key;
  Object.assign(options, readHouse(game));
  return {
    game: key,
    variant: game.presets.length ? preset : key,
    preset,
    opponents: parseInt($("opponents").value, 10) || game.min_players - 1,
    friends: parseInt($("friends").value, 10) || 0,
    name: $("name").value.trim(),
    turn_time: parseInt($("turn-time").value, 10) || 0,
    level: $("level").value || game.levels[0],
    coach: $("coach").checked,
    pace: $("pace").value,
    options,
  };
}

/** What Play starts, in words, under the button: who plays against this person, the rules, the
 * target and what differs from the usual ("Against the computer (Medium) · to 100 points"). */
export function renderChoice(games) {
  const s = readStart(games);
  const game = games.find((g) => g.key === s.game);
  const computers = s.opponents - s.friends;
  const who = [];
  if (s.friends) who.push(t("start.choice_friends", { count: s.friends }));
  if (computers > 0) who.push(t("start.choice_computers", { count: computers, level: t(`level.${s.level}`) }));
  const list = new Intl.ListFormat(currentLanguage(), { type: "conjunction" }).format(who);
  const parts = [t("start.choice_against", { who: list })];
  if (game.presets.length > 1) parts.push(t(`preset.${s.preset}`));
  if (!$("target-field").hidden && s.options.target_score) parts.push(t("start.choice_target", { target: s.options.target_score }));
  if (computers > 0 && s.pace !== "normal") parts.push(t("start.choice_pace", { pace: t(`pace.${s.pace}`) }));
  if (s.coach) parts.push(t("start.choice_coach"));
  const house = Object.keys(readHouse(game)).length;
  if (house) parts.push(t("start.choice_house", { count: house }));
  $("start-choice").textContent = parts.join(" · ");
}

/** Who sits at the table besides this seat, in words: the friends by name, then the computers
 * by level ("Lan, Minh and 2 computers (Easy)"). A computer playing for a person (who left, or
 * never came) is named as the table names it: "Computer for Lan". */
export function opponentsText(info, mySeat) {
  const names = [];
  const levels = new Map();
  info.seats.forEach((s, seat) => {
    if (seat === mySeat) return;
    const person = s.name || t("seat.player_n", { n: seat + 1 });
    if (s.kind === "human" && !s.joined) names.push(t("start.continue_not_joined"));
    else if (s.kind === "human") names.push(person);
    else if (s.stand_in) names.push(t("seat.computer_for", { name: person }));
    else levels.set(s.level, (levels.get(s.level) || 0) + 1);
  });
  for (const [level, count] of levels) {
    names.push(t("start.continue_computers", { count, level: has(`level.${level}`) ? t(`level.${level}`) : level }));
  }
  return new Intl.ListFormat(currentLanguage(), { type: "conjunction" }).format(names);
}

/** When a table was last seen: "today at 14:05", "yesterday at 09:30", "12 Mar at 20:15". */
export function whenText(ms, now = new Date()) {
  const then = new Date(ms);
  const lang = currentLanguage();
  const time = then.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const day = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((day(now) - day(then)) / 86_400_000);
  if (days === 0) return t("start.when_today", { time });
  if (days === 1) return t("start.when_yesterday", { time });
  const date = then.toLocaleDateString(lang, { day: "numeric", month: "short" });
  return t("start.when_date", { date, time });
}

/** The unfinished games this browser holds a seat at: ``[{session, info}]``, newest first. Each
 * says the game, the hand, who else sits there and when this browser last saw it, with
 * Continue and Remove (which forgets the seat in this browser only). Below them, ``finished``:
 * the last matches played here (kept a few days), each with "See the result", which opens the
 * table again on its final score, and Remove. */
export function showContinue(found, finished = []) {
  const box = $("continue-box");
  const list = $("continue-list");
  list.textContent = "";
  box.hidden = !found.length && !finished.length;
  for (const { session, info } of found) {
    const game = t(`game.${info.game}`);
    const key = info.game === "crazy" ? "start.continue_text_crazy" : "start.continue_text";
    const parts = [];
    const who = opponentsText(info, session.seat);
    if (who) parts.push(t("start.continue_with", { names: who }));
    if (session.seen) parts.push(t("start.continue_seen", { when: whenText(session.seen) }));
    list.append(entry(session, t(key, { game, n: info.hand_number }), parts, t("start.continue"), t("start.remove_for", { game })));
  }
  for (const { session, info } of finished) {
    const game = t(`game.${info.game}`);
    const parts = [];
    const who = opponentsText(info, session.seat);
    if (who) parts.push(t("start.last_match_with", { names: who }));
    if (session.finished) parts.push(t("start.last_match_when", { when: whenText(session.finished) }));
    const li = entry(session, t("start.last_match", { game }), parts, t("start.see_result"), t("start.remove_last_for", { game }));
    li.classList.add("finished");
    li.querySelector("button[data-table]").className = "";
    li.querySelector("button[data-remove]").dataset.finished = "1";
    list.append(li);
  }
}

/** One line of the list: the text, its details, the button that opens the table and Remove. */
function entry(session, text, parts, open, removeLabel) {
  const li = document.createElement("li");
  const p = document.createElement("p");
  p.append(text, " ");
  if (parts.length) {
    const details = document.createElement("small");
    details.className = "continue-details";
    details.textContent = parts.join(" ");
    p.append(details);
  }
  const button = document.createElement("button");
  button.type = "button";
  button.className = "primary";
  button.dataset.table = session.table;
  button.textContent = open;
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "small";
  remove.dataset.remove = session.table;
  remove.textContent = t("start.remove");
  remove.setAttribute("aria-label", removeLabel);
  li.append(p, button, remove);
  return li;
}
