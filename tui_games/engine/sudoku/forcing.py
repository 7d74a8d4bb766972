"""Forcing chains, dynamic forcing chains and nested forcing nets: the techniques of last resort.

Every one of them assumes something about a candidate ("r1c2 is 4", or "r1c2 is not 4") and
follows what it implies, node by node. A node is a candidate switched *on* (the cell holds
that digit) or *off* (it does not). "A on => B off" is a weak link (``-`` in Eureka
notation), "A off => B on" a strong one (``=``). What the assumptions prove:

- a **contradiction** -- the same candidate ends up both on and off -- proves the assumption
  false (an "on" assumption: the candidate goes; an "off" one: it is placed);
- a **verity** -- the same node reached from every case of something that must hold -- proves
  the node: both "x on" and "x off" (double implication), every candidate of a cell (cell
  forcing chain), every place of a digit in a unit (unit forcing chain).

Four strengths of propagation, as in Sudoku Explainer:

- *static* forcing chains follow only the strong links of the position itself (bivalue cells,
  digits with two places in a unit): a chain of singles where no candidate removed by the
  chain itself counts (digit forcing chain 7.5, cell and unit forcing chains 8.2);
- *dynamic* forcing chains play the singles out in a copy of the position, so a cell whose
  other candidates the chain removed becomes a naked single, a unit likewise a hidden single
  (8.5); each node remembers every node it came from, so what the rating counts is the net;
- *dynamic (+)* also applies pointing and box-line reduction, failing those hidden pairs,
  failing those naked pairs inside the net, once the singles run out, as SE does (9.0);
- *nested* forcing nets also remove, inside the net, the candidates an inner chain refutes,
  Sudoku Explainer's nesting levels (8.5 + 0.5 a level, :func:`explainer_level`): level 2
  (9.5) the candidates static forcing chains remove (a chain from "on" that removes its
  candidate, or from "off" that places it), all at once, each on its smallest chain, as SE
  adds every hint of its inner rule; level 3 (10.0) those first, failing them the candidates
  static cell and unit forcing chains remove (a level-3 net goes on from its level-2 net,
  counting the chains that one rests on); level 4 (10.5), a net of its own from the (+) net:
  for the grade, as SE's, every candidate plain dynamic forcing chains of every kind remove
  (contradictions, double implications, cell and unit verities), all at once, failing those
  the first whose own (+) net ends in a contradiction; for the hints, that last rule alone.
  The grade tries the levels in that order, as SE does, every false candidate at each; the hints go to
  level 4 at once and take the smallest of its first few refutations (quicker, and it
  refutes a false candidate of every puzzle in the shared sets, the forum's hardest included);
  should it not, a tree of (+) nets branching on one cell's candidates after another does
  (rated by the tree's depth). A false candidate always fails that way, since the tree is an
  exhaustive search, so on a puzzle with one solution the nested nets always find a step.
  They look only on positions with one solution (a quick search says so) and only at the
  candidates it rules out.

The rating is the base rating plus :func:`~.techniques.length_rating` of the number of nodes
the conclusion rests on (summed over the branches of a verity; a nested net adds each inner
chain's own nodes once, as SE adds each nested chain once), and the finders yield the
smallest nets first (the hints' nested nets: the smallest of the first few found). Each search is
computed once per position and shared by the finders (the stepper tries them one after the
other on the same position).

The module is in three parts: :mod:`.forcing_net` the net (the position's nodes and links,
the propagations and what inner chains remove inside them, the searches shared by the
finders), :mod:`.forcing_explain` what a net proves and how a step says it, and this one the
techniques themselves, the finders the catalogue lists.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from tui_games.engine.sudoku.forcing_explain import (
    NESTED_NOTES,
    PLUS_NOTE,
    _cells,
    _contradictions,
    _double,
    _Hint,
    _sorted_steps,
    _tree_step,
    _units,
)
from tui_games.engine.sudoku.forcing_net import (
    _NEST_DFC,
    _NEST_FC,
    _NEST_MFC,
    _NEST_SE,
    _PLUS,
    _SINGLES,
    DYNAMIC,
    DYNAMIC_PLUS,
    STATIC_DIGIT,
    STATIC_LEAST,
    STATIC_REGION,
    _analysis,
    _nishio,
    _refute,
    _size,
    _stronger,
    _unsolvable,
    explainer_level,
)
from tui_games.engine.sudoku.levels import DIABOLICAL, NIGHTMARE
from tui_games.engine.sudoku.techniques import State, Step

__all__ = [
    "cell_forcing_chains", "digit_forcing_chains", "dynamic_forcing_chains", "dynamic_forcing_chains_plus",
    "explainer_cell_forcing_chains", "explainer_nested_forcing_nets", "explainer_unit_forcing_chains",
    "nested_forcing_nets", "nishio_forcing_chains", "unit_forcing_chains",
]


def nishio_forcing_chains(state: State) -> Iterator[Step]:
    """Sudoku Explainer's nishio forcing chains (7.5+): a candidate assumed true, followed on
    its digit alone with the hidden singles played out, ends in a contradiction: it is false."""
    if _unsolvable(state):
        return
    a = _analysis(state)
    net = a.net
    props = {}
    for k, i in enumerate(net.candidates):
        if not k & 31:
            state.check_stop()
        props[(i << 1) | 1] = _nishio(net, (i << 1) | 1)
    # rated as Sudoku Explainer rates it, but a dynamic chain: the nightmare level's, as the
    # dynamic forcing chains (the grade's level stays what the static chains decide)
    yield from _sorted_steps(net, _contradictions(props), "nishio forcing chain", NIGHTMARE, STATIC_DIGIT)


def digit_forcing_chains(state: State) -> Iterator[Step]:
    """Static chains from one candidate: on and off lead to the same node, or one of them to
    a contradiction (nishio)."""
    if _unsolvable(state):
        return
    a = _analysis(state)
    props = a.static_all(state)
    hints = _contradictions(props) + _double(a.net, props)
    yield from _sorted_steps(a.net, hints, "digit forcing chain", DIABOLICAL, STATIC_DIGIT)


def _static_cells(state: State, least: int) -> Iterator[Step]:
    if _unsolvable(state):
        return
    a = _analysis(state)
    props = a.static_all(state)
    yield from _sorted_steps(a.net, _cells(a.net, props, least), "cell forcing chain", DIABOLICAL, STATIC_REGION)


def _static_units(state: State, least: int) -> Iterator[Step]:
    if _unsolvable(state):
        return
    a = _analysis(state)
    props = a.static_all(state)
    yield from _sorted_steps(a.net, _units(a.net, props, least), "unit forcing chain", DIABOLICAL, STATIC_REGION)


def cell_forcing_chains(state: State) -> Iterator[Step]:
    """Static chains from every candidate of a cell reach the same node."""
    return _static_cells(state, 2)


def unit_forcing_chains(state: State) -> Iterator[Step]:
    """Static chains from every place of a digit in a unit reach the same node."""
    return _static_units(state, 2)


def explainer_cell_forcing_chains(state: State) -> Iterator[Step]:
    """:func:`cell_forcing_chains` from cells of 3+ candidates only, as Sudoku Explainer's."""
    return _static_cells(state, STATIC_LEAST)


