"""The Maybe Movies table in the terminal, in words (``render_text`` of an observation)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.markup import escape

from greenlight.core.words import seat_name
from greenlight.games.maybe_movies.cards import ICONS
from greenlight.games.maybe_movies.observation import CardDetails, ChangeView, MaybeMoviesObservation, SettlementView
from greenlight.games.maybe_movies.words import check_sentences, counts_words, join_words, plural


def render_text(observation: MaybeMoviesObservation, names: Sequence[str] | None = None) -> str:
    """The terminal view in words (rich markup; every card and player text is escaped).

    Cards are shown by name with their face; cards a terminal player may type (market, hand,
    personal cards, the pitch) carry their code in brackets beside the name.
    """
    obs = observation
    cards = obs["cards"]
    n = obs["num_players"]
    viewer = obs["viewer"]

    def who(seat: int) -> str:
        return escape(seat_name(names, seat)) + (" (you)" if seat == viewer else "")

    def name(card: str) -> str:
        return escape(cards[card]["name"]) if card in cards else escape(card)

    def titled(card: str) -> str:
        info = cards.get(card)
        if info is None:
            return escape(card)
        return escape(f"{info['name']} ({card})")

    def faced(card: str, code: bool = False) -> str:
        info = cards.get(card)
        if info is None:
            return escape(card)
        head = titled(card) if code else escape(info["name"])
        return f"{head}: {escape(info['face'])}" if "type" not in info else head

    def names_of(ids: Sequence[str]) -> str:
        return escape(join_words(cards[card]["name"] if card in cards else card for card in ids)) or "none"

    flags = [OPTION_NAMES[key] for key in OPTION_NAMES if obs["options"].get(key)]
    active = obs["active"]
    header = f"[bold]Maybe Movies[/bold] · turn {obs['turn']} · {who(active)} pitches"
    lines = [header + (f" · {', '.join(flags)}" if flags else "")]
    decision = obs["decision"]
    if decision["players"]:
        waiting = join_words(who(seat) for seat in decision["players"])
        done = join_words(who(seat) for seat in decision["committed"])
        lines.append(f"{escape(decision['prompt'])} Waiting for {waiting}." + (f" Already voted: {done}." if done else ""))
    # The blocks in the order a turn needs them. A window too short for the whole table keeps its head and its tail
    # (the middle is a 'board' away), so what this decision is about comes first, the seats and your hand last, and
    # the rest (the last turn, the market outside a pitch, the movies made, the pool) in between.
    made_block: list[str] = []
    made = obs["movies_made"]
    if made:
        tops = []
        for stack in made:
            info = cards.get(stack["top"])
            result = "success" if stack["result"] == "SUCCESS" else "failure"
            mark = "" if result == "success" and len(stack["cards"]) == 1 else f", {result}"
            extra = f", {len(stack['cards'])} cards" if len(stack["cards"]) > 1 else ""
            tops.append(f"{name(stack['top'])} ({escape(_shows(info))}{mark}{extra})")
        made_block.append(f"[bold]Movies made:[/bold] {' · '.join(tops)}")
        made_block.append(f"  Icons on the movies made: {counts_words(obs['movies_made_icons'], empty='none')}")
    else:
        made_block.append("[bold]Movies made:[/bold] none yet")
    market_block = [f"[bold]Market[/bold] ({obs['draw_pile_size']} in the draw pile, {len(obs['discard'])} discarded):"]
    market_block.extend(f"  {faced(card, code=True)}" for card in obs["market"])
    pitch_block: list[str] = []
    if obs["row"]:
        pitch_block.append("[bold]Pitch[/bold], left to right:")
        pitch_block.extend(f"  {faced(card, code=True)}" for card in obs["row"])
        preview = obs["preview"]
        for sentence in preview["words"] if preview is not None else []:
            pitch_block.append(f"  {escape(sentence)}")
    pool = obs["pool"]
    pool_block = [f"[bold]Pool:[/bold] {plural(len(pool), 'vote card')}" + (f" ({_pool_summary(cards, pool)})" if pool else "")]
    seats_block = []
    for seat in range(n):
        won = obs["won"][seat]
        line = f"[cyan]{who(seat)}[/cyan]: {plural(obs['scores'][seat], 'point')}, {plural(obs['hand_sizes'][seat], 'card')} in hand"
        line += f"; won {names_of(won)}" if won else "; nothing won yet"
        if obs["personal"][seat]:
            line += f"; personal: {'; '.join(faced(card, code=seat == viewer) for card in obs['personal'][seat])}"
        if obs["known_in_hand"][seat] and seat != viewer:
            line += f"; known to hold {names_of(obs['known_in_hand'][seat])}"
        seats_block.append(line)
    hand = obs.get("hand")
    if hand is not None:
        seats_block.append(f"[bold]Your hand:[/bold] {', '.join(titled(card) for card in hand) or 'empty'}")
    votes_block = []
    for number, votes in enumerate(obs["reveals"], start=1):
        shown = join_words(f"{who(seat)} {name(card)}" for seat, card in enumerate(votes) if card is not None) or "no votes"
        votes_block.append(f"Votes{f' (round {number})' if len(obs['reveals']) > 1 else ''}: {shown}")
    for change in obs["changes"]:
        votes_block.append(f"  {_change_words(change, who, name)}")
    edit = obs["edit"]
    if edit:
        votes_block.append(f"[bold]{who(edit['seat'])} changes the pitch[/bold] with {name(edit['change'])}.")
    choice = obs["choice"]
    if choice:
        votes_block.append(f"[bold]To decide:[/bold] {name(choice['card'])}: {escape(cards[choice['card']]['face'])}")
    last = obs["history"][-1] if obs["history"] else None
    check, settlement = obs["check"], obs["settlement"]
    last_block = []
    if check is not None:
        votes_block.append("[bold]The check:[/bold]")
        votes_block.extend(f"  {_coloured(sentence)}" for sentence in check_sentences(check))
        if settlement is not None:
            votes_block.append(f"  {_settlement_words(settlement, who, names_of)}")
    elif last is not None:
        last_block.append(f"[bold]Last turn[/bold]: {who(last['active'])} pitched {names_of(last['row'])}.")
        reveal = last["reveals"][-1] if last["reveals"] else []
        shown = join_words(f"{who(seat)} {name(card)}" for seat, card in enumerate(reveal) if card is not None) or "no votes"
        last_block.append(f"  Final votes: {shown}.")
        last_block.extend(f"  {_coloured(sentence)}" for sentence in check_sentences(last["check"]))
        last_block.append(f"  {_settlement_words(last['settlement'], who, names_of)}")
        if last["movie"]:
            last_block.append(f"  {name(last['movie'])} went into the movies made.")
    # While a pitch is built from the market, the market is what the decision is about.
    building = obs["phase"] == "pitch"
    lines += pitch_block + (market_block if building else []) + votes_block
    lines += last_block + ([] if building else market_block) + made_block + pool_block + seats_block
    final = obs.get("final")
    if final:
        lines.append("[bold]Final scores[/bold]")
        for seat in sorted(range(n), key=lambda s: final["ranks"][s]):
            win = " [green]wins[/green]" if seat in final["winners"] else ""
            lines.append(f"  {who(seat)}: {escape(final['words'][seat])}{win}")
    return "\n".join(lines)


OPTION_NAMES = {
    "trendsetter_tricks": "Trendsetter Tricks",
    "breaking_changes": "Breaking Changes",
    "blockbuster_budgets": "Blockbuster Budgets",
}


def _shows(info: CardDetails | None) -> str:
    """The icons a movie card shows in the movies made: its cost icons, or a blockbuster's X."""
    if info is not None and "cost" in info:
        return join_words(info["cost"])
    if info is not None and "x" in info and info["x"]:
        return info["x"]
    return "no icon"


