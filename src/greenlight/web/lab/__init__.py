"""The designer's lab, a room of the web server: data, studies, comparisons and sweeps in the browser."""

from greenlight.web.lab.room import LabLimits, LabRoom

__all__ = ["LabLimits", "LabRoom"]
