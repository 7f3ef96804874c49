"""Cinecitta 1937 observation encoding for RL: ``observe(state, seat)`` as a fixed-size vector.

Built from the observation only (never the state), so it shows exactly what
the seat may see. Seats are **relative to the viewer**: slot 0 is the viewer,
slot k is the seat k places to its left (the seat that receives its folder
when the partner offset is k). Every value is in ``[0, 1]``; counts and money
are divided by a stated scale and clipped at 1. ``docs/rl.md`` documents each
field; ``fields()`` is the machine-readable list.

Card slots follow the card table (bundled or the ``cards`` option), at most
``MAX_CARDS`` (60) slots, so the size depends only on the player count.

``encode`` (from the observation) is the reference. ``state_writer`` is the
fast path the RL environments use: it writes the same vector straight from
the state, reading of the hidden parts only who has committed (never what),
and ``greenlight.rl.encoding.check_state_writer`` checks it against the
reference on every step of seeded games, also after ``determinize``.

>>> from greenlight.games.cinecitta import GAME
>>> state = GAME.new_state(3, seed=4)
>>> vector = ENCODING.encode(GAME.observe(state, 1))
>>> len(vector) == ENCODING.size(3, {}), min(vector) >= 0.0, max(vector) <= 1.0
(True, True, True)
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Mapping, MutableSequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Any, TypeVar, cast

from greenlight.core.block_cache import BlockCache
from greenlight.core.game import Observation
from greenlight.core.spec import OptionValue
from greenlight.core.views import clip01, relative_seat
from greenlight.games.cinecitta import rules
from greenlight.games.cinecitta.cards import HAND_SIZE, MAX_CARDS, OCCUPATIONS, PLAYER_COUNTS, CardTable, StaffCard
from greenlight.games.cinecitta.codes import AMOUNT_SLOTS
from greenlight.games.cinecitta.observation import CinecittaObservation, Final, FolderView, Placement
from greenlight.games.cinecitta.rules import table_for
from greenlight.games.cinecitta.state import OFFER, OVER, PLACE, RESPOND, CinecittaState, Folder

STEPS = ("offer", "respond", "place", "over")
RESPONSES = ("secure", "headhunt")
MAX_ROUNDS = max(HAND_SIZE.values())
#: Largest partner offset (N - 1 at 5 players).
MAX_OFFSET = max(PLAYER_COUNTS) - 1
#: One card described by its printed features: occupation one-hot, number/9, promotion/2, reels/4, pen.
CARD_FEATURES = len(OCCUPATIONS) + 4
#: Office cards a seat can accumulate: two a round for eight rounds.
OFFICE_SCALE = 16
#: Scale of a final value (quality up to 999 plus box office); larger values clip at 1.
VALUE_SCALE = 5000.0


@dataclass(frozen=True, slots=True)
class _CardInfo:
    """What the encoder reads from one card, computed once per card table."""

    slot: int  # position in the card table
    occupation: int  # index in OCCUPATIONS
    number: float  # number / 9
    promotion: int
    reels: int
    pen: bool
    features: tuple[float, ...]  # the CARD_FEATURES used in folders


@cache
def _card_infos(table: CardTable) -> dict[str, _CardInfo]:
    """Per-card encoder data (card tables are loaded once and never change, so this is cached)."""
    return {
        card.id: _CardInfo(
            table.index(card.id),
            OCCUPATIONS.index(card.occupation),
            card.number / 9.0,
            card.promotion,
            card.reels,
            card.pen,
            tuple(_card_features(card)),
        )
        for card in table.cards
    }


class CinecittaEncoding:
    """Encoder of Cinecitta observations (see the module docstring and ``docs/rl.md``)."""

    #: Weights for potential-based reward shaping, per point of each category (see ``potentials``).
    shaping_weights: Mapping[str, float] = {"quality": 0.0005, "promotion": 0.0005, "money": 0.0005, "reels": 0.01}

    def fields(self, num_players: int, options: Mapping[str, OptionValue]) -> list[tuple[str, int]]:
        """``(name, length)`` of each slice, in order (``n`` = number of players)."""
        n = num_players
        folder = 1 + MAX_CARDS + CARD_FEATURES + 1 + len(RESPONSES)
        return [
            ("num_players", len(PLAYER_COUNTS)),
            ("options", 2),
            ("round", 1),
            ("rounds", 1),
            ("step", len(STEPS)),
            ("partner_offset", MAX_OFFSET),
            ("spectator", 1),
            ("committed", n),
            ("waiting", n),
            ("hand_sizes", n),
            ("studios", n * len(OCCUPATIONS) * 2),
            ("studio_quality", n),
            ("offices", n * (len(OCCUPATIONS) + 4)),
            ("last_placements", n * 2),
            ("wallet", 1),
            ("hand", MAX_CARDS),
            ("folder_sent", folder),
            ("folder_received", folder),
            ("pending", MAX_CARDS),
            ("folder_history", n * 6),
            ("final", n * 4),
        ]

    def size(self, num_players: int, options: Mapping[str, OptionValue]) -> int:
        """Length of the vector for ``num_players``."""
        return sum(length for _, length in self.fields(num_players, options))

    def encode(self, observation: Observation) -> list[float]:
        """The vector for one observation (spectator observations leave the private fields at 0)."""
        obs = cast(CinecittaObservation, observation)
        n: int = obs["num_players"]
        table = table_for(obs["options"])
        infos = _card_infos(table)
        viewer: int | None = obs["viewer"]
        me = viewer if viewer is not None else 0
        money_total = float(obs["money_total"])

        def rel(seat: int) -> int:
            return relative_seat(seat, viewer, n)

        out: list[float] = []
        add = out.extend
        add(1.0 if n == count else 0.0 for count in PLAYER_COUNTS)
        add([float(bool(obs["options"].get("destination_change"))), float(bool(obs["options"].get("movie_awards")))])
        add([obs["round"] / MAX_ROUNDS, obs["rounds"] / MAX_ROUNDS])
        add(1.0 if obs["step"] == step else 0.0 for step in STEPS)
        add(1.0 if obs["partner_offset"] == k else 0.0 for k in range(1, MAX_OFFSET + 1))
        add([1.0 if viewer is None else 0.0])
        out += _seat_flags(obs["committed"], n, rel)
        out += _seat_flags(obs["waiting"], n, rel)
        out += _per_seat([min(size / MAX_ROUNDS, 1.0) for size in obs["hand_sizes"]], n, rel)
        out += _studios(infos, obs["studios"], n, rel)
        out += _per_seat([_quality(table, studio) / 1000.0 for studio in obs["studios"]], n, rel)
        out += _offices(infos, obs["offices"], n, rel)
        out += _last_placements(obs["last_placements"], n, rel)
        out.append(clip01(obs.get("wallet", 0) / money_total) if viewer is not None else 0.0)
        out += _card_set(infos, obs.get("hand") or ())
        out += _folder(infos, obs.get("folder_sent"), money_total)
        out += _folder(infos, obs.get("folder_received"), money_total)
        out += _card_set(infos, obs.get("pending") or ())
        out += _history(obs.get("folder_history") or (), me, n, rel, money_total)
        out += _final(obs.get("final"), n, rel)
        return out

    def state_writer(
        self, num_players: int, options: Mapping[str, OptionValue]
    ) -> Callable[[CinecittaState, int, MutableSequence[float]], None]:
        """The fast path: writes ``encode(observe(state, seat))`` from the state into a zeroed buffer."""
        return _writer(num_players, table_for(dict(options)), bool(options.get("destination_change")), bool(options.get("movie_awards")))

    def legal_runs(
        self, num_players: int, options: Mapping[str, OptionValue]
    ) -> Callable[[CinecittaState, int], list[tuple[int, int]] | None]:
        """A seat's legal offers as runs of codes (a card at every amount up to its wallet); None at other steps."""
        return _offer_runs

    def potentials(self, observation: Observation) -> dict[str, float]:
        """The viewer's provisional standing (§5): Studio quality, Office promotion, wallet, Office reels.

        Quality counts once the Studio holds three cards; promotion is in money
        (10 a promotion icon). Values come from the viewer's own observation.
        """
        obs = cast(CinecittaObservation, observation)
        viewer = obs["viewer"]
        if viewer is None:
            return {name: 0.0 for name in self.shaping_weights}
        table = table_for(obs["options"])
        office = [table[card] for card in obs["offices"][viewer] if card in table]
        return {
            "quality": float(_quality(table, obs["studios"][viewer])),
            "promotion": 10.0 * sum(card.promotion for card in office),
            "money": float(obs["wallet"]),
            "reels": float(sum(card.reels for card in office)),
        }


