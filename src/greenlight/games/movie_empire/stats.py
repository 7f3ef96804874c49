"""Movie Empire statistics for designers, read from a finished match (for ``greenlight simulate``).

Everything comes from what the finished match holds: the event log (every
card taken, laid and premiered, every dossier; the game is over, so private
events may be counted), the spectator's final observation (the options) and
this game's own card tables for each card's kind.

* **game**: ``rounds`` (played), ``premieres`` (movies released),
  ``net_premieres`` (on the Internet), ``trend_hits``, ``dossiers_taken``,
  ``dossiers_used``, ``lines_shut``.
* **seats**: ``movies_released``, ``genre_<G>`` (releases per genre code),
  ``market_<M>`` (releases per market, NET included), ``trends_hit``,
  ``statues``, ``premiere_pp``, ``dossiers_taken``, ``dossiers_used``,
  ``cards_taken`` (from the board), ``cards_laid`` (production cards, upgrades
  and stars laid into lines), ``lines_started``, ``lines_shut``.
* **cards** (type = ``production``, ``star``, ``script``, ``trend`` or
  ``dossier``): ``taken`` (from a board space or by a swap), ``laid``
  (production cards and stars), ``started`` (a script opening a line),
  ``released`` (a script premiered), ``hit`` (a trend matched by a premiere),
  ``used`` (a dossier, named by its use: ``purge``, ``block``, ...).
* **order**: each seat's place in round 1's turn order (the first player is
  drawn at random, R62).
"""

from __future__ import annotations

from typing import Any, cast

from greenlight.core.match import Match
from greenlight.games.movie_empire.cards import BOARD_MARKETS, GENRES, load_tables
from greenlight.games.movie_empire.events import (
    CardTaken,
    DossierSpent,
    DossierTaken,
    Laid,
    LineShut,
    LineStarted,
    Premiered,
    SetupDone,
    Swapped,
)
from greenlight.games.movie_empire.observation import MovieEmpireObservation

#: Premieres on the Internet count for genres but use no board market (R45).
NET = "NET"

#: Which seat is "first" (for the report).
SEATS = (
    "The first player of round 1 is drawn at random (R62), and the first-player marker moves every round, so a seat "
    "number is only a place at the table: the turn order below counts from the first player of round 1."
)
#: The game's length in its own unit.
LENGTH = ("rounds", "rounds")
#: Words for statistics and score categories (the final score table's words, shortened).
LABELS = {
    "rounds": "rounds played",
    "premieres": "points from premieres",
    "premiere_pp": "points from premieres",
    "sympathy": "sympathy at the end",
    "money": "money left",
    "dossier": "black dossier kept",
    "hardworking": "Hardworking bonus",
    "exploitation_action": "Exploitation bonus (action)",
    "exploitation_comedy": "Exploitation bonus (comedy)",
    "exploitation_drama": "Exploitation bonus (drama)",
    "patriot_USA": "Patriot bonus (USA)",
    "patriot_EUR": "Patriot bonus (Europe)",
    "patriot_CHN": "Patriot bonus (China)",
    "king_of_the_world": "King of the world bonus",
    "jack_of_all_trades": "Jack of all trades bonus",
    "trendsetter": "Trendsetter bonus",
    "total": "final score",
    "released": "movies released",
    "movies_released": "movies released",
    "statues": "golden statues",
    "awards": "end-game bonuses",
    "genre_A": "action movies released",
    "genre_C": "comedies released",
    "genre_D": "dramas released",
    "market_USA": "premieres in the USA",
    "market_EUR": "premieres in Europe",
    "market_CHN": "premieres in China",
    "market_NET": "premieres on the Internet",
    "net_premieres": "premieres on the Internet",
    "trends_hit": "trends hit",
    "trend_hits": "trends hit",
}


def statistics(match: Match) -> dict[str, Any]:
    """Per-game, per-seat and per-card statistics of ``match`` (see the module docstring)."""
    view = cast(MovieEmpireObservation, match.observe(None))
    n = match.num_players
    data_dir = view["options"].get("data")
    table = load_tables(str(data_dir) if data_dir else None)
    seats: list[dict[str, int]] = [
        {
            "movies_released": 0,
            **{f"genre_{genre}": 0 for genre in GENRES},
            **{f"market_{market}": 0 for market in (*BOARD_MARKETS, NET)},
            "trends_hit": 0,
            "statues": 0,
            "premiere_pp": 0,
            "dossiers_taken": 0,
            "dossiers_used": 0,
            "cards_taken": 0,
            "cards_laid": 0,
            "lines_started": 0,
            "lines_shut": 0,
        }
        for _ in range(n)
    ]
    cards: list[tuple[int, str, str, str]] = []
    # The observation lists only the last round's premieres, so every premiere is read from its event.
    premieres: list[Premiered] = []
    first = 0
    for event in match.events:
        kind = event.kind
        if kind == "setup_done":
            first = cast(SetupDone, event.data)["first_player"]
        elif kind == "card_taken":
            taken = cast(CardTaken, event.data)
            seats[taken["seat"]]["cards_taken"] += 1
            cards.append((taken["seat"], taken["card"], table.kind_of(taken["card"]), "taken"))
        elif kind == "swapped":
            swapped = cast(Swapped, event.data)
            cards.append((swapped["seat"], swapped["taken"], table.kind_of(swapped["taken"]), "taken"))
        elif kind == "laid":
            laid = cast(Laid, event.data)
            card = laid["action"].split()[1]  # "lay PB01 right", "stack PB01*", "star ST03"
            seats[laid["seat"]]["cards_laid"] += 1
            cards.append((laid["seat"], card, table.kind_of(card), "laid"))
        elif kind == "line_started":
            started = cast(LineStarted, event.data)
            seats[started["seat"]]["lines_started"] += 1
            cards.append((started["seat"], started["script"], "script", "started"))
        elif kind == "line_shut":
            seats[cast(LineShut, event.data)["seat"]]["lines_shut"] += 1
        elif kind == "dossier_taken":
            seats[cast(DossierTaken, event.data)["seat"]]["dossiers_taken"] += 1
        elif kind == "dossier_spent":
            spent = cast(DossierSpent, event.data)
            seats[spent["seat"]]["dossiers_used"] += 1
            cards.append((spent["seat"], spent["use"], "dossier", "used"))
        elif kind == "premiere":
            premieres.append(cast(Premiered, event.data))
    for premiere in premieres:
        seat = premiere["seat"]
        item = seats[seat]
        item["movies_released"] += 1
        item[f"genre_{premiere['genre']}"] += 1
        item[f"market_{premiere['market']}"] += 1
        item["trends_hit"] += bool(premiere["hit"])
        item["statues"] += bool(premiere["statue"])
        item["premiere_pp"] += premiere["total"]
        cards.append((seat, premiere["script"], "script", "released"))
        if premiere["hit"] and premiere["trend"] is not None:
            cards.append((seat, premiere["trend"], "trend", "hit"))
    game = {
        "rounds": view["round"],
        "premieres": len(premieres),
        "net_premieres": sum(1 for premiere in premieres if premiere["market"] == NET),
        "trend_hits": sum(item["trends_hit"] for item in seats),
        "dossiers_taken": sum(item["dossiers_taken"] for item in seats),
        "dossiers_used": sum(item["dossiers_used"] for item in seats),
        "lines_shut": sum(item["lines_shut"] for item in seats),
    }
    return {"game": game, "seats": seats, "cards": cards, "order": [(seat - first) % n for seat in range(n)]}
