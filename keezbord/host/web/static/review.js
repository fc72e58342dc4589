// keezbord web page, review: click a move in the list (or a flagged move) to see the
// position before and after it on the board, the card, who played it and, for a flagged
// move, the rule broken in words (as `keezbord check` says it). Arrow keys: left/right the
// previous/next move, up/down before/after; Escape (or the button) back to live.
// Protocol: GET /api/review?i=<log entry> (docs/web.md).
"use strict";

Object.assign(UI.nl, {
  review: "Terugkijken", review_before: "Voor de zet", review_after: "Na de zet", live: "Terug naar live (Esc)",
  review_prev: "Vorige", review_next: "Volgende", review_card: "Kaart", review_by: "Gespeeld door",
  review_rule: "Overtreden regel", review_keys: "← → vorige/volgende zet, ↑ ↓ voor/na, Esc live",
  in_review: "Je kijkt terug: druk Esc om verder te spelen", review_gone: "Die zet is teruggenomen",
  flagged: "Afgekeurde zet",
});
Object.assign(UI.en, {
  review: "Review", review_before: "Before the move", review_after: "After the move", live: "Back to live (Esc)",
  review_prev: "Previous", review_next: "Next", review_card: "Card", review_by: "Played by",
  review_rule: "Rule broken", review_keys: "← → previous/next move, ↑ ↓ before/after, Esc live",
  in_review: "You are reviewing: press Esc to play on", review_gone: "That move was taken back",
  flagged: "Flagged move",
});

/** @param {LogEntry} e */
function reviewable(e) { return e.kind === "move" || e.kind === "illegal"; }

/** @param {number} i @param {"before" | "after"} side */
async function openReview(i, side = "after") {
  const q = new URLSearchParams({ i: String(i) });
  if (app.token) q.set("token", app.token);
  const r = await fetch(`/api/review?${q}`);
  if (!r.ok) { addLog(t("review_gone"), true); return; }
  app.reviewing = { data: await r.json(), side };
  document.body.classList.add("reviewing");
  showReview();
}

function closeReview() {
  if (!app.reviewing) return;
  app.reviewing = null;
  document.body.classList.remove("reviewing");
  byId("review").hidden = true;
  for (const li of document.querySelectorAll("#moves li.reviewed")) li.classList.remove("reviewed");
  render();  // the live board again
}

/** @param {number} dir */
function stepReview(dir) {
  const st = app.state;
  if (!st || !app.reviewing) return;
  const at = app.reviewing.data.i;
  const list = st.log.filter(reviewable).map((e) => e.i);
  const k = list.indexOf(at);
  const next = list[k + dir];
  if (next !== undefined) openReview(next, app.reviewing.side);
}

// The reviewed position on the board: the live state with the position's pawns and the
// move's holes lit (where it left: "source", where it reached: "target", a flagged
// move's holes: "error"); the side panels keep showing the live game.
function showReviewBoard() {
  const rv = app.reviewing, live = app.state;
  if (!rv || !live) return;
  const d = rv.data;
  const before = rv.side === "before" && d.kind !== "illegal";  // a flagged move: the board as sensed
  /** @type {Record<string, string>} */
  const leds = {};
  if (d.kind === "illegal") for (const h of d.reached) leds[h] = "error";
  else if (before) for (const h of d.left) leds[h] = "source";
  else { for (const h of d.left) leds[h] = "source"; for (const h of d.reached) leds[h] = "target"; }
  app.state = { ...live, pawns: before ? d.before : d.after, leds, held: [], last: null, flag: null };
  try { render(); } finally { app.state = live; }
}

function showReview() {
  const rv = app.reviewing;
  if (!rv) return;
  const d = rv.data;
  const box = byId("review");
  box.hidden = false;
  const title = d.kind === "illegal" ? `${t("flagged")} (${t("move_no")} ${d.n + 1})` : `${t("move_no")} ${d.n}`;
  byId("review-title").textContent = `${t("review")}: ${title}`;
  const facts = [];
  facts.push(el("li", { "data-fact": "words", text: tx(d.text) }));
  if (d.card) facts.push(el("li", { "data-fact": "card", text: `${t("review_card")}: ${d.card}` }));
  if (d.seat !== null && d.seat !== undefined)
    facts.push(el("li", { "data-fact": "by", text: `${t("review_by")}: ${seatName(d.seat)}` }));
  if (d.move) facts.push(el("li", { "data-fact": "move" }, el("code", { text: d.move })));
  if (d.reason) facts.push(el("li", { class: "err", "data-fact": "rule", text: `${t("review_rule")}: ${tx(d.reason)}` }));
  if (d.overruled) facts.push(el("li", { "data-fact": "overruled", text: `${t("overruled")}: ${d.overruled}` }));
  byId("review-facts").replaceChildren(...facts);
  const bb = byId("review-before"), ab = byId("review-after");
  bb.setAttribute("aria-pressed", String(rv.side === "before"));
  ab.setAttribute("aria-pressed", String(rv.side === "after"));
  bb.hidden = ab.hidden = d.kind === "illegal";
  for (const id of ["review-before", "review-after", "review-prev", "review-next", "review-live"])
    byId(id).textContent = t(id.replace("review-", "review_").replace("review_live", "live"));
  byId("review-keys").textContent = t("review_keys");
  for (const li of document.querySelectorAll("#moves li.reviewed")) li.classList.remove("reviewed");
  document.querySelector(`#moves li[data-i="${d.i}"]`)?.classList.add("reviewed");
  showReviewBoard();
}

function setupReview() {
  const moves = byId("moves");
  const pick = (/** @type {Event} */ ev) => {
    const li = /** @type {HTMLElement | null} */ (/** @type {Element} */ (ev.target).closest("li[data-i]"));
    if (!li || !app.state) return;
    const e = app.state.log[Number(li.dataset.i)];
    if (e && reviewable(e)) openReview(e.i);
  };
  moves.addEventListener("click", pick);
  moves.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(ev); } });
  // The buttons show only during a review (#review is hidden otherwise).
  byId("review-before").addEventListener("click", () => { if (app.reviewing) { app.reviewing.side = "before"; showReview(); } });
  byId("review-after").addEventListener("click", () => { if (app.reviewing) { app.reviewing.side = "after"; showReview(); } });
  byId("review-prev").addEventListener("click", () => stepReview(-1));
  byId("review-next").addEventListener("click", () => stepReview(1));
  byId("review-live").addEventListener("click", closeReview);
  document.addEventListener("keydown", (ev) => {
    if (!app.reviewing || /** @type {Element} */ (ev.target).closest?.("input, select, textarea, dialog")) return;
    const k = ev.key;
    if (k === "Escape") closeReview();
    else if (k === "ArrowLeft") stepReview(-1);
    else if (k === "ArrowRight") stepReview(1);
    else if (k === "ArrowUp") { app.reviewing.side = "before"; showReview(); }
    else if (k === "ArrowDown") { app.reviewing.side = "after"; showReview(); }
    else return;
    ev.preventDefault();
  });
  // A live state redraws the live board: the reviewed position goes back on top.
  app.onState.push(() => { if (app.reviewing) showReviewBoard(); });
}
