"""keezbord: a referee, simulator and companion for a handmade Keezen board.

Layers (see docs/architecture.md): ``keezbord.engine`` (the rules, pure),
``keezbord.hardware`` (the board as data), ``keezbord.host`` (referee, drivers,
web, CLI). The Pico firmware lives outside the package, in ``firmware/``.
"""

__version__ = "0.1.0"
