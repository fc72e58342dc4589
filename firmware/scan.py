# Reading the reed switches through a chain of 74HC165 shift registers over SPI.
#
# Bit order (the "chain bit index" used everywhere else): bit i is the i-th bit clocked
# out, that is chip i // 8 (chip 0 is the one wired to the Pico's MISO) and input
# D(7 - i % 8) (H first, as a 74HC165 shifts QH out first). In a sample, bit i is
# byte i >> 3, mask 0x80 >> (i & 7), and 1 means "switch closed" (a pawn on the hole).
#
# Broken-chain check: the serial input (DS, pin 10) of the LAST chip is tied to a fixed
# level (GND by default). Clocking tail_bytes more bytes than the chain holds must then
# read that level; anything else means a broken data line, a chip missing or a wrong
# chip count in the configuration.


class ChainScanner:
    def __init__(self, spi, latch, chips, tail_bytes=1, tail_level=0, active_low=True):
        self.spi = spi
        self.latch = latch
        self.chips = chips
        self.n_bits = chips * 8
        self.buf = bytearray(chips + tail_bytes)
        self.sample = bytearray(chips)
        self.tail = bytes((0xFF if tail_level else 0x00,)) * tail_bytes
        self.invert = 0xFF if active_low else 0x00
        self.scans = 0
        self.chain_errors = 0
        self.chain_ok = True

    def scan(self):
        """Read the chain once into self.sample; return False if the chain looks broken."""
        self.latch.value(0)  # SH/LD low: load the parallel inputs
        self.latch.value(1)  # high again: shift mode
        buf = self.buf
        self.spi.readinto(buf)
        self.scans += 1
        chips = self.chips
        if buf[chips:] != self.tail:
            self.chain_errors += 1
            self.chain_ok = False
            return False
        self.chain_ok = True
        sample = self.sample
        inv = self.invert
        for j in range(chips):
            sample[j] = buf[j] ^ inv
        return True
