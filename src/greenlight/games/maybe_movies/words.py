"""Player words for Maybe Movies: every card's face, the blockbuster texts as printed, and the small phrases
the view layer builds its sentences from (budgets, votes, the success check worked out, the payout).

Everything a person reads (terminal, web, logs) is built here or in :mod:`view` from these pieces, so a
card is always called the same way. Card codes (``M12``, ``Y05``) appear only beside a card's name, where
a terminal player must type something short (:func:`CatalogueWords.title`).

>>> from greenlight.games.maybe_movies.cards import generate_catalogue
>>> words = catalogue_words(generate_catalogue(0))
>>> words.name("Y01"), words.name("C03")
('YES actors 4', 'CHANGE 3')
>>> words.face("M03")
'costs actors and money, profit 2'
>>> counts_words([2, 0, 0, 0, 1, 0], any_units=2)
'2 money, 1 camera and 2 icons of any kind'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from greenlight.core.words import Component
from greenlight.games.maybe_movies.cards import CHANGE, ICONS, YES, Catalogue, MovieCard, VoteCard, untitled_name
from greenlight.games.maybe_movies.observation import (
    BlockbusterDetails,
    CardDetails,
    ChangeDetails,
    Check,
    IconCounts,
    MovieDetails,
    VoteDetails,
)

#: The six icons in icon order, as players call them (the same words as the data files: money, actors, ...).
ICON_WORDS: tuple[str, ...] = ICONS

#: Blockbuster cost texts as printed on the cards (the designer's wording, with the card's icon or number filled in).
COST_TEXTS: dict[str, str] = {
    "copycat_most_neighbor": "Copies the cost of the neighbouring card with the most icons.",
    "copycat_least_neighbor": "Copies the cost of the neighbouring card with the fewest icons.",
    "num_yes_votes": "Costs as many {icon} as the number of YES votes.",
    "num_no_votes": "Costs as many {icon} as the number of NO votes.",
    "pitch_size": "Costs as many {icon} as the number of cards in the pitch.",
    "pitch_size_conditional": "Costs 2 {icon}, unless the pitch contains more than 3 cards.",
    "match_cost": "Costs 3 {icon}, only if the pitch matches a movie made.",
    "match_no_cost": "Costs 2 {icon}, only if the pitch does not match a movie made.",
    "wildcard_cost": "Costs {count} of any icon.",
    "wildcard_cost_conditional": "Costs {count} of any icon, unless the pitch contains every possible icon.",
    "unanimous_vote": "Costs 4 {icon}, unless everyone votes the same.",
    "copycat_most_icon": "Costs 2 of the icon that occurs the most in this pitch.",
    "copycat_least_icon": "Costs 2 of the icon that occurs the least in this pitch.",
    "num_changes": "Costs 1 of any icon for each time the pitch changed this turn.",
}
#: Blockbuster profit texts as printed on the cards.
PROFIT_TEXTS: dict[str, str] = {
    "copycat_most_neighbor": "Copies the profit of the neighbouring card with the highest profit.",
    "copycat_least_neighbor": "Copies the profit of the neighbouring card with the smallest profit.",
    "num_yes_votes": "Yields the number of YES votes.",
    "num_no_votes": "Yields the number of NO votes.",
    "pitch_size": "Yields the number of cards in the pitch.",
    "pitch_size_conditional": "Yields 3 votes, unless the pitch contains fewer than 3 cards.",
    "match_reward": "Yields 4 votes, only if the pitch matches a movie made.",
    "match_no_reward": "Yields 3 votes, only if the pitch does not match a movie made.",
    "wildcard_profit": "Yields 1, 2 or 3 votes: the pitching player decides.",
    "wildcard_profit_conditional": "Yields 5 votes if the pitch contains every possible icon, 1 otherwise.",
    "unanimous_profit": "Yields 5 votes, but only if everyone votes the same.",
    "copycat_most": "Copies the profit of the most expensive other card in this pitch.",
    "copycat_least": "Copies the profit of the least expensive other card in this pitch.",
    "num_changes": "Yields 1 vote for each time the pitch changed this turn.",
}
#: Short forms of the cost texts, for card chips and one-line lists.
COST_SHORT: dict[str, str] = {
    "copycat_most_neighbor": "as the neighbour with most icons",
    "copycat_least_neighbor": "as the neighbour with fewest icons",
    "num_yes_votes": "{one} per YES vote",
    "num_no_votes": "{one} per NO vote",
    "pitch_size": "{one} per card in the pitch",
    "pitch_size_conditional": "2 {icon}, free with 4 or more cards",
    "match_cost": "3 {icon} if the pitch matches a movie made",
    "match_no_cost": "2 {icon} if the pitch matches no movie made",
    "wildcard_cost": "{count} of any icon",
    "wildcard_cost_conditional": "{count} of any icon, free with all six icons",
    "unanimous_vote": "4 {icon}, free if everyone votes the same",
    "copycat_most_icon": "2 of the pitch's most common icon",
    "copycat_least_icon": "2 of the pitch's rarest icon",
    "num_changes": "1 of any icon per change",
}
PROFIT_SHORT: dict[str, str] = {
    "copycat_most_neighbor": "as the richer neighbour",
    "copycat_least_neighbor": "as the poorer neighbour",
    "num_yes_votes": "1 per YES vote",
    "num_no_votes": "1 per NO vote",
    "pitch_size": "1 per card in the pitch",
    "pitch_size_conditional": "3 with 3 or more cards",
    "match_reward": "4 if the pitch matches a movie made",
    "match_no_reward": "3 if the pitch matches no movie made",
    "wildcard_profit": "1, 2 or 3, the pitcher decides",
    "wildcard_profit_conditional": "5 with all six icons, else 1",
    "unanimous_profit": "5 if everyone votes the same",
    "copycat_most": "as the most expensive other card",
    "copycat_least": "as the cheapest other card",
    "num_changes": "1 per change",
}


# -- small phrases ------------------------------------------------------------------------------------


def join_words(items: Iterable[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    parts = [item for item in items if item]
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return f"{', '.join(parts[:-1])} {last} {parts[-1]}"


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 card``, ``3 cards``."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def icon_count(count: int, icon: int) -> str:
    """``2 actors``, ``1 actor``, ``3 money``: a number of one icon (its name is a plural only for actors).

    >>> icon_count(1, ICONS.index("actors")), icon_count(2, ICONS.index("actors")), icon_count(1, ICONS.index("money"))
    ('1 actor', '2 actors', '1 money')
    """
    name = ICONS[icon]
    return f"{count} {name[:-1] if count == 1 and name == 'actors' else name}"


def counts_words(counts: Sequence[int] | IconCounts, any_units: int = 0, empty: str = "nothing") -> str:
    """Icon counts in icon order as words: ``2 money, 1 camera and 2 icons of any kind``."""
    values = [counts[icon] for icon in ICONS] if isinstance(counts, dict) else list(counts)
    parts = [icon_count(count, i) for i, count in enumerate(values) if count]
    if any_units:
        parts.append(plural(any_units, "icon of any kind", "icons of any kind"))
    return join_words(parts) or empty


def score_words(won_by_icon: Sequence[int], made_icons: Sequence[int]) -> str:
    """How a seat's score adds up (§5.2), in one sentence: each won vote card scores 1 point per movie made showing its
    icon, so the biggest piles of the icons most shown win.

    >>> score_words([2, 0, 0, 0, 1, 1], [4, 1, 0, 2, 3, 0])
    '11 points from 4 won vote cards: 2 money x 4 on the movies made = 8, 1 camera x 3 = 3 and 1 microphone x 0 = 0.'
    """
    cards = sum(won_by_icon)
    if not cards:
        return "0 points: no vote card won."
    total = sum(count * made for count, made in zip(won_by_icon, made_icons, strict=True))
    parts = [(count * made_icons[icon], icon) for icon, count in enumerate(won_by_icon) if count]
    parts.sort(key=lambda item: (-item[0], item[1]))  # the biggest share of the score first
    terms = [
        f"{icon_count(won_by_icon[icon], icon)} x {made_icons[icon]}{' on the movies made' if index == 0 else ''} = {points}"
        for index, (points, icon) in enumerate(parts)
    ]
    return f"{plural(total, 'point')} from {plural(cards, 'won vote card')}: {join_words(terms)}."


def signed_words(net: Sequence[int], empty: str = "nothing") -> str:
    """A vote total per icon with signs: ``camera +3, script -1``."""
    parts = [f"{ICONS[i]} {'+' if value > 0 else '-'}{abs(value)}" for i, value in enumerate(net) if value]
    return ", ".join(parts) or empty


def icons_list(icons: Sequence[int]) -> str:
    """Printed icons as words: ``actors and money`` (repeats kept: ``camera and camera``)."""
    return join_words(ICONS[icon] for icon in icons)


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


# -- the cards ------------------------------------------------------------------------------------------


def cost_text(card: MovieCard) -> str:
    """A blockbuster's cost text as printed, with its icon or number filled in."""
    assert card.cost_key is not None
    icon = ICONS[card.x] if card.x is not None else ""
    return COST_TEXTS[card.cost_key].format(icon=icon, count=card.n or 0)


