"""Drivers: the edge where hardware turns into events and effects into hardware.

Each driver imports its hardware library (RPi.GPIO, neopixel, pyserial) only inside the
code that needs it, so everything else imports and tests on any machine.
"""
