"""Running a desktop task's typed setup and post steps in a :class:`DesktopSession`.

One function per step kind (:mod:`gui_agent.envs.desktop.steps` declares them). A step
that cannot be done while the desktop itself is fine (a shipped file is missing, a window
never appeared, a command failed) raises :class:`DesktopStepError`, a
:class:`~gui_agent.errors.PageError`: the runner reports a failed setup as an
environment failure, never as the agent's. A dead display raises
:class:`~gui_agent.errors.EnvDiedError`.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

from gui_agent.actions import Hotkey
from gui_agent.envs.desktop import steps as kinds
from gui_agent.envs.desktop.app_activity import cpu_time_ns
from gui_agent.envs.desktop.apps.chrome import profile_dir as chrome_profile_dir
from gui_agent.envs.desktop.apps.mailbox import deliver
from gui_agent.envs.desktop.session import DesktopSession
from gui_agent.envs.desktop.x11_windows import WindowInfo
from gui_agent.envs.owned_process import describe_exit
from gui_agent.envs.steps import SleepStep
from gui_agent.errors import DesktopStepError
from gui_agent.polling import poll

#: Pause between polls while waiting for a window or a file.
POLL_S = 0.05
#: An app counts as started once, after its window appeared, the screen stayed unchanged
#: and its processes used under :data:`IDLE_CPU_SHARE` of a core for this long. A window
#: is mapped (and titled) long before it is drawn: LibreOffice shows an empty grey frame
#: with the file's name for a moment while it loads the document.
IDLE_QUIET_S = 0.5
IDLE_CPU_SHARE = 0.1


def step_timeout(step: Any) -> float:
    """Seconds a step may take at most (its own ``timeout_s``, else a small default)."""
    if isinstance(step, SleepStep):
        return float(step.sleep.seconds)
    return float(getattr(step.args, "timeout_s", 10.0))


def run_step(session: DesktopSession, step: Any, *, task_dir: Path | None) -> None:
    """Run one typed step.

    Raises:
        DesktopStepError: the step could not be done.
        EnvDiedError: the display or an app died.
    """
    if isinstance(step, SleepStep):
        time.sleep(step.sleep.seconds)
        return
    runner = _RUNNERS.get(type(step))
    if runner is None:
        raise DesktopStepError(f"a desktop cannot run the step {getattr(step, 'name', step)!r}")
    runner(session, step.args, task_dir)


# ---------------------------------------------------------------------- files


def _place_file(session: DesktopSession, args: kinds.PlaceFileArgs, task_dir: Path | None) -> None:
    target = session.resolve(args.path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if args.text is not None:
        target.write_text(args.text, encoding="utf-8")
    elif args.from_ is not None:
        source = shipped_file(task_dir, args.from_, source_url=args.source_url)
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=True)
        else:
            shutil.copyfile(source, target)
    else:
        assert args.url is not None
        try:
            with urllib.request.urlopen(args.url, timeout=30) as response:
                target.write_bytes(response.read())
        except (urllib.error.URLError, OSError) as exc:
            raise DesktopStepError(f"place_file: downloading {args.url} failed: {exc}") from None


def shipped_file(task_dir: Path | None, relative: str, *, source_url: str | None = None) -> Path:
    """A file shipped in the task's folder; a clear error when it is not there."""
    if task_dir is None:
        raise DesktopStepError(
            f"the task ships the file {relative!r}, but the environment does not know the task's folder "
            "(load the task with load_task(path), or pass task_dir= to DesktopEnv)"
        )
    path = task_dir / relative
    if not path.exists():
        hint = (
            f"; it is a declared input: download {source_url} and save it there"
            if source_url else ""
        )
        raise DesktopStepError(f"the file {relative!r} the task ships is missing (looked for {path}){hint}")
    return path


def _wait_for_file(session: DesktopSession, args: kinds.WaitForFileArgs, task_dir: Path | None) -> None:
    target = session.resolve(args.path)
    deadline = time.monotonic() + args.timeout_s
    last: tuple[int, int] | None = None
    since = time.monotonic()
    while True:
        try:
            st = target.stat()
            state: tuple[int, int] | None = (st.st_size, st.st_mtime_ns)
        except OSError:
            state = None
        now = time.monotonic()
        if state != last:
            last, since = state, now
        elif state is not None and now - since >= args.stable_s:
            return
        if now > deadline:
            if state is None and not args.must_exist:
                return
            what = "does not exist" if state is None else f"kept changing for {args.timeout_s:g} s"
            raise DesktopStepError(f"wait_for_file: {args.path} {what}")
        time.sleep(POLL_S)