def profit_text(card: MovieCard) -> str:
    """A blockbuster's profit text as printed."""
    assert card.profit_key is not None
    return PROFIT_TEXTS[card.profit_key]


def _short_cost(card: MovieCard) -> str:
    assert card.cost_key is not None
    icon = ICONS[card.x] if card.x is not None else ""
    one = icon_count(1, card.x) if card.x is not None else ""
    return COST_SHORT[card.cost_key].format(icon=icon, one=one, count=card.n or 0)


def _vote_text(card: VoteCard) -> str:
    icon = ICONS[card.icon]
    value = icon_count(card.value, card.icon)
    if card.kind == YES:
        played = f"Played, it adds {value} to the votes on a pitch."
    else:
        played = f"Played, it takes {value} off the votes on a pitch; if the pitch fails you win it back (unless every vote is NO)."
    scores = f"Once won it scores 1 point for every {icon} icon on the movies made, whatever its value."
    return f"A {card.kind} vote showing {value}. {played} {scores}"


def _change_text(card: VoteCard) -> str:
    return (
        f"Breaking Changes. Vote it instead of a YES or NO card: after the reveal you change the pitch (remove one card "
        f"and/or add one of your personal movie cards), lower numbers first; this one is number {card.number}. "
        "Then every other vote goes back to its owner's hand and everyone votes again. It leaves the game once played and never scores."
    )


