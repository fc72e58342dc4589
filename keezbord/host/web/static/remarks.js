// keezbord web page, advice kept (issue 25 item 7): the hints, the answers to "which
// card?" and the coach's remarks stay in the move list beside their move (state.remarks,
// keezbord/host/web/remarks.py) instead of vanishing with the next bot move. A remark
// reveals a hand: while the game is on, the referee sees them all and a player those of
// its own seat (spectators get none from the server); once the game is over, everyone.
// At hint level "full" a person may ask which card to play before tapping one.
"use strict";

Object.assign(UI.nl, {
  remark: { hint: "Tip", coach: "Coach", card: "Welke kaart" },
  ask_card: "Welke kaart?", ask_card_busy: "Even rekenen…",
});
Object.assign(UI.en, {
  remark: { hint: "Hint", coach: "Coach", card: "Which card" },
  ask_card: "Which card?", ask_card_busy: "Thinking…",
});

/** The remarks this page shows. @param {PageState} st @returns {Remark[]} */
function shownRemarks(st) {
  const over = st.winner !== null || st.stopped;
  const seat = mySeat(st);
  return (st.remarks || []).filter((r) =>
    over || app.role === "referee" || (app.role === "player" && r.seat === seat));
}

/** @param {Remark} r */
function remarkItem(r) {
  const label = (UI[app.lang].remark || {})[r.kind] || r.kind;
  return el("li", { class: `remark remark-${r.kind}`, "data-kind": "remark", "data-remark": r.kind,
                    "data-n": String(r.n), "data-seat": String(r.seat),
                    text: `#${r.n} · ${label} (${seatName(r.seat)}): ${tx(r.text)}` });
}

/**
 * The move list's items with the remarks put where they belong: a hint or "which card"
 * before the move it was for, the coach's remark after the move it judged.
 * @param {PageState} st @param {HTMLElement[]} items one per log entry
 */
function withRemarks(st, items) {
  const rs = shownRemarks(st);
  if (!rs.length) return items;
  /** @type {HTMLElement[]} */
  const out = [];
  st.log.forEach((e, k) => {
    for (const r of rs) if (r.at === e.i) out.push(remarkItem(r));
    out.push(items[k]);
  });
  const end = st.log.length ? st.log[st.log.length - 1].i : -1;
  for (const r of rs) if (r.at > end) out.push(remarkItem(r));
  return out;
}

/** A key that changes when the remarks shown change. @param {PageState} st */
function remarksKey(st) { return `${(st.remarks || []).length}/${mySeat(st)}/${app.role}`; }

/**
 * "Which card?" (hints "full", the simulator): shown on a person's turn before a card is
 * tapped; its answer under it, for this move only.
 * @param {PageState} st
 */
function renderAsk(st) {
  const btn = /** @type {HTMLButtonElement} */ (byId("ask-card"));
  const answer = byId("ask-answer");
  const hand = st.hand;
  const n = st.history.length + 1;
  const mine = hand ? (st.remarks || []).filter((r) => r.kind === "card" && r.n === n && r.seat === hand.seat) : [];
  const open = !!hand && st.hints === "full" && myTurn(st) && !st.card && st.bot_busy == null &&
    hand.playable.length > 0 && app.mode === "sim";
  btn.hidden = !open;
  btn.disabled = mine.length > 0 || app.askedAt === n;
  btn.textContent = app.askedAt === n && !mine.length ? t("ask_card_busy") : t("ask_card");
  answer.hidden = !mine.length || !hand || !hand.active;
  answer.textContent = mine.length ? tx(mine[mine.length - 1].text) : "";
}

function setupRemarks() {
  byId("ask-card").addEventListener("click", () => {
    const st = app.state;
    if (!st) return;
    app.askedAt = st.history.length + 1;
    send({ type: "ask_card" });
    renderAsk(st);
  });
}
