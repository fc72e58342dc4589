// The secretary's control page: each button is one POST to /api/control with the token.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  async function act(body) {
    const r = await fetch("/api/control", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token, ...body }) });
    $("out").textContent = JSON.stringify(await r.json(), null, 1);
  }
  $("add-team").onclick = () => act({ action: "add_team", name: $("team").value, players: $("players").value.split(",").map((s) => s.trim()).filter(Boolean) });
  $("pair").onclick = () => act({ action: "pair", minutes: Number($("minutes").value) });
  $("start").onclick = () => act({ action: "start" });
  $("verify").onclick = () => act({ action: "verify", match: $("match").value });
})();
