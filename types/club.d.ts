// The shapes the club's pages (keezbord/host/club/static/*.js) work with, for the type
// checker only (tsconfig.club.json; nothing here is served or run): the tournament's view
// (keezbord/host/club/service.py, TournamentService.view; docs/club.md).

interface ClubTable {
  match: string;
  board: string | null;
  home: string;
  away: string | null; // null: a bye
  state: string; // waiting | started | progress | penalty | time_limit | done
  moves: number | null;
  pawns: [number, number] | null;
  points: [number, number] | null;
  winner: string | null;
  timed_out: boolean | null;
  verified: string | null; // "ok", or what the replay disagreed on
}

interface ClubView {
  version: number;
  round: number | null;
  minutes: number;
  started: number | null;
  ends: number | null; // epoch seconds
  now: number; // the server's epoch seconds
  tables: ClubTable[];
  late: { match: string; board: string | null; round: number }[];
  standings: {
    rank: number;
    team: string;
    played: number;
    won: number;
    pawns: number;
    points: number;
  }[];
}