def explainer_unit_forcing_chains(state: State) -> Iterator[Step]:
    """:func:`unit_forcing_chains` whose first place has 3+ candidates, as Sudoku Explainer's."""
    return _static_units(state, STATIC_LEAST)


def _dynamic_finder(state: State, level: int, technique: str, base: float) -> Iterator[Step]:
    if _unsolvable(state):
        return
    a = _analysis(state)
    props = a.dynamic_all(state, level)
    net = a.net
    hints = _contradictions(props) + _double(net, props) + _cells(net, props) + _units(net, props)
    yield from _sorted_steps(net, hints, technique, NIGHTMARE, base, PLUS_NOTE if level == _PLUS else "")


def dynamic_forcing_chains(state: State) -> Iterator[Step]:
    """Contradictions and verities (double implication, cell, unit) with the singles played
    out in the net."""
    return _dynamic_finder(state, _SINGLES, "dynamic forcing chain", DYNAMIC)


def dynamic_forcing_chains_plus(state: State) -> Iterator[Step]:
    """Dynamic forcing chains whose nets also use pointing, box-line reduction and pairs."""
    return _dynamic_finder(state, _PLUS, "dynamic forcing chain (+)", DYNAMIC_PLUS)


#: How many refutations the hints' nested nets of level 4 collect before giving the smallest (a
#: full scan of the board costs seconds there; the first few, found in the order below, are
#: within a few nodes of the smallest). The grade scans every false candidate at every level, as
#: Sudoku Explainer does, and gives the smallest: a tenth more or less decides the top of the scale.
NESTED_SAMPLE = 8


