# Debouncing the switch samples: a bit changes only after `samples` consecutive samples
# agree on its new value. Byte-wise (and/or over the recent samples) so a scan of a
# 24-chip chain costs a byte comparison when nothing moves.


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

    def reset(self, state):
        self.stable[:] = state
        for h in self.hist:
            h[:] = state
        self.quiet = self.samples

    def update(self, sample):
        """Take one sample; return the list of (bit, closed) that became stable now."""
        hist = self.hist
        hist[self.pos][:] = sample
        self.pos = (self.pos + 1) % self.samples
        stable = self.stable
        if sample == stable:
            # No bit can flip while the newest sample agrees with the stable state.
            self.quiet += 1
            return []
        self.quiet = 0
        changes = []
        for j in range(self.n_bytes):
            old = stable[j]
            if sample[j] == old:
                continue
            all1 = 0xFF
            any1 = 0
            for h in hist:
                v = h[j]
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
                        changes.append((base + k, bool(new & m)))
        return changes

    def closed(self, bit):
        return bool(self.stable[bit >> 3] & (0x80 >> (bit & 7)))