def _seat_flags(seats: list[int], n: int, rel: Callable[[int], int]) -> list[float]:
    flags = [0.0] * n
    for seat in seats:
        flags[rel(seat)] = 1.0
    return flags


def _per_seat(values: list[float], n: int, rel: Callable[[int], int]) -> list[float]:
    ordered = [0.0] * n
    for seat, value in enumerate(values):
        ordered[rel(seat)] = value
    return ordered


def _quality(table: CardTable, studio: list[str]) -> int:
    """S1 quality of a complete Studio (0 while incomplete)."""
    if len(studio) != 3:
        return 0
    a, b, c = sorted(table[card].number for card in studio)
    return 100 * a + 10 * b + c


def _studios(infos: dict[str, _CardInfo], studios: list[list[str]], n: int, rel: Callable[[int], int]) -> list[float]:
    """Per seat and occupation: [present, number/9]."""
    width = len(OCCUPATIONS) * 2
    out = [0.0] * (n * width)
    for seat, studio in enumerate(studios):
        base = rel(seat) * width
        for card_id in studio:
            card = infos[card_id]
            slot = base + 2 * card.occupation
            out[slot] = 1.0
            out[slot + 1] = card.number
    return out


def _offices(infos: dict[str, _CardInfo], offices: list[list[str]], n: int, rel: Callable[[int], int]) -> list[float]:
    """Per seat: cards per occupation/16, promotion icons/16, reels/32, any Pen, card count/16."""
    width = len(OCCUPATIONS) + 4
    out = [0.0] * (n * width)
    for seat, office in enumerate(offices):
        if not office:
            continue
        base = rel(seat) * width
        promotion = reels = 0
        pen = False
        for card_id in office:
            card = infos[card_id]
            slot = base + card.occupation
            out[slot] = min(out[slot] + 1.0 / OFFICE_SCALE, 1.0)
            promotion += card.promotion
            reels += card.reels
            pen = pen or card.pen
        tail = base + len(OCCUPATIONS)
        out[tail] = clip01(promotion / OFFICE_SCALE)
        out[tail + 1] = clip01(reels / (2 * OFFICE_SCALE))
        out[tail + 2] = 1.0 if pen else 0.0
        out[tail + 3] = clip01(len(office) / OFFICE_SCALE)
    return out


