"""What the OSWorld import says about a config part: it has no equivalent
(:class:`Unsupported`), or the config itself is wrong (:class:`ConfigError`, naming the
key); and OSWorld's VM paths as our home-relative ones.
"""

from __future__ import annotations

import posixpath

from gui_agent.errors import OsworldConfigError, OsworldUnsupported

#: OSWorld's VM user home; paths under it become relative to the episode's home folder.
OSWORLD_HOME = "/home/user/"


#: One part of the config has no equivalent here (the message says which and why).
Unsupported = OsworldUnsupported


#: The config is not a readable OSWorld task (the error names the key).
ConfigError = OsworldConfigError


def home_path(path: str) -> str:
    """``/home/user/a/b.xlsx`` -> ``a/b.xlsx`` (also ``~/a`` and relative ``a/b``, which OSWorld
    resolves in the home folder); other absolute paths raise :class:`Unsupported`."""
    if not isinstance(path, str) or not path.strip():
        raise Unsupported(f"path {path!r} is not a file path")
    if path.startswith(OSWORLD_HOME) or path.startswith("~/") or not path.startswith(("/", "~", "C:", "c:")):
        rest = posixpath.normpath(path.removeprefix(OSWORLD_HOME).removeprefix("~/"))
        if rest in (".", "") or rest.startswith(".."):
            raise Unsupported(f"path {path!r} is the home folder itself or outside it, not a file in it")
        return rest
    raise Unsupported(f"path {path!r} is outside the VM user's home ({OSWORLD_HOME}); a desktop task only reaches its home folder")


__all__ = ["OSWORLD_HOME", "ConfigError", "Unsupported", "home_path"]
