"""After the game: a refereed game read back as its players met it, each decision with
the hand held (record.py), for the puzzles mined from the club's games (docs/puzzles.md)
and the game analysis (docs/analysis.md), whose results the journal keeps (store.py)."""
