"""Where things go in an exported dataset: the hub's layout, as path templates.

::

    <out>/
      README.md                                   dataset card (YAML header + summary)
      data/<config>/<split>-00000-of-00003.parquet  Parquet shards, images embedded

Each *config* is one table (``steps``, ``episodes``, ``sft``, ``reward``, ``outcomes``,
``preferences``, ``grounding``); each has the
same splits. The names here are the only place paths are spelled; the writer, the card,
the importer and the pusher all use them.
"""

from __future__ import annotations

import re

#: Bump when an importer of the previous version could misread new exports.
EXPORT_FORMAT_VERSION = 1

CARD_FILE = "README.md"
DATA_DIR = "data"
#: In an export folder whose push failed: the command that made it, so running that command
#: again resumes the push instead of refusing the folder (never pushed itself).
PENDING_PUSH_FILE = ".gui-agent-pending-push.json"
SHARD_TEMPLATE = "data/{config}/{split}-{index:05d}-of-{count:05d}.parquet"
#: Shards being written carry this name until the export finishes and they are counted.
PARTIAL_TEMPLATE = "data/{config}/{split}-{index:05d}.parquet.partial"
#: The ``data_files`` pattern of one config's split, as the card declares it.
SPLIT_GLOB = "data/{config}/{split}-*.parquet"

STEPS = "steps"
EPISODES = "episodes"
SFT = "sft"
REWARD = "reward"
OUTCOMES = "outcomes"
PREFERENCES = "preferences"
GROUNDING = "grounding"

#: What each ``--format`` writes, in card order; the first config is the default one.
FORMAT_CONFIGS: dict[str, tuple[str, ...]] = {
    "steps": (STEPS, EPISODES),
    "sft": (SFT, EPISODES),
    "reward": (REWARD, OUTCOMES, PREFERENCES),
    "grounding": (GROUNDING,),
}

#: Split names the hub accepts (datasets' ``_split_re``).
SPLIT_NAME_RE = re.compile(r"^\w+(\.\w+)*$")


def shard_path(config: str, split: str, index: int, count: int) -> str:
    """Final relative path of shard ``index`` of ``count`` of one config's split."""
    return SHARD_TEMPLATE.format(config=config, split=split, index=index, count=count)


def partial_path(config: str, split: str, index: int) -> str:
    """Relative path of a shard while it is written (its count is not known yet)."""
    return PARTIAL_TEMPLATE.format(config=config, split=split, index=index)


def split_glob(config: str, split: str) -> str:
    return SPLIT_GLOB.format(config=config, split=split)
