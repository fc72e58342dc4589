"""The course's words for the lessons issue 40 added (course.py says what each field is):
how a game runs (first), the ace's one step, and one's own pawns (a fresh pawn on its
start blocks them too; capturing one's own pawn, and the partner's where the rules allow
it). Dutch first, then English, in short sentences; the vocabulary of RULES.md: the
nest (startvak), the start hole (startplek), the home (thuishonk)."""

from __future__ import annotations

from typing import Any

GAME: dict[str, Any] = {
    "id": "game",
    "title": ("Zo gaat een spel", "How a game runs"),
    "intro": (
        "Iedereen heeft 4 pionnen in zijn nest. De deler geeft eerst 5 kaarten, dan 4, "
        "dan nog eens 4. Wie links van de deler zit begint, en dan is de volgende aan de "
        "beurt, met de klok mee. Elke beurt speel je één kaart en zet je een pion. Met "
        "vier spelers speel je samen met wie tegenover je zit: rood met geel. Jullie "
        "winnen als al jullie 8 pionnen in hun thuishonk staan. Is jouw kleur eerder "
        "thuis, dan speel je verder met de pionnen van je partner. De gaten van de baan "
        "heten T0 tot T63, vanaf de startplek van rood; de 4 gaten van je thuishonk "
        "heten H1 tot H4 (voor rood H0.1 tot H0.4).",
        "Everyone has 4 pawns in their nest. The dealer gives 5 cards each, then 4, then "
        "4 again. The player left of the dealer begins, then the next one plays, "
        "clockwise. Each turn you play one card and move a pawn. With four players you "
        "play together with the one sitting opposite: red with yellow. You win when all 8 "
        "of your pawns stand in their homes. When your colour is home first, you play on "
        "with your partner's pawns. The holes of the track are T0 to T63, from red's "
        "start hole; the 4 holes of your home are H1 to H4 (for red H0.1 to H0.4).",
    ),
    "steps": [
        {
            "position": "NNNN/NNNN/NNNN/NNNN 0 standard",
            "card": "A",
            "move": "A 0:N-S",
            "only": True,
            "task": (
                "De deler gaf je 5 kaarten en jij zit links van hem: jij begint. Je hebt "
                "een aas: zet een pion uit je nest op je startplek T0.",
                "The dealer gave you 5 cards and you sit on his left: you begin. You hold "
                "an ace: put a pawn from your nest on your start hole T0.",
            ),
            "why": (
                "Goed! Nu is blauw aan de beurt, daarna geel en dan groen: met de klok mee.",
                "Well done! Now blue plays, then yellow, then green: clockwise.",
            ),
        },
        {
            "position": "H2H3H4T62/NNNN/H1H2H3H4/NNNN 0 standard",
            "card": "3",
            "move": "3 0:T62-H1",
            "only": True,
            "wrong": [["T62", "T1"]],
            "task": (
                "Geel, je partner, is al thuis. Breng je laatste pion met je 3 in je "
                "thuishonk, op H1.",
                "Yellow, your partner, is home already. Bring your last pawn into your "
                "home with your 3, on H1.",
            ),
            "why": (
                "Gewonnen! Al jullie 8 pionnen staan thuis: rood en geel winnen samen.",
                "You won! All 8 of your pawns are home: red and yellow win together.",
            ),
        },
    ],
}

ACE: dict[str, Any] = {
    "id": "ace",
    "title": ("De aas: opzetten of één stap", "The ace: out, or one step"),
    "intro": (
        "Met een aas zet je een pion uit je nest op je startplek, of je loopt 1 stap met "
        "een pion op de baan.",
        "With an ace you bring a pawn out of your nest onto your start hole, or you walk "
        "1 step with a pawn on the track.",
    ),
    "steps": [
        {
            "position": "H2H3H4T10/NNNN/NNNN/NNNN 0 standard",
            "card": "A",
            "move": "A 0:T10-T11",
            "only": True,
            "wrong": [["T10", "T21"]],
            "task": (
                "Je nest is leeg. Speel je aas met je pion op T10.",
                "Your nest is empty. Play your ace with your pawn on T10.",
            ),
            "why": (
                "Goed! Zonder pion in je nest loopt de aas 1 stap.",
                "Well done! With no pawn in your nest the ace walks 1 step.",
            ),
        },
    ],
}

OWN: dict[str, Any] = {
    "id": "own",
    "title": ("Ook je eigen pionnen", "Your own pawns too"),
    "intro": (
        "Een pion die net op zijn startplek staat, houdt iedereen tegen: ook je eigen "
        "pionnen. En wie precies op een pion landt, slaat hem, ook als het je eigen pion "
        "of die van je partner is.",
        "A pawn that has just come out on its start hole stops everyone: your own pawns "
        "too. And landing exactly on a pawn captures it, also when it is your own pawn "
        "or your partner's.",
    ),
    "steps": [
        {
            "position": "NNT58S/NNNN/NNNN/NNNN 0 standard",
            "card": "8",
            "move": "8 0:S-T8",
            "only": True,
            "wrong": [["T58", "H0.2"]],
            "task": (
                "Je pion op T58 wil naar huis, maar je andere pion staat net op je "
                "startplek T0. Speel je 8.",
                "Your pawn on T58 wants to go home, but your other pawn has just come out "
                "on your start hole T0. Play your 8.",
            ),
            "why": (
                "Goed! Je eigen nieuwe pion op T0 houdt ook je eigen pionnen tegen. Pas "
                "als hij weg is, kan de pion op T58 naar huis.",
                "Well done! Your own new pawn on T0 stops your own pawns too. Only once "
                "it has moved on can the pawn on T58 go home.",
            ),
        },
        {
            "position": "NNT7T12/NNNS/NNNN/NNNN 0 standard",
            "card": "5",
            "move": "5 0:T7-T12",
            "only": True,
            "wrong": [["T12", "T17"]],
            "task": (
                "Blauw staat net op zijn startplek T16, dus je pion op T12 kan niet lopen. "
                "Speel je 5.",
                "Blue has just come out on its start hole T16, so your pawn on T12 cannot "
                "go. Play your 5.",
            ),
            "why": (
                "Goed! Je moest spelen, ook al sla je zo je eigen pion: die gaat terug naar "
                "je nest.",
                "Well done! You had to play, even though it captures your own pawn: it "
                "goes back to your nest.",
            ),
        },
        {
            "position": "NNNT3/NNNN/NNNT8/NNNN 0 standard",
            "card": "5",
            "move": "5 0:T3-T8",
            "only": True,
            "task": (
                "Geel is je partner en staat 5 gaten voor je. Speel je 5.",
                "Yellow is your partner and stands 5 holes ahead of you. Play your 5.",
            ),
            "why": (
                "Goed! Met de gewone regels sla je ook je partner. Met de regels van het "
                "Keez-spel mag dat niet (les 'Andere regels').",
                "Well done! Under the standard rules you capture your partner too. Under "
                "the Keez-spel rules you may not (lesson 'Other rules').",
            ),
        },
    ],
}
