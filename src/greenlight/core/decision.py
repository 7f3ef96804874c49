"""Decisions: what a game is waiting for now."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must act now, and what kind of choice it is.

    ``players`` are the seats that still owe an action; it is empty when the
    game is over. In a **simultaneous** step several seats commit secretly:
    ``committed`` lists the seats that already did (public, never *what*).

    >>> Decision(players=(0, 2), kind="offer", simultaneous=True, committed=(1,)).is_terminal
    False
    """

    players: tuple[int, ...]
    kind: str
    simultaneous: bool = False
    committed: tuple[int, ...] = ()
    prompt: str = ""

    @property
    def is_terminal(self) -> bool:
        """True when nobody has to act any more: the game is over."""
        return not self.players

    def to_json(self) -> dict[str, object]:
        """JSON-ready form (public information only)."""
        return {
            "players": list(self.players),
            "kind": self.kind,
            "simultaneous": self.simultaneous,
            "committed": list(self.committed),
            "prompt": self.prompt,
        }


GAME_OVER = Decision(players=(), kind="game_over", prompt="The game is over.")
