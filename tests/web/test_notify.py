"""Notifications with the real server (``greenlight serve`` as a subprocess), a real SMTP server (``aiosmtpd``) and a
local push service that decrypts what it receives with the subscription's own keys (RFC 8291) and checks the VAPID
signature (RFC 8292), as a browser's push service would.

- E-mail: an address is confirmed by the link sent to it; a seat's turn is told once, with the seat's link; a seat
  that opted out hears nothing; a failing (slow, refusing) mail server delays neither moves nor pushes.
- Push: the payload arrives encrypted for the subscription and signed with the server's key.
"""

from __future__ import annotations

import base64
import email.policy
import json
import re
import threading
import time
from collections.abc import Iterator
from email import message_from_bytes
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("aiosmtpd")
pytest.importorskip("http_ece")

from tests.web.conftest import NO_RATE_LIMITS, Server, bearer, create_table, free_port, wait_until

#: A one-hour deadline lasts 7.2 s (its reminder comes 1.8 s before); a one-day deadline, 173 s (beyond every test here).
REMINDER_SCALE = 0.002
#: Messages to this domain meet a mail server that answers slowly, then refuses for now (451).
FAILING_DOMAIN = "failing.example"


class Mailbox:
    """An SMTP server (aiosmtpd) on a free port that keeps every message; slow and refusing for FAILING_DOMAIN."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.messages: list[Message] = []
        self.refused = 0
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address.endswith("@" + FAILING_DOMAIN):
            import asyncio

            await asyncio.sleep(2.0)
            self.refused += 1
            return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 Message accepted"

    def to(self, address: str) -> list[Message]:
        return [message for message in self.messages if message["To"] == address]


def text_of(message: Message) -> str:
    part = message.get_body(preferencelist=("plain",))  # type: ignore[attr-defined]
    return str(part.get_content())


def html_of(message: Message) -> str:
    part = message.get_body(preferencelist=("html",))  # type: ignore[attr-defined]
    return str(part.get_content())


class PushService:
    """A push service on a free port: keeps each POST (headers and body) by the path it was sent to, answers 201."""

    def __init__(self) -> None:
        received: list[tuple[str, dict[str, str], bytes]] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                received.append((self.path, dict(self.headers.items()), body))
                self.send_response(201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.received = received
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


class Browser:
    """What a browser keeps for one push subscription: its ECDH key pair and its auth secret."""

    def __init__(self, endpoint: str) -> None:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        self.endpoint = endpoint
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = bytes(range(16))
        public = self.private_key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.subscription = {"endpoint": endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        import http_ece

        return dict(json.loads(http_ece.decrypt(body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm")))


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_vapid(headers: dict[str, str], server_key: str, endpoint: str) -> None:
    """The request is signed (ES256) with the server's key, for the push service's origin, and not expired (RFC 8292)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

    authorization = next(value for name, value in headers.items() if name.lower() == "authorization")
    found = dict(re.findall(r"(\w+)=([^,\s]+)", authorization.partition(" ")[2]))
    assert authorization.startswith("vapid ") and found["k"] == server_key
    header, claims, signature = found["t"].split(".")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if not the server's signature
    payload = json.loads(unb64(claims))
    assert payload["aud"] == endpoint.split("/push/")[0]  # the push service's origin
    assert payload["exp"] > time.time()


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    box.controller.start()
    yield box
    box.controller.stop()


@pytest.fixture(scope="module")
def push_service() -> Iterator[PushService]:
    service = PushService()
    yield service
    service.server.shutdown()


def mailing_server(folder: Path, mailbox: Mailbox, *settings: str) -> Server:
    """A started server that sends its e-mail to ``mailbox``, with the other ``settings`` given."""
    smtp = ("--smtp", f"smtp://127.0.0.1:{mailbox.port}?tls=none", "--smtp-from", "Greenlight <games@example.org>")
    running = Server(folder / "tables.db", extra=[*NO_RATE_LIMITS, *smtp, "--limit", "smtp_timeout_seconds=5", *settings])
    running.start()
    return running


@pytest.fixture(scope="module")
def notify_server(tmp_path_factory: pytest.TempPathFactory, mailbox: Mailbox) -> Iterator[Server]:
    running = mailing_server(
        tmp_path_factory.mktemp("notify"),
        mailbox,
        *("--push-hosts", "127.0.0.1", "--push-contact", "mailto:operator@example.org"),
        *("--limit", "notify_delay_seconds=0.3", "--limit", "notify_retry_seconds=30"),
        *("--limit", f"pace_time_scale={REMINDER_SCALE}"),
    )
    yield running
    running.stop()


