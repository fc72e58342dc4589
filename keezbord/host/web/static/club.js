// The club banner on a board's page (docs/club.md): at a club evening, who plays at this
// table and the round's time left, from page_state's "club" (null when there is no club).
"use strict";
(function () {
  const app = /** @type {App} */ (window.keezbord);  // the board's page (app.js); else none
  if (!app) return;
  const T = {
    nl: { table: "Tafel", round: "Ronde", left: "nog", up: "tijd om", wait: "wacht op de start", none: "deze ronde geen partij aan deze tafel", off: "geen verbinding met het toernooi" },
    en: { table: "Table", round: "Round", left: "left", up: "time is up", wait: "waiting for the start", none: "no game at this table this round", off: "not connected to the tournament" },
  };
  /** @type {ClubBanner | null} */
  let club = null;
  let skew = 0;
  /** @type {HTMLElement | null} */
  let banner = null;

  /** @param {ClubSide | null} side */
  function team(side) {
    if (!side) return "";
    const players = side.players && side.players.length ? ` (${side.players.join(", ")})` : "";
    return side.name + players;
  }

  function draw() {
    if (!club) { if (banner) banner.hidden = true; return; }
    if (!banner) {
      banner = document.createElement("section");
      banner.id = "club";
      banner.setAttribute("aria-live", "polite");
      banner.style.cssText = "padding:.4em .8em;background:#1d2b22;color:#f4f1e8;font-size:1.2em;display:flex;gap:1em;flex-wrap:wrap";
      document.body.insertBefore(banner, document.querySelector("main"));
    }
    banner.hidden = false;
    const w = T[app.lang] || T.nl;
    let time = club.round && !club.home ? w.none : w.wait;
    if (club.ends) {
      const left = Math.max(0, Math.round(club.ends - (Date.now() / 1000 + skew)));
      time = left > 0 ? `${w.left} ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : w.up;
    }
    const who = club.home ? `${team(club.home)} – ${team(club.away)}` : "";
    banner.innerHTML = "";
    for (const [cls, text] of [["club-table", `${w.table} ${club.board}` + (club.round ? ` · ${w.round} ${club.round}` : "")],
                               ["club-teams", who], ["club-time", time], ["club-conn", club.connected ? "" : w.off]]) {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = text;
      banner.append(span);
    }
  }

  app.onState.push((st) => {
    club = st.club || null;
    if (club) skew = club.now - Date.now() / 1000;
    draw();
  });
  setInterval(draw, 1000);
})();
