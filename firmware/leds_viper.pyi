# What the type checker sees of leds_viper.py: viper's ptr8/ptr32 take any buffer.
from array import array

Buf = bytearray | bytes | memoryview

def scale(rgb: Buf, pats: Buf, levels: Buf, out: bytearray, n: int, b: int) -> int: ...
def dim(out: bytearray, n3: int, f: int) -> None: ...
def fill(out: bytearray, n3: int, v: int) -> None: ...
def pack_words(grb: Buf, words: array[int], n: int) -> None: ...
def set_ids(
    pats: bytearray,
    counts: array[int],
    src: Buf,
    start: int,
    end: int,
    first: int,
    n: int,
    n_ids: int,
) -> None: ...
