"""Agent action codes: the game's flat codes, with choices of several cards made one card at a time.

A game's own codes (``Game.action_code``, the ``ActionLayout`` of its
``codes.py``) give every complete action one integer. Where an action is a
*set of cards* chosen at once (Movie Empire keeps 2 of 5 drawn cards and
gives 2 hand cards), that flat form needs a code per pair of cards: tens of
thousands of codes of which a game reaches a handful. OpenSpiel's advice for
such actions is to factor them, and the RL layer does so:

* a game's ``codes.py`` may declare ``PICKED``: the action types chosen card by
  card, each with a function from its local game code to the sorted indices of
  its cards (``PICK_ITEMS`` indices in all, at most ``MAX_PICKS`` cards);
* the **agent layout** keeps every other block of the game's layout and
  replaces each picked block by one code per card index ("pick card i") and
  one "finish" code; a pick has the same meaning in every state;
* an agent makes such an action as a run of picks in ascending card order
  (a card held twice is picked twice), then ``finish`` only where a shorter
  choice is legal too (none of the bundled games has one); the last pick that
  leaves a single complete action plays it. What is legal at each pick comes
  from ``legal_actions``, so exactly the game's legal actions can be made, each
  in exactly one way, and the game only ever receives complete actions (the
  records do not change);
* the cards picked so far are part of the agent's observation (a block of
  ``PICK_ITEMS`` counts / ``MAX_PICKS`` after the game's encoding) and of its
  perfect-recall information state.

Games without ``PICKED`` have agent codes equal to their game codes.

The machinery lives in :mod:`greenlight.core.agent_codes` (a bot's
:class:`~greenlight.core.bot.SeatView` gives the same codes); this module
names it for the RL layer.

>>> from greenlight.core.registry import get_game
>>> codes = agent_codes_for(get_game("movie-empire"))
>>> get_game("movie-empire").num_distinct_actions, codes.num_codes, codes.block_size
(52182, 1784, 224)
>>> agent_codes_for(get_game("cinecitta")).identity
True
"""

from __future__ import annotations

from greenlight.core.agent_codes import (
    AgentCodes,
    AgentPicks,
    Decode,
    PickedKind,
    Prefix,
    Target,
    agent_codes_for,
    agent_options,
)

__all__ = ["AgentCodes", "AgentPicks", "Decode", "PickedKind", "Prefix", "Target", "agent_codes_for", "agent_options"]
