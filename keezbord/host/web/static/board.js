// keezbord web page, the board: draws the board from the hardware geometry (an SVG of
// holes, LEDs and pawns) and (in the simulator) turns clicks, drags and keys on it into
// the lift/place events a reed switch would report. app.js is the glue (connection,
// state, language); the side panels live apart. Loaded before app.js, as a plain script.
"use strict";

// -- drawing the board ----------------------------------------------------------------

async function ensureBoard(st) {
  const key = `${st.seats}/${st.segment}`;
  if (app.geoKey === key) return;
  const r = await fetch("/api/geometry");
  app.geometry = await r.json();
  app.geoKey = key;
  drawBoard(app.geometry);
}

function drawBoard(g) {
  const board = document.getElementById("board");
  board.replaceChildren();
  const pad = 6;
  board.setAttribute("viewBox", `${-pad} ${-pad} ${g.width + 2 * pad} ${g.height + 2 * pad}`);
  board.append(svg("path", { d: g.outline_path, class: "outline" }));
  const r = g.hole_diameter / 2;
  for (const sc of g.seat_colours) {  // start holes get a dashed ring in the seat's colour
    const h = g.holes.find((x) => x.name === sc.start);
    if (h) board.append(svg("circle", { cx: h.x, cy: h.y, r: r + 6.5, class: "start-mark", stroke: sc.hex }));
  }
  app.holes.clear();
  for (const h of g.holes) {
    const grp = svg("g", { class: `hole kind-${h.kind}`, "data-hole": h.name, tabindex: "0",
                           role: "button", transform: `translate(${h.x} ${h.y})` });
    grp.append(svg("circle", { class: "led", r: r + 3 }));
    grp.append(svg("circle", { class: "pit", r }));
    const mark = svg("text", { class: "ledmark", x: r + 2, y: -r - 1 });
    grp.append(mark);
    const pawn = svg("g", { class: "pawn", visibility: "hidden" });
    pawn.append(svg("circle", { r: r + 1 }));
    pawn.append(svg("text", { y: 0.5 }));
    grp.append(pawn);
    board.append(grp);
    app.holes.set(h.name, { g: grp, pawn, mark, info: h });
  }
}

// The board's part of render(): pawns, LEDs and each hole's spoken label.
function renderBoard() {
  const st = app.state;
  if (!st || !app.geometry) return false;
  const occ = new Map(st.pawns.map((p) => [p.hole, p.seat]));
  const bad = new Set(st.health?.sensors?.bad || []);
  for (const [name, h] of app.holes) {
    const seat = occ.has(name) ? occ.get(name) : undefined;
    const role = st.leds[name];
    if (role) { h.g.dataset.led = role; h.mark.textContent = LED_MARK[role] || ""; }
    else { delete h.g.dataset.led; h.mark.textContent = ""; }
    h.g.setAttribute("class", `hole kind-${h.info.kind}${role ? " led-" + role : ""}` +
                     (bad.has(name) ? " bad" : "") +
                     (st.last && st.last.hole === name && st.last.action === "place" ? " just" : ""));
    let label = name + ": ";
    if (seat === undefined) {
      h.pawn.setAttribute("visibility", "hidden");
      label += t("empty");
    } else {
      h.pawn.setAttribute("visibility", "visible");
      const p = seat === null ? null : seatInfo(seat);
      const circle = h.pawn.firstChild, text = h.pawn.lastChild;
      if (p) {
        h.pawn.setAttribute("class", "pawn");
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
    if (bad.has(name)) label += ` (! ${t("bad_switch")})`;
    h.g.setAttribute("aria-label", label);
  }
  return true;
}


// -- playing on the drawn board (simulator) -------------------------------------------

function occupied(name) { return app.state && app.state.pawns.some((p) => p.hole === name); }

function activate(name) {
  if (app.mode !== "sim" || !app.state) return;
  if (occupied(name)) {
    send({ type: "lift", hole: name });
  } else if (app.state.held.length) {
    const msg = { type: "place", hole: name };
    if (app.selectedHeld !== null) msg.pawn = app.selectedHeld;
    app.selectedHeld = null;
    send(msg);
  }
}

function holeAt(x, y) {
  const e = document.elementFromPoint(x, y);
  const g = e && e.closest ? e.closest(".hole") : null;
  return g ? g.dataset.hole : null;
}

function setupBoardInput() {
  const board = document.getElementById("board");
  board.addEventListener("click", (ev) => {
    if (app.suppressClick) { app.suppressClick = false; return; }
    const g = ev.target.closest(".hole");
    if (g) activate(g.dataset.hole);
  });
  board.addEventListener("keydown", (ev) => {
    const g = ev.target.closest && ev.target.closest(".hole");
    if (g && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); activate(g.dataset.hole); }
  });
  // Drag: the reed switch opens as the pawn leaves (lift on the first move), closes
  // where it lands (place on release over an empty hole).
  board.addEventListener("pointerdown", (ev) => {
    const g = ev.target.closest(".hole");
    if (!g || app.mode !== "sim" || !occupied(g.dataset.hole)) return;
    app.drag = { hole: g.dataset.hole, x: ev.clientX, y: ev.clientY, lifted: false, ghost: null };
  });
  window.addEventListener("pointermove", (ev) => {
    const d = app.drag;
    if (!d) return;
    if (!d.lifted && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) > 6) {
      d.lifted = true;
      send({ type: "lift", hole: d.hole });
      const h = app.holes.get(d.hole);
      d.ghost = h.pawn.cloneNode(true);
      d.ghost.setAttribute("class", "pawn ghost");
      d.ghost.setAttribute("visibility", "visible");
      board.append(d.ghost);
    }
    if (d.ghost) {
      const pt = board.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
      const p = pt.matrixTransform(board.getScreenCTM().inverse());
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
    } else if (target === d.hole) {
      send({ type: "place", hole: d.hole });  // put back where it stood
    }  // dropped off the board: the pawn stays in hand
  });
}

