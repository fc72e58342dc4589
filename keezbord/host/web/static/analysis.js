// keezbord web page, after the game (issue 27): the win-chance chart per team (SVG), with
// the labelled decisions as dots (click one: that move in the review, the better move lit
// on the board with its reason), the move list marked (?! ? ??), the luck and skill
// summary. Filled in while the host analyses the finished game in the background.
// Protocol: the state's "analysis" (progress), GET /api/analysis (docs/web.md).
"use strict";

Object.assign(UI.nl, {
  analysis: "Na het spel", analysis_running: "Analyse bezig", analysis_failed: "De analyse is mislukt",
  analysis_moves: "zetten", chart: "Winkans per team", accuracy: "nauwkeurigheid",
  own: "eigen keuzes", cards_luck: "kaarten", others: "de anderen", swing: "verschil",
  inaccuracy: "onnauwkeurigheid", mistake: "fout", blunder: "blunder",
  win_after: "Winkans na de zet", better_move: "Betere zet", label: "Oordeel", team_of: "team",
  hand_unknown: "hand niet bekend: alleen de zetten van deze kaart vergeleken",
});
Object.assign(UI.en, {
  analysis: "After the game", analysis_running: "Analysing", analysis_failed: "The analysis failed",
  analysis_moves: "moves", chart: "Win chance per team", accuracy: "accuracy",
  own: "own decisions", cards_luck: "cards", others: "the others", swing: "swing",
  inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder",
  win_after: "Win chance after the move", better_move: "Better move", label: "Verdict", team_of: "team",
  hand_unknown: "hand not known: only this card's moves compared",
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
  markMoves();
}

/** @param {number[]} team */
function teamColour(team) {
  const p = seatInfo(team[0]);
  return p ? p.colour.hex : "#666";
}
/** @param {number[]} team */
function teamName(team) { return team.map((s) => seatName(s)).join(" + "); }

/** @param {AnalysisDoc} d */
function drawChart(d) {
  const chart = byId("analysis-chart");
  const W = 340, H = 150, L = 30, R = 6, T = 8, B = 18;
  const decisions = d.rows.filter((r) => r.type === "decision");
  const n = Math.max(d.total || decisions.length, 1);
  const x = (/** @type {number} */ k) => L + (W - L - R) * (n > 1 ? k / (n - 1) : 0.5);
  const y = (/** @type {number} */ p) => T + (H - T - B) * (1 - p);
  chart.setAttribute("viewBox", `0 0 ${W} ${H}`);
  /** @type {SVGElement[]} */
  const kids = [svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "frame" })];
  for (const p of [0, 0.5, 1]) {
    kids.push(svg("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: p === 0.5 ? "mid" : "grid" }));
    const lab = svg("text", { x: L - 3, y: y(p) + 3, class: "axis" });
    lab.textContent = `${Math.round(100 * p)}%`;
    kids.push(lab);
  }
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
    const label = /** @type {AnalysisLabel} */ (r.label);
    const ti = (d.teams || []).findIndex((team) => team.includes(r.seat));
    const dot = svg("circle", { cx: x(k).toFixed(1), cy: y(d.curve[k][ti]).toFixed(1), r: LABEL_R[label],
                                class: `dot ${label}`, stroke: teamColour(d.teams[ti]), tabindex: "0",
                                role: "button", "data-n": String(r.n), "data-move": r.move, "data-label": label });
    const title = svg("title");
    title.textContent = `${r.n}. ${seatName(r.seat)} ${r.move} ${MARK[label]} ${t(label)} (−${Math.round(100 * r.loss)}%)`;
    dot.append(title);
    kids.push(dot);
  });
  chart.replaceChildren(...kids);
}

/** @param {number} x */
function pct(x) { return `${x >= 0 ? "+" : "−"}${Math.abs(Math.round(100 * x))}%`; }

/** @param {AnalysisDoc} d */
function renderSummary(d) {
  const ul = byId("analysis-summary");
  const s = d.summary;
  if (!s || d.state !== "done") { ul.replaceChildren(); return; }
  const items = [];
  for (const tm of s.teams) {
    items.push(el("li", { class: "team", "data-seats": tm.seats.join(",") },
      el("strong", { text: `${t("team_of")} ${teamName(tm.seats)}: ${pct(tm.swing)}` }),
      ` = ${t("own")} ${pct(tm.own)}, ${t("cards_luck")} ${pct(tm.cards)}, ${t("others")} ${pct(tm.others)}`));
  }
  for (const p of s.players) {
    // A decimal comma in Dutch (87,1%), a point in English (issue 40, item 14).
    const acc = p.accuracy === null ? "–" : `${app.lang === "nl" ? String(p.accuracy).replace(".", ",") : p.accuracy}%`;
    items.push(el("li", { class: "player", "data-seat": String(p.seat) },
      `${seatName(p.seat)}: ${t("accuracy")} ${acc} · ?! ${p.inaccuracy} · ? ${p.mistake} · ?? ${p.blunder}`));
  }
  ul.replaceChildren(...items);
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
    if (!app.state) return;
    const n = Number(dot.dataset.n);
    const entry = [...app.state.log].reverse().find((e) => e.kind === "move" && e.n === n && e.move === dot.dataset.move);
    if (entry) openReview(entry.i, "before");
  };
  const pick = (/** @type {Event} */ ev) => {
    const dot = pickDot(ev, open);  // the nearest to a tap (chart_pick.js)
    if (dot) open(dot);
  };
  chart.addEventListener("click", pick);
  chart.addEventListener("keydown", (/** @type {KeyboardEvent} */ ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(ev); } });
  app.onState.push(onAnalysisState);
  // After the game no state may come for a while: a language switch redraws the panel.
  byId("lang").addEventListener("click", () => setTimeout(renderAnalysis));
}
document.addEventListener("DOMContentLoaded", setupAnalysis);
