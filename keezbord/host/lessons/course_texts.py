"""The course's words, lessons 1 to 5 (course.py says what each field is; the rest are in
course_texts_more.py). Dutch first, then English, in short sentences."""

from __future__ import annotations

from typing import Any

from .course_texts_basics import ACE, GAME, OWN
from .course_texts_more import MORE

FIRST: list[dict[str, Any]] = [
    {
        "id": "out",
        "title": ("Een pion op het bord", "Bringing a pawn out"),
        "intro": (
            "Je pionnen wachten in je nest. Met een aas (A) of een heer (K) zet je er een "
            "op je startplek. Een pion die net op zijn startplek staat, is beschermd.",
            "Your pawns wait in your nest. With an ace (A) or a king (K) you put one on "
            "your start hole. A pawn that has just come out on its start hole is protected.",
        ),
        "steps": [
            {
                "position": "NNNN/NNNN/NNNN/NNNN 0 standard",
                "card": "A",
                "move": "A 0:N-S",
                "only": True,
                "wrong": [["N0.1", "T1"]],
                "task": (
                    "Speel je aas: zet een rode pion uit je nest op je startplek T0.",
                    "Play your ace: put a red pawn from your nest on your start hole T0.",
                ),
                "why": (
                    "Goed! Met een aas of een heer komt een pion uit het nest op je startplek.",
                    "Well done! An ace or a king brings a pawn out of the nest onto your "
                    "start hole.",
                ),
            },
            {
                "position": "NNNN/NNNT0/NNNN/NNNN 0 standard",
                "card": "K",
                "move": "K 0:N-S",
                "only": True,
                "task": (
                    "Een blauwe pion staat op jouw startplek. Speel je heer en kom toch op "
                    "het bord.",
                    "A blue pawn stands on your start hole. Play your king and come out anyway.",
                ),
                "why": (
                    "Goed! Staat er een andere kleur op je startplek als je opkomt, dan gaat "
                    "die pion terug naar zijn nest.",
                    "Well done! When another colour stands on your start hole as you come "
                    "out, that pawn goes back to its nest.",
                ),
            },
            {
                "position": "NNT2T12/NNNS/NNNN/NNNN 0 standard",
                "card": "6",
                "move": "6 0:T2-T8",
                "only": True,
                "wrong": [["T12", "T18"]],
                "task": (
                    "Blauw is net op zijn startplek T16 gekomen. Speel je 6.",
                    "Blue has just come out on its start hole T16. Play your 6.",
                ),
                "why": (
                    "Goed! Over een pion die net op zijn startplek staat mag niemand heen "
                    "springen. Daarom moest de pion op T2 lopen.",
                    "Well done! Nobody may jump over a pawn that has just come out on its "
                    "start hole. That is why the pawn on T2 had to go.",
                ),
            },
        ],
    },
    {
        "id": "count",
        "title": ("Lopen en tellen", "Moving and counting"),
        "intro": (
            "Een kaart met een getal zegt hoeveel gaten je pion vooruit loopt. De vrouw (Q) is 12.",
            "A card with a number says how many holes your pawn walks forward. The queen "
            "(Q) is 12.",
        ),
        "steps": [
            {
                "position": "NNNT3/NNNN/NNNN/NNNN 0 standard",
                "card": "8",
                "move": "8 0:T3-T11",
                "only": True,
                "wrong": [["T3", "T10"]],
                "task": (
                    "Speel je 8: tel acht gaten vooruit met je pion op T3.",
                    "Play your 8: count eight holes forward with your pawn on T3.",
                ),
                "why": (
                    "Goed geteld! Elk gat telt, ook als er een pion op staat.",
                    "Well counted! Every hole counts, also when a pawn stands on it.",
                ),
            },
            {
                "position": "NNNT3/NNNT9/NNNN/NNNN 0 standard",
                "card": "Q",
                "move": "Q 0:T3-T15",
                "only": True,
                "wrong": [["T3", "T16"]],
                "task": (
                    "Speel je vrouw: 12 gaten vooruit. Je mag over de blauwe pion heen.",
                    "Play your queen: 12 holes forward. You may pass the blue pawn.",
                ),
                "why": (
                    "Goed! Over andere pionnen heen lopen mag. Alleen waar je eindigt telt.",
                    "Well done! Walking past other pawns is allowed. Only where you stop matters.",
                ),
            },
        ],
    },
    {
        "id": "capture",
        "title": ("Slaan", "Capturing"),
        "intro": (
            "Kom je precies op een gat met een andere pion, dan sla je hem: hij gaat "
            "terug naar zijn nest.",
            "When you land exactly on a hole with another pawn, you capture it: it goes "
            "back to its nest.",
        ),
        "steps": [
            {
                "position": "NNNT3/NNNT8/NNNN/NNNN 0 standard",
                "card": "5",
                "move": "5 0:T3-T8",
                "only": True,
                "task": (
                    "Blauw staat 5 gaten voor je. Speel je 5.",
                    "Blue stands 5 holes ahead of you. Play your 5.",
                ),
                "why": (
                    "Geslagen! De blauwe pion moet terug naar zijn nest.",
                    "Captured! The blue pawn has to go back to its nest.",
                ),
            },
            {
                "position": "NNT7T20/NNNT12/NNNN/NNNN 0 standard",
                "card": "5",
                "move": "5 0:T7-T12",
                "only": True,
                "hint": (
                    "Dat mag, maar kijk eens welke pion 5 gaten achter blauw staat.",
                    "That is allowed, but look which pawn stands 5 holes behind blue.",
                ),
                "task": (
                    "Blauw is bijna thuis. Je hebt een 5. Welke pion kan blauw slaan? Sla hem.",
                    "Blue is nearly home. You have a 5. Which pawn can capture blue? Capture it.",
                ),
                "why": (
                    "Goed gezien! Blauw was bijna thuis en moet nu weer helemaal vooraan beginnen.",
                    "Well spotted! Blue was nearly home and now has to start all over again.",
                ),
            },
        ],
    },
    {
        "id": "four",
        "title": ("De 4 achteruit", "The 4 goes backwards"),
        "intro": (
            "De 4 loopt 4 gaten achteruit. Vanaf je startplek is dat een kortere weg naar huis!",
            "The 4 walks 4 holes backwards. From your start hole that is a shortcut home!",
        ),
        "steps": [
            {
                "position": "NNNS/NNNN/NNNN/NNNN 0 standard",
                "card": "4",
                "move": "4 0:S-T60",
                "only": True,
                "wrong": [["T0", "T4"]],
                "task": (
                    "Speel je 4 met de pion op je startplek: 4 gaten terug.",
                    "Play your 4 with the pawn on your start hole: 4 holes back.",
                ),
                "why": (
                    "Goed! Nu staat je pion vlak voor je thuishonk in plaats van een heel rondje "
                    "ervan af.",
                    "Well done! Now your pawn stands just before your home instead of a "
                    "whole lap away.",
                ),
            },
            {
                "position": "NNNT60/NNNN/NNNN/NNNN 0 standard",
                "card": "8",
                "move": "8 0:T60-H4",
                "only": True,
                "wrong": [["T60", "T4"]],
                "task": (
                    "Speel je 8. Loop over je startplek je thuishonk in, tot het laatste gat.",
                    "Play your 8. Walk over your start hole into your home, to the last hole.",
                ),
                "why": (
                    "Thuis! Een pion die over zijn eigen startplek komt, gaat zijn thuishonk in.",
                    "Home! A pawn that comes over its own start hole goes into its home.",
                ),
            },
        ],
    },
    {
        "id": "home",
        "title": ("Precies thuiskomen", "Coming home exactly"),
        "intro": (
            "Je thuishonk heeft 4 gaten. Je moet er precies in passen, en in je thuishonk "
            "spring je niet over een eigen pion.",
            "Your home has 4 holes. You must fit in exactly, and inside your home you "
            "never jump over your own pawn.",
        ),
        "steps": [
            {
                "position": "NNNT62/NNNN/NNNN/NNNN 0 standard",
                "card": "6",
                "move": "6 0:T62-H4",
                "only": True,
                "task": (
                    "Speel je 6: precies tot het laatste gat van je thuishonk.",
                    "Play your 6: exactly to the last hole of your home.",
                ),
                "why": (
                    "Precies! Met een 7 was je te ver gekomen, en dat mag niet.",
                    "Exactly! With a 7 you would have gone too far, and that is not allowed.",
                ),
            },
            {
                "position": "NH3T20T63/NNNN/NNNN/NNNN 0 standard",
                "card": "5",
                "move": "5 0:T20-T25",
                "only": True,
                "wrong": [["T63", "H0.4"]],
                "task": (
                    "Er staat al een pion op gat 3 van je thuishonk. Speel je 5.",
                    "A pawn already stands on hole 3 of your home. Play your 5.",
                ),
                "why": (
                    "Goed! In je thuishonk spring je niet over je eigen pion, dus moest de "
                    "andere pion lopen.",
                    "Well done! In your home you never jump over your own pawn, so the "
                    "other pawn had to go.",
                ),
            },
            {
                "position": "NNNH1/NNNN/NNNN/NNNN 0 standard",
                "card": "2",
                "move": "2 0:H1-H3",
                "only": True,
                "task": (
                    "Je pion staat in je thuishonk. Speel je 2 en schuif hem verder.",
                    "Your pawn is in your home. Play your 2 and slide it further in.",
                ),
                "why": (
                    "Goed! In je thuishonk mag je nog verder naar binnen, maar nooit terug.",
                    "Well done! In your home you may still go further in, but never back.",
                ),
            },
        ],
    },
]


def _course() -> list[dict[str, Any]]:
    """How a game runs first; the ace after counting, one's own pawns after capturing."""
    out: list[dict[str, Any]] = [GAME]
    for les in FIRST:
        out.append(les)
        if les["id"] == "count":
            out.append(ACE)
        if les["id"] == "capture":
            out.append(OWN)
    return out + MORE


LESSONS: list[dict[str, Any]] = _course()
