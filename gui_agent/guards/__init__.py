"""Guards: small wrappers that keep an agent from looping, breaking things or overspending.

* :mod:`.doom_loop`: the same action (or a short cycle) with no change on screen;
* :mod:`.destructive`: forbidden key combinations and typed text are refused; protected
  files are verified unchanged after the episode;
* :mod:`.budgets`: steps, wall time and tokens (kept by the runner's loop).

:func:`guard_env` wraps an environment with what a task file's ``guards`` section asks for.
"""

from __future__ import annotations

from gui_agent.envs.base import Env
from gui_agent.guards.base import EnvWrapper, GuardEvent
from gui_agent.guards.budgets import Budget, BudgetMeter
from gui_agent.guards.destructive import ActionGuard, ProtectedPathsGuard, snapshot_paths
from gui_agent.guards.doom_loop import DoomLoopGuard, OnLoop
from gui_agent.task import Guards

__all__ = [
    "ActionGuard", "Budget", "BudgetMeter", "DoomLoopGuard", "EnvWrapper", "GuardEvent", "OnLoop",
    "ProtectedPathsGuard", "guard_env", "snapshot_paths",
]


def guard_env(env: Env, guards: Guards, *, on_loop: OnLoop = "stop") -> Env:
    """``env`` wrapped with the guards a task's ``guards`` section configures.

    Order, innermost first: protected files are snapshotted after setup; forbidden
    actions are refused; the loop detector sees every step, refused ones included (a
    policy pressing a forbidden key again and again is looping too). A task without
    guards gets ``env`` back unchanged.
    """
    wrapped = env
    if guards.protected_paths:
        wrapped = ProtectedPathsGuard(wrapped, paths=guards.protected_paths)
    if guards.forbidden_keys or guards.forbidden_text:
        wrapped = ActionGuard(wrapped, forbidden_keys=guards.forbidden_keys, forbidden_text=guards.forbidden_text)
    if guards.doom_loop is not None:
        wrapped = DoomLoopGuard(wrapped, max_repeats=guards.doom_loop.max_repeats, on_loop=on_loop)
    return wrapped
