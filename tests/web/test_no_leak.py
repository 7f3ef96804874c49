"""No response to seat A or to a spectator ever holds seat B's hidden cards or uncommitted choices.

Every byte the server sends to seat 0 and to a spectator during a whole game
(WebSocket pushes, acknowledgements, HTTP views and action answers) is checked
against a local copy of the game: the game part of each view must be exactly
what ``observe``/``legal_actions``/``events_for`` give that seat at that move,
and no card that is hidden from the seat at that move may appear in it.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
import pytest

from greenlight.core.events import events_for
from greenlight.core.match import Match
from greenlight.core.registry import all_games, get_game
from greenlight.core.state import GameState
from greenlight.games.cinecitta.cards import load_cards
from tests.web.conftest import Server, Socket, bearer, create_table

#: Every test here runs against a server on SQLite and on PostgreSQL (the same API on both storage backends).
BACKENDS = ("sqlite", "postgresql")

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "human", "name": "Cy"}]
GAME = get_game("cinecitta")
CARD_IDS = {card.id for card in load_cards().cards}


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", text))


def views_in(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The views a message carries: a pushed view, or the view inside an HTTP action answer."""
    if message.get("type") == "view":
        return [message]
    if isinstance(message.get("view"), dict):
        return [message["view"]]
    return []


def test_no_message_to_a_seat_or_a_spectator_holds_hidden_information(server: Server, api: httpx.Client) -> None:
    answer = create_table(api, "cinecitta", HUMANS, seed=51, options={"movie_awards": True})
    table_id = answer["table"]["id"]
    tokens = [seat["token"] for seat in answer["seats"]]
    ann, watcher = Socket(server, table_id, tokens[0]), Socket(server, table_id, None)
    local = Match.start(GAME, 3, 51, {"movie_awards": True})
    states: list[GameState] = [local.state.clone()]
    events_seen = [0]
    http_to_ann: list[str] = []
    rng = random.Random(51)
    try:
        while not local.is_over():
            for seat in local.decision().players:
                action = str(rng.choice(local.legal_actions(seat)))
                if seat == 0:
                    ann.send({"type": "act", "action": action, "id": len(states)})
                    assert ann.next("ack", id=len(states))["action"] == action
                else:
                    response = api.post(f"/api/tables/{table_id}/actions", json={"action": action}, headers=bearer(tokens[seat]))
                    assert response.status_code == 200, response.text
                local.play(seat, action)
                states.append(local.state.clone())
                events_seen.append(len(local.events))
                if len(states) % 4 == 0:
                    http_to_ann.append(api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[0])).text)
        final = len(states) - 1
        ann.view_at(final)
        watcher.view_at(final)
        http_to_ann.append(api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[0])).text)
    finally:
        ann.close()
        watcher.close()

    checked_views = 0
    audiences: list[tuple[int | None, list[str]]] = [(0, ann.raw + http_to_ann), (None, watcher.raw)]
    for viewer, texts in audiences:
        for text in texts:
            message = json.loads(text)
            if message.get("type") == "presence":
                assert not words(text) & CARD_IDS, text  # presence is about seats only
            for view in views_in(message):
                version = view["version"]
                state = states[version]
                hidden = GAME.secrets(state, viewer)
                assert hidden, "every move of this game hides some card from every seat"
                assert not words(text) & hidden, f"seat {viewer} received hidden cards {words(text) & hidden} at move {version}"
                assert view["seat"] == viewer
                assert view["observation"] == GAME.observe(state, viewer)
                assert view["legal_actions"] == ([] if viewer is None else [str(a) for a in GAME.legal_actions(state, viewer)])
                names = [seat["name"] for seat in view["table"]["seats"]]
                seen = events_for(local.events[: events_seen[version]], viewer)
                expected_log = [GAME.describe_event(e, state, names) for e in seen]
                assert view["log"] == [text for text in expected_log if text]
                assert view["decision"] == GAME.decision(state).to_json()
                checked_views += 1
    # Ann and the spectator each got a view after every one of the 72 moves (and a first one).
    assert checked_views >= 2 * (3 * 3 * 8 + 1)


def world_socket(world: tuple[str, list[str], Socket, Socket], index: int) -> Socket:
    return world[2] if index == 2 else world[3]


