"""OSWorld config steps -> our setup steps, one function per OSWorld step type.

:mod:`gui_agent.task.osworld_import` hands every entry of a config's ``config`` (and its
evaluator's ``postconfig``) to :func:`convert_step`; what comes back is a list of steps as
a task file writes them. A step with no equivalent raises
:class:`~gui_agent.checks.osworld.config.Unsupported`; a step of the wrong shape,
:class:`~gui_agent.checks.osworld.config.ConfigError` naming the key. Adding a step type is
a function here and a line in :data:`STEPS`.
"""

from __future__ import annotations

import ast
import posixpath
import re
import shlex
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from gui_agent.checks.osworld.config import home_path
from gui_agent.checks.osworld.getters.system import command_argv, home_relative_arg, programs, shell_line
from gui_agent.envs.desktop.apps.catalogue import get_app
from gui_agent.errors import OsworldConfigError, OsworldUnsupported
from gui_agent.task.osworld_apps import (
    COMMAND_LINES, DROPPED_ARGS, KILLED_BY_NAME, OPENERS, PLUMBING, PROGRAMS, WINDOW_NAMES,
)
from gui_agent.task.osworld_chrome_steps import STEPS as CHROME_STEPS

#: A step as a task file writes it (``{"open_file": {...}}``).
Step = dict[str, Any]
#: Where post steps' ``stdout`` files (OSWorld's cache files) go in the home folder.
CACHE_DIR = ".osworld-cache"
#: Processes OSWorld's steps kill by name (``killall gnome-terminal-server``) -> the windows
#: (``WM_CLASS`` class) closing them here: the terminal's shell, hung up, saves its history.
_CLOSED_BY_NAME = {"gnome-terminal-server": "^XTerm$", "gnome-terminal": "^XTerm$"}
#: Keys that open a terminal on OSWorld's Ubuntu desktop (GNOME's shortcut).
_TERMINAL_KEYS = ("ctrl", "alt", "t")
#: Where OSWorld's set-up scrolls with no pointer position: the middle of its 1920x1080
#: screen, over the maximised document the configs scroll.
_SCROLL_POINT = (960, 540)


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
    return _open_path(home_path(params["path"]), context)


def _open_path(path: str, context: StepContext) -> list[Step]:
    """Open ``path`` in the app for its kind, as ``xdg-open`` does; a name without an
    extension is taken for a folder (the file manager opens it)."""
    suffix = posixpath.splitext(path)[1].lower()
    app = OPENERS.get(suffix) if suffix else "file_manager"
    if app is None:
        kinds = ", ".join(sorted(OPENERS))
        raise OsworldUnsupported(f"opening {path!r}: no app here opens that kind of file (known: {kinds}, and folders)")
    return [{"open_file": {"path": path, "app": context.use_app(app)}}]


def _launch(params: dict[str, Any], where: str, context: StepContext) -> list[Step]:
    return _launch_words(_command(params, where), context)


def _launch_words(command: list[str], context: StepContext) -> list[Step]:
    killed = _killed_app(command)
    if killed is not None:
        return [{"quit_app": {"app": context.use_app(killed)}}]
    if posixpath.basename(command[0]) in PLUMBING:
        return []
    app = COMMAND_LINES.get(" ".join(command))
    if app is not None:
        return [{"launch": {"app": context.use_app(app)}}]
    app = PROGRAMS.get(posixpath.basename(command[0]))
    if app is not None:
        dropped = DROPPED_ARGS.get(app)
        args = [home_relative_arg(a) for a in command[1:] if dropped is None or not dropped.match(a)]
        if app == "file_manager" and len(args) == 1:  # Files started on a folder: that folder's window
            return [{"open_file": {"path": home_path(command[1]), "app": context.use_app(app)}}]
        return [{"launch": {"app": context.use_app(app), **({"args": args} if args else {})}}]
    return [{"launch": {"command": [home_relative_arg(a) for a in command], "wait": False}}]


