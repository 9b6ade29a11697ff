"""Sources read from VS Code: what one of its commands writes.

OSWorld's ``vscode_config`` getter runs a command of VS Code's (one an evaluation
extension installed in the task's setup contributes) through the command palette, as a
person would (Ctrl+Shift+P, the command's name, Enter), and reads the file the command
writes (the open folder's name, say). ``vscode_command_result`` does the same on the
episode's desktop: the window is the VS Code app's (its title ends with "Visual Studio
Code"), the keys are sent with ``xdotool`` on the session's display, and the file is
read once the command has written it.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import PositiveFloat

from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.sources.base import SourceType
from gui_agent.envs.desktop.paths import HomePath
from gui_agent.polling import poll
from gui_agent.schema import NonBlank, Regex, SingleKey, StrictModel

#: Focuses the window whose title matches ``$1``, opens the command palette, types ``$2`` and
#: runs the first command it lists. Exit 3: no such window.
_RUN_IN_PALETTE = r"""
win=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -n 1)
[ -n "$win" ] || exit 3
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win"
sleep 0.3
xdotool key --clearmodifiers ctrl+shift+p
sleep 0.8
xdotool type --delay 40 -- "$2"
sleep 0.8
xdotool key --clearmodifiers Return
"""


class VscodeCommandResultArgs(StrictModel):
    """The text of ``path`` (home-relative) after the VS Code command titled ``command`` ran
    from the command palette of the window whose title matches ``window``; the command has
    ``timeout_s`` to write it (a file that was there before and is not rewritten is read
    as it is, as OSWorld reads it)."""

    command: NonBlank
    path: HomePath
    window: Regex = "Visual Studio Code"
    timeout_s: PositiveFloat = 10.0


class VscodeCommandResultSource(SingleKey):
    name: ClassVar[str] = "vscode_command_result"
    vscode_command_result: VscodeCommandResultArgs


def _vscode_command_result(args: VscodeCommandResultArgs, probe: DesktopProbe) -> str:
    target = probe.resolve_path(args.path)
    before = target.stat().st_mtime_ns if target.exists() else None
    done = probe.run_command(["bash", "-c", _RUN_IN_PALETTE, "palette", args.window, args.command], timeout_s=30.0)
    if done.returncode == 3:
        raise RuntimeError(f"no window titled like {args.window!r} to run {args.command!r} in")
    if done.returncode != 0:
        raise RuntimeError(f"running {args.command!r} from the command palette failed: {done.stderr.strip()[-300:]}")
    poll(lambda: target.exists() and target.stat().st_mtime_ns != before or None, timeout_s=args.timeout_s, interval_s=0.1)
    if not target.exists():
        raise FileNotFoundError(f"{args.command!r} wrote no {args.path} within {args.timeout_s:g} s")
    return target.read_text(errors="replace")


SOURCES: tuple[SourceType, ...] = (SourceType(VscodeCommandResultSource, _vscode_command_result),)
