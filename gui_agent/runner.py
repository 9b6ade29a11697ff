"""Running one episode: environment, guards, policy, budgets, evaluation, the written trajectory.

The runner owns the order of things so every caller (``gui-agent run``, evaluation at
scale, replay) gets the same guarantees: the episode is written step by step in the
trajectory format; the task's guards wrap the environment (:mod:`gui_agent.guards`); a
budget (steps, time, tokens) ends it as ``truncated`` with the reason; a broken
environment is reported as an environment failure, classified ``dead`` or ``hung``, and
never as the agent's; the evaluator's verdict (with its detail, and any guard events)
lands in the episode's outcome. :func:`run_with_retries` adds the recovery: after an
environment failure the environment is torn down, rebuilt and the episode run again, up
to a limit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from gui_agent.actions import Done, action_to_text
from gui_agent.checks.evaluation import EvalResult, evaluate
from gui_agent.envs.base import Env, Observation
from gui_agent.envs.factory import make_env
from gui_agent.episode import ActorInfo, EpisodeWriter, FrameFormat, Outcome, TaskInfo
from gui_agent.episode.labels import SEED
from gui_agent.episode.observed import observed_info
from gui_agent.errors import (
    ActionParseError,
    EnvDiedError,
    EnvError,
    EnvHungError,
    GuiAgentError,
    PageError,
    PolicyRequestError,
    PolicyServiceError,
)
from gui_agent.guards import Budget, BudgetMeter, EnvWrapper, OnLoop, guard_env
from gui_agent.policy import Policy, PolicyOutput, TaskContext
from gui_agent.task import Task

#: Called after every step with (step index, max steps, action text, error or None).
StepCallback = Callable[[int, int, str, "str | None"], None]


@dataclass
class RunResult:
    """What happened in one episode; the same facts are in the episode's episode.json.

    ``fault`` classifies an environment failure: ``dead`` (its process is gone), ``hung``
    (no answer within the step timeout), ``setup`` (the task could not be set up) or
    ``error`` (anything else). ``attempts`` and ``env_failures`` are filled by
    :func:`run_with_retries`: every failed attempt with its fault, reason and episode folder.
    ``judged`` is False when nothing judged the episode (the task has no evaluator): its
    episode.json says ``success: null``, and ``success`` is False only for want of a verdict.
    """

    task_id: str
    seed: int | None
    episode_path: Path
    success: bool
    reward: float
    steps: int
    duration_s: float
    termination: str
    reason: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    fault: str | None = None
    usage: dict[str, float] = field(default_factory=dict)
    guard_events: list[dict[str, Any]] = field(default_factory=list)
    attempts: int = 1
    env_failures: list[dict[str, Any]] = field(default_factory=list)
    judged: bool = True

    @property
    def env_failed(self) -> bool:
        """True when the environment broke: the episode says nothing about the agent."""
        return self.termination == "env_error"

    @property
    def service_failed(self) -> bool:
        """True when the policy's model service stayed down: the episode says nothing about the agent."""
        return self.termination == "service_error"


def fault_kind(exc: BaseException) -> str:
    """``dead``, ``hung``, ``setup`` or ``error``: what kind of environment failure ``exc`` is."""
    if isinstance(exc, EnvDiedError):
        return "dead"
    if isinstance(exc, EnvHungError):
        return "hung"
    return "setup" if isinstance(exc, PageError) else "error"


def _env_failure(exc: BaseException, reason: str | None = None) -> Outcome:
    return Outcome(success=None, termination="env_error", reason=reason or str(exc),
                   detail={"fault": fault_kind(exc), "error_type": type(exc).__name__})


