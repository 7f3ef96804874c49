"""Trained policies as bots (``policy:FILE``): the file format, whole games everywhere bots go, greedy and sampled play,
the clear refusals, and the public SeatView codes API that never sees what the seat may not see."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("torch")  # the train extra
np = pytest.importorskip("numpy")

import torch

import greenlight
from greenlight.bots import make_bot
from greenlight.bots.policy import METADATA_FILE, PolicyBot, PolicyFileError, read_policy_info
from greenlight.cli.main import app
from greenlight.core.bot import Bot, RandomBot, SeatView
from greenlight.core.errors import IllegalActionError, OptionError
from greenlight.core.game import Game
from greenlight.core.match import Match
from greenlight.core.registry import get_game
from greenlight.rl.actions import agent_options
from greenlight.rl.common import ENV_VERSION
from greenlight.rl.encoding import check_state_writer
from greenlight.rl.observer import SeatObserver
from greenlight.rl.policy_file import load_policy, policy_sizes, save_policy
from greenlight.sim.arena import run_arena
from greenlight.sim.runner import GameTask, play_game
from tests.bots.linear_policy import Linear
from tests.rl.helpers import encoded_games

ROOT = Path(__file__).resolve().parents[2]
#: Every game at its smallest table.
GAMES = [(game.spec.id, game.spec.min_players) for game in encoded_games()]


class Fixed(torch.nn.Module):
    """Logits known in advance: ``scale * code`` for every code, whatever the observation."""

    def __init__(self, count: int, scale: float) -> None:
        super().__init__()
        self.logits = torch.nn.Parameter(torch.arange(count, dtype=torch.float32) * scale, requires_grad=False)

    def forward(self, observation: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.logits.unsqueeze(0).expand(observation.shape[0], -1)


def saved(folder: Path, game_id: str, players: int, module: Any, name: str) -> Path:
    path = folder / f"{name}-{game_id}-{players}.pt"
    save_policy(module, path, game=game_id, players=players, note=name)
    return path


@pytest.fixture(scope="module")
def linear_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A seeded random linear policy per game, saved."""
    folder = tmp_path_factory.mktemp("policies")
    files = {}
    for game_id, players in GAMES:
        torch.manual_seed(7)
        size, count = policy_sizes(get_game(game_id), players)
        files[game_id] = saved(folder, game_id, players, Linear(size, count), "linear")
    return files


def play(game: Game[Any], players: int, bots: list[Bot], seed: int) -> list[tuple[int, str]]:
    """Play a whole game, checking that every bot's move is among its seat's legal actions; the moves as (seat, text)."""
    match = Match.start(game, players, seed)
    moves = []
    while not (decision := match.decision()).is_terminal:
        seat = decision.players[0]
        action = bots[seat].choose(SeatView(game, match.state, seat))
        assert action in match.legal_actions(seat), f"{bots[seat].name} played {action}, not legal for seat {seat}"
        match.play(seat, action)
        moves.append((seat, str(action)))
    return moves


# -- the file ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_a_policy_file_says_what_it_was_trained_for(game_id: str, players: int, linear_files: dict[str, Path]) -> None:
    game = get_game(game_id)
    observer = SeatObserver(game, players, game.spec.resolve_options(players, None))
    info = read_policy_info(linear_files[game_id])
    assert (info.game, info.players, info.note) == (game_id, players, "linear")
    assert (info.observation_size, info.action_count) == (observer.size, observer.num_codes)  # the environments' shapes
    assert (info.greenlight_version, info.env_version) == (greenlight.__version__, ENV_VERSION)
    assert info.options == game.spec.resolve_options(players, None)
    loaded = load_policy(linear_files[game_id], game=game_id, players=players)
    assert loaded.info == info


def test_a_module_giving_the_wrong_shape_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    size, count = policy_sizes(get_game("cinecitta"), 3)
    with pytest.raises(ValueError, match=rf"must return logits of shape \[batch, {count}\] for cinecitta; it returned \[1, 5\]"):
        save_policy(Linear(size, 5), tmp_path / "wrong.pt", game="cinecitta", players=3)
    assert not (tmp_path / "wrong.pt").exists()


