# What the type checker sees of scan_viper.py: viper's ptr8 takes any buffer.
Buf = bytearray | bytes | memoryview

def check_sample(
    buf: Buf, n: int, chips: int, sig: int, tail: int, invert: int, sample: bytearray, stable: Buf
) -> int: ...
