"""The conformance harness every registered game runs.

``check_game`` plays seeded random games to the end and checks the engine
contract as it goes:

* every step (cheap): the decision names valid seats; legal actions are
  non-empty and unique for seats that must act and empty for the others;
  action codes are in range and distinct; the game ends within its declared
  maximum length; the outcome is well formed, JSON-ready and inside the declared score bounds.
* on a seeded subset of games (``deep_every``), at every step: player words
  (every legal action described, with no bare component code and nothing that
  reads like code; event texts likewise, and neither showing anything hidden
  from who reads it), clone equality
  and independence (no shared mutable containers), text round trip of every
  legal action, JSON-serialisable observations for every seat and the
  spectator, **no leak** (each seat's observation and legal actions are
  unchanged when everything hidden from it is resampled by ``determinize``,
  the game's declared secrets never appear in it, and ``determinize`` itself
  gives the same world from any state the seat cannot tell apart, so a bot
  cannot learn hidden facts through it), and earlier states never change
  after later moves; at the end, record JSON round trip and
  exact replay, and determinism whatever the global RNG does; and actions
  that are not legal now (earlier legal actions, a mover's action played by
  a seat that does not owe one) are refused with a reason and leave the
  state's digest unchanged; every observation matches the game's declared
  ``observation_type`` and every event's data its declared ``event_types``
  (``core.shapes``), so the TypedDicts mypy checks the readers against are
  the data's true shape.

A failure raises :class:`ConformanceFailure` carrying the record so far, so
it can be replayed with ``greenlight replay``.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from greenlight.core.actions import Action
from greenlight.core.errors import IllegalActionError
from greenlight.core.game import Game
from greenlight.core.positions import PositionError, state_fields
from greenlight.core.record import Record, replay
from greenlight.core.shapes import shape_errors
from greenlight.core.spec import Options
from greenlight.core.state import GameState, shared_containers, state_digest
from greenlight.core.words import bare_codes, jargon


class ConformanceFailure(AssertionError):
    """A broken contract, with the record that reproduces it."""

    def __init__(self, message: str, record: Record | None = None) -> None:
        self.record = record
        suffix = f"\nrecord to reproduce:\n{record.dumps()}" if record is not None and len(record.actions) < 400 else ""
        super().__init__(message + suffix)


@dataclass
class ConformanceReport:
    """What a conformance run covered."""

    games: int = 0
    deep_games: int = 0
    actions: int = 0
    longest_game: int = 0
    decision_kinds: Counter[str] = field(default_factory=Counter)
    leak_checks: int = 0
    leak_checks_resampled: int = 0
    winners: Counter[int] = field(default_factory=Counter)

    def merge(self, other: ConformanceReport) -> None:
        """Add another report's counts to this one."""
        self.games += other.games
        self.deep_games += other.deep_games
        self.actions += other.actions
        self.longest_game = max(self.longest_game, other.longest_game)
        self.decision_kinds.update(other.decision_kinds)
        self.leak_checks += other.leak_checks
        self.leak_checks_resampled += other.leak_checks_resampled
        self.winners.update(other.winners)


