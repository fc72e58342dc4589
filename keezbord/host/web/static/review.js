// keezbord web page, review: click a move in the list (or a flagged move) to see the
// position before and after it on the board, the card, who played it and, for a flagged
// move, the rule broken in words (as `keezbord check` says it). Arrow keys: left/right the
// previous/next move, up/down before/after, with Shift the previous/next labelled move
// once the game is analysed (as lichess walks the mistakes); Escape (or the button) back
// to live.
// Protocol: GET /api/review?i=<log entry> (docs/web.md).
// After the game (analysis.js) a move's review also says its win chance, its label and
// the better move (lit on the board before the move, role "hint") with the reason; a
// person's labelled move can be tried again: the position before it with the same hand,
// the new move judged (GET /api/retry).
"use strict";

Object.assign(UI.nl, {
  review: "Terugkijken", review_before: "Voor de zet", review_after: "Na de zet", live: "Terug naar live (Esc)",
  review_prev: "Vorige", review_next: "Volgende", review_card: "Kaart", review_by: "Gespeeld door",
  review_rule: "Overtreden regel", review_keys: "← → vorige/volgende zet, ↑ ↓ voor/na, Esc live",
  review_keys_mistakes: "Shift+← → vorige/volgende fout",
  in_review: "Je kijkt terug: druk Esc om verder te spelen", review_gone: "Die zet is teruggenomen",
  flagged: "Afgekeurde zet",
  try_again: "Probeer opnieuw", retry_pick: "Kies een kaart, dan een zet:", retry_back: "Terug",
  retry_best: "De beste zet", retry_good: "Goed genoeg", retry_mistake: "Nog steeds een fout",
});
Object.assign(UI.en, {
  review: "Review", review_before: "Before the move", review_after: "After the move", live: "Back to live (Esc)",
  review_prev: "Previous", review_next: "Next", review_card: "Card", review_by: "Played by",
  review_rule: "Rule broken", review_keys: "← → previous/next move, ↑ ↓ before/after, Esc live",
  review_keys_mistakes: "Shift+← → previous/next mistake",
  in_review: "You are reviewing: press Esc to play on", review_gone: "That move was taken back",
  flagged: "Flagged move",
  try_again: "Try again", retry_pick: "Pick a card, then a move:", retry_back: "Back",
  retry_best: "The best move", retry_good: "Good enough", retry_mistake: "Still a mistake",
});

// A touch screen has no Esc key: the words name the button (issue 40, item 15), here and
// in the instruction line (instruction.js's review_line); the keys' line is not shown
// there (analysis.css).
if (matchMedia("(pointer: coarse)").matches) {
  const nl = "Je kijkt terug: tik op \u201cTerug naar live\u201d om verder te spelen";
  const en = "You are reviewing: tap \u201cBack to live\u201d to play on";
  Object.assign(UI.nl, { live: "Terug naar live", in_review: nl, review_line: nl });
  Object.assign(UI.en, { live: "Back to live", in_review: en, review_line: en });
}

/** @param {LogEntry} e */
function reviewable(e) { return e.kind === "move" || e.kind === "illegal"; }

/** @param {number} i @param {"before" | "after"} side */
async function openReview(i, side = "after") {
  const q = new URLSearchParams({ i: String(i) });
  if (app.token) q.set("token", app.token);
  const r = await fetch(`/api/review?${q}`);
  if (!r.ok) { addLog(t("review_gone"), true); return; }
  // Where the review was opened from (a chart's dot, a move of the list): back there after.
  if (!app.reviewing) reviewFrom = document.activeElement?.closest("#analysis, #moves li") || null;
  app.reviewing = { data: await r.json(), side, retry: null };
  document.body.classList.add("reviewing");
  showReview();
  inView(byId("review"));
}

/** @type {Element | null} */
let reviewFrom = null;

// On a phone the review opened above the view (from the chart or the move list, further
// down) or under the sticky board: it is brought into view below the board (the page's
// scroll-padding-top, style.css).
/** @param {Element} box */
function inView(box) {
  const r = box.getBoundingClientRect();
  const top = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  if (r.top < top || r.top > innerHeight - 80) box.scrollIntoView({ block: "start" });
}