def play_until(api: httpx.Client, table_id: str, tokens: list[str], seat: int) -> None:
    """Play the first legal action of whoever owes one until ``seat`` owes a decision right after another seat's move
    (a turn that is news to it: a seat that has just moved is at its table and is told nothing)."""
    mover = seat
    for _ in range(200):
        owing = api.get(f"/api/tables/{table_id}/view").json()["decision"]["players"]
        if seat in owing and mover != seat:
            return
        mover = owing[0]
        legal = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[mover])).json()["legal_actions"]
        answer = api.post(f"/api/tables/{table_id}/actions", json={"action": legal[0]}, headers=bearer(tokens[mover]))
        assert answer.status_code == 200, answer.text
    raise AssertionError(f"seat {seat} never came to owe a decision after another seat's move")


def subscribe(api: httpx.Client, table_id: str, token: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    answer = api.post(f"/api/tables/{table_id}/notify", json=body, headers=bearer(token))
    assert answer.status_code == 201, answer.text
    return list(answer.json()["subscriptions"])


def confirm_link(message: Message) -> str:
    found = re.search(r"confirm: (\S+)", text_of(message))
    assert found, text_of(message)
    return found.group(1)


def test_a_turn_is_e_mailed_once_with_the_seat_link_and_not_to_a_seat_that_opted_out(notify_server: Server, mailbox: Mailbox) -> None:
    with notify_server.client() as api:
        offered = api.get("/api/notify").json()
        assert offered["email"] and offered["push"] and offered["push_key"]
        created = create_table(
            api, "movie-empire", [{"kind": "human", "name": name} for name in ("Ann", "Bob")], pace={"kind": "turn", "deadline_hours": 24}
        )
        table_id = created["table"]["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        bob, ann = "bob@example.org", "ann@example.org"
        shown = subscribe(api, table_id, tokens[1], {"channel": "email", "address": bob})
        assert shown == [
            {"id": shown[0]["id"], "channel": "email", "to": "b…b@example.org", "confirmed": False, "table": table_id, "seat": 1}
        ]
        ann_sub = subscribe(api, table_id, tokens[0], {"channel": "email", "address": ann})[0]
        assert api.get(f"/api/tables/{table_id}/notify", headers=bearer(tokens[1])).json()["subscriptions"][0]["to"] == "b…b@example.org"
        assert api.get(f"/api/tables/{table_id}/notify").status_code == 401  # nobody else sees an address
        # Movie Empire begins with both keeping a script at once (before the addresses are confirmed: no message).
        for seat in (0, 1):
            legal = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[seat])).json()["legal_actions"]
            assert api.post(f"/api/tables/{table_id}/actions", json={"action": legal[0]}, headers=bearer(tokens[seat])).status_code == 200
        for address in (bob, ann):
            confirmation = wait_until(lambda address=address: mailbox.to(address), what=f"the confirmation to {address}")[0]
            assert confirmation["Subject"] == "Confirm your turn notifications"
            assert confirmation["List-Unsubscribe"].startswith(f"<{notify_server.url}/notify/unsubscribe/")
            assert "confirm" in html_of(confirmation)
            assert httpx.get(confirm_link(confirmation)).status_code == 200
        # Ann opts out at her seat; Bob stays. Play on until Bob's turn comes after a move of Ann's.
        assert api.delete(f"/api/tables/{table_id}/notify/{ann_sub['id']}", headers=bearer(tokens[0])).json()["subscriptions"] == []
        play_until(api, table_id, tokens, 1)
        turn = wait_until(lambda: [m for m in mailbox.to(bob) if m["Subject"].startswith("Your turn")], what="Bob's turn e-mail")
        time.sleep(1.5)  # a second message would have come by now
        turns = [m for m in mailbox.to(bob) if m["Subject"].startswith("Your turn")]
        assert len(turns) == 1, [m["Subject"] for m in turns]
        message = turn[0]
        assert message["Subject"] == "Your turn at Movie Empire"
        link = f"{notify_server.url}/tables/{table_id}#token={tokens[1]}"
        assert f"Play: {link}" in text_of(message) and f'href="{link}"' in html_of(message)
        assert "as Bob (with Ann)" in text_of(message) and "Decide within" in text_of(message)
        assert "/notify/unsubscribe/" in text_of(message) and "Never e-mail me again" in html_of(message)
        assert [m["Subject"] for m in mailbox.to(ann)] == ["Confirm your turn notifications"]  # opted out: nothing else
        assert tokens[0] not in "".join(text_of(m) for m in mailbox.messages if m["To"] != ann)  # a seat's link goes to its seat only
        # The unsubscribe link of the message stops this table's messages.
        unsubscribe = re.search(r"No more messages about this table: (\S+)", text_of(message))
        assert unsubscribe is not None
        page = httpx.get(unsubscribe.group(1))
        assert page.status_code == 200 and "Unsubscribe" in page.text
        assert httpx.post(unsubscribe.group(1)).status_code == 204
        assert api.get(f"/api/tables/{table_id}/notify", headers=bearer(tokens[1])).json()["subscriptions"] == []


