# The names a viper module uses, for running it as plain Python where MicroPython is not
# (CPython: the tests, the benches, the emulator's host side). Each of the firmware's hot
# loops is written once, in its *_viper.py module; on the Pico (and the unix port) it is
# compiled to native code, elsewhere that module imports these and the same source runs
# as Python. Installed with the rest (the viper modules name it), never imported there.
#
# The one difference to mind when writing a viper loop: viper ints are 32-bit machine
# words and a ptr8 store keeps the low 8 bits; Python ints are unbounded and a bytearray
# refuses 256. The loops keep every value in range, and tests/firmware runs each one both
# ways on random inputs (test_fw_protocol.py, test_fw_leds.py).


class micropython:  # noqa: N801 -- stands in for the module of that name
    @staticmethod
    def viper(f):
        return f


def ptr8(buf):
    """viper's cast to a byte pointer: here a buffer indexes as its own pointer"""
    return buf


ptr16 = ptr8
ptr32 = ptr8
