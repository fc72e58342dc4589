# A non-blocking byte stream over MicroPython's stdin/stdout (USB CDC on the Pico, a
# pty under the unix port), allocation-free.
#
# Reading: stdin reads block until their buffer is full, so one byte at a time, and only
# while poll says input is waiting (all in one tight loop: the per-byte cost matters).
# Writing: MicroPython's CDC write waits up to 500 ms for a host that does not read and
# then drops what is left, so a frame is written only
# when poll says the port can take data; a frame that cannot be written, or only in
# part, counts as dropped (the host's decoder discards the half frame at the next 00).

import select


class PollStream:
    def __init__(self, poll_in, rx, tx, poll_out=None):
        self.rx = rx
        self.tx = tx
        self.poller = select.poll()
        self.poller.register(poll_in, select.POLLIN)
        self.out_poller = select.poll()
        self.out_poller.register(poll_out if poll_out is not None else tx, select.POLLOUT)
        self.one = bytearray(1)
        self.hangup = False
        self.partial = 0  # writes the port took only in part

    def _readable(self, timeout_ms):
        for ev in self.poller.ipoll(timeout_ms):
            flags = ev[1]
            self.hangup = (
                bool(flags & (select.POLLHUP | select.POLLERR)) and not flags & select.POLLIN
            )
            return bool(flags & select.POLLIN)
        return False

    def writable(self):
        for ev in self.out_poller.ipoll(0):
            return bool(ev[1] & select.POLLOUT)
        return False

    def read_into(self, buf, pos, n):
        """Up to n waiting bytes into buf[pos:], stopping after a 00 byte; the count."""
        poller = self.poller
        rx = self.rx
        one = self.one
        k = 0
        while k < n:
            ready = 0
            for ev in poller.ipoll(0):
                ready = ev[1] & 1  # POLLIN
            if not ready:
                break
            try:
                if not rx.readinto(one):
                    break
            except OSError:
                break
            b = one[0]
            buf[pos + k] = b
            k += 1
            if b == 0:
                break
        return k

    def write(self, buf, n):
        if not self.writable():
            return False
        try:
            w = self.tx.write(buf, n)
        except OSError:
            return False
        if w is not None and w < n:
            self.partial += 1
            return False
        return True

    def wait(self, timeout_ms):
        """Sleep until input arrives or timeout_ms passes; True if input is waiting."""
        if self._readable(timeout_ms):
            return True
        if self.hangup and timeout_ms > 0:
            # No peer (pty closed): poll() returns at once, so sleep instead of spinning.
            import time

            time.sleep_ms(timeout_ms)
        return False
