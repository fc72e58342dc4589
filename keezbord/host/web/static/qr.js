// The QR corner (issue 16): the spectators' link, read-only, for anyone to scan; on the
// Pi's own screen (the kiosk, a page opened on 127.0.0.1) also the players' link, which
// the server gives only to the Pi itself (keezbord/host/appliance/qr.py).
"use strict";
(() => {
  /** @type {Record<"nl" | "en", Record<string, string>>} */
  const TEXT = {
    nl: { spectator: "Kijk mee: scan met je telefoon", player: "Spelers: scan om mee te spelen" },
    en: { spectator: "Watch: scan with your phone", player: "Players: scan to play" },
  };
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
    const lang = document.documentElement.lang === "en" ? "en" : "nl";
    for (const fig of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#qr figure"))) {
      const text = TEXT[lang][/** @type {string} */ (fig.dataset.role)];
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
