"""Player words for Movie Empire: the one source of everything a person reads.

Every printed component in words (``components``), requirements as sentences,
each legal action in context with what it costs or scores (``describe_action``),
warnings before a move that cannot be undone and gains nothing
(``action_warning``), premiere previews of production lines (``line_preview``),
log lines with seat names (``describe_event``), the final score table in words
and the help of each step. The terminal (``text.render_text``), the web
renderer (``web/table.js``, through the components and the observation) and
every log use these words; none of them reads data-file fields.

>>> from greenlight.games.movie_empire.cards import load_tables
>>> table = load_tables()
>>> script_needs(table.scripts["SA09"].needs)
'1 pre-production, 2 shooting, 1 post-production and 1 marketing card'
>>> requirement_clauses(table.stars["ST22"].requirement)
'has Soundtrack and at least 1 marketing card'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from greenlight.core.actions import Action
from greenlight.core.events import Event
from greenlight.core.words import Component, seat_name
from greenlight.games.movie_empire import rules
from greenlight.games.movie_empire.actions import (
    LEFT,
    NEW_LINE,
    SKIP,
    Block,
    Cut,
    Discard,
    Done,
    End,
    Exempt,
    Give,
    Keep,
    Lay,
    Market,
    Net,
    Pass,
    Place,
    Produce,
    Purge,
    Release,
    Script,
    Shut,
    Stack,
    Star,
    Stop,
    Swap,
    Take,
)
from greenlight.games.movie_empire.cards import (
    BOARD_MARKETS,
    R_EACH,
    R_GENRE,
    R_HAS,
    R_N_GE,
    R_N_ZERO,
    R_PERIOD_GE,
    R_PERIOD_LE,
    R_SCRIPT_MET,
    R_STARS_GE,
    R_STARS_ZERO,
    STAGE_WORDS,
    STAGES,
    T_CREDIT,
    T_DENOUNCE,
    T_FIRST_PLAYER,
    T_NICE,
    T_NICE_DOSSIER,
    T_OVERTIME,
    T_PRODUCTION,
    T_RELEASE,
    T_REVEAL,
    T_SABOTAGE,
    T_SCRIPT,
    T_STAR,
    TASKS,
    AnnualPlan,
    Clause,
    ProductionCard,
    Requirement,
    ScriptCard,
    Space,
    StarCard,
    Tables,
    TrendCard,
    load_tables,
)
from greenlight.games.movie_empire.effects import hand_limit, level
from greenlight.games.movie_empire.events import (
    Blocked,
    Budget,
    CardTaken,
    Committed,
    CutSaid,
    Discarded,
    DossierSpent,
    DossierTaken,
    Drew,
    DrewCount,
    Exemption,
    GameOver,
    Gift,
    GiftCount,
    InternetSkipped,
    Laid,
    LineReopened,
    LineShut,
    LineStarted,
    Passed,
    Placed,
    PlanMoney,
    Premiered,
    PremierePhase,
    ProduceDone,
    ProduceStarted,
    Purged,
    ReleaseDesignated,
    RoundStarted,
    SabotageDiscarded,
    SetupDone,
    Swapped,
    Sympathy,
    UpkeepDone,
    WorkingStarted,
)
from greenlight.games.movie_empire.lines import Line, Metrics, apply_lay, holds, metrics, production_pp
from greenlight.games.movie_empire.observation import (
    Breakdown,
    BreakdownKey,
    FinalRow,
    MarketPreview,
    MovieEmpireObservation,
    Preview,
    PreviewFigures,
    PreviewWord,
    StarPreview,
    TrendPreview,
)
from greenlight.games.movie_empire.premiere import CHN_DRAW, NET_COST, USA_MONEY, free_markets, pending_release, premiere_score
from greenlight.games.movie_empire.rounds import EXEMPTION_COST
from greenlight.games.movie_empire.scoring import (
    DOSSIER_PP,
    EXPLOITATION_PP,
    HARDWORKING_PP,
    JACK_PP,
    KING_PP,
    MONEY_PER_PP,
    PATRIOT_PP,
    TRENDSETTER_PP,
)
from greenlight.games.movie_empire.state import NO_SEAT, MovieEmpireState
from greenlight.games.movie_empire.working import (
    ASSISTANTS,
    HIRE_FEES,
    OVERTIME_DRAW,
    SABOTAGE_DRAW,
    SABOTAGE_KEEP,
    plan_blocks_release,
    production_slots,
    releasable,
)

# -- vocabulary --------------------------------------------------------------------------------------

STAGE_COLOURS = {"G": "green", "B": "blue", "Y": "yellow", "R": "red"}
GENRE_WORDS = {"A": "action", "C": "comedy", "D": "drama"}
#: "an action movie", "a comedy", "a drama".
GENRE_MOVIE = {"A": "an action movie", "C": "a comedy", "D": "a drama"}
GENRE_PLURAL = {"A": "action movies", "C": "comedies", "D": "dramas"}
MARKET_NAMES = {"USA": "USA", "EUR": "Europe", "CHN": "China", "NET": "Internet"}
MARKET_IN = {"USA": "in the USA", "EUR": "in Europe", "CHN": "in China", "NET": "on the Internet"}
#: How each task is printed on the board.
TASK_TITLES = {
    "production": "Production slot",
    "script": "Script slot",
    "star": "Star slot",
    "credit": "Charge credit card",
    "overtime": "Order overtime",
    "sabotage": "Sabotage",
    "denounce": "Denounce players",
    "nice": "Be nice to Grumpy",
    "nice_dossier": "Be nice to Grumpy with a dossier",
    "reveal": "Reveal a secret",
    "first_player": "Become first player",
    "release": "Release space",
}
#: The task of a space in a few words ("Buy a script"), as annual plans name them: the board's title, except for
#: the spaces whose title names the slot rather than the deed.
TASK_ACTIONS = {
    **TASK_TITLES,
    "production": "Prepare a movie production",
    "script": "Buy a script",
    "star": "Cast a star",
    "release": "Release a movie",
}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six")
#: Why sympathy changed (the ``cause`` of a sympathy event).
SYMPATHY_CAUSES = {
    "trend first hit by another": "another studio hit the trend first",
    "trend hit": "hit the trend",
    "long production": "long production of 6 or more cards",
    "denounced": "denounced",
    "be nice": "was nice to Grumpy",
    "cut": "said Cut!",
    "dossier penalty": "a black dossier was used this round",
}
DOSSIER_USES = {
    "sabotage": "on Sabotage",
    "be nice": "to be nice to Grumpy",
    "exemption": "to ignore the annual plan",
    "purge": "to purge the production board",
    "block": "to block a space",
    "cut": "to say Cut!",
}
DRAW_SOURCES = {"overtime": "overtime", "china": "premiere in China", "sabotage": "Sabotage"}
#: Premiere sources in the order they are scored, as players call them.
SOURCE_WORDS = {
    "market": "market",
    "trend": "trend",
    "script": "script",
    "stars": "stars",
    "period": "long production",
    "production": "production cards",
}

#: The legend of every symbol and abbreviation the game's text uses.
LEGEND = (
    "Points are prestige points (PP), the score. Money is spent on cards and assistants; every 3 money left at the end "
    "is worth 1 point. Stages of production cards: pre-production (green), shooting (blue), post-production (yellow) and "
    "marketing (red); a joker takes the stage you choose. Sympathy (from -5 to +5) is Grumpy's mood: it sets your budget "
    "each round and how many production lines you may keep open. A code in brackets, such as Colour Grading (PY03) or "
    "Production slot 3 (PS3), is what you type in the terminal; the arrow in a line (→) reads left to right."
)


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def points(count: int) -> str:
    """``1 point``, ``3 points``."""
    return plural(count, "point")


def join(items: Sequence[str], word: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = [item for item in items if item]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def ordinal(index: int) -> str:
    """``first`` for 0."""
    return ORDINALS[index] if 0 <= index < len(ORDINALS) else f"number {index + 1}"


def signed(value: int) -> str:
    """``+2``, ``0``, ``-1``."""
    return f"{value:+d}" if value else "0"


def card_name(table: Tables, card: str) -> str:
    """A card's printed name (a script's title, a plan's text)."""
    return table.card_name(card)


