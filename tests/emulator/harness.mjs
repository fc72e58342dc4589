// The keezbord firmware on an emulated Raspberry Pi Pico (rp2040js), with the board's
// electronics modelled around it. See docs/emulator.md.
//
//   node harness.mjs CONFIG_JSON
//
// CONFIG_JSON (a file path) holds: uf2, bootrom, fs (littlefs image path), pty_fd (the
// pseudo-terminal master the host's pyserial talks to, inherited from the launcher),
// pins {sck, mosi, miso, latch, led, safe}, chain {...} (see the chain model below), pace
// (simulated seconds per wall second at most; 0 = flat out), safe_pin_low, echo_rx (keep
// the device's output as text), inject [{at, bytes}] (raw bytes into the CDC at a
// simulated time, from the very start).
//
// Control channel: one JSON object per line on stdin, one reply per line on stdout
// ({"id": ..., "ok": true, ...}); events the launcher did not ask for go to stderr.

import fs from 'node:fs';
import readline from 'node:readline';
import { RP2040, USBCDC } from 'rp2040js';

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const FS_OFFSET = 0xa0000;
const UF2_MAGIC0 = 0x0a324655;
const UF2_MAGIC1 = 0x9e5d5157;
const MAX_SLICE_NS = 2e6; // hand control back to Node's event loop at least every 2 ms simulated

// ---------------------------------------------------------------------------------------
// Images

function loadUf2(buf) {
  const blocks = [];
  for (let off = 0; off + 512 <= buf.length; off += 512) {
    if (buf.readUInt32LE(off) !== UF2_MAGIC0 || buf.readUInt32LE(off + 4) !== UF2_MAGIC1) {
      throw new Error(`UF2 block at ${off}: bad magic`);
    }
    const addr = buf.readUInt32LE(off + 12);
    const size = buf.readUInt32LE(off + 16);
    blocks.push([addr - 0x10000000, buf.subarray(off + 32, off + 32 + size)]);
  }
  return blocks;
}

const bootromBuf = fs.readFileSync(cfg.bootrom);
const bootrom = new Uint32Array(bootromBuf.buffer, bootromBuf.byteOffset, bootromBuf.length / 4);
const uf2Blocks = loadUf2(fs.readFileSync(cfg.uf2));
const fsImage = cfg.fs ? fs.readFileSync(cfg.fs) : null;

// ---------------------------------------------------------------------------------------
// Time: one simulated clock per boot; `base` keeps reported time continuous across the
// resets (watchdog, machine.reset()) that rebuild the chip.

let rp = null;
let cdc = null;
let base = 0; // simulated ns before the current boot
let busyCycles = 0; // CPU cycles executed (not sleeping in WFI), over all boots
let idleNs = 0;
let boots = 0;
const nowNs = () => base + rp.clock.nanos;

// ---------------------------------------------------------------------------------------
// 74HC165 chain on SPI + latch pin.
//
// Chain bit i is chip i>>3, input H..A (first bit out = H of chip 0, MSB first); a closed
// reed switch pulls its input low (active low), an open one reads high through its pull-up.
// After the switch chips comes the optional signature chip, then the last chip's DS (tail
// level) repeats for ever. Faults:
//   mode "ok"        the chain as wired (chips may differ from the firmware's config)
//   mode "unplugged" nothing drives MISO: the pin reads the pad's pull (down 0, up 1;
//                    neither: `float_level`)
//   break_after: k   the data line is cut after chip k-1 (chip k missing or a broken
//                    wire): everything after reads `float_level`
//   stall            SPI transfers never complete (a wedged bus; the firmware hangs in it)

const chain = {
  chips: 24,
  signature: null,
  tail_level: 0,
  mode: 'ok',
  break_after: null,
  float_level: 0,
  stall: false,
  closed: new Set(),
  ...(cfg.chain || {}),
};
chain.closed = new Set(chain.closed);

let shiftBits = []; // latched bits still to shift out
let shiftPos = 0;
let latchLow = false;
let latches = 0; // /PL falling edges (one per scan)
let latchTimes = []; // recent latch times (ns), for scan-rate and pause figures
const LATCH_KEEP = 4096;
let spiBytes = 0;
let lastLatch = null;
let latchBoot = 0;
let gapStats = { n: 0, sum: 0, max: 0, max_at: null, long: [] }; // intervals between scans
// Gaps between scans longer than this are kept, [start, end] (ns), for finding what the
// firmware did meanwhile (with the trace marks below): at most LONG_KEEP of them.
const LONG_GAP_NS = (cfg.long_gap_ms ?? 3) * 1e6;
const LONG_KEEP = 2000;
// Trace marks: a debugging aid. A word the firmware stores at SIO INTERP1_BASE2
// (0xd00000d0; MicroPython and the firmware never use the interpolators) is logged with
// its simulated time, so an instrumented copy of the firmware can say where it is; each
// long gap keeps the marks from 1 ms before it to its end.
const MARK_OFFSET = 0x0d0;
const MARK_KEEP = 200000;
const MARK_BEFORE_NS = 1e6;
let marks = [];
let spiModeSeen = null;