# ---------------------------------------------------------------------- apps and commands


def _app(session: DesktopSession, name: str) -> Any:
    spec = session.app_specs.get(name)
    if spec is None:
        raise DesktopStepError(f"the app {name!r} is not in environment.apps ({', '.join(session.app_specs) or 'none'})")
    return spec


def _launch(session: DesktopSession, args: kinds.LaunchArgs, task_dir: Path | None) -> None:
    if args.app is not None:
        spec = _app(session, args.app)
        proc = session.launch(spec.launch_argv(args.args, home=session.home, port=session.app_ports.get(args.app)), label=spec.title)
        window = args.window or spec.window_title
        label = spec.title
    else:
        assert args.command is not None
        proc = session.launch(list(args.command), label=args.command[0])
        window = args.window or ""
        label = args.command[0]
    if args.wait:
        deadline = time.monotonic() + args.timeout_s
        wait_for_window(session, window, timeout_s=args.timeout_s, what=f"launch {label}", watch=proc)
        _settle(session, None if args.app is None else _app(session, args.app).launch_idle_max_s, deadline)


def _open_file(session: DesktopSession, args: kinds.OpenFileArgs, task_dir: Path | None) -> None:
    spec = _app(session, args.app)
    path = session.resolve(args.path)
    if not path.exists():
        raise DesktopStepError(f"open_file: {args.path} does not exist in the home folder (place it first)")
    proc = session.launch(spec.open_argv(str(path), home=session.home, port=session.app_ports.get(args.app)), label=spec.title, launcher_only=True)
    window = args.window or spec.window_for_file(path.name)
    deadline = time.monotonic() + args.timeout_s
    wait_for_window(session, window, timeout_s=args.timeout_s, what=f"open {args.path} in {spec.title}", watch=proc)
    _settle(session, spec.launch_idle_max_s, deadline)


def _settle(session: DesktopSession, idle_max_s: float | None, deadline: float) -> None:
    """Wait until the app is idle, at most ``idle_max_s`` (the app's own limit) or until the deadline."""
    wait_idle(session, deadline=deadline if idle_max_s is None else min(deadline, time.monotonic() + idle_max_s))


def wait_idle(session: DesktopSession, *, deadline: float, quiet_s: float = IDLE_QUIET_S) -> bool:
    """Wait until the screen is unchanged and the apps are (nearly) idle for ``quiet_s``.

    Returns False if ``deadline`` (a ``time.monotonic()`` value) came first; the desktop
    is then used as it is (a busy app is a state an agent can see and wait out).
    """
    assert session.capture is not None
    last_frame = session.capture.grab_raw()
    last_cpu = cpu_time_ns(session.app_pids())
    polled = quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        session.check_alive()
        frame = session.capture.grab_raw()
        cpu = cpu_time_ns(session.app_pids())
        now = time.monotonic()
        busy = cpu - last_cpu > IDLE_CPU_SHARE * (now - polled) * 1e9
        if busy or session.capture.changed(last_frame, frame):
            quiet_since = now
        elif now - quiet_since >= quiet_s:
            return True
        last_frame, last_cpu, polled = frame, cpu, now
    return False


def _run_command(session: DesktopSession, args: kinds.RunCommandArgs, task_dir: Path | None) -> None:
    stdout = session.resolve(args.stdout) if args.stdout is not None else None
    if stdout is not None:
        stdout.parent.mkdir(parents=True, exist_ok=True)
    proc = session.launch(list(args.command), label=f"command {args.command[0]}", launcher_only=True, stdout=stdout)
    # A finished command is not a running app: its exit status is judged here, not later.
    session.launched = [a for a in session.launched if a.process is not proc]
    if not proc.wait(args.timeout_s):
        proc.stop(grace_s=0.5)
        raise DesktopStepError(f"run_command {args.command!r} did not finish within {args.timeout_s:g} s")
    code = proc.returncode()
    output = proc.log_tail(800)
    proc.stop(grace_s=0.0)  # whatever it left running in its session goes too
    if args.check and code != 0:
        raise DesktopStepError(
            f"run_command {args.command!r} failed ({describe_exit(code)})" + (f": {output}" if output else "")
        )


# ---------------------------------------------------------------------- windows and keys