def names(table: Tables, cards: Sequence[str]) -> str:
    """``Catering, Extras and Director`` (``no card`` for none)."""
    return join([table.card_name(card) for card in cards]) or "no card"


# -- requirements as sentences ---------------------------------------------------------------------------


def _clause(clause: Clause) -> str:
    """One clause as what the movie does: ``has at least 2 post-production cards``, ``is a drama``."""
    op, a, b = clause
    if op == R_GENRE:
        return f"is {GENRE_MOVIE[a]}"
    if op == R_PERIOD_GE:
        return f"has at least {plural(a, 'production card')} in its line"
    if op == R_PERIOD_LE:
        return f"has at most {plural(a, 'production card')} in its line"
    if op == R_N_GE:
        return f"has at least {b} {STAGE_WORDS[STAGES[a]]} card{'s' if b != 1 else ''}"
    if op == R_N_ZERO:
        return f"has no {STAGE_WORDS[STAGES[a]]} card"
    if op == R_EACH:
        return "has a card of each stage"
    if op == R_STARS_GE:
        return f"has at least {plural(a, 'star')}"
    if op == R_STARS_ZERO:
        return "has no star"
    if op == R_HAS:
        return f"has {a}"
    assert op == R_SCRIPT_MET
    return "meets its script"


def requirement_clauses(requirement: Requirement | Sequence[Clause]) -> str:
    """Clauses joined as one sentence part: ``has Soundtrack and at least 1 marketing card``."""
    parts: list[str] = []
    for index, clause in enumerate(requirement):
        words = _clause(clause)
        if index and words.startswith("has ") and _clause(requirement[index - 1]).startswith("has "):
            words = words[len("has ") :]
        parts.append(words)
    return join(parts)


def movie_that(requirement: Requirement | Sequence[Clause]) -> str:
    """``an action movie``, ``a drama that has ...``, ``a movie that has at least 2 stars``, ``any movie``."""
    if not requirement:
        return "any movie"
    genres = [clause for clause in requirement if clause[0] == R_GENRE]
    rest = [clause for clause in requirement if clause[0] != R_GENRE]
    if len(genres) == 1:
        movie = GENRE_MOVIE[genres[0][1]]
        return f"{movie} that {requirement_clauses(rest)}" if rest else movie
    return f"a movie that {requirement_clauses(requirement)}"


def script_needs(needs: Sequence[int]) -> str:
    """``1 pre-production, 2 shooting, 1 post-production and 1 marketing card`` (the noun agrees with the last count)."""
    items = [(count, STAGE_WORDS[stage]) for count, stage in zip(needs, STAGES, strict=True) if count]
    if not items:
        return "no card at all"
    words = [f"{count} {stage}" for count, stage in items]
    last = items[-1][0]
    return f"{join(words)} card{'s' if last != 1 else ''}"


def script_summary(script: ScriptCard) -> str:
    """``action script, 9 points for 1 pre-production, 2 shooting, 1 post-production and 1 marketing card``."""
    return f"{GENRE_WORDS[script.genre]} script, {points(script.pp)} for {script_needs(script.needs)}"


def missing_for_script(table: Tables, line: Line) -> str:
    """What the line still lacks for its script: ``1 more marketing card and 2 more shooting cards`` (empty if met)."""
    counts = line.counts()
    needs = table.scripts[line.script].needs
    return join(
        [
            f"{need - have} more {STAGE_WORDS[stage]} card{'s' if need - have != 1 else ''}"
            for have, need, stage in zip(counts, needs, STAGES, strict=True)
            if have < need
        ]
    )


def failing(requirement: Requirement, line_metrics: Metrics) -> list[Clause]:
    """The clauses of ``requirement`` that do not hold for the line."""
    return [clause for clause in requirement if not holds((clause,), line_metrics)]


# -- components ------------------------------------------------------------------------------------------


def production_kind(card: ProductionCard) -> str:
    """``shooting card``, ``joker``."""
    if card.is_joker:
        return "joker"
    return f"{STAGE_WORDS[STAGES[card.stage]]} card"


def production_text(table: Tables, card: ProductionCard) -> str:
    """The face of a production card in sentences."""
    if card.is_joker:
        return (
            f"Joker: it takes the stage you choose when you lay it, as the colour rule allows. Costs {card.cost} money. "
            f"Worth {points(card.pp) if card.pp else 'no points'} itself."
        )
    stage = STAGES[card.stage]
    colour = f"{STAGE_WORDS[stage]} ({STAGE_COLOURS[stage]})"
    if card.is_upgrade:
        base = table.production[card.upgrade_of or ""]
        return (
            f"Upgrade of {base.name}, {colour}. Costs {card.cost} money. Stacked on a {base.name} in a line it adds "
            f"{points(card.pp)} and takes no place of its own; laid alone it is a {STAGE_WORDS[stage]} card worth 1 point "
            f"that keeps {base.name} out of that line."
        )
    return f"{colour[0].upper()}{colour[1:]} card. Costs {card.cost} money. Worth {points(card.pp)} in a premiered movie."


def star_needs(star: StarCard) -> str:
    """``if the movie has Visual Effects`` or ``in any movie``."""
    if not star.requirement:
        return "in any movie"
    return f"if the movie {requirement_clauses(star.requirement)}"


def star_banned(star: StarCard) -> str:
    """``Never plays in comedies.`` or ``Plays in every genre.``."""
    if not star.banned:
        return "Plays in every genre."
    return f"Never plays in {join([GENRE_PLURAL[genre] for genre in sorted(star.banned)], 'or')}."


def star_text(star: StarCard) -> str:
    """The face of a star."""
    return f"Star. Costs {star.cost} money. Worth {points(star.pp)} {star_needs(star)} when it premieres. {star_banned(star)}"


def script_text(script: ScriptCard) -> str:
    """The face of a script."""
    genre = GENRE_WORDS[script.genre]
    return (
        f"{genre[0].upper()}{genre[1:]} script. Needs at least {script_needs(script.needs)}. "
        f"Worth {points(script.pp)} if the movie has them when it premieres."
    )


def trend_pays(trend: TrendCard) -> str:
    """``3 points in the USA, 1 in any other market`` or ``2 points in any market``."""
    if trend.market is None or trend.pp_with == trend.pp_without:
        return f"{points(trend.pp_with)} in any market"
    return f"{points(trend.pp_with)} {MARKET_IN[trend.market]}, {trend.pp_without} in any other market"


def trend_hit_if(trend: TrendCard) -> str:
    """``if the movie is an action movie`` (``always`` for a trend without a requirement)."""
    return f"if the movie {requirement_clauses(trend.requirement)}" if trend.requirement else "always"


def trend_text(trend: TrendCard) -> str:
    """The face of a trend."""
    waiver = " A hit also spares the movie the sympathy loss of a long production." if trend.waives_long_production_sympathy else ""
    return (
        f"While it is active, a premiere hits it {trend_hit_if(trend)} (never on the Internet): {trend_pays(trend)}.{waiver} "
        "The first hit of the round wins a golden statue."
    )


def _following(state: MovieEmpireState, seat: int, plan: AnnualPlan) -> str:
    """What following ``plan`` this round means for ``seat``, against the price of ignoring it."""
    table, money = state.table, state.money[seat]
    if plan.effect == "release_requirement":
        lines = [(index, line) for index, line in enumerate(state.lines[seat]) if line is not None and not line.shut]
        if not lines:
            return f"you may release only {movie_that(plan.release_requirement)} (you have no line yet)"
        barred = [line_title(table, index, line) for index, line in lines if not holds(plan.release_requirement, metrics(table, line))]
        if not barred:
            return f"you may release only {movie_that(plan.release_requirement)} (your lines meet that as they stand)"
        return f"you may release only {movie_that(plan.release_requirement)}, so {join(barred)} could not premiere as it stands"
    if plan.effect == "forbid_take_stage":
        stage = STAGES[plan.forbidden_stage]
        return f"you may not take {STAGE_WORDS[stage]} ({STAGE_COLOURS[stage]}) cards from the production board"
    if plan.effect == "forbid_task":
        return f"you may not use the {join([f'“{TASK_ACTIONS[TASKS[task]]}”' for task in sorted(plan.forbidden_tasks)], 'or')} spaces"
    if plan.effect == "lose_money":
        lost = min(plan.amount, money)
        return f"you lose {lost} money ({money - lost} left)"
    if plan.effect == "gain_money":
        return f"you gain {plan.amount} money ({money + plan.amount} in all)"
    if plan.effect == "give_cards":
        held = len(state.hands[seat])
        return f"you give {min(plan.amount, held)} of your {held} cards to the player on your left"
    return "it changes nothing for you"