function padPullLevel() {
  const pin = rp.gpio[cfg.pins.miso];
  if (pin.pulldownEnabled && !pin.pullupEnabled) return 0;
  if (pin.pullupEnabled && !pin.pulldownEnabled) return 1;
  return chain.float_level;
}

function latchInputs() {
  const bits = [];
  const n = chain.chips * 8;
  for (let i = 0; i < n; i++) bits.push(chain.closed.has(i) ? 0 : 1);
  if (chain.signature !== null && chain.signature !== undefined) {
    for (let k = 7; k >= 0; k--) bits.push((chain.signature >> k) & 1);
  }
  if (chain.break_after !== null && chain.break_after !== undefined) {
    bits.length = Math.min(bits.length, chain.break_after * 8);
  }
  shiftBits = bits;
  shiftPos = 0;
}

function nextBit() {
  if (chain.mode === 'unplugged') return padPullLevel();
  if (latchLow) return shiftBits.length ? shiftBits[0] : tailBit(); // parallel load: QH = H
  const b = shiftPos < shiftBits.length ? shiftBits[shiftPos] : tailBit();
  shiftPos++;
  return b;
}

function tailBit() {
  if (chain.break_after !== null && chain.break_after !== undefined) return chain.float_level;
  return chain.tail_level;
}

function spiByte() {
  const spi = rp.spi[0];
  spiModeSeen = spi.spiMode;
  let v = 0;
  // Modes 0, 2 and 3 sample QH before the 74HC165 shifts on the rising edge; mode 1's
  // first rising edge shifts first, so bit H of chip 0 is lost.
  if (spi.spiMode === 1 && shiftPos === 0 && !latchLow) shiftPos = 1;
  for (let k = 0; k < 8; k++) v = (v << 1) | nextBit();
  return v;
}

function levelMiso() {
  // What the pin itself reads (for firmware that looks at it): the chain's QH or the pull.
  const pin = rp.gpio[cfg.pins.miso];
  const v = chain.mode === 'unplugged' ? padPullLevel() : 1;
  pin.setInputValue(!!v);
}

// ---------------------------------------------------------------------------------------
// WS2812 strip: the LED pin's edges, timed by the PIO stepping below, decoded into
// 24-bit GRB words. Timing is checked against the WS2812B datasheet (Worldsemi): T0H
// 0.40 us and T1H 0.80 us, each +-150 ns; a bit period of 1.25 us +-600 ns; the strip
// latches after a low of 50 us (older parts) to 280 us (WS2812B-V5): a frame ends after
// 280 us low, and a low between 9 us and 280 us inside a frame is a timing violation.

// Edges land on whole clk_sys cycles and a fractional PIO divider jitters by one of them,
// as on the silicon: the limits below allow that one cycle (8 ns at 125 MHz).
const JITTER = 8;
const T0H = [250 - JITTER, 550 + JITTER];
const T1H = [650 - JITTER, 950 + JITTER];
const BIT_MAX = 1250 + 600;
const LOW_MAX_IN_FRAME = 9000;
const RESET_NS = 280000;

const ledFrames = []; // {start, end, words:[...], violations:[...], n}
let frameSeq = 0;
let cur = null; // frame being received
let ledLevel = 0;
let lastRise = null;
let lastFall = null;
let highTimes = { min0: Infinity, max0: 0, min1: Infinity, max1: 0, maxPeriod: 0, minPeriod: Infinity };

function ledEdge(t, level) {
  if (level === ledLevel) return;
  ledLevel = level;
  if (level) {
    if (cur && lastFall !== null) {
      const low = t - lastFall;
      if (low >= RESET_NS) {
        endFrame();
      } else if (low > LOW_MAX_IN_FRAME) {
        cur.violations.push(`low of ${(low / 1000).toFixed(1)} us inside a frame`);
      }
      if (cur && lastRise !== null) {
        const period = t - lastRise;
        if (low <= LOW_MAX_IN_FRAME) {
          highTimes.maxPeriod = Math.max(highTimes.maxPeriod, period);
          highTimes.minPeriod = Math.min(highTimes.minPeriod, period);
          if (period > BIT_MAX) cur.violations.push(`bit period ${period} ns`);
        }
      }
    }
    if (!cur) cur = { start: t, end: t, bits: [], violations: [] };
    lastRise = t;
  } else if (lastRise !== null && cur) {
    const high = t - lastRise;
    lastFall = t;
    cur.end = t;
    let bit;
    if (high >= T1H[0] && high <= T1H[1]) bit = 1;
    else if (high >= T0H[0] && high <= T0H[1]) bit = 0;
    else {
      bit = high > 600 ? 1 : 0;
      cur.violations.push(`high pulse of ${high} ns`);
    }
    if (bit) {
      highTimes.min1 = Math.min(highTimes.min1, high);
      highTimes.max1 = Math.max(highTimes.max1, high);
    } else {
      highTimes.min0 = Math.min(highTimes.min0, high);
      highTimes.max0 = Math.max(highTimes.max0, high);
    }
    cur.bits.push(bit);
  }
}

