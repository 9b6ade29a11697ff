"""Episodes <-> Hugging Face datasets: export, import and push.

* :mod:`.layout` -- where things go (the hub's layout, as path templates);
* :mod:`.features` -- the declared columns of every config;
* :mod:`.rows` -- trajectory records <-> rows, both ways;
* :mod:`.scrub` -- privacy: emails, phones, cards, secrets out of typed text;
* :mod:`.splits` -- seeded splits by episode or by task;
* :mod:`.sources` -- finding episodes, skipping corrupt ones;
* :mod:`.shards` -- Parquet shards written incrementally;
* :mod:`.sft`, :mod:`.reward` -- the training formats;
* :mod:`.card` -- the dataset card;
* :mod:`.exporter`, :mod:`.importer`, :mod:`.push` -- the three operations.

The three operations need ``datasets``/``pyarrow``/``huggingface_hub``, and importing
``datasets`` takes a noticeable part of a second. Their names below are loaded on first use, so modules that need
only the light parts (:mod:`.sft`'s row formats, which the VLM policy shares) do not pay
for them, and a machine that serves a model needs no ``datasets`` at all.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from gui_agent.errors import ExportError
from gui_agent.export.sft import SftOptions
from gui_agent.export.splits import SplitSpec

if TYPE_CHECKING:
    from gui_agent.export.exporter import ExportOptions, ExportReport, export_dataset
    from gui_agent.export.importer import ImportReport, import_dataset
    from gui_agent.export.push import PushReport, push_dataset
    from gui_agent.export.scrub import Scrubber

#: Public names that need ``datasets``, and the module each lives in.
_HEAVY = {
    "ExportOptions": "exporter", "ExportReport": "exporter", "export_dataset": "exporter",
    "ImportReport": "importer", "import_dataset": "importer",
    "PushReport": "push", "push_dataset": "push",
    "Scrubber": "scrub",
}

__all__ = [
    "ExportError", "ExportOptions", "ExportReport", "ImportReport", "PushReport", "Scrubber", "SftOptions",
    "SplitSpec", "export_dataset", "import_dataset", "push_dataset",
]


def __getattr__(name: str) -> Any:
    module = _HEAVY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
