"""The one error every route raises for a refused request: an HTTP status and the reason in words."""

from __future__ import annotations


class TableError(Exception):
    """A request was refused; ``status`` is the HTTP status that fits (``create_app`` answers it as JSON ``detail``).

    ``retry_after`` (seconds) is sent as a ``Retry-After`` header with 429 and 503 answers.

    >>> TableError(404, "there is no table 'x'").status
    404
    """

    def __init__(self, status: int, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after
