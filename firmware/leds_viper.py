# The LED hot loops of leds.py and ws2812.py, written once as viper: the same integer
# arithmetic, a few hundred times faster than bytecode on the Pico. Native code on
# MicroPython; elsewhere (CPython) the same source runs as plain Python (viper_py.py).
# tests/firmware runs each both ways under the unix port.
# mypy: disable-error-code="name-defined,valid-type,operator,index"
# ruff: noqa: F821 -- ptr8/ptr32 exist only inside @micropython.viper

try:
    import micropython
except ImportError:  # CPython: the same functions as plain Python
    from viper_py import micropython, ptr8, ptr16, ptr32  # noqa: F401


@micropython.viper
def scale(rgb: ptr8, pats: ptr8, levels: ptr8, out: ptr8, n: int, b: int) -> int:
    total = 0
    b1 = b + 1
    i = 0
    j = 0
    while i < n:
        s1 = ((levels[pats[i]] * b1) >> 8) + 1
        r = (rgb[j] * s1) >> 8
        g = (rgb[j + 1] * s1) >> 8
        bl = (rgb[j + 2] * s1) >> 8
        out[j] = g
        out[j + 1] = r
        out[j + 2] = bl
        total += r + g + bl
        i += 1
        j += 3
    return total


@micropython.viper
def dim(out: ptr8, n3: int, f: int):
    i = 0
    while i < n3:
        out[i] = (out[i] * f) >> 16
        i += 1


@micropython.viper
def fill(out: ptr8, n3: int, v: int):
    i = 0
    while i < n3:
        out[i] = v
        i += 1


@micropython.viper
def pack_words(grb: ptr8, words: ptr32, n: int):
    # One 32-bit FIFO word per LED, GRB left-aligned (the PIO program pulls 24 bits).
    i = 0
    j = 0
    while i < n:
        words[i] = (grb[j] << 24) | (grb[j + 1] << 16) | (grb[j + 2] << 8)
        i += 1
        j += 3


@micropython.viper
def set_ids(
    pats: ptr8, counts: ptr16, src: ptr8, start: int, end: int, first: int, n: int, n_ids: int
):
    # CMD_PATTERNS: the pattern ids src[start:end] for the LEDs from `first` on (those
    # below n), each LED's old id uncounted and its new one counted (counts[id] = LEDs
    # with that id). An id >= n_ids is shown steady (0), never an index out of range.
    j = first
    i = start
    while i < end and j < n:
        pid = src[i]
        if pid >= n_ids:
            pid = 0
        counts[pats[j]] -= 1
        counts[pid] += 1
        pats[j] = pid
        i += 1
        j += 1
