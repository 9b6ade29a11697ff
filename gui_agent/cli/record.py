"""``gui-agent record``: record a human doing a task on this X display (or in a browser)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXAMPLES = """\
examples:
  gui-agent record --task "Sum column B in the sheet"            # records $DISPLAY
  gui-agent record --task "Find the cheapest flight" --browser https://example.org
  gui-agent record --browser miniwob:click-button --seed 7         # replayable: task file + seed known
  gui-agent record --display :99 --out recordings --stop-key ctrl+alt+q
  gui-agent record --task "..." --success --notes "took the long way" --duration 60
  gui-agent record --recover --out recordings                       # repair crashed recordings
  gui-agent record --task "..." --frame-format png                  # PNG keyframes (default: lossless WebP)

Stop with the stop chord (default ctrl+alt+s), Ctrl-C or SIGTERM; pause/resume with the
pause chord (default ctrl+alt+p) or SIGUSR1: while paused nothing is captured, and the
terminal says "paused ..." and "resumed ..." as it happens. At stop you
are asked whether the task succeeded and for notes, unless --success/--failure/--notes say
it. Episodes a crash left unfinished in OUT are recovered at the next start.
With --browser miniwob:TASK the page's task is started with --seed (random if not given),
the instruction is the page's, the task id is miniwob/TASK and, unless --success/--failure
say otherwise, the page's own reward is the verdict: `gui-agent replay` can replay it.
Exit status: 0 recorded, 2 bad input, 3 the display or browser cannot be recorded.
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "record", help="record a human doing a task as a trajectory",
        description="Record the screen, mouse and keyboard (and, with --browser, each action's target "
        "element) as an episode in the trajectory format.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--task", help="what the annotator is asked to do (prompted for if missing)")
    parser.add_argument("--task-id", help="an id for the task (default: 'recorded')")
    parser.add_argument("--out", type=Path, default=Path("recordings"), help="folder for episodes (default: recordings/)")
    parser.add_argument("--display", help="X display to record, e.g. :99 (default: $DISPLAY)")
    parser.add_argument("--browser", metavar="URL", help="open a headed Chromium at URL and record target elements "
                        "(miniwob:TASK: a MiniWoB++ task page, started with --seed)")
    parser.add_argument("--seed", type=int, help="with --browser miniwob:TASK: the task's seed (default: random; kept in the episode)")
    parser.add_argument("--a11y-bus", metavar="ADDRESS",
                        help="the display's accessibility (AT-SPI) bus: each step gets the element it acted on and its "
                        "tree, and keys typed into password fields are masked whatever the window's title. On a desktop "
                        "session it is $AT_SPI_BUS_ADDRESS, or what `dbus-send --session --print-reply --dest=org.a11y.Bus "
                        "/org/a11y/bus org.a11y.Bus.GetAddress` prints")
    parser.add_argument("--fps", type=float, default=40.0, help="screen grabs per second for keyframes (default: 40)")
    parser.add_argument("--video-fps", type=float, default=0.0,
                        help="also write a continuous screen.mp4 at this rate, e.g. 2 (default: 0 = no video; needs PyAV)")
    parser.add_argument("--frame-format", choices=("webp", "png"), default="webp",
                        help="keyframe files, both lossless: webp (default; much smaller at the same CPU) or png")
    parser.add_argument("--pause-key", default="ctrl+alt+p", help="chord that pauses/resumes (default: ctrl+alt+p)")
    parser.add_argument("--stop-key", default="ctrl+alt+s", help="chord that stops (default: ctrl+alt+s)")
    parser.add_argument("--mask-title", help="regex of window titles whose keys are masked and frames blanked "
                        "(default: password/login windows; '' disables)")
    parser.add_argument("--drag-px", type=int, default=5, help="pointer travel that makes a press a drag (default: 5)")
    parser.add_argument("--duration", type=float, help="stop after this many seconds")
    verdict = parser.add_mutually_exclusive_group()
    verdict.add_argument("--success", action="store_true", default=None, help="mark the task done (no prompt)")
    verdict.add_argument("--failure", action="store_true", help="mark the task failed (no prompt)")
    parser.add_argument("--notes", help="annotator notes (no prompt)")
    parser.add_argument("--annotator", help="who records (default: the login name)")
    parser.add_argument("--recover", action="store_true", help="only recover unfinished recordings in --out, then exit")
    parser.set_defaults(handler=handle)


def _ask(prompt: str) -> str | None:
    if not sys.stdin.isatty():
        return None
    try:
        return input(prompt).strip()
    except EOFError:
        return None


