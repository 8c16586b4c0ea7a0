"""The log of `waitgate dev`: one line per event, the stack's own lines at their level, moto's at debug.

moto logs an ordinary failed task (a bad payload, a deadline) as an ERROR of several thousand
characters. Those records are the stack's business to report (the handler's line, the execution's
end line come first); moto's own say the same again, so they are demoted to DEBUG, shown only with
--verbose, and always folded into one line.
"""

from __future__ import annotations

import logging
import sys

LINE_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
TEXT_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
MOTO_LINE_LIMIT = 600


class MotoAtDebug(logging.Filter):
    """On the log's handler: moto's records become one DEBUG line, dropped unless debug is on."""

    def __init__(self, verbose: bool) -> None:
        super().__init__()
        self._verbose = verbose

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("moto"):
            return True
        if not self._verbose:
            return False
        text = " ".join(record.getMessage().split())
        record.msg = text if len(text) <= MOTO_LINE_LIMIT else text[:MOTO_LINE_LIMIT] + " …"
        record.args = None
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


def configure_logging(verbose: bool, log_format: str = "json") -> None:
    """`log_format` text: the time alone, aligned with the functions' readable lines (dev_console)."""
    if log_format == "text":
        logging.basicConfig(stream=sys.stderr, level=logging.INFO, format=TEXT_FORMAT, datefmt="%H:%M:%S")
    else:
        logging.basicConfig(stream=sys.stderr, level=logging.INFO, format=LINE_FORMAT)
    for handler in logging.getLogger().handlers:
        handler.addFilter(MotoAtDebug(verbose))
    # Debug only for our own loggers and moto's: botocore's debug output would show task tokens.
    logging.getLogger("local").setLevel(logging.DEBUG if verbose else logging.INFO)
    logging.getLogger("moto").setLevel(logging.INFO if verbose else logging.WARNING)
    logging.getLogger("werkzeug").setLevel(logging.INFO if verbose else logging.WARNING)
    logging.getLogger("botocore").setLevel(logging.WARNING)
