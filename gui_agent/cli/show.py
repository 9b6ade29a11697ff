"""``gui-agent show EPISODE_DIR``: what happened in an episode, at a glance."""

from __future__ import annotations

import argparse
from pathlib import Path

from gui_agent.cli.failure import fail


EXAMPLES = """\
examples:
  gui-agent run datasets/tasks/miniwob/click-button.yaml --policy oracle --out runs/demo && gui-agent show runs/demo
  gui-agent show runs/demo/miniwob-click-button_20261130T071500_ab12cd   # one episode of several
  gui-agent show EPISODE --recover   # repair an episode a crash left as 'recording'

EPISODE is an episode folder, or a folder holding exactly one (searched at any depth); a
folder holding several is refused with the first few listed. Exit status: 0 shown,
1 shown with problems (a damaged episode), 2 not an episode.
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "show",
        help="summarise an episode folder",
        description="Summarise an episode: task, environment, who acted, outcome and every step. "
        "A damaged episode is shown leniently with its problems listed.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("episode", type=Path, help="an episode folder, or a folder holding exactly one (e.g. a one-episode run's --out)")
    parser.add_argument("--recover", action="store_true", help="repair an unfinished ('recording') episode in place first")
    parser.add_argument("--max-steps", type=int, default=50, help="list at most this many steps (default: 50)")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from gui_agent.actions import action_from_dict, action_to_text
    from gui_agent.episode import read_episode, recover
    from gui_agent.episode.finder import find_one_episode
    from gui_agent.errors import ActionError, EpisodeFormatError, EpisodeNotFoundError

    console = Console(highlight=False)
    try:
        path = find_one_episode(args.episode)
        episode = recover(path) if args.recover else read_episode(path, lenient=True)
    except (EpisodeFormatError, EpisodeNotFoundError) as exc:
        return fail(console, str(exc))
    meta = episode.meta
    outcome = meta.outcome
    # Everything from the episode is escaped: an instruction, a thought or an error may hold
    # "[/...]", which rich would otherwise take for a closing tag and fail on.
    console.print(f"[bold]{escape(meta.episode_id)}[/bold]  ({escape(str(episode.path))})")
    console.print(f"task      {escape(meta.task.id)}: {escape(meta.task.instruction)}", soft_wrap=True)
    console.print(f"env       {escape(meta.env.kind)}{' / ' + escape(meta.env.app) if meta.env.app else ''}, "
                  f"{meta.env.screen.width}x{meta.env.screen.height} (scale {meta.env.scale:g})")
    console.print(f"actor     {escape(meta.actor.type)}: {escape(meta.actor.name)}")
    console.print(f"status    {escape(meta.status)}    created {escape(str(meta.created_at))}")
    if outcome is not None:
        verdict = {True: "[green]success[/green]", False: "[red]failure[/red]", None: "[yellow]no verdict[/yellow]"}[outcome.success]
        console.print(f"outcome   {verdict}  reward={outcome.reward}  end={outcome.termination}"
                      + (f"  ({escape(outcome.reason)})" if outcome.reason else ""), soft_wrap=True)
        if outcome.detail:
            console.print(f"detail    {escape(str(outcome.detail))}", soft_wrap=True)
    console.print(f"stats     {len(episode.steps)} steps, {meta.stats.duration_s:.2f} s")
    if meta.labels:
        console.print(f"labels    {escape(str(meta.labels))}", soft_wrap=True)

    table = Table(show_edge=False, pad_edge=False)
    for column in ("#", "t (s)", "action", "error / thought"):
        table.add_column(column)
    for step in episode.steps[: args.max_steps]:
        try:
            text = action_to_text(action_from_dict(step.action))
        except ActionError:
            text = str(step.action)
        note = f"[yellow]{escape(step.error)}[/yellow]" if step.error else escape(step.thought or "")
        table.add_row(str(step.index), f"{step.t:.2f}", escape(text), note)
    if episode.steps:
        console.print(table)
    if len(episode.steps) > args.max_steps:
        console.print(f"... {len(episode.steps) - args.max_steps} more steps (--max-steps)")
    for problem in episode.problems:
        console.print(f"[yellow]problem:[/yellow] {escape(str(problem))}", soft_wrap=True)
    if meta.status == "recording":
        console.print("[yellow]this episode is unfinished (status: recording); repair it with --recover[/yellow]")
    return 1 if episode.problems else 0
