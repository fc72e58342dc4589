# A non-blocking byte stream over MicroPython's stdin/stdout (USB CDC on the Pico, a
# pty under the unix port). stdin reads block until they are full, so read one byte at
# a time while poll() says more is waiting.

import select


class PollStream:
    def __init__(self, poll_obj, rx, tx, max_read=2048):
        self.rx = rx
        self.tx = tx
        self.max_read = max_read
        self.poller = select.poll()
        self.poller.register(poll_obj, select.POLLIN)
        self.hangup = False

    def _readable(self, timeout_ms):
        for _, ev in self.poller.poll(timeout_ms):
            self.hangup = bool(ev & (select.POLLHUP | select.POLLERR)) and not ev & select.POLLIN
            return bool(ev & select.POLLIN)
        return False

    def read(self):
        out = bytearray()
        rx = self.rx
        while len(out) < self.max_read and self._readable(0):
            try:
                b = rx.read(1)
            except OSError:
                break
            if not b:
                break
            out.extend(b)
        return bytes(out) if out else None

    def write(self, data):
        try:
            self.tx.write(data)
        except OSError:
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
