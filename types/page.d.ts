// The shapes the board's web page (keezbord/host/web/static/*.js) works with, for the
// type checker only (tsconfig.json; nothing here is served or run): the messages and
// state the server sends (docs/web.md, keezbord/host/web/page.py) and the `app` object
// the page's scripts share. A field the server may leave out is optional; null where it
// sends null.

/** A text in both languages (engine/text.py's Text as JSON). */
interface Bilingual {
  nl: string;
  en: string;
}

interface Colour extends Bilingual {
  hex: string;
  symbol: string;
}

interface PlayerInfo {
  seat: number;
  kind: string; // human | greedy | random | search | player
  colour: Colour;
  cards: number | null;
  team: number[];
  where?: string; // table | remote | a linked board's name (docs/remote.md)
}

interface SensedPawn {
  hole: string;
  seat: number | null; // null: a pawn of unknown colour
}

interface Flag {
  reason: Bilingual;
  error: string[];
  restore: string[];
  pairs: [string | null, string][];
  guidance: Bilingual[];
  finish?: [string | null, string][]; // from null: the pawn is in a hand
  labels?: string[];
}

interface HistoryEntry {
  n: number;
  t: number;
  seat: number;
  card: string | null;
  move: string;
  round: number;
  deal: number;
  dealer: number;
  overruled?: string;
}

/** One action of the game's log (web/actions.py); the fields after `text` by kind. */
interface LogEntry {
  i: number;
  n: number;
  kind: string; // deal | move | discard | exchange | undo | penalty | illegal | second_card | overrule | time_limit | win | lit
  text: Bilingual;
  move?: string;
  seat?: number;
  to?: number;
  overruled?: string;
}

/** Advice kept with its move: before the log entry `at` (web/remarks.py). */
interface Remark {
  at: number;
  n: number;
  seat: number;
  kind: "hint" | "coach" | "card";
  text: Bilingual;
  said?: Bilingual; // the text as the voice says it (holes in words, host/voice/spoken.py)
}

/** One of the referee's recent decisions (its fields by type). */
interface Decision {
  type: string;
  t: number;
  seat?: number | null;
  seats?: number[];
  ok?: boolean;
  card?: string | null;
  move?: string | null;
  reason?: Bilingual | null;
}

interface Hand {
  seat: number;
  cards: string[];
  playable: string[];
  active: boolean;
  giving?: boolean; // a remote seat's own hand: its partner card to choose
}

interface Exchange {
  seat: number;
  partner: number;
  cards: string[];
  waiting: number[];
}

interface LastMove {
  n: number;
  seat: number;
  card: string | null;
  move: string;
  from: string[];
  to: string[];
  pawns?: number[]; // the seat of the pawn that reached each `to`
}

interface LinkHealth {
  kind?: string; // pico-serial | gpio
  ok?: boolean;
  port?: string;
  error?: string | null;
  chain_ok?: boolean | null;
  broken_reads?: number;
  chain_faults?: Record<string, number>; // by kind: bus, count, open, broken
  frames_bad?: number;
  gaps?: number;
  last_heartbeat_age_ms?: number | null;
  leds?: PartHealth | null; // the Pi's own strip (drivers/strip_guard.py)
  reader?: PartHealth | null; // the card reader (a PN532 that does not answer)
}

/** The health of one part of the board: the Pi's strip, the card reader. */
interface PartHealth {
  ok: boolean;
  error?: string | null;
}

/** One 74HC165's inputs, H first (the selftest's live view; keezbord/host/selftest_live.py). */
interface ChipBits {
  chip: number;
  bits: { input: string; hole: string | null; closed: boolean; changes: number }[];
}

interface SensorHealth {
  ok: boolean;
  bad: string[];
  text: Bilingual;
}

/** The journal's health (keezbord/host/journal_status.py; docs/web.md, GET /api/health). */
interface JournalHealth {
  ok: boolean;
  text: Bilingual | null; // a disk that refuses its writes, a failing fsync
  sync_failures: number;
  resumed?: { game: number; kept: number; dropped: number; text: Bilingual }; // a damaged journal
}

interface ClubSide {
  name: string;
  players?: string[];
}

