# Register pokes for chain_dma.py (Pico only): the /PL pulse through the SIO and the two
# DMA channels started, without a Python call per register.
# mypy: disable-error-code="name-defined,valid-type,operator,index"
# ruff: noqa: F821 -- ptr32 exists only inside @micropython.viper

import micropython

SIO_OUT_SET = 5  # word index of GPIO_OUT_SET (0xd0000014)
SIO_OUT_CLR = 6  # GPIO_OUT_CLR (0xd0000018)


@micropython.viper
def kick(regs: ptr32):
    sio = ptr32(0xD0000000)
    mask = regs[6]
    sio[6] = mask  # /PL low: the 74HC165s load their inputs
    i = 0
    while i < 8:  # hold it low for more than 100 ns (the 74HC165's tw at 2 V is 100 ns)
        i += 1
    sio[5] = mask  # /PL high: shift mode
    rx = ptr32(regs[0])
    rx[0] = regs[4]  # READ_ADDR: SSPDR
    rx[1] = regs[7]  # WRITE_ADDR: the buffer
    rx[2] = regs[8]  # TRANS_COUNT
    rx[3] = regs[1]  # CTRL_TRIG: go
    tx = ptr32(regs[2])
    tx[0] = regs[5]  # the zero byte
    tx[1] = regs[4]  # into SSPDR
    tx[2] = regs[8]
    tx[3] = regs[3]


@micropython.viper
def wait_done(regs: ptr32):
    rx = ptr32(regs[0])
    while rx[3] & 0x1000000:  # CTRL_TRIG.BUSY
        pass
