"""Running many games: one seeded game (``runner``), a local process pool (``pool``), statistics (``stats``), the arena (``arena``)."""
