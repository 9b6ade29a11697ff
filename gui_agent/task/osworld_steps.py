"""OSWorld config steps -> our setup steps, one function per OSWorld step type.

:mod:`gui_agent.task.osworld_import` hands every entry of a config's ``config`` (and its
evaluator's ``postconfig``) to :func:`convert_step`; what comes back is a list of steps as
a task file writes them. A step with no equivalent raises
:class:`~gui_agent.checks.osworld.config.Unsupported`; a step of the wrong shape,
:class:`~gui_agent.checks.osworld.config.ConfigError` naming the key. Adding a step type is
a function here and a line in :data:`STEPS`.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from gui_agent.checks.osworld.config import OSWORLD_HOME, home_path
from gui_agent.errors import OsworldConfigError, OsworldUnsupported
from gui_agent.task.osworld_apps import COMMAND_LINES, DROPPED_ARGS, OPENERS, PROGRAMS
from gui_agent.task.osworld_chrome_steps import STEPS as CHROME_STEPS

#: A step as a task file writes it (``{"open_file": {...}}``).
Step = dict[str, Any]
#: Where post steps' ``stdout`` files (OSWorld's cache files) go in the home folder.
CACHE_DIR = ".osworld-cache"
#: Commands that change the machine rather than the desktop session.
_MACHINE_COMMANDS = {"timedatectl", "hwclock", "systemctl", "reboot", "shutdown", "sudo"}


class StepContext(Protocol):
    """What step conversion needs from the conversion under way."""

    downloads: dict[str, str]

    def declare(self, url: str, name: str) -> str:
        """The task path of the declared input downloaded from ``url`` (named after ``name``)."""
        ...

    def use_app(self, app: str) -> str:
        """Note that the task uses ``app``; returns it."""
        ...


def convert_step(kind: str, params: dict[str, Any], where: str, context: StepContext) -> list[Step]:
    """Our steps for one OSWorld step of type ``kind`` with its ``parameters``.

    Raises:
        OsworldUnsupported: the step has no equivalent.
        OsworldConfigError: the step's shape is wrong (the message names the key).
    """
    convert = STEPS.get(kind)
    if convert is None:
        raise OsworldUnsupported("no equivalent step type")
    return convert(params, where, context)


def _download(params: dict[str, Any], where: str, context: StepContext) -> list[Step]:
    files = params.get("files")
    if not isinstance(files, list) or not files:
        raise OsworldConfigError(f"{where}.parameters.files", "expected a list of {url, path}")
    out = []
    for i, f in enumerate(files):
        if not isinstance(f, dict) or not isinstance(f.get("url"), str) or not isinstance(f.get("path"), str):
            raise OsworldConfigError(f"{where}.parameters.files[{i}]", "expected {url: ..., path: ...}")
        path = home_path(f["path"])
        local = context.declare(f["url"], f["path"])
        context.downloads[path] = local
        out.append({"place_file": {"path": path, "from": local, "source_url": f["url"]}})
    return out


def _open(params: dict[str, Any], where: str, context: StepContext) -> list[Step]:
    if not isinstance(params.get("path"), str):
        raise OsworldConfigError(f"{where}.parameters.path", "expected the path of the file to open")
    path = home_path(params["path"])
    app = OPENERS.get(posixpath.splitext(path)[1].lower())
    if app is None:
        kinds = ", ".join(sorted(OPENERS))
        raise OsworldUnsupported(f"opening {path!r}: no app here opens that kind of file (known: {kinds})")
    return [{"open_file": {"path": path, "app": context.use_app(app)}}]


def _launch(params: dict[str, Any], where: str, context: StepContext) -> list[Step]:
    command = _command(params, where)
    app = COMMAND_LINES.get(" ".join(command))
    if app is not None:
        return [{"launch": {"app": context.use_app(app)}}]
    app = PROGRAMS.get(posixpath.basename(command[0]))
    if app is not None:
        dropped = DROPPED_ARGS.get(app)
        args = [_home_relative_arg(a) for a in command[1:] if dropped is None or not dropped.match(a)]
        return [{"launch": {"app": context.use_app(app), **({"args": args} if args else {})}}]
    return [{"launch": {"command": [_home_relative_arg(a) for a in command], "wait": False}}]


def _execute(params: dict[str, Any], where: str, context: StepContext) -> list[Step]:
    if params.get("shell"):
        raise OsworldUnsupported("a shell command line (shell: true); run_command takes an argument list")
    command = _command(params, where)
    if posixpath.basename(command[0]) in _MACHINE_COMMANDS:
        raise OsworldUnsupported(f"{command[0]!r} changes the machine (its clock, services), not the task's desktop")
    gui = pyautogui_steps(command)
    if gui is not None:
        return gui
    step: dict[str, Any] = {"command": [_home_relative_arg(a) for a in command]}
    if isinstance(params.get("stdout"), str):
        step["stdout"] = f"{CACHE_DIR}/{params['stdout']}"
        step["check"] = False  # OSWorld keeps the output whatever the exit status
    return [{"run_command": step}]


def _sleep(params: dict[str, Any], where: str, context: StepContext) -> list[Step]:
    seconds = params.get("seconds", 1)
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds <= 0:
        raise OsworldConfigError(f"{where}.parameters.seconds", f"expected a positive number, got {seconds!r}")
    return [{"sleep": {"seconds": float(seconds)}}]


def _window(kind: str, params: dict[str, Any], where: str, context: StepContext) -> list[Step]:
    """``activate_window`` / ``close_window``: by title, or by ``WM_CLASS`` with ``by_class``."""
    name = params.get("window_name")
    if not isinstance(name, str) or not name:
        raise OsworldConfigError(f"{where}.parameters.window_name", "expected the window's name")
    if params.get("by_class"):
        wm_class = name.rsplit(".", 1)[-1]  # OSWorld's "instance.class", e.g. Mail.thunderbird
        return [{kind: {"wm_class": f"^{re.escape(wm_class)}$"}}]
    title = re.escape(name)
    return [{kind: {"title": f"^{title}$" if params.get("strict") else title}}]


#: OSWorld step type -> its conversion.
STEPS: dict[str, Callable[[dict[str, Any], str, StepContext], list[Step]]] = {
    **CHROME_STEPS,
    "download": _download,
    "open": _open,
    "launch": _launch,
    "execute": _execute,
    "command": _execute,
    "sleep": _sleep,
    "activate_window": partial(_window, "activate_window"),
    "close_window": partial(_window, "close_window"),
}


def _home_relative_arg(value: Any) -> str:
    """Command arguments naming the VM's home become home-relative (the command runs there)."""
    text = str(value)
    if text.rstrip("/") == OSWORLD_HOME.rstrip("/"):
        return "."
    return text.replace(OSWORLD_HOME, "")


