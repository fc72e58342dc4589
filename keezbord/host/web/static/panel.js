// keezbord web page, the side of the page: status, card tray, player panels, messages,
// the move list and the controls (app.js is the glue: connection, state, language;
// board.js the board; review.js the review of past moves). Protocol: docs/web.md.
"use strict";

function renderSide() {
  const st = /** @type {PageState} */ (app.state);  // render() draws the side only with a state
  renderStatus(st);
  renderClock();

  // Flag with reason and restore guidance.
  const flag = byId("flag");
  flag.hidden = !st.flag;
  if (st.flag) {
    byId("flag-reason").textContent = tx(st.flag.reason);
    const ul = byId("flag-guidance");
    ul.replaceChildren(...(st.flag.guidance || []).map((g) => el("li", { text: tx(g) })));
    byId("fix").hidden = app.mode !== "sim";
  }

  renderSetUp(st);
  renderLesson(st);
  renderPuzzle(st);

  // Card tray.
  const cards = byId("cards");
  const hand = st.hand;
  const ex = st.exchange;
  byId("tray-title").textContent = ex
    ? `${seatName(ex.seat)}: ${t("give_to")} (${seatName(ex.partner)})`
    : hand ? `${t("hand_of")} ${seatName(hand.seat)}` : t("hand");
  // Rebuild the tray only when it changes, and keep the keyboard focus on its card.
  const trayKey = JSON.stringify([hand, st.card, st.hints, app.lang, ex]);
  if (trayKey !== app.trayKey) {
  app.trayKey = trayKey;
  const focused = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.card;
  cards.replaceChildren();
  if (ex) {
    // Partner exchange (reiseditie): each card is a button that passes it, face down.
    ex.cards.forEach((c) => {
      const b = el("button", { type: "button", class: "card give", "data-card": c, text: cardLabel(c),
                               "aria-label": `${t("give")}: ${cardLabel(c)}` });
      b.addEventListener("click", () => send({ type: "give", seat: ex.seat, card: c }));
      cards.append(b);
    });
    if (!focused) setTimeout(() => cards.querySelector("button")?.focus(), 0);
  } else if (hand) {
    hand.cards.forEach((c, i) => {
      const playable = hand.playable.includes(c) && st.hints !== "off";
      // Only one of two identical cards shows tapped (issue 13, defect 18).
      const b = el("button", { type: "button", class: "card" + (playable ? " playable" : "") +
                                  (st.card === c && hand.active && hand.cards.indexOf(c) === i ? " tapped" : ""),
                               "data-card": c, text: cardLabel(c),
                               "aria-label": `${cardLabel(c)}${playable ? " ✓" : ""}` });
      b.disabled = !hand.active;
      b.addEventListener("click", () => send({ type: "card", card: c }));
      cards.append(b);
    });
    if (!hand.cards.length) cards.append(el("span", { text: t("no_cards") }));
  }
  if (focused) /** @type {HTMLElement | null} */ (cards.querySelector(`[data-card="${focused}"]`))?.focus();
  }
  // A real board's virtual deal (docs/remote.md): the table's hand on the board's screen.
  byId("tray").hidden = app.mode !== "sim" && !hand;
  // "Show hand" only when no card can be played (the referee refuses it otherwise): a
  // playable card disables it, and says why under it.
  const canPlay = !!hand && hand.active && hand.playable.length > 0;
  /** @type {HTMLButtonElement} */ (byId("discard")).disabled = !(hand && hand.active) || canPlay;
  byId("discard").hidden = !!ex;  // no hand to show while passing a card
  const why = byId("discard-why");
  why.hidden = !canPlay || !!ex;
  why.textContent = canPlay ? t("discard_playable") : "";
  // The card tapped, under the hand only when it is this hand's own (never a bot's card).
  const own = hand && hand.active && st.turn === hand.seat && st.bot_busy == null;
  byId("played").textContent = st.card && own ? `${t("played")}: ${cardLabel(st.card)}` : "";
  renderAsk(st);  // "which card?" (remarks.js)

  // Score.
  const score = byId("score");
  score.hidden = !st.score;
  if (st.score) {
    byId("score-list").replaceChildren(...st.score.map((s) =>
      el("li", { text: `${s.seats.map(seatName).join(" + ")}: ${s.points} ${t("points")}` })));
  }

  renderHealth(st);

  renderMessages(st);
  renderSince(st);
  renderMoves(st);
  renderPlayers(st);

  // Controls. NK: the table penalty and the time limit.
  const nk = st.profile === "nk";
  byId("nk-controls").hidden = !nk;
  if (nk) {
    const sel = /** @type {HTMLSelectElement} */ (byId("penalty-seat"));
    const key = JSON.stringify([st.seats, app.lang]);
    if (sel.dataset.key !== key) {
      sel.dataset.key = key;
      sel.replaceChildren(...st.players.map((p) => el("option", { value: String(p.seat), text: seatName(p.seat) })));
    }
    for (const id of ["penalty", "time-limit"]) {
      /** @type {HTMLButtonElement} */ (byId(id)).disabled = !app.control || !!st.winner || !!st.stopped;
    }
    sel.disabled = !app.control;
  }
  for (const id of ["undo", "overrule"]) /** @type {HTMLButtonElement} */ (byId(id)).disabled = !app.control;
  /** @type {HTMLButtonElement} */ (document.querySelector("#newgame button[type=submit]")).disabled = !app.control;
  for (const e of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".sim-only"))) e.hidden = app.mode !== "sim";
  renderRole(st);
}

