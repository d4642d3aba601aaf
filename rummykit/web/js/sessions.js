// The seats this browser holds (localStorage), the table this tab shows (sessionStorage and
// its history entry, for a reload and the Back button), and the start screen's Continue list.
import { showContinue } from "./start.js";
import { loadJSON } from "./state.js";

const SESSIONS = "rummykit.sessions"; // every seat this browser holds, newest first
export const CURRENT = "rummykit.current"; // sessionStorage: the table this tab shows (for a reload)
const OLD_SESSION = "rummykit.session"; // the one seat kept before there could be several
const MAX_SESSIONS = 20;
const KEEP_FINISHED_MS = 3 * 24 * 3600 * 1000; // a finished table's seat, to follow a rematch
const MAX_FINISHED_SHOWN = 3; // the last matches the start screen offers to see again

// A session is one seat this browser holds: {table, seat, token, invites}. There may be several
// (a game against the computer, and a seat at a friend's table), so none is ever overwritten.

export function sessions() {
  let list = loadJSON(SESSIONS);
  if (!Array.isArray(list)) list = [];
  const old = loadJSON(OLD_SESSION);
  if (old && old.table) {
    list = [old, ...list.filter((x) => x.table !== old.table)];
    localStorage.setItem(SESSIONS, JSON.stringify(list));
    localStorage.removeItem(OLD_SESSION);
  }
  return list.filter((x) => x && typeof x.table === "string" && typeof x.token === "string");
}

export function saveSession(session) {
  const list = [session, ...sessions().filter((x) => x.table !== session.table)];
  // Over the limit, finished tables' seats go first, then the oldest.
  while (list.length > MAX_SESSIONS) {
    const finished = list.map((x) => Boolean(x.finished)).lastIndexOf(true);
    list.splice(finished > 0 ? finished : list.length - 1, 1);
  }
  localStorage.setItem(SESSIONS, JSON.stringify(list));
}

export function updateSession(table, change) {
  const list = sessions().map((x) => (x.table === table ? { ...x, ...change } : x));
  localStorage.setItem(SESSIONS, JSON.stringify(list));
}

export function dropSession(table) {
  localStorage.setItem(SESSIONS, JSON.stringify(sessions().filter((x) => x.table !== table)));
}

/** The table's public facts, "gone" if the server does not know it (404), or null when it
 * could not be asked (network, restart): a seat is forgotten only when its table is gone. */
export async function tableInfo(table) {
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(table)}`);
    if (response.status === 404) return "gone";
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

/** The start screen's unfinished games: each stored seat still at an unfinished table, and
 * below them the last matches this browser finished (a few days): "See the result" opens such a
 * table again on its final score (Review my moves, Rematch). A finished table's seat follows
 * its rematch when one is started, even by someone else later. */
export async function refreshContinue() {
  const found = [];
  const finished = [];
  for (const session of sessions()) {
    let info = await tableInfo(session.table);
    let current = session;
    if (info && info !== "gone" && info.over && info.next) {
      current = { ...session, table: info.next, invites: [], finished: undefined, celebrated: undefined, ended: 0 };
      dropSession(session.table);
      saveSession(current);
      info = await tableInfo(current.table);
    }
    if (info === "gone") {
      dropSession(current.table);
    } else if (info && info.over) {
      if (!current.finished) {
        current = { ...current, finished: Date.now() };
        updateSession(current.table, { finished: current.finished });
      }
      if (Date.now() - current.finished > KEEP_FINISHED_MS) dropSession(current.table);
      else finished.push({ session: current, info });
    } else if (info) {
      found.push({ session: current, info });
    }
  }
  finished.sort((a, b) => b.session.finished - a.session.finished);
  showContinue(found, finished.slice(0, MAX_FINISHED_SHOWN));
}

// One history entry for the table, above the start screen's: the browser's Back goes from a
// table to the start screen (the game stays on the server, to Continue), or first closes a
// dialog open on it; Forward goes back to the table. A reload keeps the entry.
export const TABLE_STATE = "rummykitTable";

export function tableInHistory(table) {
  const state = { [TABLE_STATE]: table };
  if (history.state && history.state[TABLE_STATE]) history.replaceState(state, "");
  else history.pushState(state, "");
}
