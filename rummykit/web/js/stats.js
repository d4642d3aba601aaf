// The person's record, kept in this browser only (there are no accounts): matches and hands
// played and won, per game, table size and opponents. Every number comes from the server's
// results; each hand and match is counted once, however often its score screen is shown again
// (a reload, Continue, another window).
import { t } from "./i18n.js";

const KEY = "rummykit.stats";
const SEEN = 400; // hands and matches remembered as counted (the newest)

const COUNTS = ["matches", "won", "shared", "streak", "best", "hands", "hands_won"];

function plain(value) {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value);
}

function load() {
  let data = null;
  try {
    data = JSON.parse(localStorage.getItem(KEY));
  } catch {
    data = null;
  }
  if (!plain(data) || !plain(data.rows) || !Array.isArray(data.seen)) return { rows: {}, seen: [] };
  // Rows are kept only in their own shape: a count that is no number would show as "NaN".
  for (const [key, row] of Object.entries(data.rows)) {
    if (!plain(row) || !COUNTS.every((c) => row[c] === undefined || Number.isFinite(row[c]))) delete data.rows[key];
  }
  return data;
}

function save(data) {
  if (data.seen.length > SEEN) data.seen.splice(0, data.seen.length - SEEN);
  localStorage.setItem(KEY, JSON.stringify(data));
}

/** Who the person played against: one computer level, "friends" (people, or a computer
 * standing in for one), or "mixed". */
export function againstOf(welcome) {
  const others = welcome.seats.filter((_, seat) => seat !== welcome.seat);
  if (others.every((s) => s.kind === "human" || s.stand_in)) return "friends";
  const levels = new Set(others.map((s) => (s.kind === "computer" && !s.stand_in ? s.level : "friends")));
  return levels.size === 1 ? [...levels][0] : "mixed";
}

function rowKey(welcome) {
  return `${welcome.game}|${welcome.seats.length}|${againstOf(welcome)}`;
}

/** Count the hand (and the match, when it is over) that ``msg`` shows ended, for the seat the
 * welcome message names; false when it was counted before. */
export function recordResult(welcome, msg) {
  const view = msg.view;
  const result = view.hand && view.hand.result;
  if (!result) return false;
  const data = load();
  const handKey = `${welcome.table}#${view.hand_number}`;
  if (data.seen.includes(handKey)) return false;
  data.seen.push(handKey);
  const key = rowKey(welcome);
  const row = data.rows[key] || { matches: 0, won: 0, shared: 0, hands: 0, hands_won: 0, streak: 0, best: 0 };
  row.hands += 1;
  if (result.winner === welcome.seat) row.hands_won += 1;
  if (view.over && view.result) {
    // Won outright; tied for first (every seat, when nobody scored, as in a stalemate); or lost.
    // Only an outright win counts toward the percentage and the run of wins.
    const winners = view.result.winners || [];
    row.matches += 1;
    if (winners.length === 1 && winners[0] === welcome.seat) {
      row.won += 1;
      row.streak += 1;
      row.best = Math.max(row.best, row.streak);
    } else {
      if (winners.includes(welcome.seat)) row.shared += 1;
      row.streak = 0;
    }
  }
  data.rows[key] = row;
  save(data);
  return true;
}

/** Empty the record; the hands already counted stay known, so none is counted again later. */
export function clearStats() {
  const data = load();
  save({ rows: {}, seen: data.seen });
}

function percent(part, whole) {
  return whole ? Math.round((100 * part) / whole) : 0;
}

function line(cls, text) {
  const p = document.createElement("p");
  p.className = cls;
  p.textContent = text;
  return p;
}

/** Draw the record on the start screen (hidden while there is nothing to show): one item per
 * game, table size and opponents, which reads well on a phone as on a desktop. */
export function renderStats() {
  const box = document.getElementById("stats");
  const list = document.getElementById("stats-list");
  const order = ["gin", "rummy", "crazy"];
  const against = ["easy", "medium", "hard", "random", "friends", "mixed"];
  const rows = Object.entries(load().rows)
    .map(([key, row]) => {
      const [game, players, who] = key.split("|");
      return { game, players: Number(players), who, row };
    })
    .filter((r) => order.includes(r.game) && r.row && r.row.hands > 0)
    .sort(
      (a, b) =>
        order.indexOf(a.game) - order.indexOf(b.game) || a.players - b.players || against.indexOf(a.who) - against.indexOf(b.who),
    );
  box.hidden = !rows.length;
  list.textContent = "";
  for (const { game, players, who, row } of rows) {
    let opponents = t("stats.against_level", { level: t(`level.${who}`) });
    if (who === "friends") opponents = t("stats.against_friends");
    if (who === "mixed") opponents = t("stats.against_mixed");
    const what = game === "gin" ? t(`game.${game}`) : t("stats.game_players", { game: t(`game.${game}`), count: players });
    const li = document.createElement("li");
    li.append(line("stats-what", `${what} · ${opponents}`));
    if (row.matches) {
      const won = row.shared
        ? t("stats.won_shared", { won: row.won, shared: row.shared, played: row.matches })
        : t("stats.won", { won: row.won, played: row.matches });
      const streak = row.best > 1 ? ` · ${t("stats.best_streak", { count: row.best })}` : "";
      li.append(line("stats-matches", t("stats.matches", { value: `${won} (${percent(row.won, row.matches)}%)${streak}` })));
    }
    const hands = `${t("stats.won", { won: row.hands_won, played: row.hands })} (${percent(row.hands_won, row.hands)}%)`;
    li.append(line("stats-hands", t(game === "crazy" ? "stats.rounds" : "stats.hands", { value: hands })));
    list.append(li);
  }
}
