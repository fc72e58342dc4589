// keezbord web page, the board: draws the board from the hardware geometry (an SVG of
// holes, LEDs and pawns) and (in the simulator) turns clicks, drags and keys on it into
// the lift/place events a reed switch would report. app.js is the glue (connection,
// state, language); the side panels live apart. Loaded before app.js, as a plain script.
// Also here: the last-move marks, the flight of a bot's pawn, the keyboard (the board is
// one tab stop; arrows move between holes) and the offline state (no input while the
// server is gone; the instruction line says so). The zoomed view is zoom.js's.
// docs/web.md, "The page".
"use strict";

/** @typedef {{ zoom: string, whole: string, last_move: string }} BoardTexts */
/** @type {Record<"nl" | "en", BoardTexts>} */
const BOARD_UI = {
  nl: { zoom: "Inzoomen", whole: "Heel bord", last_move: "laatste zet van" },
  en: { zoom: "Zoom in", whole: "Whole board", last_move: "last move of" },
};
/** @template {keyof BoardTexts} K @param {K} key */
function bt(key) { return BOARD_UI[app.lang][key]; }
// The board's <svg> (index.html; getElementById's type says HTMLElement, whatever it finds).
function boardSvg() {
  return /** @type {SVGSVGElement} */ (/** @type {unknown} */ (document.getElementById("board")));
}
const FLIGHT_MS = 700;   // a bot's pawn flies from its hole to its target this long

// -- drawing the board ----------------------------------------------------------------

/** @param {PageState} st */
async function ensureBoard(st) {
  const key = `${st.seats}/${st.segment}`;
  if (app.geoKey === key) return;
  const r = await fetch("/api/geometry");
  app.geometry = await r.json();
  app.geoKey = key;
  drawBoard(/** @type {Geometry} */ (app.geometry));
}

// Holes are drawn larger than the wood's (14 mm in 25 mm spacing) when there is room,
// so 8 seats stay readable on a laptop.
/** @param {Geometry} g */
function drawScale(g) { return g.holes.length > 120 ? 1.4 : 1.2; }

/** @param {Geometry} g */
function drawBoard(g) {
  const board = boardSvg();
  board.replaceChildren();
  const pad = 6;
  app.fullBox = [-pad, -pad, g.width + 2 * pad, g.height + 2 * pad];
  board.setAttribute("viewBox", app.fullBox.join(" "));
  board.append(svg("path", { d: g.outline_path, class: "outline" }));
  const r = g.hole_diameter / 2 * drawScale(g);
  app.holeR = r;
  for (const sc of g.seat_colours) {  // start holes get a dashed ring in the seat's colour
    const h = g.holes.find((x) => x.name === sc.start);
    if (h) board.append(svg("circle", { cx: h.x, cy: h.y, r: r + 4.5, class: "start-mark", stroke: sc.hex }));
  }
  const marks = svg("g", { class: "lastmarks" });  // the last moves' lines, under the holes
  board.append(marks);
  app.holes.clear();
  const labels = svg("g", { class: "labels" });
  for (const h of g.holes) {
    const grp = svg("g", { class: `hole kind-${h.kind}`, "data-hole": h.name, tabindex: "-1",
                           role: "button", transform: `translate(${h.x} ${h.y})` });
    grp.append(svg("circle", { class: "last", r: r + 3.2 }));
    grp.append(svg("circle", { class: "led", r: r + 2.6 }));
    grp.append(svg("circle", { class: "pit", r }));
    const pawn = svg("g", { class: "pawn", visibility: "hidden" });
    pawn.append(svg("circle", { r: r + 0.5 }));
    pawn.append(svg("text", { y: 0.5 }));
    grp.append(pawn);
    const mark = svg("text", { class: "ledmark", x: r + 1, y: -r + 1 });
    grp.append(mark);
    // A hole's label (the holes a flag names) lies above every hole: inside the hole's
    // group the holes drawn after it covered half of it (issue 25 item 8).
    const label = svg("text", { class: "holelabel", x: h.x, y: h.y - r - 5, "data-for": h.name });
    labels.append(label);
    board.append(grp);
    app.holes.set(h.name, { g: /** @type {HoleElement} */ (grp), pawn, mark, label, info: h });
  }
  board.append(labels);
  const layer = svg("g", { class: "flights" });  // flying pawns above everything
  board.append(layer);
  if (!app.cursor || !app.holes.has(app.cursor)) app.cursor = g.holes[0]?.name;
  app.holes.get(/** @type {string} */ (app.cursor))?.g.setAttribute("tabindex", "0");
  app.flownMove = null;
}

