// keezbord web page: puzzles solved with the real pawns (issue 26 part 3, docs/puzzles.md)
// and a mistake tried again on the board (issue 27, docs/analysis.md). The Puzzles
// section lists the shipped set and the club's own (GET /api/puzzles, by theme); a click
// sends `puzzle`: the board is set up as its position, then the move made with the pawns
// is judged. The box above the tray shows the task (state `puzzle` or `retry`): the hand
// to hold (without a card reader the card played may be chosen here: `puzzle_card`), the
// verdict. A puzzle's wrong move gets the verdict and its reason, not the answer; a hint
// (the card, then the pawn, lit) and then the answer (written out and lit on the drawing,
// role "hint") come on request (`puzzle_help`). A first-try solve is counted per learner
// (the lessons' name, lessons.js); the list shows a puzzle's themes once it is solved
// (issue 40). A mistake tried again lights its better move after a wrong one.
"use strict";

/** @type {{ theme: string, list: PuzzleEntry[], themes: {id: string, name: Bilingual}[], lang: string, firstTries: number, learner: string | null, key: string }} */
const puzzlesUi = { theme: "", list: [], themes: [], lang: "", firstTries: 0, learner: null, key: "" };

async function loadPuzzles() {
  const q = new URLSearchParams();
  if (puzzlesUi.theme) q.set("theme", puzzlesUi.theme);
  if (lessonsUi.name) q.set("learner", lessonsUi.name);  // the lessons' learner (lessons.js)
  const r = await fetch(`/api/puzzles?${q}`);
  const body = await r.json();
  if (!r.ok) { addLog(tx(body.error), true); return; }
  puzzlesUi.firstTries = body.first_tries;
  puzzlesUi.learner = body.learner;
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
  const who = puzzlesUi.learner;
  byId("puzzle-count").textContent = `${puzzlesUi.list.length} ${t("puzzles_n")} · `
    + (who ? `${who}: ${puzzlesUi.firstTries} ${t("puzzle_first_tries")}` : t("puzzle_name_counts"));
  byId("puzzle-list").replaceChildren(...puzzlesUi.list.map((p, i) => {
    // A number and the hand: the theme would give the answer away until it is solved.
    const b = el("button", { type: "button", text: `${i + 1}. ${p.hand.map(cardLabel).join(" ")}` });
    b.dataset.puzzle = p.id;
    b.addEventListener("click", () => send({ type: "puzzle", puzzle: p.id, learner: lessonsUi.name || null }));
    const notes = [];
    if (p.club) notes.push(t("puzzle_club"));
    if (p.solved) {
      notes.push((p.first_try ? `✓ ${t("puzzle_first_try")}` : "✓")
        + ` (${p.themes.map((x) => t("theme_" + x)).join(", ")})`);
    }
    const li = el("li", {}, b, el("span", { class: "note", text: notes.length ? ` ${notes.join(" · ")}` : "" }));
    li.dataset.puzzle = p.id;
    li.dataset.solved = p.solved ? (p.first_try ? "first-try" : "yes") : "";
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
  // The verdict's text says its reason once (the reason is not added again).
  const again = pz && verdict && verdict.outcome === "wrong" && !pz.done
    ? ` ${t(pz.more_hints ? "puzzle_try_again" : "puzzle_try_again_only")}` : "";
  v.textContent = task.judging ? t("puzzle_judging") : verdict ? tx(verdict.text) + again : "";
  v.dataset.outcome = task.judging ? "judging" : verdict ? verdict.outcome : "";
  renderPuzzleHelp(pz || null);
}

/** Hints, the answer and the first-try count of a puzzle (null: a retry has none).
 * @param {BoardTaskView | null} pz */
function renderPuzzleHelp(pz) {
  const hints = pz?.hints || [];
  byId("puzzle-hints").replaceChildren(...hints.map((h) => el("li", { text: tx(h) })));
  const answer = byId("puzzle-answer");
  answer.hidden = !pz?.answer;
  answer.textContent = pz?.answer ? tx(pz.answer) : "";
  const open = !!pz && !pz.done && mayDo("puzzle_help");
  const hint = /** @type {HTMLButtonElement} */ (byId("puzzle-hint"));
  hint.hidden = !open || !pz?.more_hints;
  hint.textContent = t(hints.length ? "puzzle_hint_more" : "puzzle_hint");
  hint.title = t("puzzle_help_costs");
  hint.onclick = () => send({ type: "puzzle_help", help: "hint" });
  const show = /** @type {HTMLButtonElement} */ (byId("puzzle-show"));
  // The answer after a try or a hint: first the solver's own go.
  show.hidden = !open || !!pz?.answer || !((pz?.tries || 0) > 0 || hints.length);
  show.textContent = t("puzzle_show");
  show.title = t("puzzle_help_costs");
  show.onclick = () => send({ type: "puzzle_help", help: "answer" });
  const score = byId("puzzle-score");
  const counted = pz?.done && pz.learner && pz.first_tries !== null && pz.first_tries !== undefined;
  score.hidden = !counted;
  score.textContent = counted ? `${pz?.learner}: ${pz?.first_tries} ${t("puzzle_first_tries")}` : "";
  const key = JSON.stringify([pz?.id, pz?.done, pz?.first_tries]);
  if (pz?.done && key !== puzzlesUi.key) loadPuzzles();  // the solve shows in the list
  puzzlesUi.key = key;
}

/** The better move (a retry's after a wrong move), a puzzle's hinted pawn or its answer
 * on the drawing once the board is back. */
function showBetter() {
  const live = app.state;
  if (!live || app.reviewing) return;
  const task = boardTask(live);
  if (!task || task.done) return;
  const better = task.verdict && task.verdict.better;
  const holes = task.lit || (better ? [...better.left, ...better.reached] : []);
  if (!holes.length || live.flag || live.setup || live.held.length) return;
  /** @type {Record<string, string>} */
  const leds = { ...live.leds };
  for (const h of holes) leds[h] = "hint";
  app.state = { ...live, leds };
  try { render(); } finally { app.state = live; }
}

function setupPuzzles() {
  const sel = /** @type {HTMLSelectElement} */ (byId("puzzle-theme"));
  sel.addEventListener("change", () => { puzzlesUi.theme = sel.value; loadPuzzles(); });
  app.onState.push(showBetter);
  // A learner's name given (the lessons' form): their first-try solves in the list.
  byId("learner-form").addEventListener("submit", () => loadPuzzles());
  loadPuzzles();
}

Object.assign(UI.nl, {
  puzzles: "Puzzels", puzzle: "Puzzel", puzzle_theme: "Thema", puzzle_all: "alle", puzzles_n: "puzzels",
  puzzle_club: "uit de club", puzzle_judging: "De zet wordt beoordeeld…", puzzle_card_pick: "Welke kaart speel je?",
  theme_capture: "slaan", theme_seven_split: "7 splitsen", theme_jack: "boer", theme_home_entry: "naar huis",
  theme_partner: "partner", theme_blockade: "blokkade",
  retry_pawns: "Opnieuw met de pionnen",
  puzzle_try_again: "Probeer het nog eens, of vraag een hint.", puzzle_try_again_only: "Probeer het nog eens.",
  puzzle_hint: "Hint", puzzle_help_costs: "Daarna telt een oplossing niet meer als in één keer opgelost.",
  puzzle_hint_more: "Nog een hint", puzzle_show: "Laat het antwoord zien",
  puzzle_first_try: "in één keer", puzzle_first_tries: "in één keer opgelost",
  puzzle_name_counts: "geef je naam bij Lessen om je puzzels in één keer opgelost te tellen",
});
Object.assign(UI.en, {
  puzzles: "Puzzles", puzzle: "Puzzle", puzzle_theme: "Theme", puzzle_all: "all", puzzles_n: "puzzles",
  puzzle_club: "from the club", puzzle_judging: "Judging the move…", puzzle_card_pick: "Which card do you play?",
  theme_capture: "capture", theme_seven_split: "7 split", theme_jack: "jack", theme_home_entry: "home entry",
  theme_partner: "partner", theme_blockade: "blockade",
  retry_pawns: "Again with the pawns",
  puzzle_try_again: "Try again, or ask for a hint.", puzzle_try_again_only: "Try again.",
  puzzle_hint: "Hint", puzzle_help_costs: "A solve after this is no longer a first-try solve.",
  puzzle_hint_more: "Another hint", puzzle_show: "Show the answer",
  puzzle_first_try: "first try", puzzle_first_tries: "solved at the first try",
  puzzle_name_counts: "give your name under Lessons to count your first-try solves",
});
