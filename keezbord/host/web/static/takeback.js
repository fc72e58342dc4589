// keezbord web page, the takeback (issue 25 item 4): the referee's "Take back" dialog
// names the move it takes back (number, who, what) and follows the game while it is open;
// the bots wait meanwhile (a "hold" message; the server lets go after 60 s or the answer).
// When the last move is not the page's own seat's, it also offers to take back to that
// seat's last move (at most a round): one undo takes back the moves from that one on.
// The moves taken back are struck through in the move list, without their number. The
// referee takes back moves only: not past a hand shown, a penalty or the time limit.
"use strict";

Object.assign(UI.nl, {
  takeback_last: "Zet {n} terugnemen: {text}?", takeback_yes: "Zet {n} terugnemen",
  takeback_mine: "Terug tot je eigen zet {n} ({k} zetten)", takeback_none: "Er is geen zet om terug te nemen.",
  takeback_barrier: "Er is geen zet om terug te nemen: sinds de laatste zet is er een hand getoond, gestraft of gestopt.",
  taken_back: "teruggenomen",
  takeback_card: "De tweede kaart ({card}) terugnemen?", takeback_card_yes: "Kaart terugnemen",
});
Object.assign(UI.en, {
  takeback_last: "Take back move {n}: {text}?", takeback_yes: "Take back move {n}",
  takeback_mine: "Back to your own move {n} ({k} moves)", takeback_none: "There is no move to take back.",
  takeback_barrier: "There is no move to take back: a hand was shown, a penalty given or the game stopped since the last move.",
  taken_back: "taken back",
  takeback_card: "Take back the second card ({card})?", takeback_card_yes: "Take back the card",
});

/** @param {string} key @param {Record<string, string | number>} vars */
function tf(key, vars) { return t(key).replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? "")); }

/** The moves still standing in the move list (not taken back). @param {PageState} st */
function standingMoves(st) {
  const undone = new Set(st.undone || []);
  return st.log.filter((e) => e.kind === "move" && !undone.has(e.i));
}

// What the referee cannot take back: a move is taken back only while nothing of these
// came after it.
const TAKEBACK_BARRIERS = new Set(["discard", "penalty", "time_limit"]);

/**
 * What the dialog offers now: the last move, and the page's own last move when another
 * came after it (no further back than a round); `barrier`: a hand shown (or a penalty)
 * since the last move, so nothing can be taken back.
 * @param {PageState} st
 * @returns {{ last: LogEntry | null, mine: LogEntry | null, barrier: boolean }}
 */
function takebackPlan(st) {
  const moves = standingMoves(st);
  const last = moves[moves.length - 1] || null;
  // The last barrier's place in the log: moves before it cannot be taken back.
  let wall = -1;
  st.log.forEach((e, k) => { if (TAKEBACK_BARRIERS.has(e.kind)) wall = k; });
  const after = (/** @type {LogEntry} */ e) => st.log.indexOf(e) > wall;
  if (!last || !after(last)) return { last: null, mine: null, barrier: !!last };
  const seat = mySeat(st);
  let mine = null;
  if (seat !== null && last.seat !== seat && app.mode === "sim") {
    const own = [...moves].reverse().find((e) => e.seat === seat);
    if (own && after(own) && last.n - own.n + 1 <= st.seats) mine = own;
  }
  return { last, mine, barrier: false };
}

function renderTakeback() {
  const st = app.state;
  if (!st) return;
  const yes = byId("takeback-yes"), own = byId("takeback-mine");
  if (st.second_card) {  // a second card flagged: the takeback takes back that card only
    byId("takeback-text").textContent = tf("takeback_card", { card: cardLabel(st.second_card) });
    yes.hidden = false; own.hidden = true;
    yes.textContent = t("takeback_card_yes"); delete yes.dataset.n;
    return;
  }
  const { last, mine, barrier } = takebackPlan(st);
  byId("takeback-text").textContent = last ? tf("takeback_last", { n: last.n, text: tx(last.text) })
    : t(barrier ? "takeback_barrier" : "takeback_none");
  yes.hidden = !last;
  if (last) { yes.textContent = tf("takeback_yes", { n: last.n }); yes.dataset.n = String(last.n); }
  own.hidden = !mine;
  if (mine && last) {
    own.textContent = tf("takeback_mine", { n: mine.n, k: last.n - mine.n + 1 });
    own.dataset.n = String(mine.n);
  }
}

function openTakeback() {
  const dlg = /** @type {HTMLDialogElement} */ (byId("takeback"));
  send({ type: "hold", on: true });  // the bots wait while the referee decides
  renderTakeback();
  dlg.returnValue = "";
  dlg.onclose = () => {
    const pick = dlg.returnValue === "yes" ? byId("takeback-yes") : dlg.returnValue === "mine" ? byId("takeback-mine") : null;
    if (pick && pick.dataset.n) send({ type: "undo", n: Number(pick.dataset.n) });
    else if (pick && app.state && app.state.second_card) send({ type: "undo" });  // the second card
    send({ type: "hold", on: false });
  };
  dlg.showModal();
}

function setupTakeback() {
  byId("undo").addEventListener("click", openTakeback);
  // The dialog follows the game: a bot's move finished meanwhile is named, not taken back blind.
  app.onState.push(() => { if (/** @type {HTMLDialogElement} */ (byId("takeback")).open) renderTakeback(); });
}