def _execute(params: dict[str, Any], where: str, context: StepContext) -> list[Step]:
    if params.get("shell"):  # OSWorld posts the JSON value: "true" (a text) counts too
        line = params.get("command")
        if not isinstance(line, str) or not line.strip():
            raise OsworldConfigError(f"{where}.parameters.command", "expected a shell line (a text) with shell: true")
        return _shell_step(line, params, context)
    command = _command(params, where)
    killed = _killed_app(command)
    if killed is not None:
        return [{"quit_app": {"app": context.use_app(killed)}}]
    _refuse_marketplace(command)
    if len(command) == 3 and posixpath.basename(command[0]) in ("bash", "sh") and command[1] == "-c":
        closing = _closing(command[2])
        if closing is not None:
            return closing
    gui = pyautogui_steps(command, context)
    if gui is not None:
        return gui
    return [{"run_command": _run(command_argv(command, False, where), params)}]


def _run(argv: list[str], params: dict[str, Any]) -> dict[str, Any]:
    step: dict[str, Any] = {"command": argv}
    if isinstance(params.get("stdout"), str):
        step["stdout"] = f"{CACHE_DIR}/{params['stdout']}"
        step["check"] = False  # OSWorld keeps the output whatever the exit status
    return step


def _refuse_marketplace(command: list[str]) -> None:
    """``code --install-extension NAME`` fetches NAME from VS Code's marketplace, on the
    internet; a ``.vsix`` file in the home folder installs here."""
    if posixpath.basename(command[0]) != "code" or "--install-extension" not in command:
        return
    index = command.index("--install-extension")
    name = command[index + 1] if index + 1 < len(command) else ""
    if not name.lower().endswith(".vsix"):
        raise OsworldUnsupported(f"it installs the extension {name!r} from VS Code's marketplace, on the internet "
                                 "(a .vsix file in the home folder would install here)")


def _killed_app(command: list[str]) -> str | None:
    """The app ``pkill NAME`` / ``killall NAME`` stops, when NAME is a catalogued app's process."""
    if len(command) == 2 and posixpath.basename(command[0]) in ("pkill", "killall"):
        return KILLED_BY_NAME.get(command[1])
    return None


def _closing(line: str) -> list[Step] | None:
    """``killall gnome-terminal-server`` -> closing the terminal windows (None: another line)."""
    words = command_words(line)
    if words and len(words) == 2 and words[0] in ("killall", "pkill") and words[1] in _CLOSED_BY_NAME:
        return [{"close_window": {"wm_class": _CLOSED_BY_NAME[words[1]]}}]
    killed = _killed_app(words) if words else None
    if killed is not None:
        return [{"quit_app": {"app": killed}}]
    return None


def _shell_step(line: str, params: dict[str, Any], context: StepContext) -> list[Step]:
    """A shell line: ``bash -c`` in the home folder (:func:`shell_line`), except a line that
    opens a file (``xdg-open``), starts a known app (``gnome-terminal ...``) or closes the
    terminal: those are the steps doing it. A line leaving a process in the background
    (``&``) is launched, so the process lives on as OSWorld's does."""
    killed = _killed_app(command_words(line) or [])
    if killed is not None:
        return [{"quit_app": {"app": context.use_app(killed)}}]
    converted = shell_line(line)
    closing = _closing(converted)
    if closing is not None:
        return closing
    words = command_words(converted)
    if words and programs(converted) == [posixpath.basename(words[0])] and not set(words) & {";", "&&", "||", "|", ">"}:
        if words[0] == "xdg-open" and len(words) == 2:
            return _open_path(_home_word(words[1]), context)
        if posixpath.basename(words[0]) in PROGRAMS:
            return _launch_words([_home_word(w) for w in words], context)
    if "&" in _operators(converted):
        return [{"launch": {"command": ["bash", "-c", converted], "wait": False}}]
    return [{"run_command": _run(["bash", "-c", converted], params)}]


