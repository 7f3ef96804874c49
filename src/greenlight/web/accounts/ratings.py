"""Ratings: OpenSkill's Plackett-Luce model (Joshi and others, "OpenSkill: A faster asymmetric multi-team, multiplayer
rating system", 2024), one rating per account and game, updated once per rated game from its final ranking.

Plackett-Luce rates games of any number of players from the order they finished in, ties included, which is what
these games produce (2 to 6 seats, shared places). A seat whose person resigned (or lost it on time) finishes
last, whatever its bot did after; several such seats share the last place.

>>> from greenlight.web.accounts.store import Rating
>>> fresh = Rating("cinecitta", 25.0, 25 / 3, 0, 0)
>>> after = rate({"ann": fresh, "bob": fresh, "cy": fresh}, {"ann": 1, "bob": 2, "cy": 2})
>>> after["ann"].mu > 25 > after["bob"].mu == after["cy"].mu, after["ann"].games, after["ann"].wins, after["bob"].wins
(True, 1, 1, 0)
"""

from __future__ import annotations

from greenlight.web.accounts.store import Rating

#: A rating is provisional until its uncertainty falls below this (about ten games of three or four players).
PROVISIONAL_SIGMA = 4.5


def fresh_rating(game: str) -> Rating:
    """The rating of an account that has not played a rated game of ``game`` (OpenSkill's defaults: 25 +/- 25/3)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    start = model.rating()
    return Rating(game, float(start.mu), float(start.sigma), 0, 0)


def rate(before: dict[str, Rating], places: dict[str, int]) -> dict[str, Rating]:
    """Everyone's rating after a game in which each account finished at ``places[account]`` (1 is first; ties share)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    accounts = list(places)
    teams = [[model.rating(mu=before[account].mu, sigma=before[account].sigma)] for account in accounts]
    rated = model.rate(teams, ranks=[float(places[account]) for account in accounts])
    return {
        account: Rating(
            before[account].game,
            float(team[0].mu),
            float(team[0].sigma),
            before[account].games + 1,
            before[account].wins + (1 if places[account] == 1 else 0),
        )
        for account, team in zip(accounts, rated, strict=True)
    }


def provisional(rating: Rating) -> bool:
    """Whether a rating is still provisional (too few games to trust it)."""
    return rating.sigma > PROVISIONAL_SIGMA


def rating_json(rating: Rating) -> dict[str, object]:
    """A rating as the API shows it: the conservative value, mean, uncertainty, games and wins."""
    return {
        "game": rating.game,
        "rating": round(rating.shown, 2),
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "games": rating.games,
        "wins": rating.wins,
        "provisional": provisional(rating),
    }
