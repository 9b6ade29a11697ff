"""Task files (``task.yaml``): the schema, loading with located errors, and writing.

A task is data: what to do (instruction), where (environment), how to prepare the
environment (setup steps), how to tell whether it was done (an evaluator tree of checks),
and the limits and guards of an episode. Every model forbids unknown keys, and every
problem in a file is reported as a :class:`~gui_agent.errors.TaskFileError` naming the
file, the 1-based line, the key path (``evaluator.all_of[1].element_text.selector``) and
what was expected, because task suites are written by hand and a silently ignored typo
turns into a task that can never succeed.

A complete example::

    id: miniwob.click-button
    instruction_from_env: true          # MiniWoB++ pages generate their instruction
    environment:
      kind: browser
      url: miniwob:click-button         # a page shipped in the ``miniwob`` package
    evaluator:
      miniwob_reward: {min: 1.0}
    limits: {max_steps: 10}

``tests/fixtures/tasks/good/search_form.yaml`` uses every section and step and check.

Setup steps and checks are written as single-key mappings (``- goto: {url: ...}``), so a
file reads like a list of commands. In Python each is a small wrapper model whose one
field is named like the key and holds the arguments, e.g. ``GotoStep(goto=GotoArgs(url=
...))``; ``step.name`` and ``step.args`` give uniform access. The form
:meth:`Task.model_dump` produces is exactly the YAML form, so dumping and loading
round-trip.

A task file is assembled from parts declared where they are used: the environment
settings and setup steps next to the environment code they configure and run
(:mod:`gui_agent.envs`), the checks next to the code judging them (:mod:`gui_agent.checks`).
This package holds the task itself, collects those parts, and reads and writes files:

* ``spec``: :class:`Task` with its :class:`Limits` and :class:`Guards`;
* ``environments``: the :data:`Environment` and :data:`SetupStep` unions of every
  environment kind's settings and steps;
* ``loading`` (with ``_located_errors``): reading files, errors as file:line;
* ``dumping``: writing task-file YAML;
* ``task_inputs`` and ``input_fetch``: the files a task needs from its folder, and
  downloading declared ones;
* ``osworld_import`` (with ``osworld_steps``): OSWorld task configs as task files.

Adding an environment kind or a check: see :mod:`gui_agent.task.environments` and
:mod:`gui_agent.checks`. The task-file API is imported from ``gui_agent.task`` itself; an
environment's settings, a step or a check class from its own module.
"""

from __future__ import annotations

from gui_agent.checks.tree import CHECK_TYPES, Check
from gui_agent.task.dumping import dump_task
from gui_agent.task.environments import STEP_TYPES, Environment, SetupStep
from gui_agent.task.loading import load_task, load_task_text
from gui_agent.task.spec import DoomLoop, Guards, KeyCombo, Limits, Task

__all__ = [
    "CHECK_TYPES",
    "STEP_TYPES",
    "Check",
    "DoomLoop",
    "Environment",
    "Guards",
    "KeyCombo",
    "Limits",
    "SetupStep",
    "Task",
    "dump_task",
    "load_task",
    "load_task_text",
]