// The page's role (the token in its link, docs/web.md): a badge in the header, and what the
// role may not use is disabled (the referee's controls) or hidden (a hand: spectators) with
// the reason next to it.
/** @param {PageState} st */
function renderRole(st) {
  const role = app.role;
  renderSoundToggle();
  const badge = byId("role");
  badge.dataset.role = role;
  badge.textContent = t(`role_${role}`);
  badge.title = t(`role_${role}_says`);
  const note = byId("token-note");
  note.hidden = role === "referee";
  note.textContent = role === "player" ? t("need_referee") : t("need_token");
  if (role === "spectator") {
    byId("tray").hidden = true;
    byId("watch-note").hidden = false;
  } else {
    byId("watch-note").hidden = true;
  }
}

Object.assign(UI.nl, {
  role_spectator: "Toeschouwer", role_player: "Speler", role_referee: "Scheidsrechter",
  role_spectator_says: "Deze link kijkt alleen mee: geen hand, geen zetten.",
  role_player_says: "Deze link speelt mee; terugnemen, nieuw spel en beslissen doet de scheidsrechter.",
  role_referee_says: "Deze link is de scheidsrechter: alles mag, ook terugnemen en nieuw spel.",
  need_token: "Alleen kijken: spelen vraagt de link voor spelers, beheer de link van de scheidsrechter.",
  need_referee: "Terugnemen, nieuw spel, strafzet en beslissen: alleen met de link van de scheidsrechter.",
  watch_only: "Alleen kijken: met deze link kun je niet spelen.",
  watching: "Je kijkt mee: de handen van de spelers zie je niet.",
});
Object.assign(UI.en, {
  role_spectator: "Spectator", role_player: "Player", role_referee: "Referee",
  role_spectator_says: "This link only watches: no hand, no moves.",
  role_player_says: "This link plays; undo, new game and decisions are the referee's.",
  role_referee_says: "This link is the referee: everything, undo and new game too.",
  need_token: "View only: playing needs the players' link, control the referee's link.",
  need_referee: "Undo, new game, penalty and decisions: only with the referee's link.",
  watch_only: "Watching only: this link cannot play.",
  watching: "You are watching: the players' hands are not shown.",
});