function endFrame() {
  if (!cur) return;
  const words = [];
  for (let i = 0; i + 24 <= cur.bits.length; i += 24) {
    let w = 0;
    for (let k = 0; k < 24; k++) w = w * 2 + cur.bits[i + k];
    words.push(w);
  }
  if (cur.bits.length % 24) cur.violations.push(`${cur.bits.length} bits: not whole LEDs`);
  ledFrames.push({ seq: frameSeq++, start: cur.start, end: cur.end, words, violations: cur.violations });
  if (ledFrames.length > 20000) ledFrames.splice(0, ledFrames.length - 20000);
  cur = null;
}

function checkFrameEnd() {
  if (cur && ledLevel === 0 && lastFall !== null && nowNs() - lastFall >= RESET_NS) endFrame();
}

// ---------------------------------------------------------------------------------------
// PIO: the stock stepping runs on setTimeout, detached from simulated time. Here every
// enabled state machine is stepped from the simulated clock: one instruction every
// (1 + delay) state-machine cycles of clk_sys / (INT + FRAC/256), in whole clk_sys cycles.

const smState = new Map(); // machine -> {due (clk_sys cycles, fixed point /256), last cycles}
let pioNextDue = Infinity; // ns

function cyclesNow() {
  return rp.clock.nanos * rp.clkSys / 1e9;
}

function pioStep() {
  const nowC = cyclesNow() * 256;
  let next = Infinity;
  for (const pio of rp.pio) {
    for (const sm of pio.machines) {
      if (!sm.enabled) continue;
      let st = smState.get(sm);
      if (!st) {
        st = { due: null, last: sm.cycles };
        smState.set(sm, st);
      }
      if (sm.waiting && !isPinWait(sm)) {
        st.due = null; // stalled on its FIFO: the CPU's write resumes it
        st.last = sm.cycles;
        continue;
      }
      if (st.due === null) st.due = Math.ceil(nowC / 256) * 256;
      const div = (sm.clockDivInt || 65536) * 256 + sm.clockDivFrac;
      let guard = 0;
      while (st.due <= nowC && guard++ < 64) {
        const t = base + (Math.ceil(st.due / 256) * 1e9) / rp.clkSys;
        sm.step();
        const d = Math.max(1, sm.cycles - st.last);
        st.last = sm.cycles;
        st.due += d * div;
        pio.checkChangedPins();
        if (cfg.pins.led !== undefined) {
          const pin = rp.gpio[cfg.pins.led];
          if ((pin.functionSelect === 6 && pio === rp.pio[0]) || (pin.functionSelect === 7 && pio === rp.pio[1])) {
            ledEdge(t, pin.outputValue ? 1 : 0);
          }
        }
        if (sm.waiting && !isPinWait(sm)) {
          st.due = null;
          break;
        }
      }
      if (st.due !== null) next = Math.min(next, st.due);
    }
  }
  pioNextDue = next === Infinity ? Infinity : (Math.ceil(next / 256) * 1e9) / rp.clkSys;
}

function isPinWait(sm) {
  return sm.waitType === 1 || sm.waitType === 4; // Pin or IRQ: time passes while waiting
}

function anyPioRunning() {
  for (const pio of rp.pio) for (const sm of pio.machines) if (sm.enabled && !(sm.waiting && !isPinWait(sm))) return true;
  return false;
}

// ---------------------------------------------------------------------------------------
// USB CDC host side <-> the pseudo-terminal.

const ptyFd = cfg.pty_fd;
let toDevice = []; // Buffers waiting for room in the 512-byte host FIFO
let toDeviceLen = 0;
const timedInjections = []; // {at, bytes} raw bytes into the CDC at a simulated time
const timedActions = []; // {at, fn}, latest first
const switchLog = []; // [t, set, closed] as applied
let usbConnectedAt = null;
let usbConfigured = false;
let rxBytes = 0; // device -> host
let txBytes = 0; // host -> device
const rxLog = []; // [t, length] of device->host packets (recent)
let lastRxAt = null;
let holdHostInput = false;

let pendingRead = null;

// The most bytes one OUT packet carries (`usb_packet`): 64 is full-speed USB's bulk
// packet, 1 a host that writes byte by byte. The device arms buffers of its own size (64
// for TinyUSB's CDC and for the firmware's usb_cdc.py), so larger values change nothing
// but are accepted: a 512-byte host write arrives as packets back to back either way.
let usbPacket = cfg.usb_packet || 64;
let holdOutput = false; // `hold_output`: the host stops reading (IN packets not taken)
let heldIn = []; // [endpoint, data] of IN packets the host has not taken yet
let heldSince = null;
const outPackets = []; // [t, bytes] of each OUT packet the device took