def pyautogui_steps(command: list[str]) -> list[Step] | None:
    """``python -c "import pyautogui; pyautogui.hotkey('ctrl', 's')"`` -> hotkey/sleep or input_actions steps."""
    if len(command) != 3 or not posixpath.basename(command[0]).startswith("python") or command[1] != "-c":
        return None
    code = command[2]
    if "pyautogui" not in code:
        return None
    code = re.sub(r"\bimport\s+(pyautogui|time)\s*;?", "", code).strip().strip(";").strip()
    from gui_agent.action_formats.pyautogui import parse_pyautogui
    from gui_agent.actions import Hotkey, Wait
    from gui_agent.errors import ActionParseError

    try:
        actions = parse_pyautogui(code)
    except ActionParseError as exc:
        raise OsworldUnsupported(f"pyautogui code this project cannot run ({exc.reason})") from None
    if actions and all(isinstance(a, (Hotkey, Wait)) for a in actions):
        return [{"hotkey": {"keys": list(a.keys)}} if isinstance(a, Hotkey) else {"sleep": {"seconds": float(a.seconds)}}
                for a in actions if not (isinstance(a, Wait) and a.seconds <= 0)]
    return [{"input_actions": {"pyautogui": code}}]


def params_of(step: dict[str, Any]) -> dict[str, Any]:
    """A config step's ``parameters`` (a mapping; anything else counts as none)."""
    params = step.get("parameters")
    return params if isinstance(params, dict) else {}


def command_words(command: Any) -> list[str] | None:
    """A command as its arguments, or None when it is not a command (a list of words or a line)."""
    if isinstance(command, str):
        try:
            return shlex.split(command)
        except ValueError:
            return None
    if isinstance(command, list) and all(isinstance(c, (str, int, float)) and not isinstance(c, bool) for c in command):
        return [str(c) for c in command]
    return None


def _command(params: dict[str, Any], where: str) -> list[str]:
    words = command_words(params.get("command"))
    if words is None:
        raise OsworldConfigError(f"{where}.parameters.command", "expected a command (a list of arguments or a shell-quoted string)")
    if not words:
        raise OsworldConfigError(f"{where}.parameters.command", "the command is empty")
    return words


__all__ = ["CACHE_DIR", "STEPS", "StepContext", "command_words", "convert_step", "params_of", "pyautogui_steps"]
