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

This package needs ``datasets``/``pyarrow``/``huggingface_hub``; nothing in ``gui_agent``
imports it at import time (the CLI loads it inside its handlers).
"""

from gui_agent.errors import ExportError
from gui_agent.export.exporter import ExportOptions, ExportReport, export_dataset
from gui_agent.export.importer import ImportReport, import_dataset
from gui_agent.export.push import PushReport, push_dataset
from gui_agent.export.scrub import Scrubber
from gui_agent.export.sft import SftOptions
from gui_agent.export.splits import SplitSpec

__all__ = [
    "ExportError", "ExportOptions", "ExportReport", "ImportReport", "PushReport", "Scrubber", "SftOptions",
    "SplitSpec", "export_dataset", "import_dataset", "push_dataset",
]