function completeRead() {
  if (pendingRead === null || cdc.txFIFO.itemCount === 0) return;
  const buffer = new Uint8Array(Math.min(pendingRead, cdc.txFIFO.itemCount, usbPacket));
  for (let i = 0; i < buffer.length; i++) buffer[i] = cdc.txFIFO.pull();
  outPackets.push([nowNs(), buffer.length]);
  if (outPackets.length > 8192) outPackets.splice(0, 4096);
  pendingRead = null;
  rp.usbCtrl.endpointReadDone(cdc.outEndpoint, buffer);
}

function feedDevice() {
  if (!cdc || !usbConfigured || holdHostInput) return;
  while (toDevice.length && cdc.txFIFO.itemCount < 512) {
    const head = toDevice[0];
    const room = 512 - cdc.txFIFO.itemCount;
    const n = Math.min(room, head.length);
    for (let i = 0; i < n; i++) cdc.sendSerialByte(head[i]);
    txBytes += n;
    txLog.push([nowNs(), Buffer.from(head.subarray(0, n)).toString('hex')]);
    if (txLog.length > 8192) txLog.splice(0, 4096);
    toDeviceLen -= n;
    if (n === head.length) toDevice.shift();
    else toDevice[0] = head.subarray(n);
  }
  completeRead();
}

function startPtyReader() {
  if (ptyFd === undefined || ptyFd === null) return;
  const buf = Buffer.alloc(4096);
  const again = () => {
    fs.read(ptyFd, buf, 0, buf.length, null, (err, n) => {
      if (err) {
        if (err.code === 'EIO' || err.code === 'EAGAIN') {
          setTimeout(again, 5); // no slave open right now
          return;
        }
        event({ event: 'pty_error', error: String(err) });
        return;
      }
      if (n > 0) {
        toDevice.push(Buffer.from(buf.subarray(0, n)));
        toDeviceLen += n;
      }
      setImmediate(again);
    });
  };
  again();
}

function fromDevice(buffer) {
  rxBytes += buffer.length;
  const t = nowNs();
  lastRxAt = t;
  rxLog.push([t, Buffer.from(buffer).toString('hex')]);
  if (rxLog.length > 4096) rxLog.splice(0, 2048);
  if (cfg.echo_rx) rxText.push(Buffer.from(buffer));
  if (ptyFd !== undefined && ptyFd !== null) {
    try {
      fs.writeSync(ptyFd, buffer);
    } catch (e) {
      // The host is not reading (pty buffer full) or not there: a real USB host would
      // NAK; the bytes are lost to the host either way.
    }
  }
}
const rxText = [];
const txLog = []; // [t, hex] host -> device bytes as they entered the CDC FIFO

// ---------------------------------------------------------------------------------------
// Flash writes. rp2040js models XIP reads but not the flash chip's command set, so the boot
// ROM's flash routines are run here instead when the CPU calls them: erase fills with 0xFF,
// program ANDs the data in (NOR flash), each taking the time a W25Q16JV typically takes
// (sector erase 45 ms, page program 0.4 ms) with the CPU held, as on the board. The
// connect / exit-XIP / flush / enter-XIP routines have nothing to do here.

function romFunc(code) {
  let p = bootromBuf.readUInt16LE(0x14);
  for (;;) {
    const c = bootromBuf.readUInt16LE(p);
    if (!c) return null;
    if (c === (code.charCodeAt(0) | (code.charCodeAt(1) << 8))) return bootromBuf.readUInt16LE(p + 2) & ~1;
    p += 4;
  }
}
const ROM_ERASE = romFunc('RE');
const ROM_PROGRAM = romFunc('RP');
const ROM_NOOPS = new Set(['IF', 'EX', 'FC', 'CX'].map(romFunc));
const ROM_TRAP_MAX = Math.max(ROM_ERASE, ROM_PROGRAM, ...ROM_NOOPS);
let flashErases = 0;
let flashPrograms = 0;

function romTrap(pc) {
  const core = rp.core;
  const r = core.registers;
  let ns = 0;
  if (pc === ROM_ERASE) {
    const addr = r[0] >>> 0;
    const count = r[1] >>> 0;
    rp.flash.fill(0xff, addr, addr + count);
    flashErases++;
    ns = Math.ceil(count / 4096) * 45e6;
  } else if (pc === ROM_PROGRAM) {
    const addr = r[0] >>> 0;
    const data = r[1] >>> 0;
    const count = r[2] >>> 0;
    for (let i = 0; i < count; i++) rp.flash[addr + i] &= rp.readUint8(data + i);
    flashPrograms++;
    ns = Math.ceil(count / 256) * 0.4e6;
  } else if (!ROM_NOOPS.has(pc)) {
    return false;
  }
  core.PC = core.LR & ~1;
  if (ns) {
    rp.clock.tick(ns);
    busyCycles += (ns * rp.clkSys) / 1e9;
  }
  return true;
}

