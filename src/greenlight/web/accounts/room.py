"""The accounts room: optional accounts, sessions, claimed seats, ratings, open rated tables and quick play.

Playing needs no account: a seat link is enough, as before. An account adds a name that lasts, seats that follow
the person to every device (the seat links they played are kept for them, sealed), ratings per game, a profile,
and quick play with strangers. See docs/accounts.md (what is kept and who sees it) and docs/api.md (the API).

Sessions are server-side: the browser holds a random cookie (``HttpOnly``, ``SameSite=Lax``, ``Secure`` when the
server is reached over HTTPS); the database keeps only its digest. Every request that changes something on the
strength of that cookie must carry the session's CSRF token in ``X-CSRF-Token`` (a header another site's page
cannot set); sign-up and sign-in, which have no session yet, must come from this server's own pages (their
``Origin``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Annotated, Any
from urllib.parse import quote, urlsplit

from fastapi import APIRouter, Header, Query, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from greenlight.core.errors import OptionError
from greenlight.core.registry import get_game
from greenlight.web.accounts import gatherings, store
from greenlight.web.accounts.gatherings import Seeker, Wish
from greenlight.web.accounts.passwords import HASHES_AT_ONCE, hash_async, needs_rehash, password_problem, verify_async
from greenlight.web.accounts.ratings import fresh_rating, rate, rating_json
from greenlight.web.accounts.schema import SCHEMA
from greenlight.web.accounts.store import Account
from greenlight.web.accounts.vault import Vault, key_from_environment
from greenlight.web.inputs import InputError, clean_name, name_key
from greenlight.web.limits import client_pseudonym
from greenlight.web.notify.mail import SmtpServer, password_message
from greenlight.web.pages import page
from greenlight.web.rooms import RoomDatabase
from greenlight.web.tables import FINISHED, LiveTable, SeatRequest, TableError, TableEvent, TableHub
from greenlight.web.views import catalogue, lobby_options

log = logging.getLogger("greenlight.web")

COOKIE = "greenlight_session"
#: Budgets (per client address unless said otherwise; kept in the database, so they hold across processes).
ACCOUNTS_PER_HOUR, ACCOUNTS_BURST = 5.0, 3
SIGN_INS_PER_MINUTE, SIGN_INS_BURST = 6.0, 10
#: Sign-ins at one account (whoever tries them), so a name cannot be guessed at from many addresses.
NAME_SIGN_INS_PER_HOUR, NAME_SIGN_INS_BURST = 30.0, 10
SEEKS_PER_MINUTE, SEEKS_BURST = 20.0, 10
#: Links to choose a new password: per address and per account name; e-mails sent at once per process.
RESETS_PER_HOUR, RESETS_BURST = 3.0, 3
MAILS_AT_ONCE = 2
#: Most seats an account's page lists; most names a leaderboard shows.
SEATS_SHOWN = 200
LEADERBOARD_SIZE = 100
#: Quick play's table size when the person does not choose one: the game's smallest.
BOT_LEVEL = "medium"
RESERVED_NAME = ("player ", "bot", "table")


class SignUpIn(BaseModel):
    """A new account."""

    name: str = Field(min_length=1, max_length=200)
    password: str = Field(min_length=1, max_length=400)
    email: str | None = Field(default=None, max_length=200)


class SignInIn(BaseModel):
    """A name and its password."""

    name: str = Field(min_length=1, max_length=200)
    password: str = Field(min_length=1, max_length=400)


class ForgottenIn(BaseModel):
    """The name of an account whose password is forgotten."""

    name: str = Field(min_length=1, max_length=200)


class ResetIn(BaseModel):
    """A password link's token and the new password."""

    token: str = Field(min_length=10, max_length=100)
    new_password: str = Field(min_length=1, max_length=400)


class PasswordIn(BaseModel):
    """The current password (to confirm a serious change) and, for a change, the new one."""

    password: str = Field(min_length=1, max_length=400)
    new_password: str | None = Field(default=None, max_length=400)


class ClaimIn(BaseModel):
    """Seat links this browser holds, to keep with the account."""

    links: list[str] = Field(max_length=50)


class GatheringIn(BaseModel):
    """A table to gather players for (quick play, or an open table listed in the lobby)."""

    game: str = Field(max_length=60)
    players: int | None = Field(default=None, ge=1, le=16)
    rated: bool = False
    options: dict[str, bool | int | str] = Field(default_factory=dict, max_length=32)
    name: str | None = Field(default=None, max_length=200, description="for a person without an account")


class JoinIn(BaseModel):
    """Whoever joins a gathering without an account: their name."""

    name: str | None = Field(default=None, max_length=200)