def _movie_text(card: MovieCard) -> str:
    return (
        f"Costs {icons_list(card.cost)}: the votes must bring {'this icon' if len(card.cost) == 1 else 'these icons'}. "
        f"Profit {card.profit}: a success collects {plural(card.profit, 'vote')} to share. "
        f"In the movies made it shows {icons_list(card.cost)}."
    )


def _blockbuster_text(card: MovieCard) -> str:
    shows = f"In the movies made it shows {ICONS[card.x]}." if card.x is not None else "In the movies made it shows no icon."
    return f"Blockbuster. Cost: {cost_text(card)} Profit: {profit_text(card)} {shows}"


class CatalogueWords:
    """The words of one catalogue's cards: names, faces (short), full texts and the components list."""

    def __init__(self, table: Catalogue) -> None:
        self.table = table
        self._names: dict[str, str] = {}
        self._faces: dict[str, str] = {}
        self._texts: dict[str, str] = {}
        self._kinds: dict[str, str] = {}
        self._details: dict[str, CardDetails] = {}
        for card in (*table.votes, *table.changes):
            if card.kind == CHANGE:
                self._add(card.id, "CHANGE card", f"CHANGE {card.number}", f"CHANGE {card.number}", _change_text(card))
            else:
                name = f"{card.kind} {ICONS[card.icon]} {card.value}"
                self._add(card.id, "vote card", name, name, _vote_text(card))
        for index, movie in enumerate(table.movies, start=1):
            name = table.title(movie.id) or untitled_name("movie", index)
            self._add(movie.id, "movie card", name, f"costs {icons_list(movie.cost)}, profit {movie.profit}", _movie_text(movie))
        for index, movie in enumerate(table.blockbusters, start=1):
            name = table.title(movie.id) or untitled_name("blockbuster", index)
            assert movie.profit_key is not None
            face = f"blockbuster, cost: {_short_cost(movie)}; profit: {PROFIT_SHORT[movie.profit_key]}"
            self._add(movie.id, "blockbuster card", name, face, _blockbuster_text(movie))
        # Names two different cards share (a designer's catalogue may repeat a title): only these need their code.
        faces: dict[str, set[str]] = {}
        for card_id, name in self._names.items():
            faces.setdefault(name, set()).add(self._faces[card_id])
        self._shared = {name for name, seen in faces.items() if len(seen) > 1}

    def _add(self, card_id: str, kind: str, name: str, face: str, text: str) -> None:
        self._kinds[card_id] = kind
        self._names[card_id] = name
        self._faces[card_id] = face
        self._texts[card_id] = text

    def name(self, card_id: str) -> str:
        """The card's name: ``YES camera 3``, ``CHANGE 5``, a movie's title (``Movie 12`` without one)."""
        return self._names.get(card_id, card_id)

    def face(self, card_id: str) -> str:
        """What the card shows, short: ``costs actors and money, profit 2``."""
        return self._faces.get(card_id, "")

    def text(self, card_id: str) -> str:
        """The card in full sentences."""
        return self._texts.get(card_id, "")

    def kind(self, card_id: str) -> str:
        """``vote card``, ``CHANGE card``, ``movie card`` or ``blockbuster card``."""
        return self._kinds.get(card_id, "card")

    def is_movie(self, card_id: str) -> bool:
        """Whether the card goes into pitches (a movie or blockbuster card)."""
        return self._kinds.get(card_id) in ("movie card", "blockbuster card")

    def title(self, card_id: str) -> str:
        """The card's name in a sentence: ``Revenge``; with its code (``Revenge (M12)``) only when a different card has
        the same name, so the two are told apart (cards of one name and face are alike: either one is the same move)."""
        name = self.name(card_id)
        return f"{name} ({card_id})" if name in self._shared and name != card_id else name

    def label(self, card_id: str) -> str:
        """A movie card by name with its face (``Revenge (costs money, profit 1)``); a vote by its name."""
        if self.is_movie(card_id):
            return f"{self.name(card_id)} ({self.face(card_id)})"
        return self.name(card_id)

    def names(self, cards: Iterable[str], empty: str = "nothing") -> str:
        """Card names joined as words."""
        return join_words(self.name(card) for card in cards) or empty

    def labels(self, cards: Iterable[str], empty: str = "nothing") -> str:
        """Cards with their faces, joined with semicolons."""
        return "; ".join(self.label(card) for card in cards) or empty

    def details(self, card_id: str) -> CardDetails:
        """The card's observation details with its words added (``name``, ``face``; a blockbuster's printed texts).

        The full ``text`` is left out to keep views small: clients have it from the components.

        Built once and shared between observations: treat as read-only.
        """
        found = self._details.get(card_id)
        if found is None:
            found = self._details[card_id] = self._card_details(card_id)
        return found

    def _card_details(self, card_id: str) -> CardDetails:
        """The catalogue's details of the card, then its ``name`` and ``face`` (and a blockbuster's printed texts)."""
        printed = self.table.details(card_id)
        name, face = self.name(card_id), self.face(card_id)
        if "type" in printed:
            if printed["type"] == CHANGE:
                change: ChangeDetails = {"type": printed["type"], "number": printed["number"], "name": name, "face": face}
                return change
            vote: VoteDetails = {"type": printed["type"], "icon": printed["icon"], "value": printed["value"], "name": name, "face": face}
            return vote
        if "cost" in printed:
            movie: MovieDetails = {
                "cost": printed["cost"],
                "profit": printed["profit"],
                "title": printed["title"],
                "name": name,
                "face": face,
            }
            return movie
        card = self.table.movie(card_id)
        assert card.profit_key is not None, "a blockbuster has a profit text"
        blockbuster: BlockbusterDetails = {
            "cost_key": printed["cost_key"],
            "x": printed["x"],
            "n": printed["n"],
            "profit_key": printed["profit_key"],
            "title": printed["title"],
            "name": name,
            "face": face,
            "cost_words": cost_text(card),
            "profit_words": profit_text(card),
            "cost_short": f"Cost: {_short_cost(card)}",
            "profit_short": f"Profit: {PROFIT_SHORT[card.profit_key]}",
        }
        return blockbuster

    def components(self) -> list[Component]:
        """Every card of the catalogue as a printed component, in catalogue order."""
        table = self.table
        ids = [card.id for card in (*table.votes, *table.changes)] + [card.id for card in (*table.movies, *table.blockbusters)]
        return [Component(self._kinds[card], card, self._names[card], self._texts[card]) for card in ids]


