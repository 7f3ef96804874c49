"""Production lines: metrics (§2.1), the laying and colour rules (§4.6) and production-card points (§4.9 step 6).

A line is immutable; laying a card returns a new line. Positions are read
left to right (p1…pk); each keeps its effective stage (a joker's chosen stage,
R20) and the upgrade stacked on it, if any (R23).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from greenlight.games.movie_empire.actions import LEFT, RIGHT, Lay, Stack, Star
from greenlight.games.movie_empire.cards import (
    R_EACH,
    R_GENRE,
    R_HAS,
    R_N_GE,
    R_N_ZERO,
    R_PERIOD_GE,
    R_PERIOD_LE,
    R_SCRIPT_MET,
    R_STARS_GE,
    R_STARS_ZERO,
    STAGE_INDEX,
    STAGE_WORDS,
    STAGES,
    ProductionCard,
    Requirement,
    Tables,
)


@dataclass(frozen=True, slots=True)
class Line:
    """One production line: a script, positions with effective stages, stacked upgrades and stars.

    ``shut`` marks a shut-down line (§4.7); ``locked`` a line designated by a
    release this round (locked until Upkeep, R32).
    """

    script: str
    cards: tuple[str, ...] = ()
    stages: tuple[int, ...] = ()
    stacked: tuple[str | None, ...] = ()
    stars: tuple[str, ...] = ()
    shut: bool = False
    locked: bool = False

    @property
    def period(self) -> int:
        """The number of positions (§2.1): script, stars and stacked upgrades never count."""
        return len(self.cards)

    def counts(self) -> list[int]:
        """n(G), n(B), n(Y), n(R) by effective stage."""
        counts = [0, 0, 0, 0]
        for stage in self.stages:
            counts[stage] += 1
        return counts

    def all_cards(self) -> list[str]:
        """Every production card in the line, stacked upgrades included (for cleanup)."""
        return [*self.cards, *(card for card in self.stacked if card is not None)]


@dataclass(frozen=True, slots=True)
class Metrics:
    """The metrics of §2.1 for one line."""

    genre: str
    period: int
    counts: tuple[int, int, int, int]
    stars: int
    names: frozenset[str]
    script_met: bool


def metrics(table: Tables, line: Line) -> Metrics:
    """Compute genre, period, n(s), stars, has() names and script_met for ``line``."""
    script = table.scripts[line.script]
    counts = line.counts()
    production = table.production
    names = frozenset([name for card in line.cards if (name := production[card].has_name) is not None])
    needs = script.needs
    met = counts[0] >= needs[0] and counts[1] >= needs[1] and counts[2] >= needs[2] and counts[3] >= needs[3]
    return Metrics(script.genre, len(line.cards), (counts[0], counts[1], counts[2], counts[3]), len(line.stars), names, met)


def holds(requirement: Requirement, m: Metrics) -> bool:
    """Whether every clause of ``requirement`` holds for metrics ``m`` (§2.1)."""
    for op, a, b in requirement:
        if op == R_GENRE:
            ok = m.genre == a
        elif op == R_PERIOD_GE:
            ok = m.period >= a
        elif op == R_PERIOD_LE:
            ok = m.period <= a
        elif op == R_N_GE:
            ok = m.counts[a] >= b
        elif op == R_N_ZERO:
            ok = m.counts[a] == 0
        elif op == R_EACH:
            ok = min(m.counts) >= 1
        elif op == R_STARS_GE:
            ok = m.stars >= a
        elif op == R_STARS_ZERO:
            ok = m.stars == 0
        elif op == R_HAS:
            ok = a in m.names
        else:
            assert op == R_SCRIPT_MET
            ok = m.script_met
        if not ok:
            return False
    return True


def production_pp(table: Tables, line: Line) -> int:
    """§4.9 step 6: base cards their PP, stacked upgrades their PP, a standalone upgrade 1, a joker 0."""
    total = 0
    production = table.production
    for card_id, upgrade in zip(line.cards, line.stacked, strict=True):
        card = production[card_id]
        if card.kind == "base":
            total += card.pp
        elif card.kind == "upgrade":
            total += 1
        if upgrade is not None:
            total += production[upgrade].pp
    return total


def carries(table: Tables, line: Line, name: str) -> bool:
    """Whether some position carries ``name`` for the duplicate rule (R22, R25)."""
    production = table.production
    return any(production[card].carried_name == name for card in line.cards)


def allowed_stages(line: Line, end: str) -> tuple[int, ...]:
    """The colour rule (§4.6.3): {s_right, s_right+1} at the right end, {s_left-1, s_left} at the left end."""
    if not line.cards:
        return (0, 1, 2, 3)
    if end == RIGHT:
        last = line.stages[-1]
        return (last,) if last == 3 else (last, last + 1)
    first = line.stages[0]
    return (first,) if first == 0 else (first - 1, first)


class _CardLays:
    """What ``lay_actions`` needs of one production card, with its actions made once."""

    __slots__ = ("carried", "joker", "joker_left", "joker_right", "left", "right", "stack", "stage", "upgrade_of")

    def __init__(self, card: ProductionCard) -> None:
        self.carried = card.carried_name
        self.joker = card.kind == "joker"
        self.stage = card.stage
        self.upgrade_of = card.upgrade_of
        self.left, self.right, self.stack = Lay(card.id, LEFT), Lay(card.id, RIGHT), Stack(card.id)
        #: A joker's lays at each end, by the stage it takes.
        self.joker_left = tuple(Lay(card.id, LEFT, stage) for stage in STAGES)
        self.joker_right = tuple(Lay(card.id, RIGHT, stage) for stage in STAGES)


@cache
def _lay_tables(table: Tables) -> tuple[dict[str, _CardLays], dict[str, tuple[frozenset[str], Star]]]:
    """Production cards and stars (banned genres, action) of ``table`` by id, read once per table."""
    cards = {card.id: _CardLays(card) for card in table.production.values()}
    stars = {star.id: (star.banned, Star(star.id)) for star in table.stars.values()}
    return cards, stars


#: ``allowed_stages`` at the right end by the stage of the rightmost position, at the left end by the leftmost's.
_RIGHT_ALLOWED = tuple((last,) if last == 3 else (last, last + 1) for last in range(4))
_LEFT_ALLOWED = tuple((first,) if first == 0 else (first - 1, first) for first in range(4))


def lay_actions(table: Tables, line: Line, hand: Iterable[str], *, first_only: bool = False) -> list[Lay | Stack | Star]:
    """Every legal single lay of a hand card into ``line`` (§4.6 points 3-6), without duplicates.

    ``line`` must be open and unlocked (the caller checks, R26). A line with no
    position yet (a new line after its script) takes one production card of any
    stage as p1 (R17, R18); stars come after that card. ``first_only`` stops once
    some lay is found (to know whether there is one).
    """
    actions: list[Lay | Stack | Star] = []
    cards, stars = _lay_tables(table)
    positions = line.cards
    if not positions:
        for card_id in dict.fromkeys(hand):
            card = cards.get(card_id)
            if card is None:
                continue  # a star comes after the first production card; a script is no lay
            if card.joker:
                actions += card.joker_right  # R18: any stage
            else:
                actions.append(card.right)
            if first_only:
                break
        return actions
    genre = table.scripts[line.script].genre
    left_allowed, right_allowed = _LEFT_ALLOWED[line.stages[0]], _RIGHT_ALLOWED[line.stages[-1]]
    carried: set[str] | None = None
    for card_id in dict.fromkeys(hand):
        card = cards.get(card_id)
        if card is None:
            star = stars.get(card_id)
            if star is not None and genre not in star[0]:  # R21: only the genre ban is checked
                actions.append(star[1])
                if first_only:
                    break
            continue
        base = card.upgrade_of
        if base is not None and any(c == base and s is None for c, s in zip(positions, line.stacked, strict=True)):
            actions.append(card.stack)  # no colour check, no new position (§4.6.4)
            if first_only:
                break
            continue
        if carried is None:
            carried = set()
            for position in positions:  # a loop, not a comprehension: a line holds a handful of positions
                carried.add(cards[position].carried)
        if card.carried in carried:
            continue  # name rule (R22, R25)
        if card.joker:  # R19
            actions += [card.joker_left[stage] for stage in left_allowed]
            actions += [card.joker_right[stage] for stage in right_allowed]
        else:
            if card.stage in left_allowed:
                actions.append(card.left)
            if card.stage in right_allowed:
                actions.append(card.right)
        if first_only and actions:
            break
    return actions


def has_lay(table: Tables, line: Line, hand: Iterable[str]) -> bool:
    """Whether ``lay_actions(table, line, hand)`` is not empty, found without building any action or list.

    The same tests in the same order; a joker always has a lay once the name rule lets it in, as both ends
    allow at least one stage.
    """
    cards, stars = _lay_tables(table)
    positions = line.cards
    if not positions:
        return any(card_id in cards for card_id in hand)  # any production card starts the line (R17, R18)
    genre = table.scripts[line.script].genre
    left_allowed, right_allowed = _LEFT_ALLOWED[line.stages[0]], _RIGHT_ALLOWED[line.stages[-1]]
    carried: set[str] | None = None
    for card_id in hand:
        card = cards.get(card_id)
        if card is None:
            star = stars.get(card_id)
            if star is not None and genre not in star[0]:  # R21
                return True
            continue
        base = card.upgrade_of
        if base is not None and any(c == base and s is None for c, s in zip(positions, line.stacked, strict=True)):
            return True  # a stack (§4.6.4)
        if carried is None:
            carried = set()
            for position in positions:
                carried.add(cards[position].carried)
        if card.carried in carried:
            continue  # name rule (R22, R25)
        if card.joker or card.stage in left_allowed or card.stage in right_allowed:
            return True
    return False


def lay_problem(table: Tables, line: Line, action: Lay | Stack | Star, hand: list[str]) -> str | None:
    """Why a lay is illegal, in the game's words (None if it is legal)."""
    card_id = action.card
    if card_id not in hand:
        return f"{table.card_name(card_id)} is not in your hand"
    if isinstance(action, Star):
        star = table.stars.get(card_id)
        if star is None:
            return f"{card_id} is not a star"
        if not line.cards:
            return "a new line takes its first production card before any star"
        genre = table.scripts[line.script].genre
        if genre in star.banned:
            return f"{star.name} refuses to play in a {_GENRE_WORDS[genre]} movie (banned genre)"
        return None
    card = table.production.get(card_id)
    if card is None:
        return f"{table.card_name(card_id)} is not a production card"
    if isinstance(action, Stack):
        if card.kind != "upgrade":
            return f"only an upgrade card can be stacked; {card.name} is not one"
        base = table.production[card.upgrade_of or ""]
        if not any(c == base.id and s is None for c, s in zip(line.cards, line.stacked, strict=True)):
            return f"{card.name} can be stacked only on a {base.name} in the line with nothing on it"
        return None
    if not line.cards:
        if action.end != RIGHT:
            return "the first card of a line is laid with 'right'"
        if card.kind == "joker" and action.stage is None:
            return f"choose the stage {card.name} takes: G, B, Y or R (pre-production, shooting, post-production or marketing)"
        if card.kind != "joker" and action.stage is not None:
            return f"only a joker chooses a stage; {card.name} is {STAGE_WORDS[STAGES[card.stage]]}"
        return None
    if card.kind == "upgrade" and any(c == card.upgrade_of and s is None for c, s in zip(line.cards, line.stacked, strict=True)):
        return f"{card.name} goes on top of its base card here: use 'stack {card_id}'"
    if carries(table, line, card.carried_name):
        return f"{card.carried_name} is already in this production line; each production card may appear once per line"
    allowed = allowed_stages(line, action.end)
    words = " or ".join(f"{STAGE_WORDS[STAGES[s]]} ({STAGES[s]})" for s in allowed)
    if card.kind == "joker":
        if action.stage is None:
            return f"choose the stage {card.name} takes at the {action.end} end ({words})"
        if action.stage not in STAGES or STAGES.index(action.stage) not in allowed:
            return f"at the {action.end} end a joker may only be {words} (colour rule)"
        return None
    if action.stage is not None:
        return f"only a joker chooses a stage; {card.name} is {STAGE_WORDS[STAGES[card.stage]]}"
    if card.stage not in allowed:
        return f"the colour rule allows only {words} at the {action.end} end; {card.name} is {STAGE_WORDS[STAGES[card.stage]]}"
    return None