/** @param {PageState} st */
function renderHealth(st) {
  // Run mode: the board's link (Pico serial or the Pi's own chain) and the switches.
  const box = byId("health");
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
      // By kind (drivers/scanner_gpio.py FAULT_TEXT): "bus" points at CLK and /PL.
      const kinds = Object.entries(link.chain_faults || {}).map(([k, n]) => `${t("fault_" + k)} ${n}`);
      items.push(el("li", { "data-health": "chain-faults",
                            text: `${t("broken_reads")}: ${link.broken_reads ?? 0}` +
                                  (kinds.length ? ` (${kinds.join(", ")})` : "") }));
    } else {
      items.push(el("li", { "data-health": "frames",
                            text: `${t("bad_frames")}: ${link.frames_bad ?? 0}, ${t("gaps")}: ${link.gaps ?? 0}` }));
      const age = link.last_heartbeat_age_ms;
      items.push(el("li", { "data-health": "heartbeat",
                            text: `${t("heartbeat")}: ${age == null ? "—" : (age / 1000).toFixed(1) + " s " + t("ago")}` }));
      if (link.chain_ok === false) items.push(el("li", { class: "err", text: t("chain_broken") }));
    }
    if (link.leds && link.leds.ok === false) {
      items.push(el("li", { class: "err", "data-health": "leds",
                            text: `${t("leds_failing")} — ${link.leds.error || ""}` }));
    }
  }
  const reader = link && link.reader;
  if (reader && reader.ok === false) {
    items.push(el("li", { class: "err", "data-health": "reader",
                          text: `${t("reader_missing")} — ${reader.error || ""}` }));
  }
  const s = st.health.sensors;
  if (s) {
    items.push(el("li", { class: s.ok ? "" : "err", "data-health": "sensors", text: tx(s.text) }));
  }
  // Each chip's bits, live (● closed, ○ open, and how often each changed): press on a
  // suspect joint and watch for a bit that flips (docs/hardware.md, Bring-up).
  for (const c of st.health.chips || []) {
    const flaky = c.bits.some((b) => b.changes >= 6);
    const bits = c.bits.map((b) => `${b.input} ${b.hole || "-"} ${b.closed ? "●" : "○"}${b.changes ? " " + b.changes : ""}`);
    items.push(el("li", { class: flaky ? "err" : "", "data-health": "chip",
                          text: `${t("chip")} ${c.chip}: ${bits.join("  ")}` }));
  }
  // The journal (docs/referee.md): a disk that refuses its writes, a failing fsync, or a
  // game resumed from a damaged journal, said for as long as this game is played.
  const j = st.health.journal;
  const said = j && (!j.ok ? j.text : j.resumed && j.resumed.text);
  if (said) items.push(el("li", { class: "err", "data-health": "journal", text: tx(said) }));
  byId("health-list").replaceChildren(...items);
}

