# The Pico's USB serial port, run by the firmware itself (machine.USBDevice), in place of
# MicroPython's built-in CDC. Why: the built-in port's stdin has no non-blocking bulk
# read (sys.stdin.buffer.readinto waits until its buffer is full), so the old stream read
# one byte per poll, thousands of cycles each; and its write waits up to 500 ms for a host
# that does not read (POLLOUT means one byte free: shared/tinyusb/mp_usbd_cdc.c).
#
# The host sees the same device: the built-in device and configuration descriptors
# (2E8A:0005, one CDC-ACM function, bulk OUT 0x02 / IN 0x82, notifications 0x81) and the
# built-in strings. Only who answers changes: with builtin_driver = BUILTIN_NONE the
# runtime driver claims both interfaces and calls us back. boot.py starts it before
# MicroPython brings USB up (mp_usbd_init runs after boot.py), so the device enumerates
# once, and the built-in CDC, whose 0x03 handling could interrupt the firmware, never
# exists in a normal boot. The safe-mode pin and the maintenance flag leave it alone.
#
# Receiving: RX_SLOTS packet buffers of 64 bytes (one USB full-speed packet each). An OUT
# transfer is armed on the next free slot; its callback (run by MicroPython's scheduler
# between bytecodes) records the length and arms the next. The app copies bytes out in
# bulk (read_into, a viper copy that stops after a frame's 00). All slots full: no
# transfer is armed and the host's packets wait (NAK), nothing is lost.
# Sending: a byte ring; a frame goes in whole or not at all (dropped and counted by the
# link), never waited for. IN transfers of at most 64 bytes go out from the ring, each
# from a preallocated buffer of exactly its length, and a zero-length packet ends a
# transfer whose last packet was full (the host would otherwise hold the data back). A
# host that stops reading leaves one transfer pending: the ring fills, frames are
# dropped, the loop never waits.
#
# Allocation-free after start(): every buffer exists beforehand and the callbacks are
# bound methods made once.

import time
from array import array

from protocol import read_slots, ring_get, ring_put

TYPE_CHECKING = False  # MicroPython has no typing module; mypy reads this as True
if TYPE_CHECKING:
    from hw_types import UsbDevice

PKT = 64  # full-speed bulk max packet size
RX_SLOTS = 16  # 1 KB of received packets: a whole LED message of the largest board
RX_MASK = RX_SLOTS - 1  # (a power of two)
TX_SIZE = 2048  # bytes the host may be behind before frames are dropped
EP_OUT = 0x02  # the built-in CDC's endpoints (tusb_config.h: USBD_CDC_EP_OUT/IN)
EP_IN = 0x82
SETUP = 1  # control transfer stages (TinyUSB)
ACK = 3
SET_LINE_CODING = 0x20
GET_LINE_CODING = 0x21
SET_CONTROL_LINE_STATE = 0x22
SEND_BREAK = 0x23

_cdc = None  # the running port (boot.py starts it, main.py picks it up)


