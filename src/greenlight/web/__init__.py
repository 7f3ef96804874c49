"""The web server: lobby, live tables over WebSockets, bots, and SQLite storage (``greenlight serve``).

``create_app`` is imported on first use, so that reading the server's settings
(``greenlight.web.limits``, which the CLI needs for its help) does not load FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from greenlight.web.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from greenlight.web.app import create_app

        return create_app
    raise AttributeError(f"module 'greenlight.web' has no attribute {name!r}")