_GENRE_WORDS = {"A": "action", "C": "comedy", "D": "drama"}


def apply_lay(table: Tables, line: Line, action: Lay | Stack | Star) -> Line:
    """The line after a legal lay."""
    script, cards, stages, stacked, stars = line.script, line.cards, line.stages, line.stacked, line.stars
    if isinstance(action, Star):
        return Line(script, cards, stages, stacked, (*stars, action.card), line.shut, line.locked)
    if isinstance(action, Stack):
        base = table.production[action.card].upgrade_of
        index = next(i for i, (c, s) in enumerate(zip(cards, stacked, strict=True)) if c == base and s is None)
        return Line(script, cards, stages, (*stacked[:index], action.card, *stacked[index + 1 :]), stars, line.shut, line.locked)
    stage = STAGE_INDEX[action.stage] if action.stage is not None else table.production[action.card].stage
    if action.end == LEFT:
        return Line(script, (action.card, *cards), (stage, *stages), (None, *stacked), stars, line.shut, line.locked)
    return Line(script, (*cards, action.card), (*stages, stage), (*stacked, None), stars, line.shut, line.locked)


def with_flags(line: Line, *, shut: bool | None = None, locked: bool | None = None) -> Line:
    """``line`` with its ``shut`` or ``locked`` flag changed (``dataclasses.replace`` without its cost)."""
    return Line(
        line.script,
        line.cards,
        line.stages,
        line.stacked,
        line.stars,
        line.shut if shut is None else shut,
        line.locked if locked is None else locked,
    )


def build_line(table: Tables, script: str, cards: Iterable[str], stars: Iterable[str] = (), **flags: bool) -> Line:
    """A line from a compact description, for tests and puzzles.

    ``cards`` lists positions left to right; a joker is written ``PJ01:R`` (its
    chosen stage) and an upgrade stacked on the card before it ``+PY05``.
    """
    positions: list[str] = []
    stages: list[int] = []
    stacked: list[str | None] = []
    for token in cards:
        if token.startswith("+"):
            stacked[-1] = token[1:]
            continue
        card_id, _, chosen = token.partition(":")
        positions.append(card_id)
        stages.append(STAGES.index(chosen) if chosen else table.production[card_id].stage)
        stacked.append(None)
    return Line(script, tuple(positions), tuple(stages), tuple(stacked), tuple(stars), **flags)
