"""The ``greenlight`` command."""