def plan_text(plan: AnnualPlan) -> str:
    """The effect of an annual plan in sentences."""
    exempt = " A player exempt from the plan ignores it."
    if plan.effect == "release_requirement":
        return f"Lasting, this round: you may release only {movie_that(plan.release_requirement)} (on the Internet too).{exempt}"
    if plan.effect == "forbid_take_stage":
        stage = STAGES[plan.forbidden_stage]
        return (
            f"Lasting, this round: you may not take {STAGE_WORDS[stage]} ({STAGE_COLOURS[stage]}) cards from the production board, "
            f"by buying or by the Sabotage swap; blind draws are allowed.{exempt}"
        )
    if plan.effect == "forbid_task":
        tasks = join([f"“{TASK_ACTIONS[TASKS[task]]}”" for task in sorted(plan.forbidden_tasks)], "or")
        return f"Lasting, this round: you may not use the {tasks} spaces.{exempt}"
    if plan.effect == "lose_money":
        return f"At once: you lose {plan.amount} money (never below 0).{exempt}"
    if plan.effect == "gain_money":
        return f"At once: you gain {plan.amount} money.{exempt}"
    if plan.effect == "give_cards":
        return (
            f"At once: you choose {plan.amount} cards of your hand, in secret, and give them to the player on your left; "
            f"with {plan.amount} cards or fewer you give them all.{exempt}"
        )
    return "Nothing happens this round."


def space_name(table: Tables, space: Space) -> str:
    """``Production slot 3``, ``Charge credit card 2``, ``Release space 1``, ``Order overtime``."""
    title = TASK_TITLES[space.task_name]
    several = sum(1 for other in table.spaces if other.task == space.task) > 1
    if space.task in (T_PRODUCTION, T_SCRIPT, T_STAR, T_RELEASE) or several:
        return f"{title} {space.order}"
    return title


def _release_rank(table: Tables, space: Space) -> int:
    return sorted(other.order for other in table.spaces if other.task == T_RELEASE).index(space.order)


def space_text(table: Tables, space: Space, notes: bool = True) -> str:
    """What a space does, with its money, and (with ``notes``) with which player counts or variant it is used."""
    task = space.task
    money = space.money
    if task == T_PRODUCTION:
        extra = f" plus {space.surcharge}" if space.surcharge else ""
        effect = f"take the production card lying here into your hand, paying its cost{extra}"
    elif task == T_SCRIPT:
        effect = "take the script lying here into your hand, free"
    elif task == T_STAR:
        effect = "take the star lying here into your hand, paying its cost"
    elif task == T_CREDIT:
        effect = ""
    elif task == T_OVERTIME:
        effect = f"draw the top {OVERTIME_DRAW} production cards into your hand, unseen by the others"
    elif task == T_SABOTAGE:
        effect = (
            "swap a production card of your hand for one on the production board, free; or spend a usable black dossier "
            f"here to draw {SABOTAGE_DRAW} production cards, keep {SABOTAGE_KEEP} and discard the rest"
        )
    elif task == T_DENOUNCE:
        effect = "every other player loses 1 sympathy"
    elif task == T_NICE:
        effect = "gain 1 sympathy, or 2 if you also spend a usable black dossier here"
    elif task == T_NICE_DOSSIER:
        effect = "spend a usable black dossier here to gain 2 sympathy"
    elif task == T_REVEAL:
        effect = "take a black dossier, usable from the next round (you may hold only one)"
    elif task == T_FIRST_PLAYER:
        effect = "you will be first player next round"
    else:
        assert task == T_RELEASE
        rank = ordinal(_release_rank(table, space))
        effect = f"choose one of your lines with a shooting card to premiere this round; this space premieres {rank}"
    cash = f"receive {money} money" if money > 0 else f"pay {-money} money" if money < 0 else ""
    joined = "; ".join(part for part in (cash, effect) if part) if money > 0 else ", then ".join(part for part in (cash, effect) if part)
    where = {3: " Used with 3 or 4 players.", 4: " Used with 4 players only."}.get(space.min_players, "") if notes else ""
    clean = " Not used in Clean Hands." if space.dossier_space and notes else ""
    sentence = f"{joined[0].upper()}{joined[1:]}.{where}{clean}"
    title = TASK_ACTIONS[space.task_name]
    return sentence if space_name(table, space).startswith(title) else f"{title}: {joined}.{where}{clean}"


MARKET_TEXTS = {
    "USA": f"Premiere market, one movie a round: the movie earns its studio {USA_MONEY} money.",
    "EUR": "Premiere market, one movie a round: the movie wins 2 more points.",
    "CHN": f"Premiere market, one movie a round: its studio draws the top {plural(CHN_DRAW, 'production card')}.",
    "NET": (
        f"Premiere market open to any number of movies, each paying {NET_COST} money; a movie premiering there never hits a "
        "trend. Only with 3 or 4 players, for a release that was cut or, in the last round, for a player who placed no release."
    ),
}


def sympathy_text(table: Tables, value: int) -> str:
    """A level of the sympathy bar in words."""
    row = table.sympathy[value]
    end = (
        f"{'wins' if row.end_pp > 0 else 'loses'} {points(abs(row.end_pp))} at the end of the game"
        if row.end_pp
        else "no points at the end of the game"
    )
    free = "; you may ignore the annual plan for free" if row.plan_exempt else ""
    return f"Budget of {row.budget} money each round; {plural(row.lines, 'production line')} open; {end}{free}."


def components(state: MovieEmpireState | None) -> list[Component]:
    """Every card, trend, plan, board space, market and sympathy level in words (of ``state``'s data files if given)."""
    return table_components(load_tables()) if state is None else table_components(state.table, in_game=True)


def table_components(table: Tables, in_game: bool = False) -> list[Component]:
    """Every printed component of ``table`` in words; ``in_game`` leaves out which player counts and variants use a space."""
    found: list[Component] = []
    for card in table.production.values():
        found.append(Component(production_kind(card), card.id, card.name, production_text(table, card)))
    for star in table.stars.values():
        found.append(Component("star", star.id, star.name, star_text(star)))
    for script in table.scripts.values():
        found.append(Component(f"{GENRE_WORDS[script.genre]} script", script.id, script.title, script_text(script)))
    for trend in table.trends.values():
        found.append(Component("trend", trend.id, trend.name, trend_text(trend)))
    for plan in table.plans.values():
        found.append(Component("annual plan", plan.id, plan.text, plan_text(plan)))
    for space in table.spaces:
        found.append(Component("board space", space.id, space_name(table, space), space_text(table, space, not in_game)))
    for market in (*BOARD_MARKETS, "NET"):
        found.append(Component("market", market, MARKET_NAMES[market], MARKET_TEXTS[market]))
    for value in sorted(table.sympathy, reverse=True):
        found.append(Component("sympathy level", f"sympathy{value:+d}", f"Sympathy {signed(value)}", sympathy_text(table, value)))
    return found


# -- premiere previews -------------------------------------------------------------------------------------


def preview_markets(state: MovieEmpireState) -> list[str]:
    """The markets a premiere could go to now: the free board markets, and the Internet at 3-4 players."""
    markets = free_markets(state)
    return [*markets, "NET"] if state.num_players >= 3 else markets


