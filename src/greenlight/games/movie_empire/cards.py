"""Movie Empire card and board data: loading and validating the data files of rules §2.10.

Every table lives in its own TOML file under ``data/``. A ``data_dir`` option
names a folder whose files replace the bundled ones (a file missing there falls
back to the bundled one). Every error names the file, the card and the field.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from greenlight.core.data import DataSet, DataTable, FieldSpec, TableSource, bundled_path, require
from greenlight.core.errors import DataError
from greenlight.core.state import StaticData

STAGES = ("G", "B", "Y", "R")
GENRES = ("A", "C", "D")
MARKETS = ("USA", "EUR", "CHN", "NET")
BOARD_MARKETS = ("USA", "EUR", "CHN")
STAGE_INDEX = {stage: index for index, stage in enumerate(STAGES)}
#: The stages as players call them (the words of every text, see words.py).
STAGE_WORDS = {"G": "pre-production", "B": "shooting", "Y": "post-production", "R": "marketing"}
NO_STAGE = -1
#: The three decks (their backs differ, so the kinds of card in a hand are public).
CardKind = Literal["production", "star", "script"]

#: Upper bounds on custom data (action codes are sized for these).
MAX_PRODUCTION = 64
MAX_STARS = 64
MAX_SCRIPTS = 96
MAX_SPACES = 32
MAX_PLANS = 40
MAX_CARD_INDEX = MAX_PRODUCTION + MAX_STARS + MAX_SCRIPTS

#: Rounds and removed trends per mode (§1, §3 step 7, §6).
FULL_ROUNDS, SHORT_ROUNDS = 10, 7
FULL_REMOVED_TRENDS, SHORT_REMOVED_TRENDS = 7, 10
TREND_ROW = 3

DATA_FILES = ("sympathy_bar", "board_spaces", "production_cards", "stars", "scripts", "trends", "annual_plans")

TASKS = (
    "production",
    "script",
    "star",
    "credit",
    "overtime",
    "sabotage",
    "denounce",
    "nice",
    "nice_dossier",
    "reveal",
    "first_player",
    "release",
)
(
    T_PRODUCTION,
    T_SCRIPT,
    T_STAR,
    T_CREDIT,
    T_OVERTIME,
    T_SABOTAGE,
    T_DENOUNCE,
    T_NICE,
    T_NICE_DOSSIER,
    T_REVEAL,
    T_FIRST_PLAYER,
    T_RELEASE,
) = range(len(TASKS))
#: Tasks with exactly one space whose engine meaning needs it to exist.
SINGLE_TASKS = ("overtime", "sabotage", "denounce", "nice", "first_player")

# -- requirement grammar (§2.1) ---------------------------------------------------------

(R_GENRE, R_PERIOD_GE, R_PERIOD_LE, R_N_GE, R_N_ZERO, R_EACH, R_STARS_GE, R_STARS_ZERO, R_HAS, R_SCRIPT_MET) = range(10)

Clause = tuple[int, Any, int]
Requirement = tuple[Clause, ...]

_CLAUSES: tuple[tuple[re.Pattern[str], Any], ...] = (
    (re.compile(r"genre=([ACD])"), lambda m: (R_GENRE, m[1], 0)),
    (re.compile(r"period>=(\d+)"), lambda m: (R_PERIOD_GE, int(m[1]), 0)),
    (re.compile(r"period<=(\d+)"), lambda m: (R_PERIOD_LE, int(m[1]), 0)),
    (re.compile(r"n\(each\)>=1"), lambda m: (R_EACH, 0, 0)),
    (re.compile(r"n\(([GBYR])\)>=(\d+)"), lambda m: (R_N_GE, STAGE_INDEX[m[1]], int(m[2]))),
    (re.compile(r"n\(([GBYR])\)=0"), lambda m: (R_N_ZERO, STAGE_INDEX[m[1]], 0)),
    (re.compile(r"stars>=(\d+)"), lambda m: (R_STARS_GE, int(m[1]), 0)),
    (re.compile(r"stars=0"), lambda m: (R_STARS_ZERO, 0, 0)),
    (re.compile(r"has\(([^()]+)\)"), lambda m: (R_HAS, m[1].strip(), 0)),
    (re.compile(r"script_met"), lambda m: (R_SCRIPT_MET, 0, 0)),
)


def parse_requirement(text: str) -> Requirement:
    """Compile a requirement of the §2.1 grammar; raise ValueError saying which clause is wrong.

    >>> parse_requirement("n(Y)>=2 & n(R)>=1")
    ((3, 2, 2), (3, 3, 1))
    >>> parse_requirement("-")
    ()
    """
    text = text.strip()
    if text in ("", "-", "—"):
        return ()
    clauses: list[Clause] = []
    for part in text.split("&"):
        clause = part.strip()
        for pattern, build in _CLAUSES:
            match = pattern.fullmatch(clause)
            if match:
                clauses.append(build(match))
                break
        else:
            raise ValueError(
                f"clause {clause!r} is not in the grammar (genre=g, period>=k, period<=k, n(s)>=k, n(s)=0, "
                "n(each)>=1, stars>=k, stars=0, has(NAME), script_met)"
            )
    return tuple(clauses)


def requirement_text(requirement: Requirement) -> str:
    """The requirement in the §2.1 notation ("—" when always true)."""
    if not requirement:
        return "—"
    return " & ".join(_clause_text(op, a, b) for op, a, b in requirement)


def _clause_text(op: int, a: Any, b: int) -> str:
    if op == R_GENRE:
        return f"genre={a}"
    if op == R_PERIOD_GE:
        return f"period>={a}"
    if op == R_PERIOD_LE:
        return f"period<={a}"
    if op == R_N_GE:
        return f"n({STAGES[a]})>={b}"
    if op == R_N_ZERO:
        return f"n({STAGES[a]})=0"
    if op == R_EACH:
        return "n(each)>=1"
    if op == R_STARS_GE:
        return f"stars>={a}"
    if op == R_STARS_ZERO:
        return "stars=0"
    if op == R_HAS:
        return f"has({a})"
    return "script_met"


# -- card records -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SympathyLevel:
    """One level of the sympathy bar (§2.3)."""

    level: int
    budget: int
    lines: int
    end_pp: int
    plan_exempt: bool


@dataclass(frozen=True, slots=True)
class Space:
    """One action space of the board (§2.4). ``index`` is its position in the board table."""

    id: str
    task: int
    money: int
    surcharge: int
    min_players: int
    dossier_space: bool
    order: int
    index: int

    @property
    def task_name(self) -> str:
        """The task in words (as in the data file)."""
        return TASKS[self.task]


@dataclass(frozen=True, slots=True)
class ProductionCard:
    """One distinct production card (§2.5). Copies share the id and are interchangeable.

    ``carried_name`` is the name it carries for the duplicate rule (an upgrade X* carries X, R22);
    ``has_name`` is the name it satisfies in ``has()`` (None for an upgrade, R24).
    """

    id: str
    name: str
    kind: str
    stage: int
    cost: int
    pp: int
    copies: int
    upgrade_of: str | None
    carried_name: str
    has_name: str | None
    index: int

    @property
    def is_joker(self) -> bool:
        """True for a joker (no printed stage)."""
        return self.kind == "joker"

    @property
    def is_upgrade(self) -> bool:
        """True for an upgrade card X*."""
        return self.kind == "upgrade"


@dataclass(frozen=True, slots=True)
class StarCard:
    """One star (§2.6)."""

    id: str
    name: str
    cost: int
    pp: int
    banned: frozenset[str]
    requirement: Requirement
    index: int


@dataclass(frozen=True, slots=True)
class ScriptCard:
    """One script (§2.7): ``needs`` holds the minimum G/B/Y/R counts."""

    id: str
    title: str
    genre: str
    needs: tuple[int, int, int, int]
    pp: int
    index: int


@dataclass(frozen=True, slots=True)
class TrendCard:
    """One trend (§2.8). ``market`` None means the "with" PP are always paid."""

    id: str
    name: str
    requirement: Requirement
    market: str | None
    pp_with: int
    pp_without: int
    waives_long_production_sympathy: bool


PLAN_EFFECTS = {
    "release_requirement": "lasting",
    "forbid_take_stage": "lasting",
    "forbid_task": "lasting",
    "lose_money": "instant",
    "gain_money": "instant",
    "give_cards": "instant",
    "none": "none",
}


@dataclass(frozen=True, slots=True)
class AnnualPlan:
    """One annual plan (§2.9) with its parameters already read."""

    id: str
    text: str
    kind: str
    effect: str
    release_requirement: Requirement
    forbidden_stage: int
    forbidden_tasks: frozenset[int]
    amount: int
    index: int


# -- the table --------------------------------------------------------------------------


class Tables(StaticData):
    """Every card and board table of one game, loaded once and shared by all states."""

    __slots__ = (
        "_spaces_in_use",
        "card_index",
        "plan_ids",
        "plans",
        "production",
        "production_deck",
        "production_ids",
        "script_ids",
        "scripts",
        "source",
        "space_by_id",
        "spaces",
        "star_ids",
        "stars",
        "sympathy",
        "trend_ids",
        "trends",
    )

    def __init__(
        self,
        source: str,
        sympathy: dict[int, SympathyLevel],
        spaces: tuple[Space, ...],
        production: dict[str, ProductionCard],
        stars: dict[str, StarCard],
        scripts: dict[str, ScriptCard],
        trends: dict[str, TrendCard],
        plans: dict[str, AnnualPlan],
    ) -> None:
        self.source = source
        self.sympathy = sympathy
        self.spaces = spaces
        self.space_by_id = {space.id: space for space in spaces}
        self.production = production
        self.stars = stars
        self.scripts = scripts
        self.trends = trends
        self.plans = plans
        self.production_ids = tuple(production)
        self.star_ids = tuple(stars)
        self.script_ids = tuple(scripts)
        self.trend_ids = tuple(trends)
        self.plan_ids = tuple(plans)
        #: One entry per physical production card, in table order.
        self.production_deck = tuple(card.id for card in production.values() for _ in range(card.copies))
        #: A single index space over every hand card (production, star, script) for action codes.
        self.card_index: dict[str, int] = {}
        for offset, ids in ((0, self.production_ids), (MAX_PRODUCTION, self.star_ids), (MAX_PRODUCTION + MAX_STARS, self.script_ids)):
            for position, card_id in enumerate(ids):
                self.card_index[card_id] = offset + position
        self._spaces_in_use: dict[tuple[int, bool], tuple[Space, ...]] = {}
        for num_players in (2, 3, 4):
            for clean in (False, True):
                self._spaces_in_use[(num_players, clean)] = tuple(
                    space for space in spaces if space.min_players <= num_players and not (clean and space.dossier_space)
                )

    def static_key(self) -> str:
        """Where the tables came from."""
        return self.source

    def spaces_in_use(self, num_players: int, clean_hands: bool) -> tuple[Space, ...]:
        """The action spaces of this player count and variant, in board order (§2.4, §6)."""
        return self._spaces_in_use[(num_players, clean_hands)]

    def kind_of(self, card_id: str) -> CardKind:
        """``production``, ``star`` or ``script``."""
        if card_id in self.production:
            return "production"
        if card_id in self.stars:
            return "star"
        return "script"

    def card_name(self, card_id: str) -> str:
        """A card's printed name (a script's title)."""
        if card_id in self.production:
            return self.production[card_id].name
        if card_id in self.stars:
            return self.stars[card_id].name
        if card_id in self.scripts:
            return self.scripts[card_id].title
        if card_id in self.trends:
            return self.trends[card_id].name
        if card_id in self.plans:
            return self.plans[card_id].text
        return card_id


# -- loading ----------------------------------------------------------------------------


def data_file(data_dir: str | None, name: str) -> str:
    """The file read for table ``name``: the custom one if ``data_dir`` holds it, else the bundled one."""
    return str(DATA.locate(data_dir)[name].path)


def load_tables(data_dir: str | None = None) -> Tables:
    """Load and validate every table; ``data_dir`` names a folder of replacement files (or a workbook, a sheet per table)."""
    if data_dir is not None:
        folder = Path(data_dir)
        if not folder.is_dir() and not (folder.suffix == ".xlsx" and folder.is_file()):
            raise DataError(str(folder), None, None, "the data option must name an existing folder (or an .xlsx workbook)")
        return _load_cached(str(folder.resolve()), DATA.fingerprint(folder))
    return _load_cached(None, ())


@cache
def _load_cached(data_dir: str | None, fingerprint: tuple[tuple[str, int, int], ...]) -> Tables:
    files = DATA.locate(data_dir)
    sympathy = _load_sympathy(files["sympathy_bar"])
    spaces = _load_spaces(files["board_spaces"])
    production = _load_production(files["production_cards"])
    names = {card.name for card in production.values() if card.kind != "upgrade"}
    stars = _load_stars(files["stars"], names)
    scripts = _load_scripts(files["scripts"])
    trends = _load_trends(files["trends"], names)
    plans = _load_plans(files["annual_plans"], names)
    return Tables(f"movie-empire:{data_dir or 'bundled'}", sympathy, spaces, production, stars, scripts, trends, plans)


def _requirement(file: str, card: str, field: str, text: str, names: set[str]) -> Requirement:
    try:
        requirement = parse_requirement(text)
    except ValueError as error:
        raise DataError(file, card, field, str(error)) from None
    for op, name, _ in requirement:
        if op == R_HAS:
            require(name in names, file, card, field, f"has({name}) names no base card or joker of production_cards")
    return requirement


SYMPATHY_FIELDS = (
    FieldSpec("level", "int", minimum=-5, maximum=5),
    FieldSpec("budget", "int", minimum=0),
    FieldSpec("lines", "int", minimum=1, maximum=2),
    FieldSpec("end_pp", "int"),
    FieldSpec("plan_exempt", "bool"),
)


def _load_sympathy(source: TableSource) -> dict[int, SympathyLevel]:
    file, rows = source.label, source.read()
    levels = {row["level"]: SympathyLevel(**row) for row in rows}
    missing = sorted(set(range(-5, 6)) - set(levels))
    require(not missing, file, None, "level", f"the bar needs every level from -5 to +5; missing {missing}")
    return dict(sorted(levels.items()))


SPACE_FIELDS = (
    FieldSpec("id", "str"),
    FieldSpec("task", "str", choices=TASKS),
    FieldSpec("money", "int"),
    FieldSpec("surcharge", "int", minimum=0, required=False, default=0),
    FieldSpec("min_players", "int", choices=(2, 3, 4)),
    FieldSpec("dossier_space", "bool", required=False, default=False),
    FieldSpec("order", "int", minimum=1),
)


def _load_spaces(source: TableSource) -> tuple[Space, ...]:
    file, rows = source.label, source.read()
    require(len(rows) <= MAX_SPACES, file, None, None, f"at most {MAX_SPACES} spaces are supported, found {len(rows)}")
    spaces = tuple(
        Space(
            row["id"],
            TASKS.index(row["task"]),
            row["money"],
            row["surcharge"],
            row["min_players"],
            row["dossier_space"],
            row["order"],
            index,
        )
        for index, row in enumerate(rows)
    )
    for task in TASKS:
        group = [space for space in spaces if space.task_name == task]
        orders = [space.order for space in group]
        for space in group:
            require(orders.count(space.order) == 1, file, space.id, "order", f"two {task} spaces share order {space.order}")
        if task in SINGLE_TASKS:
            require(any(s.min_players == 2 for s in group), file, None, "task", f"a {task} space used at 2 players is needed")
    for task in ("production", "script", "star", "release"):
        require(any(s.task_name == task and s.min_players == 2 for s in spaces), file, None, "task", f"at least one {task} space is needed")
    for space in spaces:
        if space.task_name != "production":
            require(space.surcharge == 0, file, space.id, "surcharge", "only production slots have a surcharge")
    releases = [space for space in spaces if space.task_name == "release"]
    # R37: a free market must always exist for each release space.
    require(len(releases) <= len(BOARD_MARKETS), file, None, "task", f"at most {len(BOARD_MARKETS)} release spaces (one per market)")
    # Spaces are kept sorted by task and order so slot numbers follow the board.
    return tuple(
        Space(s.id, s.task, s.money, s.surcharge, s.min_players, s.dossier_space, s.order, index)
        for index, s in enumerate(sorted(spaces, key=lambda s: (s.task, s.order)))
    )


PRODUCTION_FIELDS = (
    FieldSpec("id", "str"),
    FieldSpec("name", "str"),
    FieldSpec("kind", "str", choices=("base", "upgrade", "joker")),
    FieldSpec("stage", "str", choices=(*STAGES, "none")),
    FieldSpec("cost", "int", minimum=0),
    FieldSpec("pp", "int", minimum=0),
    FieldSpec("copies", "int", minimum=1),
    FieldSpec("upgrade_of", "str", required=False, default=None, nullable=True),
)


def _load_production(source: TableSource) -> dict[str, ProductionCard]:
    file, rows = source.label, source.read()
    require(len(rows) <= MAX_PRODUCTION, file, None, None, f"at most {MAX_PRODUCTION} distinct cards are supported, found {len(rows)}")
    by_id = {row["id"]: row for row in rows}
    cards: dict[str, ProductionCard] = {}
    for index, row in enumerate(rows):
        card, kind = row["id"], row["kind"]
        require((kind == "joker") == (row["stage"] == "none"), file, card, "stage", "a joker has stage none and only a joker has it")
        base_name = row["name"]
        upgrade_of = row["upgrade_of"] or None
        if kind == "upgrade":
            require(upgrade_of is not None, file, card, "upgrade_of", "an upgrade must name the base card it upgrades")
            base = by_id.get(str(upgrade_of))
            require(base is not None, file, card, "upgrade_of", f"{upgrade_of} is not a card of this file")
            assert base is not None
            require(base["kind"] == "base", file, card, "upgrade_of", f"{upgrade_of} is not a base card")
            require(base["stage"] == row["stage"], file, card, "stage", f"an upgrade has the stage of its base {upgrade_of}")
            base_name = base["name"]
        else:
            require(upgrade_of is None, file, card, "upgrade_of", "only an upgrade names a base card")
        stage = STAGE_INDEX.get(row["stage"], NO_STAGE)
        has_name = None if kind == "upgrade" else row["name"]
        cards[card] = ProductionCard(
            card, row["name"], kind, stage, row["cost"], row["pp"], row["copies"], upgrade_of, base_name, has_name, index
        )
    names = [card.name for card in cards.values() if card.kind != "upgrade"]
    for card in cards.values():
        require(names.count(card.name) <= 1 or card.kind == "upgrade", file, card.id, "name", f"two cards are named {card.name}")
    blue = sum(card.copies for card in cards.values() if card.stage == STAGE_INDEX["B"])
    other = sum(card.copies for card in cards.values()) - blue
    for label, count in (("blue", blue), ("non-blue", other)):
        if count % 2:
            warnings.warn(f"{file}: {count} {label} cards cannot split evenly; the top pile gets {count // 2}", stacklevel=2)
    return cards


STAR_FIELDS = (
    FieldSpec("id", "str"),
    FieldSpec("name", "str"),
    FieldSpec("cost", "int", minimum=0),
    FieldSpec("pp", "int", minimum=0),
    FieldSpec("banned_genres", "list[str]", choices=GENRES),
    FieldSpec("requirement", "str"),
)


def _load_stars(source: TableSource, names: set[str]) -> dict[str, StarCard]:
    file, rows = source.label, source.read()
    require(len(rows) <= MAX_STARS, file, None, None, f"at most {MAX_STARS} stars are supported, found {len(rows)}")
    return {
        row["id"]: StarCard(
            row["id"],
            row["name"],
            row["cost"],
            row["pp"],
            frozenset(row["banned_genres"]),
            _requirement(file, row["id"], "requirement", row["requirement"], names),
            index,
        )
        for index, row in enumerate(rows)
    }


SCRIPT_FIELDS = (
    FieldSpec("id", "str"),
    FieldSpec("title", "str"),
    FieldSpec("genre", "str", choices=GENRES),
    FieldSpec("req_G", "int", minimum=0),
    FieldSpec("req_B", "int", minimum=0),
    FieldSpec("req_Y", "int", minimum=0),
    FieldSpec("req_R", "int", minimum=0),
    FieldSpec("pp", "int", minimum=0),
)


def _load_scripts(source: TableSource) -> dict[str, ScriptCard]:
    file, rows = source.label, source.read()
    require(len(rows) <= MAX_SCRIPTS, file, None, None, f"at most {MAX_SCRIPTS} scripts are supported, found {len(rows)}")
    return {
        row["id"]: ScriptCard(
            row["id"], row["title"], row["genre"], (row["req_G"], row["req_B"], row["req_Y"], row["req_R"]), row["pp"], index
        )
        for index, row in enumerate(rows)
    }


TREND_FIELDS = (
    FieldSpec("id", "str"),
    FieldSpec("name", "str"),
    FieldSpec("requirement", "str"),
    FieldSpec("market", "str", choices=(*BOARD_MARKETS, "none")),
    FieldSpec("pp_with", "int", minimum=0),
    FieldSpec("pp_without", "int", minimum=0),
    FieldSpec("waives_long_production_sympathy", "bool", required=False, default=False),
)


def _load_trends(source: TableSource, names: set[str]) -> dict[str, TrendCard]:
    file, rows = source.label, source.read()
    for removed, rounds, mode in ((FULL_REMOVED_TRENDS, FULL_ROUNDS, "a full game"), (SHORT_REMOVED_TRENDS, SHORT_ROUNDS, "Shoot a Short")):
        needed = removed + TREND_ROW + (rounds - TREND_ROW)
        # §2.10: removed + 3 + (rounds - 3), so exactly one trend is left on the board in the last round.
        require(
            len(rows) == needed,
            file,
            None,
            None,
            f"{mode} needs exactly {needed} trends ({removed} removed + {rounds} rounds), found {len(rows)}",
        )
    return {
        row["id"]: TrendCard(
            row["id"],
            row["name"],
            _requirement(file, row["id"], "requirement", row["requirement"], names),
            None if row["market"] == "none" else row["market"],
            row["pp_with"],
            row["pp_without"],
            row["waives_long_production_sympathy"],
        )
        for row in rows
    }


PLAN_FIELDS = (
    FieldSpec("id", "str"),
    FieldSpec("text", "str"),
    FieldSpec("kind", "str", choices=("lasting", "instant", "none")),
    FieldSpec("effect", "str", choices=tuple(PLAN_EFFECTS)),
    FieldSpec("parameters", "str", required=False, default=""),
)


def _load_plans(source: TableSource, names: set[str]) -> dict[str, AnnualPlan]:
    file, rows = source.label, source.read()
    # §4.11: the plans never run out (one per round from round 2).
    require(
        FULL_ROUNDS - 1 <= len(rows) <= MAX_PLANS,
        file,
        None,
        None,
        f"between {FULL_ROUNDS - 1} and {MAX_PLANS} plans are needed, found {len(rows)}",
    )
    plans: dict[str, AnnualPlan] = {}
    for index, row in enumerate(rows):
        card, effect, parameters = row["id"], row["effect"], row["parameters"].strip()
        require(PLAN_EFFECTS[effect] == row["kind"], file, card, "kind", f"effect {effect} belongs to kind {PLAN_EFFECTS[effect]}")
        requirement: Requirement = ()
        stage, tasks, amount = NO_STAGE, frozenset[int](), 0
        if effect == "release_requirement":
            requirement = _requirement(file, card, "parameters", parameters, names)
            require(bool(requirement), file, card, "parameters", "a release requirement is needed")
        elif effect == "forbid_take_stage":
            require(parameters in STAGES, file, card, "parameters", f"must be one stage of {', '.join(STAGES)}, got {parameters!r}")
            stage = STAGE_INDEX[parameters]
        elif effect == "forbid_task":
            words = [word.strip() for word in parameters.split(",") if word.strip()]
            for word in words:
                require(word in TASKS, file, card, "parameters", f"{word!r} is not a task ({', '.join(TASKS)})")
            require(bool(words), file, card, "parameters", "name at least one task")
            tasks = frozenset(TASKS.index(word) for word in words)
        elif effect in ("lose_money", "gain_money", "give_cards"):
            require(
                parameters.isdigit() and int(parameters) > 0, file, card, "parameters", f"must be a whole number > 0, got {parameters!r}"
            )
            amount = int(parameters)
        else:
            require(parameters == "", file, card, "parameters", "an effect of none takes no parameters")
        plans[card] = AnnualPlan(card, row["text"], row["kind"], effect, requirement, stage, tasks, amount, index)
    return plans


#: The game's data: one table per file of ``data/`` (rules §2.10). A designer's folder (or workbook) may hold any of them;
#: the others come from the bundled files.
DATA = DataSet(
    "Movie Empire",
    (
        DataTable("sympathy_bar", "level", SYMPATHY_FIELDS, id_field="level", what="level"),
        DataTable("board_spaces", "space", SPACE_FIELDS, what="space", tune="money"),
        DataTable("production_cards", "card", PRODUCTION_FIELDS, card_type="production", tune="cost"),
        DataTable("stars", "card", STAR_FIELDS, card_type="star", tune="cost"),
        DataTable("scripts", "card", SCRIPT_FIELDS, card_type="script", tune="pp"),
        DataTable("trends", "card", TREND_FIELDS, card_type="trend", tune="pp_with"),
        DataTable("annual_plans", "card", PLAN_FIELDS),
    ),
    bundled_path(__file__, "data"),
    folder=True,
)
