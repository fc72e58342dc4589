"""Firmware tests import the firmware's modules as MicroPython does: top-level names
from the firmware/ folder."""

from __future__ import annotations

import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))
