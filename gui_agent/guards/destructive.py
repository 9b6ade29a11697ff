"""Destructive-action guards: forbidden actions are refused, protected files are checked.

* :class:`ActionGuard` refuses, before the environment sees them, hotkeys that include a
  forbidden key combination (``[ctrl, w]`` also catches ``ctrl+shift+w``; letters compare
  case-insensitively, since :func:`gui_agent.actions.normalize_key` keeps a character's
  case) and typed text matching a forbidden pattern (a trailing newline, which presses
  Enter, counts as the ``enter`` key). The policy sees the refusal as the step's
  ``last_action_error``; the screen is unchanged; the event is logged.
* :class:`ProtectedPathsGuard` hashes protected files (every file under a protected
  folder) once the episode's setup is done, and again when the episode ends; any file
  deleted, changed or added is a ``violation``, which the runner reports and which makes
  the episode a failure whatever the evaluator said. It reads the local file system, so
  it protects files of environments that run on this machine (desktop tasks).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gui_agent.actions import Action, Hotkey, Type, action_to_text
from gui_agent.envs.base import Env, Observation, StepResult
from gui_agent.guards.base import EnvWrapper, GuardEvent, refused


class ActionGuard(EnvWrapper):
    """Refuses forbidden key combinations and typed text.

    Args:
        env: the environment to guard.
        forbidden_keys: key combinations (canonical key names, as in the task file).
        forbidden_text: regular expressions typed text must not match (``re.search``).
    """

    def __init__(self, env: Env, *, forbidden_keys: Sequence[Sequence[str]] = (), forbidden_text: Sequence[str] = ()) -> None:
        super().__init__(env)
        self.forbidden_keys = [frozenset(key.lower() for key in combo) for combo in forbidden_keys if combo]
        self.forbidden_text = [re.compile(pattern) for pattern in forbidden_text]

    def why_forbidden(self, action: Action) -> str | None:
        """The reason ``action`` is refused, or None if it may run."""
        pressed: set[str] = set()
        if isinstance(action, Hotkey):
            pressed = {key.lower() for key in action.keys}
        elif isinstance(action, Type):
            for pattern in self.forbidden_text:
                if pattern.search(action.text):
                    return f"typing text matching {pattern.pattern!r} is forbidden by the task"
            if action.text.endswith("\n"):
                pressed = {"enter"}
        for combo in self.forbidden_keys:
            if combo <= pressed:
                return f"the key combination {'+'.join(sorted(combo))} is forbidden by the task"
        return None

    def step(self, action: Action) -> StepResult:
        reason = self.why_forbidden(action)
        if reason is None or self.last_obs is None:
            return super().step(action)
        info: dict[str, Any] = {}
        message = f"refused: {reason}"
        self._record(GuardEvent("forbidden_action", "blocked", message, self.steps_taken, {"action": action_to_text(action)}), info)
        self.steps_taken += 1
        obs: Observation = refused(self.last_obs, message)
        return obs, 0.0, False, False, info


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def snapshot_paths(paths: dict[str, Path]) -> dict[str, str | None]:
    """Content hashes under ``paths`` (shown name -> absolute path): a file's, or every file's
    under a folder (shown as ``folder/relative/path``); None for a missing path."""
    hashes: dict[str, str | None] = {}
    for shown, root in paths.items():
        if root.is_dir():
            for folder, _dirs, files in os.walk(root):
                for name in files:
                    file = Path(folder) / name
                    key = f"{shown.rstrip('/')}/{file.relative_to(root).as_posix()}"
                    try:
                        hashes[key] = _digest(file)
                    except OSError:
                        hashes[key] = None
        else:
            try:
                hashes[shown] = _digest(root)
            except OSError:
                hashes[shown] = None
    return hashes


class ProtectedPathsGuard(EnvWrapper):
    """Reports protected files that changed between the end of setup and the end of the episode.

    Paths are resolved by the environment when it has a file system of its own
    (``env.resolve_path``: a desktop episode's home folder, where task paths are relative
    to it), else taken as paths on this machine (``~`` expanded).

    Args:
        env: the environment to guard.
        paths: files or folders, as the task file gives them.
    """

    def __init__(self, env: Env, *, paths: Sequence[str | Path]) -> None:
        super().__init__(env)
        self.paths = [str(p) for p in paths]
        self._resolved: dict[str, Path] = {}
        self._before: dict[str, str | None] = {}

    def _resolve(self, path: str) -> Path:
        resolver = getattr(self.env, "resolve_path", None)
        return Path(resolver(path)) if callable(resolver) else Path(os.path.expanduser(path))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        obs, info = super().reset(seed=seed, options=options)  # setup steps have run
        self._resolved = {path: self._resolve(path) for path in self.paths}
        self._before = snapshot_paths(self._resolved)
        return obs, info

    def _final_check(self) -> list[GuardEvent]:
        after = snapshot_paths(self._resolved)
        events = []
        for path in sorted(set(self._before) | set(after)):
            old, new = self._before.get(path), after.get(path)
            if old == new:
                continue
            change = "deleted" if new is None else "added" if old is None else "modified"
            events.append(GuardEvent("protected_path", "violation", f"protected file {path} was {change}", None,
                                     {"path": path, "change": change}))
        return events
