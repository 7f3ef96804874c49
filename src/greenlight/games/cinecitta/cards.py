"""Cinecitta 1937 staff cards: loading and validating the card data file (rules §2.4)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from greenlight.core.data import DataSet, DataTable, FieldSpec, bundled_path, require
from greenlight.core.state import StaticData

OCCUPATIONS = ("Director", "Actor", "Cameraman", "Scriptwriter", "Producer")
PLAYER_COUNTS = (3, 4, 5)
#: Hand size H (= number of rounds) per player count (§3).
HAND_SIZE = {3: 8, 4: 7, 5: 7}
#: Most cards a custom file may hold; action codes are sized for this many.
MAX_CARDS = 60
BUNDLED_CARDS = bundled_path(__file__, "data", "cards.toml")


@dataclass(frozen=True, slots=True)
class StaffCard:
    """One staff card. Icons count only in the Office (R27)."""

    id: str
    occupation: str
    number: int
    promotion: int
    reels: int
    pen: bool
    removed_at: frozenset[int]


class CardTable(StaticData):
    """The immutable card table of one game, loaded once.

    ``occupation``, ``number``, ``promotion``, ``reels`` and ``pen`` map each
    card id to that field of its card: the rules and the bots read them for
    every placement and estimate, and a dictionary lookup costs a fraction of
    ``table[card].field``.
    """

    __slots__ = ("_by_id", "_decks", "_index", "cards", "number", "occupation", "pen", "promotion", "reels", "source")

    def __init__(self, source: str, cards: tuple[StaffCard, ...]) -> None:
        self.source = source
        self.cards = cards
        self._by_id = {card.id: card for card in cards}
        self._index = {card.id: index for index, card in enumerate(cards)}
        self.occupation: dict[str, str] = {card.id: card.occupation for card in cards}
        self.number: dict[str, int] = {card.id: card.number for card in cards}
        self.promotion: dict[str, int] = {card.id: card.promotion for card in cards}
        self.reels: dict[str, int] = {card.id: card.reels for card in cards}
        self.pen: dict[str, bool] = {card.id: card.pen for card in cards}
        self._decks = {n: tuple(card.id for card in cards if n not in card.removed_at) for n in PLAYER_COUNTS}

    def __getitem__(self, card_id: str) -> StaffCard:
        return self._by_id[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def static_key(self) -> str:
        """The file the table was loaded from."""
        return self.source

    def index(self, card_id: str) -> int:
        """Position of a card in the table (used for action codes)."""
        return self._index[card_id]

    def deck_for(self, num_players: int) -> list[str]:
        """Ids of the cards in play at ``num_players``, in table order (§3 step 3)."""
        deck = self._decks.get(num_players)
        if deck is None:
            return [card.id for card in self.cards if num_players not in card.removed_at]
        return list(deck)


CARD_FIELDS = (
    FieldSpec("id", "str"),
    FieldSpec("occupation", "str", choices=OCCUPATIONS),
    FieldSpec("number", "int", minimum=1, maximum=9),
    FieldSpec("promotion", "int", minimum=0),
    FieldSpec("reels", "int", minimum=0),
    FieldSpec("pen", "bool"),
    FieldSpec("removed_at", "list[int]", choices=PLAYER_COUNTS),
)


#: The game's data: one table of staff cards (``cards.toml``, or a CSV, a workbook, a folder holding one of them).
DATA = DataSet(
    "Cinecitta 1937",
    (DataTable("cards", "card", CARD_FIELDS, type_field="occupation", tune="reels"),),
    BUNDLED_CARDS,
    folder=False,
)


def load_cards(path: str | Path | None = None) -> CardTable:
    """Load and validate a card file; ``None`` loads the bundled file with its extra checks."""
    if path is None:
        return _load_cached(None, ())
    return _load_cached(str(Path(path).resolve()), DATA.fingerprint(path))


@cache
def _load_cached(path: str | None, fingerprint: tuple[tuple[str, int, int], ...]) -> CardTable:
    source = DATA.locate(path)["cards"]
    file = source.label
    rows = source.read()
    require(len(rows) <= MAX_CARDS, file, None, None, f"at most {MAX_CARDS} cards are supported, found {len(rows)}")
    cards = tuple(
        StaffCard(row["id"], row["occupation"], row["number"], row["promotion"], row["reels"], row["pen"], frozenset(row["removed_at"]))
        for row in rows
    )
    for num_players in PLAYER_COUNTS:
        in_play = sum(1 for card in cards if num_players not in card.removed_at)
        needed = num_players * HAND_SIZE[num_players]
        require(in_play >= needed, file, None, "removed_at", f"{num_players} players need {needed} cards in play, only {in_play} are left")
    if path is None:
        _check_bundled_composition(file, cards)
    return CardTable(file, cards)


def _check_bundled_composition(file: str, cards: tuple[StaffCard, ...]) -> None:
    """The composition the rulebook states (§2.4, checks for the bundled file)."""
    for occupation in OCCUPATIONS[:4]:
        numbers = sorted(card.number for card in cards if card.occupation == occupation)
        require(numbers == list(range(2, 10)), file, None, "number", f"{occupation} must have exactly the numbers 2-9 once each")
    producers = [card for card in cards if card.occupation == "Producer"]
    require(len(producers) == 3, file, None, "occupation", "there must be exactly 3 Producers")
    for card in cards:
        if card.occupation == "Producer":
            continue
        expected = {4: {3, 4}, 7: {3}}.get(card.number, set())
        require(
            card.removed_at == expected,
            file,
            card.id,
            "removed_at",
            f"a non-Producer numbered {card.number} is removed at {sorted(expected)}",
        )
    for num_players, count in ((5, 3), (4, 2), (3, 1)):
        left = sum(1 for card in producers if num_players not in card.removed_at)
        require(left == count, file, None, "removed_at", f"{count} Producer(s) must remain at {num_players} players, found {left}")
