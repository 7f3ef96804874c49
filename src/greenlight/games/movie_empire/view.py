"""What each seat may see (rules §8), determinization, secrets, and words for logs and the terminal."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from greenlight.core.events import Event
from greenlight.core.game import Observation
from greenlight.games.movie_empire import rounds, rules
from greenlight.games.movie_empire.cards import STAGES, T_PRODUCTION, T_SCRIPT, T_STAR, Tables, load_tables, requirement_text
from greenlight.games.movie_empire.effects import level, usable_dossier
from greenlight.games.movie_empire.lines import Line, metrics
from greenlight.games.movie_empire.premiere import premiere_json
from greenlight.games.movie_empire.state import GIFT, NO_SEAT, OVER, SETUP, WORKING, MovieEmpireState
from greenlight.games.movie_empire.working import in_use

# -- observations ----------------------------------------------------------------------------------


def line_json(table: Tables, index: int, line: Line | None) -> dict[str, Any] | None:
    """Public JSON form of a production line (shut lines keep their known script, §8)."""
    if line is None:
        return None
    m = metrics(table, line)
    return {
        "slot": index + 1,
        "script": line.script,
        "genre": m.genre,
        "cards": [
            {"card": card, "stage": STAGES[stage], "stacked": stacked}
            for card, stage, stacked in zip(line.cards, line.stages, line.stacked, strict=True)
        ],
        "stars": list(line.stars),
        "shut": line.shut,
        "locked": line.locked,
        "period": m.period,
        "counts": dict(zip(STAGES, m.counts, strict=True)),
        "script_met": m.script_met,
    }


def _space_json(state: MovieEmpireState, space_index: int) -> dict[str, Any]:
    table = state.table
    space = table.spaces[space_index]
    item: dict[str, Any] = {
        "id": space.id,
        "task": space.task_name,
        "money": space.money,
        "assistant": _seat_or_none(state.assistant[space_index]),
        "blocked_by": _seat_or_none(state.blocked[space_index]),
    }
    if space.task in (T_PRODUCTION, T_SCRIPT, T_STAR):
        card = state.slot_card[space_index]
        item["card"] = card
        if space.task == T_PRODUCTION:
            item["surcharge"] = space.surcharge
            item["price"] = table.production[card].cost + space.surcharge if card is not None else None
        elif space.task == T_STAR:
            item["price"] = table.stars[card].cost if card is not None else None
    if space.task_name == "release":
        item["cut_by"] = _seat_or_none(state.cut_by[space_index])
        line = state.release_line[space_index]
        item["line"] = line + 1 if line != NO_SEAT else None
    return item


def _seat_or_none(seat: int) -> int | None:
    return None if seat == NO_SEAT else seat


def _hand_counts(state: MovieEmpireState, seat: int) -> dict[str, int]:
    """The kinds of card in a hand are public: the three decks have different backs."""
    counts = {"production": 0, "star": 0, "script": 0}
    for card in state.hands[seat]:
        counts[state.table.kind_of(card)] += 1
    return counts


def _player_json(state: MovieEmpireState, seat: int) -> dict[str, Any]:
    table = state.table
    bar = level(state, seat)
    return {
        "seat": seat,
        "money": state.money[seat],
        "pp": state.pp[seat],
        "sympathy": state.sympathy[seat],
        "budget": bar.budget,
        "lines_allowed": bar.lines,
        "hand_size": len(state.hands[seat]),
        "hand_counts": _hand_counts(state, seat),
        "known_cards": sorted(state.known[seat]),
        "assistants_placed": state.placed[seat],
        "passed": state.passed[seat],
        "dossier_round": _seat_or_none(state.dossier[seat]),
        "dossier_usable": usable_dossier(state, seat),
        "dossiers_spent": state.spent[seat],
        "exempt": state.exempt[seat],
        "statues": state.statues[seat],
        "released": [list(movie) for movie in state.released[seat]],
        "lines": [line_json(table, index, line) for index, line in enumerate(state.lines[seat])],
        "drawn_count": len(state.drawn[seat]),
        "dealt_count": len(state.dealt[seat]),
    }


def observe(state: MovieEmpireState, viewer: int | None) -> Observation:
    """The JSON-ready view of ``viewer`` (None = spectator), built only from what that seat may see (§8)."""
    table = state.table
    decision = rules.decision(state)
    view: dict[str, Any] = {
        "game": "movie-empire",
        "viewer": viewer,
        "num_players": state.num_players,
        "options": {key: value for key, value in state.options.items()},
        "round": state.round,
        "last_round": state.last_round,
        "phase": state.phase,
        "first_player": state.first_player,
        "decision": {"kind": decision.kind, "players": list(decision.players), "committed": list(decision.committed)},
        "plan": {
            "active": state.plan,
            "next": state.plan_pile[-1] if state.plan_pile else None,
            "revealed": list(state.plans_done),
            "pile": len(state.plan_pile),
        },
        "trends": {
            "row": list(state.trend_row),
            "active": state.trend_row[2],
            "hit": state.trend_hit,
            "pile": len(state.trend_pile),
            "removed": len(state.trend_removed),
        },
        "spaces": [_space_json(state, space.index) for space in in_use(state)],
        "markets_used": list(state.markets_used),
        "piles": {"production": len(state.production_pile), "star": len(state.star_pile), "script": len(state.script_pile)},
        "discards": {
            "production": list(state.production_discard),
            "star": list(state.star_discard),
            "script": list(state.script_discard),
        },
        "players": [_player_json(state, seat) for seat in range(state.num_players)],
        "premieres": [premiere_json(result) for result in state.premieres],
    }
    if state.phase == WORKING:
        view["turn"] = {
            "seat": state.turn_seat,
            "placed": state.turn_placed,
            "produced": state.turn_produced,
            "target": state.target + 1 if state.target != NO_SEAT else None,
            "lays": state.lays,
            "swap_card": state.sub_card,
            "release_space": table.spaces[state.sub_space].id if state.sub_space != NO_SEAT else None,
        }
    if state.net_items and state.net_pos < len(state.net_items):
        seat, space = state.net_items[state.net_pos]
        view["internet"] = {"seat": seat, "release_space": table.spaces[space].id if space != NO_SEAT else None}
    if viewer is not None:
        view["hand"] = list(state.hands[viewer])
        view["drawn"] = list(state.drawn[viewer])
        view["dealt"] = list(state.dealt[viewer])
        commitment = state.commit[viewer]
        view["my_commitment"] = list(commitment) if commitment is not None else None
        view["gifted"] = list(state.gifted[viewer])
    if state.phase == OVER:
        result = rules_outcome(state)
        view["final"] = result.to_json()
    return view


def rules_outcome(state: MovieEmpireState) -> Any:
    """The final outcome (imported late: scoring depends on nothing here)."""
    from greenlight.games.movie_empire.scoring import outcome

    return outcome(state)


# -- hidden information ----------------------------------------------------------------------------


def _fixed_cards(state: MovieEmpireState, viewer: int | None, seat: int) -> list[str]:
    """Cards of ``seat``'s hand that ``viewer`` knows are there: taken face up, or given by the viewer (AP12)."""
    fixed = list(state.known[seat])
    if viewer is not None and seat == state.left_of(viewer):
        fixed.extend(state.gifted[viewer])
    return fixed


