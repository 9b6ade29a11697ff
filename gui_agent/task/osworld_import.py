"""Converting an OSWorld task config (``evaluation_examples/examples/<domain>/<id>.json``)
into our task file, where the steps and checks have equivalents, and saying which do not.

What maps to what:

=============================================  ===========================================
OSWorld                                        task file
=============================================  ===========================================
``instruction``, ``id``, ``source``            ``instruction``, ``id: osworld.<domain>.<id>``,
                                               ``source: osworld:<id>``
``related_apps`` libreoffice_calc/thunderbird  ``environment.apps: [calc]`` / ``[thunderbird]``
                                               (+ ``mail``), 1920x1080 like OSWorld's VM
``download`` {url, path}                       ``place_file {path, from: inputs/NAME,
                                               source_url: URL}``: a *declared input* (this
                                               machine downloads nothing from the internet;
                                               the file must be put at ``inputs/NAME``)
``open`` {path}                                ``open_file`` (spreadsheets in calc)
``launch`` {command}                           ``launch {app}`` for a known app, else
                                               ``launch {command, wait: false}``
``execute`` {command}                          ``hotkey`` when it is ``pyautogui.hotkey``
                                               code, else ``run_command``
``sleep`` / ``activate_window`` /              ``sleep`` / ``activate_window`` /
``close_window``                               ``close_window`` (by title)
evaluator ``postconfig``                       ``post_steps`` (same mapping)
``compare_table`` + ``sheet_data`` rules       ``sheet_data_equal {expected: inputs/NAME}``
``compare_csv``                                ``file_equal {expected: inputs/NAME}``
``infeasible``                                 no check (listed as having no equivalent)
=============================================  ===========================================

``/home/user/X`` (the OSWorld VM's home) becomes the home-relative ``X``. Everything
else (other step types and evaluator functions, ``compare_table`` rules other than
``sheet_data``, window matching by class) has no equivalent and is listed in
:attr:`Conversion.unsupported`. An evaluator is converted only when all of it is: a
partial check could pass what the original fails.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Any

from gui_agent.task.spec import Task

#: OSWorld's VM user home; paths under it become relative to the episode's home folder.
OSWORLD_HOME = "/home/user/"
#: OSWorld's VM screen.
OSWORLD_SCREEN = {"width": 1920, "height": 1080}
#: OSWorld app names (``related_apps``/``snapshot``) -> our app names.
APP_NAMES = {"libreoffice_calc": "calc", "thunderbird": "thunderbird"}
#: Launch commands that start one of our apps.
_LAUNCHERS = {
    "thunderbird": "thunderbird", "/usr/bin/thunderbird": "thunderbird",
    "libreoffice --calc": "calc", "soffice --calc": "calc", "localc": "calc",
}
_SPREADSHEETS = (".xlsx", ".xls", ".ods", ".csv")


@dataclass(frozen=True)
class DeclaredInput:
    """A file the task needs that must be supplied locally: ``url`` saved as ``path``
    (relative to the task file's folder)."""

    path: str
    url: str


@dataclass
class Conversion:
    """The result of :func:`convert_osworld`.

    Attributes:
        task: the converted task (valid by our schema).
        inputs: files to download elsewhere and put next to the task file.
        unsupported: the parts with no equivalent, each a sentence naming it.
        notes: other remarks (e.g. an infeasible task).
    """

    task: Task
    inputs: list[DeclaredInput] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.unsupported


class _Unsupported(Exception):
    """One part of the config that has no equivalent (the message says which)."""


def home_path(path: str) -> str:
    """``/home/user/a/b.xlsx`` -> ``a/b.xlsx``; other absolute paths have no equivalent."""
    if path.startswith(OSWORLD_HOME):
        rest = posixpath.normpath(path[len(OSWORLD_HOME):])
        if rest in (".", "") or rest.startswith(".."):
            raise _Unsupported(f"path {path!r} is the home folder itself, not a file in it")
        return rest
    if path.startswith("~/"):
        return path
    raise _Unsupported(f"path {path!r} is outside the VM user's home ({OSWORLD_HOME}); a desktop task only reaches its home folder")


class _Converter:
    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.inputs: list[DeclaredInput] = []
        self.unsupported: list[str] = []
        self.notes: list[str] = []
        self.apps: list[str] = []

    # ------------------------------------------------------------------ inputs
    def declare(self, url: str, name: str) -> str:
        local = f"inputs/{posixpath.basename(name) or 'file'}"
        if all(i.path != local for i in self.inputs):
            self.inputs.append(DeclaredInput(path=local, url=url))
        return local

    def use_app(self, app: str) -> str:
        if app not in self.apps:
            self.apps.append(app)
        return app

    # ------------------------------------------------------------------ steps
    def steps(self, entries: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for index, entry in enumerate(entries or []):
            kind = entry.get("type")
            params = entry.get("parameters") or {}
            try:
                out.extend(self.step(kind, params))
            except _Unsupported as exc:
                self.unsupported.append(f"{where}[{index}] ({kind}): {exc}")
        return out

    def step(self, kind: str | None, params: dict[str, Any]) -> list[dict[str, Any]]:
        if kind == "download":
            return [
                {"place_file": {"path": home_path(f["path"]), "from": self.declare(f["url"], f["path"]), "source_url": f["url"]}}
                for f in params.get("files", [])
            ]
        if kind == "open":
            path = home_path(params["path"])
            if not path.lower().endswith(_SPREADSHEETS):
                raise _Unsupported(f"opening {path!r}: only spreadsheets (in calc) have an app here")
            return [{"open_file": {"path": path, "app": self.use_app("calc")}}]
        if kind == "launch":
            command = params.get("command")
            command = command.split() if isinstance(command, str) else list(command or [])
            if not command:
                raise _Unsupported("launch without a command")
            app = _LAUNCHERS.get(" ".join(command)) or _LAUNCHERS.get(command[0])
            if app is not None and (app != "calc" or len(command) <= 2):
                return [{"launch": {"app": self.use_app(app)}}]
            return [{"launch": {"command": [self.arg(a) for a in command], "wait": False}}]
        if kind in ("execute", "command"):
            command = params.get("command")
            command = command.split() if isinstance(command, str) else list(command or [])
            hotkey = self.pyautogui_hotkey(command)
            if hotkey is not None:
                return [{"hotkey": {"keys": hotkey}}]
            if params.get("shell"):
                raise _Unsupported("a shell command line (shell: true); run_command takes an argument list")
            return [{"run_command": {"command": [self.arg(a) for a in command]}}]
        if kind == "sleep":
            return [{"sleep": {"seconds": float(params.get("seconds", 1))}}]
        if kind in ("activate_window", "close_window"):
            if params.get("by_class"):
                raise _Unsupported(f"matching the window by class {params.get('window_name')!r}; windows are matched by title here")
            name = re.escape(str(params["window_name"]))
            title = f"^{name}$" if params.get("strict") else name
            return [{kind: {"title": title}}]
        raise _Unsupported("no equivalent step type")

    def arg(self, value: str) -> str:
        """Command arguments naming the VM's home become home-relative (the command runs there)."""
        text = str(value)
        if text.rstrip("/") == OSWORLD_HOME.rstrip("/"):
            return "."
        return text.removeprefix(OSWORLD_HOME)

    @staticmethod
    def pyautogui_hotkey(command: list[str]) -> list[str] | None:
        """``python -c "import pyautogui; pyautogui.hotkey('ctrl', 's')"`` -> ``[ctrl, s]``."""
        if len(command) != 3 or not command[0].startswith("python") or command[1] != "-c":
            return None
        code = re.sub(r"^\s*import pyautogui\s*;?", "", command[2]).strip().rstrip(";")
        from gui_agent.action_formats.pyautogui import parse_pyautogui
        from gui_agent.actions import Hotkey
        from gui_agent.errors import ActionParseError

        try:
            actions = parse_pyautogui(code)
        except ActionParseError:
            return None
        if len(actions) == 1 and isinstance(actions[0], Hotkey):
            return list(actions[0].keys)
        return None

    # ------------------------------------------------------------------ evaluator
    def evaluator(self, spec: dict[str, Any]) -> dict[str, Any] | None:
        funcs = spec.get("func")
        if funcs is None:
            return None
        many = isinstance(funcs, list)
        funcs_list = funcs if many else [funcs]
        results = spec.get("result") if many else [spec.get("result")]
        expecteds = spec.get("expected") if many else [spec.get("expected")]
        options = spec.get("options") if many else [spec.get("options")]
        checks: list[dict[str, Any]] = []
        for i, func in enumerate(funcs_list):
            where = f"evaluator.func[{i}]" if many else "evaluator.func"
            try:
                checks.extend(self.check(func, (results or [None])[i] if results else None,
                                         (expecteds or [None])[i] if expecteds else None,
                                         (options or [None])[i] if options else None))
            except _Unsupported as exc:
                self.unsupported.append(f"{where} ({func}): {exc}")
                return None
        if not checks:
            return None
        if len(checks) == 1:
            return checks[0]
        return {"any_of" if spec.get("conj") == "or" else "all_of": checks}

    def check(self, func: str, result: Any, expected: Any, options: Any) -> list[dict[str, Any]]:
        if func == "infeasible":
            raise _Unsupported(
                "OSWorld marks this task infeasible (the right behaviour is to report that it cannot be done, "
                "done(success=False)); no check type expresses that, so the task has no evaluator"
            )
        if func == "compare_table":
            path = self.vm_file(result)
            gold = self.cloud_file(expected)
            rules = (options or {}).get("rules") or [{"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"}]
            checks = []
            for rule in rules:
                if rule.get("type") != "sheet_data":
                    raise _Unsupported(f"compare_table rule {rule.get('type')!r} has no equivalent (only sheet_data)")
                ours, theirs = rule.get("sheet_idx0"), rule.get("sheet_idx1")
                if not isinstance(ours, int) or theirs not in (f"EI{ours}", ours):
                    raise _Unsupported(f"compare_table sheet_data between sheets {ours!r} and {theirs!r} (only the same position)")
                checks.append({"sheet_data_equal": {"path": path, "expected": gold, "sheets": [ours]}})
            return checks
        if func == "compare_csv":
            return [{"file_equal": {"path": self.vm_file(result), "expected": self.cloud_file(expected)}}]
        raise _Unsupported("no equivalent check")

    def vm_file(self, result: Any) -> str:
        if not isinstance(result, dict) or result.get("type") != "vm_file":
            raise _Unsupported(f"result of type {result.get('type') if isinstance(result, dict) else result!r} (only vm_file)")
        return home_path(result["path"])

    def cloud_file(self, expected: Any) -> str:
        if not isinstance(expected, dict) or expected.get("type") != "cloud_file":
            raise _Unsupported(f"expected of type {expected.get('type') if isinstance(expected, dict) else expected!r} (only cloud_file)")
        return self.declare(expected["path"], expected.get("dest") or expected["path"])


def convert_osworld(config: dict[str, Any]) -> Conversion:
    """Convert one OSWorld task config.

    Raises:
        ValueError: the config lacks ``id`` or ``instruction`` (not an OSWorld task).
    """
    if not isinstance(config, dict) or not config.get("id") or not config.get("instruction"):
        raise ValueError("not an OSWorld task config: it needs 'id' and 'instruction'")
    conv = _Converter(config)
    related = list(config.get("related_apps") or [config.get("snapshot")])
    for app in related:
        if app in APP_NAMES:
            conv.use_app(APP_NAMES[app])
        elif app:
            conv.unsupported.append(f"related_apps: {app!r} has no app here (known: {', '.join(APP_NAMES)})")
    setup = conv.steps(config.get("config") or [], "config")
    evaluator_spec = config.get("evaluator") or {}
    post = conv.steps(evaluator_spec.get("postconfig") or [], "evaluator.postconfig")
    evaluator = conv.evaluator(evaluator_spec)
    domain = config.get("snapshot") or (related[0] if related else "desktop")
    environment: dict[str, Any] = {"kind": "desktop", "screen": dict(OSWORLD_SCREEN), "apps": conv.apps}
    if "thunderbird" in conv.apps:
        environment["mail"] = {}
    lines = [f"Imported from OSWorld ({domain}/{config['id']})."]
    if config.get("source"):
        lines.append(f"Original source: {config['source']}")
    if conv.inputs:
        lines.append("Declared inputs (download each URL to the path, next to this file):")
        lines += [f"  {i.path} <- {i.url}" for i in conv.inputs]
    if conv.unsupported:
        lines.append("Parts with no equivalent (left out):")
        lines += [f"  {u}" for u in conv.unsupported]
    lines += conv.notes
    data: dict[str, Any] = {
        "id": f"osworld.{domain}.{config['id']}",
        "instruction": config["instruction"],
        "description": "\n".join(lines),
        "tags": ["osworld", str(domain)],
        "source": f"osworld:{config['id']}",
        "environment": environment,
    }
    if setup:
        data["setup"] = setup
    if evaluator is not None:
        data["evaluator"] = evaluator
    if post:
        data["post_steps"] = post
    data["limits"] = {"max_steps": 15, "step_timeout_s": 30.0, "episode_timeout_s": 900.0}
    task = Task.model_validate(data)
    return Conversion(task=task, inputs=conv.inputs, unsupported=conv.unsupported, notes=conv.notes)
