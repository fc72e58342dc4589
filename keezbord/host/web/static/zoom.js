// keezbord web page, the zoomed view of the board (phones; 8 seats on request): when the
// whole board would draw holes under MIN_HOLE_PX, the view keeps holes at that size and
// shows what the player needs now (issue 25 item 1): the lit targets of a pawn in hand,
// the pawns that can move with the tapped card, a flag's holes, the victim's nest once
// the capture is made, your pawns on your turn, else the last move. What does not fit in
// one view (pawns far apart on an 8-seat ring) is pointed at by arrows on the view's edge
// (a tap pans there); one finger on the wood pans the view. The "Whole board" button
// switches to the whole board and back. docs/web.md, "The page".
"use strict";

const MIN_HOLE_PX = 24;  // a finger-sized hole in the zoomed view (issue 13, defect 4)
const PAN_START_PX = 6;  // a finger moved this far on the wood pans (less: a tap)

// The drawn board's side in px for the whole board (a square view box: the smaller of
// the element's width and height).
function boardPx() {
  const r = boardSvg().getBoundingClientRect();
  return Math.min(r.width, r.height) || 300;
}
function wholeHolePx() {
  return app.fullBox ? (2 * /** @type {number} */ (app.holeR)) * boardPx() / app.fullBox[2] : 0;
}

/**
 * The holes the zoomed view should show, each with a weight: 4 a jack's first pawn, 3
 * what the player must see now (targets, a flag's holes, the hole the instruction
 * names), 2 what can move, 1 the context (your start, the last move).
 * @param {PageState} st
 * @returns {Map<string, number>}
 */
function focusHoles(st) {
  const leds = st.leds || {};
  /** @param {string[]} roles */
  const lit = (roles) => Object.entries(leds).filter(([, r]) => roles.includes(r)).map(([h]) => h);
  /** @type {Map<string, number>} */
  const out = new Map();
  /** @param {string[]} holes @param {number} w */
  const add = (holes, w) => { for (const h of holes) if (app.holes.has(h)) out.set(h, Math.max(out.get(h) || 0, w)); };
  const turn = st.turn;
  const team = turn === null ? [] : (st.players[turn]?.team || [turn]);
  // The victim's nest only once the capture is made (the mover is down): before, it is
  // across the board and would pull the view away from the targets.
  const moverInHand = st.held.some((s) => s !== null && team.includes(s));
  const victims = moverInHand ? [] : lit(["victim"]);
  add(lit(["error", "restore"]), 3);
  // A jack half made: the hole its first pawn left (or was put on) stays in view with
  // the targets, which are anywhere on the ring (issue 40, item 15).
  if (st.card === "J" && st.held.length && st.last) add([st.last.hole], 4);
  add(victims, 3);  // the capture is made: the victim goes home
  add(lit(["target", "hint"]), victims.length ? 1 : 3);
  add(st.instruction?.holes || [], 3);
  add(st.split?.sources || [], 2);
  add(lit(["source"]), 2);
  if (out.size) return out;
  if (st.hand?.active && turn !== null) {
    // Your turn: your pawns on the track and in your home, and your start.
    add(st.pawns.filter((p) => p.seat === turn && !p.hole.startsWith("N")).map((p) => p.hole), 2);
    add(lit(["turn"]), 1);
    return out;
  }
  const m = (st.last_moves || [])[(st.last_moves || []).length - 1];
  if (m) add([...m.from, ...m.to], 1);
  else add(lit(["turn"]), 1);
  return out;
}

/**
 * The centre of a vw x vh view that shows the most of `pts` (weights summed): all of
 * them when they fit, else the best view centred on one point or between two.
 * @param {{ x: number, y: number, w: number }[]} pts @param {number} vw @param {number} vh
 * @param {number} margin
 * @returns {[number, number] | null}
 */
