"""The reference stack-up under a hole, and the calculation that argues it.

One dataclass holds every number of the cross-section (`keezbord board section` draws
it, in mm, from the same object): the top plate and its through hole, the diffuser the
pawn stands on, the pawn's magnet, the reed switch beside it and the LED under it.

The calculation: the pawn's magnet is an axially magnetised cylinder lying flat in the
pawn's base (magnet.py gives its field in closed form). A reed switch closes on the field
along its own axis at its contacts; a reed lying flat and centred under a magnet sees
that component cancel (the field there points down, across the reed). So the reed lies
along the track with its contact region `contact_offset` mm from the hole's axis, where
the magnet's field turns sideways (one end of the glass under the magnet).

The reed maker rates a reed in ampere-turns (AT) in its test coil. The AT-to-field
relation used is the long-solenoid one that Littelfuse's application note AN102A
("Ampere*turn versus mT and Gauss") and Dexter Magnetics' FAQ give: B = mu0 * AT / L, with
L the coil's winding length. The MDSR-7's test coil length was not found (unverified): L
is taken as the glass length, the shortest coil that holds the glass, which gives the
largest field for a rating. AN102A also says that activating from one end with a single
pole takes about twice the field of both poles, and that the relation holds to a factor
of 2. So the stack-up is accepted when, over every pawn position up to `pawn_slack` mm
off centre,

- at its own hole, the field at the contacts is at least twice the pull-in field of the
  range's top (the least sensitive reed of the range; a closed reed stays closed while
  the field is above its drop-out, which is always below its pull-in), and
- from a pawn in any neighbouring hole (one pitch away, every direction), the field is
  at most half the pull-in field of the range's bottom (the most sensitive reed).

The magnet's remanence is the grade's range (N42: 1.28 to 1.32 T): the weakest for its own
hole, the strongest for the neighbour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from keezbord.hardware.magnet import MU0, field_along_x

ONE_POLE_FACTOR = 2.0  # AN102A: one pole needs about twice the field of two
RELATION_FACTOR = 2.0  # AN102A: the AT-to-field relation holds to a factor of 2
DIRECTIONS = 24  # pawn offsets and neighbour directions checked, every 15 degrees
PLACEMENT_SLACK = 1.0  # mm: how far off its place a reed may be glued


@dataclass(frozen=True)
class Reed:
    part: str
    glass_length: float  # mm
    glass_diameter: float  # mm
    pull_in_at: tuple[float, float]  # the ordered AT band
    coil_length: float  # mm: the test coil's winding length (see the module's note)
    source: str


@dataclass(frozen=True)
class Magnet:
    diameter: float  # mm
    height: float  # mm
    grade: str
    br: tuple[float, float]  # remanence range, T
    source: str


@dataclass(frozen=True)
class StackUp:
    """Depths in mm from the board's top surface (down positive); offsets in mm from the
    hole's axis, x along the track."""

    top_plate: float  # birch plywood, through holes
    hole_diameter: float
    diffuser: float  # opal PMMA sheet glued under the top plate; the pawn stands on it
    magnet: Magnet
    magnet_cover: float  # wood (or felt) between the magnet and the pawn's underside
    reed: Reed
    contact_offset: float  # the reed's contact region, along the track from the axis
    reed_gap: float  # between the diffuser and the reed's glass
    led_height: float  # WS2812B 5050 package
    led_gap: float  # between the reed's glass and the LED's top (no load on the glass)
    carrier: float  # perfboard under the LED modules
    pitch: float
    pawn_slack: float  # how far off centre a pawn may stand in its hole
    reed_side: float = 0.0  # the reed's axis across the track from the hole's axis

    @property
    def magnet_centre_depth(self) -> float:
        return self.top_plate - self.magnet_cover - self.magnet.height / 2

    @property
    def reed_axis_depth(self) -> float:
        return self.top_plate + self.diffuser + self.reed_gap + self.reed.glass_diameter / 2

    @property
    def led_top_depth(self) -> float:
        return self.reed_axis_depth + self.reed.glass_diameter / 2 + self.led_gap

    @property
    def carrier_depth(self) -> float:
        """The carrier's top face (the LED module sits on it)."""
        return self.led_top_depth + self.led_height

    def field_mt(self, pawn: tuple[float, float], br: float) -> float:
        """|B| along the reed (mT) at its contacts, for a pawn centred at ``pawn`` (mm,
        relative to this hole's axis)."""
        m = self.magnet
        b = field_along_x(
            br,
            m.diameter / 2e3,
            m.height / 1e3,
            (pawn[0] / 1e3, pawn[1] / 1e3, -self.magnet_centre_depth / 1e3),
            (self.contact_offset / 1e3, self.reed_side / 1e3, -self.reed_axis_depth / 1e3),
        )
        return abs(b) * 1e3


def pull_in_mt(at: float, coil_length_mm: float) -> float:
    """The long-solenoid field (mT) of ``at`` ampere-turns over ``coil_length_mm``."""
    return MU0 * at / (coil_length_mm / 1e3) * 1e3


