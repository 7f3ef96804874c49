"""Trained policies as bots: ``policy:FILE`` plays a saved policy wherever a bot's name is accepted.

A **policy file** is a TorchScript module saved by
:func:`greenlight.rl.policy_file.save_policy`, with a JSON extra file
``greenlight.json`` inside that says what it was trained for (game, player
count, observation and action sizes, versions). This module reads that JSON
without PyTorch (a TorchScript file is a zip archive), so the web lobby can
list registered policies on a server without the ``train`` extra in its
imports; playing one loads PyTorch through :mod:`greenlight.rl.policy_file`,
named here and imported on first use like the other bots of higher layers.

The bot (:class:`PolicyBot`) sees only what any bot sees, a
:class:`~greenlight.core.bot.SeatView`: at each choice it asks the view for
the seat's observation vector and legal agent codes (the RL environments'
observations and action masks), scores the legal codes with the policy and
plays the best one (``greedy``, the default) or draws one from the softmax of
the scores with its seeded RNG (``sample``). A choice of several cards made
card by card (see :mod:`greenlight.rl.actions`) is a run of such choices.

Names: ``policy:PATH`` (``/greedy`` or ``/sample`` may follow), or
``policy:package.module:factory`` for a policy written in Python:
``factory(game, seed)`` returns a Bot, or an object with the
:class:`Policy` method ``scores``.

>>> split_policy_name("policy:runs/ppo.pt/sample")
('runs/ppo.pt', {'mode': 'sample'})
>>> split_policy_name("policy:runs/ppo.pt")
('runs/ppo.pt', {})
"""

from __future__ import annotations

import importlib
import json
import math
import os
import re
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from greenlight.bots.options import BotOption, flag, read_bot_options
from greenlight.core.actions import Action
from greenlight.core.bot import Bot, SeatView
from greenlight.core.errors import OptionError
from greenlight.core.game import Game

#: The name prefix of policy bots (``policy:...``).
PREFIX = "policy"
#: The extra file inside a policy file that holds its metadata.
METADATA_FILE = "greenlight.json"
#: ``format`` of that metadata, and the version of its layout.
FORMAT = "greenlight-policy"
FORMAT_VERSION = 1
#: What to install to play a policy file.
TRAIN_EXTRA = "PyTorch, the 'train' extra (pip install -e '.[train]')"

#: The options of ``policy:...``, written after the file: ``/greedy`` (the default) or ``/sample``.
POLICY_OPTIONS: dict[str, BotOption] = {
    "greedy": flag("mode", "greedy"),
    "sample": flag("mode", "sample"),
}

#: ``package.module:callable``: a policy written in Python rather than a file.
ENTRY_POINT = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


class PolicyFileError(OptionError):
    """A policy that cannot be played here: no such file, not a policy file, made for another game or table."""


@dataclass(frozen=True)
class PolicyInfo:
    """What a policy file says it was trained for (its ``greenlight.json``)."""

    path: str
    game: str
    players: int
    observation_size: int
    action_count: int
    options: dict[str, Any] = field(default_factory=dict)
    greenlight_version: str = ""
    env_version: int | None = None
    note: str = ""

    def describe(self) -> str:
        """A short line for lists: the game and the player count."""
        return f"{self.game}, {self.players} players"

    def metadata(self) -> dict[str, Any]:
        """The JSON object stored in the file (without the path)."""
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "observation_size": self.observation_size,
            "action_count": self.action_count,
            "greenlight_version": self.greenlight_version,
            "env_version": self.env_version,
            "note": self.note,
        }

    def check(self, game: Game[Any], players: int | None = None) -> None:
        """Refuse, naming the file and the difference, unless the policy was trained for ``game`` (and ``players``)."""
        if self.game != game.spec.id:
            raise PolicyFileError(f"policy file {self.path} was trained for {self.game}, not {game.spec.id}")
        if players is not None and self.players != players:
            raise PolicyFileError(f"policy file {self.path} was trained for {self.players} players, not {players}")


