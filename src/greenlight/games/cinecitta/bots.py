"""A heuristic Cinecitta 1937 bot.

It values a tableau by an estimate of its final value: the movie's quality
(or what a partial Studio may still become) plus the money left after wages
times the reels in the Office. A Pen in the Office saves the wages, so it is
prized through the same estimate. Offers are priced against what the partner
would pay for the card, judged from the partner's public tableau and from the
folders seen so far; headhunts and placements take the choice that raises the
estimate most.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from greenlight.core.actions import Action
from greenlight.core.bot import Bot, SeatView
from greenlight.games.cinecitta import rules
from greenlight.games.cinecitta.actions import HEADHUNT, SECURE, Offer, Place, Respond
from greenlight.games.cinecitta.cards import CardTable
from greenlight.games.cinecitta.observation import CinecittaObservation

#: Expected number of a card that will still fill an empty Studio place.
FILL_NUMBER = 5.5
#: How sure the bot is of its guess of the partner's valuation (money units).
PRICE_SCALE = 25.0


def estimate_value(table: CardTable, studio: Sequence[str], office: Sequence[str], wallet: int, rounds_left: int) -> float:
    """Estimated final value of a tableau: quality (or its likely completion) + money after wages x reels."""
    # Search rollouts call this for every plan they weigh: the table's per-field maps, list comprehensions.
    number = table.number
    numbers = sorted([number[card] for card in studio])
    missing = 3 - len(numbers)
    if missing and rounds_left < missing:
        quality = -300.0  # cannot finish the Studio any more: a drop-out
    else:
        filled = sorted([*numbers, *([FILL_NUMBER] * missing)]) if missing else numbers
        quality = 100 * filled[0] + 10 * filled[1] + filled[2] - 60 * missing
    promotions, pens = table.promotion, table.pen
    promotion = 10 * sum([promotions[card] for card in office])
    has_pen = False
    for card in office:
        if pens[card]:
            has_pen = True
            break
    wages = 0 if has_pen else 10 * (len(studio) + len(office) + rounds_left)
    money = wallet + promotion - wages
    if money < 0:
        return quality - 400.0  # a wage drop-out loses everything
    reels_of = table.reels
    reels = sum([reels_of[card] for card in office])
    # Reels still to come: most rounds push one more card into the Office.
    expected_reels = reels + 0.6 * rounds_left
    return quality + money * expected_reels


def best_placement(
    table: CardTable, studio: Sequence[str], office: Sequence[str], pending: Sequence[str], wallet: int, rounds_left: int
) -> tuple[float, Place]:
    """The legal plan with the highest estimate, and that estimate."""
    best: tuple[float, Place] | None = None
    for plan in rules.legal_plans(table, studio, pending):
        assert isinstance(plan, Place)
        new_studio, new_office = list(studio), list(office)
        for card, out in plan.placements:
            rules.place_card(table, new_studio, new_office, card, out)
        value = estimate_value(table, new_studio, new_office, wallet, rounds_left)
        if best is None or value > best[0]:
            best = (value, plan)
    assert best is not None
    return best


class HeuristicBot(Bot):
    """Values cards for Studio digits versus Office icons, prizes the Pen, prices offers from what it has seen."""

    name = "heuristic"

    def choose(self, view: SeatView) -> Action:
        """Pick an offer, a response or a plan by the value estimate."""
        obs = cast(CinecittaObservation, view.observation())
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        table = rules.table_for(obs["options"])
        seat = obs["viewer"]
        assert seat is not None, "a bot plays a seat"
        if obs["step"] == "offer":
            return self._offer(table, obs, seat, legal)
        if obs["step"] == "respond":
            return self._respond(table, obs, seat)
        return self._place(table, obs, seat)

    # -- helpers ------------------------------------------------------------------

    def _rounds_left(self, obs: CinecittaObservation) -> int:
        return obs["rounds"] - obs["round"]

    def _place(self, table: CardTable, obs: CinecittaObservation, seat: int) -> Action:
        _, plan = best_placement(table, obs["studios"][seat], obs["offices"][seat], obs["pending"], obs["wallet"], self._rounds_left(obs))
        return plan

    def _respond(self, table: CardTable, obs: CinecittaObservation, seat: int) -> Action:
        folder = obs["folder_received"]
        assert folder is not None, "a seat answering has received a folder"
        studio, office, wallet = obs["studios"][seat], obs["offices"][seat], obs["wallet"]
        rounds_left = self._rounds_left(obs)
        secure_value = estimate_value(table, studio, office, wallet + folder["amount"], rounds_left)
        if wallet < folder["amount"]:
            return Respond(SECURE)
        hunt_value, _ = best_placement(table, studio, office, [folder["card"]], wallet - folder["amount"], rounds_left)
        return Respond(HEADHUNT if hunt_value > secure_value else SECURE)

    def _partner_wallet_guess(self, obs: CinecittaObservation, seat: int) -> float:
        """Average of the money the others hold, nudged by the money seen changing hands with the partner."""
        target = obs["target"]
        others = obs["num_players"] - 1
        guess: float = (obs["money_total"] - obs["wallet"]) / others
        for folder in obs["folder_history"]:
            if target not in (folder["sender"], folder["recipient"]):
                continue
            if folder["recipient"] == target and folder["response"] == SECURE:
                guess += folder["amount"] / 2  # the partner kept money we sent
            if folder["recipient"] == target and folder["response"] == HEADHUNT:
                guess -= folder["amount"] / 2
            if folder["sender"] == target and folder["recipient"] == seat:
                guess -= folder["amount"] / 2
        return max(guess, 0.0)

    def _partner_gain(self, table: CardTable, obs: CinecittaObservation, card: str, partner_wallet: float) -> float:
        """How much the partner's estimate rises if it headhunts ``card`` at no cost."""
        target = obs["target"]
        assert target is not None, "a seat offering has a partner"
        studio, office = obs["studios"][target], obs["offices"][target]
        rounds_left = self._rounds_left(obs)
        wallet = int(partner_wallet)
        before = estimate_value(table, studio, office, wallet, rounds_left)
        after, _ = best_placement(table, studio, office, [card], wallet, rounds_left)
        return after - before

    def _offer(self, table: CardTable, obs: CinecittaObservation, seat: int, legal: list[Action]) -> Action:
        studio, office, wallet, hand = obs["studios"][seat], obs["offices"][seat], obs["wallet"], obs["hand"]
        rounds_left = self._rounds_left(obs)
        partner_wallet = self._partner_wallet_guess(obs, seat)
        amounts = sorted({0, 10, 20, 30, 50, 80, 120} & set(range(0, wallet + 1, 10)))
        best: tuple[float, Action] | None = None
        for card in hand:
            gain = self._partner_gain(table, obs, card, partner_wallet)
            for amount in amounts:
                # The partner headhunts when the card is worth more to it than the amount (and it can pay).
                hunt_chance = 0.0 if amount > partner_wallet else 1.0 / (1.0 + math.exp(-(gain / 3 - amount) / PRICE_SCALE))
                if_hunted = estimate_value(table, studio, office, wallet + amount, rounds_left)
                if_returned, _ = best_placement(table, studio, office, [card], wallet - amount, rounds_left)
                value = hunt_chance * if_hunted + (1 - hunt_chance) * if_returned + self.rng.random()
                if best is None or value > best[0]:
                    best = (value, Offer(card, amount))
        assert best is not None and best[1] in legal
        return best[1]
