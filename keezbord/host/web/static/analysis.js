// keezbord web page, after the game (issue 27): the win-chance chart per team (SVG, axes
// of move number and win chance, a legend of the teams' lines and a key to the marks),
// with the labelled decisions as dots (click one: that move in the review, the better
// move lit on the board with its reason), the move list marked (?! ? ??), the luck and
// skill summary in words, "next mistake" to walk through the labelled moves. Filled in while the host analyses the finished game in the background.
// Protocol: the state's "analysis" (progress), GET /api/analysis (docs/web.md).
"use strict";

Object.assign(UI.nl, {
  analysis: "Na het spel", analysis_running: "Analyse bezig", analysis_failed: "De analyse is mislukt",
  analysis_moves: "zetten", chart: "Winkans per team", accuracy: "nauwkeurigheid",
  inaccuracy: "onnauwkeurigheid", mistake: "fout", blunder: "blunder",
  win_after: "Winkans na de zet", better_move: "Betere zet", label: "Oordeel", team_of: "team",
  why: "Waarom",
  hand_unknown: "hand niet bekend: alleen de zetten van deze kaart vergeleken",
  axis_move: "zet", axis_win: "winkans",
  key_marks: "Een stip is een zet die de winkans van het eigen team liet zakken (klik: terugkijken):",
  key_inaccuracy: "onnauwkeurigheid", key_mistake: "fout", key_blunder: "blunder",
  next_mistake: "Volgende fout", prev_mistake: "Vorige fout",
  mistakes_of: "Fouten van", mistakes_all: "iedereen", no_mistakes: "Geen fouten",
  team_won: "won", team_lost: "verloor", team_ended: "eindigde",
  mostly_own: "vooral door de eigen zetten", mostly_others: "vooral door de zetten van de anderen",
  mostly_cards: "vooral door de kaarten (geluk)",
  win_from_to: "winkans", own_moves: "Eigen zetten", others_moves: "Zetten van de anderen",
  cards_moves: "De kaarten (geluk)", pts_gave: "leverden {n} punten winkans op",
  pts_cost: "kostten {n} punten winkans", others_gave: "(hun fouten)",
  split_key: "Een punt is één procent winkans. De drie samen zijn de verandering van begin tot eind; in een lang spel kan elk boven de 100 komen.",
});
Object.assign(UI.en, {
  analysis: "After the game", analysis_running: "Analysing", analysis_failed: "The analysis failed",
  analysis_moves: "moves", chart: "Win chance per team", accuracy: "accuracy",
  inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder",
  win_after: "Win chance after the move", better_move: "Better move", label: "Verdict", team_of: "team",
  why: "Why",
  hand_unknown: "hand not known: only this card's moves compared",
  axis_move: "move", axis_win: "win chance",
  key_marks: "A dot is a move that lowered its own team's win chance (click: review it):",
  key_inaccuracy: "inaccuracy", key_mistake: "mistake", key_blunder: "blunder",
  next_mistake: "Next mistake", prev_mistake: "Previous mistake",
  mistakes_of: "Mistakes of", mistakes_all: "everyone", no_mistakes: "No mistakes",
  team_won: "won", team_lost: "lost", team_ended: "ended",
  mostly_own: "mostly by its own moves", mostly_others: "mostly by the others' moves",
  mostly_cards: "mostly by the cards (luck)",
  win_from_to: "win chance", own_moves: "Its own moves", others_moves: "The others' moves",
  cards_moves: "The cards (luck)", pts_gave: "gave {n} points of win chance",
  pts_cost: "cost {n} points of win chance", others_gave: "(their mistakes)",
  split_key: "A point is one percent of win chance. The three add up to the change from start to end; in a long game each can pass 100.",
});
/** @type {Record<AnalysisLabel, string>} */
const MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };
/** @type {Record<AnalysisLabel, number>} */
const LABEL_R = { inaccuracy: 3.5, mistake: 4.5, blunder: 5.5 };

/** @type {{ data: AnalysisDoc | null, key: string, busy: boolean, again: boolean }} */
const analysisView = { data: null, key: "", busy: false, again: false };