def line_preview(state: MovieEmpireState, seat: int, index: int) -> Preview | None:
    """What line ``index`` of ``seat`` would score if it premiered now, and what it meets or misses (public facts only)."""
    line = state.lines[seat][index]
    if line is None:
        return None
    table = state.table
    m = metrics(table, line)
    trend_id = state.trend_row[2]
    markets: dict[str, MarketPreview] = {}
    scores = {}
    for market in preview_markets(state):
        score = premiere_score(table, line, market, trend_id, m)
        money = USA_MONEY if market == "USA" else -NET_COST if market == "NET" else 0
        markets[market] = {"points": score.total, "money": money, "hit": score.hit}
        scores[market] = score
    board = [market for market in markets if market != "NET"] or list(markets)
    best = max(board, key=lambda market: (markets[market]["points"], markets[market]["money"])) if board else None
    script = table.scripts[line.script]
    missing = missing_for_script(table, line)
    stars: list[StarPreview] = []
    for star_id in line.stars:
        star = table.stars[star_id]
        lacking = failing(star.requirement, m)
        stars.append(
            {"card": star_id, "met": not lacking, "points": 0 if lacking else star.pp, "missing": requirement_clauses(lacking) or None}
        )
    trend = table.trends[trend_id] if trend_id is not None else None
    trend_info: TrendPreview | None = None
    if trend is not None:
        trend_info = {"card": trend.id, "hit": holds(trend.requirement, m), "statue": not state.trend_hit}
    figures: PreviewFigures = {
        "market": best,
        "points": markets[best]["points"] if best else 0,
        "markets": markets,
        "parts": dict(scores[best].parts) if best else None,
        "script": {"met": m.script_met, "points": script.pp if m.script_met else 0, "missing": missing or None},
        "stars": stars,
        "trend": trend_info,
        "long_production": m.period >= 6,
        "release": release_block(state, seat, line),
    }
    return {**figures, "words": preview_words(table, line, figures)}


def release_block(state: MovieEmpireState, seat: int, line: Line) -> str | None:
    """Why the line cannot be released now, in words, or None if it can (a locked line is already released)."""
    if line.locked:
        return None
    if line.shut:
        return "it is shut down until your sympathy allows another open line"
    if 1 not in line.stages:
        return "it needs a shooting card"
    if plan_blocks_release(state, seat, line):
        return f"the annual plan “{state.table.plans[state.plan or ''].text}” forbids releasing it this round"
    return None


def market_points(markets: Mapping[str, MarketPreview], market: str) -> str:
    """``22 in the USA (and 3 money)``."""
    item = markets[market]
    extra = ""
    if market == "USA":
        extra = f" (and {item['money']} money)"
    elif market == "CHN":
        extra = " (and a card)"
    elif market == "NET":
        extra = f" (for {-item['money']} money)"
    return f"{item['points']} {MARKET_IN[market]}{extra}"


def preview_words(table: Tables, line: Line, preview: PreviewFigures) -> list[PreviewWord]:
    """The preview of a line as sentences, the summary first; each marked ``met``, ``missing`` or ``""`` (neither)."""
    markets = preview["markets"]
    words: list[PreviewWord] = []

    def say(text: str, mark: str = "") -> None:
        words.append({"text": text, "mark": mark})

    if markets:
        order = sorted(markets, key=lambda market: (-markets[market]["points"], market == "NET"))
        first, *rest = [market_points(markets, market) for market in order]
        number, _, tail = first.partition(" ")
        unit = "point" if number == "1" else "points"
        worth = join([f"{number} {unit} {tail}", *rest], "or")
        # A line that cannot be released yet says so first: its figures are what it would make once it can.
        if preview["release"] and not line.locked:
            say(f"Not releasable yet ({preview['release']}); once released: {worth}.", "missing")
        else:
            say(f"Premiere now: {worth}.")
    script = table.scripts[line.script]
    if preview["script"]["met"]:
        say(f"Script {script.title}: met, {points(script.pp)}.", "met")
    else:
        say(f"Script {script.title}: {points(script.pp)} once the movie has {preview['script']['missing']}.", "missing")
    for star in preview["stars"]:
        name = table.stars[star["card"]].name
        if star["met"]:
            say(f"Star {name}: {points(star['points'])}.", "met")
        else:
            say(f"Star {name}: no points until the movie {star['missing']} ({table.stars[star['card']].pp} then).", "missing")
    trend = preview["trend"]
    if trend is not None:
        card = table.trends[trend["card"]]
        if trend["hit"]:
            statue = "; the first hit this round also wins a golden statue" if trend["statue"] else ""
            say(f"Trend {card.name}: hit, {trend_pays(card)}{statue}.", "met")
        else:
            say(f"Trend {card.name}: not hit, it wants {movie_that(card.requirement)}.", "missing")
    if preview["long_production"]:
        waived = trend is not None and trend["hit"] and table.trends[trend["card"]].waives_long_production_sympathy
        say("Long production: 2 points" + ("." if waived else ", and the studio loses 1 sympathy."))
    say(f"Production cards: {points(production_pp(table, line))}.")
    if line.locked:
        say("Designated for release: it premieres this round.", "met")
    elif preview["release"] and not markets:
        say(f"Not releasable yet: {preview['release']}.", "missing")
    return words


def best_points(state: MovieEmpireState, line: Line) -> tuple[int, str | None]:
    """The most points ``line`` could score now in a free board market (or on the Internet if none is free)."""
    markets = free_markets(state) or ["NET"]
    trend_id = state.trend_row[2]
    scored = [(premiere_score(state.table, line, market, trend_id).total, market) for market in markets]
    best = max(scored, key=lambda item: item[0])
    return best[0], best[1]


def line_title(table: Tables, index: int, line: Line) -> str:
    """``line 1, Alien Huntress``."""
    return f"line {index + 1}, {table.scripts[line.script].title}"


def with_names(text: str, table: Tables) -> str:
    """``text`` with each bare card or space code named: ``PS1 already holds...`` -> ``Production slot 1 (PS1) already holds...``."""
    for component in table_components(table, in_game=True):
        if component.name in text:
            continue
        text, _ = re.subn(rf"(?<![\w-]){re.escape(component.id)}(?![\w-])", f"{component.name} ({component.id})", text, count=1)
    return text


def why_illegal(state: MovieEmpireState, seat: int, action: Action) -> str:
    """The rules' reason for refusing ``action``, with every card and space named."""
    return with_names(rules.why_illegal(state, seat, action), state.table)


def render_text(observation: MovieEmpireObservation, names: Sequence[str] | None = None) -> str:
    """The terminal board in words (drawn by ``text``, which builds on these words)."""
    from greenlight.games.movie_empire.text import render_text as draw

    return draw(observation, names)


# -- actions in words ----------------------------------------------------------------------------------------


def _penalty(state: MovieEmpireState) -> str:
    """What spending a dossier costs at the end of the round."""
    if state.round >= state.last_round:
        return ""
    if state.num_players == 2:
        return "; at the end of the round you lose 1 sympathy for it"
    return "; at the end of the round every other player loses 1 sympathy for it"


def _fee(state: MovieEmpireState, seat: int) -> str:
    """``; hiring a third assistant costs 3 money`` (empty while assistants are free)."""
    placed = state.placed[seat]
    fee = HIRE_FEES[placed] if placed < ASSISTANTS else 0
    return f"; hiring a {ordinal(placed)} assistant costs {fee} money" if fee else ""


def gain_words(gained: int) -> str:
    """``+2 points`` or ``no points``."""
    return f"+{points(gained)}" if gained else "no points"


def _lay_words(state: MovieEmpireState, seat: int, action: Lay | Stack | Star) -> str:
    table = state.table
    index = state.target
    line = state.lines[seat][index]
    assert line is not None
    after = apply_lay(table, line, action)
    name = table.card_name(action.card)
    where = f"line {index + 1}"
    if isinstance(action, Star):
        star = table.stars[action.card]
        lacking = failing(star.requirement, metrics(table, after))
        if not star.requirement:
            return f"Cast {name} in {where}: {points(star.pp)}"
        if lacking:
            return f"Cast {name} in {where}: {points(star.pp)} once the movie {requirement_clauses(lacking)}"
        return f"Cast {name} in {where}: {points(star.pp)}, as the movie {requirement_clauses(star.requirement)}"
    gained = production_pp(table, after) - production_pp(table, line)
    if isinstance(action, Stack):
        base = table.production[table.production[action.card].upgrade_of or ""]
        text = f"Stack {name} on {base.name} in {where}: {gain_words(gained)}, no new place in the line"
    else:
        card = table.production[action.card]
        stage = action.stage if action.stage is not None else STAGES[card.stage]
        side = "left" if action.end == LEFT else "right"
        position = f"to the {side} of {where}" if line.cards else f"first in {where}"
        text = f"Lay {name} {position}, as {STAGE_WORDS[stage]}: {gain_words(gained)}"
    if metrics(table, after).script_met and not metrics(table, line).script_met:
        text += f"; the script is then met (+{table.scripts[line.script].pp})"
    return text


