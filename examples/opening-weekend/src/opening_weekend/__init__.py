"""Opening Weekend: release films into a calendar of weekends with sealed buzz cards (2-4 players).

An example Greenlight game, kept outside the ``greenlight`` package on
purpose: it is found through its entry point (``pyproject.toml``) and uses
only ``greenlight.core``. ``CONTRIBUTING.md`` in the Greenlight repository
walks through it as the template for a new game.
"""

from opening_weekend.game import GAME, OpeningWeekendGame

__all__ = ["GAME", "OpeningWeekendGame"]
