"""The parts catalogue behind `keezbord board bom`: for every line a manufacturer part
number or an exact specification, one alternate, and a cost range per unit.

Facts from outside carry their source; a price or a part number that no source found
says "unverified" (docs/hardware.md, "Parts list"). Prices are in euro per unit, single
quantities, and were looked for on PRICES_CHECKED.
"""

from __future__ import annotations

from dataclasses import dataclass

PRICES_CHECKED = "2026-12-05"
UNVERIFIED = f"unverified (no price source found, {PRICES_CHECKED})"


@dataclass(frozen=True)
class Part:
    part_number: str  # or the exact specification
    alternate: str
    cost: tuple[float, float]  # euro per unit (per m, per m²), low and high
    source: str = UNVERIFIED


CATALOGUE: dict[str, Part] = {
    "reed": Part(
        "Littelfuse MDSR-7-20-25 (glass 12.70 x 1.80 mm, 20-25 AT; Littelfuse MDSR-7 datasheet)",
        "Littelfuse MDSR-10-20-25 (glass 10.16 mm; rerun the stack-up check)",
        (0.5, 1.5),
    ),
    "magnet": Part(
        "NdFeB disc \u00d86 x 2 mm, N42, axially magnetised, Ni-Cu-Ni coated",
        "\u00d86 x 2 mm N40 (1.25-1.28 T: rerun the stack-up check)",
        (0.05, 0.3),
    ),
    "hc165": Part("Texas Instruments SN74HC165N (DIP-16)", "Nexperia 74HC165 (DIP-16)", (0.4, 1.2)),
    "socket16": Part("DIP-16 IC socket, 2.54 mm, 7.62 mm row", "turned-pin DIP-16", (0.1, 0.6)),
    "socket14": Part("DIP-14 IC socket, 2.54 mm, 7.62 mm row", "turned-pin DIP-14", (0.1, 0.5)),
    "ahct125": Part(
        "Texas Instruments SN74AHCT125N (DIP-14)", "Nexperia 74AHCT125 (DIP-14)", (0.4, 1.0)
    ),
    "lvc2g17": Part(
        "Texas Instruments SN74LVC2G17DBVR (SOT-23-6)",
        "through hole: 74HC14N (DIP-14), CLK and /PL each through two inverters",
        (0.2, 0.6),
    ),
    "sot23": Part(
        "SOT-23-6 to DIP-6 adapter board, 2.54 mm pins", "hand-wired on the SOT-23 pads", (0.3, 1.0)
    ),
    "r10k": Part(
        "10 k\u03a9 resistor, 1 %, 0.25 W, axial", "10 k\u03a9 0805 on a carrier", (0.01, 0.05)
    ),
    "r330": Part("330 \u03a9 resistor, 1 %, 0.25 W, axial", "300-470 \u03a9, same", (0.01, 0.05)),
    "r100": Part("100 \u03a9 resistor, 1 %, 0.25 W, axial", "68-150 \u03a9, same", (0.01, 0.05)),
    "r1k": Part("1 k\u03a9 resistor, 1 %, 0.25 W, axial", "1-2.2 k\u03a9, same", (0.01, 0.05)),
    "r100k": Part("100 k\u03a9 resistor, 1 %, 0.25 W, axial", "47-220 k\u03a9, same", (0.01, 0.05)),
    "r33": Part("33 \u03a9 resistor, 1 %, 0.25 W, axial", "22-47 \u03a9, same", (0.01, 0.05)),
    "c100n": Part(
        "100 nF ceramic capacitor, X7R, 50 V, 2.54 mm leads", "100 nF 0805 X7R", (0.02, 0.1)
    ),
    "c1000u": Part(
        "1000 \u00b5F 10 V electrolytic, radial", "1000 \u00b5F 16 V, radial", (0.1, 0.5)
    ),
    "led": Part(
        "WS2812B (5050) single-LED module on a round PCB, pads 5V/GND/DIN and 5V/GND/DOUT",
        "Worldsemi WS2812D-F5 (5 mm through-hole) with its own 100 nF",
        (0.08, 0.4),
    ),
    "pico": Part(
        "Raspberry Pi Pico (RP2040), with headers",
        "Raspberry Pi Pico H",
        (4.0, 6.0),
        "US$4 list price at launch (gizmodo.com, 2021-01); today's shop price unverified",
    ),
    "pi": Part("Raspberry Pi 4 Model B, 2 GB", "Raspberry Pi 5, 4 GB", (45.0, 80.0)),
    "pi_supply": Part(
        "Raspberry Pi 15.3 W USB-C power supply (official; 5.1 V 3 A)",
        "Raspberry Pi 27 W USB-C supply (for a Pi 5)",
        (8.0, 14.0),
    ),
    "sd": Part(
        "microSDHC 32 GB, A1, class 10 (SanDisk Ultra)", "Samsung EVO Plus 32 GB", (5.0, 12.0)
    ),
    "usb": Part("USB-A to micro-USB data cable, 0.5 m (the Pico)", "1 m data cable", (2.0, 6.0)),
    "pn532": Part("PN532 NFC module (HSU/I2C/SPI, 3.3 V)", "NXP PN7150 board", (4.0, 12.0)),
    "ntag": Part(
        "NTAG213 sticker, \u00d825 mm, 13.56 MHz", "NTAG215 sticker \u00d825 mm", (0.1, 0.4)
    ),
    "xh_header": Part(
        "JST B10B-XH-A(LF)(SN): XH 10 positions, 2.5 mm, top entry (JST's XH data: 3 A, 250 V)",
        "JST S10B-XH-A(LF)(SN), side entry",
        (0.2, 0.8),
    ),
    "xh_housing": Part(
        "JST XHP-10 housing (XH, 10 positions)",
        "a ready-made XH 10-way lead, housing each end (check the pin 1 to pin 1 order)",
        (0.05, 0.3),
    ),
    "link_cable": Part(
        "10-core stranded cable, 10 x 0.14 mm\u00b2 (26 AWG), PVC, unshielded (LiYY 10 x 0.14)",
        "10 single hook-up wires 0.14 mm\u00b2 twisted together",
        (1.0, 3.0),
    ),
    "xh_crimp": Part(
        "JST SXH-001T-P0.6 crimp contact (AWG 28-22)",
        "pre-crimped XH contact leads (no crimp tool; unverified)",
        (0.02, 0.1),
    ),
    "terminator": Part(
        "heat-shrink tube \u00d825 mm, 2:1, 6 cm: over the terminator plug's perfboard and the "
        "back of its XHP-10 housing",
        "a small ABS box with the housing through its end (size unverified)",
        (0.2, 2.0),
    ),
    "xt30": Part(
        "Amass XT30U-M + XT30U-F pair (keyed, polarised)", "JST VH 2-pin pair", (0.5, 1.5)
    ),
    "adapter": Part(
        "external certified 5 V desktop adapter, 5.5/2.1 mm plug: Mean Well GST25E05-P1J "
        "(5 V 4 A 20 W, as its GST25A05-P1J sibling; exact rating unverified)",
        "Mean Well GST18E05-P1J (5 V 3 A, unverified)",
        (12.0, 25.0),
    ),
    "jack": Part(
        "DC panel socket 5.5/2.1 mm, rated 5 A or more, panel mount with nut",
        "the same in 5.5/2.5 mm to match the adapter",
        (1.0, 4.0),
    ),
    "fuse": Part(
        "fuse 5 x 20 mm, time-lag (T), 250 V, IEC 60127-2",
        "the same rating, Littelfuse 218 series",
        (0.3, 1.0),
    ),
    "fuse_holder": Part(
        "panel fuse holder for 5 x 20 mm, 6.3 A or more", "in-line 5 x 20 mm holder", (1.0, 4.0)
    ),
    "tvs": Part(
        "TVS diode P6KE6.8A (unidirectional, DO-15; 5.8 V stand-off, 600 W: unverified)",
        "SMBJ5.0A (SMB)",
        (0.2, 0.6),
    ),
    "lever": Part("WAGO 221-415 lever connector, 5 ways", "WAGO 221-615", (0.5, 1.2)),
    "power_wire": Part(
        "stranded copper PVC wire, the printed cross-section", "silicone wire, same", (0.3, 1.0)
    ),
    "hookup": Part(
        "stranded hook-up wire 0.14 mm\u00b2 (26 AWG), PVC, several colours",
        "0.25 mm\u00b2 (24 AWG)",
        (0.1, 0.3),
    ),
    "perfboard": Part(
        "perfboard FR4, 2.54 mm pitch, 50 x 70 mm", "stripboard 50 x 70 mm", (0.5, 1.5)
    ),
    "carrier": Part(
        "perfboard FR4 100 x 160 mm (Eurocard), 2.54 mm pitch",
        "stripboard 100 x 160 mm",
        (2.0, 6.0),
    ),
    "plywood": Part(
        "birch plywood 6 mm (BB/BB), blank to buy", "poplar plywood 6 mm", (15.0, 40.0)
    ),
    "diffuser": Part(
        "opal (white translucent) PMMA sheet 2 mm", "opal polycarbonate 2 mm", (20.0, 50.0)
    ),
}
