// keezbord web page, "since your last turn" (issue 25 item 9): on your turn, what the
// others did while you waited, in words (the move list's entries after your last move:
// moves, hands shown, exchanges, penalties, take-backs), above your hand.
"use strict";

Object.assign(UI.nl, { since_title: "Sinds je vorige beurt" });
Object.assign(UI.en, { since_title: "Since your last turn" });

const SINCE_KINDS = new Set(["move", "discard", "exchange", "penalty", "undo", "overrule", "win"]);
const SINCE_MAX = 12;  // at 8 seats a round is 7 moves of the others; more is the move list's

/**
 * The log entries since `seat`'s last move (since the game's start before its first).
 * @param {PageState} st @param {number} seat
 * @returns {LogEntry[]}
 */
function sinceLastTurn(st, seat) {
  let from = 0;
  for (let i = st.log.length - 1; i >= 0; i--) {
    const e = st.log[i];
    if (e.kind === "move" && e.seat === seat && !(st.undone || []).includes(e.i)) { from = i + 1; break; }
  }
  return st.log.slice(from).filter((e) => SINCE_KINDS.has(e.kind) && e.seat !== seat &&
                                           !(st.undone || []).includes(e.i)).slice(-SINCE_MAX);
}

/** @param {PageState} st */
function renderSince(st) {
  const box = document.getElementById("since");
  if (!box) return;
  const seat = mySeat(st);
  const items = seat !== null && myTurn(st) ? sinceLastTurn(st, seat) : [];
  box.hidden = !items.length;
  if (!items.length) return;
  const key = JSON.stringify([items.map((e) => e.i), app.lang]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  byId("since-title").textContent = t("since_title");
  byId("since-list").replaceChildren(...items.map((e) => {
    const secret = st.exchange_cards && st.exchange_cards[String(e.i)];
    return el("li", { "data-kind": e.kind, "data-i": String(e.i), text: tx(secret ? secret.text : e.text) });
  }));
}