def _coloured(sentence: str) -> str:
    text = escape(sentence)
    return text.replace("SUCCEEDS", "[green]SUCCEEDS[/green]").replace("FAILS", "[red]FAILS[/red]")


def _pool_summary(cards: dict[str, CardDetails], pool: Sequence[str]) -> str:
    counts: dict[str, int] = {}
    for card in pool:
        info = cards.get(card)
        icon = info["icon"] if info is not None and "icon" in info else "?"
        counts[icon] = counts.get(icon, 0) + 1
    ordered = sorted(counts.items(), key=lambda item: ICONS.index(item[0]) if item[0] in ICONS else len(ICONS))
    return ", ".join(f"{count} {icon}" for icon, count in ordered)


def _change_words(change: ChangeView, who: Callable[[int], str], name: Callable[[str], str]) -> str:
    parts = []
    if change["removed"]:
        parts.append(f"removed {name(change['removed'])}")
    if change["added"]:
        parts.append(f"added {name(change['added'])}")
    effect = join_words(parts) if parts else "changed nothing"
    drawn = f"; drew {name(change['replacement'])} from the pool" if change["replacement"] else ""
    return f"{who(change['seat'])} ({name(change['change'])}) {effect}{drawn}."


def _settlement_words(settlement: SettlementView, who: Callable[[int], str], names_of: Callable[[Sequence[str]], str]) -> str:
    won = [f"{who(seat)} wins {names_of(cards)}" for seat, cards in enumerate(settlement["won"]) if cards]
    pooled = f"; {plural(len(settlement['to_pool']), 'card')} to the pool" if settlement["to_pool"] else ""
    if settlement["result"] == "SUCCESS":
        head = f"Profit {settlement['profit']}: "
    elif settlement["all_no"]:
        head = "Every vote was NO, nobody gets anything"
    else:
        head = "Failed: "
    return f"{head}{'; '.join(won) if won else ('' if settlement['all_no'] else 'nobody wins a card')}{pooled}."