/** @param {number} ms */
function fmtTime(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderClock() {
  // Game time from the state (as it was when the server sent it), running on locally
  // from when it arrived.
  const st = app.state, c = st && st.clock;
  const out = byId("clock");
  if (!c) { out.textContent = ""; return; }
  if (app.clockOf !== c) { app.clockOf = c; app.clockAt = Date.now(); }
  const ms = c.elapsed_ms + (c.running ? Date.now() - /** @type {number} */ (app.clockAt) : 0);
  out.textContent = `${t("elapsed")} ${fmtTime(ms)}` + (c.limit_ms ? ` / ${fmtTime(c.limit_ms)}` : "");
  out.classList.toggle("over", !!c.limit_ms && ms >= c.limit_ms);
}

// A refusal or a word of the page's own: in the instruction line (in view) and on top of
// the messages for 5 s.
/** @param {string} text @param {boolean} err */
function addLog(text, err) {
  app.localLog = text;
  sayInLine(text);
  if (app.state) renderSide();
  clearTimeout(app.logTimer);
  app.logTimer = setTimeout(() => { app.localLog = null; if (app.state) renderSide(); }, 5000);
}


// The new-game form starts from the game being played, once per game (so a player's own
// edits of the form are not overwritten by every state update).
/** @param {PageState} st */
function prefillNewGame(st) {
  if (app.formGame === st.game) return;
  app.formGame = st.game;
  const f = /** @type {HTMLFormElement & { elements: Record<string, HTMLInputElement | HTMLSelectElement> }} */ (
    byId("newgame"));
  f.elements.seats.value = String(st.seats);
  f.elements.profile.value = st.profile;
  f.elements.teams.value = st.teams || "";
  f.elements.hints.value = st.hints;
  if (st.players) {
    // A lesson's or a puzzle's seats are the task's (the learner on the seat to play):
    // a new game seats the person first again (issue 40, item 18).
    const task = st.lesson || st.puzzle || st.retry;
    const kinds = st.players.map((p) => p.kind);
    f.elements.players.value = (task ? kinds.map((_, i) => (i ? "greedy" : "human")) : kinds).join(",");
  }
  sayWhoYouPlay();
}

// Under the players field: which colour the first person plays in the new game.
function sayWhoYouPlay() {
  const f = /** @type {HTMLFormElement & { elements: Record<string, HTMLInputElement> }} */ (byId("newgame"));
  const kinds = f.elements.players.value.split(",").map((x) => x.trim());
  const i = kinds.indexOf("human");
  byId("players-you").textContent = i < 0 ? t("you_watch") : `${t("you_play")} ${seatName(i)}`;
  syncLevel();  // levels.js: the level the bots share
}

// The set-up mode (docs/setup.md): one instruction at a time, its holes lit on the board.
/** @param {PageState} st */
function renderSetUp(st) {
  const box = byId("setup");
  const su = st.setup;
  box.hidden = !su;
  byId("setupform").hidden = false;  // in sim too: the simulated board shows it at once
  if (!su) return;
  byId("setup-title").textContent = t(su.kind === "ask" ? "setup_ask" : "setup_title");
  byId("setup-text").textContent = tx(su.text);
  byId("setup-left").textContent = su.left_text ? tx(su.left_text) : "";
}

Object.assign(UI.nl, {
  setup_title: "Zet het bord klaar", setup_ask: "Welke pion is het?",
  setup_legend: "Stelling klaarzetten", setup_position: "Stelling (tekstvorm)",
  setup_start: "Zet klaar",
});
Object.assign(UI.en, {
  setup_title: "Set up the board", setup_ask: "Which pawn is it?",
  setup_legend: "Set up a position", setup_position: "Position (text form)",
  setup_start: "Set up",
});

// -- controls ------------------------------------------------------------------------

/** @param {string} text @param {() => void} action */
function confirmThen(text, action) {
  const dlg = /** @type {HTMLDialogElement} */ (byId("confirm"));
  byId("confirm-text").textContent = text;
  dlg.returnValue = "";
  dlg.onclose = () => { if (dlg.returnValue === "yes") action(); };
  dlg.showModal();
}

function setupControls() {
  byId("sound").addEventListener("click", () => {
    const on = localStorage.getItem("keezbord.sound") === "on";
    localStorage.setItem("keezbord.sound", on ? "off" : "on");
    renderSoundToggle();
  });
  renderSoundToggle();
  byId("lang").addEventListener("click", () => setLang(app.lang === "nl" ? "en" : "nl", true));
  byId("discard").addEventListener("click", () => send({ type: "discard" }));
  byId("fix").addEventListener("click", () => send({ type: "fix" }));
  setupTakeback();  // the undo button's dialog (takeback.js)
  setupRemarks();  // "which card?" (remarks.js)
  // Issue 11 item 15: a minimal control; the page rework will give it a proper form.
  byId("overrule").addEventListener("click", () => {
    const reason = window.prompt(t("overrule_reason"));
    if (!reason || !reason.trim()) return;
    let move = (window.prompt(t("overrule_move")) || "").trim();
    const correct = /^(correct|verbeter):/i.test(move);
    if (correct) move = move.replace(/^[^:]*:\s*/, "");
    send({ type: "overrule", reason: reason.trim(), move: move || null, correct });
  });
  byId("penalty").addEventListener("click", () => {
    const seat = Number(/** @type {HTMLSelectElement} */ (byId("penalty-seat")).value);
    confirmThen(`${t("confirm_penalty")} ${seatName(seat)}?`, () => send({ type: "penalty", seat }));
  });
  byId("time-limit").addEventListener("click", () =>
    confirmThen(t("confirm_time"), () => send({ type: "time_limit" })));
  setInterval(renderClock, 1000);
  byId("setupform").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(/** @type {HTMLFormElement} */ (ev.target));
    const position = String(f.get("position") || "").trim();
    if (position) send({ type: "set_up", position });
  });
  byId("newgame").addEventListener("input", sayWhoYouPlay);
  byId("newgame").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(/** @type {HTMLFormElement} */ (ev.target));
    /** @type {PageRequest} */
    const msg = { type: "new_game", seats: Number(f.get("seats")), profile: f.get("profile"),
                  hints: f.get("hints") };
    if (f.get("teams")) msg.teams = f.get("teams");
    if (app.mode === "sim") msg.players = String(f.get("players")).split(",").map((s) => s.trim()).filter(Boolean);
    confirmThen(t("confirm_new"), () => send(msg));
  });
}

// -- status and your turn (defect 12) ----------------------------------------------------