def run_episode(
    task: Task,
    policy: Policy,
    *,
    out_dir: str | Path,
    seed: int | None = None,
    env: Env | None = None,
    headless: bool | None = None,
    display: str | None = None,
    on_step: StepCallback | None = None,
    budget: Budget | None = None,
    on_loop: OnLoop = "stop",
    frame_format: FrameFormat = "png",
) -> RunResult:
    """Run ``policy`` on ``task`` once and write the episode under ``out_dir``.

    Args:
        task: a loaded task file.
        policy: anything following :class:`gui_agent.policy.Policy`.
        out_dir: folder the episode folder is created in.
        seed: environment seed (MiniWoB++ pages generate their instance from it).
        env: reuse an open environment instead of building one from the task (the
            caller then closes it). The task's guards are wrapped around it either way.
        headless / display: override the task's browser display settings.
        on_step: progress callback.
        budget: what the episode may spend (default: the task's limits, tokens included).
        on_loop: what the doom-loop guard does, ``"stop"`` the episode or ``"warn"`` the policy.
        frame_format: how the episode's frames are stored, ``png`` or (lossless, much smaller) ``webp``.

    Returns:
        The result; the episode folder is complete (or ``env_error``) in every case
        except a crash of this process, which leaves a recoverable ``recording`` episode.

    Raises:
        PolicyTaskError: the policy cannot act on this task at all (its ``reset`` said
            so); no episode is written.
    """
    owns_env = env is None
    if env is None:
        env = make_env(task, headless=headless, display=display)
    guarded = guard_env(env, task.guards, on_loop=on_loop)
    meter = BudgetMeter(budget or Budget.from_limits(task.limits))
    writer: EpisodeWriter | None = None
    try:
        try:
            obs, _ = guarded.reset(seed=seed, options={"setup": list(task.setup)})
        except (EnvError, PageError) as exc:
            # A task that cannot even start is never the agent's failure.
            writer = _create_writer(task, env, policy, out_dir, seed, instruction=task.instruction or "", frame_format=frame_format)
            reason = f"setup failed: {exc}" if isinstance(exc, PageError) else str(exc)
            return _finish(writer, task, seed, meter, _env_failure(exc, reason), [])
        instruction = task.instruction or obs.instruction
        # Before the episode is written: a policy that cannot act on this task at all
        # (PolicyTaskError) leaves no episode behind, and is the caller's bad input.
        policy.reset(TaskContext(task_id=task.id, instruction=instruction, seed=seed))
        writer = _create_writer(task, env, policy, out_dir, seed, instruction=instruction, frame_format=frame_format)
        outcome = _loop(task, policy, guarded, writer, obs, meter, on_step)
        events = guarded.finish_episode() if isinstance(guarded, EnvWrapper) and outcome.termination != "env_error" else []
        return _finish(writer, task, seed, meter, outcome, [e.to_dict() for e in events])
    finally:
        if owns_env:
            env.close()


def _create_writer(task: Task, env: Env, policy: Policy, out_dir: str | Path, seed: int | None, *, instruction: str,
                   frame_format: FrameFormat = "png") -> EpisodeWriter:
    labels: dict[str, Any] = {}
    if seed is not None:
        SEED.set(labels, seed)
    return EpisodeWriter.create(
        out_dir,
        task=TaskInfo(id=task.id, instruction=instruction, source=task.source),
        env=env.env_info(),
        actor=ActorInfo(type="policy", name=policy.name),
        labels=labels,
        frame_format=frame_format,
    )