/** @param {string} hex */
function isDark(hex) {
  const n = parseInt(hex.slice(1), 16);
  return (0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) < 90;
}

// The board's part of render(): pawns, LEDs, marks and each hole's spoken label.
function renderBoard() {
  const st = app.state;
  if (!st || !app.geometry) return false;
  const occ = new Map(st.pawns.map((p) => [p.hole, p.seat]));
  const bad = new Set(st.health?.sensors?.bad || []);
  // The holes a flag, the instruction line or a lesson's task names are labelled.
  const named = [...(st.instruction?.holes || []), ...(st.lesson?.holes || [])];
  const labels = new Set([...(st.flag?.labels || []), ...named.filter((h) => h[0] !== "N")]);
  const split = new Set(st.split?.sources || []);
  const settling = new Set(st.settling || []);
  // Last move of each seat: its from and to holes, in the seat's colour.
  const last = new Map();
  const lastMoves = app.reviewing ? [] : st.last_moves || [];  // review: that move's LEDs only
  for (const m of lastMoves) {
    for (const hname of m.from) last.set(hname, { seat: m.seat, end: "from" });
    for (const hname of m.to) last.set(hname, { seat: m.seat, end: "to" });
  }
  for (const [name, h] of app.holes) {
    const seat = occ.has(name) ? occ.get(name) : undefined;
    const role = st.leds[name];
    if (role) { h.g.dataset.led = role; h.mark.textContent = LED_MARK[role] || ""; }
    else { delete h.g.dataset.led; h.mark.textContent = ""; }
    const lm = last.get(name);
    h.g.setAttribute("class", `hole kind-${h.info.kind}${role ? " led-" + role : ""}` +
                     (bad.has(name) ? " bad" : "") + (split.has(name) ? " split-source" : "") +
                     (lm ? ` last-${lm.end}` : "") + (labels.has(name) ? " labelled" : "") +
                     (settling.has(name) ? " settling" : "") +
                     (role === "target" && seat !== undefined ? " covered" : "") +
                     (st.last && st.last.hole === name && st.last.action === "place" ? " just" : ""));
    if (lm) { h.g.dataset.lastSeat = String(lm.seat); /** @type {SVGCircleElement} */ (h.g.firstChild).setAttribute("stroke", seatInfo(lm.seat)?.colour.hex || "#000"); }
    else delete h.g.dataset.lastSeat;
    h.label.textContent = labels.has(name) ? name : "";
    const said = app.geometry.spoken?.[name];  // "T16, de start van blauw: pion van rood"
    let label = (said ? `${name}, ${said[app.lang]}` : name) + ": ";
    if (seat === undefined) {
      h.pawn.setAttribute("visibility", "hidden");
      label += t("empty");
    } else {
      h.pawn.setAttribute("visibility", "visible");
      const p = seat === null ? null : seatInfo(seat);
      const circle = /** @type {SVGCircleElement} */ (h.pawn.firstChild);
      const text = /** @type {SVGTextElement} */ (h.pawn.lastChild);
      if (p) {
        // A dark pawn on a dark hole gets a light outline (black must show on the pit).
        h.pawn.setAttribute("class", "pawn" + (isDark(p.colour.hex) ? " dark" : ""));
        circle.setAttribute("fill", p.colour.hex);
        text.setAttribute("fill", inkFor(p.colour.hex));
        text.textContent = p.colour.symbol;
        label += `${t("pawn_of")} ${p.colour[app.lang]}`;
      } else {
        h.pawn.setAttribute("class", "pawn unknown");
        text.textContent = "?"; text.setAttribute("fill", "#111");
        label += t("unknown_pawn");
      }
    }
    if (role) label += ` (${UI[app.lang].led[role]})`;
    if (lm) label += ` (${bt("last_move")} ${seatName(lm.seat)})`;
    if (bad.has(name)) label += ` (! ${t("bad_switch")})`;
    h.g.setAttribute("aria-label", label);
  }
  placeLabels(labels);
  drawLastLines(app.reviewing ? { last_moves: [] } : st);
  if (!app.reviewing) flyBotMove(st);
  applyZoom();
  return true;
}