def nested_forcing_nets(state: State) -> Iterator[Step]:
    """The hints' nested nets: contradiction nets that also remove, inside them, the candidates
    whose own dynamic (+) net ends in a contradiction (Sudoku Explainer's level 4, 10.5), the
    strongest level and the quickest to find a step (of the first :data:`NESTED_SAMPLE`
    refutations, the smallest comes first). If none is found, a tree of (+) nets, branching on
    the candidates of a cell at each level, all ending in contradictions (nested nets at the
    tree's depth: a false candidate always has one). Only on a position with one solution
    (found by a quick search) and only for the candidates that solution rules out, since no
    other can be refuted; tried first: the candidates whose (+) nets reach furthest."""
    return _nested_finder(state, (_NEST_DFC,))


def explainer_nested_forcing_nets(state: State) -> Iterator[Step]:
    """The grade's nested nets, in Sudoku Explainer's order of nesting levels (the first level
    with a step wins): static forcing chains inside the net (level 2, 9.5), static multiple
    forcing chains (level 3, 10.0), dynamic forcing chains of every kind, all at once (level 4,
    10.5, a net of its own from the (+) net, with no static chain inside; failing those, the
    first candidate whose (+) net fails); at every level every false candidate is tried and
    the smallest net comes first, as SE takes its easiest hint (a
    tenth more or less decides the top of the scale). Slower than :func:`nested_forcing_nets`
    (seconds a step on the forum's hardest), so the hints keep that one."""
    return _nested_finder(state, (_NEST_FC, _NEST_MFC, _NEST_SE), sample=False)


def _nested_finder(state: State, levels: Sequence[int], sample: bool = True) -> Iterator[Step]:
    if _unsolvable(state):
        return
    a = _analysis(state)
    net = a.net
    n = net.n
    solution = a.solution(state)
    if solution is None:
        return  # several solutions or none: the nets would search in vain
    plus = a.dynamic_all(state, _PLUS)  # computed already when the stepper tried dynamic (+)
    false = sorted((i for i in net.candidates if solution[i // n] != i % n + 1),
                   key=lambda i: -len(plus[(i << 1) | 1].order))
    weaker = {i: plus[(i << 1) | 1] for i in net.candidates}
    for level in levels:
        hints: list[_Hint] = []
        for i in false:
            state.check_stop()
            # SE's level 4 is a net of its own, whose inner rules are dynamic chains alone (its
            # static chains' removals are not in it): it starts from the (+) net, levels 2 and 3
            # go on from the level below
            base = plus[(i << 1) | 1] if level >= _NEST_DFC else weaker[i]
            prop = weaker[i] = _stronger(net, base, level, state)
            if prop.conflict >= 0:
                ends = [prop.conflict, prop.conflict | 1]
                hints.append(_Hint("contradiction", i << 1, [(prop, ends)], _size(prop, ends)))
                if sample and len(hints) == NESTED_SAMPLE and level == _NEST_DFC:
                    break
        if level < _NEST_DFC:  # SE's nets of levels 2 and 3 also give cell and unit verities
            for i in net.candidates:
                if solution[i // n] == i % n + 1:
                    state.check_stop()
                    weaker[i] = _stronger(net, weaker[i], level, state)
            props = {(i << 1) | 1: prop for i, prop in weaker.items()}
            hints += _cells(net, props, partial=True) + _units(net, props, partial=True)
        if hints:
            yield from _sorted_steps(net, hints, "nested forcing net", NIGHTMARE, explainer_level(min(level, 4)),
                                     NESTED_NOTES[level])
            return
    for i in false:
        depth = _refute(net, plus[(i << 1) | 1], state)
        if depth is not None:
            yield _tree_step(net, i, depth)
            return
