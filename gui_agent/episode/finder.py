"""Which episode folders a path on the command line means: one rule for every command.

**A path is an episode folder (it holds ``episode.json``), or a folder searched at any
depth for episode folders.** So a run's ``--out``, an eval's ``--out`` (its episodes
are ``episodes/<task>/repeat-NNN/<episode_id>/``), a replay's ``--out``, a
station's DATASET or a folder of recordings can be given wherever episodes are read:
``show``, ``review``, ``replay``, ``make-reward-data``, ``export`` and ``train``. An
``episode.json`` named directly stands for its folder. The search does not look inside an
episode folder (an episode holds no episodes) and does not follow symbolic links to
folders (a link loop would never end); an episode folder named directly may be a link.

Commands that act on one episode (``show``, ``review``, ``--policy replay:``) take a path
that holds exactly one, and say how many they found otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from gui_agent.episode.format import EPISODE_FILE
from gui_agent.errors import EpisodeNotFoundError

#: How many of the episodes found an error message lists.
_LISTED = 5


def is_episode_dir(path: str | Path) -> bool:
    """True when ``path`` is an episode folder (it holds ``episode.json``)."""
    return (Path(path) / EPISODE_FILE).is_file()


def episodes_in(path: str | Path) -> list[Path]:
    """The episode folders ``path`` means, in name order: itself if it is one, else those below it.

    Raises:
        EpisodeNotFoundError: ``path`` does not exist, or is neither an episode folder nor a
            folder holding one.
    """
    path = Path(path)
    if path.name == EPISODE_FILE and path.is_file():
        path = path.parent
    if not path.exists():
        raise EpisodeNotFoundError(f"{path}: no such file or folder")
    if is_episode_dir(path):
        return [path]
    if not path.is_dir():
        raise EpisodeNotFoundError(f"{path}: not an episode folder (no {EPISODE_FILE}) nor a folder holding episodes")
    found: list[Path] = []
    for folder, subfolders, files in os.walk(path):  # top-down, so a found episode's subfolders are pruned
        if EPISODE_FILE in files and folder != str(path):
            found.append(Path(folder))
            subfolders.clear()
        else:
            subfolders.sort()
    if not found:
        raise EpisodeNotFoundError(f"{path}: not an episode folder, and holds no episode (no {EPISODE_FILE} in it "
                                   "or in any folder below it)")
    return sorted(found)


def find_episode_dirs(paths: Iterable[str | Path]) -> list[Path]:
    """The episode folders all ``paths`` mean (see :func:`episodes_in`), each once, in the order given.

    Raises:
        EpisodeNotFoundError: a path that does not exist or holds no episode, or no path at all.
    """
    found: list[Path] = []
    seen: set[Path] = set()
    given = False
    for path in paths:
        given = True
        for folder in episodes_in(path):
            key = folder.resolve()
            if key not in seen:
                seen.add(key)
                found.append(folder)
    if not given:
        raise EpisodeNotFoundError("no episode folder given")
    return found


def find_one_episode(path: str | Path) -> Path:
    """The one episode folder ``path`` means: itself, or the only one below it.

    Raises:
        EpisodeNotFoundError: ``path`` holds no episode, or several (the message counts them
            and names the first few, so one can be picked).
    """
    found = episodes_in(path)
    if len(found) == 1:
        return found[0]
    listed = "\n".join(f"  {folder}" for folder in found[:_LISTED])
    more = f"\n  ... and {len(found) - _LISTED} more" if len(found) > _LISTED else ""
    raise EpisodeNotFoundError(f"{path}: holds {len(found)} episodes, and this takes one; name one of them:\n{listed}{more}")


__all__ = ["episodes_in", "find_episode_dirs", "find_one_episode", "is_episode_dir"]
