"""Draws a schematic (schematic.py) as SVG: each part a box with its pins, each pin a
stub ending in its net's label (same label, same net: the common way to draw a netlist
without crossing wires). Every pin is a ``<g class="pin">`` carrying ``data-ref``,
``data-pin``, ``data-name`` and ``data-net``, so a program (the tests) reads the drawing
back exactly."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from keezbord.hardware.schematic import NC, Part, Schematic

ROW = 16  # px between two pins
BOX_W = 170
STUB = 24
COL_W = BOX_W + 2 * STUB + 2 * 92  # a part with its labels on both sides
COL_H = 900  # a column holds parts up to this height
COLOURS = {"GND": "#1b5e20", "PGND": "#4e342e", "3V3": "#c62828", "3V3_PI": "#c62828"}
COLOURS |= {"5V": "#e65100", NC: "#9e9e9e"}


def _colour(net: str) -> str:
    return COLOURS.get(net, "#0d47a1")


def _half(part: Part) -> int:
    """How many pins go down the left side."""
    return len(part.pins) if part.one_column else (len(part.pins) + 1) // 2


def _note_lines(note: str, width: int = 34) -> list[str]:
    lines: list[str] = []
    for word in note.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _height(part: Part) -> int:
    return 34 + _half(part) * ROW + 11 * len(_note_lines(part.note))


def _part(part: Part, x: float, y: float) -> list[str]:
    h = _height(part)
    bx = x + STUB + 92
    out = [
        f'<g class="part" data-ref={quoteattr(part.ref)} data-value={quoteattr(part.value)}>',
        f'<rect x="{bx}" y="{y}" width="{BOX_W}" height="{h - 10}" fill="#fffdf5" '
        'stroke="#333" stroke-width="1.2"/>',
        f'<text x="{bx + BOX_W / 2}" y="{y + 13}" text-anchor="middle" font-weight="bold">'
        f"{escape(part.ref)}: {escape(part.value)}</text>",
    ]
    half = _half(part)
    for i, pin in enumerate(part.pins):
        left = i < half
        row = i if left else i - half
        py = y + 30 + row * ROW
        edge = bx if left else bx + BOX_W
        end = edge - STUB if left else edge + STUB
        colour = _colour(pin.net)
        anchor_in, anchor_out = ("start", "end") if left else ("end", "start")
        inner = edge + 4 if left else edge - 4
        outer = end - 3 if left else end + 3
        out += [
            f'<g class="pin" data-ref={quoteattr(part.ref)} data-pin={quoteattr(pin.number)} '
            f"data-name={quoteattr(pin.name)} data-net={quoteattr(pin.net)}>",
            f'<line x1="{edge}" y1="{py}" x2="{end}" y2="{py}" stroke="{colour}" '
            'stroke-width="1.5"/>',
            f'<text x="{inner}" y="{py + 4}" text-anchor="{anchor_in}">{escape(pin.name)}</text>',
            f'<text x="{(edge + end) / 2}" y="{py - 3}" text-anchor="middle" '
            f'font-size="8" fill="#555">{escape(pin.number)}</text>',
            f'<text x="{outer}" y="{py + 4}" text-anchor="{anchor_out}" fill="{colour}" '
            f'class="net">{escape(pin.net)}</text>',
            "</g>",
        ]
    notes = _note_lines(part.note)
    for i, line in enumerate(notes):
        out.append(
            f'<text x="{bx + BOX_W / 2}" y="{y + h - 14 - 11 * (len(notes) - 1 - i)}" '
            f'text-anchor="middle" font-size="8" fill="#555">{escape(line)}</text>'
        )
    out.append("</g>")
    return out


def schematic_svg(s: Schematic) -> str:
    """The whole drawing: parts in columns, the title and notes on top."""
    body: list[str] = []
    x, top = 10.0, 40.0 + 14 * (len(s.notes) + 1)
    y, tallest = top, top
    for part in s.parts:
        h = _height(part)
        if y + h > top + COL_H and y > top:
            x, y = x + COL_W, top
        body += _part(part, x, y)
        y += h + 8
        tallest = max(tallest, y)
    width, height = x + COL_W + 10, tallest + 10
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="10">',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>',
        f'<text x="10" y="22" font-size="15" font-weight="bold">{escape(s.title)}</text>',
        *(
            f'<text x="10" y="{40 + 14 * i}" fill="#333">{escape(n)}</text>'
            for i, n in enumerate(
                (*s.notes, "Same net label, same net. GND: logic ground; PGND: LED power ground.")
            )
        ),
    ]
    return "\n".join([*head, *body, "</svg>"]) + "\n"
