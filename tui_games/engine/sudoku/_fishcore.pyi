# The compiled fish search's interface (_fishcore.c), for the type checker: complex_fish.py's
# _search_digit is its pure-Python twin. One tuple a fish: bases, covers, fins, endo fins,
# body, targets, eliminations (cell sets as ints) and kind (0 basic, 1 Franken, 2 mutant).
def search(size: int, max_fins: int, max_endo: int, mutant: bool, every_finned: bool, where: int,
           places: list[int], usable: list[int], cover_ok: list[bool], units_of: list[tuple[int, ...]],
           peers: list[int], kinds: list[int], /) -> list[tuple[tuple[int, ...], tuple[int, ...], int, int, int, int,
                                                       int, int]]: ...