class UsbCdc:
    def __init__(self, usbd: "UsbDevice") -> None:
        self.usbd = usbd
        self.rx = [bytearray(PKT) for _ in range(RX_SLOTS)]
        self.rx_len = bytearray(RX_SLOTS)
        # [slots consumed (the app counts up), slots filled (the callback counts up),
        # read position in the slot being read]: one word array the viper reader updates
        self.rx_st = array("i", [0, 0, 0, RX_MASK])
        self.rx_args = [self.rx, self.rx_len, self.rx_st]  # for read_slots
        self.rx_armed = False
        self.tx = bytearray(TX_SIZE)
        self.tx_head = 0  # next byte to write (the app)
        self.tx_tail = 0  # next byte to send (the callback)
        self.tx_count = 0  # bytes in the ring, sent or not yet confirmed
        self.tx_pkt = [bytearray(n) for n in range(PKT + 1)]
        self.tx_inflight = -1  # length of the IN transfer pending, -1: none
        self.tx_zlp = False  # the last packet was full: end the transfer with a ZLP
        self.line_coding = bytearray(b"\x00\xc2\x01\x00\x00\x00\x08")  # 115200 8N1
        self.line_state = 0  # DTR (1) and RTS (2) as the host set them
        self.configured = False
        self.resets = 0
        self.rx_packets = 0
        self.tx_packets = 0
        self.max_read = 2048  # bytes per link poll: whole frames (viper copies)
        self.needs_flush = False  # the ring drains from the transfer callbacks
        self._open_cb = self.on_open
        self._reset_cb = self.on_reset
        self._control_cb = self.on_control
        self._xfer_cb = self.on_xfer

    # -- callbacks from TinyUSB (through MicroPython's scheduler) -----------------------

    def on_open(self, desc):
        self.configured = True
        self.rx_armed = False
        self.tx_inflight = -1
        self._arm_rx()
        self._kick_tx()

    def on_reset(self):
        # Bus reset: every transfer is gone; what the host had not read is stale.
        self.resets += 1
        self.configured = False
        self.rx_armed = False
        self.tx_inflight = -1
        self.tx_zlp = False
        self.line_state = 0
        self._clear_tx()

    def on_control(self, stage, request):
        # CDC-ACM class requests; TinyUSB forwards device-recipient class requests to the
        # interface in wIndex too (some hosts send them so).
        if (request[0] >> 5) & 3 != 1:  # not a class request
            return False
        req = request[1]
        if stage == SETUP:
            if req == SET_LINE_CODING or req == GET_LINE_CODING:
                return self.line_coding
            return req == SET_CONTROL_LINE_STATE or req == SEND_BREAK
        if stage == ACK and req == SET_CONTROL_LINE_STATE:
            was = self.line_state
            self.line_state = request[2] | (request[3] << 8)
            if was & 1 and not self.line_state & 1:
                self._clear_tx()  # the host closed the port: don't replay old frames
        return True

    def on_xfer(self, ep, result, n):
        if ep == EP_OUT:
            self.rx_armed = False
            if result == 0 and n > 0:
                st = self.rx_st
                self.rx_len[st[1] & RX_MASK] = n
                st[1] += 1
                self.rx_packets += 1
            self._arm_rx()
        elif ep == EP_IN:
            self._sent(result)

    def _sent(self, result):
        # an IN transfer is done: its bytes leave the ring, the next packet goes
        sent = self.tx_inflight
        self.tx_inflight = -1
        if result == 0 and sent > 0:
            t = self.tx_tail + sent
            self.tx_tail = t - TX_SIZE if t >= TX_SIZE else t
            self.tx_count -= sent
            self.tx_packets += 1
        self._kick_tx()

    # -- transfers -------------------------------------------------------------------

    def _arm_rx(self):
        st = self.rx_st
        if self.rx_armed or not self.configured or st[1] - st[0] >= RX_SLOTS:
            return
        self.rx_armed = True
        try:
            if not self.usbd.submit_xfer(EP_OUT, self.rx[st[1] & RX_MASK]):
                self.rx_armed = False
        except OSError:
            self.rx_armed = False

    def _unsent(self):
        # bytes in the ring not yet handed to a transfer
        return self.tx_count - (self.tx_inflight if self.tx_inflight > 0 else 0)

    def _kick_tx(self):
        if self.tx_inflight >= 0 or not self.configured:
            return
        n = self.tx_count
        if n <= 0:
            if not self.tx_zlp:
                return
            n = 0
        elif n > PKT:
            n = PKT
        pkt = self.tx_pkt[n]
        if n:
            ring_get(pkt, self.tx, TX_SIZE, self.tx_tail, n)
        self.tx_zlp = n == PKT
        self.tx_inflight = n
        try:
            if not self.usbd.submit_xfer(EP_IN, pkt):
                self.tx_inflight = -1
        except OSError:
            self.tx_inflight = -1

    def _clear_tx(self):
        # Drop what is not in flight (a transfer in flight keeps its bytes counted).
        keep = self.tx_inflight if self.tx_inflight > 0 else 0
        self.tx_count = keep
        h = self.tx_tail + keep
        self.tx_head = h - TX_SIZE if h >= TX_SIZE else h

    # -- the stream the link uses (see link.py) ---------------------------------------

    def read_into(self, buf, pos, n):
        """Up to n received bytes into buf[pos:], stopping after a 00; the count."""
        got = self.rx_st[0]
        k = read_slots(buf, pos, n, self.rx_args)
        if self.rx_st[0] != got and not self.rx_armed:
            self._arm_rx()  # slots are free again: take the host's next packet
        return k

    def pending(self):
        st = self.rx_st
        return st[0] != st[1]

    def write(self, buf, n):
        """Queue buf[:n] whole, or nothing (False) if the ring cannot take it all."""
        if not self.configured or n > TX_SIZE - self.tx_count:
            return False
        ring_put(self.tx, TX_SIZE, self.tx_head, buf, n)
        h = self.tx_head + n
        self.tx_head = h - TX_SIZE if h >= TX_SIZE else h
        self.tx_count += n
        if self.tx_inflight < 0:
            self._kick_tx()
        return True

    def flush(self):
        return True  # the ring drains from the transfer callbacks

    def wait(self, timeout_ms):
        """Sleep until bytes arrive or timeout_ms passes; True if bytes are waiting. In
        1 ms sleeps: MicroPython's sleep runs the transfer callbacks and idles the CPU in
        C between wake-ups (a Python loop around machine.idle() cost more than a scan)."""
        sleep = time.sleep_ms
        st = self.rx_st
        while st[0] == st[1]:
            if timeout_ms <= 0:
                return False
            sleep(1)
            timeout_ms -= 1
        return True


def start():
    """Take over the USB serial port (boot.py); the port, or None if this MicroPython
    cannot (then the built-in CDC stays and main.py reads stdin as before)."""
    global _cdc
    import machine

    try:
        usbd = machine.USBDevice()
        cdc = UsbCdc(usbd)
        builtin = usbd.BUILTIN_DEFAULT  # MicroPython's own CDC descriptors, reused
        # ...answered by us, not by TinyUSB's CDC (builtin_driver: machine_usb_device.c
        # has it, the stubs do not)
        usbd.builtin_driver = usbd.BUILTIN_NONE  # type: ignore[attr-defined]
        usbd.config(
            bytes(builtin.desc_dev),
            bytes(builtin.desc_cfg),
            None,  # no strings of our own: the built-in ones
            cdc._open_cb,
            cdc._reset_cb,
            cdc._control_cb,
            cdc._xfer_cb,
        )
        usbd.active(True)
    except (AttributeError, OSError, ValueError, TypeError):
        return None
    _cdc = cdc
    return cdc


def running():
    return _cdc
