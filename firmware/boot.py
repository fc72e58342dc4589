# Runs before main.py and, on the Pico, before MicroPython brings USB up (ports/rp2/main.c
# calls mp_usbd_init() after boot.py). In a normal boot the firmware's own USB serial port
# (usb_cdc.py) is started here, so the host enumerates one CDC device, the same 2E8A:0005
# as always, and MicroPython's built-in CDC, whose Ctrl-C handling could stop the firmware
# at the REPL, never exists. With the safe-mode pin held low or the maintenance flag set
# (stop_reason in boot_mode.py), nothing is started: the built-in CDC and its REPL come up
# as on a bare MicroPython, and main.py stops there.

import board_config
import boot_mode

if boot_mode.stop_reason(board_config.load(), remove_flag=False) is None:
    import usb_cdc

    usb_cdc.start()
