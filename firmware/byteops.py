# The link's per-byte loops, allocation-free: CRC over a buffer, COBS in place and into a
# buffer, copies and ring copies. Native code on MicroPython (proto_viper.py), the Python
# below elsewhere (CPython tests); tests/firmware pins the two to the same results under
# the unix port. protocol.py re-exports them.


def _make_table():
    table = []
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        table.append(c & 0xFFFF)
    return table


_CRC_TABLE = _make_table()


def _crc16_n_py(buf, start, end):
    """crc16 of buf[start:end] without slicing (allocation-free)."""
    t = _CRC_TABLE
    crc = 0xFFFF
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ buf[i]) & 0xFF]
    return crc ^ 0xFFFF


def _cobs_decode_inplace_py(buf, n):
    """Decode the COBS block buf[:n] in place (the output never overtakes the input);
    the decoded length, or -1 if malformed. Allocation-free."""
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


def _copy_py(dst, doff, src, soff, n):
    for i in range(n):
        dst[doff + i] = src[soff + i]


def _xor_copy_py(dst, src, n, x):
    for i in range(n):
        dst[i] = src[i] ^ x


def _ring_put_py(ring, size, head, src, n):
    j = head
    for i in range(n):
        ring[j] = src[i]
        j += 1
        if j >= size:
            j = 0


def _ring_get_py(dst, ring, size, tail, n):
    j = tail
    for i in range(n):
        dst[i] = ring[j]
        j += 1
        if j >= size:
            j = 0


def _cobs_encode_into_py(out, body, n):
    out[0] = 0
    code_at = 1
    k = 2
    code = 1
    for i in range(n):
        b = body[i]
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


def _read_slots_py(dst, dpos, n, rx):
    slots, lens, st = rx[0], rx[1], rx[2]
    get, put, pos, mask = st[0], st[1], st[2], st[3]
    k = 0
    done = False
    while k < n and get != put and not done:
        i = get & mask
        src = slots[i]
        ln = lens[i]
        while pos < ln and k < n:
            b = src[pos]
            pos += 1
            dst[dpos + k] = b
            k += 1
            if b == 0:
                done = True
                break
        if pos >= ln:
            pos = 0
            get += 1
    st[0] = get
    st[2] = pos
    return k


def _put_words_py(dst, off, words, n):
    for i in range(n):
        w = words[i]
        j = off + 4 * i
        dst[j] = w & 0xFF
        dst[j + 1] = (w >> 8) & 0xFF
        dst[j + 2] = (w >> 16) & 0xFF
        dst[j + 3] = (w >> 24) & 0xFF


try:  # native code on MicroPython, the Python above elsewhere
    from array import array

    import proto_viper as _V

    _CRC_ARRAY = array("H", _CRC_TABLE)

    def crc16_n(buf, start, end):
        return _V.crc16_n(buf, start, end, _CRC_ARRAY)

    cobs_decode_inplace = _V.cobs_decode_inplace
    copy = _V.copy
    xor_copy = _V.xor_copy
    ring_put = _V.ring_put
    ring_get = _V.ring_get
    cobs_encode_into = _V.cobs_encode_into
    read_slots = _V.read_slots
    put_words = _V.put_words
except ImportError:
    crc16_n = _crc16_n_py
    cobs_decode_inplace = _cobs_decode_inplace_py
    copy = _copy_py
    xor_copy = _xor_copy_py
    ring_put = _ring_put_py
    ring_get = _ring_get_py
    cobs_encode_into = _cobs_encode_into_py
    read_slots = _read_slots_py
    put_words = _put_words_py
