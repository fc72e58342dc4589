// keezbord web page: draws the board from the hardware geometry, mirrors the referee's
// state from the websocket, and (in the simulator) turns clicks and drags into the
// lift/place events a reed switch would report. Protocol: docs/web.md.
"use strict";

const UI = {
  nl: {
    connecting: "verbinden…", online: "verbonden", offline: "verbinding weg, opnieuw…",
    board: "Het bord", hand_of: "Hand van", hand: "Hand", discard: "Laat hand zien (geen kaart speelbaar)",
    score: "NK-score", messages: "Meldingen", moves: "Zetten", game: "Spel", undo: "Laatste zet terugnemen",
    overrule: "Scheidsrechter beslist", overrule_reason: "Reden van de scheidsrechter (verplicht):",
    overrule_move: "Zet in notatie (leeg: het bord zoals het nu staat; met 'verbeter:' ervoor: vervangt de laatste zet):",
    overruled: "beslist door de scheidsrechter",
    export_trace: "Exporteer trace", export_moves: "Exporteer zetten", new_game: "Nieuw spel",
    seats: "Stoelen", profile: "Regels", teams: "Teams", teams_auto: "standaard", teams_pairs: "paren",
    teams_none: "ieder voor zich", hints: "Hulp", hints_off: "uit", hints_targets: "doelen",
    hints_full: "volledig", hints_coach: "coach", coach: "Coach", players: "Spelers", start: "Start", yes: "Ja", no: "Nee",
    need_token: "Alleen kijken: beheer vraagt de code (open /?token=…).",
    fix: "Zet het bord recht", turn: "Aan zet", you: "jij", bot: "bot", wins: "wint", win: "winnen",
    played: "Gespeeld", in_hand: "In de hand", place_hint: "klik op een leeg gat om neer te zetten",
    confirm_undo: "Laatste geaccepteerde zet terugnemen?", confirm_new: "Een nieuw spel beginnen?",
    empty: "leeg", pawn_of: "pion van", unknown_pawn: "pion", no_cards: "geen kaarten",
    points: "punten", game_over: "Het spel is afgelopen", bot_thinking: "denkt na…",
    health: "Bordstatus", link_ok: "verbinding met het bord in orde", link_lost: "verbinding met het bord weg",
    bad_frames: "slechte frames", gaps: "gaten", heartbeat: "laatste hartslag", ago: "geleden",
    chain_broken: "schuifregisterketen onderbroken", broken_reads: "mislukte scans",
    chatter: "sensor dendert", stuck: "sensor blijft gesloten zonder pion", bad_switch: "sensor defect",
    penalty_seat: "Overtreder", penalty: "Strafzet: voorste pion terug",
    time_limit: "Stop: tijd is om", confirm_penalty: "Strafzet geven aan", confirm_time: "Het spel stoppen op de tijdslimiet? Alleen pionnen thuis tellen.",
    stopped: "Gestopt op de tijdslimiet", elapsed: "Speeltijd",
    give_to: "kies een kaart voor je partner", give: "Geef aan partner",
    led: { turn: "aan zet", source: "kan zetten", target: "doel", victim: "geslagen pion hierheen",
           error: "fout", restore: "hier terugzetten", hint: "tip: deze zet" },
    decision: { card_rejected: "Kaart geweigerd", discard: "Hand getoond", illegal: "Ongeldige zet",
                ambiguous: "Meerdere zetten mogelijk", hint: "Tip", undo: "Teruggenomen",
                move: "Zet", turn: "Beurt", win: "Winst", penalty: "Strafzet", time_limit: "Tijdslimiet",
                resolved: "Bord in orde", missing: "Pion ontbreekt" },
  },
  en: {
    connecting: "connecting…", online: "connected", offline: "connection lost, retrying…",
    board: "The board", hand_of: "Hand of", hand: "Hand", discard: "Show hand (no card playable)",
    score: "NK score", messages: "Messages", moves: "Moves", game: "Game", undo: "Take back last move",
    overrule: "Referee decides", overrule_reason: "The referee's reason (required):",
    overrule_move: "Move in notation (empty: the board as it stands; prefixed 'correct:': replaces the last move):",
    overruled: "decided by the referee",
    export_trace: "Export trace", export_moves: "Export moves", new_game: "New game",
    seats: "Seats", profile: "Rules", teams: "Teams", teams_auto: "default", teams_pairs: "pairs",
    teams_none: "every one for themselves", hints: "Hints", hints_off: "off", hints_targets: "targets",
    hints_full: "full", hints_coach: "coach", coach: "Coach", players: "Players", start: "Start", yes: "Yes", no: "No",
    need_token: "View only: control needs the token (open /?token=…).",
    fix: "Put the board right", turn: "To play", you: "you", bot: "bot", wins: "wins", win: "win",
    played: "Played", in_hand: "In hand", place_hint: "click an empty hole to put it down",
    confirm_undo: "Take back the last accepted move?", confirm_new: "Start a new game?",
    empty: "empty", pawn_of: "pawn of", unknown_pawn: "pawn", no_cards: "no cards",
    points: "points", game_over: "The game is over", bot_thinking: "thinking…",
    health: "Board health", link_ok: "link to the board ok", link_lost: "link to the board lost",
    bad_frames: "bad frames", gaps: "gaps", heartbeat: "last heartbeat", ago: "ago",
    chain_broken: "shift-register chain broken", broken_reads: "failed scans",
    chatter: "switch chatters", stuck: "switch stays closed with no pawn", bad_switch: "bad switch",
    penalty_seat: "Offender", penalty: "Penalty: front pawn back",
    time_limit: "Stop: time is up", confirm_penalty: "Give the penalty to", confirm_time: "Stop the game at the time limit? Only pawns home count.",
    stopped: "Stopped at the time limit", elapsed: "Game time",
    give_to: "choose a card for your partner", give: "Pass to partner",
    led: { turn: "to play", source: "can move", target: "target", victim: "captured pawn goes here",
           error: "wrong", restore: "put back here", hint: "hint: this move" },
    decision: { card_rejected: "Card rejected", discard: "Hand shown", illegal: "Illegal move",
                ambiguous: "More than one move fits", hint: "Hint", undo: "Taken back",
                move: "Move", turn: "Turn", win: "Win", penalty: "Penalty", time_limit: "Time limit",
                resolved: "Board put right", missing: "Pawn missing" },
  },
};
const LED_MARK = { target: "●", error: "✕", restore: "↺", victim: "⌂", hint: "★" };
const SVGNS = "http://www.w3.org/2000/svg";

