// keezbord web page: puzzles solved with the real pawns (issue 26 part 3, docs/puzzles.md)
// and a mistake tried again on the board (issue 27, docs/analysis.md). The Puzzles
// section lists the shipped set and the club's own (GET /api/puzzles, by theme); a click
// sends `puzzle`: the board is set up as its position, then the move made with the pawns
// is judged. The box above the tray shows the task (state `puzzle` or `retry`): the hand
// to hold (without a card reader the card played may be chosen here: `puzzle_card`), the
// verdict, and after a wrong move the better move lit on the drawing (role "hint").
"use strict";

/** @type {{ theme: string, list: PuzzleEntry[], themes: {id: string, name: Bilingual}[], lang: string }} */
const puzzlesUi = { theme: "", list: [], themes: [], lang: "" };

async function loadPuzzles() {
  const q = puzzlesUi.theme ? `?theme=${encodeURIComponent(puzzlesUi.theme)}` : "";
  const r = await fetch(`/api/puzzles${q}`);
  const body = await r.json();
  if (!r.ok) { addLog(tx(body.error), true); return; }
  const sel = /** @type {HTMLSelectElement} */ (byId("puzzle-theme"));
  if (sel.options.length <= 1) {
    puzzlesUi.themes = body.themes;
    for (const th of body.themes) sel.append(el("option", { value: th.id, text: tx(th.name) }));
  }
  puzzlesUi.list = body.puzzles;
  renderPuzzleList();
}

function renderPuzzleList() {
  puzzlesUi.lang = app.lang;
  const sel = /** @type {HTMLSelectElement} */ (byId("puzzle-theme"));
  for (const th of puzzlesUi.themes) {  // the themes in the page's language (NL/EN)
    const o = [...sel.options].find((x) => x.value === th.id);
    if (o) o.textContent = tx(th.name);
  }
  byId("puzzle-count").textContent = `${puzzlesUi.list.length} ${t("puzzles_n")}`;
  byId("puzzle-list").replaceChildren(...puzzlesUi.list.map((p, i) => {
    const b = el("button", { type: "button", text: `${i + 1}. ${p.hand.map(cardLabel).join(" ")}` });
    b.dataset.puzzle = p.id;
    b.title = p.themes.join(", ");
    b.addEventListener("click", () => send({ type: "puzzle", puzzle: p.id }));
    const li = el("li", {}, b, el("span", { class: "note", text: ` ${p.club ? t("puzzle_club") + " · " : ""}${p.themes.map((x) => t("theme_" + x)).join(", ")}` }));
    li.dataset.puzzle = p.id;
    return li;
  }));
}

/** The board task shown (a puzzle, or a mistake tried again). @param {PageState} st */
function boardTask(st) { return st.puzzle || st.retry || null; }

/** @param {PageState} st */
function renderPuzzle(st) {
  if (puzzlesUi.lang && puzzlesUi.lang !== app.lang) renderPuzzleList();  // NL/EN pressed
  byId("puzzles").hidden = !mayDo("puzzle");  // players and the referee choose one
  const box = byId("puzzle");
  const task = boardTask(st);
  box.hidden = !task;
  if (!task) return;
  byId("puzzle-title").textContent = st.puzzle ? t("puzzle") : `${t("try_again")}: ${t("move_no")} ${st.retry?.n}`;
  byId("puzzle-task").textContent = tx(task.task);
  const cards = byId("puzzle-cards");
  const pz = st.puzzle;
  cards.hidden = !pz || pz.done || !mayDo("puzzle_card");
  cards.replaceChildren(...(pz ? pz.hand : []).map((c) => {
    const b = el("button", { type: "button", class: "card", "data-card": c,
                             "aria-pressed": String(pz?.chosen === c), text: cardLabel(c) });
    b.addEventListener("click", () => send({ type: "puzzle_card", card: c }));
    return b;
  }));
  const v = byId("puzzle-verdict");
  const verdict = task.verdict;
  v.textContent = task.judging ? t("puzzle_judging")
    : verdict ? [tx(verdict.text), verdict.reason ? `(${tx(verdict.reason)})` : ""].join(" ").trim() : "";
  v.dataset.outcome = task.judging ? "judging" : verdict ? verdict.outcome : "";
}

/** The better move on the drawing once the board is back (after a wrong move). */
function showBetter() {
  const live = app.state;
  if (!live || app.reviewing) return;
  const task = boardTask(live);
  const better = task && !task.done && task.verdict && task.verdict.better;
  if (!better || live.flag || live.setup || live.held.length) return;
  /** @type {Record<string, string>} */
  const leds = { ...live.leds };
  for (const h of [...better.left, ...better.reached]) leds[h] = "hint";
  app.state = { ...live, leds };
  try { render(); } finally { app.state = live; }
}

function setupPuzzles() {
  const sel = /** @type {HTMLSelectElement} */ (byId("puzzle-theme"));
  sel.addEventListener("change", () => { puzzlesUi.theme = sel.value; loadPuzzles(); });
  app.onState.push(showBetter);
  loadPuzzles();
}

Object.assign(UI.nl, {
  puzzles: "Puzzels", puzzle: "Puzzel", puzzle_theme: "Thema", puzzle_all: "alle", puzzles_n: "puzzels",
  puzzle_club: "uit de club", puzzle_judging: "De zet wordt beoordeeld…", puzzle_card_pick: "Welke kaart speel je?",
  theme_capture: "slaan", theme_seven_split: "7 splitsen", theme_jack: "boer", theme_home_entry: "naar huis",
  theme_partner: "partner", theme_blockade: "blokkade",
  retry_pawns: "Opnieuw met de pionnen",
});
Object.assign(UI.en, {
  puzzles: "Puzzles", puzzle: "Puzzle", puzzle_theme: "Theme", puzzle_all: "all", puzzles_n: "puzzles",
  puzzle_club: "from the club", puzzle_judging: "Judging the move…", puzzle_card_pick: "Which card do you play?",
  theme_capture: "capture", theme_seven_split: "7 split", theme_jack: "jack", theme_home_entry: "home entry",
  theme_partner: "partner", theme_blockade: "blockade",
  retry_pawns: "Again with the pawns",
});