// The analysis row of a move, by its number and notation (a move taken back and played
// again has the same number: the notation tells them apart).
/** @param {number} n @param {string} [move] @returns {AnalysisRow | null} */
function analysisRow(n, move) {
  const d = analysisView.data;
  if (!d || !d.rows) return null;
  return d.rows.find((r) => r.type === "decision" && r.n === n && (move === undefined || r.move === move)) || null;
}

async function fetchAnalysis() {
  if (analysisView.busy) { analysisView.again = true; return; }
  analysisView.busy = true;
  try {
    const q = new URLSearchParams();
    if (app.token) q.set("token", app.token);
    const r = await fetch(`/api/analysis?${q}`);
    analysisView.data = r.ok ? await r.json() : null;
  } finally {
    analysisView.busy = false;
  }
  renderAnalysis();
  if (analysisView.again) { analysisView.again = false; fetchAnalysis(); }
}

/** @param {PageState} st */
function onAnalysisState(st) {
  const v = st.analysis;
  const box = byId("analysis");
  if (!v || v.state === "none") { box.hidden = true; analysisView.data = null; analysisView.key = ""; return; }
  const key = `${v.game}/${v.state}/${v.done}`;
  if (key !== analysisView.key) { analysisView.key = key; fetchAnalysis(); }
  else renderAnalysis();  // the language or the move list may have changed
}

function renderAnalysis() {
  const box = byId("analysis");
  const d = analysisView.data, v = app.state && app.state.analysis;
  if (!d || !v) { box.hidden = true; return; }
  box.hidden = false;
  byId("analysis-title").textContent = t("analysis");
  const prog = byId("analysis-progress");
  prog.hidden = d.state === "done";
  prog.textContent = d.state === "failed" ? t("analysis_failed")
    : `${t("analysis_running")}: ${d.done}/${d.total} ${t("analysis_moves")}`;
  drawChart(d);
  renderSummary(d);
  renderWalk();
  markMoves();
}

/** @param {number[]} team */
function teamColour(team) {
  const p = seatInfo(team[0]);
  return p ? p.colour.hex : "#666";
}
/** @param {number[]} team */
function teamName(team) { return team.map((s) => seatName(s)).join(" + "); }

/** @param {number} v @param {number} [decimals] A number as the page's language writes it:
 * a decimal comma in Dutch (87,1), a point in English (issue 40, item 14). */
function fmtNum(v, decimals) {
  const s = decimals === undefined ? String(v) : v.toFixed(decimals);
  return app.lang === "nl" ? s.replace(".", ",") : s;
}
/** @param {number} p A chance (0 to 1) in whole percent. */
function pctOf(p) { return `${Math.round(100 * p)}%`; }
/** @param {AnalysisRow} r The loss a label was given for, cut as the label compares
 * (judge.shown_loss: a mistake's 4.6 shows 4, never a blunder's 5). */
function lossText(r) {
  const v = r.loss_shown ?? Math.floor(100 * r.loss + 1e-9);
  return `−${fmtNum(v)}%`;
}

// Round steps for the move axis: about six labelled moves whatever the game's length.
const MOVE_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];

