"""The field of a pawn's magnet: a uniformly, axially magnetised cylinder, in closed form.

A cylinder of remanence ``Br`` magnetised along its axis has the field of an ideal
solenoid of the same size with ``mu0 * n * I = Br`` (a current sheet on its side). Derby
and Olbert (Am. J. Phys. 78, 229 (2010), "Cylindrical magnets and ideal solenoids") give
that field at any point in closed form, with Bulirsch's generalised complete elliptic
integral ``cel``:

    B_rho = B0 * (alpha+ cel(k+, 1, 1, -1) - alpha- cel(k-, 1, 1, -1))
    B_z   = B0 * a / (a + rho) * (beta+ cel(k+, g^2, 1, g) - beta- cel(k-, g^2, 1, g))

with ``B0 = Br / pi``, ``z+- = z +- b`` (b the half height), ``alpha+- = a / sqrt(z+-^2 +
(rho + a)^2)``, ``beta+- = z+- / sqrt(...)``, ``g = (a - rho) / (a + rho)`` and ``k+- =
sqrt((z+-^2 + (a - rho)^2) / (z+-^2 + (a + rho)^2))``. Lengths in metres, fields in tesla;
the origin is the magnet's centre, z along its axis. The tests check it against the
on-axis formula, the far dipole and a Biot-Savart sum over current loops.
"""

from __future__ import annotations

import math

MU0 = 4e-7 * math.pi


def cel(kc: float, p: float, c: float, s: float) -> float:
    """Bulirsch's complete elliptic integral: the integral over 0..pi/2 of
    ``(c cos^2 t + s sin^2 t) / ((cos^2 t + p sin^2 t) sqrt(cos^2 t + kc^2 sin^2 t))``."""
    if kc == 0:
        raise ValueError("cel diverges at kc = 0 (a point on the magnet's rim)")
    k = abs(kc)
    pp, cc, ss, em = p, c, s, 1.0
    if p > 0:
        pp = math.sqrt(p)
        ss = s / pp
    else:
        f = kc * kc
        q = 1.0 - f
        g = 1.0 - pp
        f -= pp
        q *= ss - c * pp
        pp = math.sqrt(f / g)
        cc = (c - ss) / g
        ss = -q / (g * g * pp) + cc * pp
    f = cc
    cc += ss / pp
    g = k / pp
    ss = 2.0 * (ss + f * g)
    pp += g
    g = em
    em += k
    kk = k
    while abs(g - k) > g * 1e-14:
        k = 2.0 * math.sqrt(kk)
        kk = k * em
        f = cc
        cc += ss / pp
        g = kk / pp
        ss = 2.0 * (ss + f * g)
        pp += g
        g = em
        em += k
    return (math.pi / 2) * (ss + cc * em) / (em * (em + pp))


def cylinder_field(
    br: float, radius: float, height: float, rho: float, z: float
) -> tuple[float, float]:
    """(B_rho, B_z) in tesla of a cylinder magnet (remanence ``br`` T, ``radius`` and
    ``height`` m) at distance ``rho`` from its axis and ``z`` along it from its centre."""
    a, b = radius, height / 2
    rho = max(rho, 1e-12)  # on the axis B_rho is 0; the formula's limit is smooth
    b0 = br / math.pi
    g = (a - rho) / (a + rho)
    out_rho = out_z = 0.0
    for sign, zz in ((1.0, z + b), (-1.0, z - b)):
        root = math.sqrt(zz * zz + (rho + a) ** 2)
        kc = math.sqrt((zz * zz + (a - rho) ** 2) / (zz * zz + (rho + a) ** 2))
        out_rho += sign * (a / root) * cel(kc, 1.0, 1.0, -1.0)
        out_z += sign * (zz / root) * cel(kc, g * g, 1.0, g)
    return b0 * out_rho, b0 * a / (a + rho) * out_z


def field_along_x(
    br: float,
    radius: float,
    height: float,
    magnet: tuple[float, float, float],
    point: tuple[float, float, float],
) -> float:
    """The x component (T) at ``point`` of a magnet centred at ``magnet`` with its axis
    along z (a pawn's magnet lying flat in its base): the field along a reed lying on x."""
    dx, dy = point[0] - magnet[0], point[1] - magnet[1]
    rho = math.hypot(dx, dy)
    if rho < 1e-12:
        return 0.0
    b_rho, _ = cylinder_field(br, radius, height, rho, point[2] - magnet[2])
    return b_rho * dx / rho
