"""Converting an OSWorld task config (``evaluation_examples/examples/<domain>/<id>.json``)
into our task file, and saying what has no equivalent.

What maps to what (the steps are converted in :mod:`gui_agent.task.osworld_steps`, the
evaluator functions in :mod:`gui_agent.checks.osworld`):

=============================================  ===========================================
OSWorld                                        task file
=============================================  ===========================================
``instruction``, ``id``, ``source``            ``instruction``, ``id: osworld.<domain>.<id>``
                                               (``.win`` for a Windows variant), ``source``
``related_apps`` / ``snapshot``                ``environment.apps`` (calc, writer, impress,
                                               thunderbird + ``mail``), 1920x1080 like the VM
``download`` {url, path}                       ``place_file {path, from: inputs/NAME,
                                               source_url: URL}``: a *declared input*
                                               (``gui-agent import-osworld --fetch`` gets it)
``open`` {path}                                ``open_file`` in the app for its file type
``launch`` {command}                           ``launch {app}`` for a known app, else
                                               ``launch {command, wait: false}``
``execute`` / ``command``                      ``hotkey`` (+ ``sleep``) for pyautogui hotkeys,
                                               ``input_actions`` for other pyautogui code,
                                               else ``run_command`` (``stdout`` kept)
``sleep``, ``activate_window``,                the same steps (by title, or ``wm_class`` when
``close_window``                               OSWorld matches by class)
evaluator ``postconfig``                       ``post_steps`` (same mapping)
``func`` (one or a list, ``conj``)             checks, ``all_of`` / ``any_of``
``infeasible``                                 ``infeasible_reported``: the agent must say
                                               ``done(success=False, answer=...)``
=============================================  ===========================================

``/home/user/X`` (the VM's home) becomes the home-relative ``X``. A part with no
equivalent is listed in :attr:`Conversion.unsupported`; an evaluator is converted whole
or not at all (a partial check could pass what the original fails). A config whose
shape is wrong raises :class:`~gui_agent.checks.osworld.config.ConfigError`, which names
the key, and never anything else.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gui_agent.checks.osworld import convert_metric
from gui_agent.checks.osworld.config import home_path
from gui_agent.errors import OsworldConfigError, OsworldUnsupported
from gui_agent.checks.osworld.metric import Metric
from gui_agent.checks.sources.chrome import LIVE_SOURCES, PROFILE_SOURCES
from gui_agent.task.osworld_apps import APP_NAMES, DESKTOP_ITSELF
from gui_agent.task.osworld_steps import CACHE_DIR, command_words, convert_step, params_of
from gui_agent.task.spec import Task

#: OSWorld's ten Linux domains (its ``evaluation_examples/examples/<domain>`` folders).
OSWORLD_DOMAINS = ("chrome", "gimp", "libreoffice_calc", "libreoffice_impress", "libreoffice_writer", "multi_apps", "os",
                   "thunderbird", "vlc", "vs_code")
#: OSWorld's VM screen.
OSWORLD_SCREEN = {"width": 1920, "height": 1080}
#: The limits of an imported task: OSWorld's agents take at most 15 steps.
LIMITS = {"max_steps": 15, "step_timeout_s": 30.0, "episode_timeout_s": 900.0}


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
        inputs: files to download and put next to the task file.
        unsupported: the parts with no equivalent, each a sentence naming it.
        notes: other remarks (steps left out because a check does their work, ...).
    """

    task: Task
    inputs: list[DeclaredInput] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.unsupported


def is_windows_variant(config_path: str | Path | None, config: dict[str, Any]) -> bool:
    """A Windows twin of a Linux config: its file is ``<id>-win.json`` / ``..._win.json`` or
    lies in a ``Windows`` folder (``examples/Windows/<domain>/<id>.json``), or it names Windows."""
    path = Path(config_path) if config_path is not None else None
    if path is not None and (path.stem.lower().endswith(("-win", "_win")) or any(p.lower() == "windows" for p in path.parent.parts)):
        return True
    return "windows" in str(config.get("snapshot", "")).lower()


def domain_of(config: dict[str, Any], config_path: str | Path | None = None) -> str:
    """The config's OSWorld domain (``multi_apps``): the folder it is in
    (``examples/<domain>/<id>.json``) or its file name's prefix (``<domain>-<id>.json``)
    when that is one of :data:`OSWORLD_DOMAINS`, else its snapshot, else its first related app."""
    if config_path is not None:
        path = Path(config_path)
        for candidate in (path.parent.name, path.name.split("-", 1)[0]):
            if candidate in OSWORLD_DOMAINS:
                return candidate
    related = config.get("related_apps")
    first = related[0] if isinstance(related, list) and related and isinstance(related[0], str) else None
    domain = config.get("snapshot") if isinstance(config.get("snapshot"), str) else first
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", str(domain or "desktop").strip()) or "desktop"


