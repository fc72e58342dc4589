# Reading the reed switches through a chain of 74HC165 shift registers over SPI.
#
# Bit order (the "chain bit index" used everywhere else): SPI mode 0, MSB first; bit i
# is the i-th bit clocked out after the /PL latch, that is chip i // 8 (chip 0 is the one
# whose QH, pin 9, drives the Pico's MISO) and input (H, G, ... A)[i % 8], H (pin 6)
# first. In a sample, bit i is byte i >> 3, mask 0x80 >> (i & 7), and 1 means "switch
# closed" (a pawn on the hole).
#
# Chain check: chip k's DS (pin 10) is fed by chip k+1's QH; the LAST chip's DS is tied
# to 3V3 (tail_level 1) and MISO is pulled down, so an open, unplugged or unpowered line
# reads 0. After the switch chips come the optional signature chip (inputs hard-wired,
# e.g. 0xA5) and then tail_bytes bytes that must read all ones. Any mismatch is a chain
# fault: the sample is discarded (never reported as closed switches) and, after a fault,
# the chain must read right RECOVER_SCANS times in a row before samples count again (a
# floating input can pass one check by chance, not four).


from array import array

from scan_viper import check_sample  # native on MicroPython, Python elsewhere

TYPE_CHECKING = False  # MicroPython has no typing module; mypy reads this as True
if TYPE_CHECKING:
    from hw_types import ChainSpi, LatchPin

SPI_POLARITY = 0  # SPI mode 0: the 74HC165 shifts on the rising edge of CP, and mode 0
SPI_PHASE = 0  # samples on that same edge, so the bit before the shift is read

FAULT_NONE = 0
FAULT_OPEN = 1  # every byte read 0: nothing drives MISO (unplugged, unpowered, cut)
FAULT_TAIL = 2  # the tail did not read all ones: cut mid-chain, chip missing, too many chips
FAULT_SIGNATURE = 3  # the signature byte is wrong: wrong chip count, or a floating input
FAULT_TEXT = (
    "ok",
    "open data line (reads 0: unplugged, unpowered or cut before chip 0)",
    "tail bits wrong (chain cut, chip missing or wrong chip count)",
    "signature byte wrong (wrong chip count or a floating input)",
)
RECOVER_SCANS = 4


class ChainScanner:
    def __init__(
        self,
        spi: "ChainSpi",
        latch: "LatchPin",
        chips: int,
        tail_bytes: int = 1,
        tail_level: int = 1,
        active_low: bool = True,
        signature: "int | None" = None,
    ) -> None:
        self.spi = spi
        self.latch = latch
        self.chips = chips
        self.n_bits = chips * 8
        self.signature = signature
        self.sig_bytes = 0 if signature is None else 1
        self.buf = bytearray(chips + self.sig_bytes + tail_bytes)
        self.sample = bytearray(chips)
        self.stable = bytearray(chips)  # the app puts the debouncer's state here
        self.same = True
        self.tail = 0xFF if tail_level else 0x00
        self.invert = 0xFF if active_low else 0x00
        # what check_sample needs, as one word array (a call with fewer arguments: see
        # app.py on MicroPython's frame limit)
        self.params = array(
            "i",
            [len(self.buf), chips, 256 if signature is None else signature, self.tail, self.invert],
        )
        self.scans = 0
        self.chain_errors = 0
        self.chain_ok = False  # trusted only after RECOVER_SCANS good reads
        self.fault = FAULT_NONE  # the last read's verdict
        self.good_run = 0

    def check(self):
        """The verdict on self.buf (a FAULT_* code); allocation-free. A good read is also
        inverted into self.sample (1 = closed) and compared with self.stable (self.same)."""
        r = check_sample(self.buf, self.params, self.sample, self.stable)
        if r == 4:
            self.same = False
            return FAULT_NONE
        self.same = True
        return r

    def scan(self):
        """Read the chain once into self.sample; False if the sample is not to be trusted
        (a fault now, or too soon after one). self.same says whether it equals
        self.stable (the debounced state the app shares with the scanner)."""
        latch = self.latch
        latch.value(0)  # /PL low: load the parallel inputs
        latch.value(1)  # high again: shift mode
        self.spi.readinto(self.buf)
        return self.take()

    def take(self):
        """Judge the read now in self.buf (scan() above; chain_dma.py on the Pico)."""
        self.scans += 1
        fault = self.check()
        self.fault = fault
        if fault:
            self.chain_errors += 1
            self.chain_ok = False
            self.good_run = 0
            return False
        if not self.chain_ok:
            self.good_run += 1
            if self.good_run < RECOVER_SCANS:
                return False
            self.chain_ok = True
        return True