function closeReview() {
  if (!app.reviewing) return;
  app.reviewing = null;
  document.body.classList.remove("reviewing");
  byId("review").hidden = true;
  for (const li of document.querySelectorAll("#moves li.reviewed")) li.classList.remove("reviewed");
  render();  // the live board again
  if (reviewFrom?.isConnected) inView(reviewFrom);
  reviewFrom = null;
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
  let pawns = before ? d.before : d.after;
  const row = reviewRow(d), tr = rv.retry;
  if (tr) {  // trying the move again: the position before it, the new move's holes
    const m = tr.move;
    pawns = m && tr.verdict ? m.after : tr.data.before;
    if (m) { for (const h of m.left) leds[h] = "source"; for (const h of m.reached) leds[h] = "target"; }
  } else if (d.kind === "illegal") for (const h of d.reached) leds[h] = "error";
  else if (before) {
    for (const h of d.left) leds[h] = "source";
    if (row && row.label) for (const h of row.best_holes || []) leds[h] = "hint";  // the better move
  } else { for (const h of d.left) leds[h] = "source"; for (const h of d.reached) leds[h] = "target"; }
  app.state = { ...live, pawns, leds, held: [], last: null, flag: null };
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
  if (d.card) facts.push(el("li", { "data-fact": "card", text: `${t("review_card")}: ${cardLabel(d.card)}` }));
  if (d.seat !== null && d.seat !== undefined)
    facts.push(el("li", { "data-fact": "by", text: `${t("review_by")}: ${seatName(d.seat)}` }));
  if (d.move) facts.push(el("li", { "data-fact": "move" }, el("code", { text: d.move })));
  if (d.reason) facts.push(el("li", { class: "err", "data-fact": "rule", text: `${t("review_rule")}: ${tx(d.reason)}` }));
  if (d.overruled) facts.push(el("li", { "data-fact": "overruled", text: `${t("overruled")}: ${d.overruled}` }));
  facts.push(...analysisFacts(d));
  byId("review-facts").replaceChildren(...facts);
  renderRetry();
  const bb = byId("review-before"), ab = byId("review-after");
  bb.setAttribute("aria-pressed", String(rv.side === "before"));
  ab.setAttribute("aria-pressed", String(rv.side === "after"));
  bb.hidden = ab.hidden = d.kind === "illegal";
  for (const id of ["review-before", "review-after", "review-prev", "review-next", "review-live"])
    byId(id).textContent = t(id.replace("review-", "review_").replace("review_live", "live"));
  // After the game: walk through the labelled moves (analysis.js).
  const walk = typeof mistakeRows === "function" && mistakeRows().length > 0;
  for (const [id, key] of [["review-prev-mistake", "prev_mistake"], ["review-next-mistake", "next_mistake"]]) {
    byId(id).hidden = !walk;
    byId(id).textContent = t(key);
  }
  byId("review-keys").textContent = walk ? `${t("review_keys")}; ${t("review_keys_mistakes")}` : t("review_keys");
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
  byId("review-prev-mistake").addEventListener("click", () => stepMistake(-1));
  byId("review-next-mistake").addEventListener("click", () => stepMistake(1));
  document.addEventListener("keydown", (ev) => {
    if (!app.reviewing || /** @type {Element} */ (ev.target).closest?.("input, select, textarea, dialog")) return;
    const k = ev.key;
    if (k === "Escape") closeReview();
    else if (ev.shiftKey && k === "ArrowLeft") stepMistake(-1);
    else if (ev.shiftKey && k === "ArrowRight") stepMistake(1);
    else if (k === "ArrowLeft") stepReview(-1);
    else if (k === "ArrowRight") stepReview(1);
    else if (k === "ArrowUp") { app.reviewing.side = "before"; showReview(); }
    else if (k === "ArrowDown") { app.reviewing.side = "after"; showReview(); }
    else return;
    ev.preventDefault();
  });
  // NL/EN: the review's words in the new language at once (no state may come after a game).
  byId("lang").addEventListener("click", () => setTimeout(() => { if (app.reviewing) showReview(); }));
  // A live state redraws the live board: the reviewed position goes back on top.
  app.onState.push(() => { if (app.reviewing) showReviewBoard(); });
}

// -- after the game: the analysis of the reviewed move, and trying it again ------------------

/** @param {Review} d */
function reviewRow(d) {
  return d.kind === "move" && typeof analysisRow === "function" ? analysisRow(d.n, d.move) : null;
}