def option_matrix(game: Game[Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every (player count, combination of boolean variants) the game allows."""
    for num_players in game.spec.player_counts:
        for options in game.spec.variant_combinations(num_players):
            yield num_players, options


def _canonical(observation: Any) -> str:
    return json.dumps(observation, sort_keys=True)


def _string_leaves(value: Any) -> set[str]:
    """Every string in a JSON-like value: its string leaves and its dicts' keys (as ``str``)."""
    found: set[str] = set()
    pending = [value]
    while pending:  # a loop over a stack, not recursion: it reads every observation of every deep step
        item = pending.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            found.update(map(str, item))
            pending.extend(item.values())
        elif isinstance(item, (list, tuple)):
            pending.extend(item)
    return found


#: Distinct earlier-legal actions a playout keeps to try as refusals.
SEEN_ACTIONS_KEPT = 64
#: Share of a deep game's steps at which refusals are tried (a third keeps the harness within a few percent of its cost).
REFUSAL_SHARE = 1 / 3
#: Share of the deep steps whose position is written, read back and compared.
POSITION_SHARE = 1 / 4


class _Playout:
    """One random game with the checks of the harness."""

    def __init__(self, game: Game[Any], num_players: int, seed: int, options: Options, deep: bool, leak_samples: int) -> None:
        self.game = game
        self.num_players = num_players
        self.deep = deep
        self.leak_samples = leak_samples
        self.chooser = random.Random(f"conformance/{seed}")
        self.state: GameState = game.new_state(num_players, seed, options)
        resolved = game.spec.resolve_options(num_players, options)
        self.record = Record(game.spec.id, game.spec.version, num_players, seed, dict(resolved), [])
        self.report = ConformanceReport(games=1, deep_games=int(deep))
        self.history: list[tuple[GameState, Any]] = []
        self.components = game.components(self.state) if deep else []
        #: Actions seen legal earlier in this game (by text): most are refused later, which ``check_refusals`` tries.
        self.seen: dict[str, Action] = {}
        self.refusals = random.Random(f"refusals/{seed}")  # its own stream: deep and quick games play the same moves
        self.positions = random.Random(f"positions/{seed}")

    def fail(self, message: str) -> ConformanceFailure:
        where = (
            f"{self.game.spec.id} {self.num_players}p seed {self.record.seed} options {self.record.options} step {len(self.record.actions)}"
        )
        return ConformanceFailure(f"{where}: {message}", self.record)

    def run(self) -> ConformanceReport:
        game = self.game
        limit = game.spec.max_game_length
        while True:
            decision = game.decision(self.state)
            if decision.is_terminal:
                break
            if len(self.record.actions) >= limit:
                raise self.fail(f"game did not end within its declared maximum of {limit} actions")
            self.report.decision_kinds[decision.kind] += 1
            movers = self.check_decision(decision.players, decision.committed)
            self.check_legal_actions(movers)
            if self.deep:
                self.check_no_leak(self.check_observations())
                self.check_clone()
                self.check_refusals(movers)
                self.check_position()
            seat = self.chooser.choice(sorted(movers))
            action = self.chooser.choice(self.game.legal_actions(self.state, seat))
            self.step(seat, action)
        self.check_outcome()
        if self.deep:
            self.check_observations()
            self.check_history()
            self.check_record()
        self.report.actions = len(self.record.actions)
        self.report.longest_game = len(self.record.actions)
        return self.report

    def step(self, seat: int, action: Action) -> None:
        if self.deep:
            before = self.state.clone()
            self.history.append((before, state_digest(before)))
        try:
            events = self.game.apply(self.state, seat, action)
        except Exception as error:
            raise self.fail(f"applying legal action '{action}' for seat {seat} raised {error!r}") from error
        self.record.actions.append((seat, str(action)))
        if self.deep:
            for event in events:
                self.check_event_shape(event.kind, event.data)
                try:
                    json.dumps(event.to_json())
                    text = self.game.describe_event(event, self.state, None)
                except Exception as error:
                    raise self.fail(f"event {event} is not JSON-ready or cannot be described: {error!r}") from error
                self.check_words(text, f"the text of event {event.kind}")
                audience = range(self.num_players) if event.audience is None else event.audience
                for viewer in [*audience, *([None] if event.audience is None else [])]:
                    leaked = self.game.secrets(self.state, viewer).intersection(re.findall(r"[\w-]+", text))
                    if leaked:
                        raise self.fail(f"the text of event {event.kind} shows {sorted(leaked)[:3]}, hidden from seat {viewer}: {text!r}")

    def check_refusals(self, movers: set[int]) -> None:
        """Actions that are not legal now are refused with a reason, and a refusal leaves the state exactly as it was."""
        game = self.game
        for seat in movers:
            for action in game.legal_actions(self.state, seat):
                if len(self.seen) < SEEN_ACTIONS_KEPT:
                    self.seen.setdefault(str(action), action)
        if self.refusals.random() >= REFUSAL_SHARE:
            return
        tries: list[tuple[int, Action]] = []
        for seat in sorted(movers):
            legal = game.legal_actions(self.state, seat)
            stale = [action for action in self.seen.values() if action not in legal]
            tries += [(seat, action) for action in self.refusals.sample(stale, min(2, len(stale)))]
        idle = [seat for seat in range(self.num_players) if seat not in movers]
        if idle and movers:
            mover = min(movers)
            tries.append((self.refusals.choice(idle), self.refusals.choice(game.legal_actions(self.state, mover))))
        for seat, action in tries:
            before = state_digest(self.state)
            try:
                game.apply(self.state, seat, action)
            except IllegalActionError as error:
                if not str(error).strip():
                    raise self.fail(f"refusing '{action}' for seat {seat} gives no reason") from error
            except Exception as error:
                raise self.fail(f"'{action}' for seat {seat} raised {error!r} instead of a refusal with a reason") from error
            else:
                raise self.fail(f"seat {seat} was allowed '{action}', which is not among its legal actions now")
            if state_digest(self.state) != before:
                raise self.fail(f"refusing '{action}' for seat {seat} changed the state (a refused action must change nothing)")

    def check_position(self) -> None:
        """On a share of the steps: the position, through JSON, reads back into the same state, which the game's checks accept."""
        game = self.game
        if game.positions is None or self.positions.random() >= POSITION_SHARE:
            return
        try:
            text = json.dumps(game.to_position(self.state))
        except (TypeError, ValueError) as error:
            raise self.fail(f"the position is not JSON-ready: {error}") from error
        try:
            copy = game.from_position(json.loads(text))
        except PositionError as error:
            raise self.fail(f"the game refuses its own position as impossible: {error}") from error
        if state_digest(copy) != state_digest(self.state):
            differing = [
                name
                for name in state_fields(type(self.state))
                if state_digest(getattr(copy, name)) != state_digest(getattr(self.state, name))
            ]
            raise self.fail(f"the state read back from its position differs in {differing or 'a slot outside the position'}")

    def check_decision(self, players: tuple[int, ...], committed: tuple[int, ...]) -> set[int]:
        movers = set(players)
        if len(movers) != len(players):
            raise self.fail(f"decision lists a seat twice: {players}")
        if not movers <= set(range(self.num_players)):
            raise self.fail(f"decision names seats outside the table: {players}")
        if movers & set(committed):
            raise self.fail(f"seats {sorted(movers & set(committed))} are both waiting and committed")
        return movers

    def check_legal_actions(self, movers: set[int]) -> None:
        game = self.game
        for seat in range(self.num_players):
            actions = game.legal_actions(self.state, seat)
            if seat not in movers:
                if actions:
                    raise self.fail(f"seat {seat} does not have to act but has legal actions {actions[:3]}")
                continue
            if not actions:
                raise self.fail(f"seat {seat} must act but has no legal action")
            if len(set(actions)) != len(actions):
                duplicates = [str(a) for a, n in Counter(actions).items() if n > 1]
                raise self.fail(f"seat {seat} has duplicate legal actions: {duplicates[:5]}")
            codes = [game.action_code(self.state, action) for action in actions]
            if len(set(codes)) != len(codes):
                raise self.fail(f"seat {seat}: two legal actions share an action code")
            if min(codes) < 0 or max(codes) >= game.num_distinct_actions:
                raise self.fail(f"seat {seat}: action code outside range({game.num_distinct_actions})")
            sample = actions if self.deep else [self.chooser.choice(actions)]
            for action in sample:
                text = str(action)
                if game.parse_action(text) != action:
                    raise self.fail(f"action text {text!r} does not parse back to the same action")
            if self.deep:
                self.check_action_words(seat, actions)

    def check_action_words(self, seat: int, actions: list[Action]) -> None:
        """Every legal action has words (no bare codes, nothing the seat may not know) and, if any, a warning in words."""
        game = self.game
        hidden = game.secrets(self.state, seat)
        for action in actions:
            words = game.describe_action(self.state, seat, action)
            if not isinstance(words, str) or not words.strip():
                raise self.fail(f"seat {seat}: '{action}' has no words (describe_action)")
            self.check_words(words, f"the words of '{action}'")
            leaked = hidden.intersection(re.findall(r"[\w-]+", words))
            if leaked:
                raise self.fail(f"seat {seat}: the words of '{action}' show {sorted(leaked)[:3]}, hidden from that seat: {words!r}")
            warning = game.action_warning(self.state, seat, action)
            if warning is not None:
                if not isinstance(warning, str) or not warning.strip():
                    raise self.fail(f"seat {seat}: '{action}' has an empty warning")
                self.check_words(warning, f"the warning of '{action}'")

    def check_words(self, text: str, what: str) -> None:
        """Player words: no bare component codes, nothing that reads like code."""
        codes = bare_codes(text, self.components)
        if codes:
            raise self.fail(f"{what} shows the bare code(s) {codes} without the name: {text!r}")
        code_like = jargon(text)
        if code_like:
            raise self.fail(f"{what} reads like code ({code_like}): {text!r}")

    def check_event_shape(self, kind: str, data: Any) -> None:
        """The event's data matches the TypedDict the game declares for its kind."""
        declared = self.game.event_types
        if not declared:
            return
        if kind not in declared:
            raise self.fail(f"event kind {kind!r} is not among the game's declared event_types")
        problems = shape_errors(dict(data), declared[kind], kind)
        if problems:
            raise self.fail(f"event {kind} does not match its declared type: {'; '.join(problems)}")

    def check_observations(self) -> dict[int | None, tuple[Any, str]]:
        """Every seat's (and the spectator's) observation is JSON of its declared type; returns each with its canonical JSON."""
        declared = self.game.observation_type
        observations: dict[int | None, tuple[Any, str]] = {}
        for seat in [*range(self.num_players), None]:
            observation = self.game.observe(self.state, seat)
            try:
                observations[seat] = (observation, _canonical(observation))
            except (TypeError, ValueError) as error:
                raise self.fail(f"observation of seat {seat} is not JSON-serialisable: {error}") from error
            if declared is not None:
                problems = shape_errors(observation, declared, "observation")
                if problems:
                    raise self.fail(f"observation of seat {seat} does not match {declared.__name__}: {'; '.join(problems)}")
        return observations

    def check_no_leak(self, observations: dict[int | None, tuple[Any, str]]) -> None:
        """No observation shows a secret, and none changes when what its seat cannot see is dealt again.

        ``observations`` holds each seat's observation of the state now and its canonical JSON (``check_observations``).
        """
        game = self.game
        real = state_digest(self.state)
        for seat in [*range(self.num_players), None]:
            observation, expected = observations[seat]
            secrets = set(game.secrets(self.state, seat))
            if secrets:
                leaked = secrets.intersection(_string_leaves(observation))
                if leaked:
                    raise self.fail(f"observation of seat {seat} contains hidden values {sorted(leaked)[:5]}")
            legal = game.legal_actions(self.state, seat) if seat is not None else []
            for sample in range(self.leak_samples):
                rng = random.Random(f"leak/{self.record.seed}/{len(self.record.actions)}/{seat}/{sample}")
                world = game.determinize(self.state, seat, rng)
                self.report.leak_checks += 1
                if state_digest(world) != real:
                    self.report.leak_checks_resampled += 1
                if state_digest(self.state) != real:
                    raise self.fail(f"determinize for seat {seat} changed the real state")
                if _canonical(game.observe(world, seat)) != expected:
                    raise self.fail(f"observation of seat {seat} changes when hidden information is resampled (a leak)")
                if game.decision(world) != game.decision(self.state):
                    raise self.fail(f"the public decision changes when hidden information is resampled for seat {seat}")
                if seat is not None and game.legal_actions(world, seat) != legal:
                    raise self.fail(f"seat {seat}'s legal actions change when hidden information is resampled")
                if sample == 0:
                    self.check_canonical(seat, world)

    def check_canonical(self, seat: int | None, world: GameState) -> None:
        """``determinize`` may read only what the seat sees: from a world it cannot tell apart, the same rng gives the same result."""
        game = self.game
        key = f"canonical/{self.record.seed}/{len(self.record.actions)}/{seat}"
        from_real = game.determinize(self.state, seat, random.Random(key))
        from_world = game.determinize(world, seat, random.Random(key))
        if state_digest(from_real) != state_digest(from_world):
            raise self.fail(
                f"determinize for seat {seat} depends on hidden information (two states it cannot tell apart give different worlds)"
            )

    def check_clone(self) -> None:
        copy = self.state.clone()
        if type(copy) is not type(self.state) or state_digest(copy) != state_digest(self.state):
            raise self.fail("clone() is not equal to the original")
        shared = shared_containers(self.state, copy)
        if shared:
            raise self.fail(f"clone() shares mutable containers with the original: {shared[:5]}")

    def check_history(self) -> None:
        for index, (earlier, digest) in enumerate(self.history):
            if state_digest(earlier) != digest:
                raise self.fail(f"the saved state before action {index} changed after later moves")

    def check_outcome(self) -> None:
        outcome = self.game.outcome(self.state)
        n = self.num_players
        if len(outcome.scores) != n or len(outcome.ranks) != n or len(outcome.breakdown) != n:
            raise self.fail("outcome must have one score, rank and breakdown per seat")
        if not set(outcome.winners) <= set(range(n)):
            raise self.fail(f"outcome winners {outcome.winners} are not seats")
        if any(outcome.ranks[seat] != 1 for seat in outcome.winners):
            raise self.fail("every winner must be ranked first")
        if self.game.spec.score_bounds is not None:
            low, high = self.game.spec.score_bounds(n, self.record.options)
            for seat, score in enumerate(outcome.scores):
                if not low <= score <= high:
                    raise self.fail(f"seat {seat} scored {score}, outside the declared score bounds [{low}, {high}]")
        try:
            json.dumps(outcome.to_json())
        except (TypeError, ValueError) as error:
            raise self.fail(f"outcome is not JSON-serialisable: {error}") from error
        self.report.winners.update(outcome.winners)

    def check_record(self) -> None:
        copy = Record.loads(self.record.dumps())
        if copy != self.record:
            raise self.fail("the record does not survive a JSON round trip")
        rebuilt = replay(copy, self.game)
        if state_digest(rebuilt) != state_digest(self.state):
            raise self.fail("replaying the record does not reproduce the final state")


def play_random_game(
    game: Game[Any], num_players: int, seed: int, options: Options | None = None, *, deep: bool = False, leak_samples: int = 2
) -> ConformanceReport:
    """Play one seeded random game with the harness checks; raise ConformanceFailure on a broken contract."""
    return _Playout(game, num_players, seed, options or {}, deep, leak_samples).run()


def check_determinism(game: Game[Any], num_players: int, seed: int, options: Options | None = None) -> None:
    """The same seed and actions give the same game, whatever the global RNG does."""
    digests: list[list[Any]] = []
    for global_seed in (1, 2):
        random.seed(global_seed)
        chooser = random.Random(f"determinism/{seed}")
        state = game.new_state(num_players, seed, options)
        trail = [state_digest(state)]
        while not (decision := game.decision(state)).is_terminal:
            random.random()  # disturb the global RNG between steps; the game must not read it
            seat = chooser.choice(sorted(decision.players))
            game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
            trail.append(state_digest(state))
        digests.append(trail)
    if digests[0] != digests[1]:
        first = next(i for i, (a, b) in enumerate(zip(*digests, strict=False)) if a != b)
        raise ConformanceFailure(f"{game.spec.id} {num_players}p seed {seed}: game depends on the global RNG (differs at step {first})")


def check_game(
    game: Game[Any],
    num_players: int,
    options: Options | None,
    seeds: Iterable[int],
    *,
    deep_every: int = 25,
    leak_samples: int = 2,
) -> ConformanceReport:
    """Run the harness on ``seeds``; every ``deep_every``-th game gets the costly per-step checks."""
    report = ConformanceReport()
    for index, seed in enumerate(seeds):
        deep = deep_every > 0 and index % deep_every == 0
        report.merge(play_random_game(game, num_players, seed, options, deep=deep, leak_samples=leak_samples))
        if deep:
            check_determinism(game, num_players, seed, options)
    if report.deep_games and report.leak_checks and not report.leak_checks_resampled and _has_hidden_information(game):
        raise ConformanceFailure(f"{game.spec.id}: determinize never changed anything; the no-leak check would be vacuous")
    return report


def _has_hidden_information(game: Game[Any]) -> bool:
    return bool(getattr(game, "has_hidden_information", True))
