"""``gui-agent make-reward-data EPISODES... --out OUT``: replay, simulate, label, pair."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

from gui_agent.cli.failure import fail
from gui_agent.cli.progress import progress_bar

EXAMPLES = """\
examples:
  gui-agent run datasets/tasks/miniwob/enter-text.yaml --policy oracle --seeds 0-9 --out runs/demos
  gui-agent make-reward-data runs/demos --out reward-data
  gui-agent make-reward-data runs/demos --out reward-data --workers 2     # re-run: resumes
  gui-agent make-reward-data runs/demos --out rd --ray --workers 4        # local Ray (or $RAY_ADDRESS)
  gui-agent make-reward-data runs/demos --out /shared/rd --ray 10.0.0.5:6379 --workers 16
  gui-agent make-reward-data runs/demos --out rd --kinds click_offset_large,wrong_text --seed 3
  gui-agent export reward-data --format reward --out exports/reward          # to a hub dataset

EPISODES are episode folders, or folders searched at any depth for them (a run's or an
eval's --out).

For every episode: replay it from its task's start state (the task file is found from the
episode's task id, or --task FILE); if the replay succeeds, execute the human simulator's
variants of it (one per kind, below), each judged by the task's evaluator, and label
every step progress / neutral / harmful by executing prefixes (see replay/labels.py).

variant kinds (--kinds):
%(kinds)s

OUT/ gets episodes/ (every executed episode), reward.jsonl (step samples), outcomes.jsonl
(episode samples) and preferences.jsonl (better/worse pairs of one task); the schema is
gui_agent/export/reward.py. Interrupted runs resume: finished episodes are not redone.
--workers and --ray use the evaluation's pools (as `gui-agent eval`): one work item per
source episode, a dead or stuck worker replaced and its source retried; on a Ray cluster
OUT and the episodes must be on a filesystem every node sees.
Exit status: 0 done, 3 the environment broke during some of the work (see the notes; run
again to resume), 2 bad input, 130 interrupted (Ctrl-C; run again to resume).
"""


#: The simulator's variant kinds, spelled here so '--help' does not import replay/ (OpenCV).
#: tests/replay checks this equals replay.perturb.VARIANT_KINDS.
KINDS = ("click_offset_small", "click_offset_large", "skip_step", "swap_steps", "wrong_text",
         "early_stop", "repeat_step", "splice_other", "recovery")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "make-reward-data",
        help="turn successful episodes into labelled reward-model data (replay + human simulator)",
        description="Replay episodes, execute the human simulator's variants of the successful ones, label "
        "each step by executing prefixes, and write step samples, outcome samples and preference pairs.",
        epilog=EXAMPLES % {"kinds": textwrap.fill(", ".join(KINDS), width=88, initial_indent="  ", subsequent_indent="  ")},
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("episodes", nargs="+", type=Path, help="episode folders, or folders holding them (searched recursively)")
    parser.add_argument("--out", type=Path, required=True, help="the reward-data folder (created, or resumed)")
    parser.add_argument("--task", type=Path, help="the task file for every episode (default: found from each episode's task id)")
    parser.add_argument("--kinds", type=_kinds, default=KINDS, help="comma-separated variant kinds (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="varies which step each variant changes (default: 0)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (or Ray actors), each with its own browser (default: 1)")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="run the workers as Ray actors: on the cluster at ADDRESS, or without one the cluster "
                        "ray.init() finds ($RAY_ADDRESS) or a local one")
    parser.add_argument("--headed", action="store_true", help="show the browser on an X display")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=handle)


def _kinds(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        raise argparse.ArgumentTypeError(f"unknown variant kind(s) {', '.join(unknown) or '(none given)'}; known: {', '.join(KINDS)}")
    return kinds


def handle(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape

    from gui_agent.envs.x_display import check_display
    from gui_agent.episode.finder import find_episode_dirs
    from gui_agent.errors import GuiAgentError
    from gui_agent.replay.builder import BuildConfig, make_reward_data

    console = Console(highlight=False)
    if args.workers < 1:
        return fail(console, f"--workers must be at least 1, got {args.workers}")
    if args.out.exists() and not args.out.is_dir():
        return fail(console, f"--out {args.out}: exists and is not a folder")
    try:
        if args.headed:
            check_display(has_display_option=False)
        episodes = find_episode_dirs(args.episodes)
        config = BuildConfig(out=str(args.out), kinds=args.kinds, seed=args.seed,
                             task_file=str(args.task) if args.task else None, headless=False if args.headed else None)
        if args.quiet or not console.is_terminal:
            report = make_reward_data(episodes, config, workers=args.workers, ray_address=args.ray)
        else:
            with progress_bar(console, "episodes executed", after="{task.fields[last]}") as bar:
                handle_ = bar.add_task("build", total=None, last="")
                report = make_reward_data(
                    episodes, config, workers=args.workers, ray_address=args.ray,
                    on_progress=lambda done, total, last: bar.update(handle_, completed=done, total=total, last=last),
                )
    except (GuiAgentError, OSError) as exc:
        return fail(console, str(exc))
    except KeyboardInterrupt:  # what is written stays; the next run skips what is done
        console.print(f"[yellow]interrupted[/yellow]; the finished episodes' data is kept in {escape(str(args.out))}. "
                      "Run the same command again to resume", soft_wrap=True)
        return 130
    for text in report.notes:
        console.print(f"[yellow]note:[/yellow] {escape(text)}", soft_wrap=True)
    console.print(
        f"{report.sources} source episode(s): {report.replays_succeeded}/{report.replays} replays succeeded, "
        f"{report.variants} variants executed ({report.variants_succeeded} succeeded), {report.step_samples} step samples, "
        f"{report.preferences} preference pairs"
        + (f"; {report.resumed_units} episodes were already done" if report.resumed_units else "")
        + f"\n  written to {escape(str(report.out))}",
        soft_wrap=True,
    )
    return 3 if report.env_failures else 0