def read_policy_info(path: str | os.PathLike[str]) -> PolicyInfo:
    """The metadata of the policy file at ``path``, read without PyTorch; a clear error if it is not one."""
    where = os.fspath(path)
    if not os.path.isfile(where):
        raise PolicyFileError(f"policy file {where} does not exist")
    try:
        with zipfile.ZipFile(where) as archive:
            names = [name for name in archive.namelist() if name.count("/") == 2 and name.endswith("/extra/" + METADATA_FILE)]
            if not names:
                raise PolicyFileError(f"{where} is not a Greenlight policy file (it has no {METADATA_FILE}; save one with save_policy)")
            data = json.loads(archive.read(names[0]).decode("utf-8"))
    except (zipfile.BadZipFile, OSError):
        raise PolicyFileError(f"{where} is not a Greenlight policy file (not a TorchScript archive; save one with save_policy)") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise PolicyFileError(f"{where} is not a Greenlight policy file (its {METADATA_FILE} is not JSON)") from None
    return info_from_metadata(where, data)


def info_from_metadata(path: str, data: Any) -> PolicyInfo:
    """A :class:`PolicyInfo` from the JSON of a policy file; a clear error naming the file if it is malformed."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PolicyFileError(f"{path} is not a Greenlight policy file (its {METADATA_FILE} has no format {FORMAT!r})")
    if data.get("format_version") != FORMAT_VERSION:
        raise PolicyFileError(
            f"policy file {path} has format version {data.get('format_version')}; this Greenlight reads version {FORMAT_VERSION}"
        )
    try:
        return PolicyInfo(
            path=path,
            game=str(data["game"]),
            players=int(data["players"]),
            observation_size=int(data["observation_size"]),
            action_count=int(data["action_count"]),
            options=dict(data.get("options") or {}),
            greenlight_version=str(data.get("greenlight_version", "")),
            env_version=None if data.get("env_version") is None else int(data["env_version"]),
            note=str(data.get("note", "")),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise PolicyFileError(f"policy file {path} has a malformed {METADATA_FILE}: {error!r}") from None


@runtime_checkable
class Policy(Protocol):
    """What a policy bot plays: one score (a logit) per legal agent code, in the order of ``legal_codes``."""

    def scores(self, observation: Sequence[float], legal_codes: Sequence[int]) -> Sequence[float]:
        """Scores of ``legal_codes`` for the seat's observation vector; higher is better."""
        ...


class PolicyBot(Bot):
    """Plays a :class:`Policy` through the public codes of its :class:`~greenlight.core.bot.SeatView`.

    ``check(view)`` runs before the first choice (a policy file checks the
    player count and the sizes of the table it sits at).
    """

    def __init__(
        self, policy: Policy, seed: int = 0, *, sample: bool = False, name: str = PREFIX, check: Callable[[SeatView], None] | None = None
    ) -> None:
        super().__init__(seed)
        self.policy = policy
        self.sample = sample
        self.name = name
        self._check = check

    def choose(self, view: SeatView) -> Action:
        """The policy's move: one code at a time until the codes make a complete action."""
        if self._check is not None:
            self._check(view)
            self._check = None
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        while True:
            codes = view.legal_action_codes()
            code = codes[0] if len(codes) == 1 else codes[self.pick(self.policy.scores(view.observation_vector(), codes))]
            action = view.action_for_code(code)
            if action is not None:
                return action

    def pick(self, scores: Sequence[float]) -> int:
        """The position of the chosen score: the highest (the first of equals), or drawn from their softmax."""
        values = [float(score) for score in scores]
        if any(math.isnan(value) for value in values):
            raise ValueError(f"policy bot {self.name!r} got NaN scores from its policy")
        best = max(values)
        if not self.sample or best == -math.inf:
            return values.index(best)
        weights = [math.exp(value - best) for value in values]
        point = self.rng.random() * sum(weights)
        for position, weight in enumerate(weights):
            point -= weight
            if point < 0:
                return position
        return len(weights) - 1  # rounding left a sliver past the last weight


