"""Collection order for the whole suite: tests marked ``first`` run before the others.

pytest-xdist hands tests to its workers in collection order, so a test of several minutes collected last keeps
one worker busy while the other waits; the slow run's conformance cases, minutes each, are marked to start first.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the tests marked ``first`` to the front, keeping their order and everyone else's."""
    items.sort(key=lambda item: item.get_closest_marker("first") is None)