def task_file_name(config: dict[str, Any], config_path: str | Path | None = None) -> str:
    """The file name a converted config is written to: ``<domain>-<id>[-win].yaml``."""
    suffix = "-win" if is_windows_variant(config_path, config) else ""
    return f"{domain_of(config, config_path)}-{config['id']}{suffix}.yaml"


class _Converter:
    """One conversion: what was declared, left out and produced while walking the config."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.inputs: list[DeclaredInput] = []
        self.unsupported: list[str] = []
        self.notes: list[str] = []
        self.apps: list[str] = []
        self.downloads: dict[str, str] = {}  # VM path -> declared input
        self.producers: dict[str, tuple[int, list[str]]] = {}  # cache name -> (post step index, command)
        self.dropped: dict[int, str] = {}  # post step index -> why it is left out

    # ------------------------------------------------------------------ Files (for the metrics)
    def declare(self, url: str, name: str) -> str:
        base = posixpath.basename(str(name).split("?")[0].rstrip("/")) or "file"
        base = re.sub(r"[^A-Za-z0-9._ -]+", "_", base)
        for existing in self.inputs:
            if existing.url == url:
                return existing.path
        local, n = f"inputs/{base}", 2
        while any(i.path == local for i in self.inputs):
            stem, ext = posixpath.splitext(base)
            local, n = f"inputs/{stem}-{n}{ext}", n + 1
        self.inputs.append(DeclaredInput(path=local, url=url))
        return local

    def downloaded(self, vm_path: str) -> str | None:
        try:
            return self.downloads.get(home_path(vm_path))
        except OsworldUnsupported:
            return None

    def cache_file(self, name: str) -> str | None:
        return f"{CACHE_DIR}/{name}" if name in self.producers else None

    def cache_producer(self, name: str) -> list[str] | None:
        found = self.producers.get(name)
        return found[1] if found is not None else None

    def drop_producer(self, name: str, reason: str) -> None:
        """Leave out the post step writing cache file (or converting the file) ``name``, and
        the downloads only it used."""
        for index, command in self._post_commands():
            joined = " ".join(command)
            produces = self.producers.get(name, (None,))[0] == index
            converts = "--convert-to" in command and any(home_path_or_none(a) == name for a in command)
            if produces or converts:
                self.dropped[index] = reason
                for other, step in enumerate(self._post_entries()):
                    if step.get("type") == "download":
                        files = params_of(step).get("files")
                        if isinstance(files, list) and files and all(isinstance(f, dict) and posixpath.basename(str(f.get("path", ""))) in joined for f in files):
                            self.dropped[other] = reason

    def _post_entries(self) -> list[dict[str, Any]]:
        evaluator = self.config.get("evaluator") or {}
        post = evaluator.get("postconfig") if isinstance(evaluator, dict) else None
        return [s for s in post if isinstance(s, dict)] if isinstance(post, list) else []

    def _post_commands(self) -> list[tuple[int, list[str]]]:
        found = []
        for index, step in enumerate(self._post_entries()):
            if step.get("type") in ("execute", "command"):
                words = command_words(params_of(step).get("command"))
                if words:
                    found.append((index, words))
        return found

    def use_app(self, app: str) -> str:
        if app not in self.apps:
            self.apps.append(app)
        return app

    def use_related_apps(self) -> None:
        """The apps the config names (``related_apps``, else its ``snapshot``); others are noted as unsupported."""
        named = self.config.get("related_apps") or ([self.config["snapshot"]] if isinstance(self.config.get("snapshot"), str) else [])
        for app in named:
            name = re.sub(r"\s+", "_", app.strip().lower())
            if name in APP_NAMES:
                self.use_app(APP_NAMES[name])
            elif name not in DESKTOP_ITSELF:
                self.unsupported.append(f"related_apps: {app!r} has no app here (known: {', '.join(sorted(set(APP_NAMES)))})")

    # ------------------------------------------------------------------ steps
    def scan_post(self) -> None:
        """Before the evaluator: what post steps download and which cache files they write."""
        for index, step in enumerate(self._post_entries()):
            params = params_of(step)
            files = params.get("files")
            if step.get("type") == "download" and isinstance(files, list):
                for f in files:
                    if isinstance(f, dict) and isinstance(f.get("url"), str) and isinstance(f.get("path"), str):
                        try:
                            self.downloads[home_path(f["path"])] = self.declare(f["url"], f["path"])
                        except OsworldUnsupported:
                            pass
            if step.get("type") in ("execute", "command") and isinstance(params.get("stdout"), str):
                self.producers[params["stdout"]] = (index, command_words(params.get("command")) or [])

    def steps(self, entries: Any, where: str, *, post: bool = False) -> list[dict[str, Any]]:
        if entries is None:
            return []
        if not isinstance(entries, list):
            raise OsworldConfigError(where, f"expected a list of steps, got {type(entries).__name__}")
        out: list[dict[str, Any]] = []
        for index, entry in enumerate(entries):
            at = f"{where}[{index}]"
            if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
                raise OsworldConfigError(at, "expected a step mapping with a 'type'")
            if post and index in self.dropped:
                self.notes.append(f"{at} ({entry['type']}) left out: {self.dropped[index]}")
                continue
            params = entry.get("parameters", {})
            if params is None:
                params = {}
            if not isinstance(params, dict):
                raise OsworldConfigError(f"{at}.parameters", f"expected a mapping, got {type(params).__name__}")
            try:
                out.extend(convert_step(entry["type"], params, at, self))
            except OsworldUnsupported as exc:
                self.unsupported.append(f"{at} ({entry['type']}): {exc}")
        return out

    # ------------------------------------------------------------------ evaluator
    def evaluator(self, spec: Any) -> dict[str, Any] | None:
        if not isinstance(spec, dict):
            raise OsworldConfigError("evaluator", f"expected a mapping, got {type(spec).__name__}")
        funcs = spec.get("func")
        if funcs is None:
            raise OsworldConfigError("evaluator.func", "missing: every OSWorld task names its evaluator function")
        many = isinstance(funcs, list)
        names = funcs if many else [funcs]
        if not names or not all(isinstance(f, str) for f in names):
            raise OsworldConfigError("evaluator.func", "expected a function name or a list of them")
        if not all(f.strip() for f in names):
            raise OsworldConfigError("evaluator.func", "empty: the config names no evaluator function (an unfinished task)")

        def nth(key: str, i: int) -> Any:
            value = spec.get(key)
            if not many:
                return value
            if value is None:
                return None
            if not isinstance(value, list) or len(value) != len(names):
                raise OsworldConfigError(f"evaluator.{key}", f"expected a list with one entry per function ({len(names)})")
            return value[i]

        checks: list[dict[str, Any]] = []
        for i, func in enumerate(names):
            where = f"evaluator.func[{i}]" if many else "evaluator"
            metric = Metric(func, nth("result", i), nth("expected", i), nth("options", i), where, self)
            try:
                checks.extend(convert_metric(metric))
            except OsworldUnsupported as exc:
                self.unsupported.append(f"{where} ({func}): {exc}")
                return None
        if len(checks) == 1:
            return checks[0]
        return {"any_of" if spec.get("conj") == "or" else "all_of": checks}


def _flush_before_reading(conv: _Converter, evaluator: dict[str, Any] | None, post: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A ``quit_app chrome`` post step when the checks read Chromium's profile files (which
    it writes seconds after a change, and at the latest when it quits) and nothing of the
    running browser, unless the post steps quit it already. OSWorld reads the files as
    they are, so a right answer given just before the end can fail there."""
    used = set(_keys(evaluator))
    if "chrome" not in conv.apps or not used & PROFILE_SOURCES or used & LIVE_SOURCES:
        return []
    if any("quit_app" in step for step in post):
        return []
    conv.notes.append("Chromium is quit before the checks read its profile files, so what it saved is on disk.")
    return [{"quit_app": {"app": "chrome"}}]


