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
  Object.assign(UI.nl, {
    role_remote: "Op afstand", role_remote_says: "Deze link speelt één stoel, van ver weg: jouw kaarten, jouw zetten; de mensen aan het bord zetten ze uit.",
    remote_yours: "Jouw stoel", remote_wait_turn: "Wacht op je beurt.", remote_choose_card: "Kies een kaart:", remote_choose_move: "Kies je zet:",
    remote_carrying: "Aan het bord wordt je zet uitgevoerd:", remote_no_play: "Geen kaart kan: laat je hand zien",
    remote_give: "Kies een kaart voor je partner:", remote_back: "andere kaart",
    remote_lit: "Zet voor de tafel, volg de lampjes:", remote_where: "Waar elke stoel speelt",
    remote_table: "aan dit bord", remote_away: "op afstand", remote_at_board: "aan bord",
    remote_link_ok: "in de pas met", remote_link_wait: "wacht op", remote_link_off: "geen verbinding met de broker",
    remote_peer_off: "het andere bord is offline", remote_host: "gastheer van het spel", remote_broken: "niet meer in de pas:",
    remote_links: "Links", remote_show_links: "Toon de links", remote_players_link: "spelers (aan tafel)", remote_new_link: "nieuwe link",
    remote_seat_remote: "speelt op afstand", remote_seat_table: "terug aan tafel", remote_give_away: "op afstand laten spelen",
    remote_new_remote: "Nieuw spel met stoelen op afstand", remote_start: "Start", remote_seats_far: "Stoelen op afstand (bv. 1,3)",
    remote_revoked: "Deze link is ingetrokken: je kijkt nu alleen mee.",
  });
  Object.assign(UI.en, {
    role_remote: "Remote", role_remote_says: "This link plays one seat from far away: your cards, your moves; the people at the board carry them out.",
    remote_yours: "Your seat", remote_wait_turn: "Wait for your turn.", remote_choose_card: "Choose a card:", remote_choose_move: "Choose your move:",
    remote_carrying: "Your move is being carried out at the board:", remote_no_play: "No card can be played: show your hand",
    remote_give: "Choose a card for your partner:", remote_back: "another card",
    remote_lit: "Move for the table, follow the lights:", remote_where: "Where each seat plays",
    remote_table: "at this board", remote_away: "remotely", remote_at_board: "at board",
    remote_link_ok: "in step with", remote_link_wait: "waiting for", remote_link_off: "not connected to the broker",
    remote_peer_off: "the other board is offline", remote_host: "host of the game", remote_broken: "out of step:",
    remote_links: "Links", remote_show_links: "Show the links", remote_players_link: "players (at the table)", remote_new_link: "new link",
    remote_seat_remote: "plays remotely", remote_seat_table: "back to the table", remote_give_away: "let play remotely",
    remote_new_remote: "New game with remote seats", remote_start: "Start", remote_seats_far: "Remote seats (e.g. 1,3)",
    remote_revoked: "This link was revoked: you are only watching now.",
  });
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
    box.replaceChildren(node("h2", { text: `${t("remote_yours")}: ${seatName(hand.seat)}` }));
    const lit = r && r.lit;
    if (lit && lit.seat === hand.seat) {
      box.append(node("p", { class: "carrying", text: `${t("remote_carrying")} ${tx(lit.text)}` }));
      chosen = null;
      return;
    }
    if (hand.giving) {
      box.append(node("p", { text: t("remote_give") }), cardRow(hand.cards, (c) => ask({ type: "give", card: c })));
      return;
    }
    if (!hand.active) {
      box.append(node("p", { text: t("remote_wait_turn") }), cardRow(hand.cards, null));
      chosen = null;
      return;
    }
    if (!hand.playable.length) {
      const b = button(t("remote_no_play"), { id: "remote-discard" });
      b.addEventListener("click", () => ask({ type: "discard" }));
      box.append(cardRow(hand.cards, null), b);
      return;
    }
    if (chosen === null || !hand.cards.includes(chosen)) {
      const pick = (/** @type {string} */ c) => { chosen = c; moves = []; ask({ type: "moves", card: c }); render(); };
      box.append(node("p", { text: t("remote_choose_card") }), cardRow(hand.cards, pick, hand.playable));
      return;
    }
    const back = button(`${cardLabel(chosen)} · ${t("remote_back")}`, { class: "back" });
    back.addEventListener("click", () => { chosen = null; render(); });
    const list = node("ol", { id: "remote-moves" });
    for (const m of moves) {
      const b = button(tx(m.text), { class: "move", "data-move": m.move });
      b.addEventListener("click", () => ask({ type: "play", move: m.move }));
      b.addEventListener("mouseenter", () => mark(m));
      b.addEventListener("focus", () => mark(m));
      list.append(node("li", {}, b));
    }
    box.append(back, node("p", { text: t("remote_choose_move") }), list);
  }
  /** @param {string[]} cards @param {((c: string) => void) | null} onPick @param {string[] | null} playable */
  function cardRow(cards, onPick, playable = null) {
    const row = node("div", { class: "cards", role: "group" });
    for (const c of cards) {
      const b = button(cardLabel(c), { class: "card", "data-card": c });
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
      const says = where === "table" ? (r.link ? `${t("remote_at_board")} ${r.link.board}` : t("remote_table"))
                 : where === "remote" ? t("remote_away") : `${t("remote_at_board")} ${where}`;
      ul.append(node("li", { "data-seat": String(seat), "data-where": where, text: `${seatName(seat)}: ${says}` }));
    });
    info.replaceChildren(node("h2", { text: t("remote_where") }), ul);
    if (r.lit) info.append(node("p", { id: "remote-lit", class: "lit", text: `${t("remote_lit")} ${seatName(r.lit.seat)} · ${tx(r.lit.text)}` }));
    if (r.hold) info.append(node("p", { id: "remote-hold", class: "hold", text: tx(r.hold) }));
    const l = r.link;
    if (l) {
      let says = l.in_step ? `${t("remote_link_ok")} ${l.peer}` : `${t("remote_link_wait")} ${l.peer}`;
      if (!l.connected) says = t("remote_link_off");
      else if (!l.peer_online) says = t("remote_peer_off");
      if (l.broken) says = `${t("remote_broken")} ${l.broken}`;
      info.append(node("p", { id: "remote-link", "data-in-step": String(l.in_step), text: `${says} (${t("remote_host")}: ${l.host})` }));
    }
  }

  // -- the referee's links --------------------------------------------------------------

  /** @param {HTMLElement} links @param {PageState} st */
  function renderLinks(links, st) {
    links.hidden = app.role !== "referee" || app.mode !== "run";
    if (links.hidden) return;
    links.replaceChildren(node("h3", { text: t("remote_links") }));
    const show = button(t("remote_show_links"), { id: "show-links" });
    show.addEventListener("click", () => ask({ type: "links" }));
    links.append(show);
    const given = shownLinks;
    if (given) {
      const base = given.base || `${location.origin}/`;
      const ul = node("ul", { id: "link-list" });
      /** @param {string} label @param {string} token @param {PageRequest} renew @param {HTMLElement[]} extra */
      const row = (label, token, renew, extra = []) => {
        const field = node("input", { readonly: "", value: `${base}?token=${token}`, size: "40", "aria-label": label });
        const b = button(t("remote_new_link"), { class: "renew" });
        b.addEventListener("click", () => ask(renew));
        ul.append(node("li", {}, node("span", { text: `${label}: ` }), field, b, ...extra));
      };
      row(t("remote_players_link"), given.player || "", { type: "renew", link: "player" });
      for (const [seat, token] of Object.entries(given.seats || {})) {
        const back = button(t("remote_seat_table"), { class: "to-table" });
        back.addEventListener("click", () => ask({ type: "seat_at", seat: Number(seat), where: "table" }));
        row(`${seatName(Number(seat))} ${t("remote_seat_remote")}`, token, { type: "renew", link: "seat", seat: Number(seat) }, [back]);
      }
      links.append(ul);
      const remote = st.remote;
      if (remote && !remote.link) {
        remote.seats.forEach((where, seat) => {
          if (where !== "table") return;
          const b = button(`${seatName(seat)}: ${t("remote_give_away")}`, { class: "give-away", "data-seat": String(seat) });
          b.addEventListener("click", () => ask({ type: "seat_at", seat, where: "remote" }));
          links.append(b);
        });
      }
    }
    if (!st.remote || !st.remote.link) {
      const f = node("form", { id: "new-remote" });
      const seats = /** @type {HTMLInputElement} */ (node("input", { name: "remote", placeholder: "1,3", size: "6", "aria-label": t("remote_seats_far") }));
      f.append(node("label", { text: `${t("remote_new_remote")}: ` }, seats), node("button", { type: "submit", text: t("remote_start") }));
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
      document.getElementById("log")?.prepend(node("li", { class: "err", text: t("remote_revoked") }));
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