_CACHE: dict[str, CatalogueWords] = {}


def catalogue_words(table: Catalogue) -> CatalogueWords:
    """The words of ``table``'s cards (built once per catalogue content)."""
    key = table.static_key()
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > 256:
            _CACHE.clear()
        found = _CACHE[key] = CatalogueWords(table)
    return found


# -- the success check worked out (§4.4) ------------------------------------------------------------------


def check_sentences(check: Check) -> list[str]:
    """The success check of a final vote, step by step, in words (from the ``check`` of an observation)."""
    need, net = check["need"], check["net"]
    shortfall, surplus = check["shortfall"], check["surplus"]
    missing, spare, wildcards, any_units = check["D"], check["S"], check["W"], check["A"]
    lines = [
        f"The pitch needs {counts_words(need, any_units)}.",
        f"The votes bring {signed_words(net)}.",
    ]
    if missing:
        lines.append(f"Missing: {counts_words(shortfall)} ({plural(missing, 'icon')} in all).")
    else:
        lines.append("Every needed icon is covered.")
    if spare and missing:
        lines.append(
            f"Spare icons: {counts_words(surplus)}, which make {plural(wildcards, 'wildcard')} "
            "(2 spare icons of one kind stand in for 1 missing icon)."
        )
    elif spare:
        lines.append(f"Spare icons: {counts_words(surplus)}.")
    success = check["result"] == "SUCCESS"
    if any_units:
        left = spare - 2 * missing
        lines.append(
            f"The {plural(any_units, 'icon of any kind', 'icons of any kind')} must be paid with spare icons left after "
            f"the wildcards: {max(left, 0)} left."
        )
    if success:
        lines.append("The pitch SUCCEEDS.")
    elif wildcards < missing:
        cover = f"{plural(wildcards, 'wildcard')} cannot" if wildcards else "no wildcard can"
        lines.append(f"The pitch FAILS: {cover} cover {plural(missing, 'missing icon')}.")
    else:
        lines.append(f"The pitch FAILS: the spare icons cannot also pay the {plural(any_units, 'icon of any kind', 'icons of any kind')}.")
    return lines


