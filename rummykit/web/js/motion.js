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

const CONFETTI = ["♠", "♥", "♣", "♦"];

/** A match this person won: card suits falling over the screen for about three seconds, in
 * ``host`` (the score's dialog: a modal one is above everything else). Nothing under reduced
 * motion; it never takes a tap. Whether it played. */
export function celebrate(host) {
  if (!motionAllowed()) return false;
  const layer = document.createElement("div");
  layer.className = "celebration";
  layer.setAttribute("aria-hidden", "true");
  for (let i = 0; i < 32; i++) {
    const piece = document.createElement("span");
    piece.textContent = CONFETTI[i % 4];
    piece.className = `bit s${i % 4}`;
    piece.style.left = `${(i * 61) % 97}%`; // spread over the width, neighbours apart
    piece.style.fontSize = `${1.1 + (i % 5) * 0.35}rem`;
    layer.append(piece);
    const turn = (i % 2 ? 1 : -1) * (180 + (i % 3) * 120);
    piece.animate(
      [
        { transform: "translateY(-12vh) rotate(0deg)", opacity: 1 },
        { transform: `translateY(112vh) rotate(${turn}deg)`, opacity: 0.85 },
      ],
      { duration: 1900 + (i % 7) * 170, delay: (i % 8) * 110, easing: "cubic-bezier(.35,.05,.65,1)", fill: "both" },
    );
  }
  host.append(layer);
  setTimeout(() => layer.remove(), 3600);
  return true;
}
