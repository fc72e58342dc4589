// The secretary's control page: each button is one POST to /api/control with the token;
// the current round's tables are listed with a button to check each result.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token") || "";
  // The page's element of that id (control.html has each one): typed as there.
  const $ = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
  /** @param {Record<string, unknown>} body */
  async function act(body) {
    const r = await fetch("/api/control", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token, ...body }) });
    $("out").textContent = JSON.stringify(await r.json(), null, 1);
    refresh();
  }
  async function refresh() {
    /** @type {ClubView} */
    const view = await (await fetch("/api/view")).json();
    const rows = view.tables.map((m) => {
      const tr = document.createElement("tr");
      const res = m.points ? `${m.points[0]} – ${m.points[1]}${m.timed_out ? " (tijd om / time up)" : ""}` : m.state;
      for (const text of [m.board || "", m.home, m.away || "", res, m.verified || ""]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      const td = document.createElement("td");
      if (m.points) {
        const b = document.createElement("button");
        b.textContent = "nakijken / check";
        b.onclick = () => act({ action: "verify", match: m.match });
        td.append(b);
      }
      tr.append(td);
      tr.dataset.match = m.match;
      return tr;
    });
    $("round-tables").replaceChildren(...rows);
    $("round-no").textContent = String(view.round ?? "–");
  }
  $("add-team").onclick = () => act({ action: "add_team", name: $("team").value, players: $("players").value.split(",").map((s) => s.trim()).filter(Boolean) });
  $("pair").onclick = () => act({ action: "pair", minutes: Number($("minutes").value) });
  $("start").onclick = () => act({ action: "start" });
  $("verify").onclick = () => act({ action: "verify", match: $("match").value });
  refresh();
  setInterval(refresh, 5000);
})();
