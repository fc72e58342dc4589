# Why a boot must not start the firmware (the safe-mode pin held low, or the maintenance
# flag the MAINTENANCE command leaves): one place for boot.py and main.py.

import os
import time

import machine

MAINTENANCE_FLAG = "maintenance"


def stop_reason(cfg, remove_flag=True):
    """Why not to start the firmware, or None. main.py removes the flag (the next reset
    starts the firmware again); boot.py only looks."""
    pin = machine.Pin(cfg["safe_pin"], machine.Pin.IN, machine.Pin.PULL_UP)
    time.sleep_ms(5)
    if pin.value() == 0:
        return "safe-mode pin held low"
    try:
        if remove_flag:
            os.remove(MAINTENANCE_FLAG)
        else:
            os.stat(MAINTENANCE_FLAG)
    except OSError:
        return None
    return "maintenance requested by the host"
