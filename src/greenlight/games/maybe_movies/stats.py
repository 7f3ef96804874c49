"""Maybe Movies statistics for designers, read from a finished match (for ``greenlight simulate``).

Everything comes from the spectator's final observation: every finished turn
is public in full (§8: pitch, every reveal, the check, the payout, the movie),
as are the won cards and the details of every card mentioned.

* **game**: ``pitches``, ``passed`` (pitches that succeeded), ``pass_rate``,
  ``mean_pitch_size`` (cards in the row when it was pitched),
  ``change_rounds`` (reveals that held a CHANGE card), ``all_no`` (pitches
  every voter rejected), ``movies_made``.
* **seats**: ``pitches`` and ``passed`` (as the active player),
  ``yes_votes``, ``no_votes``, ``change_votes`` (cards revealed over the
  game), ``votes_won`` (vote cards won, which is what scores).
* **cards**: movie cards ``pitched`` (by the active player) and ``made``
  (picked for Movies Made); vote cards ``voted`` (revealed) and ``won``.
  The catalogue is generated from each game's seed, so a card id means a
  different card in another game: cards are named by what is printed on
  them (``YES camera 3``, ``movie money+camera p2``). With a fixed catalogue
  (the ``deck`` option) the id comes first (``Y04 YES camera 3``). The type is
  ``YES``, ``NO``, ``CHANGE``, ``movie`` or ``blockbuster``.
"""

from __future__ import annotations

from typing import Any, cast

from greenlight.core.match import Match
from greenlight.games.maybe_movies.observation import CardFace, MaybeMoviesObservation

#: Which seat is "first" (for the report).
SEATS = "Seat 0 is the active player of the first turn (R1); the active player then passes clockwise, one turn each."
#: The game's length in its own unit: one pitch a turn.
LENGTH = ("pitches", "turns")
#: Words for statistics and score categories.
LABELS = {
    "won_cards": "vote cards won",
    "pitches": "pitches",
    "passed": "pitches passed",
    "pass_rate": "share of pitches passed",
    "mean_pitch_size": "cards per pitch",
    "change_rounds": "votes with a CHANGE card",
    "all_no": "pitches everyone voted NO",
    "movies_made": "movies made",
    "yes_votes": "YES votes cast",
    "no_votes": "NO votes cast",
    "change_votes": "CHANGE cards played",
    "votes_won": "vote cards won",
}


def card_key(card: str, details: CardFace, fixed_deck: bool) -> tuple[str, str]:
    """(name, type) of a card from its printed details.

    >>> card_key("Y04", {"type": "YES", "icon": "camera", "value": 3}, False)
    ('YES camera 3', 'YES')
    >>> card_key("M02", {"cost": ["money", "camera"], "profit": 2, "title": "Romance"}, True)
    ('M02 movie money+camera p2', 'movie')
    """
    group: str
    if "type" in details:
        if details["type"] == "CHANGE":
            name = f"{details['type']} {details.get('number')}"
        else:
            name = f"{details['type']} {details['icon']} {details['value']}"
        group = details["type"]
    elif "cost_key" in details:
        x = f" x={details['x']}" if details.get("x") else f" n={details['n']}" if details.get("n") is not None else ""
        name, group = f"blockbuster {details['cost_key']}{x} / {details['profit_key']}", "blockbuster"
    else:
        name, group = f"movie {'+'.join(details['cost'])} p{details['profit']}", "movie"
    return (f"{card} {name}" if fixed_deck else name), group


def statistics(match: Match) -> dict[str, Any]:
    """Per-game, per-seat and per-card statistics of ``match`` (see the module docstring)."""
    view = cast(MaybeMoviesObservation, match.observe(None))
    n = match.num_players
    details = view["cards"]
    fixed = bool(view["options"].get("data"))

    def key(card: str) -> tuple[str, str]:
        return card_key(card, details[card], fixed)

    seats: list[dict[str, Any]] = [
        {"pitches": 0, "passed": 0, "yes_votes": 0, "no_votes": 0, "change_votes": 0, "votes_won": len(view["won"][seat])}
        for seat in range(n)
    ]
    cards: list[tuple[int, str, str, str]] = []
    sizes: list[int] = []
    change_rounds = all_no = 0
    for turn in view["history"]:
        active = turn["active"]
        success = turn["check"]["result"] == "SUCCESS"
        seats[active]["pitches"] += 1
        seats[active]["passed"] += success
        sizes.append(len(turn["pitched"]))
        all_no += bool(turn["settlement"]["all_no"])
        cards.extend((active, *key(card), "pitched") for card in turn["pitched"])
        if turn["movie"] is not None:
            cards.append((active, *key(turn["movie"]), "made"))
        for votes in turn["reveals"]:
            had_change = False
            for seat, card in enumerate(votes):
                if card is None:
                    continue
                name, group = key(card)
                seats[seat][{"YES": "yes_votes", "NO": "no_votes"}.get(group, "change_votes")] += 1
                had_change |= group == "CHANGE"
                cards.append((seat, name, group, "voted"))
            change_rounds += had_change
    for seat, won in enumerate(view["won"]):
        cards.extend((seat, *key(card), "won") for card in won)
    pitches = len(view["history"])
    passed = sum(seat["passed"] for seat in seats)
    game = {
        "pitches": pitches,
        "passed": passed,
        "pass_rate": passed / pitches if pitches else None,
        "mean_pitch_size": sum(sizes) / len(sizes) if sizes else None,
        "change_rounds": change_rounds,
        "all_no": all_no,
        "movies_made": len(view["movies_made"]),
    }
    return {"game": game, "seats": seats, "cards": cards, "order": list(range(n))}