// ---------------------------------------------------------------------------------------
// Boot (and reboot after a watchdog or machine.reset()).

let flashCopy = null;
let watchdogResets = 0;
let softResets = 0;
const bootLog = [];

function boot() {
  const prevNs = rp ? nowNs() : 0;
  const rp0 = rp;
  rp = new RP2040();
  rp.logger = { debug() {}, info() {}, warn() {}, error() {} };
  rp.loadBootrom(bootrom);
  if (rp0) {
    rp.flash.set(rp0.flash.subarray(0, flashCopy.length)); // what the firmware wrote survives
  } else {
    for (const [off, data] of uf2Blocks) rp.flash.set(data, off);
    if (fsImage) rp.flash.set(fsImage, FS_OFFSET);
    flashCopy = { length: FS_OFFSET + (fsImage ? fsImage.length : 0) };
  }
  base = prevNs;
  boots++;
  bootLog.push(base);
  rp.core.PC = 0x10000000;
  for (const pio of rp.pio) pio.run = () => {}; // stepped from the simulated clock instead
  const sioWrite = rp.sio.writeUint32.bind(rp.sio);
  rp.sio.writeUint32 = (offset, value) => {
    if (offset === MARK_OFFSET) {
      if (marks.length >= MARK_KEEP) marks.splice(0, MARK_KEEP / 2);
      marks.push([nowNs(), value >>> 0]);
    }
    sioWrite(offset, value);
  };
  smState.clear();
  pioNextDue = Infinity;
  for (const pio of rp.pio) {
    for (const sm of pio.machines) {
      const write = sm.writeFIFO.bind(sm);
      sm.writeFIFO = (value) => {
        const st = smState.get(sm);
        const stalled = st && st.due === null && sm.waiting;
        write(value);
        if (stalled && !sm.waiting) {
          // Resumed by this write: the stalled instruction completes now, then its delay.
          const div = (sm.clockDivInt || 65536) * 256 + sm.clockDivFrac;
          st.due = Math.ceil(cyclesNow()) * 256 + (sm.cycles - st.last) * div;
          st.last = sm.cycles;
          const ns = (Math.ceil(st.due / 256) * 1e9) / rp.clkSys;
          if (ns < pioNextDue) pioNextDue = ns;
        }
      };
    }
  }
  // SPI0 talks to the chain, one byte each 8 SPI clocks.
  const spi = rp.spi[0];
  spi.onTransmit = () => {
    if (chain.stall) return; // never completes: the firmware hangs in its read
    const v = spiByte();
    spiBytes++;
    const hz = spi.clockFrequency || 1e6;
    const ns = (8 * 1e9) / hz;
    const alarm = rp.clock.createAlarm(() => spi.completeTransmit(v));
    alarm.schedule(ns);
  };
  rp.gpio[cfg.pins.latch].addListener((value) => {
    const low = value === 0; // GPIOPinState.Low
    if (low && !latchLow) {
      latchLow = true;
      latches++;
      const tl = nowNs();
      if (lastLatch !== null && boots === latchBoot) {
        const gap = tl - lastLatch;
        if (gap > gapStats.max) {
          gapStats.max = gap;
          gapStats.max_at = tl;
        }
        if (gap > LONG_GAP_NS && gapStats.long.length < LONG_KEEP) {
          gapStats.long.push([lastLatch, tl, marks.filter(([t]) => t >= lastLatch - MARK_BEFORE_NS)]);
        }
        gapStats.n++;
        gapStats.sum += gap;
      }
      lastLatch = tl;
      latchBoot = boots;
      if (marks.length > 64 && marks[0][0] < tl - MARK_BEFORE_NS) {
        marks = marks.filter(([t]) => t >= tl - MARK_BEFORE_NS); // only those a gap may need
      }
      latchTimes.push(tl);
      if (latchTimes.length > LATCH_KEEP) latchTimes.splice(0, LATCH_KEEP / 2);
      latchInputs();
    } else if (!low && latchLow) {
      latchLow = false;
      latchInputs(); // the inputs are sampled while /PL is low; shifting starts from them
    }
  });
  latchLow = false;
  levelMiso();
  if (cfg.pins.safe !== undefined) rp.gpio[cfg.pins.safe].setInputValue(!cfg.safe_pin_low);
  rp.watchdog = rp.peripherals[0x40058];
  rp.watchdog.onWatchdogTrigger = () => {
    // The chip resets: stop the (periodic) watchdog alarm, or it fires again at once.
    rp.watchdog.alarm.enable = false;
    rp.watchdog.timer.enable = false;
    if (pendingReboot) return;
    if (rp.watchdog.reason === 2) softResets++;
    else watchdogResets++;
    event({ event: 'reset', reason: rp.watchdog.reason === 2 ? 'forced' : 'watchdog', t: nowNs() });
    pendingReboot = true;
  };
  cdc = new USBCDC(rp.usbCtrl);
  usbConfigured = false;
  cdc.onDeviceConnected = () => {
    usbConfigured = true;
    usbConnectedAt = nowNs();
    event({ event: 'usb', t: usbConnectedAt });
  };
  cdc.onSerialData = fromDevice;
  // A host that stops reading takes no IN packet: the device's buffer stays armed (its
  // data neither delivered nor confirmed) until `hold_output` is released.
  const usb = rp.usbCtrl;
  const bufferReady = usb.indicateBufferReady.bind(usb);
  const cdcWrite = usb.onEndpointWrite;
  heldIn = [];
  usb.indicateBufferReady = (endpoint, out) => {
    if (!out && holdOutput && endpoint !== 0 && endpoint === cdc.inEndpoint) {
      heldIn.push([endpoint, null]);
      return;
    }
    bufferReady(endpoint, out);
  };
  usb.onEndpointWrite = (endpoint, buffer) => {
    if (endpoint !== 0 && endpoint === cdc.inEndpoint) {
      const held = heldIn.find((h) => h[1] === null);
      if (held) {
        held[1] = buffer;
        return;
      }
    }
    cdcWrite(endpoint, buffer);
  };
  releaseOutput = () => {
    const held = heldIn;
    heldIn = [];
    for (const [endpoint, buffer] of held) {
      if (buffer) cdcWrite(endpoint, buffer);
      bufferReady(endpoint, false);
    }
  };
  // The stock host answers every armed OUT buffer at once, with zero bytes when it has
  // nothing: 100,000 zero-length packets a second that keep the CPU in TinyUSB. A real
  // host NAKs until it has data; so does this one.
  pendingRead = null;
  rp.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return;
    pendingRead = size;
    completeRead();
  };
  ledLevel = 0;
  lastRise = null;
  lastFall = null;
  if (cur) endFrame();
}

