# The chain read by DMA on the Pico: machine.SPI sets the peripheral up (pins, clock, mode
# 0, MSB first) and two DMA channels move the bytes, paced by the SPI's DREQs: one feeds
# the TX FIFO with zeros (the master clocks only while it has bytes to send), one drains
# the RX FIFO into the scanner's buffer. The CPU pulses /PL and starts both (a few
# register writes in viper, chain_dma_viper.py) and comes back a scan period later, when
# the read is long done; machine.SPI.readinto would wait the whole transfer (26 bytes at
# 1 MHz: 208 us, more than the rest of a scan step together).
#
# So each scan() judges the read the previous scan() started and starts the next: a
# sample is judged one scan period after its latch (2 ms at 500 Hz). The /PL latches, what
# the chain's timing depends on, stay exactly one period apart.

from array import array

import machine
import rp2
import uctypes
from chain_dma_viper import kick, wait_done
from scan import ChainScanner

SPI_BASE = (0x4003C000, 0x40040000)
SSPDR = 0x08
SSPDMACR = 0x24  # bit 0 RXDMAE, bit 1 TXDMAE
DREQ_SPI_TX = (16, 18)
DREQ_SPI_RX = (17, 19)
DMA_BASE = 0x50000000
DMA_CH_SIZE = 0x40


class DmaChainScanner(ChainScanner):
    def __init__(
        self,
        spi,
        spi_id,
        latch_pin,
        latch,
        chips,
        tail_bytes=1,
        tail_level=1,
        active_low=True,
        signature=None,
    ):
        ChainScanner.__init__(
            self, spi, latch, chips, tail_bytes, tail_level, active_low, signature
        )
        self.dma_rx = rp2.DMA()
        self.dma_tx = rp2.DMA()
        base = SPI_BASE[spi_id]
        machine.mem32[base + SSPDMACR] = 3
        rx_ctrl = self.dma_rx.pack_ctrl(
            size=0, inc_read=False, inc_write=True, treq_sel=DREQ_SPI_RX[spi_id]
        )
        tx_ctrl = self.dma_tx.pack_ctrl(
            size=0, inc_read=False, inc_write=False, treq_sel=DREQ_SPI_TX[spi_id]
        )
        self.zero = bytearray(4)
        # Everything the viper side needs, as words: channel register blocks, their
        # control words, the data register, the buffers' addresses, the /PL pin's mask.
        self.regs = array(
            "I",
            [
                # .channel: rp2_dma.c has it, the 1.28 stubs do not
                DMA_BASE + DMA_CH_SIZE * self.dma_rx.channel,  # type: ignore[attr-defined]
                rx_ctrl,
                DMA_BASE + DMA_CH_SIZE * self.dma_tx.channel,  # type: ignore[attr-defined]
                tx_ctrl,
                base + SSPDR,
                uctypes.addressof(self.zero),
                1 << latch_pin,
                uctypes.addressof(self.buf),
                len(self.buf),
            ],
        )
        self.started = False

    def scan(self):
        regs = self.regs
        if not self.started:
            self.started = True
            kick(regs)
            return False  # nothing read yet (not a fault)
        wait_done(regs)  # started a period ago: done, unless the bus is wedged
        ok = self.take()
        kick(regs)  # /PL pulse and the next read, judged at the next scan
        return ok


def make_scanner(cfg, spi, latch):
    """The DMA scanner, or the blocking one if no two DMA channels are free."""
    chain = (
        cfg["chips"],
        cfg["tail_bytes"],
        cfg["tail_level"],
        cfg["active_low"],
        cfg["signature"],
    )
    try:
        return DmaChainScanner(spi, cfg["spi_id"], cfg["latch_pin"], latch, *chain)
    except (OSError, ValueError, RuntimeError):
        return ChainScanner(spi, latch, *chain)
