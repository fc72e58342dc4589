// keezbord web page, the referee you can hear (docs/voice.md): the device's own voice
// (speechSynthesis) says what the referee decided, in the page's language, when the page's
// one sound switch (panel.js's "your turn" beep, localStorage keezbord.sound) is on. The
// words are the host's (state.voice: keezbord/host/voice/phrases.py), the table's only;
// a hint names a card of a hidden hand and is said on that player's own device alone
// (state.remarks, which the server already keeps from pages that may not see it).
// The voice says the moves the move list (#log, aria-live) shows: while it speaks, #log
// is not live, so a screen reader does not hear every move twice.
"use strict";

Object.assign(UI.nl, { voice_on: "Geluid en stem aan." });
Object.assign(UI.en, { voice_on: "Sound and voice on." });

/** @type {{ next: number, remarks: number, unlocked: boolean }} */
const voice = { next: -1, remarks: -1, unlocked: false };

function voiceOn() { return localStorage.getItem("keezbord.sound") === "on"; }
function canSpeak() { return "speechSynthesis" in window && typeof SpeechSynthesisUtterance === "function"; }

/** @param {string} text */
function sayNow(text) {
  const u = new SpeechSynthesisUtterance(text);
  u.lang = app.lang === "nl" ? "nl-NL" : "en-GB";
  if (!text) u.volume = 0;  // the tap that unlocks speech after a reload says nothing
  speechSynthesis.speak(u);
}

/** The switch was tapped (a user's gesture: it unlocks speech on phones). */
function voiceSwitched() {
  mirrorLog();
  if (!canSpeak()) return;
  if (voiceOn()) { voice.unlocked = true; sayNow(t("voice_on")); } else speechSynthesis.cancel();
}

// While the voice speaks, the move list is not an aria-live region (the voice says it).
function mirrorLog() {
  const log = document.getElementById("log");
  if (log) log.setAttribute("aria-live", voiceOn() ? "off" : "polite");
}

/**
 * The utterances new since the last state: of each kind the newest (a stale one is not
 * said), of the moves the last MOVES_KEPT (moves decided together are all news; a page
 * back after a break does not read out the game), none before an undo of a move (a move
 * taken back is not announced).
 * @param {VoiceSaid[]} said
 */
function freshWords(said) {
  let fresh = said.filter((u) => u.id >= voice.next);
  const undo = fresh.map((u) => u.kind).lastIndexOf("undo");
  if (undo >= 0) fresh = fresh.filter((u, i) => i >= undo || u.kind !== "move");
  return fresh.filter((u, i) => {
    const later = fresh.slice(i + 1).filter((v) => v.kind === u.kind).length;
    return u.kind === "move" ? later < MOVES_KEPT : later === 0;
  });
}
const MOVES_KEPT = 3;

/** @param {PageState} st */
function speakState(st) {
  const v = st.voice;
  const first = voice.next < 0;  // a page just opened says nothing of the past
  const fresh = v && !first ? freshWords(v.said) : [];
  if (v) voice.next = v.next;
  const remarks = st.remarks || [];
  const mine = first ? [] : remarks.slice(Math.max(0, voice.remarks)).filter((r) =>
    r.kind === "hint" && (app.role === "remote" || (app.role === "player" && r.seat === mySeat(st))));
  voice.remarks = remarks.length;
  if (!voiceOn() || !voice.unlocked || !canSpeak()) return;
  if (fresh.some((u) => u.kind === "undo" || u.dispute)) speechSynthesis.cancel();
  for (const u of fresh) sayNow(tx(u.text));
  for (const r of mine) sayNow(`${(UI[app.lang].remark || {}).hint || "Hint"}: ${tx(r.text)}`);
}

document.addEventListener("DOMContentLoaded", () => {
  const sw = document.getElementById("sound");
  if (sw) sw.addEventListener("click", voiceSwitched);  // after panel.js's toggle
  // A reloaded page (a kiosk) needs a tap again before it may speak: the first one.
  document.addEventListener("pointerdown", () => {
    if (!voice.unlocked && voiceOn() && canSpeak()) { voice.unlocked = true; sayNow(""); }
  }, true);
  mirrorLog();
  app.onState.push(speakState);
});
