"""The oracle as a :class:`gui_agent.policy.Policy`."""

from __future__ import annotations

from gui_agent.actions import Done, Scroll
from gui_agent.envs.base import Observation
from gui_agent.policy import PolicyOutput, TaskContext
from gui_agent.models.errors import OracleError, UnsupportedTaskError
from gui_agent.models.policies.miniwob_oracle.page import PageView, Plan
from gui_agent.models.policies.miniwob_oracle.registry import SOLVERS, SUPPORTED_TASKS


def task_name(task_id: str) -> str:
    """The MiniWoB++ task of a task id: 'miniwob/click-button', 'miniwob.click-button',
    'miniwob:click-button' and 'click-button' all name 'click-button'."""
    name = task_id.rsplit("/", 1)[-1].rsplit(":", 1)[-1].removesuffix(".html")
    return name.removeprefix("miniwob.")


def _restore_view(page: PageView) -> Plan | None:
    """Some pages scroll the window sideways on start (a dialog taking focus pushes the
    160 px task area out of a 160 px viewport); scroll it back before anything else."""
    wrap = page.find(id="wrap")
    if not wrap or abs(wrap[0]["bbox"][0]) < 1:
        return None
    x = wrap[0]["bbox"][0]
    notches = -(int(-x) // 100 + 1) if x < 0 else int(x) // 100 + 1  # wheel clicks are 100 px
    width, height = page.viewport
    return Plan("scroll the task back into view", [Scroll(width // 2, height // 2, dx=notches)])


class MiniWobOraclePolicy:
    """Solves the supported MiniWoB++ tasks from ``instruction`` + ``dom``.

    Needs observations with the DOM (``MiniWobEnv(observe_dom=True)``). Each call re-reads
    the page and returns the next one or few actions; the only episode state is the task
    name, set by :meth:`reset`. A page the solver cannot make sense of ends the episode
    with ``done(success=False)`` and the reason in the thought and ``info["oracle_error"]``.
    """

    name = "miniwob-oracle"

    def __init__(self) -> None:
        self._task: str | None = None

    def reset(self, task: TaskContext) -> None:
        name = task_name(task.task_id)
        if name not in SOLVERS:
            raise UnsupportedTaskError(
                f"the MiniWoB++ oracle cannot solve {task.task_id!r}; supported tasks: {', '.join(SUPPORTED_TASKS)}"
            )
        self._task = name

    def act(self, observation: Observation) -> PolicyOutput:
        if self._task is None:
            raise RuntimeError("MiniWobOraclePolicy.act() before reset(): the task is unknown")
        if observation.dom is None:
            raise ValueError("the MiniWoB++ oracle needs the DOM: observe it (observe: {dom: true})")
        height, width = observation.screenshot.shape[:2]
        page = PageView(observation.dom, viewport=(width, height))
        try:
            plan = _restore_view(page) or SOLVERS[self._task](observation.instruction, page)
        except OracleError as exc:
            thought = f"oracle failed on {self._task}: {exc}"
            return PolicyOutput(actions=[Done(success=False)], thought=thought, info={"oracle_error": str(exc)})
        if not plan.actions:
            raise RuntimeError(f"solver for {self._task} returned no actions ({plan.thought})")
        return PolicyOutput(actions=list(plan.actions), thought=plan.thought, info={"task": self._task})
