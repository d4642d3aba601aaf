// The start screen: choose the game, opponents, their level and the main options, or continue.
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

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
  const level = $("level");
  level.textContent = "";
  for (const l of game.levels) level.append(option(l, t(`level.${l}`), l === settings.level));
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
}

/** The "of them, friends" choice (0 to the number of opponents), and what depends on it. */
export function renderFriends(wanted) {
  const opponents = parseInt($("opponents").value, 10) || 0;
  const friends = $("friends");
  const keep = Math.min(wanted ?? (parseInt(friends.value, 10) || 0), opponents);
  friends.textContent = "";
  for (let n = 0; n <= opponents; n++) {
    friends.append(option(n, n ? t("start.friends_n", { count: n }) : t("start.friends_none"), n === keep));
  }
  showFriendFields();
}

/** The name field is for games with friends; the level is for the computer's seats only. */
export function showFriendFields() {
  const opponents = parseInt($("opponents").value, 10) || 0;
  const friends = parseInt($("friends").value, 10) || 0;
  $("name-field").hidden = friends === 0;
  $("level-field").hidden = friends >= opponents && opponents > 0;
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
  return {
    game: key,
    variant: game.presets.length ? preset : key,
    preset,
    opponents: parseInt($("opponents").value, 10) || game.min_players - 1,
    friends: parseInt($("friends").value, 10) || 0,
    name: $("name").value.trim(),
    level: $("level").value || game.levels[0],
    options,
  };
}

export function showContinue(info) {
  const box = $("continue-box");
  if (!info) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $("continue-text").textContent = t("start.continue_text", {
    game: t(`game.${info.game}`),
    n: info.hand_number,
  });
}