def test_a_module_torchscript_cannot_script_is_traced(tmp_path: Path) -> None:
    class Untyped(torch.nn.Module):
        def __init__(self, count: int) -> None:
            super().__init__()
            self.count = count

        def forward(self, observation: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            # A NumPy call: TorchScript cannot compile it; a trace records its value as a constant.
            return torch.zeros(observation.shape[0], self.count) + mask.float() * float(np.float32(2.0))

    size, count = policy_sizes(get_game("cinecitta"), 3)
    with pytest.raises(Exception):  # noqa: B017 - the premise: scripting refuses this module
        torch.jit.script(Untyped(count))
    save_policy(Untyped(count), tmp_path / "traced.pt", game="cinecitta", players=3)
    assert load_policy(tmp_path / "traced.pt").scores([0.0] * size, [4, 9]) == [2.0, 2.0]


# -- whole games everywhere bots go -----------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_a_policy_plays_whole_games_in_the_arena_and_a_seed_repeats_them(game_id: str, players: int, linear_files: dict[str, Path]) -> None:
    name = f"policy:{linear_files[game_id]}"
    first = run_arena(game_id, players, [name, "medium"], games=2, seed=3)
    again = run_arena(game_id, players, [name, "medium"], games=2, seed=3)
    assert first.games == 2 and [summary.bot for summary in first.summaries] == [name, "medium"]
    assert [(row.scores, row.length, row.bots) for row in first.rows] == [(row.scores, row.length, row.bots) for row in again.rows]


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_a_policy_never_plays_an_illegal_move(game_id: str, players: int, linear_files: dict[str, Path]) -> None:
    game = get_game(game_id)
    for mode in ("", "/sample"):
        bots: list[Bot] = [make_bot(f"policy:{linear_files[game_id]}{mode}", game, seed=seat) for seat in range(players - 1)]
        moves = play(game, players, [*bots, RandomBot(9)], seed=11)
        assert any(seat == 0 for seat, _ in moves)


def test_a_policy_plays_in_the_simulators_game_runner(linear_files: dict[str, Path]) -> None:
    task = GameTask("maybe-movies", 3, seed=5, bots=(f"policy:{linear_files['maybe-movies']}", "random", "medium"), bot_seeds=(1, 2, 3))
    first, again = play_game(task), play_game(task)
    assert first.length > 0 and first.timing[0].moves > 0
    assert (first.scores, first.length) == (again.scores, again.length)


def test_sampling_repeats_with_the_seed_and_differs_with_another(tmp_path: Path) -> None:
    game = get_game("cinecitta")
    uniform = saved(tmp_path, "cinecitta", 3, Fixed(policy_sizes(game, 3)[1], 0.0), "uniform")

    def moves(seed: int) -> list[tuple[int, str]]:
        return play(game, 3, [make_bot(f"policy:{uniform}/sample", game, seed=seed), RandomBot(1), RandomBot(2)], seed=4)

    assert moves(1) == moves(1)
    assert moves(1) != moves(2)
    greedy = [make_bot(f"policy:{uniform}", game, seed=seed) for seed in (1, 2)]
    assert play(game, 3, [greedy[0], RandomBot(1), RandomBot(2)], seed=4) == play(game, 3, [greedy[1], RandomBot(1), RandomBot(2)], seed=4)


# -- greedy: the highest legal logit ------------------------------------------------------------------


@pytest.mark.parametrize("scale", [1.0, -1.0])
def test_greedy_plays_the_highest_legal_logit_and_never_an_illegal_one(tmp_path: Path, scale: float) -> None:
    """Logits rise (or fall) with the code: greedy must play the highest (lowest) legal code; with rising logits the
    highest of all (the last code) is illegal at every step checked, so the illegal logits are ignored."""
    game = get_game("cinecitta")
    count = policy_sizes(game, 3)[1]
    bot = make_bot(f"policy:{saved(tmp_path, 'cinecitta', 3, Fixed(count, scale), 'fixed')}", game, seed=0)
    match = Match.start(game, 3, 8)
    rng = random.Random(8)
    checked = 0
    while not (decision := match.decision()).is_terminal:
        seat = decision.players[0]
        codes = SeatView(game, match.state, seat).legal_action_codes()
        best = max(codes) if scale > 0 else min(codes)
        if len(codes) > 1:
            assert scale < 0 or count - 1 not in codes
            assert bot.choose(SeatView(game, match.state, seat)) == SeatView(game, match.state, seat).action_for_code(best)
            checked += 1
        match.play(seat, rng.choice(match.legal_actions(seat)))
    assert checked > 20


def test_pick_takes_the_first_best_score_and_samples_only_finite_ones() -> None:
    class Unused:
        def scores(self, observation: Any, legal_codes: Any) -> list[float]:
            raise AssertionError("not asked")

    greedy, sampler = PolicyBot(Unused()), PolicyBot(Unused(), seed=3, sample=True)
    assert greedy.pick([1.0, 3.0, 3.0, float("-inf")]) == 1
    assert {sampler.pick([float("-inf"), 0.0, float("-inf")]) for _ in range(50)} == {1}
    assert {sampler.pick([0.0, 0.0]) for _ in range(50)} == {0, 1}
    with pytest.raises(ValueError, match="NaN scores"):
        greedy.pick([0.0, float("nan")])


# -- refusals ---------------------------------------------------------------------------------------------


def test_a_policy_for_another_game_or_player_count_is_refused_naming_the_file(linear_files: dict[str, Path]) -> None:
    path = linear_files["cinecitta"]
    with pytest.raises(PolicyFileError, match=f"^policy file {path} was trained for cinecitta, not maybe-movies$"):
        make_bot(f"policy:{path}", get_game("maybe-movies"), seed=1)
    with pytest.raises(PolicyFileError, match=f"^policy file {path} was trained for 3 players, not 4$"):
        load_policy(path, game="cinecitta", players=4)
    bot = make_bot(f"policy:{path}", get_game("cinecitta"), seed=1)
    with pytest.raises(PolicyFileError, match=f"^policy file {path} was trained for 3 players, not 4$"):
        play(get_game("cinecitta"), 4, [bot, *(RandomBot(seat) for seat in range(3))], seed=1)


def test_a_missing_or_foreign_file_is_refused_clearly(tmp_path: Path) -> None:
    game = get_game("cinecitta")
    missing = tmp_path / "nothing.pt"
    with pytest.raises(PolicyFileError, match=f"^policy file {missing} does not exist$"):
        make_bot(f"policy:{missing}", game, seed=1)
    text = tmp_path / "notes.txt"
    text.write_text("not a policy")
    with pytest.raises(PolicyFileError, match=rf"^{text} is not a Greenlight policy file \(not a TorchScript archive"):
        make_bot(f"policy:{text}", game, seed=1)
    plain = tmp_path / "plain.pt"  # a TorchScript file saved without Greenlight's metadata
    torch.jit.save(torch.jit.script(Fixed(3, 1.0)), str(plain))
    with pytest.raises(PolicyFileError, match=rf"^{plain} is not a Greenlight policy file \(it has no greenlight.json"):
        load_policy(plain)
    other = tmp_path / "other.pt"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr(f"other/extra/{METADATA_FILE}", json.dumps({"format": "something-else"}))
    with pytest.raises(PolicyFileError, match=r"has no format 'greenlight-policy'"):
        load_policy(other)
    with pytest.raises(OptionError, match="unknown option 'fast=1'; the options are greedy, sample"):
        make_bot(f"policy:{text}/sample/fast=1", game, seed=1)


def test_without_torch_the_error_names_the_train_extra(
    linear_files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one monkeypatch here: torch is installed in the test environment, so its absence is simulated at import."""
    copy = tmp_path / "copy.pt"  # not yet loaded by any bot (loaded policies are kept)
    copy.write_bytes(linear_files["cinecitta"].read_bytes())
    monkeypatch.setitem(sys.modules, "torch", None)
    expected = r"^policy files need PyTorch, the 'train' extra \(pip install -e '\.\[train\]'\)$"
    with pytest.raises(PolicyFileError, match=expected):
        make_bot(f"policy:{copy}", get_game("cinecitta"), seed=1)
    with pytest.raises(PolicyFileError, match=expected):
        save_policy(Fixed(3, 1.0), tmp_path / "new.pt", game="cinecitta", players=3)
    assert read_policy_info(copy).game == "cinecitta"  # the metadata needs no torch (the lobby reads it)


def test_greenlight_imports_without_torch() -> None:
    code = "import sys, greenlight.bots, greenlight.rl.policy_file, greenlight.web.app, greenlight.cli.main; print('torch' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert result.stdout.strip() == "False"


# -- a policy written in Python -------------------------------------------------------------------------


class LowestCode:
    """A policy object: prefers the lowest legal code."""

    def scores(self, observation: Any, legal_codes: Any) -> list[float]:
        return [-float(code) for code in legal_codes]


def lowest_code(game: Game[Any], seed: int) -> LowestCode:
    return LowestCode()


def seeded_random(game: Game[Any], seed: int) -> Bot:
    return RandomBot(seed)


def nothing(game: Game[Any], seed: int) -> int:
    return 3


def test_a_python_factory_gives_a_policy_or_a_bot() -> None:
    game = get_game("cinecitta")
    here = "tests.bots.test_policy_bot"
    bot = make_bot(f"policy:{here}:lowest_code", game, seed=1)
    assert isinstance(bot, PolicyBot) and bot.name == f"policy:{here}:lowest_code"
    state = game.new_state(3, seed=2)
    view = SeatView(game, state, 0)
    assert bot.choose(view) == SeatView(game, state, 0).action_for_code(min(view.legal_action_codes()))
    other = make_bot(f"policy:{here}:seeded_random", game, seed=1)
    assert isinstance(other, RandomBot) and other.name == f"policy:{here}:seeded_random"
    play(game, 3, [other, make_bot(f"policy:{here}:lowest_code", game, 2), RandomBot(3)], seed=1)
    with pytest.raises(OptionError, match="returned int, neither a Bot nor a policy"):
        make_bot(f"policy:{here}:nothing", game, seed=1)
    with pytest.raises(OptionError, match="cannot load bot"):
        make_bot(f"policy:{here}:no_such_factory", game, seed=1)


# -- the SeatView codes API -----------------------------------------------------------------------------


def states(game: Game[Any], players: int, seed: int) -> Iterator[Any]:
    """Every state of a seeded random game (one object, changed between yields)."""
    rng = random.Random(seed)
    state = game.new_state(players, seed)
    while (decision := game.decision(state)).players:
        yield state
        seat = rng.choice(decision.players)
        game.apply_unchecked(state, seat, rng.choice(game.legal_actions(state, seat)))


def view_writer(game: Game[Any]) -> Any:
    def write(state: Any, seat: int, out: Any) -> None:
        vector = SeatView(game, state, seat).observation_vector()
        assert not any(vector[len(out) :])  # nothing picked yet: the picked-cards block (if any) is empty
        out[:] = vector[: len(out)]

    return write


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_the_view_vector_is_the_reference_encoding_and_unchanged_when_hidden_parts_are_redrawn(game_id: str, players: int) -> None:
    """The fast-path check of greenlight.rl.encoding, run on the view's vector: equal to ``encode(observe(state, seat))``
    at every step for every seat, and the same again after ``determinize`` redrew what the seat cannot see."""
    game = get_game(game_id)
    compared = check_state_writer(game, states(game, players, 21), resamples=2, seed=1, writer=view_writer(game))
    assert compared > 50


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_the_view_codes_are_the_environments_mask_and_unchanged_when_hidden_parts_are_redrawn(game_id: str, players: int) -> None:
    game = get_game(game_id)
    observer = SeatObserver(game, players, game.spec.resolve_options(players, None))
    rng = random.Random(5)
    hidden_differed = checked = 0
    for state in states(game, players, 31):
        observer.changed()
        for seat in game.decision(state).players:
            codes = SeatView(game, state, seat).legal_action_codes()
            assert len(set(codes)) == len(codes) and sorted(codes) == list(np.flatnonzero(observer.mask(state, seat)))
            world = game.determinize(state, seat, rng)
            assert SeatView(game, world, seat).legal_action_codes() == codes
            assert np.array_equal(SeatView(game, world, seat).observation_vector(), SeatView(game, state, seat).observation_vector())
            others = [other for other in range(players) if other != seat]
            hidden_differed += any(game.observe(world, other) != game.observe(state, other) for other in others)
            checked += 1
    assert checked > 50
    assert hidden_differed > 0  # the redrawn worlds did differ in what other seats see: the check is not vacuous


def test_card_by_card_choices_through_the_view_match_the_environment() -> None:
    """Movie Empire's Keep and Give take a code per card: the view remembers the picks and shows them in its vector,
    exactly as the environments' observer does, and the last pick gives the same complete action. (Random play reaches
    a choice of several cards about once a game at four players.)"""
    game = get_game("movie-empire")
    observer = SeatObserver(game, 4, game.spec.resolve_options(4, None))
    picks = 0
    for seed in range(4):
        match = Match.start(game, 4, seed)
        rng = random.Random(seed)
        while not (decision := match.decision()).is_terminal:
            seat = decision.players[0]
            view = SeatView(game, match.state, seat)
            observer.changed()
            while True:
                codes = view.legal_action_codes()
                assert sorted(codes) == list(np.flatnonzero(observer.mask(match.state, seat)))
                assert np.array_equal(np.asarray(view.observation_vector()), observer.observation(match.state, seat))
                code = rng.choice(codes)
                action, expected = view.action_for_code(code), observer.action(match.state, seat, code)
                assert action == expected
                if action is not None:
                    break
                picks += 1
                observer.changed()
            match.play(seat, action)
    assert picks >= 3


def test_an_illegal_code_is_refused_by_the_view() -> None:
    game = get_game("cinecitta")
    view = SeatView(game, game.new_state(3, seed=1), 0)
    illegal = next(code for code in range(view.num_action_codes) if code not in view.legal_action_codes())
    with pytest.raises(IllegalActionError, match=f"action code {illegal} is not legal for seat 0 now"):
        view.action_for_code(illegal)
    codes, _, actions = agent_options(game, game.new_state(3, seed=1), 0)
    assert view.legal_action_codes() == codes and view.action_for_code(codes[-1]) == actions[-1]


# -- the command line ----------------------------------------------------------------------------------


def test_the_arena_command_plays_a_policy_against_medium(linear_files: dict[str, Path]) -> None:
    name = f"policy:{linear_files['cinecitta']}"
    args = ["arena", "cinecitta", "-n", "3", "--bot", name, "--bot", "medium", "--games", "3", "--seed", "4", "-w", "1"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 3 and data["lineup"] == [name, "medium", "medium"]
    assert [bot["bot"] for bot in data["bots"]] == [name, "medium"]
    table = CliRunner().invoke(app, args)
    assert table.exit_code == 0, table.output
    assert "win share" in table.output and "3 games in" in table.output


def test_the_commands_refuse_a_policy_clearly(linear_files: dict[str, Path], tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(app, ["arena", "cinecitta", "-n", "3", "--bot", f"policy:{tmp_path}/none.pt", "--games", "1", "-w", "1"])
    assert missing.exit_code == 2
    assert f"policy file {tmp_path}/none.pt does not exist" in " ".join(missing.output.split())
    path = linear_files["cinecitta"]
    players = runner.invoke(app, ["arena", "cinecitta", "-n", "4", "--bot", f"policy:{path}", "--games", "1", "-w", "1"])
    assert players.exit_code == 2
    assert f"policy file {path} was trained for 3 players, not 4" in " ".join(players.output.split())


def test_simulate_and_play_take_a_policy(linear_files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GREENLIGHT_HOME", str(tmp_path / "home"))  # where play saves its games
    runner = CliRunner()
    name = f"policy:{linear_files['maybe-movies']}"
    args = ["simulate", "maybe-movies", "-n", "3", "-b", name, "-b", "random", "-g", "2", "--chunk-size", "2", "-w", "1"]
    study = runner.invoke(app, [*args, "--seed", "1", "--out", str(tmp_path / "study"), "--no-report", "--json"])
    assert study.exit_code == 0, study.output
    summary = json.loads(study.stdout)
    assert summary["games"] == 2 and summary["study"]["lineup"] == [name, "random", "random"]
    seats = ["--seat", f"bot:{name}", "--seat", "bot:medium"]
    played = runner.invoke(app, ["play", "maybe-movies", "-n", "3", *seats, "--seed", "6", "--json"])
    assert played.exit_code == 0, played.output
    assert json.loads(played.stdout)["seats"] == [f"bot:{name}", "bot:medium", "bot:medium"]


def test_the_seat_view_example_in_docs_rl_md_runs() -> None:
    import doctest

    section = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8").split("## Trained policies as bots", 1)[1]
    example = section.split("```python\n>>>", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(">>>" + example, {}, "docs/rl.md", "docs/rl.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False) == doctest.TestResults(failed=0, attempted=7)
