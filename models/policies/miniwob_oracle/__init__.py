"""A scripted MiniWoB++ oracle: reads the instruction and the DOM, acts in pixels.

It makes demonstrations for pixel-in policies, so it emits only canonical actions (clicks
at element centres, typing, keys, drags, scrolls) and never touches the page by script.
Each task has a small solver function; :data:`SOLVERS` maps task names to them.

Example:
    >>> policy = MiniWobOraclePolicy()
    >>> policy.reset(TaskContext(task_id="miniwob/click-button", instruction=""))
    >>> output = policy.act(observation)  # observation from MiniWobEnv(observe_dom=True)
"""

from gui_agent.models.errors import OracleError
from gui_agent.models.policies.miniwob_oracle.page import PageView, Plan
from gui_agent.models.policies.miniwob_oracle.policy import MiniWobOraclePolicy, UnsupportedTaskError, task_name
from gui_agent.models.policies.miniwob_oracle.registry import SOLVERS, SUPPORTED_TASKS

__all__ = [
    "MiniWobOraclePolicy",
    "OracleError",
    "PageView",
    "Plan",
    "SOLVERS",
    "SUPPORTED_TASKS",
    "UnsupportedTaskError",
    "task_name",
]