def _split_hand(hand: list[str], fixed: list[str]) -> tuple[list[str], list[str]]:
    """(known part, hidden part) of a hand, as multisets."""
    rest = list(hand)
    known: list[str] = []
    for card in fixed:
        if card in rest:
            rest.remove(card)
            known.append(card)
    return known, rest


def determinize(state: MovieEmpireState, viewer: int | None, rng: random.Random) -> MovieEmpireState:
    """A state ``viewer`` cannot tell from ``state``: every hidden part drawn again (§8).

    Redrawn: other seats' hands (sizes and card kinds kept; cards the viewer knows
    are there stay), their Sabotage draws and setup scripts, every draw pile's
    order, the removed trends, the annual plans below the visible top, other
    seats' secret commitments, and the state's own RNG.
    """
    world = state.clone()
    table = state.table
    n = state.num_players
    others = [seat for seat in range(n) if seat != viewer]
    # Canonical: every pool is sorted before it is shuffled, so two states this seat cannot tell
    # apart give the same world for the same ``rng`` (search bots rely on it).
    pools: dict[str, list[str]] = {
        "production": list(state.production_pile),
        "star": list(state.star_pile),
        "script": list(state.script_pile),
    }
    shapes: dict[int, tuple[list[str], list[str]]] = {}
    for seat in others:
        known, hidden = _split_hand(state.hands[seat], _fixed_cards(state, viewer, seat))
        kinds = sorted(table.kind_of(card) for card in hidden)
        for card in hidden:
            pools[table.kind_of(card)].append(card)
        shapes[seat] = (sorted(known), kinds)
        pools["production"].extend(state.drawn[seat])
        pools["script"].extend(state.dealt[seat])
    for pool in pools.values():
        pool.sort()
        rng.shuffle(pool)
    for seat in others:
        known, kinds = shapes[seat]
        world.hands[seat] = known + [pools[kind].pop() for kind in kinds]
        world.drawn[seat] = [pools["production"].pop() for _ in state.drawn[seat]]
        world.dealt[seat] = [pools["script"].pop() for _ in state.dealt[seat]]
        world.gifted[seat] = []  # what another seat gave under AP12 is its own secret
    world.known = [sorted(cards) for cards in state.known]
    world.production_pile, world.star_pile, world.script_pile = pools["production"], pools["star"], pools["script"]
    trends = sorted(state.trend_pile + state.trend_removed)
    rng.shuffle(trends)
    world.trend_pile = trends[: len(state.trend_pile)]
    world.trend_removed = trends[len(state.trend_pile) :]
    if state.plan_pile:
        below = sorted(state.plan_pile[:-1])
        rng.shuffle(below)
        world.plan_pile = [*below, state.plan_pile[-1]]
    for seat in others:
        if state.commit[seat] is None:
            continue
        if state.phase == SETUP:
            world.commit[seat] = rng.choice(rounds.keep_actions(world, seat)).cards  # type: ignore[attr-defined]
        elif state.phase == GIFT:
            if rounds.gift_chooser(world, seat):
                world.commit[seat] = rng.choice(rounds.give_actions(world, seat)).cards  # type: ignore[attr-defined]
            else:
                world.commit[seat] = () if world.exempt[seat] else tuple(world.hands[seat])
    world.rng_seed, world.rng_uses = rng.getrandbits(128), 0  # future chance outcomes are redrawn too
    return world


