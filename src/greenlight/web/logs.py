"""The server's logs: plain lines for a person at a terminal, or one JSON object per line for a log collector.

``greenlight serve --log-format json`` writes every record (the server's and
uvicorn's) as JSON with the time, level, logger, message, the process (its
pid and, with several workers, its worker number) and the table a record is
about when it names one (``extra={"table": table_id}``), so a collector can
follow one table across every server process.

>>> import logging
>>> record = logging.LogRecord("greenlight.web", logging.WARNING, __file__, 1, "table %s: slow", ("ab12",), None)
>>> record.table = "ab12"
>>> line = json.loads(JsonFormatter().format(record))
>>> line["level"], line["message"], line["table"]
('warning', 'table ab12: slow', 'ab12')
"""

from __future__ import annotations

import json
import logging
import os
import time
from typing import Any

#: Record attributes copied into a JSON line when a call passes them in ``extra``.
EXTRA_FIELDS = ("table", "seat", "client", "worker")
#: The worker number of this process under ``greenlight serve --workers N`` (set by the supervisor).
WORKER_ENV = "GREENLIGHT_WORKER"


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time (UTC, ISO 8601), level, logger, message, pid, worker, table, exception."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,
        }
        worker = os.environ.get(WORKER_ENV)
        if worker is not None:
            line["worker"] = int(worker)
        for name in EXTRA_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def logging_config(level: str, log_format: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for the server and uvicorn: ``log_format`` is ``text`` or ``json``."""
    formatter: dict[str, Any] = (
        {"()": f"{__name__}.JsonFormatter"} if log_format == "json" else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    handler = {"class": "logging.StreamHandler", "formatter": "main", "stream": "ext://sys.stderr"}
    loggers = {name: {"handlers": ["main"], "level": level.upper(), "propagate": False} for name in ("greenlight", "uvicorn")}
    loggers["uvicorn.access"] = {"handlers": ["main"], "level": level.upper(), "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "loggers": loggers,
    }
