"""The course's words, lessons 6 to 10 (course_texts.py holds 1 to 5)."""

from __future__ import annotations

from typing import Any

MORE: list[dict[str, Any]] = [
    {
        "id": "seven",
        "title": ("De 7 splitsen", "Splitting the 7"),
        "intro": (
            "De 7 mag je verdelen over twee pionnen, bijvoorbeeld 3 en 4. Elke pion die "
            "precies op een ander landt, slaat die.",
            "You may share the 7 between two pawns, for example 3 and 4. Each pawn that "
            "lands exactly on another one captures it.",
        ),
        "steps": [
            {
                "position": "NNT3T20/NNNT24/NNNN/NNNN 0 standard",
                "card": "7",
                "move": "7 0:T3-T6 0:T20-T24",
                "hint": (
                    "Dat mag, maar blauw staat 4 gaten voor je pion op T20. Gebruik 4 van "
                    "je 7 om hem te slaan.",
                    "That is allowed, but blue stands 4 holes ahead of your pawn on T20. "
                    "Use 4 of your 7 to capture it.",
                ),
                "task": (
                    "Verdeel je 7: sla blauw op T24 met 4 stappen, en loop de andere 3 met "
                    "je pion op T3.",
                    "Split your 7: capture blue on T24 with 4 steps, and walk the other 3 "
                    "with your pawn on T3.",
                ),
                "why": (
                    "Goed! 3 + 4 = 7. Alle 7 stappen moeten gebruikt worden.",
                    "Well done! 3 + 4 = 7. All 7 steps must be used.",
                ),
            },
            {
                "position": "NNNT10/NNNT15/NNNN/NNNN 0 standard",
                "card": "7",
                "move": "7 0:T10-T17",
                "only": True,
                "task": (
                    "Je hebt maar één pion op het bord. Speel je 7 met die pion.",
                    "You have only one pawn on the board. Play your 7 with that pawn.",
                ),
                "why": (
                    "Goed! Met één pion loop je alle 7. Blauw sla je niet: je liep er "
                    "alleen langs.",
                    "Well done! With one pawn you walk all 7. You did not capture blue: "
                    "you only passed it.",
                ),
            },
        ],
    },
    {
        "id": "jack",
        "title": ("De boer ruilt", "The jack swaps"),
        "intro": (
            "Met de boer (J) ruil je een eigen pion van plaats met een pion van een "
            "andere kleur. Pionnen in een nest, in een thuishonk of net op hun startplek ruil "
            "je niet.",
            "With the jack (J) you swap one of your pawns with a pawn of another colour. "
            "Pawns in a nest, in a home, or just out on their start hole cannot be swapped.",
        ),
        "steps": [
            {
                "position": "NNNT5/NNNT60/NNNN/NNNN 0 standard",
                "card": "J",
                "move": "J 0:T5<>1:T60",
                "only": True,
                "task": (
                    "Blauw staat vlak voor jouw thuishonk. Ruil je pion op T5 met blauw.",
                    "Blue stands just before your home. Swap your pawn on T5 with blue.",
                ),
                "why": (
                    "Goed! In één beurt staat je pion vlak voor je thuishonk.",
                    "Well done! In one turn your pawn stands just before your home.",
                ),
            },
            {
                "position": "NNNT5/NNST30/NNNN/NNNN 0 standard",
                "card": "J",
                "move": "J 0:T5<>1:T30",
                "only": True,
                "task": (
                    "Blauw heeft een pion op T30 en een net op zijn startplek T16. Ruil met "
                    "de pion die je mag ruilen.",
                    "Blue has a pawn on T30 and one just out on its start hole T16. Swap "
                    "with the pawn you are allowed to swap.",
                ),
                "why": (
                    "Goed! Een pion die net op zijn startplek staat, is beschermd: die "
                    "ruil je niet.",
                    "Well done! A pawn just out on its start hole is protected: you cannot "
                    "swap it.",
                ),
            },
        ],
    },
    {
        "id": "sit_out",
        "title": ("Niets te spelen", "Nothing to play"),
        "intro": (
            "Kun je met geen enkele kaart spelen, dan laat je je hand zien en wacht je tot "
            "de volgende keer delen. Kan het wel, dan moet je spelen.",
            "When no card in your hand can be played, you show your hand and wait until "
            "the next deal. When one can, you must play.",
        ),
        "steps": [
            {
                "position": "NNNN/NNNN/NNNN/NNNN 0 standard",
                "hand": ["5", "8", "Q"],
                "move": "discard",
                "only": True,
                "task": (
                    "Al je pionnen zitten in je nest en je hebt 5, 8 en Q. Wat doe je?",
                    "All your pawns are in your nest and you hold 5, 8 and Q. What do you do?",
                ),
                "why": (
                    "Goed! Zonder aas of heer komt er geen pion op het bord. Je laat je hand "
                    "zien en slaat deze ronde over.",
                    "Right! Without an ace or a king no pawn can come out. You show your "
                    "hand and sit out this round.",
                ),
            },
            {
                "position": "NNNN/NNNN/NNNN/NNNN 0 standard",
                "hand": ["5", "A"],
                "card": "A",
                "move": "A 0:N-S",
                "only": True,
                "task": (
                    "Je hebt een 5 en een aas. Moet je je hand laten zien?",
                    "You hold a 5 and an ace. Must you show your hand?",
                ),
                "why": (
                    "Goed! Met de aas kun je spelen, dus moet je spelen.",
                    "Right! You can play the ace, so you must play.",
                ),
            },
        ],
    },
    {
        "id": "partner",
        "title": ("Samen met je partner", "Playing with your partner"),
        "intro": (
            "Met vier spelers speel je samen met wie tegenover je zit: rood met geel. Zijn "
            "al je pionnen thuis, dan speel je met de pionnen van je partner.",
            "With four players you play together with the one sitting opposite: red with "
            "yellow. Once all your pawns are home, you play with your partner's pawns.",
        ),
        "steps": [
            {
                "position": "H1H2H3H4/NNNN/NNNT40/NNNN 0 standard",
                "card": "5",
                "move": "5 2:T40-T45",
                "only": True,
                "task": (
                    "Al je rode pionnen zijn thuis. Speel je 5 met de gele pion van je partner.",
                    "All your red pawns are home. Play your 5 with your partner's yellow pawn.",
                ),
                "why": (
                    "Goed! Nu help je geel thuiskomen. Jullie winnen samen.",
                    "Well done! Now you help yellow come home. You win together.",
                ),
            },
            {
                "position": "H2H3H4T63/NNNN/NNNT40/NNNN 0 standard",
                "card": "7",
                "move": "7 0:T63-H1 2:T40-T45",
                "only": True,
                "task": (
                    "Breng je laatste pion thuis met 2 van je 7, en loop de andere 5 met geel.",
                    "Bring your last pawn home with 2 of your 7, and walk the other 5 with yellow.",
                ),
                "why": (
                    "Goed! Is je laatste pion thuis midden in een 7, dan speel je de rest "
                    "met je partner.",
                    "Well done! When your last pawn comes home in the middle of a 7, you "
                    "play the rest with your partner.",
                ),
            },
        ],
    },
    {
        "id": "profiles",
        "title": ("Andere regels", "Other rules"),
        "intro": (
            "Niet iedereen speelt met dezelfde regels. Het bord kent er een paar: kies "
            "ze bij een nieuw spel.",
            "Not everyone plays by the same rules. The board knows a few: choose them for "
            "a new game.",
        ),
        "steps": [
            {
                "position": "NNT3T20/NNNN/NNNT8/NNNN 0 keezspel",
                "card": "5",
                "move": "5 0:T20-T25",
                "only": True,
                "wrong": [["T8", "N2.4"], ["T3", "T8"]],
                "task": (
                    "Met de regels van het Keez-spel sla je je partner niet. Speel je 5.",
                    "With the Keez-spel rules you never capture your partner. Play your 5.",
                ),
                "why": (
                    "Goed! Geel is je partner, dus mocht je pion op T3 daar niet landen.",
                    "Well done! Yellow is your partner, so your pawn on T3 could not land there.",
                ),
            },
            {
                "position": "NNT3T6/NNNN/NNNN/NNNN 0 nk",
                "card": "5",
                "move": "5 0:T6-T11",
                "only": True,
                "wrong": [["T3", "T8"]],
                "task": (
                    "Bij het NK spring je niet over je eigen pionnen. Speel je 5.",
                    "At the NK you never jump over your own pawns. Play your 5.",
                ),
                "why": (
                    "Goed! De pion op T3 had over je pion op T6 heen gemoeten.",
                    "Well done! The pawn on T3 would have had to jump over your pawn on T6.",
                ),
            },
        ],
    },
]
