# The scanner's per-scan work of scan.py, written once as viper: the chain check, the
# inversion into the sample and the comparison with the debounced state, in one pass.
# Native code on MicroPython; elsewhere (CPython) the same source runs as plain Python
# (viper_py.py). tests/firmware runs it both ways under the unix port.
# mypy: disable-error-code="name-defined,valid-type,operator,index"
# ruff: noqa: F821 -- ptr8 exists only inside @micropython.viper

try:
    import micropython
except ImportError:  # CPython: the same functions as plain Python
    from viper_py import micropython, ptr8, ptr16, ptr32  # noqa: F401


@micropython.viper
def check_sample(buf: ptr8, p: ptr32, sample: ptr8, stable: ptr8) -> int:
    # p = [len(buf), chips, signature (256: none), tail byte, inversion mask].
    # 1 open line, 2 tail, 3 signature (as scan.FAULT_*), else the sample is written:
    # 0 if it equals `stable`, 4 if it differs.
    n = p[0]
    chips = p[1]
    sig = p[2]
    tail = p[3]
    invert = p[4]
    first_tail = chips if sig > 255 else chips + 1
    j = first_tail
    while j < n:
        if buf[j] != tail:
            k = 0
            while k < n:
                if buf[k]:
                    return 2
                k += 1
            return 1
        j += 1
    if sig < 256 and buf[chips] != sig:
        return 3
    same = 1
    i = 0
    while i < chips:
        v = buf[i] ^ invert
        sample[i] = v
        if v != stable[i]:
            same = 0
        i += 1
    return 0 if same else 4