def test_push_arrives_encrypted_for_the_subscription_and_a_failing_mail_server_delays_nothing(
    notify_server: Server, mailbox: Mailbox, push_service: PushService
) -> None:
    with notify_server.client() as api:
        server_key = api.get("/api/notify").json()["push_key"]
        created = create_table(api, "movie-empire", [{"kind": "human", "name": name} for name in ("Ann", "Bob")])
        table_id = created["table"]["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        endpoint = f"http://127.0.0.1:{push_service.port}/push/{table_id}-bob"
        browser = Browser(endpoint)
        refused = api.post(
            f"/api/tables/{table_id}/notify",
            json={"channel": "push", "subscription": {**browser.subscription, "endpoint": "https://169.254.169.254/x"}},
            headers=bearer(tokens[1]),
        )
        assert refused.status_code == 400 and "push service this server knows" in refused.json()["detail"]
        subscribe(api, table_id, tokens[1], {"channel": "push", "subscription": browser.subscription})
        # Ann's address is at a mail server that answers slowly and refuses: her confirmation keeps failing meanwhile.
        subscribe(api, table_id, tokens[0], {"channel": "email", "address": f"ann@{FAILING_DOMAIN}"})
        started = time.monotonic()
        for seat in (0, 1):
            legal = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[seat])).json()["legal_actions"]
            before = time.monotonic()
            assert api.post(f"/api/tables/{table_id}/actions", json={"action": legal[0]}, headers=bearer(tokens[seat])).status_code == 200
            assert time.monotonic() - before < 1.0  # moves never wait for a message
        play_until(api, table_id, tokens, 1)
        arrived = wait_until(lambda: [item for item in push_service.received if item[0].endswith(f"{table_id}-bob")], what="Bob's push")
        assert time.monotonic() - started < 6.0  # while the mail server was still stalling
        _, headers, body = arrived[0]
        assert {name.lower(): value for name, value in headers.items()}["content-encoding"] == "aes128gcm"
        check_vapid(headers, server_key, endpoint)
        payload = browser.decrypt(body)
        assert payload["title"] == "Your turn at Movie Empire"
        assert payload["url"] == f"{notify_server.url}/tables/{table_id}#token={tokens[1]}"
        assert b"Movie Empire" not in body  # the push service carries only ciphertext
        # The failing mail server was tried, and the message waits for a later try (back-off), not lost and not blocking.
        wait_until(lambda: mailbox.refused >= 1, timeout=10, what="the failing mail server tried")
        rows = wait_until(
            lambda: notify_server.query(
                "SELECT attempts, outcome, claimed_until FROM notify_outbox"
                " WHERE destination LIKE 'email:%' AND kind = 'confirm' AND outcome LIKE 'failed%'"
            ),
            timeout=10,
            what="the failed e-mail waiting for its next try",
        )
        attempts, outcome, retry_at = rows[0]
        assert attempts == 1 and "451" in outcome and retry_at > time.time() + 10