def split_policy_name(name: str) -> tuple[str, dict[str, Any]]:
    """``policy:SPEC[/OPTION...]`` as (SPEC, settings): the known options are read off the end (a path has slashes too)."""
    prefix, colon, body = name.partition(":")
    if prefix != PREFIX or not colon or not body:
        raise OptionError(f"cannot read bot {name!r}; write {PREFIX}:FILE or {PREFIX}:FILE/sample")
    parts = body.split("/")
    options: list[str] = []
    while len(parts) > 1 and parts[-1].partition("=")[0] in POLICY_OPTIONS:
        options.insert(0, parts.pop())
    try:
        _, settings = read_bot_options("/".join(["", *options]), POLICY_OPTIONS)
    except ValueError as error:
        raise OptionError(f"cannot read bot {name!r}: {error}") from None
    return "/".join(parts), settings


def make_policy_bot(name: str, game: Game[Any], seed: int) -> Bot:
    """The bot ``name`` (``policy:FILE`` or ``policy:module:factory``) for ``game``.

    It opens any file and imports any module it is told to: the web server
    never passes it a name from a request (``greenlight.web.policies`` maps the
    operator's registered names to their files).
    """
    spec, settings = split_policy_name(name)
    sample = settings.get("mode") == "sample"
    if ENTRY_POINT.match(spec) and not os.path.exists(spec):
        return _from_factory(spec, name, game, seed, sample)
    path = spec
    _check_options(name, path)
    info = read_policy_info(path)
    info.check(game)
    policy = _load(path, game)

    def check(view: SeatView) -> None:
        info.check(game, view.num_players)
        size, count = len(view.observation_vector()), view.num_action_codes
        if (size, count) != (info.observation_size, info.action_count):
            raise PolicyFileError(
                f"policy file {path} takes observations of {info.observation_size} and {info.action_count} action codes; "
                f"this table has {size} and {count} (other options?)"
            )

    return PolicyBot(policy, seed, sample=sample, name=name, check=check)


def _check_options(name: str, path: str) -> None:
    """Refuse an unknown option after an existing file (``FILE/fast``), which would otherwise read as a missing file."""
    if os.path.exists(path):
        return
    parts = path.split("/")
    for end in range(len(parts) - 1, 0, -1):
        if os.path.isfile("/".join(parts[:end])):
            unknown = next((part for part in parts[end:] if part.partition("=")[0] not in POLICY_OPTIONS), parts[end])
            raise OptionError(f"cannot read bot {name!r}: unknown option {unknown!r}; the options are {', '.join(POLICY_OPTIONS)}")


#: Policies loaded, by (real path, modification time, size): an arena builds its bots afresh for every game.
_LOADED: dict[tuple[str, int, int], Policy] = {}
#: How many loaded policies are kept.
LOADED_LIMIT = 16


def _load(path: str, game: Game[Any]) -> Policy:
    """The policy file at ``path`` loaded for ``game`` (once while the file is unchanged); PyTorch is imported here."""
    status = os.stat(path)
    key = (os.path.realpath(path), status.st_mtime_ns, status.st_size)
    if key not in _LOADED:
        loader = importlib.import_module("greenlight.rl.policy_file")  # the rl layer, named here: it imports bots
        if len(_LOADED) >= LOADED_LIMIT:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = loader.load_policy(path, game=game)
    return _LOADED[key]


def _from_factory(spec: str, name: str, game: Game[Any], seed: int, sample: bool) -> Bot:
    """The bot of ``policy:package.module:factory``: the factory's Bot, or a PolicyBot over its policy."""
    module_name, _, attribute = spec.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise OptionError(f"cannot load bot {name!r}: {error}") from None
    made = factory(game, seed)
    if isinstance(made, Bot):
        made.name = name
        return made
    if isinstance(made, Policy):
        return PolicyBot(made, seed, sample=sample, name=name)
    raise OptionError(f"bot {name!r}: {spec} returned {type(made).__name__}, neither a Bot nor a policy with scores(observation, codes)")