def _place_words(state: MovieEmpireState, seat: int, action: Place) -> str:
    return _place_main(state, seat, action) + _fee(state, seat)


def _place_main(state: MovieEmpireState, seat: int, action: Place) -> str:
    table = state.table
    space = table.space_by_id[action.space]
    task = space.task
    where = space_name(table, space)
    card = state.slot_card[space.index]
    if task == T_PRODUCTION and card is not None:
        info = table.production[card]
        price = info.cost + space.surcharge
        detail = f" ({info.cost} + {space.surcharge} for the slot)" if space.surcharge else ""
        face = "joker, any stage" if info.is_joker else f"{production_kind(info)}, {points(info.pp)}"
        return f"Take {info.name} ({face}) from {where} for {price} money{detail}"
    if task == T_SCRIPT and card is not None:
        return f"Take the script {table.card_name(card)} ({script_summary(table.scripts[card])}) from {where}, free"
    if task == T_STAR and card is not None:
        star = table.stars[card]
        return f"Cast {star.name} ({points(star.pp)} {star_needs(star)}) from {where} for {star.cost} money"
    if task == T_CREDIT:
        return f"Charge the credit card: receive {space.money} money"
    if task == T_OVERTIME:
        return f"Order overtime: pay {-space.money} money and draw {OVERTIME_DRAW} production cards blind"
    if task == T_SABOTAGE:
        if action.dossier:
            return (
                f"Sabotage with your black dossier: draw {SABOTAGE_DRAW} production cards, keep {SABOTAGE_KEEP} and discard the rest"
                f"{_penalty(state)}"
            )
        return "Sabotage: swap a production card of your hand for one on the production board, free"
    if task == T_DENOUNCE:
        return f"Denounce players: pay {-space.money} money; every other player loses 1 sympathy"
    if task in (T_NICE, T_NICE_DOSSIER):
        gain = 2 if action.dossier else 1
        after = max(-5, min(5, state.sympathy[seat] + gain))
        dossier = f", spending your black dossier{_penalty(state)}" if action.dossier else ""
        return f"Be nice to Grumpy: +{gain} sympathy, to {signed(after)}{dossier}"
    if task == T_REVEAL:
        when = "too late to use it, but" if state.round >= state.last_round else f"usable from round {state.round + 1},"
        return f"Reveal a secret: pay {-space.money} money for a black dossier, {when} worth {DOSSIER_PP} points at the end if you keep it"
    if task == T_FIRST_PLAYER:
        return f"Become first player next round and receive {space.money} money"
    assert task == T_RELEASE
    rank = ordinal(_release_rank(table, space))
    candidates = releasable(state, seat)
    if len(candidates) == 1:
        line = state.lines[seat][candidates[0]]
        assert line is not None
        best = best_points(state, line)[0]
        title = line_title(table, candidates[0], line)
        return f"Release {title}, from {where}; it premieres {rank} this round: up to {points(best)} now"
    options = []
    for index in candidates:
        line = state.lines[seat][index]
        assert line is not None
        options.append(f"line {index + 1} up to {points(best_points(state, line)[0])}")
    return f"Release one of your lines from {where}; it premieres {rank} this round ({join(options)} now)"


def describe_action(state: MovieEmpireState, seat: int, action: Action) -> str:
    """A short sentence saying what ``action`` does for ``seat`` now, with its cost or score."""
    table = state.table
    if isinstance(action, Keep):
        if state.drawn[seat]:
            rest = list(state.drawn[seat])
            for card in action.cards:
                rest.remove(card)
            return f"Keep {names(table, action.cards)}; discard {names(table, rest)} face up"
        rest = [card for card in state.dealt[seat] if card not in action.cards]
        kept = [f"{table.card_name(card)} ({script_summary(table.scripts[card])})" for card in action.cards]
        return f"Keep {join(kept)}; {names(table, rest)} go{'es' if len(rest) == 1 else ''} back"
    if isinstance(action, Exempt):
        plan = table.plans[state.plan or ""]
        if action.way == "decline":
            return f"Follow the annual plan “{plan.text}” this round: {_following(state, seat, plan)}"
        if action.way == "free":
            return "Ignore the annual plan for free (your sympathy is +3 or more)"
        if action.way == "dossier":
            return f"Spend your black dossier to ignore the annual plan{_penalty(state)}"
        return f"Pay {EXEMPTION_COST} money to ignore the annual plan ({state.money[seat] - EXEMPTION_COST} money left)"
    if isinstance(action, Give):
        return f"Give {names(table, action.cards)} to the player on your left"
    if isinstance(action, Pass):
        return "Pass: place no more assistants this round"
    if isinstance(action, Place):
        return _place_words(state, seat, action)
    if isinstance(action, Produce):
        if action.line == NEW_LINE:
            return "Start a new production line with a script from your hand"
        index = int(action.line) - 1
        line = state.lines[seat][index]
        assert line is not None
        return f"Lay cards into {line_title(table, index, line)}"
    if isinstance(action, Script):
        return f"Start line {state.target + 1} with {table.card_name(action.card)} ({script_summary(table.scripts[action.card])})"
    if isinstance(action, (Lay, Stack, Star)):
        return _lay_words(state, seat, action)
    if isinstance(action, Done):
        line = state.lines[seat][state.target]
        if line is None:
            return "End the produce step"
        return f"End the produce step (line {state.target + 1} is now worth up to {points(best_points(state, line)[0])})"
    if isinstance(action, Purge):
        slots = [
            space for space in production_slots(state) if state.slot_card[space.index] is not None and state.blocked[space.index] == NO_SEAT
        ]
        gone = [state.slot_card[space.index] or "" for space in slots[:3]]
        verb = "is" if len(gone) == 1 else "are"
        return (
            f"Spend your black dossier to purge the production board: {names(table, gone)} {verb} discarded, the other cards slide "
            f"down and the empty slots are refilled{_penalty(state)}"
        )
    if isinstance(action, Block):
        space = table.space_by_id[action.space]
        return f"Spend your black dossier to block {space_name(table, space)} for the rest of the round{_penalty(state)}"
    if isinstance(action, Cut):
        space = table.space_by_id[action.space]
        return (
            f"Spend your black dossier to say Cut! on the movie released at {space_name(table, space)}: it cannot premiere in a "
            f"market this round; you lose 1 sympathy now{_penalty(state)}"
        )
    if isinstance(action, End):
        return "End your turn"
    if isinstance(action, Discard):
        held = len(state.hands[seat])
        if held > hand_limit(state):
            return f"Discard {table.card_name(action.card)} (you hold {held} cards; the limit is {hand_limit(state)})"
        return f"Discard {table.card_name(action.card)} as well (you are within the hand limit)"
    if isinstance(action, Stop):
        return f"Keep the {plural(len(state.hands[seat]), 'card')} left"
    if isinstance(action, Shut):
        line = state.lines[seat][action.line - 1]
        assert line is not None
        return (
            f"Shut down {line_title(table, action.line - 1, line)}: no cards go into it and it cannot be released until your "
            "sympathy allows another open line"
        )
    if isinstance(action, Market):
        return _market_words(state, action.market)
    if isinstance(action, Net):
        if action.line == SKIP:
            if state.round >= state.last_round:
                return "Do not premiere on the Internet: the line will score nothing"
            return "Do not premiere on the Internet this round"
        index = int(action.line) - 1
        line = state.lines[seat][index]
        assert line is not None
        total = premiere_score(table, line, "NET", state.trend_row[2]).total
        return f"Premiere {line_title(table, index, line)}, on the Internet for {NET_COST} money: {points(total)} (no trend there)"
    if isinstance(action, Swap):
        return f"Put {table.card_name(action.card)} on the production board (Sabotage swap), then choose the card you take"
    if isinstance(action, Take):
        space = table.space_by_id[action.slot]
        card = state.slot_card[space.index] or ""
        given = table.card_name(state.sub_card) if state.sub_card else "your card"
        return f"Take {table.card_name(card)} from {space_name(table, space)} in exchange for {given}, free"
    if isinstance(action, Release):
        line = state.lines[seat][action.line - 1]
        assert line is not None
        return f"Release {line_title(table, action.line - 1, line)}: up to {points(best_points(state, line)[0])} now"
    return str(action)


