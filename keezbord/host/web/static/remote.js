// Seats far away (issue 28, docs/remote.md), from page_state's "remote" part:
// - a remote seat's own link ("remote" role): its hand, the moves of a card, the move it
//   chooses (the board lights it for the people at the table), showing its hand when no
//   card can be played, the partner exchange; then "being carried out" until the referee
//   accepts the move;
// - every page: where each seat plays, the move lit for the table, why the table waits,
//   the linked board's state;
// - the referee's link: the links (the players', each remote seat's: made new on a click,
//   the old one stops at once), a seat given away or taken back, a new game with remote
//   seats.
// Messages: moves, play, discard, give (the seat's own), links, renew, seat_at, new_game.
"use strict";
(function () {
  const app = /** @type {App} */ (window.keezbord);  // the board's page (app.js)
  if (!app) return;
  const T = {
    nl: {
      role_remote: "Op afstand", role_remote_says: "Deze link speelt één stoel, van ver weg: jouw kaarten, jouw zetten; de mensen aan het bord zetten ze uit.",
      yours: "Jouw stoel", wait_turn: "Wacht op je beurt.", choose_card: "Kies een kaart:", choose_move: "Kies je zet:",
      carrying: "Aan het bord wordt je zet uitgevoerd:", no_play: "Geen kaart kan: laat je hand zien",
      give: "Kies een kaart voor je partner:", back: "andere kaart",
      lit: "Zet voor de tafel, volg de lampjes:", where: "Waar elke stoel speelt",
      table: "aan dit bord", remote: "op afstand", at_board: "aan bord",
      link_ok: "in de pas met", link_wait: "wacht op", link_off: "geen verbinding met de broker",
      peer_off: "het andere bord is offline", host: "gastheer van het spel", broken: "niet meer in de pas:",
      links: "Links", show_links: "Toon de links", players_link: "spelers (aan tafel)", new_link: "nieuwe link",
      seat_remote: "speelt op afstand", seat_table: "terug aan tafel", give_away: "op afstand laten spelen",
      new_remote: "Nieuw spel met stoelen op afstand", start: "Start", seats_far: "Stoelen op afstand (bv. 1,3)",
      revoked: "Deze link is ingetrokken: je kijkt nu alleen mee.",
    },
    en: {
      role_remote: "Remote", role_remote_says: "This link plays one seat from far away: your cards, your moves; the people at the board carry them out.",
      yours: "Your seat", wait_turn: "Wait for your turn.", choose_card: "Choose a card:", choose_move: "Choose your move:",
      carrying: "Your move is being carried out at the board:", no_play: "No card can be played: show your hand",
      give: "Choose a card for your partner:", back: "another card",
      lit: "Move for the table, follow the lights:", where: "Where each seat plays",
      table: "at this board", remote: "remotely", at_board: "at board",
      link_ok: "in step with", link_wait: "waiting for", link_off: "not connected to the broker",
      peer_off: "the other board is offline", host: "host of the game", broken: "out of step:",
      links: "Links", show_links: "Show the links", players_link: "players (at the table)", new_link: "new link",
      seat_remote: "plays remotely", seat_table: "back to the table", give_away: "let play remotely",
      new_remote: "New game with remote seats", start: "Start", seats_far: "Remote seats (e.g. 1,3)",
      revoked: "This link was revoked: you are only watching now.",
    },
  };
  Object.assign(UI.nl, { role_remote: T.nl.role_remote, role_remote_says: T.nl.role_remote_says });
  Object.assign(UI.en, { role_remote: T.en.role_remote, role_remote_says: T.en.role_remote_says });
  const w = () => T[app.lang] || T.nl;
  /** @param {Bilingual | string | null | undefined} x */
  const txt = (x) => (x == null ? "" : typeof x === "string" ? x : x[app.lang]);
  /** @type {HTMLElement | null} */
  let box = null;
  /** @type {HTMLElement | null} */
  let info = null;
  /** @type {HTMLElement | null} */
  let links = null;
  /** @type {string | null} */
  let chosen = null;
  /** @type {RemoteMove[]} */
  let moves = [];
  /** @type {ServerMessage | null} */
  let shownLinks = null;
  let seq = 1000000;

  /** This script's own messages: the roles are the server's to check.
   * @param {PageRequest} msg */
  function ask(msg) {
    if (!app.ws || app.ws.readyState !== 1) return;
    app.ws.send(JSON.stringify({ ...msg, id: ++seq }));
  }
  /** @param {string} tag @param {Record<string, string>} attrs @param {(Node | string)[]} kids */
  function node(tag, attrs = {}, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "text") e.textContent = v; else if (k === "class") e.className = v; else e.setAttribute(k, v);
    }
    e.append(...kids);
    return e;
  }
  /** @param {string} text */
  function button(text, attrs = {}) {
    return /** @type {HTMLButtonElement} */ (node("button", { type: "button", text, ...attrs }));
  }
  /** @param {PageState} st @param {number} seat */
  function seatLabel(st, seat) {
    const p = st.players[seat];
    return p ? `${p.colour.symbol} ${p.colour[app.lang]}` : String(seat);
  }
  /** @returns {[HTMLElement, HTMLElement, HTMLElement]} */
  function place() {
    if (box && info && links) return [box, info, links];
    const aside = /** @type {HTMLElement} */ (document.querySelector("aside"));
    box = node("section", { id: "remote", "aria-live": "polite" });
    info = node("section", { id: "remote-info", "aria-live": "polite" });
    links = node("section", { id: "remote-links" });
    aside.insertBefore(box, document.getElementById("tray"));
    aside.insertBefore(info, document.getElementById("players-box"));
    document.getElementById("controls")?.append(links);
    return [box, info, links];
  }

  // -- a remote seat's own panel ------------------------------------------------------

  /** @param {HTMLElement} box @param {PageState} st */
  function renderSeat(box, st) {
    const r = st.remote, hand = st.hand;
    box.hidden = app.role !== "remote" || !hand;
    if (!hand || box.hidden) return;
    const tray = document.getElementById("tray");
    if (tray) tray.hidden = true;  // the table's tray is not this link's
    box.replaceChildren(node("h2", { text: `${w().yours}: ${seatLabel(st, hand.seat)}` }));
    const lit = r && r.lit;
    if (lit && lit.seat === hand.seat) {
      box.append(node("p", { class: "carrying", text: `${w().carrying} ${txt(lit.text)}` }));
      chosen = null;
      return;
    }
    if (hand.giving) {
      box.append(node("p", { text: w().give }), cardRow(hand.cards, (c) => ask({ type: "give", card: c })));
      return;
    }
    if (!hand.active) {
      box.append(node("p", { text: w().wait_turn }), cardRow(hand.cards, null));
      chosen = null;
      return;
    }
    if (!hand.playable.length) {
      const b = button(w().no_play, { id: "remote-discard" });
      b.addEventListener("click", () => ask({ type: "discard" }));
      box.append(cardRow(hand.cards, null), b);
      return;
    }
    if (chosen === null || !hand.cards.includes(chosen)) {
      const pick = (/** @type {string} */ c) => { chosen = c; moves = []; ask({ type: "moves", card: c }); render(); };
      box.append(node("p", { text: w().choose_card }), cardRow(hand.cards, pick, hand.playable));
      return;
    }
    const back = button(`${chosen} · ${w().back}`, { class: "back" });
    back.addEventListener("click", () => { chosen = null; render(); });
    const list = node("ol", { id: "remote-moves" });
    for (const m of moves) {
      const b = button(txt(m.text), { class: "move", "data-move": m.move });
      b.addEventListener("click", () => ask({ type: "play", move: m.move }));
      b.addEventListener("mouseenter", () => mark(m));
      b.addEventListener("focus", () => mark(m));
      list.append(node("li", {}, b));
    }
    box.append(back, node("p", { text: w().choose_move }), list);
  }
  /** @param {string[]} cards @param {((c: string) => void) | null} onPick @param {string[] | null} playable */
  function cardRow(cards, onPick, playable = null) {
    const row = node("div", { class: "cards", role: "group" });
    for (const c of cards) {
      const b = button(c, { class: "card", "data-card": c });
      b.disabled = !onPick || (playable !== null && !playable.includes(c));
      if (onPick) b.addEventListener("click", () => onPick(c));
      row.append(b);
    }
    return row;
  }
  /** The move's holes on the drawing, as a remote player thinks it over.
   * @param {RemoteMove} m */
  function mark(m) {
    for (const e of document.querySelectorAll(".hole.remote-from, .hole.remote-to")) e.classList.remove("remote-from", "remote-to");
    for (const h of m.from) document.querySelector(`.hole[data-hole="${h}"]`)?.classList.add("remote-from");
    for (const h of m.to) document.querySelector(`.hole[data-hole="${h}"]`)?.classList.add("remote-to");
  }

  // -- every page: where the seats play, the lit move, the link --------------------------

  /** @param {HTMLElement} info @param {PageState} st */
  function renderInfo(info, st) {
    const r = st.remote;
    info.hidden = !r;
    if (!r) return;
    const ul = node("ul", { id: "remote-where" });
    r.seats.forEach((where, seat) => {
      const says = where === "table" ? (r.link ? `${w().at_board} ${r.link.board}` : w().table)
                 : where === "remote" ? w().remote : `${w().at_board} ${where}`;
      ul.append(node("li", { "data-seat": String(seat), "data-where": where, text: `${seatLabel(st, seat)}: ${says}` }));
    });
    info.replaceChildren(node("h2", { text: w().where }), ul);
    if (r.lit) info.append(node("p", { id: "remote-lit", class: "lit", text: `${w().lit} ${seatLabel(st, r.lit.seat)} · ${txt(r.lit.text)}` }));
    if (r.hold) info.append(node("p", { id: "remote-hold", class: "hold", text: txt(r.hold) }));
    const l = r.link;
    if (l) {
      let says = l.in_step ? `${w().link_ok} ${l.peer}` : `${w().link_wait} ${l.peer}`;
      if (!l.connected) says = w().link_off;
      else if (!l.peer_online) says = w().peer_off;
      if (l.broken) says = `${w().broken} ${l.broken}`;
      info.append(node("p", { id: "remote-link", "data-in-step": String(l.in_step), text: `${says} (${w().host}: ${l.host})` }));
    }
  }

  // -- the referee's links --------------------------------------------------------------

  /** @param {HTMLElement} links @param {PageState} st */
  function renderLinks(links, st) {
    links.hidden = app.role !== "referee" || app.mode !== "run";
    if (links.hidden) return;
    links.replaceChildren(node("h3", { text: w().links }));
    const show = button(w().show_links, { id: "show-links" });
    show.addEventListener("click", () => ask({ type: "links" }));
    links.append(show);
    const given = shownLinks;
    if (given) {
      const base = given.base || `${location.origin}/`;
      const ul = node("ul", { id: "link-list" });
      /** @param {string} label @param {string} token @param {PageRequest} renew @param {HTMLElement[]} extra */
      const row = (label, token, renew, extra = []) => {
        const field = node("input", { readonly: "", value: `${base}?token=${token}`, size: "40", "aria-label": label });
        const b = button(w().new_link, { class: "renew" });
        b.addEventListener("click", () => ask(renew));
        ul.append(node("li", {}, node("span", { text: `${label}: ` }), field, b, ...extra));
      };
      row(w().players_link, given.player || "", { type: "renew", link: "player" });
      for (const [seat, token] of Object.entries(given.seats || {})) {
        const back = button(w().seat_table, { class: "to-table" });
        back.addEventListener("click", () => ask({ type: "seat_at", seat: Number(seat), where: "table" }));
        row(`${seatLabel(st, Number(seat))} ${w().seat_remote}`, token, { type: "renew", link: "seat", seat: Number(seat) }, [back]);
      }
      links.append(ul);
      const remote = st.remote;
      if (remote && !remote.link) {
        remote.seats.forEach((where, seat) => {
          if (where !== "table") return;
          const b = button(`${seatLabel(st, seat)}: ${w().give_away}`, { class: "give-away", "data-seat": String(seat) });
          b.addEventListener("click", () => ask({ type: "seat_at", seat, where: "remote" }));
          links.append(b);
        });
      }
    }
    if (!st.remote || !st.remote.link) {
      const f = node("form", { id: "new-remote" });
      const seats = /** @type {HTMLInputElement} */ (node("input", { name: "remote", placeholder: "1,3", size: "6", "aria-label": w().seats_far }));
      f.append(node("label", { text: `${w().new_remote}: ` }, seats), node("button", { type: "submit", text: w().start }));
      f.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const far = seats.value.split(",").map((x) => x.trim()).filter((x) => x !== "").map(Number);
        ask({ type: "new_game", remote: far });
      });
      links.append(f);
    }
  }

  function render() {
    const st = app.state;
    if (!st) return;
    const [b, i, l] = place();
    renderSeat(b, st);
    renderInfo(i, st);
    renderLinks(l, st);
  }

  app.onState.push(render);
  app.onMessage.push((msg) => {
    if (msg.type === "hello" && app.token && msg.role === "spectator") {
      // A link that gives nothing (revoked, mistyped): dropped, so the page does not
      // keep trying it (failed tries are rate-limited) and simply watches.
      app.token = null;
      sessionStorage.removeItem("keezbord.token");
    } else if (msg.type === "moves" && msg.card === chosen) {
      moves = msg.moves || [];
      render();
    } else if (msg.type === "links") {
      shownLinks = msg;
      render();
    } else if (msg.type === "revoked") {
      app.token = null;
      sessionStorage.removeItem("keezbord.token");
      document.getElementById("log")?.prepend(node("li", { class: "err", text: w().revoked }));
    }
  });
  document.addEventListener("DOMContentLoaded", () => {
    // The token stays in this tab (sessionStorage), not in the address bar, the history
    // or a screenshot of the address.
    const q = new URLSearchParams(location.search);
    if (q.has("token")) {
      q.delete("token");
      history.replaceState(null, "", location.pathname + (q.toString() ? `?${q}` : ""));
    }
  });
})();