def _last_placements(placements: list[Placement], n: int, rel: Callable[[int], int]) -> list[float]:
    """Per seat: cards placed in the last resolved step /2, cards it moved to the Office /2."""
    out = [0.0] * (n * 2)
    for placement in placements:
        base = rel(placement["seat"]) * 2
        out[base] += 0.5
        if placement["moved_out"] is not None:
            out[base + 1] += 0.5
    return out


def _card_set(infos: dict[str, _CardInfo], cards: Iterable[str]) -> list[float]:
    """Multi-hot over card-table positions."""
    out = [0.0] * MAX_CARDS
    for card_id in cards:
        out[infos[card_id].slot] = 1.0
    return out


def _card_features(card: StaffCard) -> list[float]:
    occupation = [1.0 if card.occupation == name else 0.0 for name in OCCUPATIONS]
    return [*occupation, card.number / 9.0, min(card.promotion / 2.0, 1.0), min(card.reels / 4.0, 1.0), float(card.pen)]


def _folder(infos: dict[str, _CardInfo], folder: FolderView | None, money_total: float) -> list[float]:
    """[present, card one-hot (60), card features (9), amount/total money, response secure, headhunt]."""
    width = 1 + MAX_CARDS + CARD_FEATURES + 1 + len(RESPONSES)
    if folder is None:
        return [0.0] * width
    card = infos[folder["card"]]
    one_hot = [0.0] * MAX_CARDS
    one_hot[card.slot] = 1.0
    response = [1.0 if folder["response"] == name else 0.0 for name in RESPONSES]
    return [1.0, *one_hot, *card.features, clip01(folder["amount"] / money_total), *response]