def wait_for_window(
    session: DesktopSession,
    title_regex: str,
    *,
    timeout_s: float,
    what: str,
    active: bool = False,
    watch: Any = None,
) -> WindowInfo:
    """Wait until a window whose title matches exists (and is active, if asked).

    ``watch``: a process whose failing exit ends the wait early with its output.
    """
    windows = session.windows
    assert windows is not None
    pattern = re.compile(title_regex)

    def found() -> WindowInfo | None:
        session.check_alive()
        if active:
            current = windows.active()
            if current is not None and pattern.search(current.title):
                return current
        else:
            for window in windows.windows():
                if pattern.search(window.title):
                    return window
        if watch is not None and watch.returncode() not in (None, 0):
            raise DesktopStepError(
                f"{what}: it exited ({describe_exit(watch.returncode())}) before a window matching "
                f"{title_regex!r} appeared: {watch.log_tail(600) or '(no output)'}"
            )
        return None

    window = poll(found, timeout_s=timeout_s, interval_s=POLL_S)
    if window is None:
        shown = [w.title for w in windows.windows()]
        focus = windows.active()
        raise DesktopStepError(
            f"{what}: no {'focused ' if active else ''}window matching {title_regex!r} within {timeout_s:g} s "
            f"(windows: {shown or 'none'}; focused: {focus.title if focus else 'none'!r})"
        )
    return window


def _wait_for_window(session: DesktopSession, args: kinds.WaitForWindowArgs, task_dir: Path | None) -> None:
    wait_for_window(session, args.title, timeout_s=args.timeout_s, what="wait_for_window", active=args.active)


def activate(session: DesktopSession, title_regex: str, *, timeout_s: float) -> None:
    """Focus the window matching ``title_regex`` and wait until it is the active one."""
    windows = session.windows
    assert windows is not None
    window = wait_for_window(session, title_regex, timeout_s=timeout_s, what="activate_window")

    def focused() -> bool:
        current = windows.active()
        if current is not None and current.id == window.id:
            return True
        windows.activate(window.id)
        return False

    if not poll(focused, timeout_s=timeout_s, interval_s=POLL_S):
        raise DesktopStepError(f"activate_window: {window.title!r} did not get the focus within {timeout_s:g} s")


def _activate_window(session: DesktopSession, args: kinds.ActivateWindowArgs, task_dir: Path | None) -> None:
    if args.title is not None:
        activate(session, args.title, timeout_s=args.timeout_s)
        return
    windows, wm_class = session.windows, args.wm_class
    assert windows is not None and wm_class is not None
    deadline = time.monotonic() + args.timeout_s
    found = poll(lambda: [w for w in windows.windows() if re.search(wm_class, w.wm_class)], timeout_s=args.timeout_s, interval_s=POLL_S)
    if not found:
        raise DesktopStepError(f"activate_window: no window of class matching {wm_class!r} within {args.timeout_s:g} s")
    activate(session, f"^{re.escape(found[0].title)}$", timeout_s=max(0.5, deadline - time.monotonic()))


def _window_matches(args: kinds.CloseWindowArgs, window: WindowInfo) -> bool:
    if args.title is not None:
        return re.search(args.title, window.title) is not None
    return re.search(args.wm_class or "", window.wm_class) is not None


def _close_window(session: DesktopSession, args: kinds.CloseWindowArgs, task_dir: Path | None) -> None:
    assert session.windows is not None
    deadline = time.monotonic() + args.timeout_s
    asked: set[int] = set()
    while True:
        matching = [w for w in session.windows.windows() if _window_matches(args, w)]
        if not matching:
            return
        for window in matching:
            if window.id not in asked:
                session.windows.close(window.id)
                asked.add(window.id)
        if time.monotonic() > deadline:
            raise DesktopStepError(
                f"close_window: {[w.title for w in matching]} still open after {args.timeout_s:g} s "
                "(an unsaved-changes question may be showing)"
            )
        time.sleep(POLL_S)


def _hotkey(session: DesktopSession, args: kinds.HotkeyArgs, task_dir: Path | None) -> None:
    assert session.input is not None and session.windows is not None
    if args.window is not None and session.windows.find(args.window):
        try:
            activate(session, args.window, timeout_s=5.0)
        except DesktopStepError:
            pass  # a modal dialog keeps the focus: the keys go to it, as they would for a person
    session.input.perform(Hotkey(tuple(args.keys)))


def _input_actions(session: DesktopSession, args: kinds.InputActionsArgs, task_dir: Path | None) -> None:
    from gui_agent.action_formats.pyautogui import parse_pyautogui
    from gui_agent.actions import Wait

    assert session.input is not None
    for action in parse_pyautogui(args.pyautogui):
        if isinstance(action, Wait):
            time.sleep(action.seconds)
        else:
            session.input.perform(action, timeout_s=5.0)


# ---------------------------------------------------------------------- mail