interface ClubBanner {
  board: string;
  connected: boolean;
  round: number | null;
  home: ClubSide | null;
  away: ClubSide | null;
  ends: number | null; // epoch seconds
  now: number; // the server's epoch seconds
}

/** The instruction line's text (docs/web.md, "The instruction line"; web/instruction.py). */
interface Instruction {
  text: Bilingual; // may hold {tap}: the page's verb for pointing
  source: string; // game | flag | or the part that posted it (Hub.instruct)
  seat: number | null; // the player it is for; null: everyone at the table
  holes: string[];
  tone: string; // do | wait | fix
}

/** The `state` message (docs/web.md), as the page keeps it. */
interface PageState {
  version: number;
  mode: string;
  game: number;
  seats: number;
  segment: number;
  profile: string;
  teams: string | null;
  hints: string;
  players: PlayerInfo[];
  turn: number | null;
  card: string | null;
  table: { dealer: number; sitting_out?: number[] } | null;
  pawns: SensedPawn[];
  held: (number | null)[];
  leds: Record<string, string>;
  flag: Flag | null;
  history: HistoryEntry[];
  history_from?: number;
  log: LogEntry[];
  log_from?: number;
  exchange_cards?: Record<string, { card: string; text: Bilingual }>;
  decisions: Decision[];
  winner: number[] | null;
  score: { seats: number[]; points: number }[] | null;
  hand: Hand | null;
  bot_busy: number | null;
  last: { action: string; hole: string; by?: string } | null;
  health: {
    sensors?: SensorHealth;
    link?: LinkHealth | null;
    chips?: ChipBits[] | null;
    journal?: JournalHealth;
  } | null;
  clock: { elapsed_ms: number; running: boolean; limit_ms: number | null } | null;
  stopped: boolean;
  exchange: Exchange | null;
  coach: { n: number; better: string; text: Bilingual } | null;
  last_moves: LastMove[];
  split: { left: number; sources: string[] } | null;
  settling?: string[]; // holes of pawns put down that the referee is still checking
  undone?: number[]; // log entries of moves taken back
  second_card?: string | null; // a second card tapped in the turn (flagged)
  remarks?: Remark[]; // hints and the coach's, kept with their moves (web/remarks.py)
  voice?: VoiceView | null; // what the referee says (docs/voice.md)
  setup: SetUpView | null;
  lesson: LessonView | null;
  puzzle?: BoardTaskView | null;
  retry?: BoardTaskView | null;
  club?: ClubBanner | null;
  instruction: Instruction | null;
  analysis?: AnalysisProgress | null;
  remote?: RemoteView | null;
}

/** The state's `analysis`: how far the finished game's analysis is (docs/web.md). */
interface AnalysisProgress {
  game: number | null;
  state: string; // running | done | failed | none
  done: number;
  total: number;
}

type AnalysisLabel = "inaccuracy" | "mistake" | "blunder";

/** One row of an analysis (engine/analysis.py's to_json, as `keezbord analyse --json`
 * writes it; a discard row has only type, index, seat, cards and deal). */
interface AnalysisRow {
  type: string; // decision | discard
  index: number;
  n: number;
  seat: number;
  card: string;
  move: string;
  win: number;
  words?: Bilingual | null; // for a labelled decision: the move made, in words
  best: { move: string; win: number; words?: Bilingual | null };
  loss: number;
  loss_shown?: number; // points, cut as the label compares (judge.shown_loss)
  label: AnalysisLabel | null;
  hand: string[];
  hand_known: boolean;
  candidates: number;
  deal: number[];
  comment: Bilingual | null;
  why?: Bilingual | null; // why it was worse, in words (engine/mistake_reason.py)
  best_holes: string[];
  cards?: string[];
}

interface AnalysisSummary {
  teams: {
    seats: number[];
    start?: number;
    end?: number;
    swing: number;
    own: number;
    cards: number;
    others: number;
  }[];
  players: {
    seat: number;
    accuracy: number | null;
    inaccuracy: number;
    mistake: number;
    blunder: number;
  }[];
}

/** GET /api/analysis (docs/web.md). */
interface AnalysisDoc {
  game: number | null;
  state: string; // running | done | failed
  done: number;
  total: number;
  rows: AnalysisRow[];
  summary: AnalysisSummary | null;
  teams: number[][];
  curve: number[][];
  people: number[];
}