def _market_words(state: MovieEmpireState, market: str) -> str:
    table = state.table
    pending = pending_release(state)
    assert pending is not None
    seat, index = pending
    line = state.lines[seat][index]
    assert line is not None
    score = premiere_score(table, line, market, state.trend_row[2])
    extras = []
    if market == "USA":
        extras.append(f"{USA_MONEY} money")
    if market == "CHN":
        extras.append("the top production card")
    text = f"Premiere {table.scripts[line.script].title} {MARKET_IN[market]}: {points(score.total)}"
    if extras:
        text += f" and {join(extras)}"
    if score.hit:
        trend = table.trends[state.trend_row[2] or ""]
        text += f"; hits {trend.name}" + (" first, winning a golden statue" if not state.trend_hit else "")
    return text


# -- warnings --------------------------------------------------------------------------------------------------


def _release_warning(state: MovieEmpireState, seat: int, indexes: Sequence[int], where: str = "") -> str | None:
    """A warning when every line that could be released loses its script's points (or scores nothing)."""
    table = state.table
    lines = [(index, state.lines[seat][index]) for index in indexes]
    unmet = [(index, line) for index, line in lines if line is not None and not metrics(table, line).script_met]
    if not lines or len(unmet) < len(lines):
        return None
    index, line = unmet[0]
    assert line is not None
    script = table.scripts[line.script]
    best = best_points(state, line)[0] if where != "NET" else premiere_score(table, line, "NET", state.trend_row[2]).total
    worth = f"scores at most {points(best)}" if best else "scores nothing"
    if len(unmet) > 1:
        return f"Neither of your lines meets its script yet: released now, a movie loses its script's points (line {index + 1} {worth})."
    return (
        f"Line {index + 1}, {script.title}, does not meet its script yet "
        f"(it still needs {missing_for_script(table, line)}): released now it loses the script's {points(script.pp)} and {worth}."
    )


def action_warning(state: MovieEmpireState, seat: int, action: Action) -> str | None:
    """Why ``seat`` should confirm ``action`` first: it cannot be undone and loses points or gains nothing (docs/movie_empire.md)."""
    table = state.table
    if isinstance(action, Place) and table.space_by_id[action.space].task == T_RELEASE:
        return _release_warning(state, seat, releasable(state, seat))
    if isinstance(action, Release):
        return _release_warning(state, seat, [action.line - 1])
    if isinstance(action, Net):
        if action.line != SKIP:
            return _release_warning(state, seat, [int(action.line) - 1], "NET")
        if state.round >= state.last_round:
            return "This is the last round: a line that does not premiere now scores nothing at the end of the game."
        return None
    if isinstance(action, Discard) and len(state.hands[seat]) <= hand_limit(state):
        return f"You are already within the hand limit: discarding {table.card_name(action.card)} gains nothing."
    if isinstance(action, Pass):
        return _pass_warning(state, seat)
    if isinstance(action, Exempt) and action.way != "decline" and state.plan is not None:
        plan = table.plans[state.plan]
        if plan.effect == "gain_money":
            return f"Ignoring “{plan.text}” means you do not get the {plan.amount} money."
        if action.way in ("pay", "dossier"):
            if plan.effect == "none":
                return f"“{plan.text}”: ignoring this plan gains you nothing."
            if level(state, seat).plan_exempt:
                return "Your sympathy lets you ignore the annual plan for free."
    return None


def _pass_warning(state: MovieEmpireState, seat: int) -> str | None:
    from greenlight.games.movie_empire.working import available_places

    places = [place for place in available_places(state, seat) if isinstance(place, Place)]
    if not places:
        return None
    table = state.table
    if state.round >= state.last_round and any(table.space_by_id[place.space].task == T_RELEASE for place in places):
        index = releasable(state, seat)[0]
        line = state.lines[seat][index]
        assert line is not None
        return (
            f"This is the last round: {line_title(table, index, line)}, could still be released, and a line that never "
            "premieres scores nothing."
        )
    if state.placed[seat] < 2:
        return "Passing ends your round: your next assistant is free and there are spaces left to place it on."
    return None


# -- events in words ------------------------------------------------------------------------------------------


def describe_event(event: Event, state: MovieEmpireState | None = None, names: Sequence[str] | None = None) -> str:
    """Log text with seats by name ("" for the commitments of simultaneous steps)."""
    return event_text(event, state.table if state is not None else None, names)


def event_text(event: Event, table: Tables | None = None, seat_names: Sequence[str] | None = None) -> str:
    """One line of log text, seats called by ``seat_names`` ("" for events that deserve no line)."""
    words = _EVENT_WORDS.get(event.kind)
    if words is None:
        return event.kind.replace("_", " ").capitalize() + "."
    return words(event.data, _Told(table or load_tables(), seat_names))


@dataclass(frozen=True, slots=True)
class _Told:
    """How an event is put into words: the card tables that name its cards and spaces, and the seats' names."""

    table: Tables
    seat_names: Sequence[str] | None

    def who(self, seat: int) -> str:
        return seat_name(self.seat_names, seat)

    def space(self, space_id: str) -> str:
        found = self.table.space_by_id.get(space_id)
        return space_name(self.table, found) if found is not None else "a space"

    def card(self, card: str) -> str:
        return self.table.card_name(card)

    def cards(self, cards: Sequence[str]) -> str:
        return names(self.table, cards)


_Data = TypeVar("_Data")
_Words = Callable[[Mapping[str, object], _Told], str]


def _on(declared: type[_Data], words: Callable[[_Data, _Told], str]) -> _Words:
    """The words of one event kind, whose data is ``declared`` (its type in ``events.EVENT_TYPES``)."""

    def told(data: Mapping[str, object], told: _Told) -> str:
        return words(cast(_Data, data), told)

    return told


_EXEMPTION_WORDS = {
    "decline": " follows the annual plan.",
    "free": " ignores the annual plan for free (sympathy +3 or more).",
    "dossier": " spends a black dossier to ignore the annual plan.",
    "pay": f" pays {EXEMPTION_COST} money to ignore the annual plan.",
}


def _silent(data: Mapping[str, object], told: _Told) -> str:
    """An event that deserves no line of its own."""
    return ""


def _premiere(data: Premiered, told: _Told) -> str:
    return f"{told.who(data['seat'])} premieres {premiere_summary(told.table, data)}."


def _round_started(data: RoundStarted, told: _Told) -> str:
    plan = data["plan"]
    annual = f" Annual plan: “{told.card(plan)}”." if plan else ""
    return f"Round {data['round']} begins; {told.who(data['first_player'])} is first player.{annual}"


def _budget(data: Budget, told: _Told) -> str:
    return f"{told.who(data['seat'])} receives a budget of {data['money']} money."


def _exemption(data: Exemption, told: _Told) -> str:
    return told.who(data["seat"]) + _EXEMPTION_WORDS[data["way"]]


def _plan_money(data: PlanMoney, told: _Told) -> str:
    change = data["change"]
    return f"{told.who(data['seat'])} {'gains' if change >= 0 else 'loses'} {abs(change)} money (annual plan)."


def _gift(data: Gift, told: _Told) -> str:
    if not data["cards"]:
        return ""
    return f"{told.who(data['seat'])} gives {told.cards(data['cards'])} to {told.who(data['to'])}."


def _gift_count(data: GiftCount, told: _Told) -> str:
    count = data["count"]
    return f"{told.who(data['seat'])} gives {plural(count, 'card') if count else 'nothing'} to {told.who(data['to'])}."


def _setup_done(data: SetupDone, told: _Told) -> str:
    return f"Everyone has kept their scripts; {told.who(data['first_player'])} starts."