def _deliver_mail(session: DesktopSession, args: kinds.DeliverMailArgs, task_dir: Path | None) -> None:
    if session.mail_settings is None:
        raise DesktopStepError("deliver_mail needs a mail server: add 'mail: {address: ...}' to the environment")
    attachments = [
        (attachment.name or Path(attachment.from_).name, shipped_file(task_dir, attachment.from_).read_bytes())
        for attachment in args.attachments
    ]
    deliver(session, args, attachments)


# ---------------------------------------------------------------------- Chromium (DevTools) and quitting apps


def _devtools(session: DesktopSession, path: str, *, method: str = "GET", timeout_s: float = 5.0) -> Any:
    """A DevTools HTTP endpoint of the session's Chromium (``/json/list``...), its JSON answer."""
    port = session.app_ports.get("chrome")
    if port is None:
        raise DesktopStepError("this step needs Chromium: add 'chrome' to environment.apps and launch it first")
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method)
    with urllib.request.urlopen(request, timeout=timeout_s) as response:
        body = response.read().decode("utf-8", "replace")
    try:
        return json.loads(body)
    except ValueError:
        return body  # /json/close answers "Target is closing"


def _chrome_tabs(session: DesktopSession, *, timeout_s: float) -> list[dict[str, Any]]:
    """The open tabs (DevTools ``page`` targets), waiting for Chromium's port to answer."""
    def answer() -> tuple[list[dict[str, Any]]] | None:  # a tuple: no tabs at all is an answer too
        session.check_alive()
        try:
            return ([t for t in _devtools(session, "/json/list") if t.get("type") == "page"],)
        except (urllib.error.URLError, OSError):
            return None

    found = poll(answer, timeout_s=timeout_s, interval_s=0.1)
    if found is None:
        raise DesktopStepError(f"Chromium's DevTools port did not answer within {timeout_s:g} s (is Chromium launched?)")
    return found[0]


def same_url(first: str, second: str) -> bool:
    """Whether two addresses are the same page as OSWorld compares them (``compare_urls``):
    scheme and host without case, ``www.`` in the host and a path of just ``/`` ignored."""
    return _normal_url(first) == _normal_url(second)


def _normal_url(url: str) -> str:
    parts = urllib.parse.urlparse(url)
    path = "" if parts.path == "/" else parts.path
    return urllib.parse.urlunparse(parts._replace(scheme=(parts.scheme or "http").lower(),
                                                  netloc=parts.netloc.lower().replace("www.", ""), path=path))


def _chrome_open_tabs(session: DesktopSession, args: kinds.ChromeOpenTabsArgs, task_dir: Path | None) -> None:
    deadline = time.monotonic() + args.timeout_s
    before = [t["id"] for t in _chrome_tabs(session, timeout_s=args.timeout_s)]
    opened: list[str] = []
    for url in args.urls:
        target = _devtools(session, "/json/new?" + urllib.parse.quote(url, safe=""), method="PUT")
        opened.append(target["id"])
    for target_id in before:
        _devtools(session, f"/json/close/{target_id}")

    def committed() -> bool:  # every new tab left about:blank (its page, or its error page, is shown) and the old ones are gone
        tabs = {t["id"]: t for t in _chrome_tabs(session, timeout_s=5.0)}
        return (all(tabs.get(i, {}).get("url") not in (None, "", "about:blank") for i in opened)
                and not any(i in tabs for i in before))

    poll(committed, timeout_s=max(0.5, deadline - time.monotonic()), interval_s=0.1)
    wait_idle(session, deadline=deadline)


def _chrome_close_tabs(session: DesktopSession, args: kinds.ChromeCloseTabsArgs, task_dir: Path | None) -> None:
    tabs = _chrome_tabs(session, timeout_s=args.timeout_s)
    for url in args.urls:
        found = next((t for t in tabs if same_url(t.get("url", ""), url)), None)
        if found is None:
            raise DesktopStepError(f"chrome_close_tabs: no open tab shows {url} (tabs: {[t.get('url') for t in tabs]})")
        _devtools(session, f"/json/close/{found['id']}")
        tabs.remove(found)
    gone = poll(lambda: len(_chrome_tabs(session, timeout_s=5.0)) <= len(tabs), timeout_s=args.timeout_s, interval_s=0.1)
    if not gone:
        raise DesktopStepError(f"chrome_close_tabs: the tabs of {args.urls} were still open after {args.timeout_s:g} s")


#: Chromium counts time in microseconds since 1601-01-01 (UTC); Unix time starts this many seconds later.
CHROME_EPOCH_OFFSET_S = 11_644_473_600