def _home_word(word: str) -> str:
    """A word of a converted shell line as a home-relative path (``$HOME/x`` -> ``x``)."""
    return home_relative_arg(word.replace("$HOME", "/home/user").replace("${HOME}", "/home/user"))


def _operators(line: str) -> list[str]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    return [t for t in lexer if t and set(t) <= set(";&|()<>")]


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
    app = WINDOW_NAMES.get(name)
    if app is not None:
        return [{kind: {"title": get_app(context.use_app(app)).window_title}}]
    title = re.escape(name)
    return [{kind: {"title": f"^{title}$" if params.get("strict") else title}}]


def _account(reason: str) -> Callable[[dict[str, Any], str, StepContext], list[Step]]:
    def convert(params: dict[str, Any], where: str, context: StepContext) -> list[Step]:
        raise OsworldUnsupported(reason)
    return convert


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
    "googledrive": _account("it downloads from a Google Drive account (the internet and the account)"),
    "login": _account("it signs in to a website account (the internet and the account)"),
}


def pyautogui_steps(command: list[str], context: StepContext) -> list[Step] | None:
    """``python -c "import pyautogui; ..."`` as steps: GNOME's Ctrl+Alt+T starts the terminal
    app, hotkeys and sleeps alone become hotkey/sleep steps, other code input_actions
    (None: the command is not pyautogui code)."""
    if len(command) != 3 or not posixpath.basename(command[0]).startswith("python") or command[1] != "-c":
        return None
    code = command[2]
    if "pyautogui" not in code:
        return None
    code = re.sub(r"\bimport\s+(pyautogui|time)\s*;?", "", code).strip().strip(";").strip()
    steps: list[Step] = []
    for part in _split_at_terminal_keys(code):
        if part is None:
            steps.append({"launch": {"app": context.use_app("terminal")}})
        else:
            steps += _code_steps(part)
    return steps


def _split_at_terminal_keys(code: str) -> list[str | None]:
    """The code's statements in runs, with None where ``pyautogui.hotkey('ctrl', 'alt', 't')`` was."""
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return [code]
    parts: list[str | None] = []
    run: list[str] = []
    for statement in body:
        call = statement.value if isinstance(statement, ast.Expr) else None
        keys = [a.value for a in call.args if isinstance(a, ast.Constant)] if isinstance(call, ast.Call) else []
        if isinstance(call, ast.Call) and ast.unparse(call.func) == "pyautogui.hotkey" and tuple(keys) == _TERMINAL_KEYS:
            parts += ["; ".join(run)] if run else []
            parts.append(None)
            run = []
        else:
            run.append(ast.get_source_segment(code, statement) or ast.unparse(statement))
    return parts + (["; ".join(run)] if run else [])


def _code_steps(code: str) -> list[Step]:
    from gui_agent.action_formats.pyautogui import parse_pyautogui
    from gui_agent.actions import Hotkey, Wait
    from gui_agent.errors import ActionParseError

    try:
        actions = parse_pyautogui(code)
    except ActionParseError as exc:
        if "scroll" not in code:
            raise OsworldUnsupported(f"pyautogui code this project cannot run ({exc.reason})") from None
        code = f"pyautogui.moveTo({_SCROLL_POINT[0]}, {_SCROLL_POINT[1]}); {code}"  # scroll where the document is
        try:
            actions = parse_pyautogui(code)
        except ActionParseError as again:
            raise OsworldUnsupported(f"pyautogui code this project cannot run ({again.reason})") from None
    if actions and all(isinstance(a, (Hotkey, Wait)) for a in actions):
        return [{"hotkey": {"keys": list(a.keys)}} if isinstance(a, Hotkey) else {"sleep": {"seconds": float(a.seconds)}}
                for a in actions if not (isinstance(a, Wait) and a.seconds <= 0)]
    return [{"input_actions": {"pyautogui": code}}] if actions else []


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
