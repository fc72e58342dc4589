"""Simulated people at the table: engine moves rendered as the switch events a person makes
(physical.py), whole bot games as traces (games.py), a builder walking the selftest on a
board with faults (builder.py)."""