def _working_started(data: WorkingStarted, told: _Told) -> str:
    return f"The working phase of round {data['round']} begins." if "round" in data else "The working phase begins."


def _placed(data: Placed, told: _Told) -> str:
    money, fee = data["money"], data["fee"]
    parts = []
    if fee:
        parts.append(f"hiring it for {fee} money")
    if money > 0:
        parts.append(f"receiving {money} money")
    elif money < 0:
        parts.append(f"paying {-money} money")
    dossier = " with a black dossier" if data["dossier"] else ""
    tail = f", {join(parts)}" if parts else ""
    return f"{told.who(data['seat'])} places an assistant on {told.space(data['space'])}{dossier}{tail}."


def _card_taken(data: CardTaken, told: _Told) -> str:
    card = data["card"]
    who, name, space = told.who(data["seat"]), told.card(card), told.space(data["space"])
    cost = f" for {data['price']} money" if data["price"] else ", free"
    if card in told.table.scripts:
        return f"{who} takes the script {name} from {space}{cost}."
    if card in told.table.stars:
        return f"{who} casts {name} from {space}{cost}."
    return f"{who} takes {name} from {space}{cost}."


def _source(source: str) -> str:
    return DRAW_SOURCES.get(source, source)


def _drew(data: Drew, told: _Told) -> str:
    return f"{told.who(data['seat'])} draws {told.cards(data['cards'])} ({_source(data['source'])})."


def _drew_count(data: DrewCount, told: _Told) -> str:
    return f"{told.who(data['seat'])} draws {plural(data['count'], 'production card')} face down ({_source(data['source'])})."


def _sabotage_discarded(data: SabotageDiscarded, told: _Told) -> str:
    if not data["cards"]:
        return ""
    return f"{told.who(data['seat'])} discards {told.cards(data['cards'])} from the Sabotage draw."


def _swapped(data: Swapped, told: _Told) -> str:
    return (
        f"{told.who(data['seat'])} puts {told.card(data['given'])} on {told.space(data['space'])} "
        f"and takes {told.card(data['taken'])} (Sabotage swap)."
    )


def _release_designated(data: ReleaseDesignated, told: _Told) -> str:
    script = f", {told.card(data['script'])}," if "script" in data else ""
    return f"{told.who(data['seat'])} will release line {data['line']}{script} from {told.space(data['space'])}."


def _line_started(data: LineStarted, told: _Told) -> str:
    return f"{told.who(data['seat'])} starts line {data['line']} with the script {told.card(data['script'])}."


def _laid(data: Laid, told: _Told) -> str:
    table, who = told.table, told.who(data["seat"])
    verb, *tokens = data["action"].split()
    action: Lay | Stack | Star = Star(tokens[0]) if verb == "star" else Stack(tokens[0]) if verb == "stack" else Lay.from_tokens(tokens)
    where = f"line {data['line']}"
    if isinstance(action, Star):
        return f"{who} casts {table.card_name(action.card)} in {where}."
    if isinstance(action, Stack):
        base = table.production[table.production[action.card].upgrade_of or ""].name
        return f"{who} stacks {table.card_name(action.card)} on {base} in {where}."
    assert isinstance(action, Lay)
    card = table.production[action.card]
    stage = action.stage if action.stage is not None else STAGES[card.stage]
    return f"{who} lays {card.name} at the {action.end} end of {where}, as {STAGE_WORDS[stage]}."


def _passed(data: Passed, told: _Told) -> str:
    return f"{told.who(data['seat'])} passes for the rest of the round."


def _sympathy(data: Sympathy, told: _Told) -> str:
    who, change, now = told.who(data["seat"]), data["change"], data["level"]
    cause = SYMPATHY_CAUSES.get(data["cause"], data["cause"])
    if not change:
        return f"{who}'s sympathy stays at {signed(now)} ({cause})."
    return f"{who} {'gains' if change > 0 else 'loses'} {abs(change)} sympathy ({cause}): now {signed(now)}."


def _line_shut(data: LineShut, told: _Told) -> str:
    return f"{told.who(data['seat'])} shuts down line {data['line']}, {told.card(data['script'])} (too many open lines for the sympathy)."


def _line_reopened(data: LineReopened, told: _Told) -> str:
    return f"{told.who(data['seat'])}'s line {data['line']} opens again."


def _dossier_taken(data: DossierTaken, told: _Told) -> str:
    return f"{told.who(data['seat'])} takes a black dossier (usable from round {data['round'] + 1})."


def _purged(data: Purged, told: _Told) -> str:
    return f"{told.who(data['seat'])} purges the production board with a black dossier, discarding {told.cards(data['discarded'])}."


def _blocked(data: Blocked, told: _Told) -> str:
    return f"{told.who(data['seat'])} blocks {told.space(data['space'])} with a black dossier for the rest of the round."


def _cut(data: CutSaid, told: _Told) -> str:
    return (
        f"{told.who(data['seat'])} says Cut! with a black dossier on {told.who(data['victim'])}'s release at "
        f"{told.space(data['space'])}: it will not premiere in a market this round."
    )


def _discarded(data: Discarded, told: _Told) -> str:
    return f"{told.who(data['seat'])} discards {told.card(data['card'])}."


def _premiere_phase(data: PremierePhase, told: _Told) -> str:
    return f"Premieres of round {data['round']}."


def _internet_skipped(data: InternetSkipped, told: _Told) -> str:
    return f"{told.who(data['seat'])} does not premiere on the Internet."


def _upkeep_done(data: UpkeepDone, told: _Told) -> str:
    return f"Round {data['round']} is over; {told.who(data['first_player'])} will be first player."


def _game_over(data: GameOver, told: _Told) -> str:
    winners = [told.who(seat) for seat in data["winners"]]
    if not winners:
        return "The game is over."
    return f"The game is over: {join(winners)} {'wins' if len(winners) == 1 else 'share the victory'}."


#: The words of each event kind ("" for events that deserve no line of their own).
_EVENT_WORDS: dict[str, _Words] = {
    "committed": _on(Committed, _silent),
    "produce": _on(ProduceStarted, _silent),
    "produce_done": _on(ProduceDone, _silent),
    "premiere": _on(Premiered, _premiere),
    "round_started": _on(RoundStarted, _round_started),
    "budget": _on(Budget, _budget),
    "exemption": _on(Exemption, _exemption),
    "plan_money": _on(PlanMoney, _plan_money),
    "gift": _on(Gift, _gift),
    "gift_count": _on(GiftCount, _gift_count),
    "setup_done": _on(SetupDone, _setup_done),
    "working_started": _on(WorkingStarted, _working_started),
    "placed": _on(Placed, _placed),
    "card_taken": _on(CardTaken, _card_taken),
    "drew": _on(Drew, _drew),
    "drew_count": _on(DrewCount, _drew_count),
    "sabotage_discarded": _on(SabotageDiscarded, _sabotage_discarded),
    "swapped": _on(Swapped, _swapped),
    "release_designated": _on(ReleaseDesignated, _release_designated),
    "line_started": _on(LineStarted, _line_started),
    "laid": _on(Laid, _laid),
    "passed": _on(Passed, _passed),
    "sympathy": _on(Sympathy, _sympathy),
    "line_shut": _on(LineShut, _line_shut),
    "line_reopened": _on(LineReopened, _line_reopened),
    # The line of what the dossier did says so (placement, exemption, purge, block, Cut!).
    "dossier_spent": _on(DossierSpent, _silent),
    "dossier_taken": _on(DossierTaken, _dossier_taken),
    "purged": _on(Purged, _purged),
    "blocked": _on(Blocked, _blocked),
    "cut": _on(CutSaid, _cut),
    "discarded": _on(Discarded, _discarded),
    "premiere_phase": _on(PremierePhase, _premiere_phase),
    "internet_skipped": _on(InternetSkipped, _internet_skipped),
    "upkeep_done": _on(UpkeepDone, _upkeep_done),
    "game_over": _on(GameOver, _game_over),
}