def _history(history: Iterable[FolderView], me: int, n: int, rel: Callable[[int], int], money_total: float) -> list[float]:
    """Per other seat, over earlier rounds: my folders it secured / headhunted (/8) and their money (/total);
    its folders I secured / headhunted (/8) and their money (/total). Slot 0 (the viewer) stays 0."""
    out = [0.0] * (n * 6)
    for folder in history:
        sent = folder["sender"] == me
        other = folder["recipient"] if sent else folder["sender"]
        base = rel(other) * 6 + (0 if sent else 3)
        out[base + (0 if folder["response"] == "secure" else 1)] += 1.0 / MAX_ROUNDS
        out[base + 2] += folder["amount"] / money_total
    return [clip01(value) for value in out]


def _final(final: Final | None, n: int, rel: Callable[[int], int]) -> list[float]:
    """Per seat, once the game is over: finished (not dropped out), winner, value/5000, quality/1000."""
    out = [0.0] * (n * 4)
    if final is None:
        return out
    for seat, item in enumerate(final["breakdown"]):
        base = rel(seat) * 4
        out[base] = 1.0 if item["status"] == "FINISHED" else 0.0
        out[base + 1] = 1.0 if seat in final["winners"] else 0.0
        out[base + 2] = clip01((item["value"] or 0) / VALUE_SCALE)
        out[base + 3] = clip01((item["quality"] or 0) / 1000.0)
    return out


def _offer_runs(state: CinecittaState, seat: int) -> list[tuple[int, int]] | None:
    """The codes of ``rules.legal_offers`` as runs: per card in hand, the codes of its offers 0, 10, ... up to the
    wallet (``codes.offer_code``: by card, then amount), which follow one another. None when the seat makes no
    offer now, or when the wallet would reach past the last amount slot (codes there are clipped)."""
    if state.step != OFFER or state.offers[seat] is not None:
        return None
    rungs = state.wallets[seat] // 10 + 1
    if not 0 < rungs <= AMOUNT_SLOTS:
        return None
    index = state.table.index
    runs = []
    for card in state.hands[seat]:
        start = index(card) * AMOUNT_SLOTS
        runs.append((start, start + rungs))
    return runs


# -- the fast path ---------------------------------------------------------------------------

#: Lengths of one seat's part of ``studios`` and of ``offices``.
STUDIO_WIDTH = 2 * len(OCCUPATIONS)
OFFICE_WIDTH = len(OCCUPATIONS) + 4


@cache
def _writer(num_players: int, table: CardTable, destination_change: bool, movie_awards: bool) -> _StateWriter:
    return _StateWriter(num_players, table, destination_change, movie_awards)