// The page's language: the player's own choice (the NL/EN button or ?lang=, remembered in
// localStorage), else the browser's: Dutch unless it asks for English first.
function browserLang() {
  const first = (navigator.languages && navigator.languages[0]) || navigator.language || "";
  return first.toLowerCase().startsWith("en") ? "en" : "nl";
}
const app = {
  lang: localStorage.getItem("keezbord.lang") || browserLang(),
  token: null, ws: null, control: false, mode: "sim",
  state: null, geometry: null, geoKey: null, holes: new Map(), palette: null,
  selectedHeld: null, drag: null, suppressClick: false, seq: 0, lastVersion: -1,
  onState: [],  // hooks for tests and the benchmark
};
window.keezbord = app;

function t(key) { return UI[app.lang][key] ?? key; }
function tx(text) { return text == null ? "" : (typeof text === "string" ? text : (text[app.lang] ?? text.en)); }
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v;
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v);
  }
  for (const kid of kids) e.append(kid);
  return e;
}
function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
function seatInfo(seat) { return app.state?.players?.[seat]; }
function seatName(seat) {
  const p = seatInfo(seat);
  return p ? `${p.colour.symbol} ${p.colour[app.lang]}` : `?`;
}
function inkFor(hex) {
  const n = parseInt(hex.slice(1), 16), r = n >> 16, g = (n >> 8) & 255, b = n & 255;
  return (0.299 * r + 0.587 * g + 0.114 * b) > 150 ? "#111" : "#fff";
}

// -- connection -----------------------------------------------------------------------

