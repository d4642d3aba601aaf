// The page's shared state, which every controller module reads and changes: the latest messages
// from the server (S.welcome, S.msg), the seat this page plays (S.session) and its socket, the
// start screen's settings as kept, and the local-only ui state of the table (S.ui, new for each
// table). It imports nothing of the page's own.

export const SETTINGS = "rummykit.settings";

export const S = {
  games: [],
  settings: loadSettings(),
  session: null,
  invitation: null,
  online: null, // the seats connected now (tables of several people), or null if not told
  reading: new Set(), // the seats whose page shows a hand's score (tables of several people)
  conn: null,
  welcome: null,
  msg: null,
  sentSeq: null, // the view a move was sent for, until an answer comes (see act)
  rematchJoined: false, // this page moved to a rematch while the final score stayed up
  rematchAsked: false, // this page asked for the rematch
  intro: null, // a guided game's first steps: {game, step, start: its settings until closed}
  // True from a Play press that made a table until the start screen shows again: a second
  // press (a double click) while the new table's first view is on its way makes no other.
  started: false,
  ui: newUi(),
};

export function newUi() {
  return {
    selected: new Set(),
    joinedAt: new Map(), // seat: when this page said that person joined (not "back" too)
    order: [],
    sortMode: "suit",
    focusKey: null,
    focusIndex: null, // where the cursor was at the last redraw (it keeps its place there)
    gained: new Set(),
    log: [],
    down: null,
    pendingEnds: null,
    focusChoice: false,
    backToHand: false, // a lay-off was sent from a meld: the focus goes back to the hand
    moveButton: null, // the action button that sent the move awaiting its answer (see act)
    showPiles: false, // scroll the board to the piles after the next render
    inviteTop: false, // ... or to its top, where the invitations open (see onView)
    showMeld: null, // after the next render, scroll to a table meld: its number, or "fits"
    resultShown: null,
    inviteShown: null,
    dealtWhileOpen: false,
    noBuyRound: null, // Crazy Rummy: the round in which this person asked not to be asked to buy
    melds: null, // Gin and Basic Rummy: the server's best melds of the hand, to sort it by melds
    personHint: null, // the view the person asked for a hint on (its answer selects cards)
    coachSeq: null, // the view the coach's advice was last asked for
    coachAsked: false, // the coach's advice is on its way (see askHint)
    backSent: false, // "I'm back" was pressed and the table has not answered yet
    said: new Map(), // seat -> the phrase it said a moment ago (see onSaid)
    reviews: new Map(), // hand number -> {hand, data, onlyDifferent}: its review (data once sent)
    reviewPick: null, // {shown, hand}: the hand picked for review on the score of hand ``shown``
    pastReviews: null, // the reviews of the match whose final score stays up after a rematch
    pastResult: null, // ... and its last view and welcome (see scoreCtx)
  };
}

/** The start screen's choices as last made, in their own shape (a value from an older page, or
 * edited by hand, is dropped rather than stopping the page). */
function loadSettings() {
  const plain = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);
  const saved = loadJSON(SETTINGS);
  // A first visit: Gin against one computer at Medium (Easy is for the guided game).
  if (!plain(saved)) return { game: "gin", opponents: 1, level: "medium", options: {} };
  const settings = { ...saved };
  if (!plain(settings.options)) settings.options = {};
  if (!plain(settings.sort)) delete settings.sort;
  for (const key of ["game", "variant", "preset", "level", "name", "pace"]) {
    if (key in settings && typeof settings[key] !== "string") delete settings[key];
  }
  return settings;
}

export function loadJSON(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch {
    return null;
  }
}

/** The seat whose time for the turn ran out (the computer finishes it), or null. */
export function timedOut(m) {
  return m.clock && m.clock.out ? m.clock.seat : null;
}
