// Motion: FLIP (old position to new) on transform and opacity only, about 200 ms, and a card
// flying between zones for the computer's moves. None under prefers-reduced-motion; the state is
// always applied first, so animation never blocks input.
import { face } from "./cards.js";

const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

export function motionAllowed() {
  return !reduced.matches && !document.documentElement.classList.contains("no-motion");
}

/** Positions of keyed elements before a redraw. */
export function measure(map) {
  const rects = new Map();
  for (const [key, el] of map) if (el.isConnected) rects.set(key, el.getBoundingClientRect());
  return rects;
}

/** Play each element from its old position to its new one. */
export function flip(map, before) {
  if (!motionAllowed()) return;
  for (const [key, el] of map) {
    const old = before.get(key);
    if (!old || !el.isConnected) continue;
    const now = el.getBoundingClientRect();
    const dx = old.left - now.left;
    const dy = old.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }], {
      duration: 220,
      easing: "ease-out",
    });
  }
}

/** A card (face ``text``, or a back when null) of width ``w`` flying between two rectangles. */
export function fly(from, to, text, w = 60) {
  if (!motionAllowed() || !from || !to) return;
  const el = document.createElement("div");
  el.className = "flyer";
  el.setAttribute("aria-hidden", "true");
  el.append(face(text));
  document.body.append(el);
  const h = w * 1.4;
  const left = to.left + to.width / 2 - w / 2;
  const top = to.top + to.height / 2 - h / 2;
  el.style.width = `${w}px`;
  el.style.fontSize = `${w / 4.2}px`;
  el.style.left = `${left}px`;
  el.style.top = `${top}px`;
  const dx = from.left + from.width / 2 - (left + w / 2);
  const dy = from.top + from.height / 2 - (top + h / 2);
  const anim = el.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(0.8)`, opacity: 0.6 },
      { transform: "translate(0, 0) scale(1)", opacity: 1 },
    ],
    { duration: 380, easing: "ease-in-out" },
  );
  anim.onfinish = () => el.remove();
  anim.oncancel = () => el.remove();
}
