# The Pico's end of the serial link: frames in and out over a byte stream, without
# allocating (preallocated buffers; received bytes go straight into a FrameReader).
#
# `stream` has read_into(buf, pos, n) -> count (non-blocking: the bytes waiting, at most
# n, stopping after a 00 byte; 0 when nothing is waiting), write(buf, n) -> bool (False
# if the n bytes could not be queued whole: the frame is dropped, never waited for),
# flush() (send what is queued, as far as the port takes it now), pending() (bytes are
# waiting) and max_read (bytes per poll). On the Pico it is usb_cdc.UsbCdc (bulk reads
# from USB packet buffers) or, as a fallback, stream.PollStream on the built-in CDC;
# under tests a pty or a list.

import protocol as P

TYPE_CHECKING = False  # MicroPython has no typing module; mypy reads this as True
if TYPE_CHECKING:
    from hw_types import Stream

MAX_READ = 64  # bytes per poll for a stream that says nothing (see stream.max_read)


class Link:
    def __init__(self, stream: "Stream") -> None:
        self.stream = stream
        self.max_read = getattr(stream, "max_read", MAX_READ)
        self.pending = stream.pending  # bytes waiting? (bound once: called every step)
        self.reader = P.FrameReader()
        self.tx_body = bytearray(P.MAX_BODY + 2)
        self.tx_wire = bytearray(P.MAX_WIRE + 2)
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
        return self.reader.frames_bad

    # -- receiving ---------------------------------------------------------------------

    def poll(self, now_ms):
        """Read what has arrived, up to one frame; True if a good frame is now in
        self.reader (type self.msg_type(), payload self.reader.buf[3:self.reader.end]).
        Call again until False."""
        self.polls += 1
        if not self.stream.pending():
            return False
        reader = self.reader
        if not reader.read_from(self.stream, self.max_read):
            return False
        buf = reader.buf
        seq = buf[1] | (buf[2] << 8)
        if buf[0] == P.CMD_HELLO:
            pass  # a (re)connecting host starts its sequence afresh
        elif self.rx_seq >= 0 and seq != (self.rx_seq + 1) & 0xFFFF:
            self.rx_gaps += 1
        self.rx_seq = seq
        self.rx_frames += 1
        self.last_rx_ms = now_ms
        return True

    def flush(self):
        """Send what the stream still holds (writes never wait: see stream.py)."""
        self.stream.flush()

    def msg_type(self):
        return self.reader.buf[0]

    # -- sending -----------------------------------------------------------------------

    def body(self):
        """The buffer to put a payload in, from index 3 (then call finish)."""
        return self.tx_body

    def finish(self, msg_type, length):
        """Send the frame whose payload is tx_body[3:3 + length]."""
        body = self.tx_body
        body[0] = msg_type & 0xFF
        body[1] = self.tx_seq & 0xFF
        body[2] = (self.tx_seq >> 8) & 0xFF
        self.tx_seq = (self.tx_seq + 1) & 0xFFFF
        n = P.encode_frame_into(self.tx_wire, body, 3 + length)
        if not self.stream.write(self.tx_wire, n):
            self.tx_dropped += 1
            return False
        self.tx_frames += 1
        return True

    def send(self, msg_type, payload=b"", start=0, length=-1):
        """Send payload[start:start + length] (all of it by default), copied byte by byte
        into the preallocated body."""
        if length < 0:
            length = len(payload) - start
        if length > P.MAX_BODY - 5:
            length = P.MAX_BODY - 5
        body = self.tx_body
        for i in range(length):
            body[3 + i] = payload[start + i]
        return self.finish(msg_type, length)
