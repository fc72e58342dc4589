// The club banner on a board's page (docs/club.md): at a club evening, who plays at this
// table and the round's time left, from page_state's "club" (null when there is no club).
"use strict";
(function () {
  const app = /** @type {App} */ (window.keezbord);  // the board's page (app.js); else none
  if (!app) return;
  Object.assign(UI.nl, { club_table: "Tafel", club_round: "Ronde", club_left: "nog", club_up: "tijd om", club_wait: "wacht op de start", club_none: "deze ronde geen partij aan deze tafel", club_off: "geen verbinding met het toernooi" });
  Object.assign(UI.en, { club_table: "Table", club_round: "Round", club_left: "left", club_up: "time is up", club_wait: "waiting for the start", club_none: "no game at this table this round", club_off: "not connected to the tournament" });
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
    let time = club.round && !club.home ? t("club_none") : t("club_wait");
    if (club.ends) {
      const left = Math.max(0, Math.round(club.ends - (Date.now() / 1000 + skew)));
      time = left > 0 ? `${t("club_left")} ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : t("club_up");
    }
    const who = club.home ? `${team(club.home)} – ${team(club.away)}` : "";
    banner.innerHTML = "";
    for (const [cls, text] of [["club-table", `${t("club_table")} ${club.board}` + (club.round ? ` · ${t("club_round")} ${club.round}` : "")],
                               ["club-teams", who], ["club-time", time], ["club-conn", club.connected ? "" : t("club_off")]]) {
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
