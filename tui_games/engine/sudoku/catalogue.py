"""The techniques the stepper knows, in the order it tries them, with level and rating.

The stepper takes the first step the first technique finds, so this order *is* "the easiest
technique available": by base rating on Sudoku Explainer's scale (the number
printed next to puzzles on the forums: 1.0 a full house ... 4.2 an XY-wing, 5.2 a jellyfish,
6.5-7.x chains and loops, 7.5-8.x forcing chains, 8.5+ dynamic forcing chains, 9.0+ with
pointing and pairs, 9.5+ nested nets). A puzzle's rating is the highest rating of the steps taken that way (see
:mod:`.grading`) with the techniques Sudoku Explainer knows -- as its fork Sukaku Explainer,
which rated the shared diabolical bank, knows them: with the WXYZ-wings and the strong-linked
fishes (a skyscraper 4.0). The others (marked ``H``: finned fish, hidden rectangles, W-wings,
colouring, ALS, ...) serve hints only, rated as HoDoKu and the SE forks rate them. The Franken
and mutant fish search is compiled where a C compiler was found (:mod:`.complex_fish`: 25 ms
a position for all of them, against 1.1 s in its pure-Python twin): without it, the hints keep
only the Franken X-wings.

======================  ============  ======  ==================================================
technique               level         rating  what it sees
======================  ============  ======  ==================================================
full house              trivial       1.0     the last empty cell of a unit
last cell of a cage     trivial       1.1     Killer: the last empty cell of a cage is its sum less the others
hidden single (box)     trivial       1.2     a digit with one place left in a box
hidden single (line)    basic         1.5     a digit with one place left in a row, column or diagonal
direct pointing         basic         1.7     a pointing leaves a digit one place in another box: place it
direct claiming         basic         1.9     a box-line reduction leaves a digit one place in another line: place it
direct hidden pair      basic         2.0     a hidden pair leaves another digit of its unit one place: place it
naked single            basic         2.3     a cell with one candidate left
direct hidden triple    basic         2.5     the same with a hidden triple
cage combination        intermediate  2.4     Killer: only some digit sets make a cage's sum in its candidates
rule of 45              intermediate  2.5     Killer: the one open innie or outie of 1-4 adjacent units (+0.1 a unit)
pointing                intermediate  2.6     a digit confined in a box to one line: not elsewhere in the line
box-line reduction      intermediate  2.8     a digit confined in a line to one box: not elsewhere in the box
cage splitting          advanced      2.9     Killer: the rule of 45 splits a cage in two parts of known sums (+0.1)
innie/outie sum         advanced      3.1     Killer: 2-3 open innies or outies of a known sum (+0.1 a unit)
naked pair/triple/quad  advanced      3.0     k cells of a unit holding only k digits between them (3.6, 5.0)
hidden pair/triple/quad advanced      3.4     k digits of a unit fitting only in k cells (4.0, 5.4)
X-wing, swordfish       extreme       3.2     a digit confined in 2 (3) rows to 2 (3) columns, or vice versa (3.8)
jellyfish               extreme       5.2     the same with 4 rows and 4 columns
finned X-wing           extreme       3.4     an X-wing but for fins in one box: the cover cells in that box go H
sashimi X-wing          extreme       3.5     a finned X-wing whose base line keeps one candidate without the fins H
finned swordfish        extreme       4.0     a swordfish with fins in one box (sashimi: 4.1) H
finned jellyfish        extreme       5.4     a jellyfish with fins in one box (sashimi: 5.5) H
XY-wing                 extreme       4.2     a bivalue pivot and two bivalue wings sharing a third digit
XYZ-wing                extreme       4.4     a trivalue pivot and two bivalue wings inside it
unique rectangle 1      extreme       4.5     three corners of a rectangle hold only ab: the fourth is neither (*)
unique rectangle 2      extreme       4.5     two corners hold ab, two ab+x: x goes from the cells seeing both (*)
unique rectangle 3      extreme       4.6     the extras of two corners form a naked set in their unit (+0.1/cell) (*)
unique rectangle 4      extreme       4.5     two corners hold ab, a is locked in the other two: they lose b (*)
hidden unique rectangle extreme       4.8     a corner ab, a conjugate twice at the opposite one: it loses b (*) H
unique loop             extreme       4.6     the rectangle's deadly pattern on 6, 8, 10+ cells, types 1-4 (4.6-5.3) (*)
WXYZ-wing               extreme       5.5     a bivalue cell and a 3-cell ALS (:mod:`.als`): ALS-XZ, 5.5-5.6
BUG+1                   extreme       5.6     all empty cells bivalue but one: its odd digit is placed (*)
BUG type 2              extreme       5.7     the BUG candidates are one digit: it goes from cells seeing them all (*)
BUG type 4              extreme       5.7     two BUG cells in a unit share a conjugate digit: they lose the rest (*)
BUG type 3              extreme       5.8+    the BUG cells of a unit form a naked set with others (+0.1/cell) (*)
VWXYZ-wing              fiendish      6.2     a WXYZ-wing with a 4-cell ALS (6.2-6.4)
X-chain, 3-4 strong     fiendish      5.4+    a chain or loop on one digit with 3 (4) strong links: 5.4 (5.8) +0.1-0.2,
                                              +0.3 with a group
X-cycle                 fiendish      6.5+    a loop on one digit: eliminations on its weak links
XY-cycle                fiendish      6.5+    a loop of bivalue cells, each sharing a digit with the next (SE's Y-cycle)
skyscraper              extreme       4.0     two parallel conjugate pairs of a digit whose near ends share a line
2-string kite           extreme       4.1     a row and a column conjugate pair whose near ends share a box
turbot fish             extreme       4.2     any other two conjugate pairs of a digit joined by a weak link
grouped turbot fish     extreme       4.3     two conjugate pairs of a digit, one end a group (a box-line intersection)
empty rectangle         extreme       4.3     a box's candidates in one row and column, and a conjugate pair crossing
simple colouring        fiendish      6.6+    a cluster of conjugate pairs in two colours: colour wrap, colour trap H
remote pairs            fiendish      6.6+    a chain of identical bivalue cells: both digits leave cells seeing both ends H
UVWXYZ-wing             fiendish      6.6     a WXYZ-wing with a 5-cell ALS H
X-chain                 fiendish      6.6+    a chain on one digit: one end holds it, so no cell seeing both does; or
                                              two strong links meeting at a cell: it holds the digit
W-wing                  fiendish      6.8     two identical bivalue cells joined by a conjugate pair of one digit H
multi-colouring         fiendish      6.8     two colour clusters joined by a weak link H
XY-chain                fiendish      7.0+    a chain of bivalue cells from a digit back to the same digit
AIC                     fiendish      7.0+    an alternating inference chain or nice loop over any links, groups too
                                              (the grade: without groups, as Sudoku Explainer)
sue de coq              fiendish      7.0     a box/line intersection, a line set and a box set with as many digits as cells H
ALS-XZ                  fiendish      7.0     two almost locked sets with a restricted common digit (:mod:`.als`) H
ALS-XY-wing             fiendish      7.2     a pivot ALS with restricted common digits to two ALSes sharing a digit H
Franken X-wing          extreme       3.8     a fish with boxes among its bases or covers (finned 4.0) H
Franken swordfish       extreme       4.4     the same with three bases (finned 4.6) H
Franken jellyfish       fiendish      5.8     the same with four bases (finned 6.0) (:mod:`.complex_fish`) H
mutant fish             fiendish      4.4     rows and columns mixed among bases or covers (5.0, 6.4; finned +0.2) H
ALS chain               fiendish      7.4+    four or five ALSes linked by RCCs (:mod:`.als_chain`), +0.2 a set H
death blossom           fiendish      7.4+    a stem cell and an ALS petal per candidate (:mod:`.death_blossom`) H
kraken fish             diabolical    7.5+    a finned fish whose fins are followed by chains (:mod:`.kraken`) H
aligned pair exclusion  fiendish      6.2     two cells' candidate pairs that would empty a bivalue cell seeing both
aligned triplet excl.   diabolical    7.5     the same with three cells and cells of two or three candidates
nishio forcing chain    nightmare     7.5+    a candidate assumed true, followed on its digit alone (singles played out),
                                              ends in a contradiction (Sudoku Explainer's nishio)
digit forcing chain     diabolical    7.5+    a candidate on and off imply the same, or one a contradiction (static) H;
                                              the grade's level counts it, its rating does not
cell forcing chain      diabolical    8.0+    every candidate of a cell implies the same node (static chains; the grade's
                                              from cells of 3+ candidates, as Sudoku Explainer's)
unit forcing chain      diabolical    8.0+    every place of a digit in a unit implies the same node (static; likewise)
dynamic forcing chain   nightmare     8.5+    the same, singles played out in the net (contradiction, verity)
dyn. forcing chain (+)  nightmare     9.0+    dynamic nets that also use pointing, box-line and pairs
nested forcing net      nightmare     9.5+    nets with chains inside, SE's nesting levels 2-4 (8.5 + 0.5 x level): never stuck
======================  ============  ======  ==================================================

A ``+`` rating grows with the chain's length (:func:`.techniques.length_rating`). (*) assumes the
puzzle has one solution (:mod:`.uniqueness`); ``Stepper(uniqueness=False)`` leaves these out.
"""