def _loop(task: Task, policy: Policy, env: Env, writer: EpisodeWriter, obs: Observation, meter: BudgetMeter, on_step: StepCallback | None) -> Outcome:
    max_steps = meter.budget.max_steps or task.limits.max_steps
    answer: str | None = None
    while True:
        spent = meter.exhausted()
        if spent is not None:
            writer.add_final_frame(obs.screenshot)
            return _evaluated(task, env, answer, Outcome(termination="truncated", reason=spent))
        policy_started = time.monotonic()
        try:
            decision: PolicyOutput = policy.act(obs)
        except ActionParseError as exc:
            writer.add_final_frame(obs.screenshot)
            return Outcome(success=False, reward=0.0, termination="agent_error", reason=f"unparseable policy output: {exc.reason}", detail={"raw": exc.raw})
        except EnvError as exc:  # a policy that reads the environment (the replayer's locators) found it broken
            writer.add_final_frame(obs.screenshot)
            return _env_failure(exc)
        except PolicyServiceError as exc:
            writer.add_final_frame(obs.screenshot)
            fault = "refused" if isinstance(exc, PolicyRequestError) else "unavailable"
            return Outcome(success=None, termination="service_error", reason=f"policy service: {exc}",
                           detail={"fault": fault, "error_type": type(exc).__name__})
        except Exception as exc:  # noqa: BLE001 - a crashing policy is the agent's failure, not the run's
            writer.add_final_frame(obs.screenshot)
            return Outcome(success=False, reward=0.0, termination="agent_error", reason=f"the policy raised {type(exc).__name__}: {exc}")
        policy_s = time.monotonic() - policy_started
        meter.charge(decision.usage)
        seen = obs  # what the policy decided on (its marks name the elements of mark clicks)
        for position, action in enumerate(decision.actions):
            frame_before = obs.screenshot
            try:
                obs, reward, terminated, truncated, info = env.step(action)
            except EnvError as exc:
                writer.add_step(action, frame_before=frame_before, thought=decision.thought, error=f"environment failed: {exc}")
                return _env_failure(exc)
            meter.steps += 1
            step_info = _step_info(decision, info, position, seen)
            writer.add_step(
                action,
                frame_before=frame_before,
                thought=decision.thought if position == 0 else None,
                usage=decision.usage if position == 0 else None,
                reward=reward,
                error=obs.last_action_error,
                timings={"policy_s": round(policy_s if position == 0 else 0.0, 6), **{k: round(v, 6) for k, v in obs.timings.items()}},
                info=step_info,
            )
            if on_step is not None:
                on_step(writer.n_steps, max_steps, action_to_text(action), obs.last_action_error)
            if isinstance(action, Done):
                answer = action.answer
            if terminated or truncated or isinstance(action, Done):
                writer.add_final_frame(obs.screenshot)
                if info.get("stop_reason"):
                    reason = str(info["stop_reason"])
                else:
                    reason = "the policy said done" if isinstance(action, Done) else "the environment ended the episode"
                return _evaluated(task, env, answer, Outcome(termination="truncated" if truncated else "done", reason=reason))
            if meter.exhausted() is not None:
                break  # the rest of a multi-action decision is not run


def _step_info(decision: PolicyOutput, info: dict[str, Any], position: int, seen: Observation) -> dict[str, Any]:
    """The step record's ``info``: the policy's raw reply and what it saw besides pixels (with
    the decision's first action), guard events, and the point a mark click resolved to."""
    step_info: dict[str, Any] = {"raw": decision.raw} if decision.raw and position == 0 else {}
    if info.get("guard_events"):
        step_info["guard_events"] = info["guard_events"]
    if position == 0 and (observed := observed_info(getattr(seen, "marks", None), decision.info)):
        step_info["observed"] = observed
    if "resolved_action" in info:
        step_info["resolved_action"] = info["resolved_action"]
    return step_info


def _evaluated(task: Task, env: Env, answer: str | None, outcome: Outcome) -> Outcome:
    """Fill the outcome with the evaluator's verdict; an env failure while judging is an env_error."""
    if task.evaluator is None:
        return outcome.model_copy(update={"detail": {"reason": "the task has no evaluator"}})
    try:
        env.run_steps(list(task.post_steps))
    except EnvError as exc:
        return _env_failure(exc, f"post step failed: {exc}")
    except GuiAgentError as exc:
        # The environment is fine but the state the agent left lets a post step (say,
        # saving the file) fail: that is a failed task, judged and recorded, not a crash.
        return outcome.model_copy(update={"success": False, "reward": 0.0, "detail": {"post_step_error": str(exc)}})
    try:
        result: EvalResult = evaluate(task.evaluator, env, answer=answer)  # type: ignore[arg-type]
    except EnvError as exc:
        return _env_failure(exc, f"evaluation failed: {exc}")
    return outcome.model_copy(update={"success": result.success, "reward": result.reward, "detail": result.detail})