def _chrome_add_history(session: DesktopSession, args: kinds.ChromeAddHistoryArgs, task_dir: Path | None) -> None:
    spec = _app(session, "chrome")
    if any(a.label == spec.title and a.process.returncode() is None for a in session.launched):
        raise DesktopStepError("chrome_add_history must come before Chromium is launched (it holds its history database)")
    database = chrome_profile_dir(session.home) / "History"
    if not database.exists():
        _make_chrome_profile(session, spec, database, timeout_s=args.timeout_s)
    now = time.time()
    with closing(sqlite3.connect(database)) as db, db:
        for visit in args.visits:
            when = int((now - visit.seconds_ago + CHROME_EPOCH_OFFSET_S) * 1_000_000)
            row = db.execute("SELECT id, last_visit_time FROM urls WHERE url = ?", (visit.url,)).fetchone()
            if row is None:
                url_id = db.execute(
                    "INSERT INTO urls (url, title, visit_count, typed_count, last_visit_time, hidden) VALUES (?, ?, 1, 0, ?, 0)",
                    (visit.url, visit.title, when)).lastrowid
            else:
                url_id = row[0]
                db.execute("UPDATE urls SET visit_count = visit_count + 1, last_visit_time = ?, title = ? WHERE id = ?",
                           (max(row[1], when), visit.title, url_id))
            # 805306368: a link followed, the start and end of its redirect chain (what OSWorld writes)
            db.execute("INSERT INTO visits (url, visit_time, from_visit, transition, segment_id, visit_duration) "
                       "VALUES (?, ?, 0, 805306368, 0, 0)", (url_id, when))


def _make_chrome_profile(session: DesktopSession, spec: Any, database: Path, *, timeout_s: float) -> None:
    """Let Chromium make its profile (its history database with this version's schema):
    started headless until the database is there, then quit."""
    argv = spec.launch_argv(["--headless=new", "about:blank"], home=session.home, port=session.app_ports.get("chrome"))
    proc = session.launch(argv, label="Chromium (making its profile)", launcher_only=True)
    session.launched = [a for a in session.launched if a.process is not proc]
    try:
        made = poll(lambda: database.exists() and _answers(session) or None, timeout_s=timeout_s, interval_s=0.1)
        time.sleep(0.5)  # the history backend finishes creating its tables
    finally:
        proc.stop(grace_s=10.0)
    if not made:
        raise DesktopStepError(f"Chromium did not make its profile within {timeout_s:g} s: {proc.log_tail(600)}")
    with closing(sqlite3.connect(database)) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not {"urls", "visits"} <= tables:
        raise DesktopStepError(f"Chromium's new history database has no urls/visits tables (it has {sorted(tables)})")


def _answers(session: DesktopSession) -> bool:
    try:
        _devtools(session, "/json/version", timeout_s=1.0)
        return True
    except (urllib.error.URLError, OSError):
        return False


def _quit_app(session: DesktopSession, args: kinds.QuitAppArgs, task_dir: Path | None) -> None:
    """Close the app's windows as their close buttons do (Chromium then saves everything,
    its bookmarks too, which SIGTERM can lose), wait for it to exit; SIGTERM, then SIGKILL,
    what is still running after ``timeout_s`` (a "save changes?" question kept it open)."""
    spec = _app(session, args.app)
    assert session.windows is not None
    running = [a for a in session.launched if a.label == spec.title and a.process.returncode() is None]
    pids = {pid for app in running for pid in app.process.members()}
    for window in session.windows.windows():
        if window.pid in pids:
            session.windows.close(window.id)
    poll(lambda: all(app.process.returncode() is not None for app in running), timeout_s=args.timeout_s, interval_s=0.05)
    for app in running:
        app.process.stop(grace_s=2.0)
    session.launched = [a for a in session.launched if a.label != spec.title]


_RUNNERS: dict[type, Callable[[DesktopSession, Any, Path | None], None]] = {
    kinds.PlaceFileStep: _place_file,
    kinds.LaunchStep: _launch,
    kinds.RunCommandStep: _run_command,
    kinds.WaitForWindowStep: _wait_for_window,
    kinds.OpenFileStep: _open_file,
    kinds.ActivateWindowStep: _activate_window,
    kinds.CloseWindowStep: _close_window,
    kinds.HotkeyStep: _hotkey,
    kinds.WaitForFileStep: _wait_for_file,
    kinds.DeliverMailStep: _deliver_mail,
    kinds.InputActionsStep: _input_actions,
    kinds.ChromeOpenTabsStep: _chrome_open_tabs,
    kinds.ChromeCloseTabsStep: _chrome_close_tabs,
    kinds.ChromeAddHistoryStep: _chrome_add_history,
    kinds.QuitAppStep: _quit_app,
}
