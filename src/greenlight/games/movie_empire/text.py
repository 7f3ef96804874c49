"""The terminal board of Movie Empire: an observation drawn in words (rich markup), from ``words`` only.

Cards are named with their code beside the name ("Colour Grading (PY03)", the
code dimmed) since the terminal player may type codes; every other text is the same as the web's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.markup import escape

from greenlight.core.words import seat_name
from greenlight.games.movie_empire.cards import STAGES, Tables, load_tables
from greenlight.games.movie_empire.observation import LineWithPreview, MovieEmpireObservation, PlayerView
from greenlight.games.movie_empire.words import (
    MARKET_IN,
    PHASE_WORDS,
    STEP_WORDS,
    card_short,
    join,
    plan_text,
    plural,
    points,
    signed,
    space_name,
    trend_text,
)

_MARKUP = {"G": "green", "B": "blue", "Y": "yellow", "R": "red"}
_TREND_WHEN = ("in two rounds", "next round", "active this round")
#: The trend row is stored left to right (the active trend last); it is shown active first.
_TREND_ORDER = (2, 1, 0)
#: A seat's name in the board's markup ("nobody" for None).
_Who = Callable[[int | None], str]


def _title(table: Tables, card: str) -> str:
    """``Colour Grading (PY03)``, coloured by stage for production cards."""
    name = escape(table.card_name(card))
    info = table.production.get(card)
    if info is not None and not info.is_joker:
        colour = _MARKUP[STAGES[info.stage]]
        return f"[{colour}]{name}[/{colour}] [dim]({card})[/dim]"
    return f"{name} [dim]({card})[/dim]"


def _card(table: Tables, card: str) -> str:
    """A card with its code and short face."""
    return f"{_title(table, card)}: {escape(card_short(table, card))}"


def _line(table: Tables, line: LineWithPreview, names: Sequence[str] | None) -> list[str]:
    script = table.scripts[line["script"]]
    flags = []
    if line["shut"]:
        flags.append("shut down")
    if line["locked"]:
        flags.append("designated for release")
    flag_words = f" [{', '.join(flags)}]" if flags else ""
    out = [f"  Line {line['slot']}: {_title(table, script.id)}, {escape(card_short(table, script.id))}{escape(flag_words)}"]
    cells = []
    for cell in line["cards"]:
        colour = _MARKUP[cell["stage"]]
        name = escape(table.card_name(cell["card"]))
        stacked = f" + {escape(table.card_name(cell['stacked']))}" if cell["stacked"] else ""
        joker = f" as {cell['stage_words']}" if table.production[cell["card"]].is_joker else ""
        cells.append(f"[{colour}]{name}{stacked}{joker}[/{colour}]")
    out.append(f"    {' → '.join(cells) or 'no card yet'}")
    if line["stars"]:
        out.append(f"    Stars: {', '.join(escape(table.card_name(star)) for star in line['stars'])}")
    preview = line.get("preview")
    if preview:
        marks = {"met": "[green]✓[/green] ", "missing": "[red]✗[/red] ", "": ""}
        out.extend(f"    {marks[item['mark']]}{escape(item['text'])}" for item in preview["words"])
    return out


def render_text(observation: MovieEmpireObservation, names: Sequence[str] | None = None) -> str:
    """A readable terminal board: plan, trends, the board, every studio, your hand, premieres and final scores."""
    obs = observation
    data_dir = obs["options"].get("data")
    table = load_tables(str(data_dir) if data_dir else None)

    def who(seat: int | None) -> str:
        return "nobody" if seat is None else escape(seat_name(names, seat))

    out: list[str] = []
    decision = obs["decision"]
    out.append(
        f"[bold]Movie Empire[/bold] · round {obs['round']} of {obs['last_round']} · {PHASE_WORDS.get(obs['phase'], obs['phase'])}"
        f" · first player: {who(obs['first_player'])}"
    )
    if decision["players"]:
        waiting = join([who(seat) for seat in decision["players"]])
        done = f"; {join([who(seat) for seat in decision['committed']])} already chose" if decision["committed"] else ""
        out.append(f"Waiting for {waiting}: {STEP_WORDS.get(decision['kind'], decision['kind'])}{done}.")
    plan = obs["plan"]
    if plan["active"]:
        out.append(f"[bold]Annual plan[/bold]: {_title(table, plan['active'])}. {escape(plan_text(table.plans[plan['active']]))}")
    if plan["next"]:
        out.append(f"Next annual plan: {_title(table, plan['next'])}.")
    trends = obs["trends"]
    for position in _TREND_ORDER:
        when, trend_id = _TREND_WHEN[position], trends["row"][position]
        if trend_id is None:
            continue
        hit = " It was hit this round." if when == _TREND_WHEN[2] and trends["hit"] else ""
        out.append(f"Trend {when}: {_title(table, trend_id)}. {escape(trend_text(table.trends[trend_id]))}{hit}")
    out.append(_board(table, obs, who))
    for player in obs["players"]:
        out.extend(_player(table, obs, player, who, names))
    if obs.get("hand") is not None:
        out.append("[bold]Your hand[/bold]: " + ("; ".join(_card(table, card) for card in obs["hand"]) or "empty"))
        if obs.get("dealt"):
            out.append("[bold]Scripts dealt to you[/bold] (keep some, the others go back):")
            out.extend(f"  {_card(table, card)}" for card in obs["dealt"])
        if obs.get("drawn"):
            out.append("[bold]Your Sabotage draw[/bold] (keep 2):")
            out.extend(f"  {_card(table, card)}" for card in obs["drawn"])
        commitment = obs.get("my_commitment")
        if commitment:
            out.append(f"Your secret choice: {', '.join(_title(table, card) for card in commitment)}.")
    if obs["premieres"]:
        out.append("[bold]Premieres this round[/bold]")
        for item in obs["premieres"]:
            out.append(f"  {who(item['seat'])} premieres {escape(item['words'])}.")
    if obs.get("final_rows"):
        out.append("[bold]Final scores[/bold]")
        seats = range(obs["num_players"])
        width = max(len(row["label"]) for row in obs["final_rows"])
        out.append("  " + " " * width + "  " + "  ".join(f"{who(seat):>10}" for seat in seats))
        for row in obs["final_rows"]:
            out.append("  " + f"{escape(row['label']):<{width}}" + "  " + "  ".join(f"{value:>10}" for value in row["values"]))
        winners = obs["final"]["winners"]
        out.append(f"Winner: {join([who(seat) for seat in winners]) or 'nobody'}.")
    return "\n".join(out)


def _board(table: Tables, obs: MovieEmpireObservation, who: _Who) -> str:
    groups: dict[str, list[str]] = {"production": [], "script": [], "star": [], "other": []}
    for space in obs["spaces"]:
        info = table.space_by_id[space["id"]]
        name = f"{escape(space_name(table, info))} [dim]({space['id']})[/dim]"
        occupant = []
        if space["assistant"] is not None:
            occupant.append(f"{who(space['assistant'])}'s assistant")
        if space["blocked_by"] is not None:
            occupant.append(f"blocked by {who(space['blocked_by'])}")
        if space.get("cut_by") is not None:
            occupant.append(f"cut by {who(space['cut_by'])}")
        if space.get("line"):
            occupant.append(f"line {space['line']}")
        tail = f" [{escape(', '.join(occupant))}]" if occupant else ""
        task = space["task"]
        if task in ("production", "script", "star"):
            card = space.get("card")
            if card is None:
                groups[task].append(f"  {name}: empty{tail}")
                continue
            price = f", price {space['price']} money" if space.get("price") is not None else ", free"
            groups[task].append(f"  {name}: {_card(table, card)}{price}{tail}")
        else:
            # Named only: what a space does is in the words of the move that takes it (the list of choices).
            groups["other"].append(f"{name}{tail}")
    parts = [
        "[bold]Production board[/bold]",
        *groups["production"],
        "[bold]Scripts[/bold]",
        *groups["script"],
        "[bold]Stars[/bold]",
        *groups["star"],
        "[bold]Action and release spaces[/bold]: " + "; ".join(groups["other"]) + ".",
    ]
    return "\n".join(parts)


def _player(table: Tables, obs: MovieEmpireObservation, player: PlayerView, who: _Who, names: Sequence[str] | None) -> list[str]:
    seat = player["seat"]
    flags = []
    if seat == obs["viewer"]:
        flags.append("you")
    if player["passed"]:
        flags.append("passed")
    if player["exempt"]:
        flags.append("ignores the annual plan")
    flag_words = f" ({', '.join(flags)})" if flags else ""
    dossier = ""
    if player["dossier_round"] is not None:
        dossier = "; black dossier, usable" if player["dossier_usable"] else f"; black dossier taken in round {player['dossier_round']}"
    counts = player["hand_counts"]
    held = [(counts["production"], "production card"), (counts["star"], "star"), (counts["script"], "script")]
    hand = join([plural(count, word) for count, word in held if count]) or "empty"
    out = [
        f"[cyan]{who(seat)}[/cyan]{flag_words}: {player['money']} money, {points(player['pp'])}, sympathy {signed(player['sympathy'])}"
        f" (budget {player['budget']}, {plural(player['lines_allowed'], 'line')} open), {player['assistants_placed']} of 4 assistants"
        f" placed, {plural(player['statues'], 'golden statue')}{dossier}",
        f"  Hand: {hand}."
        + (f" Known to all: {', '.join(_title(table, card) for card in player['known_cards'])}." if player["known_cards"] else ""),
    ]
    if player["released"]:
        movies = [f"{escape(table.card_name(script))} {MARKET_IN[market]}" for script, _, market in player["released"]]
        out.append(f"  Released: {'; '.join(movies)}.")
    for line in player["lines"]:
        if line is not None:
            out.extend(_line(table, line, names))
    return out