def handle(args: argparse.Namespace) -> int:
    from gui_agent.recorder.errors import RecorderError
    from gui_agent.recorder.recording import decide_success, open_recording

    _recover(args.out)
    if args.recover:
        return 0
    task, problem = _task(args)
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    try:
        recording = open_recording(_config(args, task), url=args.browser, seed=args.seed)
    except (RecorderError, ValueError) as exc:
        return _failed(exc)
    try:
        reason = _record(recording, args)
        error = _stop(recording)
    except (RecorderError, ValueError) as exc:
        return _failed(exc)
    finally:
        recording.close()
    success = decide_success(marked=_marked(args), verdict=recording.verdict(), ask=None if error else _ask_success)
    notes = args.notes if args.notes is not None else _ask("Notes (enter to skip): ")
    path = recording.finish(success=success, notes=notes or None, reason=error or reason)
    print(f"episode: {path}  steps={recording.session.writer.n_steps} events={recording.session.n_events}", flush=True)
    return 3 if error else 0


def _recover(out: Path) -> None:
    """Recover the recordings a crash left unfinished in ``out``, saying which."""
    from gui_agent.recorder.recovery import find_unfinished, recover_recording

    for folder in find_unfinished(out) if out.exists() else []:
        episode = recover_recording(folder)
        print(f"recovered {folder} ({len(episode.steps)} steps)")


def _task(args: argparse.Namespace) -> tuple[str, str | None]:
    """The task to record (asked for when not given), or what is wrong with the arguments."""
    from gui_agent.recorder.miniwob_page import is_miniwob_url

    miniwob = is_miniwob_url(args.browser)
    if args.seed is not None and not miniwob:
        return "", "--seed applies to MiniWoB++ pages only (--browser miniwob:TASK)"
    task = args.task or ("" if miniwob else _ask("Task: "))  # a MiniWoB++ page states its own task
    if not task and not miniwob:
        return "", 'give the task with --task "..."'
    return task, None


def _record(recording, args: argparse.Namespace) -> str:  # type: ignore[no-untyped-def]
    """Start, say where it goes and how to stop it, record until stopped; returns why it stopped."""
    path = recording.start()
    recording.session.install_signal_handlers()
    recording.session.on_pause = _pause_printer(args.pause_key, args.stop_key)
    print(f"recording to {path}  (stop: {args.stop_key} or Ctrl-C; pause: {args.pause_key})", flush=True)
    return str(recording.run(args.duration))


def _stop(recording) -> str | None:  # type: ignore[no-untyped-def]
    """Stop the capture; what went wrong on the way (printed), or None."""
    from gui_agent.recorder.errors import RecorderError

    try:
        recording.stop_capture()
    except RecorderError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return str(exc)
    return None


def _failed(exc: Exception) -> int:
    """Say why the recording could not be made: 3 for the display or browser, 2 for bad input."""
    from gui_agent.recorder.errors import RecorderError

    print(f"error: {exc}", file=sys.stderr)
    return 3 if isinstance(exc, RecorderError) else 2


def _marked(args: argparse.Namespace) -> bool | None:
    """The verdict given on the command line (--success, --failure), if any."""
    return True if args.success else (False if args.failure else None)


def _config(args: argparse.Namespace, task: str):  # type: ignore[no-untyped-def]
    """The session's settings from the command line."""
    from gui_agent.recorder.privacy import DEFAULT_MASK_PATTERN
    from gui_agent.recorder.reduce import ReduceConfig
    from gui_agent.recorder.session import SessionConfig

    config = SessionConfig(
        task=task, out_dir=args.out, task_id=args.task_id, display=args.display, fps=args.fps,
        pause_chord=args.pause_key, stop_chord=args.stop_key,
        mask_pattern=DEFAULT_MASK_PATTERN if args.mask_title is None else (args.mask_title or None),
        reduce=ReduceConfig(drag_px=args.drag_px), video_fps=args.video_fps, frame_format=args.frame_format,
        a11y_address=args.a11y_bus,
    )
    if args.annotator:
        config.annotator = args.annotator
    return config


def _ask_success() -> bool | None:
    """The annotator's answer (None: no terminal, or no answer)."""
    answer = _ask("Did the task succeed? [y/n] ")
    return None if not answer else answer.lower().startswith("y")


def _pause_printer(pause_key: str, stop_key: str):  # type: ignore[no-untyped-def]
    """What the terminal says when the recording pauses or resumes: whoever pressed the chord
    (or sent SIGUSR1) sees that it took, and how to undo it."""

    def on_pause(paused: bool, reason: str | None) -> None:
        if paused:
            why = "" if reason in (None, "paused") else " (no input for a while)" if reason == "idle" else f" ({reason})"
            print(f"paused{why}: nothing is captured; resume: {pause_key} (or SIGUSR1), stop: {stop_key}", flush=True)
        else:
            print("resumed: recording again", flush=True)

    return on_pause
