"""``gui-agent train rl SUITE... --out DIR``: online reinforcement learning of the pixel policy or an ``hf:`` VLM (LoRA).

The loop lives in :mod:`gui_agent.models.rl.loop` and is imported inside the handler, so
``gui-agent --help`` never loads torch.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from gui_agent.cli.arguments import positive_float, positive_int
from gui_agent.cli.failure import fail
from gui_agent.cli.progress import progress_bar

EXAMPLES = """\
examples:
  gui-agent train rl datasets/tasks/miniwob-pixel/click-option.yaml --updates 2 --group-size 4 --groups-per-update 1 --out runs/rl-demo
  gui-agent run datasets/tasks/miniwob/click-option.yaml --policy pixel:runs/rl-demo/policy.pt --seeds 0-4 --out runs/rl-demo-check
  gui-agent train rl miniwob-pixel --workers 2 --time-budget 50 --out runs/rl-pixel
  gui-agent train rl miniwob-pixel --workers 2 --updates 400 --out runs/rl-pixel --resume
  gui-agent train rl miniwob-pixel --reward-model runs/reward-ckpt --out runs/rl-rm
  gui-agent train rl miniwob-pixel --reward evaluator=0.5,reward-model=0.5 --reward-model runs/reward-ckpt --out runs/rl-mix
  gui-agent train rl miniwob-pixel --ray 10.0.0.5:6379 --workers 16 --keep-frames-every 20 --out runs/rl-ray
  gui-agent train rl miniwob --from 'hf:runs/vlm-sft?max_new_tokens=64' --lora-rank 16 --temperature 1.0 --out runs/rl-vlm

SUITE is task files, folders of them or a named suite, as for 'gui-agent eval'. The run
starts from --from (a 'gui-agent train policy' checkpoint; default: the shipped pixel
policy; or hf:PATH, a VLM as --policy hf: takes it, whose LoRA adapter is trained on the
log-probability of its sampled action text, the adapter off as the KL anchor) and samples GROUP-SIZE rollouts of one task on one seed per group (seeds from
--seed-base up, so evaluation seeds 0-49 stay unseen); each rollout's advantage is its
reward against its group's. Rollouts run on --workers processes (or --ray actors), each
with its own browser kept open, while the learner updates; rollouts whose weights are
more than --max-lag versions old are dropped, fresher ones importance-corrected.

Output (OUT/): policy.pt (run it: --policy pixel:OUT/policy.pt; a VLM's: policy/, its
LoRA adapter, optimizer and rl_state.json, and once finished model/, the adapter merged:
--policy hf:OUT/model), checkpoints/,
ledger.jsonl (one line per rollout), episodes/ (every rollout an episode), updates.jsonl,
curve.png, per_task.json/.md, disagreements.jsonl (learned reward vs evaluator), run.json.
An environment that dies or hangs mid-rollout is rebuilt and the rollout run again; the
broken attempt is counted, never trained on. Exit status: 0 done, 2 bad input, 1 the
workers could not run, 130 interrupted (continue with --resume).
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "rl",
        help="improve the pixel policy or an hf: VLM (LoRA) by online RL on tasks (group-relative policy gradient on worker pools)",
        description="Online reinforcement learning of the pixel policy or of an hf: VLM's LoRA adapter: rollouts on parallel workers, rewards from the "
        "tasks' evaluators, a reward model or a judge, group-relative clipped policy-gradient updates anchored to the start.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("suite", nargs="+", help="task files, folders of them, or a named suite (miniwob-pixel)")
    parser.add_argument("--out", type=Path, required=True, help="the run's folder (e.g. runs/rl-pixel)")
    parser.add_argument("--from", dest="start", metavar="CKPT|hf:PATH",
                        help="pixel checkpoint to start from (default: the shipped policy), or hf:PATH[?options]: a VLM, trained with LoRA")
    parser.add_argument("--updates", type=positive_int, default=100, help="updates in all, over every session of the run (default: 100)")
    parser.add_argument("--time-budget", type=positive_float, metavar="MINUTES", help="stop after this much training time, with a checkpoint")
    group = parser.add_argument_group("rollouts")
    group.add_argument("--group-size", type=positive_int, default=8, help="rollouts per group, same task and seed (default: 8)")
    group.add_argument("--groups-per-update", type=positive_int, default=4, help="groups in each update (default: 4)")
    group.add_argument("--max-lag", type=int, default=1, help="drop rollouts whose weights are more than this many versions old (default: 1)")
    group.add_argument("--workers", "-j", type=positive_int, default=1, help="parallel workers, each with its own browser (default: 1)")
    group.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS", help="run the workers as Ray actors (cluster at ADDRESS)")
    group.add_argument("--no-pin-cpus", dest="pin_cpus", action="store_false", help="let local workers float over the CPUs")
    group.add_argument("--seed", type=int, default=0, help="the run's seed: tasks drawn, sampling, minibatches (default: 0)")
    group.add_argument("--seed-base", type=int, default=100_000, help="environment seed of the first group (default: 100000)")
    group.add_argument("--keep-frames-every", type=int, default=1, metavar="N", help="keep the frames of every Nth rollout (default: 1, all; 0: none)")
    group.add_argument("--max-attempts", type=positive_int, default=3, help="tries of a rollout whose environment failed (default: 3)")
    group.add_argument("--rollout-deadline", type=positive_float, metavar="SECONDS",
                       help="a worker stuck this long on one rollout is killed and replaced (default: from the task's timeout)")
    group.add_argument("--wait-deadline", type=positive_float, default=60.0, metavar="SECONDS",
                       help="the learner waits at most this long for a group's last rollouts (default: 60)")
    group.add_argument("--headed", action="store_true", help="show the browsers (needs $DISPLAY)")
    _learner_options(parser.add_argument_group("learner"))
    rewards = parser.add_argument_group("rewards")
    rewards.add_argument("--reward", metavar="SOURCE[=W],...",
                         help="evaluator, reward-model, judge, or a weighted mix (default: the reward model if given, "
                         "else the judge if given, else evaluator)")
    rewards.add_argument("--reward-model", metavar="CKPT", help="a 'gui-agent train reward' checkpoint")
    rewards.add_argument("--reward-model-scores", choices=("outcome", "step", "both"), default="outcome",
                         help="the reward model's outcome P(success), its mean step score, or their mean (default: outcome)")
    rewards.add_argument("--judge", metavar="CKPT|hf:MODEL", help="a judge as for 'gui-agent eval --judge'")
    parser.add_argument("--checkpoint-every", type=positive_int, default=10, help="keep a numbered checkpoint every N updates (default: 10)")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out")
    parser.add_argument("--quiet", action="store_true", help="no progress bar (notes and the summary still print)")
    parser.set_defaults(handler=handle)


