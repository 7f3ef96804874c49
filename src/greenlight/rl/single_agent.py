"""A Gymnasium single-agent environment: one learning seat against Greenlight bots.

The learner observes ``Box(float32, [0, 1])`` (the game's encoding of
``observe(state, seat)``) and acts with ``Discrete(num_distinct_actions)``.
The legal actions are in ``info["action_mask"]`` (int8) and in
``env.action_masks()`` (bool, the method masked-policy libraries such as
sb3-contrib's MaskablePPO call).

Opponents are bot names (anything ``greenlight.bots.make_bot`` knows:
``random``, the game's ``heuristic``, search levels) or ready ``Bot``
objects; they act through a ``SeatView`` like any other bot, so they never
see more than their own seat either. Named bots are re-seeded from the
episode seed at every reset, so ``reset(seed=s)`` replays exactly.

The encoder writes the observation and the mask into arrays allocated once
(:mod:`greenlight.rl.observer`); ``reset`` and ``step`` hand out copies of
them, as Gymnasium's API asks (users keep what they are given, and
``check_env`` verifies that nothing is shared between calls).

Actions are agent codes (:mod:`greenlight.rl.actions`): the game's codes,
except Movie Empire's kept and given cards, picked one card per step (the
bots do not play between the picks of one choice).

Rewards: the learner's win share at the end, 0 before (optional potential
shaping as in :mod:`greenlight.rl.multi_agent`). An illegal action code
either raises ``IllegalActionError`` (``illegal_action="raise"``), ends the
episode with ``illegal_reward`` and ``info["illegal_action"] = True``
(``"lose"``, the default, so that unmasked agents and ``check_env`` can run),
or pays ``illegal_reward`` and leaves the state as it was (``"ignore"``).

Importing :mod:`greenlight.rl` registers ``greenlight/<game>-v1`` with
Gymnasium for every installed game (seat 0 against random bots at the
smallest player count; ``gymnasium.make(id, opponents=[...])`` picks others,
``max_episode_steps=N`` truncates).

An env pickles and copies (its arrays are made again, its bots and game
state copied), so it can go to a subprocess vector env or a checkpoint.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from greenlight.core.actions import Action
from greenlight.core.bot import Bot, SeatView
from greenlight.core.errors import IllegalActionError
from greenlight.core.game import Game
from greenlight.core.record import Record
from greenlight.core.spec import Options
from greenlight.core.state import GameState
from greenlight.rl.common import ENV_VERSION, Shaping, plain_text, potential, resolve_game, shaping_weights
from greenlight.rl.encoding import encoding_for
from greenlight.rl.observer import SeatObserver

Opponent = str | Bot
ILLEGAL_ACTIONS = ("lose", "raise", "ignore")


class GreenlightGymEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of a Greenlight game as a Gymnasium environment; the other seats are bots."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(
        self,
        game: Game[Any] | str,
        seat: int = 0,
        opponents: Sequence[Opponent] | None = ("random", "random"),
        options: Options | None = None,
        render_mode: str | None = None,
        shaping: Shaping = False,
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
    ) -> None:
        self.game = resolve_game(game)
        if opponents is None:  # the registered ids: random bots at the smallest player count
            opponents = ["random"] * (self.game.spec.min_players - 1)
        self.num_players = len(opponents) + 1
        if self.num_players not in self.game.spec.player_counts:
            raise ValueError(f"{self.game.spec.title} is played by {self.game.spec.player_counts} players, not {self.num_players}")
        if not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be between 0 and {self.num_players - 1} with {len(opponents)} opponents, not {seat}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}, not {illegal_action!r}")
        self.seat = seat
        self.opponents = list(opponents)
        self.options = self.game.spec.resolve_options(self.num_players, options)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.encoding = encoding_for(self.game)
        self.weights = shaping_weights(self.encoding, shaping)
        self.observer = SeatObserver(self.game, self.num_players, self.options)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(self.observer.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.observer.num_codes)
        self._no_mask = np.zeros(self.observer.num_codes, dtype=np.int8)
        #: The Greenlight state of the current game (None before the first reset).
        self.game_state: GameState | None = None
        self.game_seed = -1
        self._bots: dict[int, Bot] = {}
        self._actions: list[tuple[int, Action]] = []
        self._potential = 0.0
        self._over = True

    # -- episode -----------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a new game and let the bots play until the learner must act."""
        super().reset(seed=seed)
        self.game_seed = int(self.np_random.integers(0, 2**31 - 1))
        self.game_state = self.game.new_state(self.num_players, self.game_seed, self.options)
        self.observer.new_game()
        self._actions = []
        self._bots = self._make_bots()
        self._over = False
        self._play_opponents()
        self._potential = 0.0  # as in the AEC env: 0 before the deal and at the end
        return self._observation(), self._info()

    def _make_bots(self) -> dict[int, Bot]:
        from greenlight.bots import make_bot

        others = [seat for seat in range(self.num_players) if seat != self.seat]
        bots: dict[int, Bot] = {}
        for seat, opponent in zip(others, self.opponents, strict=True):
            bot_seed = int(self.np_random.integers(0, 2**31 - 1))
            bots[seat] = make_bot(opponent, self.game, bot_seed) if isinstance(opponent, str) else opponent
        return bots

    def _play_opponents(self) -> None:
        """Bots act until the learner owes an action or the game ends (the learner goes first in shared steps)."""
        state = self.game_state
        assert state is not None
        while True:
            players = self.game.decision(state).players
            if not players or self.seat in players:
                return
            seat = min(players)
            chosen = self._bots[seat].choose(SeatView(self.game, state, seat))
            self.game.apply(state, seat, chosen)
            self.observer.changed()
            self._actions.append((seat, chosen))

    def step(self, action: int | np.integer[Any]) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play the learner's agent code, then the bots until the learner must act again (not after a pick)."""
        state = self.game_state
        assert state is not None, "call reset() first"
        if self._over:
            raise gymnasium.error.ResetNeeded("the episode is over; call reset()")
        try:
            chosen = self.observer.action(state, self.seat, int(action))
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            if self.illegal_action == "lose":
                self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, self._over, False, info
        if chosen is not None:
            self.game.apply_unchecked(state, self.seat, chosen)
            self._actions.append((self.seat, chosen))
            self.observer.changed()
            self._play_opponents()
        else:
            self.observer.changed()  # a pick: the learner goes on choosing the same action
        info = self._info()
        if self.game.is_terminal(state):
            self._over = True
            outcome = self.game.outcome(state)
            reward = outcome.returns()[self.seat] - self._potential
            info.update(score=outcome.scores[self.seat], rank=outcome.ranks[self.seat], win_share=outcome.returns()[self.seat])
        else:
            now = self._seat_potential()
            reward, self._potential = now - self._potential, now
        if self.render_mode == "human":
            self.render()
        return self._observation(), float(reward), self._over, False, info

    # -- what the learner sees ------------------------------------------------------------------

    def _observation(self) -> npt.NDArray[np.float32]:
        assert self.game_state is not None
        return self.observer.observation(self.game_state, self.seat).copy()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask().copy()}

    def _mask(self) -> npt.NDArray[np.int8]:
        assert self.game_state is not None
        if self._over:
            return self._no_mask
        return self.observer.mask(self.game_state, self.seat)

    def _seat_potential(self) -> float:
        if not self.weights:
            return 0.0
        assert self.game_state is not None
        return potential(self.encoding, self.weights, self.game.observe(self.game_state, self.seat))

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Legal action codes as booleans (the hook masked-policy libraries call)."""
        return self._mask().astype(bool)

    def record(self) -> Record:
        """The Greenlight record of the current episode."""
        actions = [(seat, str(action)) for seat, action in self._actions]
        return Record(self.game.spec.id, self.game.spec.version, self.num_players, self.game_seed, dict(self.options), actions)

    def render(self) -> str | None:
        """The learner's own view as plain text (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None or self.game_state is None:
            return None
        text = plain_text(self.game, self.game.observe(self.game_state, self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text


def gym_env(
    game: Game[Any] | str,
    seat: int = 0,
    opponents: Sequence[Opponent] | None = ("random", "random"),
    options: Options | None = None,
    *,
    render_mode: str | None = None,
    shaping: Shaping = False,
    illegal_action: str = "lose",
    illegal_reward: float = -1.0,
) -> GreenlightGymEnv:
    """A single-agent Gymnasium env: ``seat`` learns, ``opponents`` (bot names or Bots) fill the other seats.

    >>> env = gym_env("cinecitta", seat=1, opponents=["random", "random"])
    >>> observation, info = env.reset(seed=3)
    >>> observation.shape == env.observation_space.shape, int(info["action_mask"].sum()) > 0
    (True, True)
    """
    return GreenlightGymEnv(
        game,
        seat,
        opponents,
        options,
        render_mode=render_mode,
        shaping=shaping,
        illegal_action=illegal_action,
        illegal_reward=illegal_reward,
    )


def gym_id(game: Game[Any] | str) -> str:
    """The Gymnasium registry id of ``game`` (``greenlight/cinecitta-v1``)."""
    name = game.spec.id if isinstance(game, Game) else game
    return f"greenlight/{name}-v{ENV_VERSION}"


def register_gym_envs() -> list[str]:
    """Register every installed game with Gymnasium (default: seat 0 against random bots); return the ids.

    Importing :mod:`greenlight.rl` calls it. The games are named from their
    entry points, so nothing is imported until an env is made.
    """
    from importlib.metadata import entry_points

    ids: list[str] = []
    names = sorted({entry.name for entry in entry_points(group="greenlight.games")})
    for name in names:
        env_name = gym_id(name)
        if env_name not in gymnasium.registry:
            gymnasium.register(
                id=env_name, entry_point="greenlight.rl.single_agent:GreenlightGymEnv", kwargs={"game": name, "opponents": None}
            )
        ids.append(env_name)
    return ids
