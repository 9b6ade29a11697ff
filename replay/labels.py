"""Step labels from executing prefixes: which step made the task impossible to finish.

Definitions, for a source trajectory with original steps ``a_0 .. a_{n-1}`` that succeeds,
and a variant with planned steps ``b_0 .. b_{m-1}`` (each carrying out original step
``orig(b_k)``, or none):

* ``remaining(k)`` = the original steps no step of ``b_0 .. b_k`` carries out, in their
  original order.
* ``feasible(k)`` = executing ``b_0 .. b_k`` and then ``remaining(k)`` from the task's start
  state (same seed) is judged a success by the task's evaluator. ``feasible(-1)`` is the
  source's own success (checked by replaying it first).

Label of step ``b_k``:

* ``harmful``  -- ``feasible(k-1)`` and not ``feasible(k)``: after it the remaining original
  steps can no longer finish the task (the first such step, and any later one that breaks a
  state a correction had restored);
* ``progress`` -- not ``feasible(k-1)`` and ``feasible(k)`` (a correction), or both feasible
  and the step carries out an original step;
* ``neutral``  -- both feasible and the step is not one of the original ones (a redundant or
  foreign step that did no damage), or neither is feasible (nothing left to lose).

A final ``done`` (the variant's own end, or the early stop) is judged by the episode: with
``feasible(k-1)`` it is ``progress`` when the episode succeeded and ``harmful`` when it
failed (it gave up a task that could still be finished); otherwise ``neutral``.

A step a person marked as a mistake in review (``StepRecord.info["mistake"]``, set by
:mod:`gui_agent.episode.edit`) is labelled ``harmful`` whatever the executions say, and so
is every variant step that carries it out: the person saw the step was wrong even where
the task could still be finished (a detour, a wrong cell typed over later). Its sample's
``source`` is ``human`` and its ``detail`` says ``mistake: true``.

Executions are memoised on the exact action sequence (with a seed the start state is
the same, so the same actions give the same verdict); the variant's own episode gives the
last one for free when nothing original remains.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gui_agent.actions import Action, Done, action_to_text
from gui_agent.episode import Episode
from gui_agent.export.reward import LABEL_REWARD
from gui_agent.replay.perturb import PlannedStep

#: Runs an action sequence from the start state and says whether the evaluator accepted it.
Judge = Callable[[list[Action]], bool]


@dataclass(frozen=True)
class StepVerdict:
    """One step's label with the facts it came from."""

    label: str
    feasible_before: bool
    feasible_after: bool
    #: a person marked the original step it carries out as a mistake
    mistake: bool = False

    @property
    def reward(self) -> float:
        return LABEL_REWARD[self.label]


class FeasibilityCache:
    """Memoises :data:`Judge` calls on the action sequence; counts the executions it saved."""

    def __init__(self, judge: Judge) -> None:
        self.judge = judge
        self.results: dict[tuple[str, ...], bool] = {}
        self.executed = 0

    def __call__(self, actions: list[Action]) -> bool:
        key = tuple(action_to_text(a) for a in actions)
        if key not in self.results:
            self.executed += 1
            self.results[key] = self.judge(actions)
        return self.results[key]

    def remember(self, actions: list[Action], success: bool) -> None:
        self.results.setdefault(tuple(action_to_text(a) for a in actions), success)


def remaining_after(original: Sequence[Action], planned: Sequence[PlannedStep]) -> list[Action]:
    """The original steps none of ``planned`` carries out, in their original order."""
    done = {s.original for s in planned if s.original is not None}
    return [a for i, a in enumerate(original) if i not in done]


def label_steps(
    original: Sequence[Action],
    planned: Sequence[PlannedStep],
    executed_steps: int,
    episode_success: bool,
    feasible: FeasibilityCache,
) -> list[StepVerdict]:
    """Labels of the first ``executed_steps`` steps of a variant (see the module doc).

    ``executed_steps`` may exceed ``len(planned)`` by one: the final ``done`` the variant's
    policy adds. ``episode_success`` is the variant episode's own verdict.
    """
    verdicts: list[StepVerdict] = []
    before = True
    for k in range(executed_steps):
        step = planned[k] if k < len(planned) else PlannedStep(Done(success=True), None)
        if isinstance(step.action, Done):
            label = ("progress" if episode_success else "harmful") if before else "neutral"
            verdicts.append(StepVerdict(label, before, episode_success))
            break
        prefix = [s.action for s in planned[: k + 1]]
        if k == len(planned) - 1 and episode_success:
            after = True  # the variant's own execution finished the task: nothing to add after it
        else:
            after = feasible(prefix + remaining_after(original, planned[: k + 1]))
        if before and not after:
            label = "harmful"
        elif not before and after:
            label = "progress"
        elif before and after:
            label = "progress" if step.original is not None else "neutral"
        else:
            label = "neutral"
        verdicts.append(StepVerdict(label, before, after))
        before = after
    return verdicts


#: The label of a step a person marked as a mistake.
MISTAKE_LABEL = "harmful"


def marked_mistakes(episode: Episode) -> frozenset[int]:
    """Indices of the steps a person marked as a mistake (``info["mistake"]`` true)."""
    return frozenset(step.index for step in episode.steps if step.info.get("mistake") is True)


def with_mistakes(verdicts: Sequence[StepVerdict], planned: Sequence[PlannedStep], mistakes: frozenset[int]) -> list[StepVerdict]:
    """``verdicts`` with every step that carries out an original step in ``mistakes`` labelled :data:`MISTAKE_LABEL`."""
    out = []
    for k, verdict in enumerate(verdicts):
        original = planned[k].original if k < len(planned) else None
        if original is not None and original in mistakes:
            verdict = StepVerdict(MISTAKE_LABEL, verdict.feasible_before, verdict.feasible_after, mistake=True)
        out.append(verdict)
    return out