def secrets(state: MovieEmpireState, viewer: int | None) -> frozenset[str]:
    """Card ids hidden from ``viewer`` with no visible copy anywhere (copies share ids, so visible ones are excluded)."""
    hidden: set[str] = set(state.production_pile) | set(state.star_pile) | set(state.script_pile)
    hidden.update(state.trend_pile, state.trend_removed, state.plan_pile[:-1])
    for seat in range(state.num_players):
        if seat == viewer:
            continue
        _, rest = _split_hand(state.hands[seat], _fixed_cards(state, viewer, seat))
        hidden.update(rest)
        hidden.update(state.drawn[seat])
        hidden.update(state.dealt[seat])
    visible: set[str] = {card for card in state.slot_card if card is not None}
    for lines in state.lines:
        for line in lines:
            if line is not None:
                visible.add(line.script)
                visible.update(line.cards)
                visible.update(card for card in line.stacked if card is not None)
                visible.update(line.stars)
    visible.update(state.production_discard, state.star_discard, state.script_discard)
    visible.update(card for movies in state.released for card, _, _ in movies)
    visible.update(card for card in state.trend_row if card is not None)
    visible.update(state.plans_done)
    if state.plan_pile:
        visible.add(state.plan_pile[-1])
    for seat in range(state.num_players):
        visible.update(state.known[seat])
    if viewer is not None:
        visible.update(state.hands[viewer], state.drawn[viewer], state.dealt[viewer], state.gifted[viewer])
    return frozenset(hidden - visible)


# -- words ----------------------------------------------------------------------------------------------

_MARKET_WORDS = {"USA": "the USA", "EUR": "Europe", "CHN": "China", "NET": "the Internet"}
_SOURCES = ("market", "trend", "script", "stars", "period", "production")


def _names(table: Tables, cards: list[str]) -> str:
    return ", ".join(f"{table.card_name(card)} ({card})" for card in cards) or "nothing"


