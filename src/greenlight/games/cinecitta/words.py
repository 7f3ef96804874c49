"""Player words for Cinecitta 1937: the one source of everything a person reads about this game.

Cards are called by occupation and number ("Director 6"), their icons in
words ("promotion 1, 1 reel, pen"); a card code stands only beside its name,
where a terminal player has to type it ("Director 6 (D6)"). Seats are called
by the names given, "Player N" without them (``greenlight.core.words.seat_name``).
The terminal (``render_text``), the web renderer (through ``components`` and
the observation's previews), every log (``describe_event``) and the action
choices (``describe_action``, ``action_warning``) all read from here.

What a preview shows is computed with the scoring functions of ``rules`` from
what the reader may see: public tableaus for every seat, and the seat's own
wallet for its forecast.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from rich.markup import escape

from greenlight.core.actions import Action, ActionCodec
from greenlight.core.errors import GreenlightError
from greenlight.core.events import Event
from greenlight.core.words import Component, seat_name
from greenlight.games.cinecitta import rules
from greenlight.games.cinecitta.actions import ACTION_TYPES, HEADHUNT, SECURE, Offer, Place, Respond
from greenlight.games.cinecitta.cards import CardTable, load_cards
from greenlight.games.cinecitta.events import FolderPassed, FolderReturned, GameOver, Placed, RoundStarted
from greenlight.games.cinecitta.observation import Breakdown, CinecittaObservation, FolderView, Forecast, Tableau
from greenlight.games.cinecitta.rules import why_illegal as why_illegal  # the refusals are worded by the rules
from greenlight.games.cinecitta.state import OFFER, OVER, PLACE, RESPOND, CinecittaState

_CODEC = ActionCodec(ACTION_TYPES)

STEP_TITLES = {
    OFFER: "Step 1 of 3: offer",
    RESPOND: "Step 2 of 3: respond",
    PLACE: "Step 3 of 3: place",
    OVER: "Game over",
}


def who_is(names: Sequence[str] | None, seat: int) -> str:
    """A seat's name (``Player N`` without names); two seats of one name (bots of one level) get their seat number."""
    name = seat_name(names, seat)
    if names is not None and sum(1 for other in names if other == name) > 1:
        return f"{name} at seat {seat + 1}"
    return name


# -- cards ------------------------------------------------------------------------------

_NAMES: dict[str, dict[str, str]] = {}


def _names(table: CardTable) -> dict[str, str]:
    """Every card's name: occupation and number; a custom file's look-alikes keep their code in the name."""
    key = table.static_key()
    names = _NAMES.get(key)
    if names is None:
        plain = {card.id: f"{card.occupation} {card.number}" for card in table.cards}
        counts: dict[str, int] = {}
        for name in plain.values():
            counts[name] = counts.get(name, 0) + 1
        names = {card: name if counts[name] == 1 else f"{name} ({card})" for card, name in plain.items()}
        _NAMES[key] = names
    return names


def card_name(table: CardTable, card: str) -> str:
    """``Director 6``."""
    return _names(table).get(card, card)


def card_title(table: CardTable, card: str) -> str:
    """``Director 6 (D6)``: the name with the code a terminal player types."""
    name = card_name(table, card)
    return name if card not in table or name.endswith(f"({card})") else f"{name} ({card})"


def card_icons(table: CardTable, card: str) -> str:
    """``promotion 1, 3 reels, pen``: the icons that count in the Office."""
    info = table[card]
    promotion = f"promotion {info.promotion}" if info.promotion else "no promotion"
    reels = {0: "no reels", 1: "1 reel"}.get(info.reels, f"{info.reels} reels")
    return f"{promotion}, {reels}, {'pen' if info.pen else 'no pen'}"


def card_face(table: CardTable, card: str) -> str:
    """``Director 2: promotion 1, 3 reels, pen``."""
    return f"{card_name(table, card)}: {card_icons(table, card)}" if card in table else card


def card_list(table: CardTable, cards: Sequence[str], titles: bool = False) -> str:
    """Cards by name (or name and code), joined with commas and a final "and"."""
    return join_words([card_title(table, card) if titles else card_name(table, card) for card in cards])