/** @param {AnalysisDoc} d */
function drawChart(d) {
  const chart = byId("analysis-chart");
  const W = 360, H = 180, L = 40, R = 8, T = 8, B = 32;
  const decisions = d.rows.filter((r) => r.type === "decision");
  const n = Math.max(d.total || decisions.length, 1);
  const x = (/** @type {number} */ k) => L + (W - L - R) * (n > 1 ? k / (n - 1) : 0.5);
  const y = (/** @type {number} */ p) => T + (H - T - B) * (1 - p);
  chart.setAttribute("viewBox", `0 0 ${W} ${H}`);
  /** @param {string} text @param {Record<string, string | number>} at */
  const label = (text, at) => { const e = svg("text", at); e.textContent = text; return e; };
  /** @type {SVGElement[]} */
  const kids = [svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "frame" })];
  // The win-chance axis: 0 to 100% (the mid line dashed: an even game of two teams).
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    kids.push(svg("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: p === 0.5 ? "mid" : "grid" }));
    kids.push(label(pctOf(p), { x: L - 3, y: y(p) + 3, class: "axis y-tick" }));
  }
  kids.push(label(t("axis_win"), { x: 9, y: T + (H - T - B) / 2, class: "axis-title y-title",
                                   transform: `rotate(-90 9 ${T + (H - T - B) / 2})` }));
  // The move axis: move numbers (move m is the m-th decision).
  const step = MOVE_STEPS.find((s) => n / s <= 6) ?? Math.ceil(n / 6);
  for (let m = step; m <= n; m += step) {
    kids.push(svg("line", { x1: x(m - 1), x2: x(m - 1), y1: H - B, y2: H - B + 3, class: "tick" }));
    kids.push(label(String(m), { x: x(m - 1), y: H - B + 12, class: "axis x-tick", "data-move": m }));
  }
  kids.push(label(t("axis_move"), { x: L + (W - L - R) / 2, y: H - 4, class: "axis-title x-title" }));
  (d.teams || []).forEach((team, ti) => {
    const pts = (d.curve || []).map((c, k) => `${x(k).toFixed(1)},${y(c[ti]).toFixed(1)}`);
    if (pts.length) {
      const line = svg("polyline", { points: pts.join(" "), class: "team", stroke: teamColour(team),
                                     "data-team": String(ti) });
      const title = svg("title");
      title.textContent = `${t("team_of")} ${teamName(team)}`;
      line.append(title);
      kids.push(line);
    }
  });
  // The worse on top: blunders are drawn last (a long game's dots overlap).
  const order = ["inaccuracy", "mistake", "blunder"];
  /** @type {[AnalysisRow, number][]} */
  const labelled = decisions.map((r, k) => /** @type {[AnalysisRow, number]} */ ([r, k])).filter(([r, k]) => r.label && d.curve[k]);
  labelled.sort((a, b) => order.indexOf(a[0].label ?? "") - order.indexOf(b[0].label ?? "") || a[1] - b[1]);
  labelled.forEach(([r, k]) => {
    const lab = /** @type {AnalysisLabel} */ (r.label);
    const ti = (d.teams || []).findIndex((team) => team.includes(r.seat));
    const dot = svg("circle", { cx: x(k).toFixed(1), cy: y(d.curve[k][ti]).toFixed(1), r: LABEL_R[lab],
                                class: `dot ${lab}`, stroke: teamColour(d.teams[ti]), tabindex: "0",
                                role: "button", "data-n": String(r.n), "data-move": r.move, "data-label": lab });
    const title = svg("title");
    title.textContent = dotText(r, lab);
    dot.setAttribute("aria-label", title.textContent);
    dot.append(title);
    kids.push(dot);
  });
  chart.replaceChildren(...kids);
  byId("analysis-tip").hidden = true;
  drawLegend(d);
}

// Under the chart: each team's line, and what the dots and marks mean.
/** @param {AnalysisDoc} d */
function drawLegend(d) {
  const teams = el("ul", { class: "legend-teams" });
  for (const team of d.teams || [])
    teams.append(el("li", { "data-seats": team.join(",") },
      el("span", { class: "swatch line", style: `border-color: ${teamColour(team)}` }),
      `${t("team_of")} ${teamName(team)}`));
  const marks = el("ul", { class: "legend-marks" });
  for (const lab of /** @type {AnalysisLabel[]} */ (["inaccuracy", "mistake", "blunder"]))
    marks.append(el("li", { "data-label": lab }, el("span", { class: `swatch dot ${lab}` }),
      el("strong", { text: MARK[lab] }), ` ${t(`key_${lab}`)}`));
  byId("analysis-legend").replaceChildren(teams, el("p", { class: "note", text: t("key_marks") }), marks);
}

/** @param {string} s */
function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
/** @param {number} x */
function pts(x) { return fmtNum(Math.abs(Math.round(100 * x))); }

