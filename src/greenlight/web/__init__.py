"""The web server: lobby, live tables over WebSockets, bots, and SQLite storage (``greenlight serve``)."""

from greenlight.web.app import create_app

__all__ = ["create_app"]
