"""Accounts (optional), ratings, open rated tables and quick play: a room beside the tables (see :mod:`.room`)."""

from greenlight.web.accounts.room import AccountsRoom

__all__ = ["AccountsRoom"]