def _learner_options(group: Any) -> None:
    group.add_argument("--lr", type=positive_float, default=3e-4, help="learning rate (default: 3e-4)")
    group.add_argument("--clip", type=positive_float, default=0.2, help="the ratio's clip range (default: 0.2)")
    group.add_argument("--kl-coef", type=float, default=0.05, help="weight of KL(policy || start) (default: 0.05)")
    group.add_argument("--entropy-coef", type=float, default=0.01, help="weight of the entropy bonus (default: 0.01)")
    group.add_argument("--epochs", type=positive_int, default=2, help="passes over each update's batch (default: 2)")
    group.add_argument("--minibatch", type=positive_int, default=32, help="decisions per gradient step (default: 32)")
    group.add_argument("--no-advantage-scale", dest="scale_advantages", action="store_false",
                       help="advantage = reward minus the group mean, not divided by the group's standard deviation")
    group.add_argument("--threads", type=positive_int, default=1, help="the learner's torch CPU threads (default: 1)")
    group.add_argument("--lora-rank", type=positive_int, default=16, help="with --from hf:..., the LoRA adapter's rank (default: 16)")
    group.add_argument("--temperature", type=positive_float, default=1.0,
                       help="with --from hf:..., the sampling temperature of the rollouts (default: 1.0)")