function connect() {
  const q = app.token ? `?token=${encodeURIComponent(app.token)}` : "";
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws${q}`);
  app.ws = ws;
  ws.onopen = () => { setConn("online"); setOffline(false); };
  ws.onclose = () => { setConn("offline"); setOffline(true); setTimeout(connect, 1000); };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "hello") {
      app.control = msg.control; app.mode = msg.mode; app.palette = msg.palette;
      applyPalette();
    } else if (msg.type === "state") {
      onState(msg);
    } else if (msg.type === "error") {
      addLog(tx(msg.text), true);
    }
  };
}
function setConn(key) { const c = document.getElementById("conn"); c.dataset.i18n = key; c.textContent = t(key); }
function send(msg) {
  if (!app.ws || app.ws.readyState !== 1) return;
  app.ws.send(JSON.stringify({ ...msg, id: ++app.seq }));
}
function applyPalette() {
  if (!app.palette) return;
  for (const [role, p] of Object.entries(app.palette)) {
    document.documentElement.style.setProperty(`--led-${role}`, p.hex);
  }
  renderLegend();
}

function render() {
  if (renderBoard()) renderSide();
}

function renderLegend() {
  const ul = document.getElementById("legend");
  ul.replaceChildren();
  for (const role of ["turn", "source", "target", "victim", "error", "restore", "hint"]) {
    const sw = el("span", { class: "sw" });
    sw.style.borderColor = `var(--led-${role})`;
    ul.append(el("li", { "data-role": role }, sw, `${LED_MARK[role] || ""} ${UI[app.lang].led[role]}`));
  }
}

function renderSide() {
  const st = app.state;
  // Status line: whose turn, which card.
  const status = document.getElementById("status");
  if (st.winner) {
    status.textContent = `${st.winner.map(seatName).join(" + ")} ${st.winner.length > 1 ? t("win") : t("wins")}!`;
  } else if (st.turn !== null) {
    const p = seatInfo(st.turn);
    const who = p && p.kind === "human" ? ` (${t("you")})` : p && p.kind !== "player" ? ` (${t("bot")})` : "";
    status.textContent = `${t("turn")}: ${seatName(st.turn)}${who}` +
      (st.bot_busy !== null && st.bot_busy !== undefined ? ` ${t("bot_thinking")}` : "");
  }
  if (st.stopped) status.textContent = t("stopped");
  const win = document.getElementById("winner");
  win.hidden = !st.winner && !st.stopped;
  if (st.winner || st.stopped) win.textContent = status.textContent;
  renderClock();

  // Flag with reason and restore guidance.
  const flag = document.getElementById("flag");
  flag.hidden = !st.flag;
  if (st.flag) {
    document.getElementById("flag-reason").textContent = tx(st.flag.reason);
    const ul = document.getElementById("flag-guidance");
    ul.replaceChildren(...(st.flag.guidance || []).map((g) => el("li", { text: tx(g) })));
    document.getElementById("fix").hidden = app.mode !== "sim";
  }

  // Card tray.
  const cards = document.getElementById("cards");
  const hand = st.hand;
  const ex = st.exchange;
  document.getElementById("tray-title").textContent = ex
    ? `${seatName(ex.seat)}: ${t("give_to")} (${seatName(ex.partner)})`
    : hand ? `${t("hand_of")} ${seatName(hand.seat)}` : t("hand");
  // Rebuild the tray only when it changes, and keep the keyboard focus on its card.
  const trayKey = JSON.stringify([hand, st.card, st.hints, app.lang, ex]);
  if (trayKey !== app.trayKey) {
  app.trayKey = trayKey;
  const focused = document.activeElement?.dataset?.card;
  cards.replaceChildren();
  if (ex) {
    // Partner exchange (reiseditie): each card is a button that passes it, face down.
    ex.cards.forEach((c) => {
      const b = el("button", { type: "button", class: "card give", "data-card": c, text: c,
                               "aria-label": `${t("give")}: ${c}` });
      b.addEventListener("click", () => send({ type: "give", seat: ex.seat, card: c }));
      cards.append(b);
    });
    if (!focused) setTimeout(() => cards.querySelector("button")?.focus(), 0);
  } else if (hand) {
    hand.cards.forEach((c, i) => {
      const playable = hand.playable.includes(c) && st.hints !== "off";
      // Only one of two identical cards was tapped (issue 13, defect 18).
      const b = el("button", { type: "button", class: "card" + (playable ? " playable" : "") +
                                  (st.card === c && hand.active && hand.cards.indexOf(c) === i ? " tapped" : ""),
                               "data-card": c, text: c,
                               "aria-label": `${c}${playable ? " ✓" : ""}` });
      b.disabled = !hand.active;
      b.addEventListener("click", () => send({ type: "card", card: c }));
      cards.append(b);
    });
    if (!hand.cards.length) cards.append(el("span", { text: t("no_cards") }));
  }
  if (focused) cards.querySelector(`[data-card="${focused}"]`)?.focus();
  }
  document.getElementById("tray").hidden = app.mode !== "sim";
  document.getElementById("discard").disabled = !(hand && hand.active);
  document.getElementById("discard").hidden = !!ex;  // no hand to show while passing a card
  document.getElementById("played").textContent = st.card ? `${t("played")}: ${st.card}` : "";

  // Pawns in hand (simulator): choose which one to put down.
  const inhand = document.getElementById("inhand");
  inhand.replaceChildren();
  if (app.mode === "sim" && st.held.length) {
    inhand.append(el("span", { text: `${t("in_hand")}:` }));
    if (app.selectedHeld !== null && app.selectedHeld >= st.held.length) app.selectedHeld = null;
    st.held.forEach((seat, i) => {
      const p = seat === null ? null : seatInfo(seat);
      const b = el("button", { type: "button", class: "held", text: p ? p.colour.symbol : "?",
                               "aria-pressed": String((app.selectedHeld ?? st.held.length - 1) === i),
                               "aria-label": p ? `${t("pawn_of")} ${p.colour[app.lang]}` : t("unknown_pawn") });
      b.style.background = p ? p.colour.hex : "#999";
      b.style.color = p ? inkFor(p.colour.hex) : "#111";
      b.addEventListener("click", () => { app.selectedHeld = i; renderSide(); });
      inhand.append(b);
    });
    inhand.append(el("span", { class: "hint", text: t("place_hint") }));
  }

  // Score.
  const score = document.getElementById("score");
  score.hidden = !st.score;
  if (st.score) {
    document.getElementById("score-list").replaceChildren(...st.score.map((s) =>
      el("li", { text: `${s.seats.map(seatName).join(" + ")}: ${s.points} ${t("points")}` })));
  }

  renderHealth(st);

  // Messages: the referee's recent decisions that need words.
  const log = document.getElementById("log");
  const shown = st.decisions.filter((d) => ["card_rejected", "illegal", "ambiguous", "hint", "undo", "win", "penalty", "time_limit", "resolved", "exchange", "missing"].includes(d.type) ||
                                         (d.type === "discard"));
  log.replaceChildren(...shown.slice(-6).reverse().map((d) => {
    const name = UI[app.lang].decision[d.type] || d.type;
    let detail = d.reason ? tx(d.reason) : "";
    if (d.type === "undo") detail = d.move || detail;
    if (d.type === "hint") detail = d.reason ? tx(d.reason) : d.move;
    if (d.type === "discard" && d.ok) detail = seatName(d.seat);
    if (d.type === "penalty" && d.ok === false) detail = `${seatName(d.seat)}: ${detail}`;
    if (d.must_play) detail += ` (${d.must_play})`;
    if (d.card && d.type === "card_rejected") detail = `${d.card}: ${detail}`;
    // A reason that already starts with the label ("penalty: ...") is not labelled twice.
    const text = !detail ? name
      : detail.toLowerCase().startsWith(name.toLowerCase()) ? detail[0].toUpperCase() + detail.slice(1)
      : `${name}: ${detail}`;
    return el("li", { class: d.ok === false || ["illegal", "card_rejected", "missing"].includes(d.type) ? "err" : "",
                      text });
  }));
  if (app.localLog) log.prepend(el("li", { class: "err", text: app.localLog }));
  // The coach (hints "coach"): after a person's clearly worse move, the better move.
  if (st.coach) log.prepend(el("li", { class: "coach", "data-coach": st.coach.better,
                                       text: `${t("coach")}: ${tx(st.coach.text)}` }));

  // History: notation and words.
  const moves = document.getElementById("moves");
  moves.replaceChildren(...st.history.map((h) => el("li", { "data-move": h.move },
    el("code", { text: h.move }), " — ", el("span", { class: "words", text: tx(h.words) }),
    ...(h.overruled ? [" — ", el("em", { class: "overruled", text: `${t("overruled")}: ${h.overruled}` })] : []))));
  moves.scrollTop = moves.scrollHeight;

  // Controls. NK: the table penalty and the time limit.
  const nk = st.profile === "nk";
  document.getElementById("nk-controls").hidden = !nk;
  if (nk) {
    const sel = document.getElementById("penalty-seat");
    const key = JSON.stringify([st.seats, app.lang]);
    if (sel.dataset.key !== key) {
      sel.dataset.key = key;
      sel.replaceChildren(...st.players.map((p) => el("option", { value: String(p.seat), text: seatName(p.seat) })));
    }
    for (const id of ["penalty", "time-limit"]) {
      document.getElementById(id).disabled = !app.control || !!st.winner || !!st.stopped;
    }
    sel.disabled = !app.control;
  }
  for (const id of ["undo", "overrule"]) document.getElementById(id).disabled = !app.control;
  document.querySelector("#newgame button[type=submit]").disabled = !app.control;
  document.getElementById("token-note").hidden = app.control;
  for (const e of document.querySelectorAll(".sim-only")) e.hidden = app.mode !== "sim";
}

function renderHealth(st) {
  // Run mode: the board's link (Pico serial or the Pi's own chain) and the switches.
  const box = document.getElementById("health");
  box.hidden = !st.health;
  if (!st.health) return;
  const items = [];
  const link = st.health.link;
  if (link) {
    const ok = link.ok !== false;
    const parts = [ok ? t("link_ok") : t("link_lost")];
    if (link.port) parts.push(link.port);
    if (link.error) parts.push(link.error);
    items.push(el("li", { class: ok ? "" : "err", "data-health": "link", text: parts.join(" — ") }));
    if (link.kind === "gpio") {
      if (link.chain_ok === false) items.push(el("li", { class: "err", text: t("chain_broken") }));
      items.push(el("li", { text: `${t("broken_reads")}: ${link.broken_reads ?? 0}` }));
    } else {
      items.push(el("li", { "data-health": "frames",
                            text: `${t("bad_frames")}: ${link.frames_bad ?? 0}, ${t("gaps")}: ${link.gaps ?? 0}` }));
      const age = link.last_heartbeat_age_ms;
      items.push(el("li", { "data-health": "heartbeat",
                            text: `${t("heartbeat")}: ${age == null ? "—" : (age / 1000).toFixed(1) + " s " + t("ago")}` }));
      if (link.chain_ok === false) items.push(el("li", { class: "err", text: t("chain_broken") }));
    }
  }
  const s = st.health.sensors;
  if (s) {
    items.push(el("li", { class: s.ok ? "" : "err", "data-health": "sensors", text: tx(s.text) }));
  }
  document.getElementById("health-list").replaceChildren(...items);
}

function fmtTime(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderClock() {
  // Game time from the state, running on locally between states.
  const st = app.state, c = st && st.clock;
  const out = document.getElementById("clock");
  if (!c) { out.textContent = ""; return; }
  if (app.clockVersion !== st.version) { app.clockVersion = st.version; app.clockAt = Date.now(); }
  const ms = c.elapsed_ms + (c.running ? Date.now() - app.clockAt : 0);
  out.textContent = `${t("elapsed")} ${fmtTime(ms)}` + (c.limit_ms ? ` / ${fmtTime(c.limit_ms)}` : "");
  out.classList.toggle("over", !!c.limit_ms && ms >= c.limit_ms);
}

function addLog(text, err) {
  app.localLog = text;
  if (app.state) renderSide();
  clearTimeout(app.logTimer);
  app.logTimer = setTimeout(() => { app.localLog = null; if (app.state) renderSide(); }, 5000);
}

async function onState(st) {
  app.state = st;
  await ensureBoard(st);
  render();
  prefillNewGame(st);
  for (const f of app.onState) f(st);
}

// The new-game form starts from the game being played, once per game (so a player's own
// edits of the form are not overwritten by every state update).
function prefillNewGame(st) {
  if (app.formGame === st.game) return;
  app.formGame = st.game;
  const f = document.getElementById("newgame");
  f.elements.seats.value = String(st.seats);
  f.elements.profile.value = st.profile;
  f.elements.teams.value = st.teams || "";
  f.elements.hints.value = st.hints;
  if (st.players) f.elements.players.value = st.players.map((p) => p.kind).join(",");
}

// -- controls ------------------------------------------------------------------------

function confirmThen(text, action) {
  const dlg = document.getElementById("confirm");
  document.getElementById("confirm-text").textContent = text;
  dlg.returnValue = "";
  dlg.onclose = () => { if (dlg.returnValue === "yes") action(); };
  dlg.showModal();
}

function setupControls() {
  document.getElementById("lang").addEventListener("click", () => setLang(app.lang === "nl" ? "en" : "nl", true));
  document.getElementById("discard").addEventListener("click", () => send({ type: "discard" }));
  document.getElementById("fix").addEventListener("click", () => send({ type: "fix" }));
  document.getElementById("undo").addEventListener("click", () =>
    confirmThen(t("confirm_undo"), () => send({ type: "undo" })));
  // Issue 11 item 15: a minimal control; the page rework will give it a proper form.
  document.getElementById("overrule").addEventListener("click", () => {
    const reason = window.prompt(t("overrule_reason"));
    if (!reason || !reason.trim()) return;
    let move = (window.prompt(t("overrule_move")) || "").trim();
    const correct = /^(correct|verbeter):/i.test(move);
    if (correct) move = move.replace(/^[^:]*:\s*/, "");
    send({ type: "overrule", reason: reason.trim(), move: move || null, correct });
  });
  document.getElementById("penalty").addEventListener("click", () => {
    const seat = Number(document.getElementById("penalty-seat").value);
    confirmThen(`${t("confirm_penalty")} ${seatName(seat)}?`, () => send({ type: "penalty", seat }));
  });
  document.getElementById("time-limit").addEventListener("click", () =>
    confirmThen(t("confirm_time"), () => send({ type: "time_limit" })));
  setInterval(renderClock, 1000);
  document.getElementById("newgame").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const msg = { type: "new_game", seats: Number(f.get("seats")), profile: f.get("profile"),
                  hints: f.get("hints") };
    if (f.get("teams")) msg.teams = f.get("teams");
    if (app.mode === "sim") msg.players = String(f.get("players")).split(",").map((s) => s.trim()).filter(Boolean);
    confirmThen(t("confirm_new"), () => send(msg));
  });
  const q = new URLSearchParams(location.search);
  app.token = q.get("token") || sessionStorage.getItem("keezbord.token");
  if (app.token) sessionStorage.setItem("keezbord.token", app.token);
  if (q.get("lang") === "en" || q.get("lang") === "nl") {
    app.lang = q.get("lang");
    localStorage.setItem("keezbord.lang", app.lang);
  }
}

function setLang(lang, remember = false) {
  app.lang = lang;
  if (remember) localStorage.setItem("keezbord.lang", lang);  // only a choice is remembered
  document.documentElement.lang = lang;
  const btn = document.getElementById("lang");
  btn.textContent = lang === "nl" ? "EN" : "NL";
  btn.setAttribute("aria-label", lang === "nl" ? "English" : "Nederlands");
  for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  renderLegend();
  render();
}

setupControls();
setupBoardInput();
setLang(app.lang);
connect();