from __future__ import annotations

from tui_games.engine.sudoku.aligned import aligned_exclusion
from tui_games.engine.sudoku.als import als_xy_wings, als_xz, bent_wing, sue_de_coq
from tui_games.engine.sudoku.als_chain import als_chains
from tui_games.engine.sudoku.bug import bug_type
from tui_games.engine.sudoku.cages import (
    cage_combinations,
    cage_splitting,
    innie_outie_sums,
    innies_outies,
    last_cage_cells,
)
from tui_games.engine.sudoku.chains import aics, plain_aics, strong_link_fish, x_chains, x_cycles, xy_chains
from tui_games.engine.sudoku.colouring import multi_colouring, simple_colouring
from tui_games.engine.sudoku.complex_fish import FRANKEN, MUTANT, compiled_search, complex_fish, fish_rating
from tui_games.engine.sudoku.death_blossom import death_blossoms
from tui_games.engine.sudoku.direct import direct_claiming, direct_hidden_subsets, direct_pointing
from tui_games.engine.sudoku.fish import finned_fish
from tui_games.engine.sudoku.forcing import (
    cell_forcing_chains,
    digit_forcing_chains,
    dynamic_forcing_chains,
    dynamic_forcing_chains_plus,
    explainer_cell_forcing_chains,
    explainer_nested_forcing_nets,
    explainer_unit_forcing_chains,
    nested_forcing_nets,
    nishio_forcing_chains,
    unit_forcing_chains,
)
from tui_games.engine.sudoku.kraken import kraken_fish
from tui_games.engine.sudoku.levels import (
    ADVANCED,
    BASIC,
    DIABOLICAL,
    EXTREME,
    FIENDISH,
    INTERMEDIATE,
    NIGHTMARE,
    TRIVIAL,
)
from tui_games.engine.sudoku.single_digit import empty_rectangles, skyscrapers, turbot_fish, two_string_kites
from tui_games.engine.sudoku.techniques import (
    FISH_NAMES,
    Technique,
    box_line_reduction,
    fish,
    full_houses,
    hidden_singles_in_boxes,
    hidden_singles_in_lines,
    hidden_subsets,
    naked_singles,
    naked_subsets,
    pointing,
    xy_wings,
    xyz_wings,
)
from tui_games.engine.sudoku.unique_loops import unique_loops
from tui_games.engine.sudoku.uniqueness import (
    bug_plus_one,
    hidden_unique_rectangles,
    unique_rectangles_type_1,
    unique_rectangles_type_2,
    unique_rectangles_type_3,
    unique_rectangles_type_4,
)
from tui_games.engine.sudoku.wings import remote_pairs, w_wings
from tui_games.engine.sudoku.xy_cycles import xy_cycles

