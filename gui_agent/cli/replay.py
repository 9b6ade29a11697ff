"""``gui-agent replay EPISODE``: re-execute recorded episodes, compare screens, report where they part."""

from __future__ import annotations

import argparse
from pathlib import Path

from gui_agent.cli.failure import fail, print_error
from gui_agent.cli.progress import progress_bar

EXAMPLES = """\
examples:
  gui-agent replay runs/miniwob-click-button_20261130T101500_ab12cd
  gui-agent replay runs/tabs --out replays                   # every episode in a run's folder, one browser
  gui-agent replay recordings/calc-sum --task datasets/tasks/desktop/calc/sum-column.yaml
  gui-agent replay runs/one --timed                          # at the recording's own pace
  gui-agent replay runs/one --no-anchor                      # recorded coordinates, blind
  gui-agent record --browser miniwob:enter-text --seed 3 --out recordings && gui-agent replay recordings/*/

EPISODE is an episode folder, or a folder searched at any depth for them (a run's or an
eval's --out).

The task's start state comes from the task file the episode names (its task id, looked up
under datasets/tasks/, or --task FILE) and the episode's seed. Each step's live screen is
scored against the recorded keyframe (SSIM, 1.0 = identical) and the first step below
--threshold is reported. Click targets are re-found by the recorded selector, or tag and
text (browser recordings), or by the recorded element in the apps' accessibility tree: its
role and name, else its role at the recorded place (desktop recordings with targets; the
desktop then starts with accessibility on), or by matching the recorded image patch (OpenCV, multi-scale);
when no confident match exists after letting the page settle (waits of 0.1, 0.3, 0.6 s)
the replay stops and says why instead of clicking blind. A browser recording's screen
pixels are moved to page pixels (the page's place on the recorded screen is in each
target's bbox and bbox_screen).

The replay is written to OUT/<episode_id>/ in the trajectory format, with the evaluator's
outcome and the replay report in episode.json labels.replay. Exit status: 0 every replay
succeeded, 1 one failed or refused, 3 the environment broke, 2 bad input.
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "replay",
        help="re-execute recorded episodes and report where the screens part",
        description="Replay recorded episodes from their task's start state, re-anchoring click targets "
        "on a moved layout, and write each replay as an episode with the evaluator's outcome.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("episodes", nargs="+", type=Path,
                        help="episode folders to replay, or folders holding them (searched recursively, e.g. a run's --out)")
    parser.add_argument("--task", type=Path, help="the task file to replay on (default: found from the episode's task id)")
    parser.add_argument("--out", type=Path, default=Path("replays"), help="folder for the replay episodes (default: replays/)")
    parser.add_argument("--timed", action="store_true", help="keep the recording's pace (default: as fast as the environment settles)")
    parser.add_argument("--no-anchor", action="store_true", help="play recorded coordinates without re-finding targets")
    parser.add_argument("--threshold", type=float, default=None, help="similarity below which a step counts as parted (default: 0.80)")
    parser.add_argument("--headed", action="store_true", help="show the browser on an X display instead of headless")
    parser.add_argument("--display", help="X display for --headed, e.g. :99 (default: $DISPLAY)")
    parser.add_argument("--quiet", action="store_true", help="print only one line per replay")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from rich.console import Console

    from gui_agent.envs.x_display import check_display
    from gui_agent.episode.finder import find_episode_dirs
    from gui_agent.errors import GuiAgentError
    from gui_agent.runner import EnvSlot
    from gui_agent.replay.replayer import replay_episode
    from gui_agent.replay.similarity import DIVERGENCE_THRESHOLD
    from gui_agent.replay.source import load_source

    console = Console(highlight=False)
    threshold = DIVERGENCE_THRESHOLD if args.threshold is None else args.threshold
    if not 0.0 <= threshold <= 1.0:
        return fail(console, f"--threshold must be between 0 and 1, got {threshold}")
    if args.out.exists() and not args.out.is_dir():
        return fail(console, f"--out {args.out}: exists and is not a folder")
    try:
        if args.headed:
            check_display(args.display)
        sources = [load_source(path, task_file=args.task) for path in find_episode_dirs(args.episodes)]
    except (GuiAgentError, OSError) as exc:
        return fail(console, str(exc))
    codes = []
    slot = EnvSlot(headless=False if args.headed else None, display=args.display)  # one browser for all
    bar = progress_bar(console, "{task.description}") if console.is_terminal and len(sources) > 1 else None
    out = bar.console if bar is not None else console
    try:
        if bar is not None:
            bar.start()
            handle_ = bar.add_task("replays", total=len(sources))
        for source in sources:
            try:
                result = replay_episode(
                    source, out_dir=args.out, mode="timed" if args.timed else "fast", anchoring=not args.no_anchor,
                    threshold=threshold, env=slot.get(source.task),
                )
            except GuiAgentError as exc:
                print_error(out, f"{source.episode.path}: {exc}")
                slot.discard()
                codes.append(3)
                continue
            finally:
                if bar is not None:
                    bar.advance(handle_)
            if result.run.env_failed:
                slot.discard()
            codes.append(3 if result.run.env_failed else 0 if result.success else 1)
            _print(out, result, args.quiet)
    finally:
        if bar is not None:
            bar.stop()
        slot.close()
    return max(codes) if codes else 2


def _print(console, result, quiet: bool) -> None:  # type: ignore[no-untyped-def]
    from rich.markup import escape

    run = result.run
    if run.env_failed:
        verdict = "[yellow]ENV FAILURE[/yellow]"
    else:
        verdict = "[green]SUCCESS[/green]" if run.success else "[red]FAILURE[/red]"
    parted = result.first_divergent_step
    console.print(
        f"{verdict} replay of {escape(result.source.name)}  reward={run.reward:g} steps={run.steps} time={run.duration_s:.2f}s "
        f"first divergent step={'none' if parted is None else parted}"
        + (f"  [red]refused: {escape(str(result.refused))}[/red]" if result.refused else ""),
        soft_wrap=True,
    )
    if not quiet:
        for report in result.steps:
            sim = "-" if report.similarity is None else f"{report.similarity:.3f}"
            moved = f"  re-anchored {report.moved_by} by {report.anchor['method']}" if report.moved_by and report.anchor else ""
            mark = " <- parted" if report.index == parted else ""
            console.print(f"  step {report.index}: similarity {sim}{moved}{mark}", soft_wrap=True)
        console.print(f"  episode: {escape(str(run.episode_path))}", soft_wrap=True)
