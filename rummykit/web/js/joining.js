// Getting to a table and away from it: Play (a new table), an invitation link and the join
// screen, the browser's Back and Forward, Rematch and Deal again, a friend's seat given to the
// computer, the Menu button. The requests these make go through post() one at a time.
import { durationText } from "./clock.js";
import { currentLanguage, has as hasText, t } from "./i18n.js";
import { connect, leaveTable } from "./messages.js";
import { clearAlert, showAlert, showScreen } from "./rendering.js";
import { TABLE_STATE, refreshContinue, saveSession, sessions, tableInfo } from "./sessions.js";
import { dealAsked, opponentsText, renderStart } from "./start.js";
import { S, SETTINGS } from "./state.js";

const $ = (id) => document.getElementById(id);

/** The requests on their way, by name: a second press of the same button while the first is
 * answered sends nothing (a double-click on Play made two tables). */
const pending = new Set();

/** POST ``body`` to ``url`` once at a time per ``name``: {status, data}, status 0 when the server
 * could not be reached, or null when the same request is still on its way. */
async function post(name, url, body) {
  if (pending.has(name)) return null;
  pending.add(name);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    let data = {};
    try {
      data = await response.json();
    } catch {
      // (an answer that is not JSON: a proxy's error page)
    }
    const retry = Number(response.headers.get("Retry-After")) || 0; // (a 429's wait, in seconds)
    return { status: response.status, data: data && typeof data === "object" ? data : {}, retry };
  } catch {
    return { status: 0, data: {} };
  } finally {
    pending.delete(name);
  }
}

/** What went wrong with a request: ``key``'s words, the server's reason in English, or that the
 * server could not be reached. */
function failed(key, answer) {
  if (answer.status === 0) return showAlert(t("error.network"));
  if (answer.status === 429) return showAlert(t("error.limited", { seconds: Math.max(1, answer.retry || 60) }));
  const reason = typeof answer.data.error === "string" ? answer.data.error : "";
  showAlert(t(key) + (currentLanguage() === "en" && reason ? `: ${reason}` : ""));
}

/** A name the server refused: one short sentence, in the page's language, of what to change
 * (the server's ``why``; a reason this page does not know yet reads "Choose another name"). */
function nameRefused(data, name) {
  const key = `name.why.${data.why}`;
  showAlert(hasText(key) ? t(key, { name }) : t("name.why"));
}

export async function startGame(settings, deal = dealAsked()) {
  if (S.started) return;
  settings = { ...settings, sort: S.settings.sort }; // (the form has no sort order)
  S.settings = settings;
  localStorage.setItem(SETTINGS, JSON.stringify(settings));
  const answer = await post("create", "/api/tables", {
    game: settings.variant,
    opponents: settings.opponents,
    level: settings.level,
    options: settings.options,
    friends: settings.friends || 0,
    name: settings.friends ? settings.name || null : null,
    turn_time: settings.friends ? settings.turn_time || 0 : 0,
    deal: settings.friends ? null : deal, // (none with friends: the server refuses one)
  });
  if (!answer) return; // (a second press while the first is answered)
  const data = answer.data;
  if (answer.status !== 201 && data.field === "name") return nameRefused(data, settings.name);
  if (answer.status !== 201) return failed("error.create", answer);
  S.started = true;
  clearAlert(); // (a name refused on the way here is out of date)
  // The invitation links live only here (the server keeps their hashes): kept with the session
  // so that they survive a reload until every friend has joined.
  const invites = (data.invites || []).map((i) => ({ seat: i.seat, link: inviteLink(data.table, i.code) }));
  // (``ended``: no hand of the new table has ended yet, see missedHand)
  const session = { table: data.table, seat: data.seat, token: data.token, invites, ended: 0 };
  saveSession(session);
  connect(session);
}

function inviteLink(table, code) {
  return `${location.origin}/#join=${table}.${code}`;
}

export const JOIN = /^#join=([0-9a-f]{1,64})\.([A-Za-z0-9_-]{1,64})$/;

/** A page opened from an invitation link: the join screen (or Continue, if already seated). A
 * link cut short (a chat app broke it) says so. */
export async function openInvitation() {
  const found = JOIN.exec(location.hash);
  if (!found) {
    if (!location.hash.startsWith("#join=")) return false;
    history.replaceState(null, "", location.pathname + location.search);
    showAlert(t("join.broken"));
    return false;
  }
  history.replaceState(null, "", location.pathname + location.search);
  const [, table, code] = found;
  if (sessions().some((x) => x.table === table)) {
    showAlert(t("join.already")); // already seated there (the friend, or the creator's own link)
    return false;
  }
  const info = await tableInfo(table);
  if (!info || info === "gone" || info.over) {
    showAlert(t("join.gone"));
    return false;
  }
  const open = info.seats.filter((s) => s.kind === "human" && !s.joined).length;
  if (!open) {
    showAlert(t("join.taken"));
    return false;
  }
  S.invitation = { table, code };
  const host = info.seats[0].name;
  // The game with its rules' preset (Basic Rummy has two), and who else is at the table.
  const preset = hasText(`preset.${info.variant}`) ? ` · ${t(`preset.${info.variant}`)}` : "";
  const game = t(`game.${info.game}`) + preset;
  const invited = host ? t("join.text_from", { name: host, game }) : t("join.text", { game });
  const seat = info.seats.findIndex((s) => s.kind === "human" && !s.joined);
  const others = ` ${t("join.with", { names: opponentsText(info, seat) })}`;
  const timed = info.turn_time ? ` ${t("join.turn_time", { limit: durationText(info.turn_time) })}` : "";
  $("join-text").textContent = invited + others + timed;
  $("join-name").value = S.settings.name || "";
  showScreen("join");
  $("join-name").focus();
  return true;
}