/** A move offered when trying a decision again (GET /api/retry?n=N). */
interface RetryMove {
  move: string;
  text: Bilingual;
  left: string[];
  reached: string[];
  after: SensedPawn[];
}

interface RetrySetup {
  n: number;
  seat: number;
  before: SensedPawn[];
  hand: string[];
  hand_known: boolean;
  played: string;
  label: string;
  moves: Record<string, RetryMove[]>;
}

/** GET /api/retry?n=N&move=M: the new move judged. */
interface RetryVerdict {
  n: number;
  outcome: "best" | "good" | "mistake";
  move: string;
  best: string;
  win: number | null;
  best_win: number | null;
  text: Bilingual;
}

/** Trying a decision again, as the review keeps it. */
interface Retry {
  data: RetrySetup;
  card: string | null;
  move: RetryMove | null;
  verdict: RetryVerdict | null;
}

/** GET /api/geometry (hardware/geometry.py's to_json), the parts the page draws. */
interface Geometry {
  width: number;
  height: number;
  hole_diameter: number;
  outline_path: string;
  seat_colours: { start: string; hex: string }[];
  holes: { name: string; kind: string; x: number; y: number }[];
  spoken?: Record<string, Bilingual>; // each hole as people name it (host/voice/spoken.py)
}

/** A drawn hole: its SVG group and the parts render() changes. */
interface DrawnHole {
  g: HoleElement;
  pawn: SVGGElement;
  mark: SVGTextElement;
  label: SVGTextElement;
  info: Geometry["holes"][number];
}

/** GET /api/review?i=N (docs/web.md). */
interface Review {
  i: number;
  n: number;
  kind: string; // move | illegal
  seat: number | null;
  text: Bilingual;
  card: string | null;
  move?: string;
  before: SensedPawn[];
  after: SensedPawn[];
  left: string[];
  reached: string[];
  reason?: Bilingual;
  overruled?: string;
}

/** A message to the server (docs/web.md, "Page to server"). */
// The set-up mode's instruction (docs/setup.md).
interface SetUpView {
  kind: "move" | "ask" | "done";
  seat: number | null;
  text: Bilingual;
  holes: string[];
  left: number;
  left_text: Bilingual | null;
  told: number;
  target: string;
  errors: string[];
  colours: Record<string, number | null>;
}

// A lesson's step played on the board (docs/lessons.md).
interface LessonView {
  id: string;
  title: Bilingual;
  step: number;
  steps: number;
  task: Bilingual;
  intro: Bilingual; // the idea the lesson teaches (shown at its first step)
  holes: string[]; // the holes the task names: the board labels them
  next: { lesson: string; step: number; title: Bilingual } | null; // after a right move
  course_done: boolean; // the course's last step made right
  card: string | null;
  hand: string[];
  learner: string | null;
  verdict: { result: "right" | "other" | "wrong"; text: Bilingual } | null;
}

// A puzzle or a mistake tried again on the board (web/puzzle_play.py, retry_play.py).
interface BoardTaskView {
  id?: string;
  n?: number;
  seat: number;
  hand: string[];
  task: Bilingual;
  chosen?: string | null;
  judging: boolean;
  tries: number;
  done: boolean;
  // A puzzle's (issue 40): the hints asked, whether another may be, the answer once
  // asked, the holes lit (the hinted pawn, the answer), the first-try count.
  learner?: string | null;
  hints?: Bilingual[];
  more_hints?: boolean;
  answer?: Bilingual | null;
  lit?: string[];
  first_try?: boolean | null;
  first_tries?: number | null;
  verdict: {
    outcome: string;
    text: Bilingual;
    solution?: string;
    better?: { move: string; left: string[]; reached: string[] };
  } | null;
}

// One puzzle of GET /api/puzzles.
interface PuzzleEntry {
  id: string;
  themes: string[];
  hand: string[];
  position: string;
  club: boolean;
  source: string;
  solved: boolean; // by the learner named (?learner=), else false
  first_try: boolean;
}

