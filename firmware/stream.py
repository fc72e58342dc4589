# A non-blocking byte stream over MicroPython's stdin/stdout, allocation-free: the unix
# port's pty in tests, and on the Pico the built-in USB CDC if usb_cdc.py could not take
# the port over.
#
# Reading: stdin reads block until their buffer is full, so one byte at a time, and only
# while poll says input is waiting (all in one tight loop: the per-byte cost matters).
# Writing never waits: a frame goes whole into an output ring or, if the ring cannot take
# it, is dropped whole (counted by the link); flush() writes from the ring only while poll
# says the port takes data, at most `chunk` bytes a write, and keeps what the port did not
# take for the next loop pass. `chunk` is what a write can be sure to place at once: on
# the built-in CDC POLLOUT means one byte free (a longer write would wait up to 500 ms for
# a host that stopped reading), on a non-blocking pty the write itself says how much went.

import select

from protocol import ring_put

OUT_SIZE = 2048


class PollStream:
    def __init__(self, poll_in, rx, tx, poll_out=None, chunk=OUT_SIZE):
        self.rx = rx
        self.tx = tx
        self.poller = select.poll()
        self.poller.register(poll_in, select.POLLIN)
        self.out_poller = select.poll()
        self.out_poller.register(poll_out if poll_out is not None else tx, select.POLLOUT)
        self.one = bytearray(1)
        self.hangup = False
        self.chunk = chunk
        self.out = bytearray(OUT_SIZE)
        self.out_head = 0
        self.out_tail = 0
        self.out_count = 0
        self.partial = 0  # writes the port took only in part (the rest went later)
        self.max_read = 64  # bytes per link poll: each costs a poll and a read here

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
        """Queue buf[:n] whole, or nothing (False) if the ring cannot take it; then send
        what the port takes now."""
        if n > OUT_SIZE - self.out_count:
            self.flush()
            if n > OUT_SIZE - self.out_count:
                return False
        ring_put(self.out, OUT_SIZE, self.out_head, buf, n)
        h = self.out_head + n
        self.out_head = h - OUT_SIZE if h >= OUT_SIZE else h
        self.out_count += n
        self.flush()
        return True

    def flush(self):
        """Write from the ring while the port polls writable; True when it is empty."""
        while self.out_count and self.writable():
            n = OUT_SIZE - self.out_tail  # contiguous part
            if n > self.out_count:
                n = self.out_count
            if n > self.chunk:
                n = self.chunk
            try:
                w = self.tx.write(self.out, self.out_tail, n)
            except OSError:
                return False
            if w is None:  # EAGAIN on a non-blocking port: nothing went
                return False
            if w < n:
                self.partial += 1
            t = self.out_tail + w
            self.out_tail = t - OUT_SIZE if t >= OUT_SIZE else t
            self.out_count -= w
            if w < n:
                return False
        return not self.out_count

    def pending(self):
        for ev in self.poller.ipoll(0):
            return bool(ev[1] & select.POLLIN)
        return False

    def wait(self, timeout_ms):
        """Sleep until input arrives or timeout_ms passes; True if input is waiting."""
        if self._readable(timeout_ms):
            return True
        if self.hangup and timeout_ms > 0:
            # No peer (pty closed): poll() returns at once, so sleep instead of spinning.
            import time

            time.sleep_ms(timeout_ms)
        return False
