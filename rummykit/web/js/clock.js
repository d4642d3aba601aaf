// The turn clock at a table with friends: the time left of the person to act, counted down on the
// page from what the server last said (a view's "clock"). The server keeps the real time: when it
// runs out, it says "timeout" and the computer finishes the turn.
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** The seconds a table with friends may give each turn (0: no limit), as the start screen offers. */
export const TURN_TIMES = [0, 30, 60, 120];

/** A limit in words: "30 seconds", "1 minute", "No limit". */
export function durationText(seconds) {
  if (!seconds) return t("turn_time.none");
  if (seconds % 60 === 0) return t("turn_time.minutes", { count: seconds / 60 });
  return t("turn_time.seconds", { count: seconds });
}

/** The time left as a clock reads: "1:05", "0:09". */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

const LOW = 10; // seconds: the clock turns red, and the person to act hears about it once

let deadline = 0;
let running = null; // {seat, mine, limit}
let timer = 0;
let warned = false;
let onLow = null;

function tick() {
  const box = $("turn-clock");
  if (!running) return;
  const left = (deadline - performance.now()) / 1000;
  const text = clockText(left);
  if (box.dataset.text !== text) {
    box.dataset.text = text;
    box.querySelector(".time").textContent = text;
  }
  const share = Math.min(1, Math.max(0, left / running.limit));
  box.querySelector(".bar i").style.transform = `scaleX(${share.toFixed(3)})`;
  const low = left <= LOW;
  box.classList.toggle("low", low);
  if (low && running.mine && !warned) {
    warned = true;
    if (onLow) onLow(Math.max(0, Math.ceil(left)));
  }
}

/** Show ``clock`` (a view's ``{seat, left, limit}``, or null to hide it); ``mine``: the person at
 * this page is to act; ``low(seconds)`` is called once when their time gets short. */
export function showClock(clock, mine, low) {
  const box = $("turn-clock");
  if (!clock) return stopClock();
  // A turn is one seat's run of moves: the warning comes once a turn.
  if (!running || running.seat !== clock.seat) warned = false;
  running = { seat: clock.seat, mine, limit: clock.limit || 1 };
  onLow = low;
  deadline = performance.now() + clock.left * 1000;
  box.hidden = false;
  box.classList.toggle("mine", mine);
  box.setAttribute("aria-label", t("turn_time.label", { limit: durationText(clock.limit) }));
  if (!timer) timer = setInterval(tick, 250);
  tick();
}

/** Hide the clock (no limit, a computer to act, the time ran out, the hand is over). */
export function stopClock() {
  running = null;
  if (timer) clearInterval(timer);
  timer = 0;
  const box = $("turn-clock");
  box.hidden = true;
  box.classList.remove("low", "mine");
  box.dataset.text = "";
}
