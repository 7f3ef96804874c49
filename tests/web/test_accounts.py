"""Accounts, sessions, claimed seats, ratings, quick play and profiles against the real server (SQLite and PostgreSQL)."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from tests.web.conftest import NO_RATE_LIMITS, Server, bearer, create_table, new_database, wait_until

BACKENDS = ("sqlite", "postgresql")
PASSWORD = "correct horse battery"


def person(server: Server, address: str) -> httpx.Client:
    """A browser of its own (cookies) from a loopback address of its own."""
    return httpx.Client(
        base_url=server.url, timeout=30, transport=httpx.HTTPTransport(local_address=address), headers={"Origin": server.url}
    )


def sign_up(client: httpx.Client, name: str, email: str | None = None) -> dict[str, Any]:
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD, "email": email})
    assert answer.status_code == 201, answer.text
    me: dict[str, Any] = answer.json()
    client.headers["X-CSRF-Token"] = me["csrf"]
    return me


def sign_in(client: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    answer = client.post("/api/accounts/session", json={"name": name, "password": password})
    if answer.status_code == 200:
        client.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return answer


def token_of(link: str) -> str:
    """The seat token of a seat link (its fragment may also hold the creator's host key: ``#token=...&host=...``)."""
    return parse_qs(link.split("#", 1)[1])["token"][0]


def play_to_the_end(server: Server, table_id: str, tokens: dict[int, str], seed: int = 3) -> None:
    """Random legal moves for the seats whose tokens are given until the game is over (bots play the others)."""
    rng = random.Random(seed)
    with server.client() as api:
        for _ in range(2000):
            if api.get(f"/api/tables/{table_id}").json()["status"] == "finished":
                return
            moved = False
            for _seat, token in tokens.items():
                view = api.get(f"/api/tables/{table_id}/view", headers=bearer(token)).json()
                if view["legal_actions"]:
                    api.post(f"/api/tables/{table_id}/actions", json={"action": rng.choice(view["legal_actions"])}, headers=bearer(token))
                    moved = True
            if not moved:
                time.sleep(0.02)
    raise AssertionError("the game did not end")


def quick(client: httpx.Client, **wish: Any) -> dict[str, Any]:
    answer = client.post("/api/quickplay", json={"game": "cinecitta", "players": 3, **wish})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def seated(client: httpx.Client, gathering: dict[str, Any]) -> dict[str, Any]:
    """Ask about a gathering (as its member) until the table is formed; the answer with the member's seat link."""
    found: dict[str, Any] = wait_until(
        lambda: (g := client.get(f"/api/gatherings/{gathering['id']}", headers={"X-Seeker": gathering["key"]}).json()).get("link") and g,
        timeout=30,
        what="the table to form",
    )
    return found


# -- accounts and sessions ----------------------------------------------------------------------


def test_an_account_signs_in_on_another_device_and_its_claimed_seats_follow(server: Server) -> None:
    with person(server, "127.0.3.1") as laptop, person(server, "127.0.3.1") as phone:
        created = create_table(laptop, "cinecitta", [{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "human"}])
        ann_link = created["seats"][0]["link"]
        me = sign_up(laptop, "Ann Lee", email="ann@example.org")
        assert me["name"] == "Ann Lee" and laptop.get("/api/accounts/me").json()["email"] == "ann@example.org"
        claimed = laptop.post(
            "/api/accounts/me/seats", json={"links": [ann_link, f"{server.url}/tables/{created['table']['id']}#token=wrong"]}
        )
        assert [item["claimed"] for item in claimed.json()["claimed"]] == [True, False]
        assert phone.get("/api/accounts/me").json() == {"signed_in": False}
        assert sign_in(phone, "ann lee").status_code == 200  # names are matched as they look, whatever the case
        seats = phone.get("/api/accounts/me/seats").json()["seats"]
        assert [(seat["table"], seat["seat"], seat["link"]) for seat in seats] == [(created["table"]["id"], 0, ann_link)]
        # The link from the other device is the seat's own: it plays.
        view = phone.get(f"/api/tables/{created['table']['id']}/view", headers=bearer(token_of(seats[0]["link"]))).json()
        assert view["seat"] == 0 and view["legal_actions"]
        # Another account cannot take the seat over.
        with person(server, "127.0.3.2") as other:
            sign_up(other, "Bob Ray")
            taken = other.post("/api/accounts/me/seats", json={"links": [ann_link]}).json()["claimed"][0]
            assert not taken["claimed"] and "another account holds this seat" in taken["reason"]
        # Signing out on every device ends the phone's session too.
        assert laptop.delete("/api/accounts/session", params={"everywhere": "true"}).status_code == 200
        assert phone.get("/api/accounts/me").json() == {"signed_in": False}


def test_a_change_without_the_pages_csrf_token_is_refused(server: Server) -> None:
    with person(server, "127.0.3.3") as browser:
        sign_up(browser, "Cy Dale")
        token = browser.headers.pop("X-CSRF-Token")
        for method, path, body in (
            ("POST", "/api/accounts/me/seats", {"links": []}),
            ("POST", "/api/accounts/me/password", {"password": PASSWORD, "new_password": "another one"}),
            ("DELETE", "/api/accounts/me", {"password": PASSWORD}),
        ):
            refused = browser.request(method, path, json=body)
            assert refused.status_code == 403 and "CSRF" in refused.json()["detail"], path
            wrong = browser.request(method, path, json=body, headers={"X-CSRF-Token": token[:-2] + "xx"})
            assert wrong.status_code == 403, path
        assert browser.get("/api/accounts/me").json()["signed_in"] is True  # nothing was deleted
        # Another site's page cannot sign anyone up or in (the browser names the page's origin).
        elsewhere = browser.post(
            "/api/accounts/session", json={"name": "Cy Dale", "password": PASSWORD}, headers={"Origin": "https://evil.example"}
        )
        assert elsewhere.status_code == 403


def test_sign_in_says_the_same_for_a_missing_name_and_a_wrong_password_and_is_limited(server: Server) -> None:
    with person(server, "127.0.3.4") as owner:
        sign_up(owner, "Dee Fox")
    with person(server, "127.0.3.5") as guesser:
        missing = sign_in(guesser, "Nobody Here", "some password")
        wrong = sign_in(guesser, "Dee Fox", "some password")
        assert (missing.status_code, missing.json()) == (wrong.status_code, wrong.json()) == (401, {"detail": "wrong name or password"})
        statuses = [sign_in(guesser, "Dee Fox", f"guess {n}").status_code for n in range(12)]
        assert statuses.count(429) >= 1, statuses
        limited = sign_in(guesser, "Dee Fox")
        assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1  # even the right password must wait


def test_the_session_cookie_is_http_only_and_same_site_and_no_answer_or_log_holds_a_password(server: Server) -> None:
    with person(server, "127.0.3.6") as browser:
        answer = browser.post("/api/accounts", json={"name": "Eve Gray", "password": PASSWORD})
        cookie = answer.headers["set-cookie"]
        assert "greenlight_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
        assert "Secure" not in cookie  # served over plain HTTP here (HTTPS public addresses get Secure: see the next test)
        browser.headers["X-CSRF-Token"] = answer.json()["csrf"]
        texts = [answer.text, browser.get("/api/accounts/me").text, browser.get("/api/players/Eve Gray").text]
        assert all(PASSWORD not in text and "argon2" not in text for text in texts)
    assert PASSWORD not in server.log.read_text()
    assert PASSWORD not in server.dump()  # the database holds only an Argon2 hash
    assert "$argon2id$" in server.dump()


def test_a_session_cookie_is_secure_when_the_server_is_reached_over_https(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db", extra=["--public-url", "https://games.example"])
    server.start()
    try:
        answer = httpx.post(f"{server.url}/api/accounts", json={"name": "Fay Hale", "password": PASSWORD}, timeout=30)
        assert answer.status_code == 201 and "Secure" in answer.headers["set-cookie"]
    finally:
        server.stop()


def test_names_are_refused_when_reserved_empty_or_alike(server: Server) -> None:
    with person(server, "127.0.3.7") as browser:
        sign_up(browser, "Gus Ivy")
        for name, words in (
            ("gus ivy", "taken"),
            ("Gus \u0399vy", "taken"),
            ("Player 2", "kept for the server"),
            ("B\u043et 9", "Bot"),
            ("x", "at least 2"),
        ):
            refused = browser.post("/api/accounts", json={"name": name, "password": PASSWORD})
            assert refused.status_code in (400, 409) and words in refused.json()["detail"], name
        short = browser.post("/api/accounts", json={"name": "Hal Jones", "password": "short"})
        assert short.status_code == 400 and "8 characters" in short.json()["detail"]


# -- rated games, quick play, profiles -------------------------------------------------------------


def test_a_rated_game_of_three_accounts_moves_their_ratings_the_way_it_ended(server: Server) -> None:
    people = [person(server, f"127.0.4.{n}") for n in range(1, 4)]
    try:
        for number, client in enumerate(people):
            sign_up(client, f"Rated {'ABC'[number]}")
        asks = [quick(client, rated=True) for client in people]
        assert len({ask["id"] for ask in asks}) == 1  # the three separate askers share one table
        links = {}
        for client, ask in zip(people, asks, strict=True):
            found = seated(client, ask)
            links[found["seat"]] = found["link"]
        table_id = links[0].split("/tables/")[1].split("#")[0]
        assert people[0].get(f"/api/accounts/tables/{table_id}").json()["rated"] is True
        play_to_the_end(server, table_id, {seat: token_of(link) for seat, link in links.items()})
        outcome = people[0].get(f"/api/tables/{table_id}/view").json()["outcome"]
        board = wait_until(
            lambda: (b := people[0].get("/api/leaderboard/cinecitta").json()["players"]) and len(b) == 3 and b, what="ratings"
        )
        rating = {row["name"]: row for row in board}
        holders = people[0].get(f"/api/accounts/tables/{table_id}").json()["seats"]
        by_seat = {int(seat): rating[item["account"]] for seat, item in holders.items()}
        best = min(outcome["ranks"])
        for seat, row in by_seat.items():
            assert row["games"] == 1 and row["provisional"] is True
            if outcome["ranks"][seat] == best:
                assert row["mu"] > 25  # a winner's estimate rises
            if outcome["ranks"][seat] == max(outcome["ranks"]) and max(outcome["ranks"]) != best:
                assert row["mu"] < 25  # the last one's falls
        profile = people[0].get(f"/api/players/{holders['0']['account']}").json()
        assert profile["played"] == 1 and profile["ratings"][0]["game"] == "cinecitta" and profile["history"][0]["table"] == table_id
        assert profile["games"][0]["replay"] == f"/tables/{table_id}/replay"
    finally:
        for client in people:
            client.close()


def test_rated_tables_take_signed_in_players_from_different_addresses_only(server: Server) -> None:
    with person(server, "127.0.5.1") as first, person(server, "127.0.5.1") as same_address, person(server, "127.0.5.2") as guest:
        sign_up(first, "Ida Kent")
        sign_up(same_address, "Jo Lund")
        opened = first.post("/api/gatherings", json={"game": "movie-empire", "players": 2, "rated": True})
        assert opened.status_code == 201 and opened.json()["quick"] is False
        gathering_id = opened.json()["id"]
        listed = guest.get("/api/gatherings").json()["gatherings"]
        assert any(item["id"] == gathering_id and item["rated"] for item in listed)
        anonymous = guest.post(f"/api/gatherings/{gathering_id}/join", json={"name": "Kim"})
        assert anonymous.status_code == 409 and "signed-in players" in anonymous.json()["detail"]
        twin = same_address.post(f"/api/gatherings/{gathering_id}/join", json={})
        assert twin.status_code == 409 and "from your address" in twin.json()["detail"]
        bots = first.post(f"/api/gatherings/{gathering_id}/bots", headers={"X-Seeker": opened.json()["key"]})
        assert bots.status_code == 409 and "people only" in bots.json()["detail"]
        # A rating compares players at the rules as printed: a changed rule parameter is for unrated tables only.
        changed = {"game": "movie-empire", "players": 2, "options": {"rounds": 8, "starting_money": 12}}
        refused = first.post("/api/gatherings", json={**changed, "rated": True})
        assert refused.status_code == 400
        printed = "a rated table plays the rules as printed; only an unrated table may change: rounds, starting money"
        assert refused.json()["detail"] == printed
        variant = first.post("/api/gatherings", json={**changed, "options": {"shoot_a_short": True}, "rated": True})
        assert variant.status_code == 201 and variant.json()["options"]["shoot_a_short"] is True
        assert first.post("/api/gatherings", json={**changed, "rated": False}).status_code == 201


def test_quick_play_seats_three_people_who_asked_separately_and_offers_bots_after_a_wait(server: Server) -> None:
    with person(server, "127.0.6.1") as ann, person(server, "127.0.6.2") as bob, person(server, "127.0.6.3") as cy:
        asks = [quick(client, name=name) for client, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy"))]
        assert len({ask["id"] for ask in asks}) == 1 and asks[-1]["rated"] is False
        found = [seated(client, ask) for client, ask in zip((ann, bob, cy), asks, strict=True)]
        assert sorted(item["seat"] for item in found) == [0, 1, 2] and len({item["table"] for item in found}) == 1
        info = ann.get(f"/api/tables/{found[0]['table']}").json()
        assert sorted(seat["name"] for seat in info["seats"]) == ["Ann", "Bob", "Cy"]
        # One person alone: after the wait they chose, the table starts with bots in the empty seats.
        alone = quick(ann, name="Ann", players=4)
        started = ann.post(f"/api/gatherings/{alone['id']}/bots", headers={"X-Seeker": alone["key"]}).json()
        table = ann.get(f"/api/tables/{started['table']}").json()
        assert [seat["kind"] for seat in table["seats"]].count("bot") == 3 and started["link"]


def test_deleting_an_account_makes_its_seats_anonymous_and_keeps_everything_else(server: Server) -> None:
    with person(server, "127.0.7.1") as browser:
        sign_up(browser, "Lee Moss")
        created = create_table(
            browser,
            "cinecitta",
            [{"kind": "human", "name": "Lee Moss"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
        )
        table_id = created["table"]["id"]
        browser.post("/api/accounts/me/seats", json={"links": [created["seats"][0]["link"]]})
        refused = browser.request("DELETE", "/api/accounts/me", json={"password": "not it at all"})
        assert refused.status_code == 403
        deleted = browser.request("DELETE", "/api/accounts/me", json={"password": PASSWORD})
        assert deleted.json() == {"deleted": True, "seats_made_anonymous": 1}
        assert browser.get("/api/accounts/me").json() == {"signed_in": False}
        assert browser.get("/api/players/Lee Moss").status_code == 404
        info = browser.get(f"/api/tables/{table_id}").json()
        assert info["seats"][0]["name"] == "Player 1" and info["status"] != "closed"
        view = browser.get(f"/api/tables/{table_id}/view", headers=bearer(created["seats"][0]["token"])).json()
        assert view["seat"] == 0  # the game and its link go on
        assert sign_up(browser, "Lee Moss")["name"] == "Lee Moss"  # the name is free again


def test_quick_play_across_two_processes_seats_three_people_once(postgres: Any, tmp_path: Path) -> None:
    """Three people asking through two server processes sharing PostgreSQL end at one table, each seated once."""
    database = new_database(postgres)
    servers = [Server(database, log=tmp_path / f"server-{n}.log") for n in range(2)]
    for running in servers:
        running.start()
    try:
        clients = [person(servers[n % 2], f"127.0.8.{n + 1}") for n in range(3)]
        asks: list[dict[str, Any]] = [{}] * 3

        def ask(number: int) -> None:
            asks[number] = quick(clients[number], name=f"Seeker {number}")

        threads = [threading.Thread(target=ask, args=(number,)) for number in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert len({item["id"] for item in asks}) == 1
        found = [seated(client, item) for client, item in zip(clients, asks, strict=True)]
        assert sorted(item["seat"] for item in found) == [0, 1, 2] and len({item["table"] for item in found}) == 1
        formed = servers[0].query("SELECT COUNT(*) FROM gatherings WHERE status = 'formed'")[0][0]
        tables = servers[0].query("SELECT COUNT(*) FROM tables")[0][0]
        assert (formed, tables) == (1, 1)
        for client in clients:
            client.close()
    finally:
        for running in servers:
            running.stop()


def test_a_forgotten_password_is_reset_through_a_link_e_mailed_once(tmp_path: Path) -> None:
    """A real SMTP server (aiosmtpd) gets the link; a missing name gets the same answer and no mail; the link works once,
    signs every other browser out, and the old password stops working."""
    pytest.importorskip("aiosmtpd")
    from tests.web.test_notify import Mailbox, text_of

    mailbox = Mailbox()
    mailbox.controller.start()
    server = Server(
        tmp_path / "tables.db",
        extra=[*NO_RATE_LIMITS, "--smtp", f"smtp://127.0.0.1:{mailbox.port}?tls=none", "--smtp-from", "Greenlight <games@example.org>"],
    )
    server.start()
    try:
        with person(server, "127.0.9.1") as laptop, person(server, "127.0.9.2") as phone, person(server, "127.0.9.3") as stranger:
            sign_up(laptop, "Olga Ruiz", email="olga@example.org")
            assert sign_in(phone, "Olga Ruiz").status_code == 200
            asked = stranger.post("/api/accounts/password-reset", json={"name": "olga ruiz"})
            missing = stranger.post("/api/accounts/password-reset", json={"name": "Nobody At All"})
            assert asked.status_code == missing.status_code == 202 and asked.json() == missing.json()
            mail = wait_until(lambda: mailbox.to("olga@example.org"), what="the password mail")[0]
            assert len(mailbox.messages) == 1 and "List-Unsubscribe" not in mail
            link = next(word for word in text_of(mail).split() if "#reset=" in word)
            token = link.split("#reset=", 1)[1]
            assert link.startswith(f"{server.url}/account#reset=")
            reset = stranger.post("/api/accounts/password-reset/confirm", json={"token": token, "new_password": "a brand new one"})
            assert reset.status_code == 200 and reset.json()["name"] == "Olga Ruiz"
            again = stranger.post("/api/accounts/password-reset/confirm", json={"token": token, "new_password": "yet another one"})
            assert again.status_code == 400 and "works once" in again.json()["detail"]
            assert phone.get("/api/accounts/me").json() == {"signed_in": False}  # every other browser is signed out
            assert sign_in(laptop, "Olga Ruiz", PASSWORD).status_code == 401
            assert sign_in(laptop, "Olga Ruiz", "a brand new one").status_code == 200
    finally:
        server.stop()
        mailbox.controller.stop()
