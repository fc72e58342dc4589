"""The rules of Keezen: pure Python, no I/O, no dependencies, deterministic given a seed.

The public names most callers need are re-exported here; import submodules directly
for the rest (``from keezbord.engine.movegen import legal_moves``).
"""
