"""OSWorld's VM paths as our home-relative ones.

A config part with no equivalent here raises :class:`~gui_agent.errors.OsworldUnsupported`;
a config that is itself wrong, :class:`~gui_agent.errors.OsworldConfigError` (naming the key).
"""

from __future__ import annotations

import posixpath

from gui_agent.errors import OsworldUnsupported

#: OSWorld's VM user home; paths under it become relative to the episode's home folder.
OSWORLD_HOME = "/home/user/"


def home_path(path: str) -> str:
    """``/home/user/a/b.xlsx`` -> ``a/b.xlsx`` (also ``~/a`` and relative ``a/b``, which OSWorld
    resolves in the home folder); other absolute paths raise :class:`~gui_agent.errors.OsworldUnsupported`."""
    if not isinstance(path, str) or not path.strip():
        raise OsworldUnsupported(f"path {path!r} is not a file path")
    if path.startswith(OSWORLD_HOME) or path.startswith("~/") or not path.startswith(("/", "~", "C:", "c:")):
        rest = posixpath.normpath(path.removeprefix(OSWORLD_HOME).removeprefix("~/"))
        if rest in (".", "") or rest.startswith(".."):
            raise OsworldUnsupported(f"path {path!r} is the home folder itself or outside it, not a file in it")
        return rest
    raise OsworldUnsupported(f"path {path!r} is outside the VM user's home ({OSWORLD_HOME}); a desktop task only reaches its home folder")


__all__ = ["OSWORLD_HOME", "home_path"]
