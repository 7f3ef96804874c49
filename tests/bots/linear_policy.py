"""The smallest real policy for tests that save, load and seat one (needs the ``train`` extra's torch)."""

from __future__ import annotations

import torch


class Linear(torch.nn.Module):
    """One linear layer from the observation to a logit per code (seeded by torch's global seed)."""

    def __init__(self, size: int, count: int) -> None:
        super().__init__()
        self.layer = torch.nn.Linear(size, count)

    def forward(self, observation: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.layer(observation)
        return logits