def _finish(writer: EpisodeWriter, task: Task, seed: int | None, meter: BudgetMeter, outcome: Outcome, events: list[dict[str, Any]]) -> RunResult:
    if events:
        detail = dict(outcome.detail) if isinstance(outcome.detail, dict) else {"evaluator": outcome.detail}
        detail["guards"] = events
        update: dict[str, Any] = {"detail": detail}
        violations = [e["message"] for e in events if e["kind"] == "violation"]
        if violations:  # the task may be done, but not like this
            update.update(success=False, reason="; ".join([outcome.reason or "", "guard violation: " + "; ".join(violations)]).lstrip("; "))
        outcome = outcome.model_copy(update=update)
    meta = writer.finalize(outcome)
    return RunResult(
        task_id=task.id,
        seed=seed,
        episode_path=writer.path,
        success=bool(outcome.success),
        reward=float(outcome.reward or 0.0),
        steps=meta.stats.steps,
        duration_s=round(time.monotonic() - meter.started, 3),
        termination=outcome.termination or "done",
        reason=outcome.reason,
        detail=outcome.detail if isinstance(outcome.detail, dict) else {},
        fault=outcome.detail.get("fault") if outcome.termination in ("env_error", "service_error") and isinstance(outcome.detail, dict) else None,
        usage=meter.usage(),
        guard_events=events,
        judged=outcome.success is not None or outcome.termination in ("env_error", "service_error"),
    )


class EnvSlot:
    """Keeps one environment open across episodes, and rebuilds it on demand.

    :meth:`get` returns the open environment when the task needs the same one (same
    environment section and limits). A MiniWoB++ environment is switched to another
    MiniWoB++ task with otherwise equal settings in the same browser (its next reset
    opens a fresh context on the new page); anything else is closed and the task's own
    built. :meth:`discard` tears the environment down (the browser is killed by PID), so
    the next :meth:`get` starts afresh.
    """

    def __init__(self, *, headless: bool | None = None, display: str | None = None) -> None:
        self.headless = headless
        self.display = display
        self.env: Env | None = None
        self._key: str | None = None
        self._task: Task | None = None

    @staticmethod
    def _keys(task: Task) -> tuple[str, str | None]:
        """(exact key, key without the MiniWoB++ page or None when not a MiniWoB++ task).

        The key holds what :func:`~gui_agent.envs.factory.make_env` builds the environment
        from, and nothing else: the environment section, the step timeout and, for a
        desktop, the task's folder (its setup files). A task's other limits (steps, episode
        time) are the runner's, so tasks that differ only in those share the environment (a
        MiniWoB++ suite switches pages in one browser instead of starting one per task)."""
        spec = task.environment
        built_from = f"|step_timeout_s={task.limits.step_timeout_s}"
        if spec.kind == "desktop":
            built_from += f"|task_dir={task.task_dir}"
        exact = spec.model_dump_json() + built_from
        if getattr(spec, "miniwob_task", None) is None:
            return exact, None
        return exact, spec.model_copy(update={"url": "miniwob:"}).model_dump_json() + built_from

    def get(self, task: Task) -> Env:
        exact, shape = self._keys(task)
        if self.env is not None and exact != self._key:
            _, old_shape = self._keys(self._task) if self._task is not None else (None, None)
            switch = getattr(self.env, "switch_task", None)
            if shape is not None and shape == old_shape and switch is not None:
                switch(task.environment.miniwob_task)  # type: ignore[union-attr]
                self._key, self._task = exact, task
            else:
                self.discard()
        if self.env is None:
            self.env = make_env(task, headless=self.headless, display=self.display)
            self._key, self._task = exact, task
        return self.env

    def discard(self) -> None:
        env, self.env, self._key, self._task = self.env, None, None, None
        if env is not None:
            env.close()

    close = discard


def run_with_retries(
    task: Task,
    policy: Policy,
    *,
    slot: EnvSlot,
    out_dir: str | Path,
    seed: int | None = None,
    max_attempts: int = 3,
    **options: Any,
) -> RunResult:
    """:func:`run_episode`, run again in a rebuilt environment after each environment failure.

    Every attempt writes its own episode folder under ``out_dir``. The result is the last
    attempt's, with ``attempts`` and ``env_failures`` (attempt, fault, reason, episode of
    every failed attempt, the last one included); it is still ``env_error`` if all
    ``max_attempts`` failed. ``options`` go to
    :func:`run_episode` (budget, on_loop, on_step).
    """
    failures: list[dict[str, Any]] = []
    for attempt in range(1, max_attempts + 1):
        result = run_episode(task, policy, out_dir=out_dir, seed=seed, env=slot.get(task), **options)
        if not result.env_failed:
            break
        failures.append({"attempt": attempt, "fault": result.fault, "reason": result.reason, "episode": str(result.episode_path)})
        slot.discard()  # torn down; the next attempt gets a fresh environment
    result.attempts = attempt
    result.env_failures = failures
    return result