// Each team's result and where it came from, in words first, numbers second: its own
// moves, the other teams' moves, the cards (docs/analysis.md, "Luck apart from skill").
/** @param {AnalysisDoc} d */
function renderSummary(d) {
  const ul = byId("analysis-summary");
  const s = d.summary;
  if (!s || d.state !== "done") { ul.replaceChildren(); return; }
  const items = [];
  for (const tm of s.teams) {
    const parts = /** @type {const} */ ([["own", tm.own], ["others", tm.others], ["cards", tm.cards]]);
    // What made the result: the biggest part in its direction (either, when no one won).
    const sign = Math.sign(tm.swing);
    const main = [...parts].sort((a, b) => (sign ? sign * (b[1] - a[1]) : Math.abs(b[1]) - Math.abs(a[1])))[0][0];
    const start = tm.start ?? (tm.end !== undefined ? tm.end - tm.swing : null);
    const how = tm.swing > 0 ? t("team_won") : tm.swing < 0 ? t("team_lost") : t("team_ended");
    const range = start !== null && tm.end !== undefined ? ` (${t("win_from_to")} ${pctOf(start)} → ${pctOf(tm.end)})` : "";
    const lines = el("ul", { class: "split" });
    for (const [key, v] of parts) {
      const words = (v >= 0 ? t("pts_gave") : t("pts_cost")).replace("{n}", pts(v));
      const extra = key === "others" && v > 0 ? ` ${t("others_gave")}` : "";
      lines.append(el("li", { "data-part": key, "data-points": String(Math.round(100 * v)) },
        `${t(`${key}_moves`)}: ${words}${extra}`));
    }
    items.push(el("li", { class: "team", "data-seats": tm.seats.join(","), "data-main": main },
      el("strong", { text: `${cap(t("team_of"))} ${teamName(tm.seats)} ${how}, ${t(`mostly_${main}`)}` }),
      range, lines));
  }
  if (s.teams.length) items.push(el("li", { class: "note split-key", text: t("split_key") }));
  for (const p of s.players) {
    const acc = p.accuracy === null ? "–" : `${fmtNum(p.accuracy)}%`;
    items.push(el("li", { class: "player", "data-seat": String(p.seat) },
      `${seatName(p.seat)}: ${t("accuracy")} ${acc} · ?! ${p.inaccuracy} · ? ${p.mistake} · ?? ${p.blunder}`));
  }
  ul.replaceChildren(...items);
}

// -- walking through the mistakes (as lichess does) ------------------------------------------

// Whose mistakes are walked: a seat ("seat:N"), a team ("team:I", its index in the
// analysis's teams) or everyone ("all"). A page that plays a seat starts at it (its
// hand's, mySeat: a player reviewing wants their own); one with no hand (a spectator,
// a real board's referee) at everyone's. null: not chosen yet (the default).
/** @type {string | null} */
let walkWhose = null;

/** @returns {string} */
function walkChoice() {
  const seat = app.state ? mySeat(app.state) : null;
  return walkWhose ?? (seat === null ? "all" : `seat:${seat}`);
}

/** @returns {AnalysisRow[]} every labelled decision, in the order they were played */
function labelledRows() {
  const d = analysisView.data;
  return d && d.rows ? d.rows.filter((r) => r.type === "decision" && r.label) : [];
}

/** @returns {AnalysisRow[]} the labelled decisions of the seat or team chosen, in order */
function mistakeRows() {
  const [kind, k] = walkChoice().split(":");
  const team = kind === "team" ? (analysisView.data?.teams || [])[Number(k)] || [] : null;
  return labelledRows().filter((r) => kind === "all" || (team ? team.includes(r.seat) : r.seat === Number(k)));
}

// The choice beside "next mistake": each seat (one's own marked), each team of two or
// more, everyone; shown once some move is labelled.
function renderWalk() {
  const d = analysisView.data, pick = /** @type {HTMLSelectElement} */ (byId("mistake-whose"));
  const any = labelledRows().length > 0;
  byId("analysis-walk").hidden = !any;
  const me = app.state ? mySeat(app.state) : null;
  const teams = d?.teams || [];
  /** @type {[string, string][]} */
  const opts = teams.flat().sort((a, b) => a - b)
    .map((s) => [`seat:${s}`, s === me ? `${seatName(s)} (${t("you")})` : seatName(s)]);
  teams.forEach((team, i) => { if (team.length > 1) opts.push([`team:${i}`, `${t("team_of")} ${teamName(team)}`]); });
  opts.push(["all", t("mistakes_all")]);
  const key = JSON.stringify([opts, app.lang]);
  if (pick.dataset.key !== key) {
    pick.dataset.key = key;
    pick.replaceChildren(...opts.map(([v, text]) => el("option", { value: v, text })));
  }
  if (!opts.some(([v]) => v === walkChoice())) walkWhose = "all";
  pick.value = walkChoice();
  byId("mistake-whose-label").textContent = t("mistakes_of");
  const walk = /** @type {HTMLButtonElement} */ (byId("analysis-next-mistake"));
  const rows = mistakeRows();
  walk.hidden = !any;
  walk.disabled = !rows.length;
  walk.textContent = rows.length ? t("next_mistake") : t("no_mistakes");
}