def _ring(radius: float) -> list[tuple[float, float]]:
    return [
        (
            radius * math.cos(2 * math.pi * k / DIRECTIONS),
            radius * math.sin(2 * math.pi * k / DIRECTIONS),
        )
        for k in range(DIRECTIONS)
    ]


@dataclass(frozen=True)
class Margins:
    own_mt: float  # the weakest field at the own hole, pawn up to pawn_slack off centre
    own_worst: tuple[float, float]  # where that pawn stands
    neighbour_mt: float  # the strongest field from a pawn in a neighbouring hole
    pull_in_low_mt: float  # the range's bottom (most sensitive reed)
    pull_in_high_mt: float  # the range's top (least sensitive reed)
    own_needed_mt: float
    neighbour_allowed_mt: float

    @property
    def own_margin(self) -> float:
        return self.own_mt / self.own_needed_mt

    @property
    def neighbour_margin(self) -> float:
        return self.neighbour_allowed_mt / self.neighbour_mt

    @property
    def ok(self) -> bool:
        return self.own_margin >= 1 and self.neighbour_margin >= 1

    def text(self, s: StackUp) -> str:
        lo, hi = s.reed.pull_in_at
        return "\n".join(
            [
                f"pull-in {lo:g}-{hi:g} AT in a {s.reed.coil_length:g} mm coil (B = mu0 AT / L): "
                f"{self.pull_in_low_mt:.2f} to {self.pull_in_high_mt:.2f} mT",
                f"own hole, pawn up to {s.pawn_slack:g} mm off centre: at least "
                f"{self.own_mt:.2f} mT along the reed (worst at {self.own_worst[0]:+.1f}, "
                f"{self.own_worst[1]:+.1f} mm); needed {self.own_needed_mt:.2f} mT "
                f"({ONE_POLE_FACTOR:g} x the top pull-in): margin {self.own_margin:.2f}",
                f"neighbouring hole ({s.pitch:g} mm, any direction, pawn up to "
                f"{s.pawn_slack:g} mm off): at most {self.neighbour_mt:.2f} mT; allowed "
                f"{self.neighbour_allowed_mt:.2f} mT (the bottom pull-in / "
                f"{RELATION_FACTOR:g}): margin {self.neighbour_margin:.2f}",
                "closes at its own hole and never for the neighbour: "
                + ("yes" if self.ok else "NO"),
            ]
        )


def margins(s: StackUp) -> Margins:
    """The own-hole minimum and the neighbour maximum over the pawn positions."""
    br_low, br_high = s.magnet.br
    spots = [(0.0, 0.0), *_ring(s.pawn_slack), *_ring(s.pawn_slack / 2)]
    own = min((s.field_mt(p, br_low), p) for p in spots)
    neighbour = max(
        s.field_mt((cx + dx, cy + dy), br_high)
        for cx, cy in _ring(s.pitch)  # no two holes are closer than the pitch
        for dx, dy in spots
    )
    lo, hi = s.reed.pull_in_at
    low, high = pull_in_mt(lo, s.reed.coil_length), pull_in_mt(hi, s.reed.coil_length)
    return Margins(
        own_mt=own[0],
        own_worst=own[1],
        neighbour_mt=neighbour,
        pull_in_low_mt=low,
        pull_in_high_mt=high,
        own_needed_mt=ONE_POLE_FACTOR * high,
        neighbour_allowed_mt=low / RELATION_FACTOR,
    )


def placement_margins(s: StackUp, slack: float = PLACEMENT_SLACK) -> tuple[float, float]:
    """The worst (own, neighbour) margins with the reed placed up to ``slack`` mm off its
    place, along the track and across it: what a builder's hand may do."""
    worst_own = worst_neighbour = math.inf
    for along in (-slack, 0.0, slack):
        for across in (-slack, 0.0, slack):
            m = margins(
                replace(s, contact_offset=s.contact_offset + along, reed_side=s.reed_side + across)
            )
            worst_own = min(worst_own, m.own_margin)
            worst_neighbour = min(worst_neighbour, m.neighbour_margin)
    return worst_own, worst_neighbour


MDSR_7 = Reed(
    part="Littelfuse MDSR-7-20-25",
    glass_length=12.7,
    glass_diameter=1.8,
    pull_in_at=(20.0, 25.0),
    coil_length=12.7,  # unverified: the datasheet found does not give its coil's length
    source="Littelfuse MDSR-7 datasheet (12.70 x 1.80 mm glass, 10-25 AT, 40.38 mm overall)",
)
N42_6X2 = Magnet(
    diameter=6.0,
    height=2.0,
    grade="N42",
    br=(1.28, 1.32),
    source="NdFeB grade tables: N42 Br 1.28-1.32 T (Shanghai Magnet; K&J Magnetics 13.0-13.2 kG)",
)
REFERENCE = StackUp(
    top_plate=6.0,
    hole_diameter=14.0,
    diffuser=2.0,
    magnet=N42_6X2,
    magnet_cover=0.5,
    reed=MDSR_7,
    contact_offset=3.5,
    reed_gap=0.0,
    led_height=1.6,
    led_gap=0.5,
    carrier=1.6,
    pitch=25.0,
    pawn_slack=2.0,
)