def describe_event(event: Event, table: Tables | None = None) -> str:
    """One line of log text."""
    table = table or load_tables()
    data = event.data
    kind = event.kind
    who = f"P{data['seat']}" if "seat" in data else ""
    if kind == "premiere":
        parts = ", ".join(f"{name} {data['parts'][name]}" for name in _SOURCES)
        title = table.card_name(data["script"])
        extras = []
        if data["statue"]:
            extras.append("golden statue")
        if data["money"]:
            extras.append(f"money {data['money']:+d}")
        if data["sympathy"]:
            extras.append(f"sympathy {data['sympathy']:+d}")
        tail = f" ({'; '.join(extras)})" if extras else ""
        trend = f", hit {table.card_name(data['trend'])}" if data["hit"] and data["trend"] else ""
        return f"{who} premieres {title} in {_MARKET_WORDS[data['market']]}{trend}: {parts} = {data['total']} PP{tail}."
    texts: dict[str, Callable[[], str]] = {
        "round_started": lambda: (
            f"Round {data['round']} begins; P{data['first_player']} is first player"
            + (f"; annual plan {data['plan']}: {table.card_name(data['plan'])}" if data["plan"] else "")
            + "."
        ),
        "budget": lambda: f"{who} receives a budget of {data['money']}.",
        "exemption": lambda: (
            f"{who} "
            + {
                "decline": "accepts the annual plan.",
                "free": "ignores the plan (top of the sympathy bar).",
                "dossier": "ignores the plan with a dossier.",
                "pay": "pays 4 to ignore the plan.",
            }[data["way"]]
        ),
        "plan_money": lambda: f"{who} {'gains' if data['change'] >= 0 else 'loses'} {abs(data['change'])} money from the annual plan.",
        "gift": lambda: f"{who} gives {_names(table, data['cards'])} to P{data['to']}.",
        "gift_count": lambda: f"{who} gives {data['count']} card(s) to P{data['to']}.",
        "committed": lambda: f"{who} has made their {data['step']} choice.",
        "setup_done": lambda: f"Setup done; P{data['first_player']} starts.",
        "working_started": lambda: "The working phase begins.",
        "placed": lambda: (
            f"{who} places an assistant on {data['space']}"
            + (" with a dossier" if data["dossier"] else "")
            + (f", hiring for {data['fee']}" if data["fee"] else "")
            + (f", {'receiving' if data['money'] > 0 else 'paying'} {abs(data['money'])}" if data["money"] else "")
            + "."
        ),
        "card_taken": lambda: (
            f"{who} takes {_names(table, [data['card']])} from {data['space']}" + (f" for {data['price']}" if data["price"] else "") + "."
        ),
        "drew": lambda: f"{who} draws {_names(table, data['cards'])} ({data['source']}).",
        "drew_count": lambda: f"{who} draws {data['count']} production card(s) blind ({data['source']}).",
        "sabotage_discarded": lambda: f"{who} discards {_names(table, data['cards'])} from the Sabotage draw.",
        "swapped": lambda: f"{who} swaps {_names(table, [data['given']])} for {_names(table, [data['taken']])} on {data['space']}.",
        "release_designated": lambda: f"{who} designates line {data['line']} for release on {data['space']}.",
        "produce": lambda: f"{who} produces into {'a new line' if data['new'] else 'line ' + str(data['line'])}.",
        "produce_done": lambda: f"{who} ends the produce step.",
        "line_started": lambda: f"{who} starts line {data['line']} with {_names(table, [data['script']])}.",
        "laid": lambda: f"{who} lays into line {data['line']}: {data['action']}.",
        "passed": lambda: f"{who} passes.",
        "sympathy": lambda: f"{who} sympathy {data['change']:+d} → {data['level']:+d} ({data['cause']}).",
        "line_shut": lambda: f"{who} shuts down line {data['line']}.",
        "line_reopened": lambda: f"{who} reopens line {data['line']}.",
        "dossier_spent": lambda: f"{who} spends a dossier ({data['use']}).",
        "dossier_taken": lambda: f"{who} takes a black dossier (usable from round {data['round'] + 1}).",
        "purged": lambda: f"{who} purges the production board, discarding {_names(table, data['discarded'])}.",
        "blocked": lambda: f"{who} blocks {data['space']} with a dossier.",
        "cut": lambda: f"{who} says Cut! on P{data['victim']}'s release at {data['space']}.",
        "discarded": lambda: f"{who} discards {_names(table, [data['card']])}.",
        "premiere_phase": lambda: f"Premieres of round {data['round']}.",
        "internet_skipped": lambda: f"{who} does not premiere on the Internet.",
        "upkeep_done": lambda: f"Upkeep of round {data['round']} done; P{data['first_player']} will be first player.",
        "game_over": lambda: "The game is over. Winner(s): " + (", ".join(f"P{seat}" for seat in data["winners"]) or "nobody") + ".",
    }
    text = texts.get(kind)
    return text() if text else kind.replace("_", " ")