/** @param {AnalysisRow} row @returns {LogEntry | undefined} its move in the move list */
function moveEntry(row) {
  return [...(app.state?.log || [])].reverse().find((e) => e.kind === "move" && e.n === row.n && e.move === row.move);
}

/** @param {AnalysisRow} row Its move in the review, the position before it with the better move lit. */
function reviewRowOf(row) {
  const entry = moveEntry(row);
  if (entry) openReview(entry.i, "before");
}

// A labelled decision as its dot says it (title, label, the tip under the chart): the
// move in words, the analysis's, else the move list's; never its notation.
/** @param {AnalysisRow} r @param {AnalysisLabel} lab */
function dotText(r, lab) {
  const words = tx(r.words) || tx(moveEntry(r)?.text) || cardLabel(r.card);
  return `${r.n}. ${seatName(r.seat)}: ${words} ${MARK[lab]} ${t(lab)} (${lossText(r)})`;
}

// A dot pointed at or focused: its words in the tip under the chart (a keyboard or a
// touch screen gets no native tooltip).
/** @param {Event} ev */
function showTip(ev) {
  const dot = /** @type {Element} */ (ev.target).closest?.(".dot");
  const tip = byId("analysis-tip");
  tip.hidden = !dot;
  if (dot) tip.textContent = dot.getAttribute("aria-label") || "";
}

/** @param {number} dir The next (1) or previous (-1) labelled move from the one reviewed
 * (from the start when none is). */
function stepMistake(dir) {
  const rows = mistakeRows();
  if (!rows.length) return;
  const at = app.reviewing ? app.reviewing.data.n : (dir > 0 ? 0 : Infinity);
  const next = dir > 0 ? rows.find((r) => r.n > at) : [...rows].reverse().find((r) => r.n < at);
  if (next) reviewRowOf(next);
}

// The move list's labelled moves get their mark (re-applied whenever the list is drawn).
function markMoves() {
  const d = analysisView.data;
  for (const li of /** @type {NodeListOf<HTMLLIElement>} */ (document.querySelectorAll("#moves li.move"))) {
    const r = d ? analysisRow(Number(li.dataset.n), li.dataset.move) : null;
    const label = r?.label;
    const have = li.querySelector(".mark");
    if (!label) { if (have) have.remove(); li.removeAttribute("data-label"); continue; }
    li.dataset.label = label;
    if (have && have.textContent === ` ${MARK[label]}`) continue;
    if (have) have.remove();
    li.querySelector("code")?.after(el("span", { class: `mark ${label}`, title: t(label), text: ` ${MARK[label]}` }));
  }
}

function setupAnalysis() {
  const chart = byId("analysis-chart");
  const open = (/** @type {HTMLElement} */ dot) => {
    const row = analysisRow(Number(dot.dataset.n), dot.dataset.move);
    if (row) reviewRowOf(row);
  };
  const pick = (/** @type {Event} */ ev) => {
    const dot = pickDot(ev, open);  // the nearest to a tap (chart_pick.js)
    if (dot) open(dot);
  };
  chart.addEventListener("click", pick);
  for (const on of ["pointerover", "focusin"]) chart.addEventListener(on, showTip);
  for (const off of ["pointerleave", "focusout"]) chart.addEventListener(off, () => { byId("analysis-tip").hidden = true; });
  chart.addEventListener("keydown", (/** @type {KeyboardEvent} */ ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(ev); } });
  byId("analysis-next-mistake").addEventListener("click", () => stepMistake(1));
  byId("mistake-whose").addEventListener("change", (ev) => {
    walkWhose = /** @type {HTMLSelectElement} */ (ev.target).value;
    renderWalk();
    if (app.reviewing) showReview();  // the review's own walk buttons follow
  });
  app.onState.push(onAnalysisState);
  // After the game no state may come for a while: a language switch redraws the panel.
  byId("lang").addEventListener("click", () => setTimeout(renderAnalysis));
}
document.addEventListener("DOMContentLoaded", setupAnalysis);