// The seat this page plays: the simulator's hand (its human seat), never for spectators.
/** @param {PageState} st */
function mySeat(st) { return app.role !== "spectator" && st.hand ? st.hand.seat : null; }
/** @param {PageState} st */
function myTurn(st) {
  return !!(st.hand && st.hand.active && app.role !== "spectator" && !st.winner && !st.stopped &&
            !st.exchange && !app.reviewing);
}
// Who plays a seat, in words: you, a person, or a bot and its kind ("bot (gretig)"); in
// the status line (short) just "bot".
/** @param {PlayerInfo | undefined} p @param {boolean} [short] */
function kindName(p, short = false) {
  if (!p) return "";
  if (p.kind === "human") return app.state && p.seat === mySeat(app.state) ? t("you") : t("person");
  if (p.kind === "player") return "";
  const kind = /** @type {Record<string, string>} */ (UI[app.lang].bot_kind)[p.kind] || p.kind;
  return short ? t("bot") : `${t("bot")} (${kind})`;
}

/** @param {PageState} st */
function renderStatus(st) {
  const status = byId("status");
  if (st.winner) {
    status.textContent = winText(st.winner);
  } else if (st.turn !== null) {
    // Short, so a phone's header never cuts it: what a bot does now (thinking, its card)
    // is the instruction line's.
    const kind = kindName(seatInfo(st.turn), true);
    status.textContent = `${t("turn")}: ${seatName(st.turn)}${kind ? ` (${kind})` : ""}`;
  }
  if (st.stopped) status.textContent = t("stopped");
  if (st.setup) status.textContent = t("setup_title");  // the game begins once it is set up
  const win = byId("winner");
  win.hidden = !st.winner && !st.stopped;
  if (st.winner || st.stopped) win.textContent = status.textContent;
  // Your turn: a banner, the page's title, and (when switched on) a short sound.
  const mine = myTurn(st);
  const banner = byId("yourturn");
  banner.hidden = !mine;
  // What to do is the instruction line's (instruction.js); the banner says whose turn.
  if (mine) banner.textContent = `${t("your_turn")} — ${seatName(/** @type {Hand} */ (st.hand).seat)}` +
    (st.card ? ` (${t("played")}: ${cardLabel(st.card)})` : "");
  document.body.classList.toggle("my-turn", mine);
  document.title = mine ? `▶ ${t("your_turn")} — keezbord` : st.winner ? `${winText(st.winner)} — keezbord` : "keezbord";
  if (mine && !app.wasMyTurn) beep();
  app.wasMyTurn = mine;
}

/** @param {number[]} seats */
function winText(seats) {
  const names = seats.map(seatName).join(" + ");
  return seats.length > 1 ? `${t("team")} ${names} ${t("win")}!` : `${names} ${t("wins")}!`;
}

function beep() {
  if (localStorage.getItem("keezbord.sound") !== "on") return;
  try {
    const ctx = app.audio || (app.audio = new AudioContext());
    const osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.frequency.value = 660; gain.gain.value = 0.08;
    osc.connect(gain).connect(ctx.destination);
    osc.start(); osc.stop(ctx.currentTime + 0.18);
    app.beeps = (app.beeps || 0) + 1;
  } catch (e) { /* no audio: the banner and the title say it */ }
}

function renderSoundToggle() {
  const b = byId("sound");
  const on = localStorage.getItem("keezbord.sound") === "on";
  b.setAttribute("aria-pressed", String(on));
  b.textContent = "♪";  // compact in the header; the label and the look say on or off
  b.classList.toggle("off", !on);
  b.title = on ? t("sound_on") : t("sound_off");
  b.setAttribute("aria-label", b.title);
}

// -- player panels (defect 6) -------------------------------------------------------------