export async function joinTable() {
  const inv = S.invitation;
  if (!inv) return;
  const name = $("join-name").value.trim();
  if (name) {
    S.settings = { ...S.settings, name };
    localStorage.setItem(SETTINGS, JSON.stringify(S.settings));
  }
  const answer = await post("join", `/api/tables/${encodeURIComponent(inv.table)}/join`, { code: inv.code, name: name || null });
  if (!answer || S.invitation !== inv) return; // (a second press, or the join screen was left)
  const data = answer.data;
  if (answer.status === 0 || answer.status === 429) return failed("join.gone", answer); // (try again)
  if (answer.status !== 200) {
    if (answer.status === 409) return showAlert(t("join.name_taken", { name })); // (choose another)
    if (answer.status === 400 && data.field === "name") return nameRefused(data, name);
    if (answer.status === 400) return failed("join.gone", answer);
    // 403: the code matches no open seat: taken since the page opened, or the link cut short.
    showAlert(answer.status === 403 ? t("join.not_valid") : t("join.gone"));
    cancelJoin();
    return;
  }
  S.invitation = null;
  clearAlert(); // (a name refused on the way here is out of date)
  const session = { table: data.table, seat: data.seat, token: data.token, invites: [], ended: 0 };
  saveSession(session);
  connect(session);
}

export function cancelJoin() {
  S.invitation = null;
  renderStart(S.games, S.settings);
  showScreen("start");
  refreshContinue();
}

export function onHistory(event) {
  // An address with a "#" part typed or pasted in (an invitation, see the hashchange listener,
  // or a link cut short): not a step back, since a table's entry has none.
  if (location.hash) return;
  const table = event.state && event.state[TABLE_STATE];
  const atTable = document.body.dataset.screen === "table" || S.conn;
  if (!table && atTable) {
    const open = [...document.querySelectorAll("dialog[open]")];
    if (open.length && S.session) {
      open.forEach((d) => d.close());
      history.pushState({ [TABLE_STATE]: S.session.table }, "");
      return;
    }
    leaveTable();
  } else if (table && !atTable) {
    const session = sessions().find((x) => x.table === table);
    if (session) {
      saveSession(session);
      connect(session);
    }
  }
}

/** Copy an invitation link (or hand it to the phone's share sheet). */
export async function shareLink(link, viaShare) {
  if (viaShare && navigator.share) {
    try {
      await navigator.share({ title: "rummykit", text: t("invite.share_text"), url: link });
      return;
    } catch {
      // cancelled: fall through to copying
    }
  }
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch {
    // No clipboard API (plain http on another address): select the text for the person to copy.
    const input = [...document.querySelectorAll("#invite-list input")].find((i) => i.value === link);
    if (input) {
      input.focus();
      input.select();
      copied = document.execCommand && document.execCommand("copy");
    }
  }
  showAlert(copied ? t("invite.copied") : t("invite.copy_by_hand"), copied);
}

/** The match just over, dealt again at a new table: the same game, options and computers. */
export function dealAgain(deal) {
  const w = S.welcome;
  if (!w || !Number.isInteger(deal)) return;
  const computer = w.seats.find((s) => s.kind === "computer");
  const settings = {
    ...S.settings,
    game: w.game,
    variant: w.variant,
    preset: w.variant,
    opponents: w.seats.length - 1,
    friends: 0,
    level: computer ? computer.level : S.settings.level,
    options: w.options,
  };
  $("dlg-result").close();
  S.started = false; // (straight to the new table: its history entry takes this table's place)
  startGame(settings, deal);
}

/** The next match at this table, with the same people (the server makes it once). */
export async function rematch() {
  const session = S.session;
  if (!session) return;
  if (S.rematchJoined) return $("dlg-result").close(); // already at the new match
  S.rematchAsked = true; // its news may come over the socket before the answer does
  const answer = await post("rematch", `/api/tables/${encodeURIComponent(session.table)}/rematch`, {
    seat: session.seat,
    token: session.token,
  });
  // (A second press; or the page left the table meanwhile, or is at the new match already: its
  // news came over the socket first.)
  if (!answer || !S.rematchAsked) return;
  if (answer.status !== 201) {
    S.rematchAsked = false;
    return failed("error.rematch", answer);
  }
  moveTo(answer.data.table);
}

/** A friend is not coming, or has left: the computer plays their seat, at the level of the
 * table's other computers, or medium. */
export async function giveToComputer(seat) {
  const session = S.session;
  if (!session || !S.welcome) return;
  const game = S.games.find((g) => g.key === S.welcome.game) || { levels: [] };
  const other = S.welcome.seats.find((x) => x.kind === "computer" && !x.stand_in);
  const wanted = other ? other.level : "medium";
  const level = game.levels.includes(wanted) ? wanted : game.levels[0] || "random";
  const url = `/api/tables/${encodeURIComponent(session.table)}/seats/${seat}/computer`;
  const answer = await post(`computer ${seat}`, url, { by: session.seat, token: session.token, level });
  if (answer && answer.status !== 200 && S.session === session) {
    failed("error.give_seat", answer);
  }
  // The seats message that follows redraws the table and drops the link.
}

/** The Menu button: at a table whose match goes on with friends who took their seats, it asks
 * first (a slip of the finger would leave them waiting); anywhere else it leaves at once (the
 * game is kept). */
export function askLeave() {
  const seats = S.welcome && S.session ? S.welcome.seats : [];
  const friends = seats.filter((s, seat) => seat !== S.session.seat && s.kind === "human" && s.joined).length;
  if (!friends || !S.msg || S.msg.view.over) return leaveTable();
  $("leave-text").textContent = t("leave.text", { count: friends });
  $("dlg-leave").returnValue = "";
  $("dlg-leave").showModal();
}
