"""Running one episode: environment, policy, limits, evaluation, and the written trajectory.

The runner owns the order of things so every caller (``gui-agent run``, evaluation at
scale, replay) gets the same guarantees: the episode is written step by step in the
trajectory format, limits end it as ``truncated`` with the reason, a broken environment
is reported as an environment failure and never as the agent's, and the evaluator's
verdict (with its detail) lands in the episode's outcome.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from gui_agent.actions import Done, action_to_text
from gui_agent.envs.base import Env, Observation
from gui_agent.envs.factory import make_env
from gui_agent.episode import ActorInfo, EpisodeWriter, Outcome, TaskInfo
from gui_agent.errors import ActionParseError, EnvError, PageError
from gui_agent.evaluation import EvalResult, evaluate
from gui_agent.policy import Policy, PolicyOutput, TaskContext
from gui_agent.task import Task

#: Called after every step with (step index, max steps, action text, error or None).
StepCallback = Callable[[int, int, str, "str | None"], None]


@dataclass
class RunResult:
    """What happened in one episode; the same facts are in the episode's episode.json."""

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

    @property
    def env_failed(self) -> bool:
        """True when the environment broke: the episode says nothing about the agent."""
        return self.termination == "env_error"


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
) -> RunResult:
    """Run ``policy`` on ``task`` once and write the episode under ``out_dir``.

    Args:
        task: a loaded task file.
        policy: anything following :class:`gui_agent.policy.Policy`.
        out_dir: folder the episode folder is created in.
        seed: environment seed (MiniWoB++ pages generate their instance from it).
        env: reuse an open environment instead of building one from the task (the
            caller then closes it).
        headless / display: override the task's browser display settings.
        on_step: progress callback.

    Returns:
        The result; the episode folder is complete (or ``env_error``) in every case
        except a crash of this process, which leaves a recoverable ``recording`` episode.
    """
    owns_env = env is None
    if env is None:
        env = make_env(task, headless=headless, display=display)
    started = time.monotonic()
    writer: EpisodeWriter | None = None
    try:
        try:
            obs, _ = env.reset(seed=seed, options={"setup": list(task.setup)})
        except (EnvError, PageError) as exc:
            # A task that cannot even start is never the agent's failure.
            writer = _create_writer(task, env, policy, out_dir, seed, instruction=task.instruction or "")
            reason = f"setup failed: {exc}" if isinstance(exc, PageError) else str(exc)
            return _finish(writer, task, seed, started, Outcome(success=None, termination="env_error", reason=reason))
        instruction = task.instruction or obs.instruction
        writer = _create_writer(task, env, policy, out_dir, seed, instruction=instruction)
        policy.reset(TaskContext(task_id=task.id, instruction=instruction, seed=seed))
        outcome = _loop(task, policy, env, writer, obs, started, on_step)
        return _finish(writer, task, seed, started, outcome)
    finally:
        if owns_env:
            env.close()


def _create_writer(task: Task, env: Env, policy: Policy, out_dir: str | Path, seed: int | None, *, instruction: str) -> EpisodeWriter:
    return EpisodeWriter.create(
        out_dir,
        task=TaskInfo(id=task.id, instruction=instruction, source=task.source),
        env=env.env_info(),
        actor=ActorInfo(type="policy", name=policy.name),
        labels={"seed": seed} if seed is not None else {},
    )


def _loop(task: Task, policy: Policy, env: Env, writer: EpisodeWriter, obs: Observation, started: float, on_step: StepCallback | None) -> Outcome:
    limits = task.limits
    answer: str | None = None
    while True:
        if writer.n_steps >= limits.max_steps:
            writer.add_final_frame(obs.screenshot)
            return _evaluated(task, env, answer, Outcome(termination="truncated", reason=f"step limit reached ({limits.max_steps} steps)"))
        if time.monotonic() - started >= limits.episode_timeout_s:
            writer.add_final_frame(obs.screenshot)
            return _evaluated(task, env, answer, Outcome(termination="truncated", reason=f"episode time limit reached ({limits.episode_timeout_s:g} s)"))
        policy_started = time.monotonic()
        try:
            decision: PolicyOutput = policy.act(obs)
        except ActionParseError as exc:
            writer.add_final_frame(obs.screenshot)
            return Outcome(success=False, reward=0.0, termination="agent_error", reason=f"unparseable policy output: {exc.reason}", detail={"raw": exc.raw})
        policy_s = time.monotonic() - policy_started
        for position, action in enumerate(decision.actions):
            frame_before = obs.screenshot
            try:
                obs, reward, terminated, truncated, _info = env.step(action)
            except EnvError as exc:
                writer.add_step(action, frame_before=frame_before, thought=decision.thought, error=f"environment failed: {exc}")
                return Outcome(success=None, termination="env_error", reason=str(exc))
            writer.add_step(
                action,
                frame_before=frame_before,
                thought=decision.thought if position == 0 else None,
                usage=decision.usage if position == 0 else None,
                reward=reward,
                error=obs.last_action_error,
                timings={"policy_s": round(policy_s if position == 0 else 0.0, 6), **{k: round(v, 6) for k, v in obs.timings.items()}},
                info={"raw": decision.raw} if decision.raw and position == 0 else {},
            )
            if on_step is not None:
                on_step(writer.n_steps, limits.max_steps, action_to_text(action), obs.last_action_error)
            if isinstance(action, Done):
                answer = action.answer
            if terminated or truncated or isinstance(action, Done):
                writer.add_final_frame(obs.screenshot)
                reason = "the policy said done" if isinstance(action, Done) else "the environment ended the episode"
                return _evaluated(task, env, answer, Outcome(termination="truncated" if truncated else "done", reason=reason))
            if writer.n_steps >= limits.max_steps:
                break


def _evaluated(task: Task, env: Env, answer: str | None, outcome: Outcome) -> Outcome:
    """Fill the outcome with the evaluator's verdict; an env failure while judging is an env_error."""
    if task.evaluator is None:
        return outcome.model_copy(update={"detail": {"reason": "the task has no evaluator"}})
    try:
        env.run_steps(list(task.post_steps))
        result: EvalResult = evaluate(task.evaluator, env, answer=answer)  # type: ignore[arg-type]
    except EnvError as exc:
        return outcome.model_copy(update={"success": None, "termination": "env_error", "reason": f"evaluation failed: {exc}"})
    return outcome.model_copy(update={"success": result.success, "reward": result.reward, "detail": result.detail})


def _finish(writer: EpisodeWriter, task: Task, seed: int | None, started: float, outcome: Outcome) -> RunResult:
    meta = writer.finalize(outcome)
    return RunResult(
        task_id=task.id,
        seed=seed,
        episode_path=writer.path,
        success=bool(outcome.success),
        reward=float(outcome.reward or 0.0),
        steps=meta.stats.steps,
        duration_s=round(time.monotonic() - started, 3),
        termination=outcome.termination or "done",
        reason=outcome.reason,
        detail=outcome.detail if isinstance(outcome.detail, dict) else {},
    )