def test_an_account_hears_of_its_kept_seats_and_sees_them_on_every_device(notify_server: Server, mailbox: Mailbox) -> None:
    with notify_server.client() as api, notify_server.client() as laptop, notify_server.client() as phone:
        created = create_table(api, "movie-empire", [{"kind": "human", "name": "Dee"}, {"kind": "human", "name": "Eve"}])
        table_id = created["table"]["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        address = "eve@example.org"
        signed = laptop.post("/api/accounts", json={"name": "Eve", "password": "correct horse", "email": address})
        assert signed.status_code == 201, signed.text
        csrf = {"X-CSRF-Token": signed.json()["csrf"]}
        kept = laptop.post("/api/accounts/me/seats", json={"links": [created["seats"][1]["link"]]}, headers=csrf)
        assert kept.json()["claimed"][0]["claimed"], kept.text
        answer = laptop.post("/api/notify/account", json={"channel": "email"}, headers=csrf)
        assert answer.status_code == 201, answer.text
        assert answer.json()["subscriptions"][0]["to"] == "e…e@example.org"
        confirmation = wait_until(lambda: mailbox.to(address), what="the account's confirmation")[0]
        assert "any table where you keep a seat with your account" in text_of(confirmation)
        assert httpx.get(confirm_link(confirmation)).status_code == 200
        # Another device, signed in as Eve, sees the seat without holding its link.
        other = phone.post("/api/accounts/session", json={"name": "Eve", "password": "correct horse"})
        assert other.status_code == 200, other.text
        listed = phone.post("/api/my-tables", json={"links": []}).json()["tables"]
        assert [(entry["table"], entry["seat"], entry["your_turn"]) for entry in listed] == [(table_id, 1, True)]
        assert api.post("/api/my-tables", json={"links": []}).json()["tables"] == []  # signed out: nothing
        legal = api.get(f"/api/tables/{table_id}/view", headers=bearer(tokens[0])).json()["legal_actions"]
        assert api.post(f"/api/tables/{table_id}/actions", json={"action": legal[0]}, headers=bearer(tokens[0])).status_code == 200
        message = wait_until(lambda: [m for m in mailbox.to(address) if m["Subject"].startswith("Your turn")], what="Eve's turn e-mail")[0]
        assert f"Play: {notify_server.url}/tables/{table_id}#token={tokens[1]}" in text_of(message)


def test_a_reminder_comes_once_before_a_turn_based_deadline(notify_server: Server, push_service: PushService) -> None:
    with notify_server.client() as api:
        pace = {"kind": "turn", "deadline_hours": 1, "on_timeout": "bot_decides", "bot": "random"}
        created = create_table(api, "maybe-movies", [{"kind": "human", "name": name} for name in ("Fay", "Gus", "Hal")], pace=pace)
        table_id = created["table"]["id"]
        fay = created["seats"][0]["token"]
        browser = Browser(f"http://127.0.0.1:{push_service.port}/push/{table_id}-fay")
        subscribe(api, table_id, fay, {"channel": "push", "subscription": browser.subscription})
        due = api.get(f"/api/tables/{table_id}/clock").json()["seats"][0]["due_at"]

        def pushes() -> list[dict[str, Any]]:
            return [browser.decrypt(body) for path, _, body in push_service.received if path.endswith(f"{table_id}-fay")]

        reminders = wait_until(
            lambda: [p for p in pushes() if p["title"].startswith("Your time runs out soon")], timeout=15, what="the reminder"
        )
        assert time.time() < due  # before the deadline
        assert reminders[0]["title"] == "Your time runs out soon at Maybe Movies" and "Decide within" in reminders[0]["body"]
        assert reminders[0]["url"] == f"{notify_server.url}/tables/{table_id}#token={fay}"
        wait_until(lambda: api.get(f"/api/tables/{table_id}/clock").json()["timeouts"], timeout=15, what="the deadline")
        assert len([p for p in pushes() if p["title"].startswith("Your time runs out soon")]) == 1


@pytest.fixture
def batching_server(tmp_path_factory: pytest.TempPathFactory, mailbox: Mailbox) -> Iterator[Server]:
    """A server that waits 4 s before a turn e-mail goes out (so turns at two tables meet in one message)."""
    running = mailing_server(tmp_path_factory.mktemp("batching"), mailbox, "--limit", "notify_delay_seconds=4")
    yield running
    running.stop()


def test_turns_at_two_tables_go_out_as_one_e_mail_and_never_again_stops_every_message(batching_server: Server, mailbox: Mailbox) -> None:
    server, address = batching_server, "cy@example.org"
    with server.client() as api:
        tables = []
        for _ in range(2):
            people = [{"kind": "human", "name": name} for name in ("Ann", "Cy")]
            created = create_table(api, "movie-empire", people, pace={"kind": "turn", "deadline_hours": 24})
            tokens = [seat["token"] for seat in created["seats"]]
            subscribe(api, created["table"]["id"], tokens[1], {"channel": "email", "address": address})
            tables.append((created["table"]["id"], tokens))
        for confirmation in wait_until(lambda: len(mailbox.to(address)) >= 2 and mailbox.to(address), what="two confirmations"):
            assert httpx.get(confirm_link(confirmation)).status_code == 200
        for table_id, tokens in tables:
            play_until(api, table_id, tokens, 1)
        turn = wait_until(lambda: [m for m in mailbox.to(address) if m["Subject"].startswith("Your turn")], what="the turn e-mail")
        time.sleep(5)  # a second message would have come by now
        turns = [m for m in mailbox.to(address) if m["Subject"].startswith("Your turn")]
        assert [m["Subject"] for m in turns] == ["Your turn at 2 tables"]
        text = text_of(turn[0])
        assert "It is your turn at 2 tables:" in text
        for table_id, tokens in tables:
            assert f"Play: {server.url}/tables/{table_id}#token={tokens[1]}" in text
        # "Never e-mail me again" ends every subscription of the address, at both tables.
        never = re.search(r"Never e-mail me again: (\S+)", text)
        assert never is not None and "everything=1" in never.group(1)
        assert httpx.post(never.group(1)).status_code == 204
        for table_id, tokens in tables:
            assert api.get(f"/api/tables/{table_id}/notify", headers=bearer(tokens[1])).json()["subscriptions"] == []
        # Cy's turn comes again at the first table: nothing more is sent.
        table_id, tokens = tables[0]
        play_until(api, table_id, tokens, 1)
        time.sleep(5)
        assert len(mailbox.to(address)) == 3, [m["Subject"] for m in mailbox.to(address)]
