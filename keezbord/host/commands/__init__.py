"""One module per group of CLI commands; each exposes ``add_arguments`` and ``run``
per command (see keezbord/host/cli.py). Imported lazily: a command pays only for
what it needs."""