let pendingReboot = false;
let releaseOutput = () => {};

// ---------------------------------------------------------------------------------------
// Running: as fast as the host CPU allows, but (with pace > 0) never ahead of wall time,
// so the host's timeouts and the firmware's see the same world.

let wallStart = process.hrtime.bigint();
let simAtWallStart = 0;
let frozen = false; // "stall": the whole chip stops (a debugger halt)
const waiters = []; // {at, resolve}

function runSlice(limitNs) {
  const core = rp.core;
  const clock = rp.clock;
  const cyc = 1e9 / rp.clkSys;
  const end = Math.min(clock.nanos + MAX_SLICE_NS, limitNs - base);
  let n = 0;
  while (clock.nanos < end && n < 400000) {
    n++;
    if (core.waiting) {
      let dt = clock.nanosToNextAlarm;
      if (dt <= 0) dt = end - clock.nanos;
      if (pioNextDue !== Infinity) dt = Math.min(dt, Math.max(cyc, pioNextDue - clock.nanos));
      if (dt > end - clock.nanos) dt = Math.max(cyc, end - clock.nanos);
      clock.tick(dt);
      idleNs += dt;
    } else {
      const pc = core.registers[15];
      if (pc <= ROM_TRAP_MAX && romTrap(pc)) continue;
      const c = core.executeInstruction();
      clock.tick(c * cyc);
      busyCycles += c;
    }
    if (pioNextDue <= clock.nanos || (pioNextDue === Infinity && pioDirty())) pioStep();
    if (pendingReboot) break;
  }
}

let pioCheck = 0;
function pioDirty() {
  // A state machine stalled on its FIFO resumes when the CPU writes it; look every
  // 64 instructions whether one is running again.
  if (++pioCheck & 63) return false;
  return anyPioRunning();
}

function tick() {
  if (frozen) {
    setTimeout(tick, 5);
    return;
  }
  const wallNs = Number(process.hrtime.bigint() - wallStart);
  const limit = cfg.pace > 0 ? simAtWallStart + wallNs * cfg.pace : Infinity;
  let target = limit;
  // Timed injections and waiters that are due.
  for (let i = timedInjections.length - 1; i >= 0; i--) {
    const inj = timedInjections[i];
    if (nowNs() >= inj.at) {
      toDevice.unshift(Buffer.from(inj.bytes));
      toDeviceLen += inj.bytes.length;
      timedInjections.splice(i, 1);
      event({ event: 'injected', t: nowNs(), n: inj.bytes.length });
    } else {
      target = Math.min(target, inj.at);
    }
  }
  while (timedActions.length && timedActions[timedActions.length - 1].at <= nowNs()) {
    timedActions.pop().fn();
  }
  if (timedActions.length) target = Math.min(target, timedActions[timedActions.length - 1].at);
  feedDevice();
  if (nowNs() < target) {
    runSlice(target);
  }
  if (pendingReboot) {
    pendingReboot = false;
    boot();
  }
  feedDevice();
  checkFrameEnd();
  for (let i = waiters.length - 1; i >= 0; i--) {
    if (nowNs() >= waiters[i].at) {
      waiters[i].resolve();
      waiters.splice(i, 1);
    }
  }
  if (cfg.pace > 0 && nowNs() >= limit) setTimeout(tick, 1);
  else setImmediate(tick);
}

