"""Greenlight: three movie-making board games on one engine, for players, designers and researchers."""

__version__ = "0.1.0"