// The labels of the holes a flag names: above the hole, else below, left or right,
// wherever it overlaps no other label (T10 and T11 side by side ran into one "T11T10").
/** @param {Set<string>} names */
function placeLabels(names) {
  const r = /** @type {number} */ (app.holeR);
  /** @type {[number, number, number, number][]} */
  const placed = [];
  for (const name of [...names].sort()) {
    const h = app.holes.get(name);
    if (!h) continue;
    const w = 8 * name.length + 4, tall = 14;  // 13 px bold, in board units
    const spots = [[0, -r - 5], [0, r + 14], [-r - 3 - w / 2, 4], [r + 3 + w / 2, 4]];
    const box = (/** @type {number[]} */ [dx, dy]) =>
      /** @type {[number, number, number, number]} */ ([h.info.x + dx - w / 2, h.info.y + dy - tall + 3, w, tall]);
    const free = (/** @type {number[]} */ b) =>
      placed.every(([x, y, bw, bh]) => b[0] >= x + bw || x >= b[0] + b[2] || b[1] >= y + bh || y >= b[1] + b[3]);
    const spot = spots.find((d) => free(box(d))) || spots[0];
    placed.push(box(spot));
    h.label.setAttribute("x", String(h.info.x + spot[0]));
    h.label.setAttribute("y", String(h.info.y + spot[1]));
  }
}

// A thin line from each seat's last "from" to its "to" (the latest one bolder).
/** @param {{ last_moves: LastMove[] }} st */
function drawLastLines(st) {
  const layer = document.querySelector("#board .lastmarks");
  if (!layer) return;
  layer.replaceChildren();
  const moves = st.last_moves || [];
  moves.forEach((m, i) => {
    const latest = i === moves.length - 1;
    m.from.forEach((f, k) => {
      const a = app.holes.get(f)?.info, b = app.holes.get(m.to[k])?.info;
      if (!a || !b) return;
      layer.append(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "lastline" + (latest ? " latest" : ""),
                                 stroke: seatInfo(m.seat)?.colour.hex || "#000", "data-seat": m.seat }));
    });
  });
}

