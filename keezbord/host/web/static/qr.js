// The QR corner (issue 16): the spectators' link, read-only, for anyone to scan; on the
// Pi's own screen (the kiosk, a page opened on 127.0.0.1) also the players' link, which
// the server gives only to the Pi itself (keezbord/host/appliance/qr.py).
"use strict";
(() => {
  Object.assign(UI.nl, { qr_spectator: "Kijk mee: scan met je telefoon", qr_player: "Spelers: scan om mee te spelen" });
  Object.assign(UI.en, { qr_spectator: "Watch: scan with your phone", qr_player: "Players: scan to play" });
  const local = ["127.0.0.1", "localhost", "[::1]"].includes(location.hostname);
  /** @param {string} role */
  function figure(role) {
    const fig = document.createElement("figure");
    fig.dataset.role = role;
    const img = document.createElement("img");
    img.src = `/api/qr.svg?role=${role}`;
    img.width = 132;
    img.height = 132;
    const cap = document.createElement("figcaption");
    fig.append(img, cap);
    img.addEventListener("error", () => fig.remove());  // e.g. no players' token
    return fig;
  }
  function caption() {
    for (const fig of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#qr figure"))) {
      const text = t(`qr_${fig.dataset.role}`);
      /** @type {HTMLElement} */ (fig.querySelector("figcaption")).textContent = text;
      /** @type {HTMLImageElement} */ (fig.querySelector("img")).alt = text;
    }
  }
  document.addEventListener("DOMContentLoaded", () => {
    const box = document.getElementById("qr");
    if (!box) return;
    box.append(figure("spectator"));
    if (local) box.append(figure("player"));
    caption();
    new MutationObserver(caption).observe(document.documentElement, { attributeFilter: ["lang"] });
    box.hidden = false;
  });
})();
