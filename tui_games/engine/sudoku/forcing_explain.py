"""What a forcing net proves, and how a step says it: the conclusions read from propagations
(contradictions, double implications, cell and unit verities: :class:`_Hint`), and each made a
:class:`~.techniques.Step` with its words, its chain in Eureka notation and its rating
(:func:`_step`; the nodes a conclusion rests on: :func:`_size`). :mod:`.forcing` has the
techniques, :mod:`.forcing_net` the propagations.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from tui_games.engine.sudoku.forcing_net import (
    _NEST_DFC,
    _NEST_FC,
    _NEST_MFC,
    _NEST_SE,
    NESTED,
    _Net,
    _Prop,
    _size,
)
from tui_games.engine.sudoku.grid import bit_indexes, cell_name, digit_char
from tui_games.engine.sudoku.levels import NIGHTMARE
from tui_games.engine.sudoku.techniques import Link, Step, length_rating


def _path(prop: _Prop, node: int, index: dict[int, int]) -> list[int]:
    """The main line from the assumption to ``node``: at each node, the parent implied last
    (the one that triggered it)."""
    path = [node]
    par = prop.par
    while True:
        p = par.get(node)
        if isinstance(p, tuple):
            if not p:
                break
            node = max(p, key=lambda q: index.get(q, -1))
        elif p is None or p < 0:
            break
        else:
            node = p
        if node in path:
            break
        path.append(node)
    path.reverse()
    return path


class _Reader:
    """Names nodes and writes chains for one position."""

    def __init__(self, net: _Net) -> None:
        self.n = net.n

    def cd(self, node: int) -> tuple[int, int]:
        c, d = divmod(node >> 1, self.n)
        return c, d + 1

    def said(self, node: int, would: bool = True) -> str:
        """``r1c2 would be 4`` / ``r1c2 would not be 4`` (``is`` when not ``would``)."""
        c, d = self.cd(node)
        verb = "would be" if would else "is"
        if not node & 1:
            verb = "would not be" if would else "is not"
        return f"{cell_name(c, self.n)} {verb} {digit_char(d)}"

    def eureka(self, path: Sequence[int]) -> str:
        """``(4)r1c2-(4=6)r1c7-(6)r5c7``: "-" into an off node (weak link), "=" from an off
        node into an on one (strong); an off node followed by an on one in the same cell is
        written ``(a=b)cell``. A chain from an "off" assumption starts with "=" (Eureka's way:
        ``(4)r1c2=...`` reads "if r1c2 is not 4, ...")."""
        out: list[str] = []
        k = 0
        while k < len(path):
            node = path[k]
            c, d = self.cd(node)
            link = "" if not k else "=" if node & 1 and not path[k - 1] & 1 else "-"
            nxt = path[k + 1] if k + 1 < len(path) else -1
            if not node & 1 and nxt >= 0 and nxt & 1 and self.cd(nxt)[0] == c:
                out.append(f"{link}({digit_char(d)}={digit_char(self.cd(nxt)[1])}){cell_name(c, self.n)}")
                k += 2
            else:
                out.append(f"{link}({digit_char(d)}){cell_name(c, self.n)}")
                k += 1
        return "".join(out)

    def links(self, path: Sequence[int]) -> list[Link]:
        out = []
        for a, b in zip(path, path[1:]):
            ca, da = self.cd(a)
            cb, db = self.cd(b)
            out.append(Link((ca,), da, (cb,), db, bool(b & 1 and not a & 1)))
        return out

    def story(self, paths: Sequence[Sequence[int]], named: set[int], limit: int = 3) -> str:
        """``r1c7 would be 6, r5c7 would be 3 and ``: the "on" nodes of the main lines after
        the assumption, but for the cells the conclusion names (first and last when long)."""
        ons = list(dict.fromkeys(node for path in paths for node in path[1:]
                                 if node & 1 and self.cd(node)[0] not in named))
        if not ons:
            return ""
        if len(ons) <= limit:
            return _join([self.said(x) for x in ons]) + "; then "
        return f"{self.said(ons[0])}, ..., {self.said(ons[-1])}; then "

    def conflict(self, prop: _Prop) -> tuple[str, set[int]]:
        """Why the net fails (``r5c5 would be both 3 and 7``) and the cells that names."""
        off = prop.conflict
        c, d = self.cd(off)
        name = cell_name(c, self.n)
        p = prop.par.get(off)
        if isinstance(p, int) and p >= 0:
            pc, pd = self.cd(p)
            if pc == c:
                return f"{name} would be both {digit_char(pd)} and {digit_char(d)}", {c}
            return f"{name} and {cell_name(pc, self.n)} would both be {digit_char(d)}", {c, pc}
        return f"{name} would have to be {digit_char(d)} and could not be", {c}


def _join(words: Sequence[str], last: str = "and") -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"




class _Hint:
    """A conclusion found, before it becomes a Step: sorted by size."""

    __slots__ = ("branches", "kind", "size", "target")

    def __init__(self, kind: str, target: int, branches: list[tuple[_Prop, list[int]]], size: int) -> None:
        self.kind, self.target, self.branches, self.size = kind, target, branches, size


def _contradictions(props: dict[int, _Prop]) -> list[_Hint]:
    out = []
    for root, prop in props.items():
        if prop.conflict >= 0:
            ends = [prop.conflict, prop.conflict | 1]
            out.append(_Hint("contradiction", root ^ 1, [(prop, ends)], _size(prop, ends)))
    return out


def _common(net: _Net, props: Sequence[_Prop], skip_cells: set[int], partial: bool = False) -> _Hint | None:
    """The node every branch implies (the smallest net), or None. ``partial``: a branch that
    ends in a contradiction counts with the nodes it implied before it (Sudoku Explainer's
    rule: such a branch is impossible, so it implies anything; SE keeps what its chain had
    reached when the contradiction stopped it)."""
    if all(p.conflict >= 0 for p in props) or (not partial and any(p.conflict >= 0 for p in props)):
        return None
    common = props[0].nodes
    for p in props[1:]:
        common = common & p.nodes
        if not common:
            return None
    indexes = [p.index for p in props]
    n = net.n
    best, best_score = -1, None
    for node in common:
        if (node >> 1) // n in skip_cells:
            continue
        score = sum(ix[node] for ix in indexes)
        if best_score is None or score < best_score:
            best, best_score = node, score
    if best < 0:
        return None
    size = sum(_size(p, (best,)) for p in props)
    return _Hint("verity", best, [(p, [best]) for p in props], size)


def _double(net: _Net, props: dict[int, _Prop]) -> list[_Hint]:
    out = []
    for i in net.candidates:
        on, off = props.get((i << 1) | 1), props.get(i << 1)
        if on is None or off is None:
            continue
        hint = _common(net, (on, off), set())
        if hint is not None:
            hint.kind = "double"
            out.append(hint)
    return out


def _cells(net: _Net, props: dict[int, _Prop], least: int = 2, partial: bool = False) -> list[_Hint]:
    """Cell forcing chains from the cells with ``least`` candidates or more (``partial``: see
    :func:`_common`)."""
    out = []
    n = net.n
    for c, m in enumerate(net.masks):
        if m.bit_count() < least:
            continue
        hint = _common(net, [props[((c * n + d) << 1) | 1] for d in net.bits[m]], {c}, partial)
        if hint is not None:
            hint.kind = "cell"
            out.append(hint)
    return out


def _units(net: _Net, props: dict[int, _Prop], least: int = 2, partial: bool = False) -> list[_Hint]:
    """Unit forcing chains; ``least``: the first place's cell has that many candidates or more
    (``partial``: see :func:`_common`)."""
    out = []
    n = net.n
    for u, unit in enumerate(net.units):
        for d in range(n):
            pl = net.places[u * n + d]
            if pl.bit_count() < 2:
                continue
            cells = [unit[j] for j in net.bits[pl]]
            if net.masks[cells[0]].bit_count() < least:
                continue
            hint = _common(net, [props[((c * n + d) << 1) | 1] for c in cells], set(), partial)
            if hint is not None:
                hint.kind = f"unit {u}"
                out.append(hint)
    return out


def _step(net: _Net, hint: _Hint, technique: str, level: str, base: float, note: str = "") -> Step:
    reader = _Reader(net)
    n = net.n
    target = hint.target
    c, d = reader.cd(target)
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    if target & 1:
        placements = ((c, d),)
    else:
        eliminations = ((c, d),)
    conclusion = reader.said(target, would=False)
    lines: list[str] = []
    links: list[Link] = []
    cells: list[int] = []
    digits: set[int] = {d}
    branch_paths = []
    for prop, ends in hint.branches:
        paths = [_path(prop, e, prop.index) for e in ends]
        branch_paths.append(paths)
        for path in paths:
            links.extend(reader.links(path))
            lines.append(reader.eureka(path))
            for node in path:
                pc, pd = reader.cd(node)
                if pc not in cells:
                    cells.append(pc)
                digits.add(pd)
    root = branch_paths[0][0][0]
    rc, rd = reader.cd(root)
    if hint.kind == "contradiction":
        why, named = reader.conflict(hint.branches[0][0])
        story = reader.story(branch_paths[0], named)
        assumption = f"{cell_name(rc, n)} were {'' if root & 1 else 'not '}{digit_char(rd)}"
        explanation = f"If {assumption}, {story}{why}, so {conclusion}."
        weights = hint.branches[0][0].weights
        inner = list(dict.fromkeys(x for path in branch_paths[0] for x in path if x in weights))
        if inner and note:
            said = [reader.said(x, would=False) for x in inner[:2]] + (["others"] if len(inner) > 2 else [])
            one, several = _NESTED_WHY.get(note, _NESTED_WHY[NESTED_NOTES[_NEST_DFC]])
            note = f" Inside the net, {_join(said)}, since {one if len(inner) == 1 else several}."
    else:
        if hint.kind == "cell":
            cases = f"Whatever {cell_name(rc, n)} holds ({_digits_or(net.masks[rc])}), every case leads"
        elif hint.kind.startswith("unit"):
            u = int(hint.kind.split()[1])
            places = [p[0][0] for p in branch_paths]
            where = _join([cell_name(reader.cd(x)[0], n) for x in places], "or")
            cases = f"Wherever {digit_char(rd)} goes in {net.geo.unit_names[u]} ({where}), every case leads"
        else:
            cases = f"Whether {cell_name(rc, n)} is {digit_char(rd)} or not, both cases lead"
        being = f"{cell_name(c, n)} {'being' if target & 1 else 'not being'} {digit_char(d)}"
        explanation = f"{cases} to {being} (see the chains), so {conclusion}."
    rating = round(base + length_rating(max(0, hint.size - 2)), 1)  # as Sudoku Explainer counts
    return Step(technique, level, tuple(cells), tuple(sorted(digits)), explanation + note, placements=placements,
                eliminations=eliminations, rating=rating, links=tuple(dict.fromkeys(links)),
                chain=tuple(dict.fromkeys(lines)))


def _digits_or(mask: int) -> str:
    return _join([digit_char(d + 1) for d in bit_indexes(mask)], "or")


def _sorted_steps(net: _Net, hints: list[_Hint], technique: str, level: str, base: float,
                  note: str = "") -> Iterator[Step]:
    hints.sort(key=lambda h: h.size)
    seen = set()
    for hint in hints:
        if hint.target in seen:
            continue
        seen.add(hint.target)
        yield _step(net, hint, technique, level, base, note)


PLUS_NOTE = " Inside the net, pointing, box-line reductions and pairs remove candidates too."
NESTED_NOTES = {
    _NEST_FC: " Inside the net, every candidate that a forcing chain removes is removed too.",
    _NEST_MFC: (" Inside the net, every candidate that forcing chains rule out (its own chain, or every case of"
                " a cell or of a digit's places in a unit) is removed too."),
    _NEST_DFC: " Inside the net, every candidate whose own net (+) ends in a contradiction is removed too.",
    _NEST_SE: (" Inside the net, every candidate that dynamic forcing chains rule out (its own net, or every case"
               " of a candidate, a cell or a digit's places in a unit) is removed too."),
}
#: How a step names the inner chains behind the candidates its net removed (one, several).
_NESTED_WHY = {
    NESTED_NOTES[_NEST_FC]: ("a forcing chain would remove it", "forcing chains would remove them"),
    NESTED_NOTES[_NEST_MFC]: ("forcing chains rule it out", "forcing chains rule them out"),
    NESTED_NOTES[_NEST_DFC]: ("its own (+) net would end in a contradiction",
                              "their own (+) nets would end in a contradiction"),
    NESTED_NOTES[_NEST_SE]: ("dynamic forcing chains rule it out", "dynamic forcing chains rule them out"),
}


def _tree_step(net: _Net, i: int, depth: int) -> Step:
    c, d = divmod(i, net.n)
    name, digit = cell_name(c, net.n), digit_char(d + 1)
    level = 1 + depth
    text = (f"If {name} were {digit}, every way to go on would end in a contradiction: branching on the "
            f"candidates of one cell after another, {depth} levels deep, every branch's net (+) fails. So "
            f"{name} is not {digit}.")
    return Step("nested forcing net", NIGHTMARE, (c,), (d + 1,), text, eliminations=((c, d + 1),),
                rating=round(NESTED + 0.5 * (level - 1), 1), chain=(f"({digit}){name}: {depth} levels of branching",))