// One lesson of GET /api/lessons.
interface LessonEntry {
  id: string;
  title: Bilingual;
  intro: Bilingual;
  steps: unknown[];
  done: number[];
}

interface PageRequest {
  type: string;
  [field: string]: unknown;
}

/** What the page's scripts share (app.js makes it; window.keezbord for tests). */
interface App {
  lang: "nl" | "en";
  token: string | null;
  ws: WebSocket | null;
  control: boolean;
  role: string; // spectator | player | referee
  mode: string; // sim | run
  lists: Record<string, unknown[]>; // the history and log entries so far
  state: PageState | null;
  geometry: Geometry | null;
  geoKey: string | null;
  holes: Map<string, DrawnHole>;
  palette: Record<string, { hex: string }> | null;
  selectedHeld: number | null;
  drag: { hole: string; x: number; y: number; lifted: boolean; ghost: SVGElement | null } | null;
  suppressClick: boolean;
  seq: number;
  asked: Map<number, PageRequest>; // a request that may need confirming (confirmAgain)
  lastVersion: number;
  onState: ((st: PageState) => void)[];
  onMessage: ((msg: ServerMessage) => void)[]; // every server message (remote.js)
  // Set by the scripts as they go:
  retryMs?: number; // how long before the socket tries again (longer after "full")
  reviewing?: { data: Review; side: "before" | "after"; retry?: Retry | null } | null;
  fullBox?: [number, number, number, number];
  holeR?: number;
  cursor?: string;
  flownMove?: string | null;
  flights?: number;
  zoomOff?: boolean;
  zoomCentre?: [number, number];
  zoomView?: [number, number, number, number]; // the zoomed view box (x, y, w, h)
  zoomKey?: string; // the holes the zoomed view was made for
  offline?: boolean;
  trayKey?: string | null;
  lessonKey?: string;
  localLog?: string | null;
  logTimer?: number;
  clockOf?: object; // the state's clock the local one runs on from
  clockAt?: number;
  formGame?: number;
  wasMyTurn?: boolean;
  audio?: AudioContext;
  beeps?: number;
  askedAt?: number; // the move number "which card?" was asked for (remarks.js)
}

interface Window {
  keezbord?: App;
}

/** The page's words in one language (app.js's UI, which the other scripts extend). */
interface UiTexts {
  [key: string]: string | Record<string, string>;
  led: Record<string, string>;
  decision: Record<string, string>;
  bot_kind: Record<string, string>;
  remark?: Record<string, string>; // remarks.js adds it
}

/** A hole's <g class="hole" data-hole="..."> (board.js draws one per hole). */
type HoleElement = SVGGElement & { dataset: DOMStringMap & { hole: string } };

// -- seats far away (docs/remote.md, web/away.py, web/remote.py, remote.js) -------------

/** page_state's "remote": where each seat plays, the move lit for the table, the link. */
interface RemoteView {
  seats: string[]; // per seat: table | remote | a linked board's name
  lit: { seat: number; card: string; move: string; text: Bilingual } | null;
  hold: Bilingual | null;
  link: LinkView | null;
}

/** A linked board's state (club/linked_board.py's view). */
interface LinkView {
  board: string;
  peer: string;
  host: string;
  connected: boolean;
  peer_online: boolean;
  in_step: boolean;
  to_copy: number;
  unacked: number;
  entries: number;
  broken: string | null;
}

/** One legal move of a card, as a remote seat chooses it. */
interface RemoteMove {
  move: string;
  text: Bilingual;
  from: string[];
  to: string[];
}

/** Any message from the server (hello, state, error, moves, links, revoked, ack). */
interface ServerMessage {
  type: string;
  role?: string;
  card?: string;
  moves?: RemoteMove[];
  base?: string | null;
  player?: string;
  referee?: string;
  seats?: Record<string, string>;
  text?: Bilingual;
  [field: string]: unknown;
}

/** One thing the referee says (keezbord/host/voice/phrases.py, docs/voice.md). */
interface VoiceSaid {
  id: number;
  kind: string;
  text: Bilingual;
  dispute: boolean;
  seat: number | null;
}
/** The page state's `voice`: the table's last utterances. */
interface VoiceView {
  next: number;
  said: VoiceSaid[];
}