// ---------------------------------------------------------------------------------------
// Control channel.

function event(obj) {
  process.stderr.write(JSON.stringify(obj) + '\n');
}

function scanStats(sinceNs) {
  const ts = latchTimes.filter((t) => t >= sinceNs);
  let maxGap = 0;
  for (let i = 1; i < ts.length; i++) maxGap = Math.max(maxGap, ts[i] - ts[i - 1]);
  const span = ts.length > 1 ? ts[ts.length - 1] - ts[0] : 0;
  return { scans: ts.length, span_ns: span, max_gap_ns: maxGap, rate: span ? ((ts.length - 1) * 1e9) / span : 0 };
}

function status() {
  return {
    t: nowNs(),
    busy_cycles: busyCycles,
    idle_ns: idleNs,
    boots,
    boot_at: base,
    watchdog_resets: watchdogResets,
    soft_resets: softResets,
    usb_at: usbConnectedAt,
    usb: usbConfigured,
    latches,
    spi_bytes: spiBytes,
    watchdog: { enable: rp.watchdog.enable, counter: rp.watchdog.timer.counter, tick: rp.watchdog.tickEnable, alarm: rp.watchdog.alarm.enable },
    flash_erases: flashErases,
    flash_programs: flashPrograms,
    spi_mode: spiModeSeen,
    rx_bytes: rxBytes,
    tx_bytes: txBytes,
    pending_to_device: toDeviceLen,
    led_frames: frameSeq,
    last_rx_at: lastRxAt,
    miso_pull: (() => {
      const p = rp.gpio[cfg.pins.miso];
      return p.pulldownEnabled && !p.pullupEnabled ? 'down' : p.pullupEnabled && !p.pulldownEnabled ? 'up' : p.pullupEnabled ? 'keeper' : 'none';
    })(),
  };
}

async function handle(msg) {
  switch (msg.cmd) {
    case 'status':
      return status();
    case 'switches': {
      // {closed: [i,...]} replaces the set; {set: [[i, closed], ...]} changes some;
      // with `at` (simulated ns) the change happens then, not now.
      const apply = () => {
        if (msg.closed) chain.closed = new Set(msg.closed);
        for (const [i, c] of msg.set || []) {
          if (c) chain.closed.add(i);
          else chain.closed.delete(i);
        }
        switchLog.push([nowNs(), msg.set || [], msg.closed || null]);
        if (switchLog.length > 4096) switchLog.splice(0, 2048);
      };
      if (msg.at !== undefined && msg.at > nowNs()) {
        timedActions.push({ at: msg.at, fn: apply });
        timedActions.sort((a, b) => b.at - a.at);
      } else apply();
      return { t: nowNs(), latches };
    }
    case 'schedule': {
      // Many timed switch changes at once: {changes: [[t_ns, index, closed], ...]}.
      for (const [at, i, c] of msg.changes) {
        timedActions.push({
          at,
          fn: () => {
            if (c) chain.closed.add(i);
            else chain.closed.delete(i);
            switchLog.push([nowNs(), [[i, c]], null]);
          },
        });
      }
      timedActions.sort((a, b) => b.at - a.at);
      return { t: nowNs(), pending: timedActions.length };
    }
    case 'switch_log':
      return { log: switchLog.filter(([t]) => t >= (msg.since || 0)) };
    case 'chain': {
      for (const k of ['chips', 'signature', 'tail_level', 'mode', 'break_after', 'float_level', 'stall']) {
        if (k in msg) chain[k] = msg[k];
      }
      levelMiso();
      return { t: nowNs() };
    }
    case 'frames': {
      checkFrameEnd();
      const since = msg.since || 0;
      return { frames: ledFrames.filter((f) => f.seq >= since), next: frameSeq, timing: highTimes, receiving: !!cur };
    }
    case 'wait': {
      // Run until simulated time reaches `until` (ns) or `for` ns from now.
      const at = msg.until !== undefined ? msg.until : nowNs() + msg.for;
      if (nowNs() < at) await new Promise((resolve) => waiters.push({ at, resolve }));
      return { t: nowNs() };
    }
    case 'inject': {
      // Raw bytes into the device's CDC input at simulated time `at` (default now),
      // ahead of what the host sent: a hand at a terminal, or the 0x03 of a test.
      timedInjections.push({ at: msg.at !== undefined ? msg.at : nowNs(), bytes: msg.bytes });
      return { t: nowNs() };
    }
    case 'hold_output': {
      // The host stops (true) or resumes (false) reading what the device sends.
      const was = holdOutput;
      holdOutput = !!msg.hold;
      if (holdOutput && !was) heldSince = nowNs();
      if (!holdOutput && was) {
        heldSince = null;
        releaseOutput();
      }
      return { t: nowNs(), held_packets: heldIn.length };
    }
    case 'out_packets':
      return { log: outPackets.filter(([t]) => t >= (msg.since || 0)) };
    case 'usb_packet':
      usbPacket = Math.max(1, msg.size | 0);
      return { t: nowNs(), size: usbPacket };
    case 'hold_input':
      holdHostInput = !!msg.hold;
      return { t: nowNs() };
    case 'freeze':
      frozen = !!msg.frozen;
      if (!frozen) {
        wallStart = process.hrtime.bigint();
        simAtWallStart = nowNs();
      }
      return { t: nowNs() };
    case 'pace':
      cfg.pace = msg.pace;
      wallStart = process.hrtime.bigint();
      simAtWallStart = nowNs();
      return { t: nowNs() };
    case 'rx_text':
      return { text: Buffer.concat(rxText).toString('latin1') };
    case 'tx_log':
      return { log: txLog.filter(([t]) => t >= (msg.since || 0)) };
    case 'scan_gaps': {
      const out = { ...gapStats, mean: gapStats.n ? gapStats.sum / gapStats.n : 0 };
      if (msg.reset) gapStats = { n: 0, sum: 0, max: 0, max_at: null, long: [] };
      return out;
    }
    case 'marks':
      return { marks: marks.filter(([t]) => t >= (msg.since || 0) && t <= (msg.until ?? Infinity)) };
    case 'rx_log':
      return { log: rxLog.filter(([t]) => t >= (msg.since || 0)) };
    case 'scans':
      return scanStats(msg.since || 0);
    case 'heap':
      return heapInfo();
    case 'quit':
      fs.writeSync(1, JSON.stringify({ id: msg.id, ok: true }) + '\n');
      process.exit(0);
      return {};
    default:
      throw new Error(`unknown command ${msg.cmd}`);
  }
}

