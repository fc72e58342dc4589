// The club scoreboard: redrawn from each view the tournament pushes over /ws.
"use strict";
(function () {
  /** @type {Record<string, { nl: string, en: string }>} */
  const T = {
    tables: { nl: "Tafels", en: "Tables" },
    standings: { nl: "Stand", en: "Standings" },
    round: { nl: "Ronde", en: "Round" },
    board: { nl: "Bord", en: "Board" },
    home: { nl: "Thuis", en: "Home" },
    away: { nl: "Uit", en: "Away" },
    pawns: { nl: "Thuis-pionnen", en: "Pawns home" },
    moves: { nl: "Zetten", en: "Moves" },
    result: { nl: "Uitslag", en: "Result" },
    team: { nl: "Team", en: "Team" },
    played: { nl: "Gesp.", en: "Played" },
    won: { nl: "Gew.", en: "Won" },
    points: { nl: "Punten", en: "Points" },
    waiting: { nl: "wacht", en: "waiting" },
    started: { nl: "bezig", en: "playing" },
    progress: { nl: "bezig", en: "playing" },
    penalty: { nl: "straf", en: "penalty" },
    time_limit: { nl: "tijd om", en: "time up" },
    done: { nl: "klaar", en: "done" },
    bye: { nl: "vrij", en: "bye" },
    timeup: { nl: "tijd om", en: "time up" },
    notstarted: { nl: "nog niet gestart", en: "not started" },
    late: { nl: "Nog niet binnen", en: "Not in yet" },
    checked: { nl: "nagespeeld: klopt", en: "replayed: correct" },
    offline: { nl: "verbinding weg, opnieuw verbinden…", en: "connection lost, reconnecting…" },
  };
  /** @type {"nl" | "en"} */
  let lang = new URLSearchParams(location.search).get("lang") === "en" ? "en" : "nl";
  /** @type {ClubView | null} */
  let view = null;
  let skew = 0; // server clock minus ours, so the projector's clock agrees with the boards'
  const seen = new Map(); // match -> its state when last drawn (to flash fresh results)
  /** @type {(k: string) => string} */
  const t = (k) => (T[k] ? T[k][lang] : k);
  // The page's element of that id (scoreboard.html has each one): typed as there.
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const table = (/** @type {string} */ id) => /** @type {HTMLTableElement} */ ($(id));
  /** @type {(s: unknown) => string} */
  const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (c) => /** @type {Record<string, string>} */ ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

  /** @param {HTMLTableElement} table @param {[string, number?][]} cols */
  function head(table, cols) {
    /** @type {HTMLTableSectionElement} */ (table.tHead).innerHTML = "<tr>" + cols.map(([k, num]) => `<th class="${num ? "num" : ""}">${t(k)}</th>`).join("") + "</tr>";
  }

  function draw() {
    document.documentElement.lang = lang;
    $("lang").textContent = lang === "nl" ? "EN" : "NL";
    /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-t]")).forEach((el) => {
      el.textContent = t(/** @type {string} */ (el.dataset.t));
    });
    if (!view) return;
    $("round").textContent = view.round ? `${t("round")} ${view.round}` : "";
    head(table("tables"), [["board"], ["home"], ["away"], ["pawns", 1], ["moves", 1], ["result", 1]]);
    table("tables").tBodies[0].innerHTML = view.tables.map((m) => {
      const fresh = m.state === "done" && seen.has(m.match) && seen.get(m.match) !== "done";
      seen.set(m.match, m.state);
      const pawns = m.pawns ? `${m.pawns[0]} – ${m.pawns[1]}` : "";
      let res = t(m.away === null ? "bye" : m.state);
      if (m.points) res = `${m.points[0]} – ${m.points[1]}` + (m.timed_out ? ` (${t("timeup")})` : "") + (m.verified ? (m.verified === "ok" ? " ✓" : " ⚠") : "");
      return `<tr class="${esc(m.state)}${fresh ? " fresh" : ""}" data-match="${esc(m.match)}"><td>${esc(m.board || "")}</td><td>${esc(m.home)}</td><td>${esc(m.away || "")}</td>` +
        `<td class="num">${esc(pawns)}</td><td class="num">${esc(m.moves)}</td><td class="num result">${esc(res)}</td></tr>`;
    }).join("");
    $("late").textContent = view.late.length ? `${t("late")}: ` + view.late.map((l) => `${t("round")} ${l.round} ${l.board}`).join(", ") : "";
    head(table("standings"), [["#", 1], ["team"], ["played", 1], ["won", 1], ["pawns", 1], ["points", 1]]);
    table("standings").tBodies[0].innerHTML = view.standings.map((r) =>
      `<tr><td class="num">${r.rank}</td><td>${esc(r.team)}</td><td class="num">${r.played}</td><td class="num">${r.won}</td><td class="num">${r.pawns}</td><td class="num"><b>${r.points}</b></td></tr>`).join("");
    tick();
  }

  function tick() {
    const clock = $("clock");
    if (!view || !view.round) { clock.textContent = ""; return; }
    if (!view.ends) { clock.textContent = t("notstarted"); clock.classList.remove("over"); return; }
    const left = Math.max(0, Math.round(view.ends - (Date.now() / 1000 + skew)));
    clock.textContent = left > 0 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : t("timeup");
    clock.classList.toggle("over", left === 0);
  }

  function connect() {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    ws.onmessage = (ev) => {
      view = /** @type {ClubView} */ (JSON.parse(ev.data));
      skew = view.now - Date.now() / 1000;
      $("status").textContent = "";
      draw();
    };
    ws.onclose = () => { $("status").textContent = t("offline"); setTimeout(connect, 1000); };
  }

  $("lang").onclick = () => { lang = lang === "nl" ? "en" : "nl"; draw(); };
  setInterval(tick, 1000);
  draw();
  connect();
})();
