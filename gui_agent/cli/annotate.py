"""``gui-agent annotate``: serve the annotation station (``station/``) for a suite of task files."""

from __future__ import annotations

import argparse
import ipaddress
import math
import signal
import sys
from pathlib import Path

EXAMPLES = """\
examples:
  gui-agent annotate datasets/tasks/desktop/calc --out annotations   # two annotators, tokens printed
  gui-agent annotate datasets/tasks/desktop/calc/sum-column.yaml --out ann --annotators 3 --repeats 2
  gui-agent annotate datasets/tasks/desktop/mail --out ann --tokens-file tokens.txt --port 8800
  gui-agent export $(gui-agent annotate --list-accepted --out ann) --out ann-hf   # publish what reviewers accepted

Annotators open http://HOST:PORT/ in their browser, sign in with their token, take a task
and do it on the live desktop shown in the page; at Finish the task's evaluator checks the
result. A reviewer's token sees everyone's work. Progress is kept in OUT/station.json: a
restart resumes where the station stopped, and nothing done is offered again.
A tokens file has one 'NAME TOKEN [annotator|reviewer]' line per account.
Exit status: 0 stopped (Ctrl-C or SIGTERM), 2 bad input.
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "annotate", help="serve the annotation station: people record task-file tasks from their browser",
        description="Serve a web app where annotators record the suite's tasks on a live desktop, "
        "verified by each task's evaluator.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("suite", nargs="*", help="task files, folders of them, or a named suite")
    parser.add_argument("--out", type=Path, required=True, metavar="DATASET", help="folder for the episodes and the progress file")
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--annotators", type=int, default=2, help="annotator accounts to create, with fresh tokens (default: 2)")
    who.add_argument("--tokens-file", type=Path, help="read accounts from this file instead (NAME TOKEN [ROLE] lines)")
    parser.add_argument("--repeats", type=int, default=1, help="how many times each task is recorded (default: 1)")
    parser.add_argument("--idle-pause", type=float, default=300.0, metavar="SECONDS",
                        help="pause a recording after this long without mouse or keyboard input; the annotator "
                        "resumes it with the Resume button (default: 300; 0: never)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=8765, help="port (default: 8765)")
    parser.add_argument("--list-accepted", action="store_true",
                        help="print the episode folders reviewers accepted in DATASET, one a line, and exit "
                        "(for gui-agent export)")
    parser.set_defaults(handler=handle)


def build_station(suite: list[str], out: Path, *, annotators: int = 2, tokens_file: Path | None = None, repeats: int = 1,
                  idle_pause_s: float | None = 300.0):
    """The accounts, queue and app for these arguments (ValueError on bad input)."""
    from gui_agent.evaluate.suite import resolve_suite
    from gui_agent.task import load_task
    from gui_agent.station.accounts import generate_accounts, load_accounts
    from gui_agent.station.app import create_app
    from gui_agent.station.queue import TaskQueue
    from gui_agent.station.state import Station

    if idle_pause_s is not None and not (math.isfinite(idle_pause_s) and idle_pause_s >= 0):
        raise ValueError("--idle-pause must be 0 (never) or a number of seconds")
    files = resolve_suite(suite)
    tasks = {}
    for path in files:
        tasks[str(path)] = load_task(path)
    accounts = load_accounts(tokens_file) if tokens_file is not None else generate_accounts(annotators)
    recover_unfinished(out)
    queue = TaskQueue.open(out, [(Path(f), t.id, t.instruction or "") for f, t in tasks.items()], accounts.annotators, repeats=repeats)
    station = Station(accounts, queue, tasks, idle_pause_s=idle_pause_s or None)
    return station, create_app(station)


def recover_unfinished(out: Path) -> list[Path]:
    """Repair the recordings a killed station left ``recording`` in ``out`` (as ``gui-agent record`` does)."""
    from gui_agent.recorder.recovery import find_unfinished, recover_recording

    found = find_unfinished(out) if out.is_dir() else []
    for folder in found:
        episode = recover_recording(folder)
        print(f"recovered {folder} ({len(episode.steps)} steps)", flush=True)
    return found


def list_accepted(out: Path) -> list[Path]:
    """The accepted episodes' folders in DATASET ``out`` that exist (and stay inside it, as the station serves them)."""
    from gui_agent.station.queue import TaskQueue

    if not out.is_dir():
        raise ValueError(f"{out}: no such DATASET folder")
    queue = TaskQueue(out, TaskQueue.read_items(out))
    return sorted(out / name for name in (item.episode for item in queue.accepted()) if name and queue.episode_folder(name))


def handle(args: argparse.Namespace) -> int:
    if args.list_accepted:
        try:
            for folder in list_accepted(args.out):
                print(folder)
        except (ValueError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        return 0
    if not args.suite:
        print("error: name the suite: task files, folders of them, or a named suite", file=sys.stderr)
        return 2
    try:
        import jinja2  # noqa: F401 - the pages' templates
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        print("error: the station needs Starlette, Jinja2 and uvicorn: pip install 'gui-agent[station]'", file=sys.stderr)
        return 2
    from gui_agent.errors import GuiAgentError

    try:
        station, app = build_station(args.suite, args.out, annotators=args.annotators, tokens_file=args.tokens_file,
                                     repeats=args.repeats, idle_pause_s=args.idle_pause)
    except (ValueError, OSError, GuiAgentError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        loopback = ipaddress.ip_address(args.host).is_loopback
    except ValueError:
        loopback = args.host == "localhost"
    if not loopback:
        print(f"warning: listening on {args.host}: tokens travel in clear text unless a TLS proxy is in front",
              file=sys.stderr)
    items = station.queue.items()
    open_items = sum(1 for i in items if i.status not in ("done", "given_up"))
    print(f"station: {len(items)} items ({open_items} open) in {args.out}", flush=True)
    if args.tokens_file is None:
        for account in station.accounts.accounts:
            print(f"  {account.role:9s} {account.name:12s} token {account.token}", flush=True)
    print(f"open http://{args.host}:{args.port}/ and sign in with a token", flush=True)
    # SIGTERM stops the station as Ctrl-C does: uvicorn shuts down (the app's lifespan closes
    # every live desktop), then raises the signal it caught again, which for SIGINT's handler
    # is a KeyboardInterrupt that uvicorn.run ends on. SIGTERM's default would kill the process.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws="wsproto")
    except KeyboardInterrupt:  # a signal before uvicorn took the signals over
        pass
    print("station stopped", flush=True)
    return 0
