// keezbord web page: draws the board from the hardware geometry, mirrors the referee's
// state from the websocket, and (in the simulator) turns clicks and drags into the
// lift/place events a reed switch would report. Protocol: docs/web.md.
"use strict";

/** @type {Record<"nl" | "en", UiTexts>} */
const UI = {
  nl: {
    connecting: "verbinden…", online: "verbonden", offline: "verbinding weg, opnieuw…",
    board: "Het bord", hand_of: "Hand van", hand: "Hand", discard: "Laat hand zien (geen kaart speelbaar)",
    score: "NK-score", messages: "Meldingen", moves: "Zetten", game: "Spel", undo: "Laatste zet terugnemen",
    overrule: "Scheidsrechter beslist", overrule_reason: "Reden van de scheidsrechter (verplicht):",
    overrule_move: "Zet in notatie (leeg: het bord zoals het nu staat; met 'verbeter:' ervoor: vervangt de laatste zet):",
    overruled: "beslist door de scheidsrechter",
    export_trace: "Exporteer trace", export_moves: "Exporteer zetten", new_game: "Nieuw spel", you_play: "Je speelt", you_watch: "Alleen bots: je kijkt toe",
    seats: "Stoelen", profile: "Regels", teams: "Teams", teams_auto: "standaard", teams_pairs: "paren",
    teams_none: "ieder voor zich", hints: "Hulp", hints_off: "uit", hints_targets: "doelen",
    hints_full: "volledig", hints_coach: "coach", coach: "Coach", players: "Spelers", start: "Start", yes: "Ja", no: "Nee",
    need_token: "Alleen kijken: beheer vraagt de code (open /?token=…).",
    fix: "Zet het bord recht", turn: "Aan zet", you: "jij", bot: "bot", wins: "wint", win: "winnen",
    played: "Gespeeld", in_hand: "In de hand",
    confirm_new: "Een nieuw spel beginnen?",
    empty: "leeg", pawn_of: "pion van", unknown_pawn: "pion", no_cards: "geen kaarten",
    points: "punten", game_over: "Het spel is afgelopen",
    bot_kind: { greedy: "gretig", random: "willekeurig", search: "vooruitdenkend" },
    health: "Bordstatus", chip: "chip", link_ok: "verbinding met het bord in orde", link_lost: "verbinding met het bord weg",
    bad_frames: "slechte frames", gaps: "gaten", heartbeat: "laatste hartslag", ago: "geleden",
    chain_broken: "schuifregisterketen onderbroken", broken_reads: "mislukte scans",
    fault_bus: "busfout (CLK, /PL)", fault_count: "chipaantal", fault_open: "open lijn", fault_broken: "onderbroken",
    leds_failing: "ledstrip werkt niet (opnieuw geprobeerd; het spel gaat door)",
    reader_missing: "kaartlezer antwoordt niet (opnieuw geprobeerd; zetten met elke kaart)",
    chatter: "sensor dendert", stuck: "sensor blijft gesloten zonder pion", bad_switch: "sensor defect",
    penalty_seat: "Overtreder", penalty: "Strafzet: voorste pion terug",
    time_limit: "Stop: tijd is om", confirm_penalty: "Strafzet geven aan", confirm_time: "Het spel stoppen op de tijdslimiet? Alleen pionnen thuis tellen.",
    stopped: "Gestopt op de tijdslimiet", elapsed: "Speeltijd",
    give_to: "kies een kaart voor je partner", give: "Geef aan partner",
    led: { turn: "aan zet", source: "kan zetten", target: "doel", victim: "geslagen pion hierheen",
           error: "fout", restore: "hier terugzetten", hint: "tip: deze zet",
           around: "doel onder een pion: het gat ertussen" },
    decision: { card_rejected: "Kaart geweigerd", discard: "Hand getoond", illegal: "Ongeldige zet", second_card: "Tweede kaart",
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
    export_trace: "Export trace", export_moves: "Export moves", new_game: "New game", you_play: "You play", you_watch: "Bots only: you watch",
    seats: "Seats", profile: "Rules", teams: "Teams", teams_auto: "default", teams_pairs: "pairs",
    teams_none: "every one for themselves", hints: "Hints", hints_off: "off", hints_targets: "targets",
    hints_full: "full", hints_coach: "coach", coach: "Coach", players: "Players", start: "Start", yes: "Yes", no: "No",
    need_token: "View only: control needs the token (open /?token=…).",
    fix: "Put the board right", turn: "To play", you: "you", bot: "bot", wins: "wins", win: "win",
    played: "Played", in_hand: "In hand",
    confirm_new: "Start a new game?",
    empty: "empty", pawn_of: "pawn of", unknown_pawn: "pawn", no_cards: "no cards",
    points: "points", game_over: "The game is over",
    bot_kind: { greedy: "greedy", random: "random", search: "searching" },
    health: "Board health", chip: "chip", link_ok: "link to the board ok", link_lost: "link to the board lost",
    bad_frames: "bad frames", gaps: "gaps", heartbeat: "last heartbeat", ago: "ago",
    chain_broken: "shift-register chain broken", broken_reads: "failed scans",
    fault_bus: "bus fault (CLK, /PL)", fault_count: "chip count", fault_open: "open line", fault_broken: "broken",
    leds_failing: "LED strip not working (tried again; the game goes on)",
    reader_missing: "card reader not answering (tried again; moves checked against every card)",
    chatter: "switch chatters", stuck: "switch stays closed with no pawn", bad_switch: "bad switch",
    penalty_seat: "Offender", penalty: "Penalty: front pawn back",
    time_limit: "Stop: time is up", confirm_penalty: "Give the penalty to", confirm_time: "Stop the game at the time limit? Only pawns home count.",
    stopped: "Stopped at the time limit", elapsed: "Game time",
    give_to: "choose a card for your partner", give: "Pass to partner",
    led: { turn: "to play", source: "can move", target: "target", victim: "captured pawn goes here",
           error: "wrong", restore: "put back here", hint: "hint: this move",
           around: "target under a pawn: the hole between" },
    decision: { card_rejected: "Card rejected", discard: "Hand shown", illegal: "Illegal move", second_card: "Second card",
                ambiguous: "More than one move fits", hint: "Hint", undo: "Taken back",
                move: "Move", turn: "Turn", win: "Win", penalty: "Penalty", time_limit: "Time limit",
                resolved: "Board put right", missing: "Pawn missing" },
  },
};
/** @type {Record<string, string>} */
const LED_MARK = { target: "●", error: "✕", restore: "↺", victim: "⌂", hint: "★" };
const SVGNS = "http://www.w3.org/2000/svg";

// The page's language: the player's own choice (the NL/EN button or ?lang=, remembered in
// localStorage), else the browser's: Dutch unless it asks for English first.
/** @returns {"nl" | "en"} */
function browserLang() {
  const first = (navigator.languages && navigator.languages[0]) || navigator.language || "";
  return first.toLowerCase().startsWith("en") ? "en" : "nl";
}
const savedLang = localStorage.getItem("keezbord.lang");
/** @type {App} */
const app = {
  // Only a language the page has (a stored "de" would leave every text undefined).
  lang: savedLang === "nl" || savedLang === "en" ? savedLang : browserLang(),
  token: null, ws: null, control: false, role: "spectator", mode: "sim", lists: {},
  state: null, geometry: null, geoKey: null, holes: new Map(), palette: null,
  selectedHeld: null, drag: null, suppressClick: false, seq: 0, asked: new Map(), lastVersion: -1,
  onState: [],  // hooks for tests and the benchmark
  onMessage: [],  // every message from the server, after the above (remote.js)
};
window.keezbord = app;

// A card as the page's language prints it: a Dutch deck's king, queen and jack are H, V
// and B (heer, vrouw, boer), as the Dutch rule texts write them (engine/text.py, card_label).
const DUTCH_FACES = /** @type {Record<string, string>} */ ({ K: "H", Q: "V", J: "B" });
/** @param {string} card */
function cardLabel(card) { return app.lang === "nl" ? (DUTCH_FACES[card] || card) : card; }
/** @param {string} key @returns {string} */
function t(key) { return /** @type {string} */ (UI[app.lang][key] ?? key); }
/** @param {Bilingual | string | null | undefined} text */
function tx(text) { return text == null ? "" : (typeof text === "string" ? text : (text[app.lang] ?? text.en)); }
/**
 * An HTML element: ``class`` and ``text`` set as such, other attributes unless
 * undefined, null or false.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs]
 * @param {...(Node | string)} kids
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = /** @type {string} */ (v);
    else if (k === "text") e.textContent = /** @type {string} */ (v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, String(v));
  }
  for (const kid of kids) e.append(kid);
  return e;
}
/**
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElementTagNameMap[K]}
 */
