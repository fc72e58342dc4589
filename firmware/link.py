# The Pico's end of the serial link: frames in and out over a byte stream.
#
# `stream` is any object with read() -> bytes or None (non-blocking: what has arrived)
# and write(data) -> bool (False if the bytes could not be sent). On the Pico it wraps
# USB CDC stdin/stdout, under tests a pty or a list.

import protocol as P


class Link:
    def __init__(self, stream):
        self.stream = stream
        self.decoder = P.Decoder()
        self.tx_seq = 0
        self.rx_seq = -1  # -1: no frame seen since the host's last HELLO
        self.rx_gaps = 0
        self.rx_frames = 0
        self.tx_frames = 0
        self.tx_dropped = 0
        self.polls = 0
        self.last_rx_ms = None

    @property
    def rx_bad(self):
        return self.decoder.frames_bad

    def poll(self, now_ms):
        """Read what has arrived; return the good frames as (type, seq, payload)."""
        self.polls += 1
        data = self.stream.read()
        if not data:
            return []
        frames = self.decoder.feed(data)
        for msg_type, seq, _ in frames:
            if msg_type == P.CMD_HELLO:
                pass  # a (re)connecting host starts its sequence afresh
            elif self.rx_seq >= 0 and seq != (self.rx_seq + 1) & 0xFFFF:
                self.rx_gaps += 1
            self.rx_seq = seq
            self.rx_frames += 1
            self.last_rx_ms = now_ms
        return frames

    def send(self, msg_type, payload=b""):
        frame = P.encode_frame(msg_type, self.tx_seq, payload)
        self.tx_seq = (self.tx_seq + 1) & 0xFFFF
        if self.stream.write(frame) is False:
            self.tx_dropped += 1
            return False
        self.tx_frames += 1
        return True