def handle(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape

    from gui_agent.errors import GuiAgentError

    console = Console(highlight=False)
    if args.out.is_file():
        return fail(console, f"--out {args.out} is a file; give the run's folder")
    try:
        options = _options(args)
        from gui_agent.models.rl.loop import train_rl
    except ValueError as exc:
        return fail(console, str(exc))
    progress = _Progress(console, quiet=args.quiet, total=args.updates, minutes=args.time_budget)
    try:
        with progress:
            result = train_rl(options, on_update=progress.update, on_note=progress.note)
    except KeyboardInterrupt:
        from gui_agent.models.rl.starts import is_vlm_start

        saved = args.out / ("policy" if is_vlm_start(args.start) else "policy.pt")
        console.print(f"[yellow]interrupted[/yellow]; the policy so far is {escape(str(saved))}. "
                      "Continue with the same command and --resume.", soft_wrap=True)
        return 130
    except (GuiAgentError, ValueError) as exc:
        return fail(console, str(exc))
    except (RuntimeError, OSError) as exc:
        return fail(console, str(exc), code=1)
    _print_summary(console, result)
    return 0


def _options(args: argparse.Namespace) -> Any:
    """The run's settings from the command line (ValueError: settings that cannot work)."""
    from gui_agent.models.rl.learner import LearnerConfig
    from gui_agent.models.rl.options import RLOptions
    from gui_agent.models.rl.rewards import parse_mix

    if args.headed:
        from gui_agent.envs.x_display import check_display

        check_display(has_display_option=False)
    rewards = parse_mix(args.reward, reward_model=args.reward_model, judge=args.judge, reward_model_scores=args.reward_model_scores)
    learner = LearnerConfig(lr=args.lr, clip=args.clip, kl_coef=args.kl_coef, entropy_coef=args.entropy_coef,
                            epochs=args.epochs, minibatch=args.minibatch)
    return RLOptions(
        suite=list(args.suite), out_dir=args.out, start=args.start, updates=args.updates,
        time_budget_s=args.time_budget * 60 if args.time_budget else None, group_size=args.group_size,
        groups_per_update=args.groups_per_update, max_lag=args.max_lag, workers=args.workers, pin_cpus=args.pin_cpus,
        ray=args.ray is not None, ray_address=args.ray or None, seed=args.seed, seed_base=args.seed_base, learner=learner,
        rewards=rewards, scale_advantages=args.scale_advantages, keep_frames_every=args.keep_frames_every,
        max_attempts=args.max_attempts, rollout_deadline_s=args.rollout_deadline, wait_deadline_s=args.wait_deadline,
        checkpoint_every=args.checkpoint_every, threads=args.threads, headless=False if args.headed else None, resume=args.resume,
        lora_rank=args.lora_rank, temperature=args.temperature,
    )


class _Progress:
    """A bar over the updates (over the minutes with --time-budget): suite success (last 20
    rollouts of each task), mean reward, env steps/s, the learner's idle share."""

    def __init__(self, console: Any, *, quiet: bool, total: int, minutes: float | None = None) -> None:
        self.console, self.quiet, self.total, self.minutes = console, quiet, total, minutes
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> _Progress:
        if not self.quiet:
            label = "train rl (minutes)" if self.minutes else "train rl (updates)"
            self.bar = progress_bar(self.console, label, after="{task.fields[figures]}", remaining=True)
            self.bar.__enter__()
            self.task = self.bar.add_task("train rl", total=self.minutes or self.total,
                                          figures="starting workers...")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def update(self, row: dict[str, Any]) -> None:
        def percent(value: Any) -> str:
            return "-" if value is None else f"{100 * value:.0f}%"

        text = (f"success {percent(row.get('suite_success'))} reward {row.get('mean_reward') if row.get('mean_reward') is not None else '-'} "
                f"{row.get('env_steps_per_s') or 0:.1f} steps/s idle {percent(row.get('learner_idle_fraction'))}")
        if self.bar is not None:
            done = min(self.minutes, row.get("train_s", 0) / 60) if self.minutes else row["update"]
            self.bar.update(self.task, completed=done, figures=f"update {row['update']}: {text}" if self.minutes else text)

    def note(self, text: str) -> None:
        from rich.markup import escape

        self.console.print(f"[yellow]note:[/yellow] {escape(text)}", soft_wrap=True)


def _print_summary(console: Any, result: Any) -> None:
    from rich.markup import escape

    state, session, overall = result.state, result.session, result.figures.get("overall", {})
    dropped = ", ".join(f"{k} {v}" for k, v in sorted(state.dropped.items()) if v) or "none"

    def percent(value: Any) -> str:
        return "-" if value is None else f"{100 * value:.1f} %"

    console.print(f"{'finished' if result.finished else 'stopped'}: {state.update} updates, {state.rollouts} rollouts, "
                  f"{state.env_steps} environment steps; this session {session.get('env_steps_per_s') or 0:.2f} steps/s, "
                  f"learner idle {percent(session.get('learner_idle_fraction'))}", soft_wrap=True)
    console.print(f"success over the run {percent(overall.get('success'))} (first quarter {percent(overall.get('success_first_quarter'))}, "
                  f"last quarter {percent(overall.get('success_last_quarter'))}); not trained on: {dropped}", soft_wrap=True)
    if state.broken_attempts:
        console.print("environments that broke mid-rollout (rebuilt; the partial episodes not trained on): "
                      + ", ".join(f"{k} {v}" for k, v in sorted(state.broken_attempts.items())))
    if overall.get("learned_successes"):
        console.print(f"learned reward called {overall['learned_successes']} rollouts successes; the evaluator failed "
                      f"{overall['learned_success_evaluator_failed']} of them ({percent(overall.get('hacking_rate'))})")
    out = result.out
    if (out / "policy.pt").is_file():
        policy = f"{out}/policy.pt (--policy pixel:{out}/policy.pt)"
    else:
        merged = f", merged: --policy hf:{out}/model" if (out / "model").is_dir() else ""
        policy = f"{out}/policy/ (the LoRA adapter{merged})"
    console.print(escape(f"policy: {policy}; curve: {out}/curve.png; "
                         f"per task: {out}/per_task.md; ledger: {out}/ledger.jsonl"), soft_wrap=True)
