# The link's per-byte loops, allocation-free: CRC over a buffer, COBS in place and into a
# buffer, copies and ring copies. One source, proto_viper.py: native code on MicroPython,
# the same functions as plain Python elsewhere (viper_py.py). This module adds the CRC's
# table; protocol.py re-exports everything.

from array import array

from proto_viper import (  # noqa: F401 -- re-exported
    cobs_decode_inplace,
    cobs_encode_into,
    copy,
    put_words,
    read_slots,
    ring_get,
    ring_put,
    xor_copy,
)
from proto_viper import crc16_n as _crc16_n


def _make_table():
    table = []
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        table.append(c & 0xFFFF)
    return table


_CRC_TABLE = _make_table()
_CRC_ARRAY = array("H", _CRC_TABLE)


def crc16_n(buf, start, end):
    """crc16 of buf[start:end] without slicing (allocation-free)."""
    return _crc16_n(buf, start, end, _CRC_ARRAY)