// A bot's move flies across the board (a person can follow it), once per move.
/** @param {PageState} st */
function flyBotMove(st) {
  const moves = st.last_moves || [];
  const m = moves[moves.length - 1];
  const key = m ? `${st.game}/${m.n}/${m.move}` : null;
  if (app.flownMove === null) { app.flownMove = key; return; }  // not on the first drawing
  if (!m || key === app.flownMove) return;
  app.flownMove = key;
  const p = seatInfo(m.seat);
  if (!p || p.kind === "human" || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const layer = /** @type {Element} */ (document.querySelector("#board .flights"));
  m.from.forEach((f, k) => {
    const a = app.holes.get(f)?.info, b = app.holes.get(m.to[k])?.info;
    if (!a || !b) return;
    const g = svg("g", { class: "pawn flying" });
    g.append(svg("circle", { r: /** @type {number} */ (app.holeR) + 0.5, fill: p.colour.hex }));
    layer.append(g);
    app.flights = (app.flights || 0) + 1;
    const anim = g.animate([{ transform: `translate(${a.x}px, ${a.y}px)` }, { transform: `translate(${b.x}px, ${b.y}px)` }],
                           { duration: FLIGHT_MS, easing: "ease-in-out" });
    anim.onfinish = () => g.remove();
  });
}

// The zoomed view (phones, 8 seats) is zoom.js's: applyZoom() after every drawing.

// -- playing on the drawn board (simulator) -------------------------------------------

/** @param {string} name */
function occupied(name) { return app.state && app.state.pawns.some((p) => p.hole === name); }

/** @param {string} name */
function activate(name) {
  if (app.mode !== "sim" || !app.state || app.offline) return;
  const st = app.state;
  const lit = st.leds[name];
  if (occupied(name)) {
    if (st.held.length && (lit === "target" || lit === "hint")) {
      // A capture: the victim comes off the lit target and the moving pawn goes down
      // in its place (two switch events, as a hand makes them); the victim is then in
      // hand, and its nest lights.
      const mover = app.selectedHeld ?? st.held.length - 1;
      app.selectedHeld = null;
      capture(name, mover);
    } else {
      send({ type: "lift", hole: name });
    }
  } else if (st.held.length) {
    /** @type {PageRequest} */
    const msg = { type: "place", hole: name };
    if (app.selectedHeld !== null) msg.pawn = app.selectedHeld;
    app.selectedHeld = null;
    send(msg);
  }
}

// The victim off, then the mover down: a hand needs longer than a switch bounce
// (the referee's BOUNCE_MS, 25 ms) between the two, or the switch never opened.
const CAPTURE_GAP_MS = 80;
/** @param {string} hole @param {number} mover */
function capture(hole, mover) {
  send({ type: "lift", hole });
  setTimeout(() => send({ type: "place", hole, pawn: mover }), CAPTURE_GAP_MS);
}

/** @param {number} x @param {number} y */
function holeAt(x, y) {
  const e = document.elementFromPoint(x, y);
  const g = /** @type {SVGGElement | null} */ (e && e.closest ? e.closest(".hole") : null);
  return g ? g.dataset.hole : null;
}

// Keyboard: the board is one tab stop (the hole last visited); the arrows go to the
// nearest hole in their direction, Enter or Space lifts or places.
/** @type {Record<string, [number, number]>} */
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
/** @param {string} from @param {[number, number]} direction */
function nextHole(from, [dx, dy]) {
  const a = app.holes.get(from)?.info;
  if (!a) return null;
  let best = null, bestScore = Infinity;
  for (const [name, h] of app.holes) {
    const vx = h.info.x - a.x, vy = h.info.y - a.y;
    const along = vx * dx + vy * dy, across = Math.abs(vx * dy - vy * dx);
    if (along <= 0.5 || across > along * 1.5) continue;
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = name; }
  }
  return best;
}
/** @param {string} name */
function moveCursor(name) {
  const old = app.holes.get(/** @type {string} */ (app.cursor)), h = app.holes.get(name);
  if (!h) return;
  if (old) old.g.setAttribute("tabindex", "-1");
  h.g.setAttribute("tabindex", "0");
  app.cursor = name;
  h.g.focus();
}

/** @param {boolean} off */
function setOffline(off) {
  // No input while the server is gone (a click would vanish): the board and the side
  // are inert, the note says why; the next state (after the reconnect) redraws all.
  app.offline = off;
  document.body.classList.toggle("offline", off);
  const main = document.querySelector("main");
  if (main) main.inert = off;
  if (off) { app.drag = null; app.trayKey = null; }
  renderInstruction();
}