/** @param {Review} d @returns {HTMLLIElement[]} */
function analysisFacts(d) {
  const row = reviewRow(d);
  if (!row) return [];
  const out = [el("li", { "data-fact": "win", text: `${t("win_after")}: ${pctOf(row.win)}` })];
  if (row.label) {
    out.push(el("li", { class: `verdict ${row.label}`, "data-fact": "label",
      text: `${t("label")}: ${t(row.label)} ${MARK[row.label]} (${lossText(row)})` }));
    // The better move as people say it (describe_move), its notation on hover; an
    // analysis kept from before the words were stored shows the notation.
    const best = row.best.words ? el("span", { class: "move-words", title: row.best.move, text: tx(row.best.words) })
      : el("code", { text: row.best.move });
    out.push(el("li", { "data-fact": "better", "data-move": row.best.move }, `${t("better_move")}: `, best,
      ` (${pctOf(row.best.win)})`));
    // Why, in words (engine/mistake_reason.py); the coach's remark where it is missing.
    const why = row.why || row.comment;
    if (why) out.push(el("li", { "data-fact": "reason" }, el("strong", { text: `${t("why")}: ` }), tx(why)));
    const people = analysisView.data?.people || [];
    if (people.includes(row.seat) && mayDo("retry") && !app.reviewing?.retry) {
      const b = el("button", { id: "retry-start", type: "button", text: t("try_again") });
      b.addEventListener("click", () => startRetry(row.n));
      const li = el("li", { "data-fact": "retry" }, b);
      if (app.mode === "run") {  // a real board: set the position up and play it with the pawns
        const p = el("button", { id: "retry-board", type: "button", text: t("retry_pawns") });
        p.addEventListener("click", () => { send({ type: "retry_board", n: row.n }); closeReview(); });
        li.append(" ", p);
      }
      out.push(li);
    }
  }
  if (!row.hand_known) out.push(el("li", { class: "note", "data-fact": "hand", text: t("hand_unknown") }));
  return out;
}

/** @param {Record<string, string>} extra */
function retryQuery(extra) {
  const q = new URLSearchParams(extra);
  if (app.token) q.set("token", app.token);
  return `/api/retry?${q}`;
}

/** @param {number} n */
async function startRetry(n) {
  const r = await fetch(retryQuery({ n: String(n) }));
  const data = await r.json();
  if (!r.ok) { addLog(tx(data.error), true); return; }
  if (!app.reviewing) return;  // the review was closed meanwhile
  app.reviewing.retry = { data, card: null, move: null, verdict: null };
  showReview();
}

function renderRetry() {
  const box = byId("retry");
  const tr = app.reviewing && app.reviewing.retry;
  if (!tr) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  const cards = el("div", { class: "retry-cards", role: "group" });
  for (const c of tr.data.hand) {
    const b = el("button", { type: "button", class: "card", "data-card": c, "aria-pressed": String(tr.card === c), text: cardLabel(c) });
    b.disabled = !(tr.data.moves[c] || []).length;
    b.addEventListener("click", () => { Object.assign(tr, { card: c, move: null, verdict: null }); showReview(); });
    cards.append(b);
  }
  /** @type {HTMLElement[]} */
  const kids = [el("p", { text: t("retry_pick") }), cards];
  if (tr.card) {
    const ul = el("ul", { class: "retry-moves" });
    for (const m of tr.data.moves[tr.card] || []) {
      const b = el("button", { type: "button", "data-move": m.move, "aria-pressed": String(tr.move === m) }, tx(m.text));
      b.addEventListener("click", () => judgeRetry(m));
      ul.append(el("li", {}, b));
    }
    kids.push(ul);
  }
  if (tr.verdict) {
    const v = tr.verdict;
    // The verdict's words open with it ("The best move!", "Good enough: ...").
    kids.push(el("p", { id: "retry-verdict", class: `verdict ${v.outcome}`, "data-outcome": v.outcome,
                        title: t("retry_" + v.outcome), text: tx(v.text) }));
  }
  const back = el("button", { type: "button", id: "retry-back", text: t("retry_back") });
  back.addEventListener("click", () => { if (app.reviewing) app.reviewing.retry = null; showReview(); });
  kids.push(back);
  box.replaceChildren(...kids);
}

/** @param {RetryMove} m */
async function judgeRetry(m) {
  const tr = app.reviewing && app.reviewing.retry;
  if (!tr) return;
  Object.assign(tr, { move: m, verdict: null });
  showReview();
  const r = await fetch(retryQuery({ n: String(tr.data.n), move: m.move }));
  const v = await r.json();
  if (app.reviewing?.retry !== tr || tr.move !== m) return;  // another move was picked meanwhile
  if (!r.ok) { addLog(tx(v.error), true); return; }
  tr.verdict = v;
  showReview();
}
