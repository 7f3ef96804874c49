"""Maybe Movies cards: the seeded catalogue generator (§2.6) and the fixed-catalogue loader (§2.7).

The catalogue is not a printed list: each game generates its own from the game
seed, so the same seed always gives the same cards. A designer (or the owner of
a printed deck) may instead load a fixed catalogue from a JSON file, which is
validated with errors that name the file, the card and the field.

>>> catalogue = generate_catalogue(0)
>>> [str(card) for card in catalogue.votes[:4]]
['Y01 YES actors 4', 'N01 NO money 1', 'Y02 YES money 3', 'N02 NO setting 2']
>>> str(catalogue.movie("M03"))
'M03 [actors, money] p2'
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache, lru_cache, partial
from math import floor
from operator import attrgetter
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple

from greenlight.core.data import DataSet, DataTable, FieldSpec, bundled_path, require
from greenlight.core.errors import DataError
from greenlight.core.rng import Stream
from greenlight.core.state import StaticData
from greenlight.games.maybe_movies.chance import deck_stream, flavour_stream, real_in, shuffle
from greenlight.games.maybe_movies.observation import BlockbusterFace, CardFace, ChangeFace, IconName, MovieFace, VoteFace

#: The six icons in icon order (§2.1); every "in icon order" means this order.
ICONS: tuple[IconName, ...] = ("money", "actors", "script", "setting", "camera", "microphone")
NUM_ICONS = len(ICONS)
ICON_INDEX: dict[str, int] = {name: index for index, name in enumerate(ICONS)}

YES: Final = "YES"
NO: Final = "NO"
CHANGE: Final = "CHANGE"
#: The kind of a card held in hand.
VoteKind = Literal["YES", "NO", "CHANGE"]

#: Blockbuster cost keys in table order (§2.5).
COST_KEYS: tuple[str, ...] = (
    "copycat_most_neighbor",
    "copycat_least_neighbor",
    "num_yes_votes",
    "num_no_votes",
    "pitch_size",
    "pitch_size_conditional",
    "match_cost",
    "match_no_cost",
    "wildcard_cost",
    "wildcard_cost_conditional",
    "unanimous_vote",
    "copycat_most_icon",
    "copycat_least_icon",
    "num_changes",
)
#: Cost keys that carry an icon parameter X.
X_KEYS = frozenset(
    {"num_yes_votes", "num_no_votes", "pitch_size", "pitch_size_conditional", "match_cost", "match_no_cost", "unanimous_vote"}
)
#: Cost keys that carry a number parameter N (1-3).
N_KEYS = frozenset({"wildcard_cost", "wildcard_cost_conditional"})
#: Blockbuster profit keys in table order (§2.5).
PROFIT_KEYS: tuple[str, ...] = (
    "copycat_most_neighbor",
    "copycat_least_neighbor",
    "num_yes_votes",
    "num_no_votes",
    "pitch_size",
    "pitch_size_conditional",
    "match_reward",
    "match_no_reward",
    "wildcard_profit",
    "wildcard_profit_conditional",
    "unanimous_profit",
    "copycat_most",
    "copycat_least",
    "num_changes",
)

NUM_VOTES, NUM_CHANGE, NUM_MOVIES, NUM_BLOCKBUSTERS = 60, 12, 44, 16
EXAMPLE_CATALOGUE = bundled_path(__file__, "data", "seed0_catalogue.json")

_ID_PATTERN = re.compile(r"^[A-Za-z0-9_]+$")


class VoteCard(NamedTuple):
    """A card held in hand: a YES or NO vote (icon and value, §2.2) or a CHANGE card (number, §2.3).

    (A named tuple, not a frozen dataclass: every game generates its own catalogue, and a tuple is built
    five times as fast, which is a tenth of a random playout's setup.)
    """

    id: str
    kind: VoteKind
    value: int = 0
    icon: int = -1
    number: int = 0

    @property
    def is_change(self) -> bool:
        """True for CHANGE cards (Breaking Changes)."""
        return self.kind == CHANGE

    def __str__(self) -> str:
        if self.kind == CHANGE:
            return f"{self.id} CHANGE #{self.number}"
        return f"{self.id} {self.kind} {ICONS[self.icon]} {self.value}"

    def to_json(self) -> VoteFace | ChangeFace:
        """Details for observations: ``type`` YES/NO with ``icon`` and ``value``, or CHANGE with ``number``."""
        if self.kind == CHANGE:
            return {"type": CHANGE, "number": self.number}
        return {"type": self.kind, "icon": ICONS[self.icon], "value": self.value}


class MovieCard(NamedTuple):
    """A movie card: printed cost icons and profit (§2.4), or a blockbuster with a cost and a profit text (§2.5).

    (A named tuple for the same reason as :class:`VoteCard`.)
    """

    id: str
    cost: tuple[int, ...] = ()
    profit: int = 0
    cost_key: str | None = None
    x: int | None = None
    n: int | None = None
    profit_key: str | None = None

    @property
    def is_text(self) -> bool:
        """True for blockbusters (cost and profit are texts evaluated at T6 and T8)."""
        return self.cost_key is not None

    @property
    def printed_icons(self) -> tuple[int, ...]:
        """PI(c): the cost icons of an icon card; X (or nothing) for a text card (R37)."""
        if self.cost_key is None:
            return self.cost
        return (self.x,) if self.x is not None else ()

    def __str__(self) -> str:
        if self.cost_key is None:
            return f"{self.id} [{', '.join(ICONS[i] for i in self.cost)}] p{self.profit}"
        param = f" X={ICONS[self.x]}" if self.x is not None else f" N={self.n}" if self.n is not None else ""
        return f"{self.id} {self.cost_key}{param} / {self.profit_key}"

    def to_json(self, title: str) -> MovieFace | BlockbusterFace:
        """Details for observations: ``cost`` icons and ``profit``, or the blockbuster keys with ``x`` and ``n``; then ``title``."""
        if self.cost_key is None:
            return {"cost": [ICONS[i] for i in self.cost], "profit": self.profit, "title": title}
        assert self.profit_key is not None, "a blockbuster has a profit text"
        return {
            "cost_key": self.cost_key,
            "x": ICONS[self.x] if self.x is not None else None,
            "n": self.n,
            "profit_key": self.profit_key,
            "title": title,
        }


_card_id = attrgetter("id")


class CardLayout(NamedTuple):
    """Where each card id sits in a catalogue, and which ids are YES, NO, CHANGE and text cards.

    It follows from the cards' ids and kinds alone, so every generated catalogue (same ids, same kinds)
    shares one; treat its maps as read-only.
    """

    hand_ids: tuple[str, ...]
    movie_ids: tuple[str, ...]
    vote_index: Mapping[str, int]
    movie_index: Mapping[str, int]
    #: The YES and the NO votes in catalogue order (the deal, §3, starts from these lists).
    yes_ids: tuple[str, ...]
    no_ids: tuple[str, ...]
    change_ids: frozenset[str]
    text_ids: frozenset[str]

    @staticmethod
    def of(hand_cards: Sequence[VoteCard], movie_cards: Sequence[MovieCard]) -> CardLayout:
        """The layout of these hand cards (votes, then CHANGE) and movie cards (movies, then blockbusters)."""
        return CardLayout.of_ids(
            tuple(map(_card_id, hand_cards)),
            tuple(map(_card_id, movie_cards)),
            [card.id for card in hand_cards if card.kind == YES],
            [card.id for card in hand_cards if card.kind == NO],
            [card.id for card in hand_cards if card.kind == CHANGE],
            [card.id for card in movie_cards if card.cost_key is not None],
        )

    @staticmethod
    def of_ids(
        hand_ids: tuple[str, ...],
        movie_ids: tuple[str, ...],
        yes_ids: Iterable[str],
        no_ids: Iterable[str],
        change_ids: Iterable[str],
        text_ids: Iterable[str],
    ) -> CardLayout:
        """The layout of cards with these ids, of which those named are YES, NO, CHANGE and text cards."""
        return CardLayout(
            hand_ids,
            movie_ids,
            {card_id: index for index, card_id in enumerate(hand_ids)},
            {card_id: index for index, card_id in enumerate(movie_ids)},
            tuple(yes_ids),
            tuple(no_ids),
            frozenset(change_ids),
            frozenset(text_ids),
        )


class Catalogue(StaticData):
    """The complete card list of one game: 60 votes, 12 CHANGE, 44 movies, 16 blockbusters, in catalogue order."""

    __slots__ = (
        "_blockbusters",
        "_details",
        "_digest",
        "_draw_blockbusters",
        "_flavour_seed",
        "_movie_index",
        "_titles",
        "_vote_index",
        "change_ids",
        "changes",
        "hand_cards",
        "layout",
        "movie_cards",
        "movies",
        "source",
        "text_ids",
        "votes",
    )

    def __init__(
        self,
        source: str,
        votes: Sequence[VoteCard],
        changes: Sequence[VoteCard],
        movies: Sequence[MovieCard],
        blockbusters: Sequence[MovieCard] | Callable[[], Sequence[MovieCard]],
        titles: Mapping[str, str] | None = None,
        flavour_seed: int | None = None,
        layout: CardLayout | None = None,
    ) -> None:
        """``blockbusters`` may be a function that draws them when first needed (with the ``layout`` given): a game
        without Blockbuster Budgets never plays one, and the generator draws them last (G4)."""
        self.source = source
        self.votes = tuple(votes)
        self.changes = tuple(changes)
        self.movies = tuple(movies)
        hand_cards = (*self.votes, *self.changes)
        self._blockbusters: tuple[MovieCard, ...] | None = None
        self._draw_blockbusters: Callable[[], Sequence[MovieCard]] | None = None
        if callable(blockbusters):
            if layout is None:
                raise ValueError("blockbusters drawn later need the catalogue's layout")
            self._draw_blockbusters = blockbusters
            movie_cards = self.movies
        else:
            self._blockbusters = tuple(blockbusters)
            movie_cards = (*self.movies, *self._blockbusters)
            if layout is None:
                layout = CardLayout.of(hand_cards, movie_cards)
        #: Every vote and CHANGE card by id, and every movie and blockbuster by id (the rules' hot loops read these
        #: maps directly instead of calling :meth:`vote` and :meth:`movie`; treat them as read-only). Blockbusters drawn
        #: later join ``movie_cards`` when drawn; a state of a game with Blockbuster Budgets draws them at once.
        self.hand_cards: Mapping[str, VoteCard] = dict(zip(layout.hand_ids, hand_cards, strict=True))
        self.movie_cards: dict[str, MovieCard] = dict(zip(layout.movie_ids, movie_cards, strict=len(movie_cards) == len(layout.movie_ids)))
        self.change_ids = layout.change_ids
        #: The movie cards whose cost and profit are texts (the blockbusters, §2.5).
        self.text_ids = layout.text_ids
        #: Positions used by the integer action codes (votes then CHANGE; movies then blockbusters).
        self._vote_index = layout.vote_index
        self._movie_index = layout.movie_index
        self.layout = layout
        self._digest: str | None = None
        self._details: dict[str, CardFace] = {}
        #: Cosmetic titles: given (data file), or drawn from the flavour stream of ``flavour_seed`` when first needed.
        self._titles: dict[str, str] | None = dict(titles) if titles is not None else None
        self._flavour_seed = flavour_seed

    @property
    def blockbusters(self) -> tuple[MovieCard, ...]:
        """The 16 blockbusters (§2.5), drawn now if they were left for later."""
        found = self._blockbusters
        if found is None:
            assert self._draw_blockbusters is not None
            found = tuple(self._draw_blockbusters())
            self.movie_cards.update(zip(self.layout.movie_ids[len(self.movies) :], found, strict=True))
            self._blockbusters = found
        return found

    @property
    def generated_from(self) -> int | None:
        """The seed a generated catalogue was drawn from (None for a catalogue read from a data file)."""
        return self._flavour_seed

    def title(self, card_id: str) -> str:
        """The cosmetic title of a movie card (no rule effect)."""
        if self._titles is None:
            if self._flavour_seed is None:
                self._titles = {}
            else:
                flavour = _Flavour(self._flavour_seed)
                self._titles = {card.id: flavour.title() for card in (*self.movies, *self.blockbusters)}
        return self._titles.get(card_id, "")

    def vote(self, card_id: str) -> VoteCard:
        """The vote or CHANGE card called ``card_id``."""
        return self.hand_cards[card_id]

    def movie(self, card_id: str) -> MovieCard:
        """The movie or blockbuster card called ``card_id``."""
        found = self.movie_cards.get(card_id)
        if found is None and self._blockbusters is None:
            self.blockbusters  # noqa: B018 - draws the blockbusters left for later
            found = self.movie_cards.get(card_id)
        if found is None:
            raise KeyError(card_id)
        return found

    def is_vote(self, card_id: str) -> bool:
        """Whether ``card_id`` is a vote or CHANGE card."""
        return card_id in self.hand_cards

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.hand_cards or card_id in self._movie_index

    def vote_index(self, card_id: str) -> int:
        """Position among the 72 hand cards (votes, then CHANGE), for action codes."""
        return self._vote_index[card_id]

    def movie_index(self, card_id: str) -> int:
        """Position among the 60 movie cards (movies, then blockbusters), for action codes."""
        return self._movie_index[card_id]

    def details(self, card_id: str) -> CardFace:
        """JSON details of any card (built once and shared: treat as read-only)."""
        found = self._details.get(card_id)
        if found is None:
            card = self.hand_cards.get(card_id)
            found = card.to_json() if card is not None else self.movie(card_id).to_json(self.title(card_id))
            self._details[card_id] = found
        return found

    def to_json(self) -> dict[str, Any]:
        """The catalogue in the §2.7 data-file format (titles included as an optional field)."""
        return {
            "votes": [{"id": c.id, "type": c.kind, "value": c.value, "icon": ICONS[c.icon]} for c in self.votes],
            "change": [{"id": c.id, "number": c.number} for c in self.changes],
            "movies": [
                {"id": m.id, "cost": [ICONS[i] for i in m.cost], "profit": m.profit, "title": self.title(m.id)} for m in self.movies
            ],
            "blockbusters": [
                {
                    "id": b.id,
                    "cost_key": b.cost_key,
                    "x": ICONS[b.x] if b.x is not None else None,
                    "n": b.n,
                    "profit_key": b.profit_key,
                    "title": self.title(b.id),
                }
                for b in self.blockbusters
            ],
        }

    def static_key(self) -> str:
        """A digest of the card contents (it names no seed, so a state never reveals its seed)."""
        if self._digest is None:
            text = json.dumps(self.to_json(), sort_keys=True)
            self._digest = "maybe-movies catalogue " + hashlib.sha256(text.encode()).hexdigest()[:24]
        return self._digest


# -- generation (§2.6) ------------------------------------------------------------------


def balanced_picks(random: Callable[[], float], margin: int) -> Iterator[int]:
    """``BP(margin)``: each pick draws among the icons whose count is within ``margin`` of the smallest count.

    Written for speed (every game generates a catalogue): an icon is out of reach only at exactly the
    limit + 1, and once the smallest count rises every icon is in reach again, so the eligible icons are
    one of 64 tuples chosen by a bit mask, and a pick is one ``U()`` from ``random`` and a few integer steps.
    """
    counts = [0] * NUM_ICONS
    low, at_low, limit, out_of_reach = 0, NUM_ICONS, margin, 0
    eligible_icons, bits = _ELIGIBLE, _BIT
    while True:
        eligible, size = eligible_icons[out_of_reach]
        icon = eligible[floor(random() * size)]
        count = counts[icon]
        counts[icon] = count + 1
        if count == low:
            at_low -= 1
            if not at_low:
                low += 1
                limit += 1
                at_low = counts.count(low)
                out_of_reach = 0
        elif count == limit:
            out_of_reach |= bits[icon]
        yield icon


#: The icons, in icon order, that are not in the bit mask of out-of-reach icons, and how many they are.
_ELIGIBLE = tuple(
    (eligible, len(eligible))
    for eligible in (tuple(icon for icon in range(NUM_ICONS) if not mask >> icon & 1) for mask in range(1 << NUM_ICONS))
)
_BIT = tuple(1 << icon for icon in range(NUM_ICONS))


#: Reference word lists for the cosmetic titles (any lists are allowed, §2.6 Flavour). No word is in two lists, and
#: together they hold far more than the 60 titled cards of a catalogue, so every card gets a title of its own.
FLAVOUR_WEIGHTS: tuple[tuple[str, float], ...] = (
    ("genre", 0.75),
    ("setting", 1.0),
    ("characters", 2.0),
    ("time period", 1.0),
    ("theme", 2.5),
)
FLAVOUR_WORDS: Mapping[str, tuple[str, ...]] = {
    "genre": (
        "Western",
        "Musical",
        "Thriller",
        "Romance",
        "Horror",
        "Heist",
        "Comedy",
        "Documentary",
        "Noir",
        "Space Opera",
        "Disaster Movie",
        "Courtroom Drama",
        "Road Movie",
        "Swashbuckler",
        "Spy Caper",
        "Monster Movie",
        "Sports Drama",
        "Fairy Tale",
    ),
    "setting": (
        "Space Station",
        "Desert Town",
        "Haunted Mansion",
        "Submarine",
        "Jungle",
        "Casino",
        "Lighthouse",
        "Museum",
        "Night Train",
        "Floating City",
        "Ghost Ship",
        "Ski Resort",
        "Opera House",
        "Bamboo Forest",
        "Moon Base",
        "Roadside Diner",
        "Island Prison",
        "Circus Tent",
        "Sunken Temple",
        "Rooftop Garden",
        "Frozen Harbour",
        "Grand Hotel",
        "Volcano Lab",
        "Drive-In",
        "Old Mill",
        "Rainy Metropolis",
        "Vineyard",
        "Airship",
        "Salt Flats",
    ),
    "characters": (
        "Two Detectives",
        "A Lonely Robot",
        "Rival Chefs",
        "The Last Pirate",
        "A Talking Dog",
        "Twin Sisters",
        "An Old Wizard",
        "A Retired Spy",
        "Three Grandmothers",
        "The Understudy",
        "A Runaway Bride",
        "The Night Nurse",
        "A Clumsy Knight",
        "Feuding Neighbours",
        "The Lock Keeper",
        "A Forgetful Genius",
        "Two Astronauts",
        "The New Sheriff",
        "A Stray Cat",
        "The Substitute Teacher",
        "A Jazz Trio",
        "The Mapmaker",
        "Rival Magicians",
        "A Reluctant Hero",
        "The Ghost Writer",
        "An Alien Tourist",
        "A Sleepy Dragon",
        "A Brave Postman",
        "Four Siblings",
        "The Stunt Double",
        "A Gentle Giant",
        "The Queen's Cook",
        "Five Cousins",
        "A Lost Penguin",
        "The Night Watchman",
        "A Young Inventor",
        "The Impostor",
        "Two Old Friends",
        "A Rookie Pilot",
        "The Wedding Band",
    ),
    "time period": (
        "The Roaring Twenties",
        "The Ice Age",
        "Ancient Rome",
        "The Far Future",
        "The Eighties",
        "Medieval Times",
        "The Gold Rush",
        "The Jazz Age",
        "The Stone Age",
        "The Space Race",
        "The Sixties",
        "Victorian London",
        "The Wild West",
        "Ancient Egypt",
        "The Renaissance",
        "The Year 3000",
        "The Silent Era",
        "The Disco Years",
        "The Age of Sail",
        "The Long Winter",
    ),
    "theme": (
        "Revenge",
        "First Love",
        "Betrayal",
        "Coming of Age",
        "Redemption",
        "Survival",
        "Friendship",
        "Ambition",
        "Forgiveness",
        "Second Chances",
        "Lost and Found",
        "The Long Way Home",
        "Sacrifice",
        "Greed",
        "Loyalty",
        "Homecoming",
        "Jealousy",
        "A Fresh Start",
        "The Big Lie",
        "Family Secrets",
        "Courage",
        "Obsession",
        "Stolen Dreams",
        "Broken Promises",
        "Hope",
        "Rivalry",
        "Temptation",
        "Belonging",
        "Grief",
        "Wonder",
        "Forbidden Love",
        "One Last Job",
        "Justice",
        "Freedom",
        "Pride",
        "Regret",
        "Trust",
        "Destiny",
        "Identity",
        "Payback",
        "Innocence Lost",
        "Old Scores",
        "New Beginnings",
        "The Truth",
        "Roots",
    ),
}
#: The titled cards of a catalogue: movies and blockbusters (§2.6 Flavour).
NUM_TITLED = NUM_MOVIES + NUM_BLOCKBUSTERS


def title_key(title: str) -> str:
    """What makes two titles the same to a reader: case, spaces and a blockbuster's star in front do not count.

    >>> title_key("  ★ Redemption ") == title_key("redemption")
    True
    """
    return " ".join(title.replace("★", " ").split()).casefold()


class _Flavour:
    """Cosmetic titles from the flavour stream: a weighted category, then the next word of its shuffled list.

    A word already given in this catalogue is passed over (§2.6: no two cards share a title): each list is shuffled
    once, and a category whose list is used up drops out of the draw, its weight shared by the others.
    """

    def __init__(self, seed: int) -> None:
        self.rng = flavour_stream(seed)
        self.decks: dict[str, list[str]] = {}

    def title(self) -> str:
        categories = [(name, weight) for name, weight in FLAVOUR_WEIGHTS if self.decks.get(name, True)]
        if not categories:
            raise ValueError("the flavour word lists hold fewer words than the catalogue has titled cards")
        total = sum(weight for _, weight in categories)
        point = real_in(self.rng, 0.0, total)
        category = categories[-1][0]
        for name, weight in categories:
            if point < weight:
                category = name
                break
            point -= weight
        deck = self.decks.get(category)
        if deck is None:
            deck = self.decks[category] = list(FLAVOUR_WORDS[category])
            shuffle(self.rng, deck)
        return deck.pop()


def _check_flavour_words() -> None:
    """The lists give every titled card its own title: no word twice, and enough of them (checked at import)."""
    words = [title_key(word) for category in FLAVOUR_WORDS.values() for word in category]
    if len(set(words)) != len(words) or len(words) < NUM_TITLED:
        raise ValueError("the flavour word lists must hold at least 60 different words")


_check_flavour_words()


@lru_cache(maxsize=32)
def generate_catalogue(seed: int) -> Catalogue:
    """G1-G4 on the deck stream of ``seed``, draw for draw as §2.6 prescribes (titles from the flavour stream).

    Every game of a random playout generates its catalogue, so the primitives of ``chance`` (``int_in``,
    ``pick``, ``real_in``, ``round_half_up``) are written out here.
    """
    rng = deck_stream(seed)
    random = rng.random
    # G1 votes, YES and NO in turn: the value (YES 2-4, NO 1-2: int_in) is drawn before the icon.
    pick_icon = balanced_picks(random, 1).__next__
    votes = [cards[floor(random() * values) * NUM_ICONS + pick_icon()] for cards, values in _GENERATED_VOTES]
    # G2 CHANGE: no randomness.
    changes = _CHANGE_CARDS
    # G3 movies: 46 icon counts (the last two are never used), then per movie its icons and its profit.
    counts = [1] * 27 + [2] * 14 + [3] * 5
    shuffle(rng, counts)
    pick_icon = balanced_picks(random, 3).__next__
    movies: list[MovieCard] = []
    add_movie = movies.append
    low, width = _PROFIT_FACTOR_LOW, _PROFIT_FACTOR_WIDTH
    for card_id, n in zip(_MOVIE_IDS, counts, strict=False):  # the last two counts are never used
        icons = (pick_icon(),) if n == 1 else (pick_icon(), pick_icon()) if n == 2 else (pick_icon(), pick_icon(), pick_icon())
        m = low + width * random()  # real_in(0.66, 1.75)
        # round_half_up(n * m), clamped to 1-5 by §2.6; with n from 1 to 3 and m in [0.66, 1.75) it is already 1-5.
        add_movie(_new_card(MovieCard, (card_id, icons, floor(n * m + 0.5), None, None, None, None)))
    # G4 is drawn when the blockbusters are first needed, from a copy of the stream as it is now (nothing else
    # draws from it), so a game without Blockbuster Budgets never pays for it.
    blockbusters = partial(_draw_blockbusters, rng)
    return Catalogue("generated", votes, changes, movies, blockbusters, flavour_seed=seed, layout=_GENERATED_LAYOUT)


def _draw_blockbusters(rng: Stream) -> list[MovieCard]:
    """G4 on a copy of ``rng`` (the deck stream after G3): per blockbuster, in this exact order, cost key, X, N, profit key."""
    random = rng.copy().random
    pick_icon = balanced_picks(random, 1).__next__
    blockbusters: list[MovieCard] = []
    for card_id in _BLOCKBUSTER_IDS:
        cost_key = COST_KEYS[floor(random() * len(COST_KEYS))]
        x = pick_icon() if cost_key in X_KEYS else None
        n_param = 1 + floor(random() * 3) if cost_key in N_KEYS else None
        profit_key = PROFIT_KEYS[floor(random() * len(PROFIT_KEYS))]
        blockbusters.append(_new_card(MovieCard, (card_id, (), 0, cost_key, x, n_param, profit_key)))
    return blockbusters


_PROFIT_FACTOR_LOW = 0.66
_PROFIT_FACTOR_WIDTH = 1.75 - 0.66  # real_in computes the width first
_MOVIE_IDS = tuple(f"M{k:02d}" for k in range(1, NUM_MOVIES + 1))
_BLOCKBUSTER_IDS = tuple(f"B{k:02d}" for k in range(1, NUM_BLOCKBUSTERS + 1))
_CHANGE_CARDS = tuple(VoteCard(f"C{n:02d}", CHANGE, number=n) for n in range(1, NUM_CHANGE + 1))
#: Builds a card from all its fields in order: what ``MovieCard(...)`` does, without its keyword handling (half the cost).
_new_card = tuple.__new__
#: Every vote G1 can make, shared by all generated catalogues, in catalogue order (YES and NO in turn): the cards
#: the vote can be, the card of value ``low + v`` and icon i at ``v * NUM_ICONS + i``, and how many values it has.
_VOTE_SIDES: tuple[tuple[str, VoteKind, tuple[int, ...]], ...] = (("Y", YES, (2, 3, 4)), ("N", NO, (1, 2)))
_GENERATED_VOTES = tuple(
    (tuple(VoteCard(f"{letter}{k:02d}", kind, value, icon) for value in values for icon in range(NUM_ICONS)), len(values))
    for k in range(1, NUM_VOTES // 2 + 1)
    for letter, kind, values in _VOTE_SIDES
)
_GENERATED_LAYOUT = CardLayout.of_ids(
    tuple(cards[0].id for cards, _ in _GENERATED_VOTES) + tuple(map(_card_id, _CHANGE_CARDS)),
    _MOVIE_IDS + _BLOCKBUSTER_IDS,
    [cards[0].id for cards, _ in _GENERATED_VOTES if cards[0].kind == YES],
    [cards[0].id for cards, _ in _GENERATED_VOTES if cards[0].kind == NO],
    map(_card_id, _CHANGE_CARDS),
    _BLOCKBUSTER_IDS,
)


# -- fixed catalogue from a data file (§2.7) ----------------------------------------------


def _id_check(value: Any) -> str | None:
    if not _ID_PATTERN.match(value) or value == "-":
        return "an id uses only letters, digits and _ (it is typed in actions)"
    return None


def _cost_check(value: Any) -> str | None:
    if not 1 <= len(value) <= 3:
        return f"a movie card shows 1 to 3 cost icons, got {len(value)}"
    return None


VOTE_FIELDS = (
    FieldSpec("id", "str", check=_id_check),
    FieldSpec("type", "str", choices=(YES, NO)),
    FieldSpec("value", "int", minimum=1, maximum=4),
    FieldSpec("icon", "str", choices=ICONS),
)
CHANGE_FIELDS = (FieldSpec("id", "str", check=_id_check), FieldSpec("number", "int", minimum=1, maximum=NUM_CHANGE))
MOVIE_FIELDS = (
    FieldSpec("id", "str", check=_id_check),
    FieldSpec("cost", "list[str]", choices=ICONS, check=_cost_check),
    FieldSpec("profit", "int", minimum=1, maximum=5),
    FieldSpec("title", "str", required=False, default=""),
)
BLOCKBUSTER_FIELDS = (
    FieldSpec("id", "str", check=_id_check),
    FieldSpec("cost_key", "str", choices=COST_KEYS),
    FieldSpec("x", "str", choices=ICONS, nullable=True, required=False),
    FieldSpec("n", "int", minimum=1, maximum=3, nullable=True, required=False),
    FieldSpec("profit_key", "str", choices=PROFIT_KEYS),
    FieldSpec("title", "str", required=False, default=""),
)


def load_catalogue(path: str | Path) -> Catalogue:
    """Load and validate a fixed catalogue (§2.7); a problem raises DataError naming file, card and field."""
    return _load_cached(str(Path(path).resolve()), DATA.fingerprint(path))


#: A fixed catalogue's four lists (§2.7): a JSON or TOML file, a workbook with a sheet per list, or a folder of one file
#: per list (``votes.csv``, ...). Without one, every game generates its own catalogue from its seed.
DATA = DataSet(
    "Maybe Movies",
    (
        DataTable("votes", "votes", VOTE_FIELDS, what="vote", type_field="type", tune="value"),
        DataTable("change", "change", CHANGE_FIELDS, what="CHANGE card", card_type="CHANGE"),
        DataTable("movies", "movies", MOVIE_FIELDS, what="movie", card_type="movie", tune="profit"),
        DataTable("blockbusters", "blockbusters", BLOCKBUSTER_FIELDS, what="blockbuster", card_type="blockbuster"),
    ),
    EXAMPLE_CATALOGUE,
    folder=False,
    bundled_is_default=False,
)


@cache
def _load_cached(file: str, fingerprint: tuple[tuple[str, int, int], ...]) -> Catalogue:
    sources = DATA.locate(file)
    vote_rows = sources["votes"].read()
    change_rows = sources["change"].read()
    movie_rows = sources["movies"].read()
    blockbuster_rows = sources["blockbusters"].read()

    votes: list[VoteCard] = []
    for row in vote_rows:
        low, high = (2, 4) if row["type"] == YES else (1, 2)
        require(
            low <= row["value"] <= high,
            file,
            row["id"],
            "value",
            f"a {row['type']} vote has a value from {low} to {high}, got {row['value']}",
        )
        votes.append(VoteCard(row["id"], row["type"], row["value"], ICON_INDEX[row["icon"]]))
    yes_count = sum(1 for card in votes if card.kind == YES)
    require(yes_count == 30, file, None, "votes", f"there must be exactly 30 YES votes, found {yes_count}")
    require(len(votes) - yes_count == 30, file, None, "votes", f"there must be exactly 30 NO votes, found {len(votes) - yes_count}")

    require(
        len(change_rows) == NUM_CHANGE, file, None, "change", f"there must be exactly {NUM_CHANGE} CHANGE cards, found {len(change_rows)}"
    )
    numbers = sorted(row["number"] for row in change_rows)
    require(numbers == list(range(1, NUM_CHANGE + 1)), file, None, "change", "the CHANGE numbers must be 1 to 12, each exactly once")
    changes = [VoteCard(row["id"], CHANGE, number=row["number"]) for row in change_rows]

    require(len(movie_rows) == NUM_MOVIES, file, None, "movies", f"there must be exactly {NUM_MOVIES} movie cards, found {len(movie_rows)}")
    movies = [MovieCard(row["id"], tuple(ICON_INDEX[icon] for icon in row["cost"]), row["profit"]) for row in movie_rows]

    count = len(blockbuster_rows)
    require(count == NUM_BLOCKBUSTERS, file, None, "blockbusters", f"there must be exactly {NUM_BLOCKBUSTERS} blockbusters, found {count}")
    blockbusters: list[MovieCard] = []
    for row in blockbuster_rows:
        key = row["cost_key"]
        if key in X_KEYS:
            require(row["x"] is not None, file, row["id"], "x", f"cost key {key} needs an icon X")
        else:
            require(row["x"] is None, file, row["id"], "x", f"cost key {key} takes no icon X; use null")
        if key in N_KEYS:
            require(row["n"] is not None, file, row["id"], "n", f"cost key {key} needs a number N from 1 to 3")
        else:
            require(row["n"] is None, file, row["id"], "n", f"cost key {key} takes no number N; use null")
        x = ICON_INDEX[row["x"]] if row["x"] is not None else None
        blockbusters.append(MovieCard(row["id"], cost_key=key, x=x, n=row["n"], profit_key=row["profit_key"]))

    seen: dict[str, str] = {}
    for what, cards in (("votes", votes), ("change", changes), ("movies", movies), ("blockbusters", blockbusters)):
        for card in cards:
            if card.id in seen:
                raise DataError(file, card.id, "id", f"the id is used twice (in {seen[card.id]} and {what}); every card needs its own")
            seen[card.id] = what
    titles = {row["id"]: row["title"] for row in (*movie_rows, *blockbuster_rows)}
    _require_own_titles(file, movie_rows, blockbuster_rows)
    return Catalogue(file, votes, changes, movies, blockbusters, titles=titles)


def untitled_name(kind: Literal["movie", "blockbuster"], index: int) -> str:
    """What a card of a data file without a title is called: ``Movie 12``, ``Blockbuster 3`` (its place in its list)."""
    return f"{'Movie' if kind == 'movie' else 'Blockbuster'} {index}"


def _require_own_titles(file: str, movie_rows: Sequence[Mapping[str, Any]], blockbuster_rows: Sequence[Mapping[str, Any]]) -> None:
    """§2.6: no two cards of a catalogue share a title (players name cards by their titles), counting the names
    untitled cards get; a DataError names the card and the one whose title it repeats."""
    seen: dict[str, str] = {}
    lists: tuple[tuple[Literal["movie", "blockbuster"], Sequence[Mapping[str, Any]]], ...] = (
        ("movie", movie_rows),
        ("blockbuster", blockbuster_rows),
    )
    for kind, rows in lists:
        for index, row in enumerate(rows, start=1):
            name = row["title"] or untitled_name(kind, index)
            key = title_key(name)
            if key in seen:
                raise DataError(
                    file, row["id"], "title", f"{name!r} is also the title of {seen[key]}; every movie and blockbuster needs its own"
                )
            seen[key] = str(row["id"])


def catalogue_for(deck: object, seed: int) -> Catalogue:
    """The catalogue a game uses: the file named by the ``deck`` option, else the one generated from ``seed``."""
    if deck:
        return load_catalogue(str(deck))
    return generate_catalogue(seed)
