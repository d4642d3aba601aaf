// Sounds: a few short tones made with the Web Audio API (no files to load): a card moving, your
// turn coming, a hand won or lost, a match won. Off until the person turns them on (the start
// screen's "Sounds" box or the S key), and remembered by the browser. A browser lets a page make
// a sound only after a tap or a key press, so the first one after a reload waits for it.
const KEY = "rummykit.sound";
const AudioCtx = window.AudioContext || window.webkitAudioContext;
let audio = null;

/** Every sound played since the page loaded, by kind (for the tests; nothing reads it else). */
export const played = { card: 0, turn: 0, win: 0, lose: 0, match: 0 };

/** The audio engine's state, ``none`` before the first sound (for the tests). */
export function audioState() {
  return audio ? audio.state : "none";
}

export function soundOn() {
  return localStorage.getItem(KEY) === "1";
}

/** Turn the sounds on or off (remembered). Called from a tap or a key, so it may start them. */
export function setSound(on) {
  localStorage.setItem(KEY, on ? "1" : "0");
  if (on) wake();
}

function wake() {
  if (!AudioCtx) return;
  if (!audio) audio = new AudioCtx();
  if (audio.state === "suspended") audio.resume().catch(() => {});
}

// The first tap or key after a reload lets the sounds play again.
for (const kind of ["pointerdown", "keydown"]) {
  window.addEventListener(kind, () => soundOn() && wake(), { capture: true, passive: true });
}

/** One note: ``freq`` Hz from ``at`` seconds on, for ``length`` seconds, fading out. */
function note(freq, at, length, type = "sine", volume = 0.12) {
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  const start = audio.currentTime + at;
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.001, start + length);
  osc.connect(gain).connect(audio.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

const TUNES = {
  card: () => note(1400, 0, 0.05, "triangle", 0.08), // a soft tick
  turn: () => {
    note(660, 0, 0.14);
    note(880, 0.12, 0.22);
  },
  win: () => [523, 659, 784, 1047].forEach((f, i) => note(f, i * 0.1, 0.25)),
  // a match won: the hand's tune, then its last two notes again, longer
  match: () => [523, 659, 784, 1047, 784, 1047].forEach((f, i) => note(f, i * 0.12, i > 3 ? 0.45 : 0.25)),
  lose: () => {
    note(392, 0, 0.2);
    note(311, 0.18, 0.35);
  },
};

/** Play the sound of ``kind`` (card, turn, win, lose, match) if the sounds are on. */
export function play(kind) {
  if (!soundOn() || !AudioCtx) return;
  wake();
  played[kind] += 1;
  if (audio.state === "running") TUNES[kind]();
}