class AccountsRoom:
    """Accounts, ratings and gatherings, beside the tables (a :class:`~greenlight.web.rooms.Room`)."""

    schema = SCHEMA

    def __init__(self) -> None:
        self.hub: TableHub | None = None
        self.vault: Vault | None = None
        self._hashing: asyncio.Semaphore | None = None
        self._forming: set[str] = set()
        self._mailing = asyncio.Semaphore(MAILS_AT_ONCE)
        self._sending: set[asyncio.Task[None]] = set()
        self.router = self._routes()

    # -- life -----------------------------------------------------------------------------------

    async def start(self, hub: TableHub) -> None:
        """Take the server's key, and rate the tables this process finishes."""
        self.hub = hub
        self._hashing = asyncio.Semaphore(HASHES_AT_ONCE)
        key = key_from_environment()
        if key is None:
            import base64
            import hashlib

            secret = await self.rooms.write(store.server_secret, base64.urlsafe_b64encode(secrets.token_bytes(32)).decode())
            key = hashlib.sha256(secret.encode()).digest()
        self.vault = Vault(key)
        hub.watch(self._table_changed)

    async def stop(self) -> None:
        """Let password e-mails being sent finish (each is bounded by the SMTP timeout)."""
        if self._sending:
            await asyncio.gather(*self._sending, return_exceptions=True)

    @property
    def rooms(self) -> RoomDatabase:
        """The rooms' database."""
        assert self.hub is not None, "the room has not started"
        return self.hub.backend.rooms

    def _hub(self) -> TableHub:
        assert self.hub is not None, "the room has not started"
        return self.hub

    def _vault(self) -> Vault:
        assert self.vault is not None, "the room has not started"
        return self.vault

    # -- sessions -------------------------------------------------------------------------------------

    async def account(self, request: Request, *, changing: bool) -> Account | None:
        """The signed-in account of the request, or None; a change on its strength needs the CSRF token (403)."""
        cookie = request.cookies.get(COOKIE)
        if not cookie or len(cookie) > 100:
            return None
        found = await self._read(store.session_account, cookie)
        if found is None:
            return None
        account: Account = found[0]
        stale = found[1]
        if changing and not secrets.compare_digest(request.headers.get("x-csrf-token", ""), account.csrf):
            raise TableError(403, "this change needs the page's CSRF token (X-CSRF-Token): reload the page and try again")
        if stale:
            await self._write(store.touch_session, cookie)
        return account

    async def signed_in(self, request: Request, *, changing: bool) -> Account:
        """The signed-in account, or a 401."""
        account = await self.account(request, changing=changing)
        if account is None:
            raise TableError(401, "sign in first (your session may have ended)")
        return account

    def _same_origin(self, request: Request) -> None:
        """Refuse (403) a sign-up or sign-in sent by another site's page."""
        origin = request.headers.get("origin")
        if origin is None:
            return  # not a browser's cross-site request (those always say where they come from)
        mine = urlsplit(self._hub().settings.public_url)
        theirs = urlsplit(origin)
        served = {f"{mine.scheme}://{mine.netloc}", f"{request.url.scheme}://{request.url.netloc}"}
        if f"{theirs.scheme}://{theirs.netloc}" not in served:
            raise TableError(403, "sign up and sign in from this server's own pages")

    def _set_cookie(self, response: Response, cookie: str) -> None:
        secure = self._hub().settings.public_url.startswith("https://")
        response.set_cookie(COOKIE, cookie, max_age=int(store.SESSION_SECONDS), httponly=True, samesite="lax", secure=secure, path="/")

    async def _budget(self, name: str, who: str, per_second: float, burst: int, what: str) -> None:
        await self._hub().take_budget(name, who, per_second, burst, what)

    async def _write(self, function: Any, *args: Any) -> Any:
        return await self.rooms.write_for_request(function, *args)

    async def _read(self, function: Any, *args: Any) -> Any:
        return await self.rooms.read_for_request(function, *args)

    # -- seats -------------------------------------------------------------------------------------

    def _link(self, table_id: str, token: str) -> str:
        return f"{self._hub().settings.public_url.rstrip('/')}/tables/{table_id}#token={token}"

    async def hold(self, account: Account, table: LiveTable, seat: int, token: str) -> None:
        """Keep a seat the account holds the token of (409 if another account holds it)."""
        sealed = self._vault().seal(token, f"{table.id}/{seat}")
        problem = await self._write(
            store.hold_seat, account.id, table.id, seat, table.stored.record.game, table.stored.record.num_players, sealed
        )
        if problem is not None:
            raise TableError(409, f"seat {seat + 1} of table {table.id}: {problem}")
        if table.finished:
            await self._record(table)

    async def claim(self, account: Account, links: list[str]) -> list[dict[str, Any]]:
        """Keep each seat whose link this browser holds; what became of each link."""
        results = []
        for link in links:
            table_id, token = parse_link(link)
            if table_id is None or token is None:
                results.append({"link": link, "claimed": False, "reason": "this is not a seat link"})
                continue
            try:
                table = await self._hub().table(table_id)
                seat = await self._hub().authenticate(table, token)
                if seat is None:
                    raise TableError(403, "this link belongs to no seat")
                await self.hold(account, table, seat, token)
            except TableError as error:
                results.append({"link": link, "claimed": False, "reason": error.message})
                continue
            results.append({"link": link, "claimed": True, "table": table_id, "seat": seat})
        return results

    async def my_seats(self, account: Account) -> list[dict[str, Any]]:
        """The account's seats with their links (opened from their seals), newest first."""
        seats = await self._read(store.seats_of, account.id, SEATS_SHOWN)
        shown = []
        for item in seats:
            token = self._vault().open(item.pop("sealed"), f"{item['table']}/{item['seat']}")
            item["link"] = self._link(item["table"], token) if token is not None else None
            item["title"] = game_title(item["game"])
            shown.append(item)
        return shown

    # -- finished tables: results and ratings ---------------------------------------------------------

    def _table_changed(self, table: LiveTable, event: TableEvent) -> None:
        if event.kind == FINISHED:
            asyncio.get_running_loop().create_task(self._finished(table), name=f"accounts-finished-{table.id}")

    async def _finished(self, table: LiveTable) -> None:
        try:
            await self._record(table)
            await self._rate(table)
        except Exception:
            log.exception("table %s: the accounts room could not record the result", table.id, extra={"table": table.id})

    def _places(self, table: LiveTable) -> tuple[dict[int, int], set[int]]:
        """Each seat's place (1 first; a seat that resigned or was given to a bot is last) and the winners."""
        outcome = table.game.outcome(table.match.state)
        gave_up = {row.seat for row in table.stored.seats if row.kind == "bot" and row.stands_in_for is not None}
        count = len(table.stored.seats)
        kept = sorted((rank, seat) for seat, rank in enumerate(outcome.ranks) if seat not in gave_up)
        places: dict[int, int] = {}
        for position, (rank, seat) in enumerate(kept):
            earlier = [other for other_rank, other in kept[:position] if other_rank == rank]
            places[seat] = places[earlier[0]] if earlier else position + 1
        for seat in gave_up:
            places[seat] = count - len(gave_up) + 1
        winners = {seat for seat in outcome.winners if seat not in gave_up}
        return places, winners

    async def _record(self, table: LiveTable) -> None:
        places, winners = self._places(table)
        await self._write(store.record_results, table.id, places, winners)

    async def _rate(self, table: LiveTable) -> None:
        """Rate a finished rated table (once, whichever process finishes it)."""
        game = table.stored.record.game

        def rate_once(tx: Any, places: dict[int, int]) -> None:
            if not store.is_rated(tx, table.id) or not store.claim_rating(tx, table.id):
                return
            holders = store.holders(tx, table.id)
            if len(holders) < 2:
                return
            current = store.ratings_of(tx, list(holders.values()), game)
            before = {account: current.get(account, fresh_rating(game)) for account in holders.values()}
            after = rate(before, {account: places[seat] for seat, account in holders.items()})
            for seat, account in holders.items():
                store.store_rating(tx, account, after[account], table.id, places[seat], len(places))

        places, _ = self._places(table)
        await self._write(rate_once, places)

    # -- gatherings ------------------------------------------------------------------------------------

    async def _seeker(self, request: Request, name: str | None, *, rated: bool) -> Seeker:
        account = await self.account(request, changing=True)
        if rated and account is None:
            raise TableError(401, "rated tables are for signed-in players: sign in (or create an account) first")
        address = client_pseudonym(request.client.host if request.client else "")
        if account is not None:
            return Seeker(account.name, account.id, address)
        try:
            shown = clean_name(name) or "Guest"
        except InputError as error:
            raise TableError(400, str(error)) from None
        return Seeker(shown, None, address)

    def _wish(self, body: GatheringIn) -> tuple[Wish, int]:
        try:
            game = get_game(body.game)
        except OptionError as error:
            raise TableError(404, str(error)) from None
        players = body.players
        if players is not None and not game.spec.min_players <= players <= game.spec.max_players:
            raise TableError(400, f"{game.spec.title} is played by {game.spec.min_players} to {game.spec.max_players} players")
        allowed = {spec.name for spec in lobby_options(game)}
        for option in body.options:
            if option not in allowed:
                raise TableError(400, f"{game.spec.title} has no option {option!r} that can be set here")
        if body.options:
            try:
                resolved = game.spec.resolve_options(players or game.spec.min_players, dict(body.options))
            except OptionError as error:
                raise TableError(400, str(error)) from None
            changed = game.spec.changed_parameters(resolved)
            if body.rated and changed:
                # A rating compares players at one game: the rules as printed, not a designer's variation of them.
                named = ", ".join(spec.name.replace("_", " ") for spec in game.spec.parameters if spec.name in changed)
                raise TableError(400, f"a rated table plays the rules as printed; only an unrated table may change: {named}")
        return Wish(game.spec.id, players, body.rated, dict(body.options)), game.spec.min_players

    async def look(self, gathering_id: str, key: str | None) -> dict[str, Any]:
        """A gathering as the asker may see it; a full one's table is formed (by the first process to ask)."""
        seen = await self._read(gatherings.look, gathering_id, key)
        if seen is None:
            raise TableError(404, "there is no such table waiting for players")
        if (
            key is not None
            and seen["member"]
            and seen["status"] == gatherings.WAITING
            and time.time() - seen["seen_at"] > gatherings.TOUCH_SECONDS
        ):
            await self._write(gatherings.touch, gathering_id, key)
        forming_at = seen["forming_at"]
        if seen["status"] == gatherings.FULL and (
            forming_at is None or time.time() - float(forming_at) > gatherings.FORMING_TIMEOUT_SECONDS
        ):
            await self.form(gathering_id, with_bots=False)
            seen = await self._read(gatherings.look, gathering_id, key)
        return await self._shown(seen)

    async def _shown(self, seen: dict[str, Any]) -> dict[str, Any]:
        accounts = [member["account_id"] for member in seen["members"] if member["account_id"]]
        ratings = await self._read(store.ratings_of, accounts, seen["game"]) if accounts else {}
        members = []
        for member in seen["members"]:
            rating = ratings.get(member["account_id"]) if member["account_id"] else None
            members.append(
                {"name": member["name"], "account": member["account_id"] is not None, "rating": rating_json(rating) if rating else None}
            )
        shown = {key: seen[key] for key in ("id", "game", "players", "options", "rated", "quick", "created_at", "status")}
        shown["title"] = game_title(seen["game"])
        shown["members"] = members
        if seen["member"] and seen["status"] == gatherings.FORMED and seen["sealed"] is not None and seen["seat"] is not None:
            token = self._vault().open(seen["sealed"], f"{seen['table_id']}/{seen['seat']}")
            shown["table"] = seen["table_id"]
            shown["seat"] = seen["seat"]
            shown["link"] = self._link(seen["table_id"], token) if token else None
        return shown

    async def form(self, gathering_id: str, *, with_bots: bool) -> None:
        """Create the table of a gathering (if this process wins the right to): seats in a random order, bots in the rest."""
        if gathering_id in self._forming:
            return
        self._forming.add(gathering_id)
        try:
            members = await self._write(gatherings.claim_forming, gathering_id, with_bots)
            if members is None:
                return
            seen = await self._read(gatherings.look, gathering_id, None)
            hub = self._hub()
            order = list(members)
            secrets.SystemRandom().shuffle(order)  # nobody chooses who plays first
            requests = [SeatRequest("human", name=name) for _, _, name in order]
            requests += [SeatRequest("bot", BOT_LEVEL)] * (seen["players"] - len(order))
            try:
                created = await hub.create(seen["game"], requests, dict(seen["options"]), creator=f"gathering/{gathering_id}")
            except TableError:
                await self._write(gatherings.release_forming, gathering_id)
                raise
            table = created.table
            seats = {
                seeker: (seat, self._vault().seal(created.tokens[seat], f"{table.id}/{seat}")) for seat, (seeker, _, _) in enumerate(order)
            }

            def record(tx: Any) -> bool:
                if not gatherings.formed(tx, gathering_id, table.id, seats):
                    return False
                if seen["rated"]:
                    store.mark_rated(tx, table.id, seen["game"])
                for seat, (_, account_id, _) in enumerate(order):
                    if account_id is not None:
                        store.hold_seat(tx, account_id, table.id, seat, seen["game"], seen["players"], seats[order[seat][0]][1])
                return True

            if not await self._write(record):
                await hub.close_table(table)  # another process formed it first: this table is never used
        finally:
            self._forming.discard(gathering_id)

    # -- the routes -------------------------------------------------------------------------------------

    def _routes(self) -> APIRouter:
        router = APIRouter(tags=["accounts"])
        room = self

        @router.get("/api/accounts/me")
        async def me(request: Request) -> dict[str, Any]:
            """Who this browser is signed in as: name, e-mail and the CSRF token for changes (``signed_in`` false: nobody)."""
            account = await room.account(request, changing=False)
            if account is None:
                return {"signed_in": False}
            return {"signed_in": True, "name": account.name, "email": account.email, "created_at": account.created_at, "csrf": account.csrf}

        @router.post("/api/accounts", status_code=201)
        async def sign_up(body: SignUpIn, request: Request, response: Response) -> dict[str, Any]:
            """Create an account and sign this browser in."""
            room._same_origin(request)
            address = client_address(request)
            name = account_name(body.name)
            if (problem := password_problem(body.password)) is not None:
                raise TableError(400, problem)
            email = clean_email(body.email)
            # Checked for free above; the budget is taken before the costly part: the hash and the database.
            await room._budget("accounts", address, ACCOUNTS_PER_HOUR / 3600, ACCOUNTS_BURST, "accounts created from your address")
            hashed = await hash_async(body.password, room._slots())
            account_id = await room._write(store.create_account, name, name_key(name), hashed, email, client_pseudonym(address))
            if account_id is None:
                raise TableError(409, "this name (or one that looks like it) is taken; choose another")
            cookie, csrf = await room._write(store.open_session, account_id, client_pseudonym(address))
            room._set_cookie(response, cookie)
            return {"name": name, "email": email, "csrf": csrf}

        @router.post("/api/accounts/session")
        async def sign_in(body: SignInIn, request: Request, response: Response) -> dict[str, Any]:
            """Sign in with a name and password. A wrong name and a wrong password get the same answer, in the same time."""
            room._same_origin(request)
            address = client_address(request)
            await room._budget("sign-in", address, SIGN_INS_PER_MINUTE / 60, SIGN_INS_BURST, "sign-ins from your address")
            key = name_key(" ".join(body.name.split()))
            await room._budget("sign-in-name", key, NAME_SIGN_INS_PER_HOUR / 3600, NAME_SIGN_INS_BURST, "sign-ins at this name")
            found = await room._read(store.password_of, key)
            if not await verify_async(found[1] if found else None, body.password, room._slots()) or found is None:
                raise TableError(401, "wrong name or password")
            account_id, hashed = found
            if needs_rehash(hashed):
                await room._write(store.set_password, account_id, await hash_async(body.password, room._slots()))
            cookie, csrf = await room._write(store.open_session, account_id, client_pseudonym(address))
            room._set_cookie(response, cookie)
            account = await room._read(store.session_account, cookie)
            return {"name": account[0].name, "csrf": csrf}

        @router.delete("/api/accounts/session")
        async def sign_out(request: Request, response: Response, everywhere: bool = False) -> dict[str, Any]:
            """Sign this browser out (``everywhere``: every browser of the account)."""
            await room.signed_in(request, changing=True)
            await room._write(store.close_session, request.cookies[COOKIE], everywhere)
            response.delete_cookie(COOKIE, path="/")
            return {"signed_out": True}

        @router.post("/api/accounts/me/password")
        async def change_password(body: PasswordIn, request: Request) -> dict[str, Any]:
            """Change the password (the current one confirms it)."""
            account = await room.signed_in(request, changing=True)
            await room._confirm(account, body.password, request)
            if body.new_password is None:
                raise TableError(400, "send the new password")
            if (problem := password_problem(body.new_password)) is not None:
                raise TableError(400, problem)
            await room._write(store.set_password, account.id, await hash_async(body.new_password, room._slots()))
            return {"changed": True}

        @router.delete("/api/accounts/me")
        async def delete_me(body: PasswordIn, request: Request, response: Response) -> dict[str, Any]:
            """Delete the account (its password confirms it): its seats in past games become anonymous; nothing else is lost."""
            account = await room.signed_in(request, changing=True)
            await room._confirm(account, body.password, request)
            seats = await room._write(store.delete_account, account.id)
            hub = room._hub()
            for table_id, seat in seats:
                try:
                    table = await hub.table(table_id)
                    await hub.rename_seat(table, seat, f"Player {seat + 1}")
                except TableError as error:
                    log.warning("table %s: seat %d of a deleted account kept its name: %s", table_id, seat, error.message)
            response.delete_cookie(COOKIE, path="/")
            return {"deleted": True, "seats_made_anonymous": len(seats)}

        @router.post("/api/accounts/password-reset", status_code=202)
        async def forgotten(body: ForgottenIn, request: Request) -> dict[str, Any]:
            """Send a link to choose a new password to the account's e-mail address, if it has one. The answer is the same
            (and as quick) whether or not the name exists or has an address: the mail goes out afterwards."""
            room._same_origin(request)
            mail = room._mail_server()
            if mail is None:
                raise TableError(503, "this server sends no e-mail, so a forgotten password cannot be reset here; ask its operator")
            key = name_key(" ".join(body.name.split()))
            await room._budget(
                "password-reset",
                client_address(request),
                RESETS_PER_HOUR / 3600,
                RESETS_BURST,
                "password links asked for from your address",
            )
            await room._budget("password-reset-name", key, RESETS_PER_HOUR / 3600, RESETS_BURST, "password links for this name")
            token = secrets.token_urlsafe(32)
            found = await room._write(store.start_reset, key, token)
            if found is not None:
                name, email = found
                link = f"{room._hub().settings.public_url.rstrip('/')}/account#reset={token}"
                message = password_message(mail.sender, email, name, link, int(store.RESET_SECONDS // 60))
                room._send_later(mail, message)
            return {"sent": "if an account of that name has an e-mail address, a link to choose a new password is on its way"}

        @router.post("/api/accounts/password-reset/confirm")
        async def reset(body: ResetIn, request: Request, response: Response) -> dict[str, Any]:
            """Choose a new password with a link's token: every browser of the account is signed out, this one signed in."""
            room._same_origin(request)
            address = client_address(request)
            await room._budget("sign-in", address, SIGN_INS_PER_MINUTE / 60, SIGN_INS_BURST, "password checks from your address")
            if (problem := password_problem(body.new_password)) is not None:
                raise TableError(400, problem)
            account_id = await room._write(store.finish_reset, body.token, await hash_async(body.new_password, room._slots()))
            if account_id is None:
                raise TableError(400, "this link is not valid any more (it works once, for an hour): ask for a new one")
            cookie, csrf = await room._write(store.open_session, account_id, client_pseudonym(address))
            room._set_cookie(response, cookie)
            account = await room._read(store.session_account, cookie)
            return {"name": account[0].name, "csrf": csrf}

        @router.get("/api/accounts/me/seats")
        async def my_seats(request: Request) -> dict[str, Any]:
            """The account's seats, newest first, each with its link (on any device the account is signed in on)."""
            account = await room.signed_in(request, changing=False)
            return {"seats": await room.my_seats(account)}

        @router.post("/api/accounts/me/seats")
        async def claim_seats(body: ClaimIn, request: Request) -> dict[str, Any]:
            """Keep with the account the seats whose links this browser holds (each link is checked against its table)."""
            account = await room.signed_in(request, changing=True)
            limiters = request.app.state.limiters
            await limiters.take("actions", client_address(request), "requests")
            return {"claimed": await room.claim(account, body.links)}

        @router.get("/api/accounts/tables/{table_id}")
        async def table_accounts(table_id: str) -> dict[str, Any]:
            """Whether a table is rated, and the accounts (with their ratings at its game) holding its seats."""
            table = await room._hub().table(table_id)
            game = table.stored.record.game

            def read(tx: Any) -> tuple[bool, dict[int, str], dict[str, str], dict[str, Any]]:
                holders = store.holders(tx, table_id)
                accounts = list(holders.values())
                return store.is_rated(tx, table_id), holders, store.names_of(tx, accounts), store.ratings_of(tx, accounts, game)

            rated, holders, names, ratings = await room._read(read)
            seats = {
                str(seat): {"account": names.get(account), "rating": rating_json(ratings[account]) if account in ratings else None}
                for seat, account in holders.items()
            }
            return {"table": table_id, "rated": rated, "seats": seats}

        @router.get("/api/players/{name}")
        async def profile(name: str) -> dict[str, Any]:
            """A player's profile: games played and won, ratings per game with their history, recent games."""
            return await room.profile(name)

        @router.get("/api/leaderboard/{game_id}")
        async def leaderboard(game_id: str, limit: Annotated[int, Query(ge=1, le=LEADERBOARD_SIZE)] = LEADERBOARD_SIZE) -> dict[str, Any]:
            """The best-rated players of a game (provisional ratings marked)."""
            title = game_title(game_id, required=True)
            rows = await room._read(store.leaderboard, game_id, limit)
            return {"game": game_id, "title": title, "players": [{"name": name, **rating_json(rating)} for name, rating in rows]}

        @router.post("/api/quickplay")
        async def quick_play(body: GatheringIn, request: Request) -> dict[str, Any]:
            """Be seated with the next people who want the same game (rated: signed-in players only)."""
            wish, smallest = room._wish(body)
            seeker = await room._seeker(request, body.name, rated=body.rated)
            await room._budget("seeks", client_address(request), SEEKS_PER_MINUTE / 60, SEEKS_BURST, "tables asked for from your address")
            gathering_id, key = await room._write(gatherings.join_quick, wish, seeker, smallest)
            return {**await room.look(gathering_id, key), "key": key}

        @router.post("/api/gatherings", status_code=201)
        async def open_table(body: GatheringIn, request: Request) -> dict[str, Any]:
            """Open a table to the lobby: it is created once enough people have joined (rated: signed-in players only)."""
            wish, smallest = room._wish(body)
            seeker = await room._seeker(request, body.name, rated=body.rated)
            await room._budget("seeks", client_address(request), SEEKS_PER_MINUTE / 60, SEEKS_BURST, "tables asked for from your address")
            gathering_id, key = await room._write(gatherings.open_gathering, wish, wish.players or smallest, seeker)
            return {**await room.look(gathering_id, key), "key": key}

        @router.get("/api/gatherings")
        async def waiting(limit: Annotated[int, Query(ge=1, le=100)] = 50) -> dict[str, Any]:
            """Tables waiting for players, oldest first, with who is waiting (and their ratings at the game)."""
            ids = await room._read(gatherings.waiting_list, limit)
            shown = []
            for gathering_id in ids:
                seen = await room._read(gatherings.look, gathering_id, None)
                if seen is not None:
                    shown.append(await room._shown(seen))
            return {"gatherings": shown}

        @router.get("/api/gatherings/{gathering_id}")
        async def look(gathering_id: str, x_seeker: Annotated[str | None, Header()] = None) -> dict[str, Any]:
            """A gathering; with a member's key (``X-Seeker``), once formed, the member's seat link."""
            return await room.look(gathering_id, x_seeker)

        @router.post("/api/gatherings/{gathering_id}/join")
        async def join(gathering_id: str, body: JoinIn, request: Request) -> dict[str, Any]:
            """Join a table waiting for players (one click from the lobby)."""
            seeker = await room._seeker(request, body.name, rated=False)
            await room._budget("seeks", client_address(request), SEEKS_PER_MINUTE / 60, SEEKS_BURST, "tables asked for from your address")
            try:
                key = await room._write(gatherings.join, gathering_id, seeker)
            except ValueError as error:
                raise TableError(409, str(error)) from None
            return {**await room.look(gathering_id, key), "key": key}

        @router.post("/api/gatherings/{gathering_id}/bots")
        async def with_bots(gathering_id: str, x_seeker: Annotated[str | None, Header()] = None) -> dict[str, Any]:
            """A member who has waited long enough: start now, bots (medium) in the empty seats (unrated tables only)."""
            seen = await room._read(gatherings.look, gathering_id, None)
            if seen is None:
                raise TableError(404, "there is no such table waiting for players")
            if x_seeker is None or not await room._read(gatherings.is_member, gathering_id, x_seeker):
                raise TableError(403, "only someone waiting at this table can start it")
            if seen["rated"]:
                raise TableError(409, "a rated table is played by people only; wait for more players or leave")
            await room.form(gathering_id, with_bots=True)
            return await room.look(gathering_id, x_seeker)

        @router.delete("/api/gatherings/{gathering_id}")
        async def leave(gathering_id: str, x_seeker: Annotated[str | None, Header()] = None) -> dict[str, Any]:
            """Stop waiting."""
            if x_seeker:
                await room._write(gatherings.leave, gathering_id, x_seeker)
            return {"left": True}

        @router.get("/account", response_class=HTMLResponse, include_in_schema=False)
        async def account_page(request: Request) -> HTMLResponse:
            """Sign up, sign in, the account's seats, and deleting it."""
            return page(request, "account.html", {"title": "Your account", "boot": {"games": catalogue()}})

        @router.get("/players/{name}", response_class=HTMLResponse, include_in_schema=False)
        async def profile_page(request: Request, name: str) -> HTMLResponse:
            """A player's profile page."""
            try:
                shown = await room.profile(name)
            except TableError as error:
                if error.status != 404:
                    raise
                return page(request, "missing.html", {"what": f"There is no player called {name}.", "boot": {}}, status_code=404)
            return page(request, "profile.html", {"title": f"{shown['name']} · profile", "boot": {"profile": shown}, "profile": shown})

        @router.get("/leaderboard", response_class=HTMLResponse, include_in_schema=False)
        async def leaderboard_page(request: Request, game: str | None = None) -> HTMLResponse:
            """Every game's best-rated players."""
            games = catalogue()
            chosen = game if game in {entry["id"] for entry in games} else (games[0]["id"] if games else "")
            rows = await room._read(store.leaderboard, chosen, LEADERBOARD_SIZE) if chosen else []
            board = [{"name": name, "href": f"/players/{quote(name)}", **rating_json(rating)} for name, rating in rows]
            return page(request, "leaderboard.html", {"title": "Leaderboard", "games": games, "chosen": chosen, "board": board, "boot": {}})

        return router

    def _mail_server(self) -> SmtpServer | None:
        """The SMTP server the server was given (``--smtp``), or None."""
        settings = self._hub().settings
        if not settings.smtp_url:
            return None
        return SmtpServer.from_url(settings.smtp_url, settings.smtp_password, settings.smtp_sender, settings.smtp_timeout_seconds)

    def _send_later(self, mail: SmtpServer, message: Any) -> None:
        """Send ``message`` in a worker thread after the answer (a failure is logged: the person may ask again)."""

        async def send() -> None:
            async with self._mailing:
                try:
                    await asyncio.to_thread(mail.send, message)
                except Exception as error:
                    log.warning("a password link could not be e-mailed: %s", error)

        task = asyncio.get_running_loop().create_task(send(), name="accounts-password-mail")
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def _slots(self) -> asyncio.Semaphore:
        if self._hashing is None:
            self._hashing = asyncio.Semaphore(HASHES_AT_ONCE)
        return self._hashing

    async def _confirm(self, account: Account, password: str, request: Request) -> None:
        """Check the account's password before a serious change (within the sign-in budget)."""
        await self._budget(
            "sign-in", client_address(request), SIGN_INS_PER_MINUTE / 60, SIGN_INS_BURST, "password checks from your address"
        )
        found = await self._read(store.password_of, name_key(account.name))
        if found is None or not await verify_async(found[1], password, self._slots()):
            raise TableError(403, "wrong password")

    async def profile(self, name: str) -> dict[str, Any]:
        """A player's public profile."""

        def read(tx: Any) -> dict[str, Any] | None:
            found = store.account_by_name(tx, name_key(name))
            if found is None:
                return None
            return {
                "name": found["name"],
                "since": found["created_at"],
                "stats": store.record_stats(tx, found["id"]),
                "ratings": store.all_ratings(tx, found["id"]),
                "history": store.rating_history(tx, found["id"], 100),
                "seats": store.seats_of(tx, found["id"], 30),
            }

        found = await self._read(read)
        if found is None:
            raise TableError(404, f"there is no player called {name!r}")
        games = [
            {
                "table": seat["table"],
                "seat": seat["seat"],
                "game": seat["game"],
                "title": game_title(seat["game"]),
                "players": seat["players"],
                "finished_at": seat["finished_at"],
                "place": seat["place"],
                "won": seat["won"],
                "replay": f"/tables/{seat['table']}/replay" if seat["finished_at"] else None,
                "review": f"/tables/{seat['table']}/reviews/{seat['seat']}" if seat["finished_at"] else None,
                "table_page": f"/tables/{seat['table']}",
            }
            for seat in found["seats"]
        ]
        history = [
            {**entry, "title": game_title(entry["game"]), "rating": round(entry["mu"] - 3 * entry["sigma"], 2)}
            for entry in found["history"]
        ]
        return {
            "name": found["name"],
            "since": found["since"],
            "played": found["stats"]["played"],
            "won": found["stats"]["won"],
            "ratings": [{**rating_json(rating), "title": game_title(rating.game)} for rating in found["ratings"]],
            "history": history,
            "games": games,
        }


def client_address(request: Request) -> str:
    """The request's client address (the forwarded one behind a trusted proxy)."""
    return request.client.host if request.client is not None else ""


def parse_link(link: str) -> tuple[str | None, str | None]:
    """(table id, token) of a seat link ``.../tables/<id>#token=<token>``."""
    parts = urlsplit(link)
    segments = [segment for segment in parts.path.split("/") if segment]
    table_id = segments[1] if len(segments) == 2 and segments[0] == "tables" else None
    token = None
    for item in parts.fragment.split("&"):
        if item.startswith("token="):
            token = item[len("token=") :] or None
    return table_id, token


def game_title(game_id: str, *, required: bool = False) -> str:
    """A game's title (its id for a game this server no longer has)."""
    try:
        return get_game(game_id).spec.title
    except OptionError:
        if required:
            raise TableError(404, f"there is no game {game_id!r}") from None
        return game_id


def account_name(raw: str) -> str:
    """A new account's name, cleaned like a seat name; 400 for one that is empty, too long or reserved."""
    try:
        name = clean_name(raw)
    except InputError as error:
        raise TableError(400, str(error)) from None
    if len(name) < 2:
        raise TableError(400, "a name needs at least 2 visible characters")
    if name_key(name).startswith(RESERVED_NAME):
        raise TableError(400, "names starting with Player, Bot or Table are kept for the server's own seats")
    return name


def clean_email(raw: str | None) -> str | None:
    """An e-mail address as given (trimmed), None for none; 400 for one that is clearly not an address."""
    if raw is None or not raw.strip():
        return None
    text = raw.strip()
    local, at, domain = text.rpartition("@")
    if not at or not local or "." not in domain or any(char.isspace() for char in text) or len(text) > 200:
        raise TableError(400, "this does not look like an e-mail address")
    return text
