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

Adding an environment kind: define a model with ``kind: Literal["desktop"]`` deriving from
:class:`~gui_agent.task.environments._EnvironmentBase`, and add it to the
:data:`Environment` union in :mod:`gui_agent.task.environments`; the loader, the error
messages and ``gui-agent validate`` pick it up from there.

The package's modules, one job each:

* ``_base``: the shared base model, annotated field types and single-key machinery;
* ``environments`` (with ``miniwob_pages``): where a task happens;
* ``setup_steps`` (with ``desktop_steps``): the steps preparing the environment;
* ``checks`` (with ``desktop_checks``): the evaluator's checks;
* ``desktop_paths``: paths of desktop tasks (relative to the episode's home folder);
* ``spec``: :class:`Task` with its :class:`Limits` and :class:`Guards`;
* ``loading`` (with ``_located_errors``): reading files, errors as file:line;
* ``dumping``: writing task-file YAML.

Everything public is imported from ``gui_agent.task`` itself.
"""

from __future__ import annotations

# Field types that were importable from the single-file module; not in __all__.
from gui_agent.task._base import NonBlank as NonBlank
from gui_agent.task._base import PositiveFloat as PositiveFloat
from gui_agent.task._base import PositiveInt as PositiveInt
from gui_agent.task._base import Regex as Regex
from gui_agent.task.checks import (
    CHECK_TYPES,
    AllOfCheck,
    AnswerEqualsArgs,
    AnswerEqualsCheck,
    AnyOfCheck,
    Check,
    ElementTextArgs,
    ElementTextCheck,
    ElementValueArgs,
    ElementValueCheck,
    JsTruthyArgs,
    JsTruthyCheck,
    MiniwobRewardArgs,
    MiniwobRewardCheck,
    NotCheck,
    PageContainsArgs,
    PageContainsCheck,
    UrlMatchesArgs,
    UrlMatchesCheck,
)
from gui_agent.task.desktop_checks import (
    DESKTOP_CHECK_TYPES,
    CellFormulaArgs,
    CellFormulaCheck,
    CellRangeArgs,
    CellRangeCheck,
    CellStyleArgs,
    CellStyleCheck,
    CellValueArgs,
    CellValueCheck,
    EmailReceivedArgs,
    EmailReceivedCheck,
    FileContainsArgs,
    FileContainsCheck,
    FileEqualArgs,
    FileEqualCheck,
    FileExistsArgs,
    FileExistsCheck,
    SheetDataEqualArgs,
    SheetDataEqualCheck,
    SheetLayoutArgs,
    SheetLayoutCheck,
    SheetNamesArgs,
    SheetNamesCheck,
)
from gui_agent.task.desktop_steps import (
    DESKTOP_STEP_TYPES,
    ActivateWindowArgs,
    ActivateWindowStep,
    CloseWindowArgs,
    CloseWindowStep,
    DeliverMailArgs,
    DeliverMailStep,
    HotkeyArgs,
    HotkeyStep,
    LaunchArgs,
    LaunchStep,
    MailAttachment,
    OpenFileArgs,
    OpenFileStep,
    PlaceFileArgs,
    PlaceFileStep,
    RunCommandArgs,
    RunCommandStep,
    WaitForFileArgs,
    WaitForFileStep,
    WaitForWindowArgs,
    WaitForWindowStep,
)
from gui_agent.task.dumping import dump_task
from gui_agent.task.environments import (
    MINIWOB_URL_PREFIX,
    MINIWOB_VIEWPORT,
    BrowserEnvironment,
    DesktopEnvironment,
    Environment,
    MailSettings,
    Observe,
    Screen,
    Viewport,
)
from gui_agent.task.loading import load_task, load_task_text
from gui_agent.task.miniwob_pages import miniwob_html_dir, miniwob_task_file, miniwob_task_names
from gui_agent.task.setup_steps import (
    STEP_TYPES,
    ClickArgs,
    ClickStep,
    FillArgs,
    FillStep,
    GotoArgs,
    GotoStep,
    RunJsArgs,
    RunJsStep,
    SetupStep,
    SleepArgs,
    SleepStep,
    WaitForArgs,
    WaitForStep,
)
from gui_agent.task.spec import DoomLoop, Guards, Limits, Task
from gui_agent.task.spec import KeyCombo as KeyCombo  # not in __all__, as before

__all__ = [
    "CHECK_TYPES",
    "DESKTOP_CHECK_TYPES",
    "DESKTOP_STEP_TYPES",
    "MINIWOB_URL_PREFIX",
    "MINIWOB_VIEWPORT",
    "STEP_TYPES",
    "ActivateWindowArgs",
    "ActivateWindowStep",
    "AllOfCheck",
    "AnswerEqualsArgs",
    "AnswerEqualsCheck",
    "AnyOfCheck",
    "BrowserEnvironment",
    "CellFormulaArgs",
    "CellFormulaCheck",
    "CellRangeArgs",
    "CellRangeCheck",
    "CellStyleArgs",
    "CellStyleCheck",
    "CellValueArgs",
    "CellValueCheck",
    "Check",
    "ClickArgs",
    "ClickStep",
    "CloseWindowArgs",
    "CloseWindowStep",
    "DeliverMailArgs",
    "DeliverMailStep",
    "DesktopEnvironment",
    "DoomLoop",
    "ElementTextArgs",
    "ElementTextCheck",
    "ElementValueArgs",
    "ElementValueCheck",
    "EmailReceivedArgs",
    "EmailReceivedCheck",
    "Environment",
    "FileContainsArgs",
    "FileContainsCheck",
    "FileEqualArgs",
    "FileEqualCheck",
    "FileExistsArgs",
    "FileExistsCheck",
    "FillArgs",
    "FillStep",
    "GotoArgs",
    "GotoStep",
    "Guards",
    "HotkeyArgs",
    "HotkeyStep",
    "JsTruthyArgs",
    "JsTruthyCheck",
    "LaunchArgs",
    "LaunchStep",
    "Limits",
    "MailAttachment",
    "MailSettings",
    "MiniwobRewardArgs",
    "MiniwobRewardCheck",
    "NotCheck",
    "Observe",
    "OpenFileArgs",
    "OpenFileStep",
    "PageContainsArgs",
    "PageContainsCheck",
    "PlaceFileArgs",
    "PlaceFileStep",
    "RunCommandArgs",
    "RunCommandStep",
    "RunJsArgs",
    "RunJsStep",
    "Screen",
    "SetupStep",
    "SheetDataEqualArgs",
    "SheetDataEqualCheck",
    "SheetLayoutArgs",
    "SheetLayoutCheck",
    "SheetNamesArgs",
    "SheetNamesCheck",
    "SleepArgs",
    "SleepStep",
    "Task",
    "UrlMatchesArgs",
    "UrlMatchesCheck",
    "Viewport",
    "WaitForArgs",
    "WaitForFileArgs",
    "WaitForFileStep",
    "WaitForStep",
    "WaitForWindowArgs",
    "WaitForWindowStep",
    "dump_task",
    "load_task",
    "load_task_text",
    "miniwob_html_dir",
    "miniwob_task_file",
    "miniwob_task_names",
]