/** @param {PageState} st */
function renderPlayers(st) {
  const ul = byId("players");
  const key = JSON.stringify([st.players, st.turn, st.table, st.winner, st.bot_busy, app.lang, st.teams]);
  if (ul.dataset.key === key) return;
  ul.dataset.key = key;
  const out = st.table ? new Set(st.table.sitting_out || []) : new Set();
  ul.replaceChildren(...st.players.map((p) => {
    const partner = p.team.find((s) => s !== p.seat);
    const bits = [];
    const kind = kindName(p);
    if (kind) bits.push(el("span", { class: "kind", text: kind }));
    if (partner !== undefined) bits.push(el("span", { class: "team", text: `${t("team_with")} ${seatName(partner)}` }));
    if (p.cards !== null && p.cards !== undefined)
      bits.push(el("span", { class: "count", "data-cards": String(p.cards), text: `${p.cards} ${t(p.cards === 1 ? "card" : "cards")}` }));
    if (st.table && st.table.dealer === p.seat) bits.push(el("span", { class: "tag dealer", text: t("dealer") }));
    if (st.turn === p.seat && !st.winner) bits.push(el("span", { class: "tag to-play", text: t("to_play") }));
    if (out.has(p.seat)) bits.push(el("span", { class: "tag out", text: t("sits_out") }));
    if (st.winner && st.winner.includes(p.seat)) bits.push(el("span", { class: "tag won", text: t("winner") }));
    const sw = el("span", { class: "swatch", text: p.colour.symbol });
    sw.style.background = p.colour.hex; sw.style.color = inkFor(p.colour.hex);
    return el("li", { class: "player" + (st.turn === p.seat ? " turn" : "") + (out.has(p.seat) ? " out" : ""),
                      "data-seat": String(p.seat) },
      sw, el("span", { class: "name", text: p.colour[app.lang] }), ...bits);
  }));
}

// -- messages (defects 9, 13) -------------------------------------------------------------

// The move a decision came after: the number of moves made before its time.
/** @param {PageState} st @param {number} time */
function moveNoAt(st, time) {
  let n = 0;
  for (const h of st.history) { if (h.t <= time) n = h.n; else break; }
  return n;
}

/** @param {PageState} st @param {number | null | undefined} seat */
function isBot(st, seat) {
  const p = seat === null || seat === undefined ? null : st.players[seat];
  return !!p && p.kind !== "human" && p.kind !== "player";
}

/** @param {PageState} st */
function renderMessages(st) {
  const log = byId("log");
  const types = ["card_rejected", "illegal", "second_card", "ambiguous", "hint", "undo", "win", "penalty", "time_limit",
                 "resolved", "missing", "discard"];
  const now = st.history.length;
  const shown = st.decisions.filter((d) => types.includes(d.type) &&
    // Hints are for the people at the table: a bot's hint is not said.
    !(d.type === "hint" && (isBot(st, d.seat) || app.role === "spectator")));
  const items = [];
  for (const d of shown) {
    const n = moveNoAt(st, d.t);
    if (n < now - 1 && d.type !== "win") continue;  // older than the last move: in the move list
    // Numbered by the move being played when it was said (the win: the move that won).
    items.push(messageItem(st, d, d.type === "win" ? n : n + 1));
  }
  // The partner exchange of this deal (reiseditie): the receiver is told the card.
  const lastDeal = st.log.map((e) => e.kind).lastIndexOf("deal");
  for (const e of st.log.slice(Math.max(0, lastDeal))) {
    if (e.kind !== "exchange") continue;
    const secret = st.exchange_cards && st.exchange_cards[String(e.i)];
    const toMe = secret && e.to === mySeat(st);
    const text = toMe ? `${t("partner_gave")} ${seatName(e.seat)}: ${cardLabel(secret.card)}` : tx(e.text);
    items.push(el("li", { class: "exchange", "data-kind": "exchange", text: `#${e.n + 1} · ${text}` }));
  }
  log.replaceChildren(...items.slice(-7).reverse());
  if (app.localLog) log.prepend(el("li", { class: "err", text: app.localLog }));
  if (st.coach) log.prepend(el("li", { class: "coach", "data-coach": st.coach.better,
                                       text: `#${st.coach.n} · ${t("coach")}: ${tx(st.coach.text)}` }));
}

