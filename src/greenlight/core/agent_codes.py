"""Agent action codes: the game's flat codes, with choices of several cards made one card at a time.

A game's own codes (``Game.action_code``, the ``ActionLayout`` of its
``codes.py``) give every complete action one integer. Where an action is a
*set of cards* chosen at once (a game may keep 2 of 5 drawn cards, or give 2
hand cards), that flat form needs a code per pair of cards: tens of
thousands of codes of which a game reaches a handful. OpenSpiel's advice for
such actions is to factor them, and agent codes do so:

* a game's ``codes.py`` may declare ``PICKED``: the action types chosen card by
  card, each with a function from its local game code to the sorted indices of
  its cards (``PICK_ITEMS`` indices in all, at most ``MAX_PICKS`` cards);
* the **agent layout** keeps every other block of the game's layout and
  replaces each picked block by one code per card index ("pick card i") and
  one "finish" code; a pick has the same meaning in every state;
* an agent makes such an action as a run of picks in ascending card order
  (a card held twice is picked twice), then ``finish`` only where a shorter
  choice is legal too; the last pick that leaves a single complete action
  plays it. What is legal at each pick comes from ``legal_actions``, so
  exactly the game's legal actions can be made, each in exactly one way, and
  the game only ever receives complete actions (the records do not change);
* the cards picked so far are part of the agent's observation (a block of
  ``PICK_ITEMS`` counts / ``MAX_PICKS`` after the game's encoding) and of its
  perfect-recall information state.

Games without ``PICKED`` have agent codes equal to their game codes.

These are the codes of the RL environments' action masks (the RL layer names
them as :mod:`greenlight.rl.actions`) and the public codes of a
:class:`~greenlight.core.bot.SeatView`, so that a bot can play a policy
trained in those environments. They live in ``core`` because the view does;
:func:`reference_encoding` finds a game's observation encoder (its
``encoding`` companion) for the same reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from greenlight.core.actions import Action, ActionLayout
from greenlight.core.game import Game
from greenlight.core.registry import companion_module, game_package

#: Cards picked so far by a seat: (the number of the picked kind, the sorted card indices), or None.
Prefix = tuple[int, tuple[int, ...]] | None
#: What an agent code does now: an int is the position of the complete action it plays in ``legal_actions``;
#: a tuple is the seat's new prefix (a pick that leaves the choice open).
Target = int | tuple[int, tuple[int, ...]]
#: Turns a picked block's local game code into the sorted card indices of its action.
Decode = Callable[[int], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class PickedKind:
    """One action type chosen card by card: where its block sits in the game's and in the agent's layout."""

    number: int
    kind: type[Action]
    game_start: int
    game_stop: int
    decode: Decode
    #: Agent codes: ``agent_start + i`` picks card index ``i``; ``agent_start + items`` finishes.
    agent_start: int


class AgentCodes:
    """The agent layout of one game (see the module docstring): game codes to agent codes and back."""

    def __init__(
        self, layout: ActionLayout | None, num_game_codes: int, picked: Mapping[type[Action], Decode], items: int, max_picks: int
    ) -> None:
        #: Card indices a pick chooses among (0 when nothing is picked card by card).
        self.items = items if picked else 0
        #: Most cards one picked action holds (the observation shows counts / this).
        self.max_picks = max(max_picks, 1)
        #: Whether agent codes are the game codes (no picked action types).
        self.identity = not picked
        #: Length of the observation block that shows the cards picked so far.
        self.block_size = self.items
        self._kinds: list[PickedKind] = []
        # (game start, game stop, agent start) of the blocks that are not picked, in game order.
        self._plain: list[tuple[int, int, int]] = []
        if not picked:
            self.num_codes = num_game_codes
            self.plain_below = num_game_codes
            return
        if layout is None:
            raise ValueError("a game that declares PICKED needs an action_layout")
        unknown = set(picked) - {kind for kind, _, _ in layout.blocks}
        if unknown:
            raise ValueError(f"PICKED names action types the layout does not have: {sorted(kind.__name__ for kind in unknown)}")
        game_start = agent_start = 0
        for kind, size, _ in layout.blocks:
            if kind in picked:
                self._kinds.append(PickedKind(len(self._kinds), kind, game_start, game_start + size, picked[kind], agent_start))
                agent_start += items + 1
            else:
                self._plain.append((game_start, game_start + size, agent_start))
                agent_start += size
            game_start += size
        self.num_codes = agent_start
        #: Game codes below this are agent codes as they are (no picked block comes before them).
        self.plain_below = min(kind.game_start for kind in self._kinds)
        self._picked_by_kind = {kind.kind: kind for kind in self._kinds}

    # -- one code at a time ----------------------------------------------------------------

    def _kind_of(self, game_code: int) -> PickedKind | None:
        for kind in self._kinds:
            if kind.game_start <= game_code < kind.game_stop:
                return kind
        return None

    def plain_code(self, game_code: int) -> int:
        """The agent code of a game code outside the picked blocks."""
        if game_code < self.plain_below:
            return game_code
        for start, stop, agent_start in self._plain:
            if start <= game_code < stop:
                return agent_start + game_code - start
        raise ValueError(f"game code {game_code} is in a picked block: it is made by picks, see agent_sequence")

    def agent_sequence(self, game_code: int) -> list[int]:
        """The agent codes that make the action with ``game_code`` (one code, or its picks in order).

        ``finish`` is added only where :meth:`options` would ask for it, which
        depends on the other legal actions; this gives the picks alone.
        """
        kind = self._kind_of(game_code) if game_code >= self.plain_below else None
        if kind is None:
            return [self.plain_code(game_code)]
        cards = kind.decode(game_code - kind.game_start)
        return [kind.agent_start + card for card in cards] if cards else [kind.agent_start + self.items]

    def describe(self, agent_code: int) -> tuple[type[Action], int | None] | None:
        """For a pick or finish code: (its action type, the card index or None for finish); None for other codes."""
        for kind in self._kinds:
            if kind.agent_start <= agent_code <= kind.agent_start + self.items:
                offset = agent_code - kind.agent_start
                return kind.kind, (None if offset == self.items else offset)
        return None

    # -- what is legal now ---------------------------------------------------------------------

    def options(self, game_codes: Sequence[int], prefix: Prefix) -> tuple[list[int], list[Target]]:
        """The legal agent codes of a seat whose legal actions have ``game_codes``, with the cards it picked so far.

        Returns the codes (in the order of their first legal action) and what
        each does (see :data:`Target`). While a pick is under way only its
        continuations are legal.
        """
        codes: list[int] = []
        targets: list[Target] = []
        if self.identity:
            return list(game_codes), list(range(len(game_codes)))
        plain_below = self.plain_below
        depth = 0 if prefix is None else len(prefix[1])
        # Per pick code: (position of its code in ``codes``, the new prefix, positions of the actions it leads to).
        picks: dict[int, tuple[int, tuple[int, tuple[int, ...]], list[tuple[int, int]]]] = {}
        seen: set[int] = set()
        for index, game_code in enumerate(game_codes):
            kind = self._kind_of(game_code) if game_code >= plain_below else None
            if kind is None:
                if prefix is None:
                    code = self.plain_code(game_code)
                    if code not in seen:
                        seen.add(code)
                        codes.append(code)
                        targets.append(index)
                continue
            cards = kind.decode(game_code - kind.game_start)
            if prefix is not None and (prefix[0] != kind.number or cards[:depth] != prefix[1]):
                continue
            if len(cards) == depth:
                code = kind.agent_start + self.items  # finish: the cards picked so far are the whole choice
                if code not in seen:
                    seen.add(code)
                    codes.append(code)
                    targets.append(index)
                continue
            code = kind.agent_start + cards[depth]
            entry = picks.get(code)
            if entry is None:
                seen.add(code)
                codes.append(code)
                targets.append(index)  # replaced below
                entry = picks[code] = (len(codes) - 1, (kind.number, cards[: depth + 1]), [])
            entry[2].append((len(cards), index))
        for position, new_prefix, reached in picks.values():
            # The pick plays the action at once when it completes the only choice that starts this way.
            whole = [index for length, index in reached if length == depth + 1]
            targets[position] = whole[0] if len(reached) == 1 and whole else new_prefix
        return codes, targets

    def picked_counts(self, prefix: Prefix) -> dict[int, int]:
        """How many times each card index was picked so far."""
        counts: dict[int, int] = {}
        if prefix is not None:
            for card in prefix[1]:
                counts[card] = counts.get(card, 0) + 1
        return counts


@cache
def _agent_codes(game: Game[Any]) -> AgentCodes:
    module = companion_module(game, "codes")
    picked: Mapping[type[Action], Decode] = getattr(module, "PICKED", {}) if module is not None else {}
    items = int(getattr(module, "PICK_ITEMS", 0)) if module is not None else 0
    max_picks = int(getattr(module, "MAX_PICKS", 1)) if module is not None else 1
    return AgentCodes(game.action_layout, game.num_distinct_actions, picked, items, max_picks)


def agent_codes_for(game: Game[Any]) -> AgentCodes:
    """The agent layout of ``game`` (built once per game object)."""
    return _agent_codes(game)


def agent_options(game: Game[Any], state: Any, seat: int, prefix: Prefix = None) -> tuple[list[int], list[Target], list[Action]]:
    """The legal agent codes of ``seat``, what each does, and the legal actions they refer to."""
    actions = game.legal_actions(state, seat)
    code_of = game.action_code
    codes, targets = agent_codes_for(game).options([code_of(state, action) for action in actions], prefix)
    return codes, targets, actions


class AgentPicks:
    """The cards each seat picked so far in a game, and turning an agent code into a complete action or a pick."""

    __slots__ = ("codes", "prefixes")

    def __init__(self, codes: AgentCodes, num_players: int) -> None:
        self.codes = codes
        self.prefixes: list[Prefix] = [None] * num_players

    def clear(self) -> None:
        """A new game: nobody has picked anything."""
        self.prefixes = [None] * len(self.prefixes)

    def play(self, seat: int, code: int, agent_codes: Sequence[int], targets: Sequence[Target], actions: Sequence[Action]) -> Action | None:
        """The complete action ``code`` plays for ``seat`` (its prefix cleared), or None after a pick (its prefix kept).

        ``agent_codes``, ``targets`` and ``actions`` are the seat's current
        options (:meth:`AgentCodes.options`). Raises ValueError if ``code`` is not among them.
        """
        target = targets[list(agent_codes).index(code)]
        if isinstance(target, tuple):
            self.prefixes[seat] = target
            return None
        self.prefixes[seat] = None
        return actions[target]


def reference_encoding(game: Game[Any]) -> Any:
    """The game's observation encoder (``ENCODING`` of its ``encoding`` companion): ``encode(observation)`` and ``size``.

    It reads observations only, never states, so what it encodes is what the
    seat may see (``greenlight.rl.encoding`` describes the protocol and checks
    every faster path against it). Raises LookupError if the game has none.
    """
    module = companion_module(game, "encoding")
    encoding = getattr(module, "ENCODING", None) if module is not None else None
    if encoding is None or not hasattr(encoding, "encode") or not hasattr(encoding, "size"):
        raise LookupError(f"{game.spec.title} has no observation encoding ({game_package(game)}.encoding with ENCODING)")
    return encoding