def premiere_summary(table: Tables, data: Premiered) -> str:
    """A premiere's result after "premieres": ``Alien Huntress in Europe and hits Popcorn Action: 26 points (...); a golden statue``."""
    parts = ", ".join(f"{SOURCE_WORDS[name]} {data['parts'][name]}" for name in SOURCE_WORDS if data["parts"][name])
    title = table.card_name(data["script"])
    extras = []
    if data["statue"]:
        extras.append("a golden statue")
    if data["money"]:
        extras.append(f"{'+' if data['money'] > 0 else '-'}{abs(data['money'])} money")
    if data["sympathy"]:
        extras.append(f"sympathy {data['sympathy']:+d}")
    tail = f"; {join(extras)}" if extras else ""
    trend = f" and hits {table.card_name(data['trend'])}" if data["hit"] and data["trend"] else ""
    detail = f" ({parts})" if parts else ""
    return f"{title} {MARKET_IN[data['market']]}{trend}: {points(data['total'])}{detail}{tail}"


# -- the final scores in words -----------------------------------------------------------------------------------


def final_rows(breakdown: Sequence[Breakdown]) -> list[FinalRow]:
    """The final breakdown as rows a player reads: ``{"label", "values"}``, one value per seat, the total last."""
    rows: list[tuple[str, list[int]]] = []

    def row(label: str, key: BreakdownKey) -> None:
        rows.append((label, [item[key] for item in breakdown]))

    row("Points from premieres", "premieres")
    row("Sympathy at the end", "sympathy")
    row(f"Money left (1 point per {MONEY_PER_PP})", "money")
    row(f"Black dossier kept ({DOSSIER_PP})", "dossier")
    row(f"Hardworking: most movies ({HARDWORKING_PP})", "hardworking")
    row(f"Exploitation: most action movies ({EXPLOITATION_PP})", "exploitation_action")
    row(f"Exploitation: most comedies ({EXPLOITATION_PP})", "exploitation_comedy")
    row(f"Exploitation: most dramas ({EXPLOITATION_PP})", "exploitation_drama")
    row(f"Patriot: most movies in the USA ({PATRIOT_PP})", "patriot_USA")
    row(f"Patriot: most movies in Europe ({PATRIOT_PP})", "patriot_EUR")
    row(f"Patriot: most movies in China ({PATRIOT_PP})", "patriot_CHN")
    row(f"King of the world: the USA, Europe and China ({KING_PP})", "king_of_the_world")
    row(f"Jack of all trades: every genre ({JACK_PP})", "jack_of_all_trades")
    row(f"Trendsetter: most golden statues ({TRENDSETTER_PP})", "trendsetter")
    row("Total", "total")
    row("Movies released (first tie-break)", "released")
    row("Golden statues (second tie-break)", "statues")
    return [{"label": label, "values": values} for label, values in rows]


# -- help ---------------------------------------------------------------------------------------------------------

STEP_HELP = {
    "keep": (
        "Setup: you were dealt 3 scripts in secret and keep {keep} of them; the others go back into the script pile. A script "
        "says which production cards a movie needs (by stage) and how many points it is worth if the movie has them when it "
        "premieres. Everyone chooses at the same time."
    ),
    "exemption": (
        "Grumpy's annual plan binds everyone this round unless they ignore it: for free at sympathy +3 or more, by spending "
        "a black dossier, or by paying 4 money. The choice lasts the whole round."
    ),
    "give": (
        "The annual plan makes everyone give 2 cards of their hand, in secret, to the player on their left. Everyone chooses "
        "at the same time; then the cards move and each hand above 4 cards must discard down to 4."
    ),
    "turn": (
        "Your turn: place one assistant on a free space (the first 2 of the round are free, the 3rd costs 3 money and the 4th "
        "4), and before or after it you may lay cards into one production line (produce) and use a usable black dossier for "
        "one free action (Purge before the placement or Cut!; Block after it). If you cannot place, you must pass, and a pass "
        "ends your round."
    ),
    "produce": (
        "Producing: lay cards from your hand into the chosen line one at a time. The colour rule: at the right end a card of "
        "the same stage or the next one; at the left end the same stage or the one before. Each card name appears once per "
        "line; an upgrade may be stacked on its base card; stars have no place in the line and only refuse banned genres."
    ),
    "swap": "Sabotage swap: first choose the production card of your hand that goes to the board, then the card you take.",
    "take": "Sabotage swap: choose the production slot whose card you take in exchange; nothing is paid.",
    "release": "Choose which of your lines this release space premieres; the line is locked until the end of the round.",
    "sabotage_keep": "Sabotage with a dossier: keep 2 of the cards drawn; the others are discarded face up.",
    "discard": (
        "Hand limit: a hand holds at most 4 cards of any kind. Discard one card at a time until you hold 4 or fewer, then keep the rest."
    ),
    "shut": (
        "Your sympathy allows fewer open production lines than you have: shut one down. A shut line keeps its cards but takes "
        "no cards and cannot be released; it opens again by itself as soon as your sympathy allows."
    ),
    "market": (
        "Premiere: choose a market still free this round. The USA pays 3 money, Europe 2 more points and China the top "
        "production card. The movie then scores: the active trend if it is hit, the script if met, each star whose need is "
        "met, 2 points for a long production of 6 or more cards (and -1 sympathy), and its production cards."
    ),
    "internet": (
        "The Internet: a cut release, or in the last round a player who placed no release, may premiere one line there for "
        "2 money. It never hits a trend and counts for no market award."
    ),
}


def help_text(observation: MovieEmpireObservation) -> str:
    """The legend and the rules of the step ``observation`` is at, in short paragraphs."""
    kind = observation["decision"]["kind"]
    keep = 2 if observation["options"].get("shoot_a_short") else 1
    if observation.get("phase") == "over":
        step = (
            "The game is over. Final scores add the points of every premiere, the sympathy level's end points, 1 point per "
            "3 money, 3 points for a black dossier still held, and the awards; ties go to the most movies released, then "
            "the most golden statues."
        )
    else:
        step = STEP_HELP.get(kind, "").format(keep=keep)
    round_words = (
        f"A round: Grumpy's phase (annual plan and budgets), the working phase (turns of placing assistants), the "
        f"premieres of the released lines, then the upkeep. The game lasts {observation['last_round']} rounds."
    )
    return "\n\n".join(part for part in (step, round_words, LEGEND) if part)


def card_short(table: Tables, card: str) -> str:
    """A card in a few words for lists: ``post-production, costs 2, 1 point``."""
    if card in table.production:
        info = table.production[card]
        if info.is_joker:
            return f"joker, costs {info.cost}, takes the stage you choose"
        if info.is_upgrade:
            base = table.production[info.upgrade_of or ""].name
            return f"upgrade of {base}, costs {info.cost}, {points(info.pp)} stacked on {base}"
        return f"{STAGE_WORDS[STAGES[info.stage]]}, costs {info.cost}, {points(info.pp)}"
    if card in table.stars:
        star = table.stars[card]
        banned = f"; never in {join([GENRE_PLURAL[genre] for genre in sorted(star.banned)], 'or')}" if star.banned else ""
        return f"star, costs {star.cost}, {points(star.pp)} {star_needs(star)}{banned}"
    if card in table.scripts:
        return script_summary(table.scripts[card])
    if card in table.trends:
        trend = table.trends[card]
        return f"hit by {movie_that(trend.requirement)}: {trend_pays(trend)}"
    if card in table.plans:
        return plan_text(table.plans[card])
    return ""


PHASE_WORDS = {
    "setup": "setup",
    "grumpy": "Grumpy's phase",
    "gift": "Grumpy's phase",
    "working": "working phase",
    "premiere": "premieres",
    "internet": "premieres on the Internet",
    "upkeep": "upkeep",
    "over": "game over",
}
#: What the seats a decision waits for are doing.
STEP_WORDS = {
    "keep": "choosing the scripts they keep",
    "exemption": "deciding whether to ignore the annual plan",
    "give": "choosing the cards they give",
    "turn": "taking a turn",
    "produce": "laying cards into a line",
    "swap": "choosing a card for the Sabotage swap",
    "take": "choosing the card taken in the Sabotage swap",
    "release": "choosing the line released",
    "sabotage_keep": "keeping 2 of the Sabotage draw",
    "discard": "discarding down to the hand limit",
    "shut": "shutting down a line",
    "market": "choosing a market for a premiere",
    "internet": "deciding on an Internet premiere",
}