def check_summary(check: Check) -> str:
    """The check in one sentence."""
    missing, wildcards, any_units = check["D"], check["W"], check["A"]
    if check["result"] == "SUCCESS":
        if not missing:
            return "The pitch succeeds: the votes bring every needed icon."
        return f"The pitch succeeds: {plural(wildcards, 'wildcard')} cover the {plural(missing, 'missing icon')}."
    if wildcards < missing:
        made = f"make only {plural(wildcards, 'wildcard')}" if wildcards else "make no wildcard"
        return f"The pitch fails: {plural(missing, 'icon')} missing and the spare icons {made}."
    return f"The pitch fails: too few spare icons are left for the {plural(any_units, 'icon of any kind', 'icons of any kind')}."


def share_words(collected: int, voters: int) -> str:
    """How ``collected`` cards would be shared, for 1 .. ``voters`` YES-voters (§4.5 step 4).

    >>> share_words(1, 2)
    '1 YES-voter: the card to them; 2 YES-voters: the card to the pitching player; no YES-voter: the card to the pitching player'
    """
    if collected <= 0:
        return "nothing is collected, so nobody wins a card"
    parts = []
    # "all 3", but "the card" when one is collected ("all 1" reads as a slip).
    every = "the card" if collected == 1 else f"all {collected}"
    for yes in range(1, voters + 1):
        each, rest = divmod(collected, yes)
        who = "1 YES-voter" if yes == 1 else f"{yes} YES-voters"
        if each == 0:
            more = f"{yes} or more YES-voters" if yes < voters else who
            parts.append(f"{more}: {every} to the pitching player")
            break
        if yes == 1:
            parts.append(f"{who}: {every} to them")
        elif rest:
            parts.append(f"{who}: {each} each and {rest} more to the pitching player")
        else:
            parts.append(f"{who}: {each} each")
    parts.append(f"no YES-voter: {every} to the pitching player")
    return "; ".join(parts)


ICON_LEGEND = (
    "Icons: money, actors, script, setting, camera and microphone. A movie card's cost lists the icons the votes must bring; "
    "its profit is how many vote cards a success collects and shares out. A vote card shows YES or NO, one icon and a value."
)