// The hole an event on the board happened in (its <g class="hole">), if any.
/** @param {Event} ev */
function eventHole(ev) {
  const target = /** @type {Element} */ (ev.target);
  return /** @type {HoleElement | null} */ (target.closest ? target.closest(".hole") : null);
}

function setupBoardInput() {
  const board = boardSvg();
  // The board is one tab stop: its hole (Chromium would also stop on the svg itself).
  board.setAttribute("tabindex", "-1");
  // The zoom button lives above the board (made here: the page's HTML stays the side
  // panels' to change).
  const zoom = el("button", { type: "button", id: "zoom", class: "zoom", hidden: true });
  zoom.addEventListener("click", () => { app.zoomOff = !app.zoomOff; applyZoom(); });
  board.before(zoom);
  window.addEventListener("resize", () => applyZoom());
  board.addEventListener("click", (ev) => {
    if (app.suppressClick) { app.suppressClick = false; return; }
    const g = eventHole(ev);
    if (g) activate(g.dataset.hole);
  });
  board.addEventListener("focusin", (ev) => {
    const g = eventHole(ev);
    if (g && g.dataset.hole !== app.cursor) {
      app.holes.get(/** @type {string} */ (app.cursor))?.g.setAttribute("tabindex", "-1");
      g.setAttribute("tabindex", "0");
      app.cursor = g.dataset.hole;
    }
  });
  board.addEventListener("keydown", (ev) => {
    const g = eventHole(ev);
    if (!g) return;
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); activate(g.dataset.hole); return; }
    const dir = ARROWS[ev.key];
    if (dir && !app.reviewing) {  // in review the arrows step through the moves
      ev.preventDefault();
      const n = nextHole(g.dataset.hole, dir);
      if (n) moveCursor(n);
    }
  });
  // Drag: the reed switch opens as the pawn leaves (lift on the first move), closes
  // where it lands (place on release over an empty hole).
  board.addEventListener("pointerdown", (ev) => {
    const g = eventHole(ev);
    if (!g || app.mode !== "sim" || app.offline || !occupied(g.dataset.hole)) return;
    app.drag = { hole: g.dataset.hole, x: ev.clientX, y: ev.clientY, lifted: false, ghost: null };
  });
  window.addEventListener("pointermove", (ev) => {
    const d = app.drag;
    if (!d) return;
    if (!d.lifted && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) > 6) {
      d.lifted = true;
      send({ type: "lift", hole: d.hole });
      const h = /** @type {DrawnHole} */ (app.holes.get(d.hole));
      d.ghost = /** @type {SVGElement} */ (h.pawn.cloneNode(true));
      d.ghost.setAttribute("class", "pawn ghost");
      d.ghost.setAttribute("visibility", "visible");
      board.append(d.ghost);
    }
    if (d.ghost) {
      const pt = board.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
      const p = pt.matrixTransform(/** @type {DOMMatrix} */ (board.getScreenCTM()).inverse());
      d.ghost.setAttribute("transform", `translate(${p.x} ${p.y})`);
    }
  });
  window.addEventListener("pointerup", (ev) => {
    const d = app.drag;
    app.drag = null;
    if (!d || !d.lifted) return;
    app.suppressClick = true;
    setTimeout(() => { app.suppressClick = false; }, 0);
    if (d.ghost) d.ghost.remove();
    const target = holeAt(ev.clientX, ev.clientY);
    if (target && target !== d.hole && !occupied(target)) {
      send({ type: "place", hole: target });
    } else if (target && target !== d.hole && /** @type {PageState} */ (app.state).leds[target] === "target") {
      // Dropped on a lit, occupied target: a capture (the victim comes off first).
      capture(target, /** @type {PageState} */ (app.state).held.length - 1);  // the dragged pawn: last in hand
    } else if (target === d.hole) {
      send({ type: "place", hole: d.hole });  // put back where it stood
    }  // dropped off the board: the pawn stays in hand
  });
}