/** @param {PageState} st @param {Decision} d @param {number} n */
function messageItem(st, d, n) {
  let name = UI[app.lang].decision[d.type] || d.type;
  let detail = d.reason ? tx(d.reason) : "";
  if (d.type === "undo") {  // in the move list's words for it (actions.py), not notation
    const said = [...st.log].reverse().find((e) => e.kind === "undo" && e.move === d.move);
    detail = said ? tx(said.text) : d.move || detail;
  }
  if (d.type === "hint") detail = d.reason ? tx(d.reason) : "";  // in words, never notation
  if (d.type === "discard") {
    if (d.ok) detail = seatName(d.seat);
    else name = t("discard_refused");
  }
  if (d.type === "win") detail = winText(d.seats || st.winner || []);
  if (d.type === "penalty" && d.ok === false) detail = `${seatName(d.seat)}: ${detail}`;
  // The move a refused "show hand" wanted (d.must_play) is never said: it would give the
  // move away below hints "full", and in notation at any level; the hint LEDs show it.
  if (d.card && d.type === "card_rejected") detail = `${cardLabel(d.card)}: ${detail}`;
  const text = !detail ? name
    : detail.toLowerCase().startsWith(name.toLowerCase()) ? detail[0].toUpperCase() + detail.slice(1)
    : `${name}: ${detail}`;
  return el("li", { class: d.ok === false || ["illegal", "second_card", "card_rejected", "missing"].includes(d.type) ? "err" : "",
                    "data-kind": d.type, "data-n": String(n), text: `#${n} · ${text}` });
}

// -- the move list: every action (defects 2, 15) --------------------------------------------

/** @param {PageState} st */
function renderMoves(st) {
  const ol = byId("moves");
  const key = `${st.game}/${st.log.length}/${app.lang}/${Object.keys(st.exchange_cards || {}).length}/${(st.undone || []).length}/${remarksKey(st)}`;
  if (ol.dataset.key === key) return;
  ol.dataset.key = key;
  const atEnd = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 8;
  ol.replaceChildren(...withRemarks(st, st.log.map((e) => logItem(st, e))));
  if (atEnd || !app.reviewing) ol.scrollTop = ol.scrollHeight;
}

/** @param {PageState} st @param {LogEntry} e */
function logItem(st, e) {
  const secret = st.exchange_cards && st.exchange_cards[String(e.i)];
  const text = tx(secret ? secret.text : e.text);
  if (e.kind === "deal") return el("li", { class: "sep", "data-kind": "deal", text });
  if (e.kind === "move" && (st.undone || []).includes(e.i)) {
    // Taken back: struck through, without its number (the move played again has it).
    return el("li", { class: "move undone", "data-move": e.move, "data-i": String(e.i),
                      "aria-label": `${t("taken_back")}: ${text}` },
      el("span", { class: "n", text: "" }), el("s", {}, el("code", { text: e.move }), " ", el("span", { class: "words", text })));
  }
  if (e.kind === "move") {
    return el("li", { class: "move", "data-move": e.move, "data-n": String(e.n), "data-i": String(e.i),
                      tabindex: "0", role: "button", "aria-label": `${t("move_no")} ${e.n}: ${text}` },
      el("span", { class: "n", text: `${e.n}.` }), el("code", { text: e.move }), " ",
      el("span", { class: "words", text }),
      ...(e.overruled ? [" — ", el("em", { class: "overruled", text: `${t("overruled")}: ${e.overruled}` })] : []));
  }
  const attrs = { class: `action kind-${e.kind}`, "data-kind": e.kind, "data-i": String(e.i) };
  if (e.kind === "illegal") Object.assign(attrs, { tabindex: "0", role: "button" });
  return el("li", attrs, el("span", { class: "n", text: "" }), el("span", { class: "words", text }));
}

Object.assign(UI.nl, {
  your_turn: "Jij bent aan zet", person: "mens", on: "aan", off: "uit",
  team: "team", team_with: "team met", card: "kaart", cards: "kaarten", dealer: "deler",
  to_play: "aan zet", sits_out: "geen kaarten meer deze ronde", winner: "winnaar", players_title: "Spelers",
  partner_gave: "Je partner gaf je een kaart:", discard_refused: "Hand tonen geweigerd",
  discard_playable: "Je kunt een kaart spelen: je hand laten zien mag pas als geen enkele kaart kan.",
  for_example: "bijvoorbeeld", move_no: "zet", sound_on: "Geluid en stem: aan",
  sound_off: "Geluid en stem: uit",
});
Object.assign(UI.en, {
  your_turn: "Your turn", person: "person", on: "on", off: "off",
  team: "team", team_with: "team with", card: "card", cards: "cards", dealer: "dealer",
  to_play: "to play", sits_out: "no cards left this round", winner: "winner", players_title: "Players",
  partner_gave: "Your partner gave you a card:", discard_refused: "Show hand refused",
  discard_playable: "A card can be played: you may show your hand only when none can.",
  for_example: "for example", move_no: "move", sound_on: "Sound and voice: on",
  sound_off: "Sound and voice: off",
});