def join_words(items: Sequence[str], final: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {final} {items[-1]}"


def _card_text(table: CardTable, card: str) -> str:
    info = table[card]
    icons = card_icons(table, card)
    effects = []
    if info.promotion:
        effects.append(f"adds {10 * info.promotion} money at scoring")
    if info.reels:
        effects.append(f"counts {info.reels} film {'reel' if info.reels == 1 else 'reels'} toward the box office")
    if info.pen:
        effects.append("waives all wages with its pen")
    office = f"In the Office it {join_words(effects)}." if effects else "In the Office it only draws its wage."
    removed = sorted(info.removed_at)
    if not removed:
        used = "Used at every player count."
    elif len(removed) == 3:
        used = "Left out at every player count."
    else:
        used = f"Left out with {join_words([str(count) for count in removed], 'or')} players."
    return f"{icons[0].upper()}{icons[1:]}. In the Studio its number {info.number} is one digit of the movie's quality. {office} {used}"


#: Printed components besides the staff cards (ids that never occur in running text).
OTHER_COMPONENTS = (
    Component(
        "Movie Award card",
        "golden-doggy",
        "Golden Doggy",
        "Movie Awards variant: adds 200 to the value of every finished studio tied for the highest quality.",
    ),
    Component(
        "Movie Award card",
        "gray-doggy",
        "Gray Doggy",
        "Movie Awards variant: takes 100 off the value of every finished studio tied for the lowest quality.",
    ),
    Component(
        "coaster",
        "destination-change-coaster",
        "Destination Change coaster",
        "Destination Change variant, 4 or 5 players: turned one step before each round, it shows how many seats to the left "
        "your folder travels (never to yourself); one side for 4 players, one for 5.",
    ),
    Component(
        "money",
        "money-note",
        "10 Money note",
        "The only money in the game, so every amount is a multiple of 10. Each studio starts with ten notes; the bank never runs out.",
    ),
    Component(
        "screen folder",
        "screen-folder",
        "Screen folder",
        "Carries one staff card and some money, unseen by the others, to your partner of the round, and always comes back to you.",
    ),
    Component(
        "wallet",
        "seat-wallet",
        "Wallet",
        "Holds your money, hidden from the other players until scoring.",
    ),
)


def components(state: CinecittaState | None) -> list[Component]:
    """Every staff card of the game's card table (bundled or custom) in words, and the other printed components."""
    return table_components(state.table if state is not None else load_cards())


def table_components(table: CardTable) -> list[Component]:
    """Every staff card of ``table`` in words, then the other printed components."""
    cards = [Component("staff card", card.id, card_name(table, card.id), _card_text(table, card.id)) for card in table.cards]
    return [*cards, *OTHER_COMPONENTS]


# -- previews -----------------------------------------------------------------------------


def tableau(table: CardTable, studio: Sequence[str], office: Sequence[str]) -> Tableau:
    """A seat's public figures: Studio quality (None until 3 cards), Office promotion money, reels, pen, wages due now."""
    return {
        "quality": rules.quality_of(table, studio),
        "studio_cards": len(studio),
        "staff": len(studio) + len(office),
        "promotion": rules.promotion_of(table, office),
        "reels": rules.reels_of(table, office),
        "pen": rules.has_pen(table, office),
        "wages_due": rules.wages_of(table, studio, office),
    }


def forecast(table: CardTable, studio: Sequence[str], office: Sequence[str], wallet: int) -> Forecast:
    """The seat's own score if the game ended now (its wallet is its own to see): each scoring step's figure.

    ``status`` is ``finished``, ``short`` (cannot pay the wages) or ``incomplete`` (fewer than 3 Studio cards).
    """
    figures = tableau(table, studio, office)
    money = wallet + figures["promotion"]
    wages = figures["wages_due"]
    short_by = max(0, wages - money)
    after = None if short_by else money - wages
    box_office = None if after is None else after * figures["reels"]
    quality = figures["quality"]
    status = "incomplete" if quality is None else "short" if short_by else "finished"
    value = quality + box_office if quality is not None and box_office is not None else None
    return {
        **figures,
        "wallet": wallet,
        "money_after_promotion": money,
        "short_by": short_by,
        "money_after_wages": after,
        "box_office": box_office,
        "value": value,
        "status": status,
    }


def reels_words(count: int) -> str:
    """``1 reel``, ``9 reels``."""
    return f"{count} {'reel' if count == 1 else 'reels'}"


def wages_words(figures: Tableau) -> str:
    """``wages due 80 (8 staff)`` or ``no wages (a pen in the Office)``."""
    if figures["pen"]:
        return "no wages (a pen in the Office)"
    if not figures["staff"]:
        return "no staff yet, so no wages"
    return f"wages due {figures['wages_due']} ({figures['staff']} staff at 10)"


def office_words(figures: Tableau) -> str:
    """``promotion +30, 9 reels, wages due 80 (8 staff at 10)``."""
    if figures["staff"] == figures["studio_cards"]:  # an empty Office adds nothing
        return wages_words(figures)
    return f"promotion +{figures['promotion']}, {reels_words(figures['reels'])}, {wages_words(figures)}"


def forecast_words(figures: Forecast) -> str:
    """The forecast as one sentence: what scoring would make of the seat's own tableau and wallet now."""
    money = f"{figures['wallet']} in the wallet + {figures['promotion']} promotion = {figures['money_after_promotion']}"
    wages = "no wages to pay (a pen in the Office)" if figures["pen"] else f"wages so far {figures['wages_due']}"
    if figures["status"] == "incomplete":
        missing = 3 - figures["studio_cards"]
        shortfall = f", short by {figures['short_by']}" if figures["short_by"] else ""
        return (
            f"Your Studio needs {missing} more {'card' if missing == 1 else 'cards'} to make a movie; money: {money}, {wages}{shortfall}."
        )
    if figures["status"] == "short":
        return f"If the game ended now you would drop out: {money}, {wages}: short by {figures['short_by']}."
    return (
        f"If the game ended now: {money}, {wages}, leaves {figures['money_after_wages']} x {reels_words(figures['reels'])} "
        f"= box office {figures['box_office']}; value {figures['quality']} + {figures['box_office']} = {figures['value']}."
    )


# -- actions -------------------------------------------------------------------------------


def describe_action(state: CinecittaState, player: int, action: Action) -> str:
    """What ``action`` does for ``player`` now, with what it costs, what comes back and what it makes of the Studio."""
    table = state.table
    if isinstance(action, Offer):
        return _offer_words(state, player, action)
    if isinstance(action, Respond):
        return _respond_words(state, player, action)
    assert isinstance(action, Place)
    studio, office = list(state.studios[player]), list(state.offices[player])
    steps = []
    for card, out in action.placements:
        moved = rules.place_card(table, studio, office, card, out)
        name = card_name(table, card)
        steps.append(f"{name} in a free place" if moved is None else f"{name} in place of {card_name(table, moved)} (to the Office)")
    figures = forecast(table, studio, office, state.wallets[player])
    head = f"Place {', then '.join(steps)}" if steps else "Nothing to place this round"
    return f"{head}. {_result_words(state, figures)}"


def _result_words(state: CinecittaState, figures: Forecast) -> str:
    """What a placement leaves: the Studio and the wages, and in the last round the final figures."""
    if state.round == state.rounds:
        if figures["status"] == "incomplete":
            return f"Your Studio ends with {figures['studio_cards']} of 3 cards: you drop out at scoring."
        if figures["status"] == "short":
            return (
                f"You drop out at scoring: {figures['money_after_promotion']} after promotion cannot pay wages of {figures['wages_due']}."
            )
        awards = " before the Movie Awards" if state.options.get("movie_awards") else ""
        return (
            f"Final value{awards} {figures['value']}: quality {figures['quality']} + box office {figures['box_office']} "
            f"({figures['money_after_wages']} money x {reels_words(figures['reels'])})."
        )
    studio = f"Studio quality {figures['quality']}" if figures["quality"] is not None else f"Studio {figures['studio_cards']} of 3 cards"
    return f"{studio}; {wages_words(figures)}."


def _offer_words(state: CinecittaState, player: int, action: Offer) -> str:
    table = state.table
    name = card_name(table, action.card)
    keep = state.wallets[player] - action.amount
    if action.amount == 0:
        return (
            f"Offer {name} with no money to your partner ({keep} stays in your wallet). If they secure, {name} comes back "
            f"to your Studio; if they headhunt, they take {name} for nothing."
        )
    return (
        f"Offer {name} with {action.amount} to your partner ({keep} stays in your wallet). If they secure the funds, they keep "
        f"the {action.amount} and {name} comes back to your Studio; if they headhunt, they take {name} and you get back "
        f"{2 * action.amount}, your {action.amount} and their {action.amount}."
    )


def _respond_words(state: CinecittaState, player: int, action: Respond) -> str:
    table = state.table
    folder = rules.folder_received(state, player)
    assert folder is not None
    name, amount, wallet = card_name(table, folder.card), folder.amount, state.wallets[player]
    if action.choice == SECURE:
        if amount == 0:
            return f"Secure: send {name} back to its sender; the folder holds no money, so your wallet stays at {wallet}."
        return (
            f"Secure the funds: keep the {amount} (your wallet goes from {wallet} to {wallet + amount}) and send {name} back to its sender."
        )
    where = f"{name} joins your Studio this round"
    sent = rules.folder_sent(state, player)
    occupation = table[folder.card].occupation
    match = next((card for card in state.studios[player] if table[card].occupation == occupation), None)
    if match is not None and sent is not None and table[sent.card].occupation != occupation:
        where += f", in place of your {card_name(table, match)} (to the Office)"
    if amount == 0:
        return f"Headhunt {name} for free: the folder holds no money and goes back empty. {where}."
    return (
        f"Headhunt {name}: add {amount} of your own (your wallet goes from {wallet} to {wallet - amount}); the sender gets back "
        f"{2 * amount}, their {amount} and yours. {where}."
    )


# -- warnings -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Ending:
    """The best a seat can still make of the last round along one path: finished (with the plan and value), or why not."""

    finished: bool
    incomplete: bool
    money: int
    wages: int
    plan: Place
    value: int


def _best_ending(table: CardTable, studio: Sequence[str], office: Sequence[str], pending: Sequence[str], wallet: int) -> _Ending:
    """Over every legal plan for ``pending``: the one with the highest value, else the closest to paying the wages."""
    best: _Ending | None = None
    for plan in rules.legal_plans(table, studio, sorted(pending, key=table.index)):
        assert isinstance(plan, Place)
        after_studio, after_office = list(studio), list(office)
        for card, out in plan.placements:
            rules.place_card(table, after_studio, after_office, card, out)
        figures = forecast(table, after_studio, after_office, wallet)
        ending = _Ending(
            figures["status"] == "finished",
            figures["status"] == "incomplete",
            figures["money_after_promotion"],
            figures["wages_due"],
            plan,
            figures["value"] or 0,
        )
        if best is None or (ending.finished, ending.value, ending.money - ending.wages) > (
            best.finished,
            best.value,
            best.money - best.wages,
        ):
            best = ending
    assert best is not None
    return best


def _respond_endings(state: CinecittaState, player: int, choice: str) -> list[_Ending]:
    """Last round, step 2: the best ending after ``choice`` if the seat's own card comes back, and if it is headhunted."""
    table = state.table
    received = rules.folder_received(state, player)
    sent = rules.folder_sent(state, player)
    assert received is not None and sent is not None
    wallet = state.wallets[player] + (received.amount if choice == SECURE else -received.amount)
    taken = [received.card] if choice == HEADHUNT else []
    studio, office = state.studios[player], state.offices[player]
    return [
        _best_ending(table, studio, office, [*taken, sent.card], wallet),  # the partner secures: the card comes back
        _best_ending(table, studio, office, taken, wallet + 2 * sent.amount),  # the partner headhunts: the money comes back
    ]


def _why_out(ending: _Ending) -> str:
    if ending.incomplete:
        return "your Studio stays short of three cards"
    return f"you cannot pay your wages ({ending.money} after promotion against {ending.wages} due)"


def _plan_steps(table: CardTable, studio: Sequence[str], plan: Place) -> str:
    """``Director 6 in place of Actor 6, then Producer 4 in a free place``."""
    after_studio, after_office = list(studio), list[str]()
    steps = []
    for card, out in plan.placements:
        moved = rules.place_card(table, after_studio, after_office, card, out)
        name = card_name(table, card)
        steps.append(f"{name} in a free place" if moved is None else f"{name} in place of {card_name(table, moved)}")
    return ", then ".join(steps)


def action_warning(state: CinecittaState, player: int, action: Action) -> str | None:
    """Why ``player`` should think twice: the move makes dropping out at scoring certain while another move does not.

    Only the last round can make it certain from what the seat knows: before
    that, money and cards can still come from folders it cannot foresee. In the
    last round's step 2 a response warns when, whichever way the seat's own
    folder comes back, no placement lets it finish, while the other response
    could; in step 3 (everything known) a plan warns when it drops the seat out
    and another plan does not. Offers never warn: what they bring back depends
    on choices nobody can see yet.
    """
    if isinstance(action, Offer) or state.round != state.rounds or action not in rules.legal_actions(state, player):
        return None
    table = state.table
    if isinstance(action, Place):
        pending = [card for card, _ in action.placements]
        studio, office = list(state.studios[player]), list(state.offices[player])
        for card, out in action.placements:
            rules.place_card(table, studio, office, card, out)
        figures = forecast(table, studio, office, state.wallets[player])
        if figures["status"] == "finished":
            return None
        best = _best_ending(table, state.studios[player], state.offices[player], pending, state.wallets[player])
        if not best.finished:
            return None
        if figures["status"] == "incomplete":
            why = "leaves your Studio short of three cards"
        else:
            why = f"leaves you {figures['money_after_promotion']} after promotion, short of your wages of {figures['wages_due']}"
        return (
            f"This plan {why}, so you drop out at scoring. Placing {_plan_steps(table, state.studios[player], best.plan)} "
            f"finishes your movie with a value of {best.value}."
        )
    if isinstance(action, Respond):
        other = HEADHUNT if action.choice == SECURE else SECURE
        if Respond(other) not in rules.legal_responses(state, player):
            return None
        mine = _respond_endings(state, player, action.choice)
        if any(ending.finished for ending in mine) or not any(ending.finished for ending in _respond_endings(state, player, other)):
            return None
        verb = "secure the funds" if action.choice == SECURE else "headhunt"
        instead = "Headhunting" if other == HEADHUNT else "Securing the funds"
        back, taken = mine
        if back.incomplete and taken.incomplete:
            why = "your Studio stays short of three cards whichever way your own folder comes back"
        elif not back.incomplete and not taken.incomplete:
            best = max(mine, key=lambda ending: ending.money - ending.wages)
            why = (
                f"you cannot pay your wages whichever way your own folder comes back (at best {best.money} after promotion "
                f"against {best.wages} due)"
            )
        else:
            why = f"{_why_out(back)} if your own card comes back, and {_why_out(taken)} if it is headhunted"
        return f"This is the last round: if you {verb}, {why}, so you drop out at scoring. {instead} could still let you finish."
    return None


# -- events -----------------------------------------------------------------------------------


def describe_event(event: Event, state: CinecittaState | None = None, names: Sequence[str] | None = None) -> str:
    """One log line, seats by name and cards by name; "" for the commitments of a simultaneous step."""
    table = state.table if state is not None else load_cards()
    data = event.data
    kind = event.kind

    def who(seat: int) -> str:
        return who_is(names, seat)

    def card(code: str | None) -> str:
        return card_name(table, code) if code else ""

    if kind == "committed":
        return ""
    if kind == "folder_passed":
        passed = cast(FolderPassed, data)
        amount = passed["amount"]
        money = f"{amount}" if amount else "no money"
        return f"{who(passed['sender'])} passed a folder to {who(passed['recipient'])}: {card(passed['card'])} with {money}."
    if kind == "folder_returned":
        returned = cast(FolderReturned, data)
        sender, recipient, amount = who(returned["sender"]), who(returned["recipient"]), returned["amount"]
        name = card(returned["card"])
        if returned["response"] == HEADHUNT:
            if not amount:
                return f"{recipient} headhunted {name} from {sender} for free; the folder went back to {sender} empty."
            return (
                f"{recipient} headhunted {name} from {sender}: {recipient} paid {amount}, and {sender} got back {2 * amount} "
                f"({sender}'s own {amount} and {recipient}'s {amount})."
            )
        if not amount:
            return f"{recipient} secured {sender}'s folder, which held no money, and sent {name} back to {sender}."
        return f"{recipient} secured the {amount} from {sender} and sent {name} back to {sender}."
    if kind == "placed":
        placed = cast(Placed, data)
        moved = f", moving {card(placed['moved_out'])} to the Office" if placed["moved_out"] else ""
        return f"{who(placed['seat'])} placed {card(placed['card'])} in the Studio{moved}."
    if kind == "round_started":
        started = cast(RoundStarted, data)
        return _round_words(started["round"], started["offset"], state, names)
    if kind == "game_over":
        return _game_over_words(cast(GameOver, data), names)
    return kind.replace("_", " ")


def direction_words(offset: int, num_players: int | None) -> str:
    """Where folders go: ``to the left neighbour``, ``2 seats to the left``, ``to the right neighbour``, ``across the table``."""
    if offset == 1:
        return "to the left neighbour"
    if num_players is not None and offset == num_players - 1:
        return "to the right neighbour"
    if num_players == 4 and offset == 2:
        return "across the table"
    return f"{offset} seats to the left"


def _round_words(number: int, offset: int, state: CinecittaState | None, names: Sequence[str] | None) -> str:
    n = state.num_players if state is not None else None
    of = f" of {state.rounds}" if state is not None else ""
    text = f"Round {number}{of} begins: every folder goes {direction_words(offset, n)}"
    if n is not None and state is not None and state.options.get("destination_change"):
        pairs = ", ".join(f"{who_is(names, seat)} to {who_is(names, (seat + offset) % n)}" for seat in range(n))
        text += f" ({pairs})"
    return text + "."


def _game_over_words(data: GameOver, names: Sequence[str] | None) -> str:
    winners = list(data["winners"])
    scores = list(data["scores"])
    wallets = ", ".join(f"{who_is(names, seat)} {money}" for seat, money in enumerate(data.get("wallets", [])))
    shown = f" Wallets at the end: {wallets}." if wallets else ""
    if not winners:
        return f"The game is over: every studio dropped out, so nobody wins.{shown}"
    value = _number(scores[winners[0]])
    if len(winners) == 1:
        return f"The game is over: {who_is(names, winners[0])} wins with a value of {value}.{shown}"
    together = join_words([who_is(names, seat) for seat in winners])
    return f"The game is over: {together} share the win with a value of {value} each.{shown}"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


# -- the terminal ----------------------------------------------------------------------------------


def commitment_words(table: CardTable, text: str | None) -> str | None:
    """A seat's own secret choice in words, from its action text (``offer D6 30`` -> ``offer Director 6 (D6) with 30``)."""
    if not text:
        return None
    try:
        action = _CODEC.parse(text)
    except GreenlightError:
        return text
    if isinstance(action, Offer):
        return f"offer {card_title(table, action.card)} with {action.amount or 'no money'}"
    if isinstance(action, Respond):
        return "secure the funds" if action.choice == SECURE else "headhunt the card"
    assert isinstance(action, Place)
    if not action.placements:
        return "nothing to place"
    steps = [card_title(table, card) + (f" in place of {card_title(table, out)}" if out else "") for card, out in action.placements]
    return "place " + ", then ".join(steps)


def render_text(observation: CinecittaObservation, names: Sequence[str] | None = None) -> str:
    """The terminal view in words (rich markup; names and card words escaped)."""
    obs = observation
    table = rules.table_for(obs["options"])
    n = obs["num_players"]
    viewer = obs["viewer"]

    def who(seat: int) -> str:
        return escape(who_is(names, seat))

    def cards(codes: Sequence[str], faces: bool = False) -> str:
        if not codes:
            return "empty"
        parts = [f"{card_title(table, c)}: {card_icons(table, c)}" if faces and c in table else card_title(table, c) for c in codes]
        return escape("; ".join(parts) if faces else ", ".join(parts))

    title = STEP_TITLES.get(obs["step"], obs["step"])
    round_text = f"round {obs['round']} of {obs['rounds']}" if obs["step"] != OVER else f"{obs['rounds']} rounds played"
    lines = [f"[bold]Cinecitta 1937[/bold] · {round_text} · {title}"]
    if obs["partner_offset"] is not None:
        offset = obs["partner_offset"]
        pairs = ", ".join(f"{who(seat)} to {who((seat + offset) % n)}" for seat in range(n))
        lines.append(f"Folders go {direction_words(offset, n)} this round: {pairs}.")
        committed = ", ".join(who(s) for s in obs["committed"]) or "nobody yet"
        waiting = ", ".join(who(s) for s in obs["waiting"]) or "nobody"
        lines.append(f"Chosen: {committed}. Still choosing: {waiting}.")
    hidden = " (wallets stay hidden until scoring)" if obs["step"] != OVER else ""
    lines.append(f"Money at the table: {obs['money_total']}{hidden}.")
    for seat in range(n):
        you = " (you)" if seat == viewer else ""
        figures = obs["tableaus"][seat]
        quality = f"quality {figures['quality']}" if figures["quality"] is not None else f"{figures['studio_cards']} of 3 cards"
        held = obs["hand_sizes"][seat]
        lines.append(f"[cyan]{who(seat)}{you}[/cyan] · {held} {'card' if held == 1 else 'cards'} in hand")
        lines.append(f"    Studio: {cards(obs['studios'][seat])} · {quality}")
        lines.append(f"    Office: {cards(obs['offices'][seat])} · {escape(office_words(figures))}")
    if obs["last_placements"]:
        placed = []
        for item in obs["last_placements"]:
            moved = f", moving {card_title(table, item['moved_out'])} to the Office" if item["moved_out"] else ""
            placed.append(f"{who(item['seat'])} placed {escape(card_title(table, item['card']) + moved)}")
        lines.append("Last placements: " + "; ".join(placed) + ".")
    if viewer is not None and "hand" in obs:
        lines.append(f"[bold]Your hand:[/bold] {cards(obs['hand'], faces=True)}")
        outlook_figures = obs.get("forecast")
        outlook = f" {escape(forecast_words(outlook_figures))}" if outlook_figures else ""
        lines.append(f"[bold]Your wallet:[/bold] {obs['wallet']}.{outlook}")
        for folder in (obs.get("folder_sent"), obs.get("folder_received")):
            if folder:
                lines.append(escape(folder_words(table, folder, viewer, names)))
        if obs.get("pending"):
            lines.append(f"[bold]To place in your Studio:[/bold] {cards(obs['pending'], faces=True)}")
        mine = commitment_words(table, obs.get("my_commitment"))
        if mine:
            lines.append(f"Your choice, secret until everyone has chosen: {escape(mine)}.")
    if obs.get("final"):
        lines.append("[bold]Final scores[/bold]")
        final = obs["final"]
        for seat, scoring in enumerate(final["breakdown"]):
            win = " [green]WINNER[/green]" if seat in final["winners"] else ""
            lines.append(f"{who(seat)}: {escape(breakdown_words(scoring, final['wallets'][seat]))}{win}")
    return "\n".join(lines)


def folder_words(table: CardTable, folder: FolderView, viewer: int | None, names: Sequence[str] | None = None) -> str:
    """One of the seat's own folders in words, with what came back once the answer is known."""
    name = card_name(table, folder["card"])
    amount = folder["amount"]
    money = f"{amount}" if amount else "no money"
    if folder["sender"] == viewer:
        head = f"You sent {who_is(names, folder['recipient'])} {name} with {money}"
        if folder["response"] == SECURE:
            return f"{head}: secured, so {name} came back to you to place and the {money} stayed with them."
        if folder["response"] == HEADHUNT:
            back = f"{2 * amount} came back to you" if amount else "the folder came back empty"
            return f"{head}: headhunted, so {back}."
        return f"{head}; the answer comes at the end of step 2."
    head = f"{who_is(names, folder['sender'])} sent you {name} with {money}"
    if folder["response"] == SECURE:
        return f"{head}: you secured the funds and sent the card back."
    if folder["response"] == HEADHUNT:
        return f"{head}: you headhunted the card" + (f", paying {amount}." if amount else " for free.")
    return f"{head}."


def breakdown_words(item: Breakdown, wallet: int) -> str:
    """A seat's scoring in words, each step that was reached (rules §5)."""
    status = item["status"]
    if status == rules.DROPPED_INCOMPLETE:
        return f"dropped out: the Studio did not have three cards (wallet {wallet})."
    if status == rules.DROPPED_WAGES:
        promotion = item["promotion"] or 0
        return (
            f"dropped out: quality {item['quality']}, but {wallet} + {promotion} promotion = {wallet + promotion} "
            f"could not pay wages of {item['wages_due']}."
        )
    wages = f"wages {item['wages_due']}" if item["wages_due"] else "no wages (pen)"
    award = ""
    if item["award"] == 200:
        award = " + 200 Golden Doggy"
    elif item["award"] == -100:
        award = " - 100 Gray Doggy"
    box_office = f"{item['money']} x {reels_words(item['reels'] or 0)} = box office {item['box_office']}"
    return (
        f"finished with quality {item['quality']}; {wallet} + {item['promotion']} promotion, {wages}, leaves {box_office}; "
        f"value {item['quality']} + {item['box_office']}{award} = {item['value']}."
    )


# -- help ----------------------------------------------------------------------------------------------

LEGEND = (
    'Reading a card: "Director 6" is the occupation and the number. "promotion 1" is one promotion icon: 10 more money '
    'at scoring. "3 reels" are film reels: your box office is your money after wages times the reels. "pen": one pen '
    "means no wages for anyone in your studio. Icons count only on cards in your Office; in the Studio only the number "
    "counts. In the terminal, the short code in brackets after a card's name (the occupation's first letter and the "
    "number) is what you type."
)

SCORING = (
    "Scoring: your quality is your three Studio numbers from lowest to highest read as one number (2, 6 and 9 make 269). "
    "Add your promotion money to your wallet, then pay wages of 10 per staff card in your Studio and Office, unless a pen "
    "is in your Office. What is left times your Office reels is your box office; your value is quality plus box office. "
    "Fewer than three Studio cards, or too little money for the wages, and you drop out."
)


def help_text(observation: CinecittaObservation) -> str:
    """The legend, the scoring in brief and the rules of the step the observation is at."""
    obs = observation
    step = obs["step"]
    n = obs["num_players"]
    offset = obs["partner_offset"]
    where = direction_words(offset, n) if offset is not None else ""
    paragraphs = [LEGEND]
    if step == OFFER:
        paragraphs.append(
            f"Step 1 of 3, offer: everyone at once puts one card from their hand and any money (0 up to the whole wallet, in "
            f"tens) in a folder; this round it goes {where}. Nobody else sees what is inside. Your partner will either secure "
            f"the funds (keep your money and send the card back, which you must then place) or headhunt the card (keep it, "
            f"and send back your money plus the same again from their own wallet)."
        )
    elif step == RESPOND:
        paragraphs.append(
            "Step 2 of 3, respond: you hold the folder sent to you. Secure the funds: keep its money and send the card back. "
            "Headhunt: keep the card and add the same amount of your own money; its sender gets back double. You can headhunt "
            "only if your wallet, after your own offer, covers the amount. Your choice stays secret; its sender learns it "
            "from what comes back."
        )
    elif step == PLACE:
        paragraphs.append(
            "Step 3 of 3, place: your card comes back if it was secured, and a card you headhunted is yours too; every such "
            "card goes into your Studio now. A card of an occupation already in the Studio takes that card's place, and the "
            "old card moves to the Office. Otherwise it takes a free place. With three cards and no match, you choose which "
            "Studio card moves to the Office. With two cards you choose the order. The Office has no limit, and its cards "
            "never come back."
        )
    else:
        paragraphs.append(
            "The game is over: each movie was scored. Winner: the highest value; a tie goes to the higher quality, and "
            "studios still tied share the win. Studios that dropped out score nothing."
        )
    paragraphs.append(SCORING)
    options = obs["options"]
    if options.get("destination_change"):
        paragraphs.append(
            "Destination Change: the coaster turns before every round, so your folder goes 1, 2, 3... seats to the left in "
            "turn (never to yourself) and comes back to you as always."
        )
    if options.get("movie_awards"):
        paragraphs.append(
            "Movie Awards: among the studios that finish, every one tied for the highest quality gets the Golden Doggy "
            "(+200 value) and every one tied for the lowest the Gray Doggy (-100 value), if their qualities differ."
        )
    return "\n\n".join(paragraphs)