function bestCentre(pts, vw, vh, margin) {
  if (!pts.length) return null;
  const xs = pts.map((p) => p.x), ys = pts.map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  if (x1 - x0 + 2 * margin <= vw && y1 - y0 + 2 * margin <= vh) return [(x0 + x1) / 2, (y0 + y1) / 2];
  const heavy = pts.filter((p) => p.w === Math.max(...pts.map((q) => q.w)));
  /** @type {[number, number][]} */
  const cands = [];
  for (const a of pts) {
    cands.push([a.x, a.y]);
    for (const b of pts) if (a !== b) cands.push([(a.x + b.x) / 2, (a.y + b.y) / 2]);
  }
  /** @param {[number, number]} c @param {{ x: number, y: number }} p */
  const inside = (c, p) => Math.abs(p.x - c[0]) <= vw / 2 - margin && Math.abs(p.y - c[1]) <= vh / 2 - margin;
  let best = cands[0], bestScore = -Infinity;
  for (const c of cands) {
    // Most weight shown; of equal weight, the most important points, then the nearest
    // to them (a stable choice).
    const score = pts.reduce((s, p) => s + (inside(c, p) ? p.w * 100 : 0), 0) +
      heavy.reduce((s, p) => s + (inside(c, p) ? 10 : 0), 0) -
      heavy.reduce((s, p) => s + Math.hypot(p.x - c[0], p.y - c[1]), 0) / 1e4;
    if (score > bestScore) { bestScore = score; best = c; }
  }
  return best;
}

// The zoomed view's size in board units: holes of MIN_HOLE_PX; on a phone a little taller
// than wide (the board stays in view above the hand), never more than the board.
/** @returns {[number, number]} */
function zoomSize() {
  const board = boardSvg();
  const w = board.getBoundingClientRect().width || 300;
  const maxH = parseFloat(getComputedStyle(board).maxHeight) || innerHeight * 0.6;
  const aspect = w <= 600 ? Math.max(1, Math.min(1.15, maxH / w)) : Math.min(1, maxH / w);
  const vw = Math.min(/** @type {number[]} */ (app.fullBox)[2], (2 * /** @type {number} */ (app.holeR)) * w / MIN_HOLE_PX);
  return [vw, vw * aspect];
}

function applyZoom() {
  const board = boardSvg();
  const btn = document.getElementById("zoom");
  if (!app.fullBox || !app.state) return;
  // Zoomed by default on a phone; on a wider screen the whole board, zoom on request
  // (decided before the button is labelled: it said "Whole board" over the whole board).
  if (app.zoomOff === undefined) app.zoomOff = window.innerWidth > 700;
  const small = wholeHolePx() < MIN_HOLE_PX;
  if (btn) {
    btn.hidden = !small;
    btn.textContent = app.zoomOff ? bt("zoom") : bt("whole");
    btn.setAttribute("aria-pressed", String(!app.zoomOff));
  }
  const zoom = small && !app.zoomOff;
  board.classList.toggle("zoomed", zoom);
  const layer = board.querySelector(".offview");
  if (!zoom) { board.setAttribute("viewBox", app.fullBox.join(" ")); layer?.replaceChildren(); return; }
  const [vw, vh] = zoomSize();
  const focus = focusHoles(app.state);
  const key = [...focus.keys()].sort().join(",") + `/${vw.toFixed(1)}`;
  if (key !== app.zoomKey || !app.zoomCentre) {
    // Something new to show: a new view (a pan made for the old one is dropped).
    app.zoomKey = key;
    const pts = [...focus].map(([h, w]) => ({ ...(/** @type {DrawnHole} */ (app.holes.get(h))).info, w }));
    const c = bestCentre(pts, vw, vh, /** @type {number} */ (app.holeR) * 2.2);
    const [fx, fy, fw, fh] = app.fullBox;
    app.zoomCentre = c || app.zoomCentre || [fx + fw / 2, fy + fh / 2];
  }
  setView(vw, vh);
  drawOffview(focus, vw, vh);
}

// The view box around app.zoomCentre, kept on the board.
/** @param {number} vw @param {number} vh */
function setView(vw, vh) {
  const [fx, fy, fw, fh] = /** @type {number[]} */ (app.fullBox);
  const [cx, cy] = /** @type {[number, number]} */ (app.zoomCentre);
  const x = Math.max(fx, Math.min(cx - vw / 2, fx + fw - vw));
  const y = vh >= fh ? fy - (vh - fh) / 2 : Math.max(fy, Math.min(cy - vh / 2, fy + fh - vh));
  app.zoomCentre = [x + vw / 2, y + vh / 2];
  app.zoomView = [x, y, vw, vh];
  boardSvg().setAttribute("viewBox", `${x} ${y} ${vw} ${vh}`);
}