__all__ = ["EXPLAINER_PRODUCERS", "TECHNIQUES", "TECHNIQUE_RANK"]

_ALL: tuple[Technique, ...] = (
    Technique("full house", TRIVIAL, 1.0, full_houses),
    # Killer's cages (:mod:`.cages`): nothing to find in any other grid, and cheap to ask.
    Technique("last cell of a cage", TRIVIAL, 1.1, last_cage_cells),
    Technique("cage combination", INTERMEDIATE, 2.4, cage_combinations),
    Technique("rule of 45", INTERMEDIATE, 2.5, innies_outies),
    Technique("cage splitting", ADVANCED, 2.9, cage_splitting),
    Technique("innie/outie sum", ADVANCED, 3.1, innie_outie_sums),
    Technique("hidden single", TRIVIAL, 1.2, hidden_singles_in_boxes),
    Technique("hidden single", BASIC, 1.5, hidden_singles_in_lines),
    Technique("direct pointing", BASIC, 1.7, direct_pointing),
    Technique("direct claiming", BASIC, 1.9, direct_claiming),
    Technique("direct hidden pair", BASIC, 2.0, direct_hidden_subsets(2)),
    Technique("naked single", BASIC, 2.3, naked_singles),
    Technique("direct hidden triple", BASIC, 2.5, direct_hidden_subsets(3)),
    Technique("pointing", INTERMEDIATE, 2.6, pointing),
    Technique("box-line reduction", INTERMEDIATE, 2.8, box_line_reduction),
    Technique("naked pair", ADVANCED, 3.0, naked_subsets(2)),
    Technique("hidden pair", ADVANCED, 3.4, hidden_subsets(2)),
    Technique("naked triple", ADVANCED, 3.6, naked_subsets(3)),
    Technique("hidden triple", ADVANCED, 4.0, hidden_subsets(3)),
    Technique("naked quad", ADVANCED, 5.0, naked_subsets(4)),
    Technique("hidden quad", ADVANCED, 5.4, hidden_subsets(4)),
    Technique("X-wing", EXTREME, 3.2, fish(2)),
    Technique("swordfish", EXTREME, 3.8, fish(3)),
    Technique("XY-wing", EXTREME, 4.2, xy_wings),
    Technique("XYZ-wing", EXTREME, 4.4, xyz_wings),
    Technique("jellyfish", EXTREME, 5.2, fish(4)),
    Technique("finned X-wing", EXTREME, 3.4, finned_fish(2, sashimi=False), explainer=False),
    Technique("sashimi X-wing", EXTREME, 3.5, finned_fish(2, sashimi=True), explainer=False),
    Technique("finned swordfish", EXTREME, 4.0, finned_fish(3, sashimi=False), explainer=False),
    Technique("sashimi swordfish", EXTREME, 4.1, finned_fish(3, sashimi=True), explainer=False),
    Technique("finned jellyfish", EXTREME, 5.4, finned_fish(4, sashimi=False), explainer=False),
    Technique("sashimi jellyfish", EXTREME, 5.5, finned_fish(4, sashimi=True), explainer=False),
    Technique("unique rectangle type 1", EXTREME, 4.5, unique_rectangles_type_1, uniqueness=True),
    Technique("unique rectangle type 2", EXTREME, 4.5, unique_rectangles_type_2, uniqueness=True),
    Technique("unique rectangle type 3", EXTREME, 4.6, unique_rectangles_type_3, uniqueness=True),
    Technique("unique rectangle type 4", EXTREME, 4.5, unique_rectangles_type_4, uniqueness=True),
    Technique("hidden unique rectangle", EXTREME, 4.8, hidden_unique_rectangles, uniqueness=True, explainer=False),
    Technique("unique loop", EXTREME, 4.6, unique_loops, uniqueness=True),
    Technique("BUG+1", EXTREME, 5.6, bug_plus_one, uniqueness=True),
    Technique("BUG type 2", EXTREME, 5.7, bug_type(2), uniqueness=True),
    Technique("BUG type 4", EXTREME, 5.7, bug_type(4), uniqueness=True),
    Technique("BUG type 3", EXTREME, 5.8, bug_type(3), uniqueness=True),
    Technique("grouped turbot fish", EXTREME, 4.3, strong_link_fish(2, grouped_only=True)),
    Technique("X-chain", FIENDISH, 5.4, strong_link_fish(3)),
    Technique("X-chain", FIENDISH, 5.8, strong_link_fish(4)),
    Technique("X-cycle", FIENDISH, 6.5, x_cycles),
    Technique("XY-cycle", FIENDISH, 6.5, xy_cycles),
    Technique("skyscraper", EXTREME, 4.0, skyscrapers),
    Technique("2-string kite", EXTREME, 4.1, two_string_kites),
    Technique("turbot fish", EXTREME, 4.2, turbot_fish),
    Technique("empty rectangle", EXTREME, 4.3, empty_rectangles),
    Technique("simple colouring", FIENDISH, 6.6, simple_colouring, explainer=False),
    Technique("remote pairs", FIENDISH, 6.6, remote_pairs, explainer=False),
    Technique("X-chain", FIENDISH, 6.6, x_chains),
    Technique("W-wing", FIENDISH, 6.8, w_wings, explainer=False),
    Technique("multi-colouring", FIENDISH, 6.8, multi_colouring, explainer=False),
    Technique("XY-chain", FIENDISH, 7.0, xy_chains),
    Technique("AIC", FIENDISH, 7.0, aics, explainer=False),
    Technique("AIC", FIENDISH, 7.0, plain_aics, hints=False),
    Technique("sue de coq", FIENDISH, 7.0, sue_de_coq, explainer=False),
    Technique("WXYZ-wing", EXTREME, 5.5, bent_wing(3)),
    Technique("VWXYZ-wing", FIENDISH, 6.2, bent_wing(4)),
    Technique("UVWXYZ-wing", FIENDISH, 6.6, bent_wing(5), explainer=False),
    Technique("ALS-XZ", FIENDISH, 7.0, als_xz, explainer=False),
    Technique("ALS-XY-wing", FIENDISH, 7.2, als_xy_wings, explainer=False),
    Technique("ALS chain", FIENDISH, 7.4, als_chains, explainer=False),
    Technique("death blossom", FIENDISH, 7.4, death_blossoms, explainer=False),
    *(Technique(f"{'finned ' if finned else ''}{kind} {FISH_NAMES[size]}", EXTREME if kind == FRANKEN and size < 4
                else FIENDISH, fish_rating(kind, size, finned), complex_fish(kind, size, finned), explainer=False,
                hints=kind == FRANKEN and size == 2 or compiled_search())
      for kind in (FRANKEN, MUTANT) for size in (2, 3, 4) for finned in (False, True)),
    Technique("kraken fish", DIABOLICAL, 7.5, kraken_fish, explainer=False),
    Technique("aligned pair exclusion", FIENDISH, 6.2, aligned_exclusion(2)),
    Technique("aligned triplet exclusion", DIABOLICAL, 7.5, aligned_exclusion(3)),
    Technique("nishio forcing chain", NIGHTMARE, 7.5, nishio_forcing_chains),
    # Sudoku Explainer has no static double implication, but the grade's level keeps it: the
    # shipped diabolical collection was graded with it.
    Technique("digit forcing chain", DIABOLICAL, 7.5, digit_forcing_chains, explainer=False, levels=True),
    # the hints and the grade's level from every cell; the rating from cells of 3+ candidates
    Technique("cell forcing chain", DIABOLICAL, 8.0, cell_forcing_chains, explainer=False, levels=True),
    Technique("unit forcing chain", DIABOLICAL, 8.0, unit_forcing_chains, explainer=False, levels=True),
    Technique("cell forcing chain", DIABOLICAL, 8.0, explainer_cell_forcing_chains, hints=False),
    Technique("unit forcing chain", DIABOLICAL, 8.0, explainer_unit_forcing_chains, hints=False),
    Technique("dynamic forcing chain", NIGHTMARE, 8.5, dynamic_forcing_chains),
    Technique("dynamic forcing chain (+)", NIGHTMARE, 9.0, dynamic_forcing_chains_plus),
    # the hints: level 4 at once (quick); the grade: SE's levels 2, 3, 4 in turn (seconds a step)
    Technique("nested forcing net", NIGHTMARE, 9.5, nested_forcing_nets, explainer=False),
    Technique("nested forcing net", NIGHTMARE, 9.5, explainer_nested_forcing_nets, hints=False),
)