_STAGE_COLOURS = {"G": "green", "B": "blue", "Y": "yellow", "R": "red"}


def _card_text(table: Tables, card: str | None) -> str:
    if card is None:
        return "—"
    if card in table.production:
        info = table.production[card]
        stage = STAGES[info.stage] if info.stage >= 0 else "J"
        colour = _STAGE_COLOURS.get(stage, "magenta")
        return f"[{colour}]{info.name}[/{colour}] {card} ({stage}, {info.cost}$, {info.pp}PP)"
    if card in table.stars:
        star = table.stars[card]
        banned = f", bans {''.join(sorted(star.banned))}" if star.banned else ""
        needs = f", needs {requirement_text(star.requirement)}" if star.requirement else ""
        return f"★ {star.name} {card} ({star.cost}$, {star.pp}PP{banned}{needs})"
    if card in table.scripts:
        script = table.scripts[card]
        needs = "/".join(str(count) for count in script.needs)
        return f"{script.title} {card} ({script.genre} {needs}, {script.pp}PP)"
    return table.card_name(card)


def _line_text(table: Tables, line: dict[str, Any]) -> str:
    script = table.scripts[line["script"]]
    needs = "/".join(str(count) for count in script.needs)
    cells = []
    for cell in line["cards"]:
        colour = _STAGE_COLOURS[cell["stage"]]
        stacked = f"+{table.card_name(cell['stacked'])}" if cell["stacked"] else ""
        cells.append(f"[{colour}]{cell['stage']} {table.card_name(cell['card'])}{stacked}[/{colour}]")
    stars = f"  stars: {', '.join(table.card_name(star) for star in line['stars'])}" if line["stars"] else ""
    flags = "".join([" [SHUT]" if line["shut"] else "", " [LOCKED for release]" if line["locked"] else ""])
    met = "met" if line["script_met"] else "not met"
    return (
        f"line {line['slot']}: {script.title} ({script.genre} {needs}, {script.pp}PP, {met}){flags}\n"
        f"      {' → '.join(cells) or '(no card yet)'}  period {line['period']}{stars}"
    )


