"""Finding the MiniWoB++ task pages shipped in the installed ``miniwob`` package."""

from __future__ import annotations

import difflib
import importlib.util
import re
from pathlib import Path


def miniwob_html_dir() -> Path:
    """Folder of the MiniWoB++ task pages in the installed ``miniwob`` package.

    Found without importing the package (its import pulls in gymnasium and more).

    Raises:
        FileNotFoundError: the package is not installed.
    """
    spec = importlib.util.find_spec("miniwob")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the 'miniwob' package is not installed (pip install miniwob)")
    return Path(next(iter(spec.submodule_search_locations))) / "html" / "miniwob"


def miniwob_task_names() -> list[str]:
    """Names of every MiniWoB++ task page installed, sorted."""
    return sorted(p.stem for p in miniwob_html_dir().glob("*.html"))


def miniwob_task_file(name: str) -> Path:
    """The HTML file of MiniWoB++ task ``name``.

    Raises:
        ValueError: no such task; the message lists close matches.
    """
    try:
        folder = miniwob_html_dir()
    except FileNotFoundError as exc:
        raise ValueError(str(exc)) from None
    if re.fullmatch(r"[\w.-]+", name) and (folder / f"{name}.html").is_file():
        return folder / f"{name}.html"
    names = sorted(p.stem for p in folder.glob("*.html"))
    close = difflib.get_close_matches(name, names, n=5, cutoff=0.6)
    hint = (f"close matches: {', '.join(close)}" if close
            else f"the {len(names)} task names are the *.html files in {folder}")
    raise ValueError(f"unknown MiniWoB++ task {name!r}; {hint}")