#: Every technique, easiest first: by rating, as Sudoku Explainer orders its producers, whatever
#: the level (a naked quad, 5.0, comes after an XY-wing, 4.2); a stable sort keeps the listed
#: order between equal ratings.
TECHNIQUES: tuple[Technique, ...] = tuple(sorted(_ALL, key=lambda t: t.rating))

#: Sukaku Explainer's producers, in the order it asks them (its ``Solver``): the first producer
#: with a hint gives the step, whatever a later one would rate (a 5.7 three-strong-link fish is
#: taken before a 5.5 WXYZ-wing, a unique loop before a naked quad). Within a producer, the
#: lowest rating. By the finders' names; the grade's stepper follows this order.
EXPLAINER_PRODUCERS: tuple[tuple[str, ...], ...] = (
    ("full_houses", "last_cage_cells", "hidden_singles_in_boxes", "hidden_singles_in_lines"),
    ("direct_pointing", "direct_claiming"),
    ("direct_hidden_pairs",),
    ("naked_singles",),
    ("direct_hidden_triples",),
    ("cage_combinations", "innies_outies"),
    ("pointing", "box_line_reduction"),
    ("cage_splitting",), ("innie_outie_sums",),
    ("naked_pairs",), ("x_wing",), ("hidden_pairs",), ("naked_triples",), ("swordfish",), ("hidden_triples",),
    ("skyscraper", "2_string_kite", "turbot_fish", "strong_link_fish_2_grouped", "empty_rectangles"),
    ("xy_wings",), ("xyz_wings",),
    ("unique_rectangles_type_1", "unique_rectangles_type_2", "unique_rectangles_type_3", "unique_rectangles_type_4",
     "unique_loops"),
    ("naked_quads",), ("jellyfish",), ("hidden_quads",),
    ("strong_link_fish_3",), ("wxyz_wings",),
    ("bug_plus_one", "bug_type_2", "bug_type_3", "bug_type_4"),
    ("strong_link_fish_4",), ("vwxyz_wings",), ("aligned_pair_exclusion",),
    ("x_cycles", "xy_cycles", "x_chains", "xy_chains", "plain_aics"),
    ("aligned_triplet_exclusion",), ("nishio_forcing_chains",),
    ("explainer_cell_forcing_chains", "explainer_unit_forcing_chains"),
    ("dynamic_forcing_chains",), ("dynamic_forcing_chains_plus",), ("explainer_nested_forcing_nets",),
)

#: The rank of each technique name (its first entry in TECHNIQUES): "hardest technique" ties
#: go to the later one.
TECHNIQUE_RANK = {t.name: i for i, t in reversed(list(enumerate(TECHNIQUES)))}