def render_text(observation: Observation) -> str:
    """A readable terminal board (rich markup): spaces, slots with prices, trends, tableaus, hand, premieres."""
    obs = observation
    data_dir = obs["options"].get("data_dir")
    table = load_tables(str(data_dir) if data_dir else None)
    out: list[str] = []
    decision = obs["decision"]
    waiting = ", ".join(f"P{seat}" for seat in decision["players"]) or "—"
    out.append(
        f"[bold]Movie Empire[/bold]  round {obs['round']}/{obs['last_round']}  phase: {obs['phase']}  first player: P{obs['first_player']}"
    )
    out.append(f"Waiting for {waiting} ({decision['kind']})")
    plan = obs["plan"]
    if plan["active"] or plan["next"]:
        active = f"{plan['active']} {table.card_name(plan['active'])}" if plan["active"] else "none"
        upcoming = f"{plan['next']} {table.card_name(plan['next'])}" if plan["next"] else "none"
        out.append(f"Annual plan: {active}   next: {upcoming}")
    trend_cells = []
    for label, trend_id in zip(("TS1", "TS2", "TS3*"), obs["trends"]["row"], strict=True):
        if trend_id is None:
            trend_cells.append(f"{label} —")
            continue
        trend = table.trends[trend_id]
        market = trend.market or "any market"
        trend_cells.append(f"{label} {trend.name} [{requirement_text(trend.requirement)}; {market} {trend.pp_with}/{trend.pp_without}]")
    hit = " (already hit this round)" if obs["trends"]["hit"] else ""
    out.append("Trends: " + " | ".join(trend_cells) + hit)
    for task, title in (("production", "Production"), ("script", "Scripts"), ("star", "Stars")):
        cells = []
        for space in obs["spaces"]:
            if space["task"] != task:
                continue
            price = f" price {space['price']}" if space.get("price") is not None else ""
            who = f" [P{space['assistant']}]" if space["assistant"] is not None else ""
            blocked = f" [blocked by P{space['blocked_by']}]" if space["blocked_by"] is not None else ""
            cells.append(f"{space['id']}: {_card_text(table, space['card'])}{price}{who}{blocked}")
        out.append(f"[bold]{title}[/bold]\n  " + "\n  ".join(cells))
    actions = []
    for space in obs["spaces"]:
        if space["task"] in ("production", "script", "star"):
            continue
        occupant = f"P{space['assistant']}" if space["assistant"] is not None else "free"
        if space["blocked_by"] is not None:
            occupant = f"blocked by P{space['blocked_by']}"
        money = f" ({space['money']:+d})" if space["money"] else ""
        extra = ""
        if space["task"] == "release" and space.get("line"):
            extra = f" line {space['line']}" + (f" CUT by P{space['cut_by']}" if space.get("cut_by") is not None else "")
        actions.append(f"{space['id']}{money}: {occupant}{extra}")
    out.append("[bold]Spaces[/bold]  " + "   ".join(actions))
    if obs["markets_used"]:
        out.append("Markets used this round: " + ", ".join(obs["markets_used"]))
    for player in obs["players"]:
        seat = player["seat"]
        you = " (you)" if seat == obs["viewer"] else ""
        dossier = ""
        if player["dossier_round"] is not None:
            dossier = f"  dossier (round {player['dossier_round']}{', usable' if player['dossier_usable'] else ''})"
        movies = ", ".join(f"{script}/{genre}/{market}" for script, genre, market in player["released"]) or "none"
        status = " PASSED" if player["passed"] else ""
        exempt = " exempt" if player["exempt"] else ""
        out.append(
            f"[cyan]P{seat}{you}[/cyan]{status}{exempt}: money {player['money']}  PP {player['pp']}  sympathy {player['sympathy']:+d} "
            f"(budget {player['budget']}, lines {player['lines_allowed']})  hand {player['hand_size']}  "
            f"assistants {player['assistants_placed']}/4  statues {player['statues']}{dossier}"
        )
        out.append(f"    released: {movies}")
        if player["known_cards"]:
            out.append(f"    known in hand: {', '.join(table.card_name(card) for card in player['known_cards'])}")
        for line in player["lines"]:
            if line is not None:
                out.append("    " + _line_text(table, line))
    if obs.get("hand") is not None:
        out.append("[bold]Your hand:[/bold] " + ("; ".join(_card_text(table, card) for card in obs["hand"]) or "empty"))
        if obs.get("dealt"):
            out.append("Dealt scripts: " + "; ".join(_card_text(table, card) for card in obs["dealt"]))
        if obs.get("drawn"):
            out.append("Drawn (Sabotage): " + "; ".join(_card_text(table, card) for card in obs["drawn"]))
    recent = obs["premieres"]
    if recent:
        out.append("[bold]Premieres this round[/bold]")
        for item in recent:
            parts = "  ".join(f"{name} {item['parts'][name]}" for name in _SOURCES)
            statue = " + golden statue" if item["statue"] else ""
            out.append(f"  P{item['seat']} {table.card_name(item['script'])} in {item['market']}: {parts}  = {item['total']} PP{statue}")
    if obs.get("final"):
        final = obs["final"]
        out.append("[bold]Final scores[/bold]")
        for seat, item in enumerate(final["breakdown"]):
            win = " [green]WINNER[/green]" if seat in final["winners"] else ""
            out.append(
                f"  P{seat}: premieres {item['premieres']}  sympathy {item['sympathy']:+d}  money {item['money']}  "
                f"dossier {item['dossier']}  awards {item['awards']}  = {item['total']}{win}"
            )
    return "\n".join(out)
