"""A checkers evaluation: material only, as the arena's `baseline` counts it.

    tui-games arena checkers --a level4:examples/checkers_material.py --b random --games 4

Played as ``levelN:checkers_material.py``: the built-in depth-N alpha-beta calls ``evaluate``
at its horizon. A man is worth 100, a king 150 (it moves both ways); the score is from the side
to move: its material minus the other side's.
"""

MAN, KING = 100, 150


def evaluate(position):
    counts = position.counts()  # {"b": black men, "B": black kings, "w": ..., "W": ...}
    black = MAN * counts["b"] + KING * counts["B"]
    white = MAN * counts["w"] + KING * counts["W"]
    # Black (side 0) moves first.
    return black - white if position.turn == 0 else white - black
