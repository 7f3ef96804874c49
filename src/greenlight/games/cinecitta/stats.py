"""Cinecitta 1937 statistics for designers, read from a finished match (for ``greenlight simulate``).

Everything comes from what the finished match holds: the spectator's final
observation (Studios, Offices, options), the event log (every folder and its
answer: the game is over, so private events may be counted), the outcome's
breakdown, and this game's own card table for each card's occupation and Pen.

* **game**: ``rounds``, ``drop_outs`` (seats that did not finish), ``dropped_incomplete``,
  ``dropped_wages``, ``headhunts`` and ``secures`` (responses over the game),
  ``money_offered`` (total put in folders).
* **seats**: ``finished`` (1 or 0), ``pens`` (Pens in the Office, which waive
  wages), ``office_cards``, ``headhunted`` (cards this seat took from
  folders), ``cards_lost`` (its cards taken by others), ``money_offered``.
  Quality, reels and box office are in the score breakdown already.
* **cards** (type = occupation): ``offered`` (put in a folder), ``headhunted``
  (taken by the recipient), ``returned`` (secured: back to its sender),
  ``placed`` (into the Studio), ``studio_at_end``, ``office_at_end``.

>>> from greenlight.core.match import Match
>>> from greenlight.core.registry import get_game
>>> match = Match.start(get_game("cinecitta"), 3, seed=1)
>>> for seat in range(3):
...     _ = match.play(seat, f"offer {match.observe(seat)['hand'][0]} {10 * seat}")
>>> statistics(match)["game"]["money_offered"], statistics(match)["seats"][2]["money_offered"]
(30, 20)
"""

from __future__ import annotations

from typing import Any, cast

from greenlight.core.match import Match
from greenlight.games.cinecitta.actions import HEADHUNT, SECURE
from greenlight.games.cinecitta.events import FolderPassed, FolderReturned, Placed
from greenlight.games.cinecitta.observation import Breakdown, CinecittaObservation
from greenlight.games.cinecitta.rules import DROPPED_INCOMPLETE, DROPPED_WAGES, FINISHED, table_for

#: Which seat is "first" (for the report).
SEATS = (
    "Every studio offers at the same time, so no seat moves first: a seat number is a place at the table, and each "
    "seat deals with its left neighbour (with Destination Change the partner turns every round)."
)
#: The game's length in its own unit.
LENGTH = ("rounds", "rounds")
#: Words for statistics and score categories.
LABELS = {
    "value": "final value",
    "wages_due": "wages due",
    "box_office": "box office",
    "award": "Movie Award",
    "drop_outs": "studios that dropped out",
    "dropped_incomplete": "drop-outs with an incomplete Studio",
    "dropped_wages": "drop-outs over wages",
    "pens": "Pens in the Office",
    "office_cards": "cards in the Office",
    "headhunted": "cards headhunted",
    "cards_lost": "cards lost to headhunting",
    "finished": "finished the movie",
}
#: Words for card actions (read after "when the card was").
ACTIONS = {"studio_at_end": "in the Studio at the end", "office_at_end": "in the Office at the end"}


def statistics(match: Match) -> dict[str, Any]:
    """Per-game, per-seat and per-card statistics of ``match`` (see the module docstring)."""
    view = cast(CinecittaObservation, match.observe(None))
    n = match.num_players
    table = table_for(view["options"])
    final = view.get("final")
    breakdown: list[Breakdown] | None = final["breakdown"] if final else None
    seats: list[dict[str, Any]] = []
    cards: list[tuple[int, str, str, str]] = []
    headhunted = [0] * n
    lost = [0] * n
    offered = [0] * n
    responses = {SECURE: 0, HEADHUNT: 0}
    for event in match.events:
        if event.kind == "folder_passed":
            passed = cast(FolderPassed, event.data)
            offered[passed["sender"]] += passed["amount"]
            cards.append((passed["sender"], passed["card"], table[passed["card"]].occupation, "offered"))
        elif event.kind == "folder_returned":
            returned = cast(FolderReturned, event.data)
            responses[returned["response"]] += 1
            occupation = table[returned["card"]].occupation
            if returned["response"] == HEADHUNT:
                headhunted[returned["recipient"]] += 1
                lost[returned["sender"]] += 1
                cards.append((returned["recipient"], returned["card"], occupation, "headhunted"))
            else:
                cards.append((returned["sender"], returned["card"], occupation, "returned"))
        elif event.kind == "placed":
            placed = cast(Placed, event.data)
            cards.append((placed["seat"], placed["card"], table[placed["card"]].occupation, "placed"))
    for seat in range(n):
        studio, office = view["studios"][seat], view["offices"][seat]
        cards.extend((seat, card, table[card].occupation, "studio_at_end") for card in studio)
        cards.extend((seat, card, table[card].occupation, "office_at_end") for card in office)
        status = breakdown[seat]["status"] if breakdown else None
        seats.append(
            {
                "finished": int(status == FINISHED),
                "pens": sum(1 for card in office if table[card].pen),
                "office_cards": len(office),
                "headhunted": headhunted[seat],
                "cards_lost": lost[seat],
                "money_offered": offered[seat],
            }
        )
    statuses = [item["status"] for item in breakdown] if breakdown else []
    game = {
        "rounds": view["round"],
        "drop_outs": sum(1 for status in statuses if status in (DROPPED_INCOMPLETE, DROPPED_WAGES)),
        "dropped_incomplete": statuses.count(DROPPED_INCOMPLETE),
        "dropped_wages": statuses.count(DROPPED_WAGES),
        "headhunts": responses[HEADHUNT],
        "secures": responses[SECURE],
        "money_offered": sum(offered),
    }
    return {"game": game, "seats": seats, "cards": cards}
