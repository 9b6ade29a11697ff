"""``--quiet`` for the libraries a command loads, not only for its own output.

transformers and huggingface_hub talk on their own: log records at warning level,
``Loading weights`` and ``Writing model shards`` progress bars, Python warnings. A
``--quiet`` run printed them all around its one outcome line. While a quiet command runs
they are turned down: their loggers to errors only, their progress bars off, Python's
warnings ignored. Environment variables carry the same settings into a library imported
later and into worker processes started meanwhile. Everything is put back afterwards, so
a caller that runs commands in-process (the tests) keeps its own settings.
"""

from __future__ import annotations

import logging
import os
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

#: What the libraries read when they are imported (and worker processes when they start).
QUIET_ENVIRONMENT = {
    "TRANSFORMERS_VERBOSITY": "error",
    "TRANSFORMERS_NO_ADVISORY_WARNINGS": "1",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "PYTHONWARNINGS": "ignore",
}
#: The loggers turned down to errors.
LIBRARY_LOGGERS = ("transformers", "huggingface_hub", "accelerate", "peft")


@contextmanager
def libraries_quieted(quiet: bool = True) -> Iterator[None]:
    """Within the block, when ``quiet``: library logging below errors, their progress bars
    and Python's warnings silenced; as before afterwards."""
    if not quiet:
        yield
        return
    saved_env = {name: os.environ.get(name) for name in QUIET_ENVIRONMENT}
    saved_levels = {name: logging.getLogger(name).level for name in LIBRARY_LOGGERS}
    bars_before = _bars()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        os.environ.update(QUIET_ENVIRONMENT)
        for name in LIBRARY_LOGGERS:
            logging.getLogger(name).setLevel(logging.ERROR)
        _set_bars(False)
        try:
            yield
        finally:
            for name, value in saved_env.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
            for name, level in saved_levels.items():
                if name == "transformers" and level == logging.NOTSET and "transformers" in sys.modules:
                    level = _transformers_default_level()  # imported meanwhile: what its import would have set
                logging.getLogger(name).setLevel(level)
            default = os.environ.get("HF_HUB_DISABLE_PROGRESS_BARS", "").upper() not in {"1", "ON", "YES", "TRUE"}
            _set_bars(*(default if before is None else before for before in bars_before))


def _bars() -> tuple[bool | None, bool | None]:
    """Whether transformers' and the hub's progress bars are on; None for a library not imported."""
    transformers = sys.modules.get("transformers.utils.logging")
    hub = sys.modules.get("huggingface_hub.utils")
    return (None if transformers is None else bool(transformers.is_progress_bar_enabled()),
            None if hub is None else not hub.are_progress_bars_disabled())


def _set_bars(transformers_on: bool, hub_on: bool | None = None) -> None:
    """Turn the imported libraries' progress bars on or off (the hub's like transformers' unless given)."""
    transformers = sys.modules.get("transformers.utils.logging")
    if transformers is not None:
        (transformers.enable_progress_bar if transformers_on else transformers.disable_progress_bar)()
    hub = sys.modules.get("huggingface_hub.utils")
    if hub is not None:
        (hub.enable_progress_bars if (transformers_on if hub_on is None else hub_on) else hub.disable_progress_bars)()


def _transformers_default_level() -> int:
    """The level transformers gives its logger on import, given ``TRANSFORMERS_VERBOSITY`` as it is now."""
    level = logging.getLevelName(os.environ.get("TRANSFORMERS_VERBOSITY", "warning").upper())
    return level if isinstance(level, int) else logging.WARNING