class _StateWriter(BlockCache):
    """Writes a seat's vector from a Cinecitta state: the same numbers ``encode`` computes from ``observe``.

    Most of the vector changes once a step or once a round, so it is written in
    blocks (``array('f')`` slices, one copy each) cached by exactly what they
    are computed from: the round, step and partner offset for the header; who
    waits and the hand sizes; the cards in every Studio and Office; the
    viewer's folders of this round; the identity of the earlier folders (frozen
    values, kept alive by the cache) for the folder history.
    """

    def __init__(self, num_players: int, table: CardTable, destination_change: bool, movie_awards: bool) -> None:
        n = self.n = num_players
        self.options = (destination_change, movie_awards)
        self.at = dict(_starts(ENCODING.fields(n, {})))
        #: order[viewer][seat]: where ``seat`` sits counted from ``viewer``.
        self.order = [[(seat - viewer) % n for seat in range(n)] for viewer in range(n)]
        infos = _card_infos(table)
        self.slot = {card: info.slot for card, info in infos.items()}
        self.infos = infos
        self.numbers = {card.id: card.number for card in table.cards}
        super().__init__()
        #: The last tableaus seen (copies of the Studios and Offices) and every seat's blocks of them.
        self._tableaus: (
            tuple[tuple[list[list[str]], list[list[str]]], list[tuple[array[float] | None, float, array[float] | None]]] | None
        ) = None
        #: The last finished game seen and its final figures per seat (kept alive, so ``is`` is safe).
        self._over: tuple[CinecittaState, list[tuple[float, float, float, float]]] | None = None

    def __call__(self, state: CinecittaState, seat: int, out: MutableSequence[float]) -> None:
        n = self.n
        at = self.at
        step = state.step
        over = step == OVER
        offset = 0 if over else rules.partner_offset(state)
        rounds = state.hand_size
        key: tuple[Any, ...] = ("header", min(state.round, rounds), rounds, step, offset)
        header = self._blocks.get(key) or self._cached(key, partial(self._header, key))
        out[: len(header)] = header
        decision = rules.decision(state)
        key = ("seats", seat, decision.players, decision.committed, tuple(map(len, state.hands)))
        block = self._blocks.get(key) or self._cached(key, partial(self._seat_block, key))
        start = at["committed"]
        out[start : start + len(block)] = block
        order = self.order[seat]
        self._write_tableaus(state, order, out)
        if state.placements:
            base = at["last_placements"]
            for placement in state.placements[-1]:
                where = base + order[placement.seat] * 2
                out[where] += 0.5
                if placement.moved_out is not None:
                    out[where + 1] += 0.5
        money_total = float(sum(state.round_start_wallets))
        out[at["wallet"]] = clip01(state.wallets[seat] / money_total)
        slot = self.slot
        base = at["hand"]
        for card in state.hands[seat]:
            out[base + slot[card]] = 1.0
        folders = state.folders
        current = n if step in (RESPOND, PLACE) else 0
        if current:
            answered = step == PLACE
            sent = folders[-n + seat]
            received = folders[-n + (seat - offset) % n]
            # The sender learns the answer at step 3a (PLACE); the recipient sees its own as soon as it commits.
            own = state.responses[seat] if step == RESPOND else None
            self._write_folder(out, at["folder_sent"], sent.card, sent.amount, sent.response if answered else None, money_total)
            self._write_folder(
                out, at["folder_received"], received.card, received.amount, received.response if answered else own, money_total
            )
            if answered:
                base = at["pending"]
                for card in state.pending[seat]:
                    out[base + slot[card]] = 1.0
        if len(folders) > current:
            self._write_history(out, seat, folders[: len(folders) - current], money_total)
        if over:
            self._final(state, order, out)

    # -- blocks, computed once per key -------------------------------------------------------

    def _header(self, key: tuple[Any, ...]) -> array[float]:
        """num_players, options, round, rounds, step, partner offset, spectator."""
        _, shown_round, rounds, step, offset = key
        block = [1.0 if self.n == count else 0.0 for count in PLAYER_COUNTS]
        block += [float(on) for on in self.options]
        block += [shown_round / MAX_ROUNDS, rounds / MAX_ROUNDS]
        block += [1.0 if step == name else 0.0 for name in STEPS]
        block += [1.0 if offset == k else 0.0 for k in range(1, MAX_OFFSET + 1)]
        block.append(0.0)  # a seat, not the spectator
        return array("f", block)

    def _seat_block(self, key: tuple[Any, ...]) -> array[float]:
        """committed, waiting, hand sizes."""
        _, seat, waiting, committed, hand_sizes = key
        order = self.order[seat]
        n = self.n
        block = [0.0] * (3 * n)
        for other in committed:
            block[order[other]] = 1.0
        for other in waiting:
            block[n + order[other]] = 1.0
        for other, size in enumerate(hand_sizes):
            block[2 * n + order[other]] = min(size / MAX_ROUNDS, 1.0)
        return array("f", block)

    def _write_tableaus(self, state: CinecittaState, order: list[int], out: MutableSequence[float]) -> None:
        """studios, studio quality and offices: a block per Studio and per Office, the same for every viewer.

        Tableaus change once a round (when the plans resolve): the blocks of every seat are looked up again only
        when the cards in them differ from the last tableaus seen.
        """
        tableaus = (state.studios, state.offices)
        memo = self._tableaus
        if memo is None or memo[0] != tableaus:
            memo = self._tableaus = (([*map(list, state.studios)], [*map(list, state.offices)]), self._tableau_blocks(state))
        at = self.at
        studios, qualities, offices = at["studios"], at["studio_quality"], at["offices"]
        for other, (studio, quality, office) in enumerate(memo[1]):
            where = order[other]
            if studio is not None:
                out[studios + where * STUDIO_WIDTH : studios + (where + 1) * STUDIO_WIDTH] = studio
                out[qualities + where] = quality
            if office is not None:
                out[offices + where * OFFICE_WIDTH : offices + (where + 1) * OFFICE_WIDTH] = office

    def _tableau_blocks(self, state: CinecittaState) -> list[tuple[array[float] | None, float, array[float] | None]]:
        """Per seat: its Studio's block and quality, and its Office's block (None for an empty one)."""
        blocks: list[tuple[array[float] | None, float, array[float] | None]] = []
        for studio, office in zip(state.studios, state.offices, strict=True):
            studio_block: array[float] | None = None
            quality = 0.0
            office_block: array[float] | None = None
            if studio:
                studio_block, quality = self._cached(("studio", *studio), partial(self._studio, studio))
            if office:
                office_block = self._cached(("office", *office), partial(self._office, office))
            blocks.append((studio_block, quality, office_block))
        return blocks

    def _studio(self, studio: list[str]) -> tuple[array[float], float]:
        """One Studio's slice of ``_studios`` and its entry of ``studio_quality``."""
        quality = 0.0
        if len(studio) == 3:
            a, b, c = sorted(self.numbers[card] for card in studio)
            quality = (100 * a + 10 * b + c) / 1000.0
        return array("f", _studios(self.infos, [list(studio)], 1, _first)), quality

    def _office(self, office: list[str]) -> array[float]:
        """One Office's slice of ``_offices``."""
        return array("f", _offices(self.infos, [list(office)], 1, _first))

    def _write_folder(
        self, out: MutableSequence[float], base: int, card: str, amount: int, response: str | None, money_total: float
    ) -> None:
        key = ("folder", card, amount, response, money_total)
        block = self._blocks.get(key)
        if block is None:
            folder: FolderView = {
                "round": 0,
                "sender": 0,
                "recipient": 0,
                "card": card,
                "amount": amount,
                "response": response,
                "back": None,
                "role": "",
            }
            block = self._cached(key, partial(array, "f", _folder(self.infos, folder, money_total)))
        out[base : base + len(block)] = block

    def _write_history(self, out: MutableSequence[float], me: int, earlier: list[Folder], money_total: float) -> None:
        """folder_history: the sums ``_history`` makes, in its order, kept per round so a new round adds only its folders.

        Folders are frozen values and the cache holds on to them, so the ids in a key stay theirs.
        """
        key = ("history", me, money_total, tuple(map(id, earlier)))
        found = self._blocks.get(key)
        if found is None:
            found = self._cached(key, partial(self._history, key, earlier, money_total))
        start = self.at["folder_history"]
        block = found[1]
        out[start : start + len(block)] = block

    def _history(
        self, key: tuple[Any, ...], earlier: list[Folder], money_total: float
    ) -> tuple[list[float], array[float], tuple[Folder, ...]]:
        """(the unclipped sums, the block, the folders themselves); the sums of all rounds but the last are reused."""
        me = key[1]
        shorter = (*key[:3], key[3][: -self.n])
        before = self._blocks.get(shorter) or self._old.get(shorter)
        totals = list(before[0]) if before is not None else [0.0] * (self.n * 6)
        order = self.order[me]
        for folder in earlier[-self.n :] if before is not None else earlier:
            sent = folder.sender == me
            if not sent and folder.recipient != me:
                continue
            base = order[folder.recipient if sent else folder.sender] * 6 + (0 if sent else 3)
            totals[base + (0 if folder.response == "secure" else 1)] += 1.0 / MAX_ROUNDS
            totals[base + 2] += folder.amount / money_total
        return totals, array("f", [clip01(value) for value in totals]), tuple(earlier)

    def _final(self, state: CinecittaState, order: list[int], out: MutableSequence[float]) -> None:
        # A game that is over changes no more: its result is worked out once for every seat that looks at it.
        over = self._over
        if over is None or over[0] is not state:
            breakdowns = rules.final_breakdowns(state)
            winners = rules.rank_breakdowns(breakdowns).winners
            figures = [
                (
                    1.0 if item["status"] == "FINISHED" else 0.0,
                    1.0 if other in winners else 0.0,
                    clip01((item["value"] or 0) / VALUE_SCALE),
                    clip01((item["quality"] or 0) / 1000.0),
                )
                for other, item in enumerate(breakdowns)
            ]
            over = self._over = (state, figures)
        start = self.at["final"]
        for other, values in enumerate(over[1]):
            base = start + order[other] * 4
            out[base : base + 4] = array("f", values)


V = TypeVar("V")


def _first(seat: int) -> int:
    """The relative seat of a one-seat slice: its own."""
    return 0


def _starts(fields: Iterable[tuple[str, int]]) -> Iterable[tuple[str, int]]:
    start = 0
    for name, length in fields:
        yield name, start
        start += length


ENCODING = CinecittaEncoding()