// ---------------------------------------------------------------------------------------
// MicroPython's heap, read from outside (the firmware needs no hook): find the GC's
// area descriptor in RAM {alloc table start, its length, finaliser table, pool start,
// pool end} by its invariants, then count free blocks in the allocation table the way
// gc.mem_free() does (2 bits a 16-byte block, 0 = free).

let gcArea = null;
function findGcArea() {
  const v = rp.sramView;
  const RAM = 0x20000000;
  const END = RAM + rp.sram.length;
  for (let off = 16; off + 8 <= rp.sram.length; off += 4) {
    const pool = v.getUint32(off, true);
    const end = v.getUint32(off + 4, true);
    if (pool < RAM || end > END || end <= pool || (end - pool) % 64 || end - pool < 16384) continue;
    const len = (end - pool) / 64;
    for (let back = 4; back <= 12; back += 4) {
      if (v.getUint32(off - back, true) !== len) continue;
      const atb = v.getUint32(off - back - 4, true);
      if (atb >= RAM && atb + len <= pool) return { desc: off - back - 4, atb, len, pool, end };
    }
  }
  return null;
}

function heapInfo() {
  if (!gcArea) gcArea = findGcArea();
  if (!gcArea) return { found: false };
  const { atb, len } = gcArea;
  const off = atb - 0x20000000;
  let free = 0;
  let maxFreeRun = 0;
  let run = 0;
  let marked = 0;
  for (let i = 0; i < len; i++) {
    const byte = rp.sram[off + i];
    for (let k = 0; k < 4; k++) {
      const st = (byte >> (2 * k)) & 3;
      if (st === 0) {
        free++;
        run++;
        if (run > maxFreeRun) maxFreeRun = run;
      } else {
        run = 0;
        if (st === 3) marked++;
      }
    }
  }
  return { found: true, t: nowNs(), free: free * 16, total: len * 4 * 16, max_free_block: maxFreeRun * 16, marked };
}

// ---------------------------------------------------------------------------------------

boot();
for (const inj of cfg.inject || []) timedInjections.push({ at: inj.at, bytes: inj.bytes });
startPtyReader();
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', async (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    process.stdout.write(JSON.stringify({ ok: false, error: `bad JSON: ${e.message}` }) + '\n');
    return;
  }
  try {
    const reply = await handle(msg);
    process.stdout.write(JSON.stringify({ id: msg.id, ok: true, ...reply }) + '\n');
  } catch (e) {
    process.stdout.write(JSON.stringify({ id: msg.id, ok: false, error: String(e && e.message) }) + '\n');
  }
});
rl.on('close', () => process.exit(0));
setImmediate(tick);
