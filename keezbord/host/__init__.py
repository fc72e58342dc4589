"""What runs on the Raspberry Pi (or a laptop): referee, journal, drivers, web app, CLI."""