// An arrow on the view's edge for each pawn that can move (or hole that matters) outside
// the view; a tap on it pans there.
/** @param {Map<string, number>} focus @param {number} vw @param {number} vh */
function drawOffview(focus, vw, vh) {
  const board = boardSvg();
  let layer = board.querySelector(".offview");
  if (!layer) { layer = svg("g", { class: "offview" }); board.append(layer); }
  layer.replaceChildren();
  const [x, y] = /** @type {number[]} */ (app.zoomView);
  const r = /** @type {number} */ (app.holeR);
  const cx = x + vw / 2, cy = y + vh / 2;
  for (const [name, w] of focus) {
    if (w < 2) continue;
    const h = /** @type {DrawnHole} */ (app.holes.get(name)).info;
    if (Math.abs(h.x - cx) <= vw / 2 - r && Math.abs(h.y - cy) <= vh / 2 - r) continue;
    // Where the line from the centre to the hole leaves the view (inset by a hole).
    const dx = h.x - cx, dy = h.y - cy;
    const k = Math.min((vw / 2 - 2 * r) / Math.abs(dx || 1e-9), (vh / 2 - 2 * r) / Math.abs(dy || 1e-9));
    const ax = cx + dx * k, ay = cy + dy * k;
    const angle = Math.atan2(dy, dx) * 180 / Math.PI;
    const g = svg("g", { class: "offview-arrow", "data-to": name, transform: `translate(${ax} ${ay}) rotate(${angle})`,
                         role: "button", "aria-label": `→ ${name}` });
    g.append(svg("circle", { r: r * 1.1 }));
    g.append(svg("path", { d: `M ${-r * 0.45} ${-r * 0.6} L ${r * 0.65} 0 L ${-r * 0.45} ${r * 0.6} Z` }));
    g.addEventListener("click", (ev) => {
      ev.stopPropagation();
      app.zoomCentre = [h.x, h.y];
      setView(vw, vh);
      drawOffview(focus, vw, vh);
    });
    layer.append(g);
  }
}

// One finger (or the mouse) on the wood or an empty hole pans the zoomed view; on a pawn
// it drags the pawn (board.js). A tap without moving is a tap.
function setupZoom() {
  stickyHeight();
  const board = boardSvg();
  /** @type {{ x: number, y: number, c: [number, number], moved: boolean } | null} */
  let pan = null;
  board.addEventListener("pointerdown", (ev) => {
    if (!board.classList.contains("zoomed") || !app.zoomCentre || ev.button > 0) return;
    const g = eventHole(ev);
    if (g && occupied(g.dataset.hole)) return;  // a pawn: board.js drags it
    if (/** @type {Element} */ (ev.target).closest?.(".offview-arrow")) return;
    pan = { x: ev.clientX, y: ev.clientY, c: app.zoomCentre, moved: false };
  });
  window.addEventListener("pointermove", (ev) => {
    if (!pan || !app.zoomView) return;
    const dx = ev.clientX - pan.x, dy = ev.clientY - pan.y;
    if (!pan.moved && Math.hypot(dx, dy) < PAN_START_PX) return;
    pan.moved = true;
    const scale = app.zoomView[2] / (board.getBoundingClientRect().width || 1);  // units per px
    app.zoomCentre = [pan.c[0] - dx * scale, pan.c[1] - dy * scale];
    setView(app.zoomView[2], app.zoomView[3]);
    drawOffview(focusHoles(/** @type {PageState} */ (app.state)), app.zoomView[2], app.zoomView[3]);
  });
  const end = () => {
    if (pan?.moved) {  // a pan is no tap on the hole it ended on
      app.suppressClick = true;
      setTimeout(() => { app.suppressClick = false; }, 0);
    }
    pan = null;
  };
  window.addEventListener("pointerup", end);
  window.addEventListener("pointercancel", end);
}

// What stays on top as the page scrolls (the header and the line; on a phone the board
// too) as --sticky-h: a scroll into view (a focused card, the review) lands below it
// (style.css, scroll-padding-top; issue 40, item 15).
function stickyHeight() {
  const top = document.getElementById("top"), wrap = document.getElementById("boardwrap");
  if (!top || !wrap) return;
  const put = () => {
    const board = getComputedStyle(wrap).position === "sticky" ? wrap.offsetHeight : 0;
    document.documentElement.style.setProperty("--sticky-h", `${top.offsetHeight + board}px`);
  };
  const seen = new ResizeObserver(put);
  seen.observe(top);
  seen.observe(wrap);
  put();
}