def _keys(value: Any) -> list[str]:
    """Every mapping key in a converted evaluator (its checks and sources by name)."""
    if isinstance(value, dict):
        return [k for k, v in value.items() for k in (k, *_keys(v))]
    if isinstance(value, list):
        return [k for v in value for k in _keys(v)]
    return []


def home_path_or_none(value: str) -> str | None:
    try:
        return home_path(value)
    except OsworldUnsupported:
        return None


def convert_osworld(config: Any, *, config_path: str | Path | None = None) -> Conversion:
    """Convert one OSWorld task config.

    ``config_path`` (the file it came from) tells a Windows variant from its Linux twin.

    Raises:
        OsworldConfigError: the config is not a readable OSWorld task; the message names the key.
    """
    evaluator_spec = _checked(config)
    conv = _Converter(config)
    conv.use_related_apps()
    setup = conv.steps(config.get("config"), "config")
    conv.scan_post()
    evaluator = conv.evaluator(evaluator_spec)
    post = conv.steps(evaluator_spec.get("postconfig"), "evaluator.postconfig", post=True)
    post += _flush_before_reading(conv, evaluator, post)
    windows = is_windows_variant(config_path, config)
    domain = domain_of(config, config_path)
    data = _task_data(config, domain, conv.apps, windows, {"setup": setup, "evaluator": evaluator, "post_steps": post})
    if "accessibility_tree" in _keys(evaluator):  # the checks read the apps' element tree
        data["environment"]["accessibility"] = True
    used = set(_task_paths(data))
    inputs = [i for i in conv.inputs if i.path in used]  # a check doing a post step's work needs fewer
    data["description"] = _description(config, domain, windows, inputs, conv)
    return Conversion(task=_validated(data), inputs=inputs, unsupported=conv.unsupported, notes=conv.notes)


