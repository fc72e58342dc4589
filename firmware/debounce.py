# Debouncing the switch samples: a bit changes only after `samples` consecutive samples
# agree on its new value. Byte-wise (and/or over the recent samples) so a scan of a
# 24-chip chain costs a byte comparison when nothing moves; step() allocates nothing.

from protocol import copy


class Debouncer:
    def __init__(self, n_bytes, samples=4):
        if samples < 1:
            raise ValueError("samples must be at least 1")
        self.n_bytes = n_bytes
        self.samples = samples
        self.stable = bytearray(n_bytes)
        self.hist = [bytearray(n_bytes) for _ in range(samples)]
        self.pos = 0
        self.quiet = samples  # how many samples in a row equalled `stable`
        # step()'s result: changed[k] = bit index | 0x8000 if it closed, k < count
        self.changed = [0] * (n_bytes * 8)

    def reset(self, state):
        stable = self.stable
        for j in range(self.n_bytes):
            stable[j] = state[j]
        for h in self.hist:
            for j in range(self.n_bytes):
                h[j] = state[j]
        self.quiet = self.samples

    def step(self, sample):
        """Take one sample; return how many bits became stable now (their entries are in
        self.changed). Allocation-free."""
        hist = self.hist
        n = self.n_bytes
        copy(hist[self.pos], 0, sample, 0, n)
        self.pos = (self.pos + 1) % self.samples
        stable = self.stable
        if sample == stable:
            # No bit can flip while the newest sample agrees with the stable state.
            self.quiet += 1
            return 0
        self.quiet = 0
        changed = self.changed
        count = 0
        for j in range(n):
            old = stable[j]
            if sample[j] == old:
                continue
            all1 = 0xFF
            any1 = 0
            for hh in hist:
                v = hh[j]
                all1 &= v
                any1 |= v
            new = (old | all1) & any1
            if new != old:
                stable[j] = new
                diff = new ^ old
                base = j << 3
                for k in range(8):
                    m = 0x80 >> k
                    if diff & m:
                        changed[count] = (base + k) | (0x8000 if new & m else 0)
                        count += 1
        return count

    def update(self, sample):
        """step() as a list of (bit, closed) (tests and benchmarks)."""
        n = self.step(sample)
        return [(v & 0x7FFF, bool(v & 0x8000)) for v in self.changed[:n]]

    def closed(self, bit):
        return bool(self.stable[bit >> 3] & (0x80 >> (bit & 7)))
