# The link's per-byte loops, written once as viper: CRC over a buffer, COBS in place and
# into a buffer, copies and ring copies, the USB packet slots' reader. Native code on
# MicroPython; elsewhere (CPython) the same source runs as plain Python (viper_py.py).
# byteops.py / protocol.py re-export them; tests/firmware runs each both ways under the
# unix port and checks them against protocol.py's plain reference codecs.
# mypy: disable-error-code="name-defined,valid-type,operator,index"
# ruff: noqa: F821 -- ptr8/ptr16 exist only inside @micropython.viper

try:
    import micropython
except ImportError:  # CPython: the same functions as plain Python
    from viper_py import micropython, ptr8, ptr16, ptr32  # noqa: F401


@micropython.viper
def crc16_n(buf: ptr8, start: int, end: int, table: ptr16) -> int:
    crc = 0xFFFF
    i = start
    while i < end:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ buf[i]) & 0xFF]
        i += 1
    return crc ^ 0xFFFF


@micropython.viper
def cobs_decode_inplace(buf: ptr8, n: int) -> int:
    i = 0
    j = 0
    while i < n:
        code = buf[i]
        if code == 0:
            return -1
        end = i + code
        if end > n:
            return -1
        i += 1
        while i < end:
            buf[j] = buf[i]
            j += 1
            i += 1
        if code != 0xFF and i < n:
            buf[j] = 0
            j += 1
    return j


@micropython.viper
def copy(dst: ptr8, doff: int, src: ptr8, soff: int, n: int):
    i = 0
    while i < n:
        dst[doff + i] = src[soff + i]
        i += 1


@micropython.viper
def xor_copy(dst: ptr8, src: ptr8, n: int, x: int):
    i = 0
    while i < n:
        dst[i] = src[i] ^ x
        i += 1


@micropython.viper
def ring_put(ring: ptr8, size: int, head: int, src: ptr8, n: int):
    # src[:n] into the ring from index head, wrapping at size.
    i = 0
    j = head
    while i < n:
        ring[j] = src[i]
        i += 1
        j += 1
        if j >= size:
            j = 0


@micropython.viper
def ring_get(dst: ptr8, ring: ptr8, size: int, tail: int, n: int):
    # n bytes of the ring from index tail (wrapping at size) into dst[:n].
    i = 0
    j = tail
    while i < n:
        dst[i] = ring[j]
        i += 1
        j += 1
        if j >= size:
            j = 0


@micropython.viper
def cobs_encode_into(out: ptr8, body: ptr8, n: int) -> int:
    # 00 COBS(body[:n]) 00 into out; the wire length.
    out[0] = 0
    code_at = 1
    k = 2
    code = 1
    i = 0
    while i < n:
        b = body[i]
        i += 1
        if b == 0:
            out[code_at] = code
            code_at = k
            k += 1
            code = 1
        else:
            out[k] = b
            k += 1
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = k
                k += 1
                code = 1
    out[code_at] = code
    out[k] = 0
    return k + 1


@micropython.viper
def read_slots(dst: ptr8, dpos: int, n: int, rx) -> int:
    # Copy at most n received bytes from packet slots into dst[dpos:], stopping after a
    # 00; the count copied. rx = [slots (a list of buffers), lens (slot i holds lens[i]
    # bytes), st]; st = [slots consumed, slots filled, read position in the current slot,
    # slot index mask], updated here.
    slots = rx[0]
    lens = ptr8(rx[1])
    st = ptr32(rx[2])
    mask = st[3]
    get = st[0]
    put = st[1]
    pos = st[2]
    k = 0
    done = 0
    while k < n and get != put and not done:
        i = get & mask
        src = ptr8(slots[i])
        ln = lens[i]
        while pos < ln and k < n:
            b = src[pos]
            pos += 1
            dst[dpos + k] = b
            k += 1
            if b == 0:
                done = 1
                break
        if pos >= ln:
            pos = 0
            get += 1
    st[0] = get
    st[2] = pos
    return k


@micropython.viper
def put_words(dst: ptr8, off: int, words: ptr32, n: int):
    # n 32-bit words into dst[off:], little-endian (the heartbeat's counters).
    i = 0
    j = off
    while i < n:
        w = words[i]
        dst[j] = w & 0xFF
        dst[j + 1] = (w >> 8) & 0xFF
        dst[j + 2] = (w >> 16) & 0xFF
        dst[j + 3] = (w >> 24) & 0xFF
        i += 1
        j += 4
