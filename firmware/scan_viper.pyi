# What the type checker sees of scan_viper.py: viper's ptr8/ptr32 take any buffer.
from array import array

Buf = bytearray | bytes | memoryview

def check_sample(buf: Buf, p: array[int], sample: bytearray, stable: Buf) -> int: ...