def game_part(view: dict[str, Any]) -> dict[str, Any]:
    return {key: view[key] for key in ("version", "observation", "legal_actions", "decision", "log", "outcome")}


def test_another_seats_uncommitted_choice_never_changes_what_a_seat_or_spectator_receives(server: Server, api: httpx.Client) -> None:
    """Two tables with the same seed: seat 1 commits different offers, then different responses.

    Until the step resolves (and, for seat 1's folder, which goes to seat 2,
    even after), seat 0 and the spectator must receive exactly the same views
    in both worlds.
    """
    worlds: list[tuple[str, list[str], Socket, Socket]] = []
    for _ in range(2):
        answer = create_table(api, "cinecitta", HUMANS, seed=52)
        table_id = answer["table"]["id"]
        tokens = [seat["token"] for seat in answer["seats"]]
        worlds.append((table_id, tokens, Socket(server, table_id, tokens[0]), Socket(server, table_id, None)))
    try:

        def act(world: int, seat: int, action: str) -> None:
            table_id, tokens, _, _ = worlds[world]
            response = api.post(f"/api/tables/{table_id}/actions", json={"action": action}, headers=bearer(tokens[seat]))
            assert response.status_code == 200, response.text

        def assert_same_for_seat_0_and_spectator(version: int) -> None:
            for socket in (2, 3):  # seat 0, then the spectator
                first, second = (game_part(world_socket(world, socket).view_at(version)) for world in worlds)
                assert first == second

        offers = api.get(f"/api/tables/{worlds[0][0]}/view", headers=bearer(worlds[0][1][1])).json()["legal_actions"]
        assert offers[0].split()[1:] != offers[-1].split()[1:]  # a different card and a different amount
        act(0, 1, offers[0])
        act(1, 1, offers[-1])
        assert_same_for_seat_0_and_spectator(1)

        def first_card(world: int, seat: int) -> str:
            view = api.get(f"/api/tables/{worlds[world][0]}/view", headers=bearer(worlds[world][1][seat])).json()
            return str(view["observation"]["hand"][0])

        for world in range(2):
            act(world, 2, f"offer {first_card(world, 2)} 0")
        assert_same_for_seat_0_and_spectator(2)
        for world in range(2):
            act(world, 0, f"offer {first_card(world, 0)} 0")
        # Offers resolved: seat 1's folder went to seat 2, so seat 0 still cannot tell the worlds apart.
        assert_same_for_seat_0_and_spectator(3)
        act(0, 1, "respond secure")
        act(1, 1, "respond headhunt")
        assert_same_for_seat_0_and_spectator(4)
    finally:
        for _, _, ann, watcher in worlds:
            ann.close()
            watcher.close()


@pytest.mark.parametrize("game_id", list(all_games()))
def test_every_game_sends_each_seat_exactly_its_own_view(api: httpx.Client, game_id: str) -> None:
    """For every registered game: after each of up to 120 moves, seat 0's and the spectator's views are exactly
    what the engine gives them (observation, legal actions, filtered log), and hold none of their secrets."""
    game = all_games()[game_id]
    n = game.spec.min_players
    answer = create_table(api, game_id, [{"kind": "human"}] * n, seed=53)
    table_id = answer["table"]["id"]
    tokens = [seat["token"] for seat in answer["seats"]]
    local = Match.start(game, n, 53)
    rng = random.Random(53)
    for _ in range(120):
        for viewer in (0, None):
            headers = bearer(tokens[0]) if viewer == 0 else {}
            view = api.get(f"/api/tables/{table_id}/view", headers=headers).json()
            assert view["version"] == len(local.record.actions)
            assert view["observation"] == local.observe(viewer)
            assert view["legal_actions"] == ([] if viewer is None else [str(a) for a in local.legal_actions(viewer)])
            assert view["log"] == local.log(viewer, [seat["name"] for seat in view["table"]["seats"]])
            assert view["decision"] == local.decision().to_json()
            assert not words(json.dumps(view["observation"])) & game.secrets(local.state, viewer)
        if local.is_over():
            break
        seat = local.decision().players[0]
        action = str(rng.choice(local.legal_actions(seat)))
        response = api.post(f"/api/tables/{table_id}/actions", json={"action": action}, headers=bearer(tokens[seat]))
        assert response.status_code == 200, response.text
        local.play(seat, action)