function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}
// The page's element of that id, which index.html has (or a script made): as
// document.getElementById, typed as there (a missing one fails where it is used, as before).
/** @param {string} id */
function byId(id) { return /** @type {HTMLElement} */ (document.getElementById(id)); }
// A seat's player and name; "?" for a seat not given (or not in the game).
/** @param {number | null | undefined} seat */
function seatInfo(seat) { return app.state?.players?.[/** @type {number} */ (seat)]; }
/** @param {number | null | undefined} seat */
function seatName(seat) {
  const p = seatInfo(seat);
  return p ? `${p.colour.symbol} ${p.colour[app.lang]}` : `?`;
}
/** @param {string} hex */
function inkFor(hex) {
  const n = parseInt(hex.slice(1), 16), r = n >> 16, g = (n >> 8) & 255, b = n & 255;
  return (0.299 * r + 0.587 * g + 0.114 * b) > 150 ? "#111" : "#fff";
}

// -- connection -----------------------------------------------------------------------

function connect() {
  const q = "?history=delta" + (app.token ? `&token=${encodeURIComponent(app.token)}` : "");
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws${q}`);
  app.ws = ws;
  ws.onopen = () => { setConn("online"); setOffline(false); };
  // A page told "full" (too many spectators, broadcast.py) waits longer before it tries again.
  ws.onclose = () => { setConn("offline"); setOffline(true); setTimeout(connect, app.retryMs || 1000); };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "hello") {
      app.retryMs = 1000;
      app.role = msg.role || (msg.control ? "referee" : "spectator");
      app.control = app.role === "referee"; app.mode = msg.mode; app.palette = msg.palette;
      app.lists = {};
      applyPalette();
    } else if (msg.type === "state") {
      onState(msg);
    } else if (msg.type === "error") {
      addLog(tx(msg.text), true);
      confirmAgain(msg);
    } else if (msg.type === "full") {
      addLog(tx(msg.text), true);
      app.retryMs = 10000 + Math.random() * 10000;  // spread the full room's retries
    } else if (msg.type === "ack" && typeof msg.id === "number") {
      app.asked.delete(msg.id);
    }
    for (const f of app.onMessage) f(msg);
  };
}
/** @param {string} key */
function setConn(key) { const c = byId("conn"); c.dataset.i18n = key; c.textContent = t(key); }
// What a role may ask for (keezbord/host/roles.py says the same; the server decides).
const REFEREE_ACTIONS = new Set(["undo", "hold", "new_game", "penalty", "time_limit", "overrule"]);
/** @param {string} kind */
function mayDo(kind) {
  if (REFEREE_ACTIONS.has(kind)) return app.role === "referee";
  return app.role === "player" || app.role === "referee";
}
/** @param {PageRequest} msg */
function send(msg) {
  if (app.reviewing && (msg.type === "lift" || msg.type === "place")) { addLog(t("in_review"), true); return; }
  if (!mayDo(msg.type)) { addLog(t(REFEREE_ACTIONS.has(msg.type) ? "need_referee" : "watch_only"), true); return; }
  if (!app.ws || app.ws.readyState !== 1) return;
  app.ws.send(JSON.stringify({ ...msg, id: ++app.seq }));
  if (NEW_GAME_ACTIONS.has(msg.type)) app.asked.set(app.seq, msg);
}
// A set-up, lesson, puzzle or retry that would end a game in progress (roles.py
// may_end_game): in the simulator the server asks the page to confirm, naming what is
// lost; confirmed, the request goes again with the game's number.
const NEW_GAME_ACTIONS = new Set(["set_up", "lesson", "puzzle", "retry_board"]);
/** @param {ServerMessage} msg */
function confirmAgain(msg) {
  const ask = /** @type {{game: number, text: Bilingual} | undefined} */ (msg.confirm);
  const asked = typeof msg.id === "number" ? app.asked.get(msg.id) : undefined;
  if (typeof msg.id === "number") app.asked.delete(msg.id);
  if (!ask || !asked) return;
  if (window.confirm(tx(ask.text))) send({ ...asked, confirm: ask.game });
}
function applyPalette() {
  if (!app.palette) return;
  for (const [role, p] of Object.entries(app.palette)) {
    document.documentElement.style.setProperty(`--led-${role}`, p.hex);
  }
  renderLegend();
}

// The board (board.js), the side (panel.js), the instruction line (instruction.js).
function render() {
  if (renderBoard()) renderSide();
  renderInstruction();
}

function renderLegend() {
  const ul = byId("legend");
  ul.replaceChildren();
  for (const role of ["turn", "source", "target", "victim", "error", "restore", "hint", "around"]) {
    const sw = el("span", { class: "sw" });
    sw.style.borderColor = `var(--led-${role})`;
    ul.append(el("li", { "data-role": role }, sw, `${LED_MARK[role] || ""} ${UI[app.lang].led[role]}`));
  }
}

/** @param {PageState} st */
async function onState(st) {
  // The server sends only the history entries this page does not have yet (from index
  // history_from on): keep the rest.
  const fields = /** @type {Record<string, any>} */ (st);  // the lists by name
  for (const key of ["history", "log"]) {
    const from = fields[`${key}_from`];
    if (from === undefined) continue;
    app.lists[key] = (app.lists[key] || []).slice(0, from).concat(fields[key]);
    fields[key] = app.lists[key];
  }
  app.state = st;
  await ensureBoard(st);
  render();
  prefillNewGame(st);
  for (const f of app.onState) f(st);
}

/** @param {"nl" | "en"} lang */
function setLang(lang, remember = false) {
  app.lang = lang;
  if (remember) localStorage.setItem("keezbord.lang", lang);  // only a choice is remembered
  document.documentElement.lang = lang;
  const btn = byId("lang");
  btn.textContent = lang === "nl" ? "EN" : "NL";
  btn.setAttribute("aria-label", lang === "nl" ? "English" : "Nederlands");
  for (const e of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n]")))
    e.textContent = t(/** @type {string} */ (e.dataset.i18n));
  renderLegend();
  render();
}

// The link's token (it says the page's role, docs/web.md) and language.
function readQuery() {
  const q = new URLSearchParams(location.search);
  app.token = q.get("token") || sessionStorage.getItem("keezbord.token");
  if (app.token) sessionStorage.setItem("keezbord.token", app.token);
  if (app.token) { // the move list says the exchanged cards only to a page with a token
    const moves = /** @type {HTMLAnchorElement | null} */ (document.getElementById("export-moves"));
    if (moves) moves.href = `/api/export/moves?token=${encodeURIComponent(app.token)}`;
  }
  const lang = q.get("lang");
  if (lang === "en" || lang === "nl") {
    app.lang = lang;
    localStorage.setItem("keezbord.lang", app.lang);
  }
}

// Every script is deferred: start once all of them (board.js, panel.js, review.js) ran,
// whatever their order in index.html.
document.addEventListener("DOMContentLoaded", () => {
  readQuery();
  setupControls();
  setupLessons();
  setupPuzzles();
  setupBoardInput();
  setupZoom();
  setupInstruction();
  if (typeof setupReview === "function") setupReview();
  setLang(app.lang);
  connect();
});
