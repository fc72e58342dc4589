// keezbord web page, the side of the page: status, card tray, player panels, messages,
// the move list and the controls (app.js is the glue: connection, state, language;
// board.js the board; review.js the review of past moves). Protocol: docs/web.md.
"use strict";

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
    hand.cards.forEach((c) => {
      const playable = hand.playable.includes(c) && st.hints !== "off";
      const b = el("button", { type: "button", class: "card" + (playable ? " playable" : "") +
                                  (st.card === c && hand.active ? " tapped" : ""),
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
  for (const e of document.querySelectorAll(".sim-only")) e.hidden = app.mode !== "sim";
  renderRole(st);
}

// The page's role (the token in its link, docs/web.md): a badge in the header, and what the
// role may not use is disabled (the referee's controls) or hidden (a hand: spectators) with
// the reason next to it.
function renderRole(st) {
  const role = app.role;
  const badge = document.getElementById("role");
  badge.dataset.role = role;
  badge.textContent = t(`role_${role}`);
  badge.title = t(`role_${role}_says`);
  const note = document.getElementById("token-note");
  note.hidden = role === "referee";
  note.textContent = role === "player" ? t("need_referee") : t("need_token");
  if (role === "spectator") {
    document.getElementById("tray").hidden = true;
    document.getElementById("watch-note").hidden = false;
  } else {
    document.getElementById("watch-note").hidden = true;
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
}