def _checked(config: Any) -> dict[str, Any]:
    """The config's evaluator, once the config is an OSWorld task's shape (else OsworldConfigError)."""
    if not isinstance(config, dict):
        raise OsworldConfigError("(top level)", f"not an OSWorld task config: expected a JSON object, got {type(config).__name__}")
    for key in ("id", "instruction"):
        if not isinstance(config.get(key), str) or not config[key].strip():
            raise OsworldConfigError(key, "not an OSWorld task config: it needs 'id' and 'instruction' (text)")
    related = config.get("related_apps")
    if related is not None and not (isinstance(related, list) and all(isinstance(a, str) for a in related)):
        raise OsworldConfigError("related_apps", "expected a list of app names")
    evaluator_spec = config.get("evaluator")
    if evaluator_spec is None:
        raise OsworldConfigError("evaluator", "missing: every OSWorld task has an evaluator")
    if not isinstance(evaluator_spec, dict):
        raise OsworldConfigError("evaluator", f"expected a mapping, got {type(evaluator_spec).__name__}")
    return evaluator_spec


def _task_data(config: dict[str, Any], domain: str, apps: list[str], windows: bool, sections: dict[str, Any]) -> dict[str, Any]:
    """The task file's data; the sections (setup, evaluator, post_steps) that are empty are left out."""
    environment: dict[str, Any] = {"kind": "desktop", "screen": dict(OSWORLD_SCREEN), "apps": apps}
    if "thunderbird" in apps:
        environment["mail"] = {}
    data: dict[str, Any] = {
        "id": f"osworld.{domain}.{config['id']}{'.win' if windows else ''}",
        "instruction": config["instruction"],
        "description": "",
        "tags": ["osworld", domain] + (["windows"] if windows else []),
        "source": f"osworld:{config['id']}",
        "environment": environment,
    }
    data.update({key: value for key, value in sections.items() if value})
    data["limits"] = dict(LIMITS)
    return data


def _description(config: dict[str, Any], domain: str, windows: bool, inputs: list[DeclaredInput], conv: _Converter) -> str:
    """Where the task came from, the inputs to supply, what was left out, and the notes."""
    lines = [f"Imported from OSWorld ({domain}/{config['id']}{', Windows variant' if windows else ''})."]
    if isinstance(config.get("source"), str) and config["source"]:
        lines.append(f"Original source: {config['source']}")
    if inputs:
        lines.append("Declared inputs (download each URL to the path, next to this file):")
        lines += [f"  {i.path} <- {i.url}" for i in inputs]
    if conv.unsupported:
        lines.append("Parts with no equivalent (left out):")
        lines += [f"  {u}" for u in conv.unsupported]
    return "\n".join(lines + conv.notes)


def _validated(data: dict[str, Any]) -> Task:
    """The task, or OsworldConfigError naming the key our schema refuses (a conversion gone wrong)."""
    try:
        return Task.model_validate(data)
    except ValueError as exc:  # pydantic's ValidationError: a value our schema refuses
        errors = getattr(exc, "errors", None)
        first = errors()[0] if callable(errors) else {"loc": (), "msg": str(exc)}
        key = ".".join(str(p) for p in first.get("loc", ()))
        raise OsworldConfigError(f"(converted task) {key}", f"{first.get('msg')}") from None


def _task_paths(value: Any) -> list[str]:
    """Every ``inputs/...`` string in the task data (the declared inputs it uses)."""
    if isinstance(value, str):
        return [value] if value.startswith("inputs/") else []
    if isinstance(value, dict):
        return [p for v in value.values() for p in _task_paths(v)]
    if isinstance(value, list):
        return [p for v in value for p in _task_paths(v)]
    return []


__all__ = ["OSWORLD_DOMAINS", "Conversion", "DeclaredInput", "OSWORLD_SCREEN", "convert_osworld", "task_file_name"]
