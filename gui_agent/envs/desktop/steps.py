"""Setup (and post) steps of desktop tasks: files, apps, windows, keys, mail.

Written like the browser steps, as one-key mappings::

    setup:
      - place_file: {path: sales.xlsx, from: files/sales.xlsx}     # copied from the task folder
      - open_file: {path: sales.xlsx, app: calc}                    # waits for its window
    post_steps:
      - hotkey: {keys: [ctrl, s], window: 'sales\\.xlsx'}           # save before evaluating
      - wait_for_file: {path: sales.xlsx}

Paths follow :mod:`gui_agent.envs.desktop.paths` (relative to the episode's home folder;
``from`` relative to the task file's folder). :mod:`gui_agent.envs.desktop.step_runner`
runs them; ``sleep`` (:mod:`gui_agent.envs.steps`) runs here too.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Annotated, ClassVar
from urllib.parse import urlsplit

from pydantic import AfterValidator, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from gui_agent.actions import normalize_key
from gui_agent.envs.desktop.apps.catalogue import DesktopApp
from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.errors import ActionError
from gui_agent.schema import NonBlank, PositiveFloat, Regex, SingleKey, StrictModel, exactly_one


def loopback_url(url: str) -> str:
    """Accept only http(s) URLs on this machine (127.0.0.0/8, ::1, localhost)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"expected an http:// or https:// URL, got {url!r}")
    host = parts.hostname
    if host != "localhost":
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            raise ValueError(
                f"url {url!r} is not on this machine; only loopback URLs (127.0.0.1, localhost, [::1]) "
                "are downloaded. Ship the file with the task (from: ...) and keep the address in source_url"
            )
    return url


class PlaceFileArgs(StrictModel):
    """Put a file at ``path`` (home-relative) before the apps start.

    Exactly one source: ``from`` (a file shipped in the task's folder), ``url`` (downloaded
    from a loopback server) or ``text`` (written as UTF-8). ``source_url`` records where a
    shipped file originally came from (an OSWorld download that must be supplied locally).
    """

    path: HomePath
    from_: TaskPath | None = Field(default=None, alias="from")
    url: Annotated[str, AfterValidator(loopback_url)] | None = None
    text: str | None = None
    source_url: str | None = None

    @model_validator(mode="after")
    def _one_source(self) -> PlaceFileArgs:
        exactly_one(self, ("from_", "url", "text"))
        if self.source_url is not None and self.from_ is None:
            raise PydanticCustomError(
                "source_url", "source_url documents where a 'from' file came from; it needs 'from'", {"key": "source_url"}
            )
        return self


class LaunchArgs(StrictModel):
    """Start an app of ``environment.apps`` (with extra ``args``) or a ``command``.

    With ``wait: true`` (the default) the step waits until a window whose title matches
    ``window`` is shown (default for an app: its main window's title).
    """

    app: DesktopApp | None = None
    command: list[NonBlank] | None = Field(default=None, min_length=1)
    args: list[str] = Field(default_factory=list)
    window: Regex | None = None
    wait: bool = True
    timeout_s: PositiveFloat = 60.0

    @model_validator(mode="after")
    def _app_or_command(self) -> LaunchArgs:
        exactly_one(self, ("app", "command"))
        if self.args and self.app is None:
            raise PydanticCustomError("args", "args go with app; put them into command instead", {"key": "args"})
        if self.command is not None and self.wait and self.window is None:
            raise PydanticCustomError(
                "window", "a command has no known window: give 'window' (a title regex) or 'wait: false'", {"key": "wait"}
            )
        return self


class RunCommandArgs(StrictModel):
    """Run ``command`` (an argument list, no shell) in the home folder and wait for it.

    A non-zero exit fails the step when ``check`` is true. ``stdout``: a home-relative
    file that receives what the command prints (a post step saving, say, a folder
    listing for a ``lines_match`` check; OSWorld's ``stdout`` cache files).
    """

    command: list[NonBlank] = Field(min_length=1)
    timeout_s: PositiveFloat = 30.0
    check: bool = True
    stdout: HomePath | None = None


class WaitForWindowArgs(StrictModel):
    """Wait until a window whose title matches ``title`` exists (and is focused, if ``active``)."""

    title: Regex
    active: bool = False
    timeout_s: PositiveFloat = 30.0


class OpenFileArgs(StrictModel):
    """Open the home-relative ``path`` in ``app`` and wait for its window.

    The window is found by ``window`` (a title regex), by default the file's name.
    """

    path: HomePath
    app: DesktopApp
    window: Regex | None = None
    timeout_s: PositiveFloat = 60.0


class ActivateWindowArgs(StrictModel):
    """Raise and focus the window whose title matches ``title`` (or whose ``WM_CLASS``
    class matches ``wm_class``, e.g. ``^thunderbird$``)."""

    title: Regex | None = None
    wm_class: Regex | None = None
    timeout_s: PositiveFloat = 10.0

    @model_validator(mode="after")
    def _one(self) -> ActivateWindowArgs:
        exactly_one(self, ("title", "wm_class"))
        return self


class CloseWindowArgs(StrictModel):
    """Close the windows whose titles match ``title`` (or whose ``WM_CLASS`` class matches
    ``wm_class``) like their close button, and wait until they are gone."""

    title: Regex | None = None
    wm_class: Regex | None = None
    timeout_s: PositiveFloat = 10.0

    @model_validator(mode="after")
    def _one(self) -> CloseWindowArgs:
        exactly_one(self, ("title", "wm_class"))
        return self


def _pyautogui(code: str) -> str:
    from gui_agent.action_formats.pyautogui import parse_pyautogui
    from gui_agent.errors import ActionParseError

    try:
        parse_pyautogui(code)
    except ActionParseError as exc:
        raise ValueError(f"not pyautogui code this project can run: {exc.reason}") from None
    return code


class InputActionsArgs(StrictModel):
    """Perform input given as pyautogui code (``pyautogui.doubleClick(x=960, y=540)``,
    ``time.sleep(1)``), converted to canonical actions when the file loads; OSWorld's
    set-up clicks. Coordinates are screen pixels."""

    pyautogui: Annotated[str, AfterValidator(_pyautogui)]
    timeout_s: PositiveFloat = 30.0


def _key(name: str) -> str:
    try:
        return normalize_key(name)
    except ActionError as exc:
        raise ValueError(str(exc)) from None


class HotkeyArgs(StrictModel):
    """Press ``keys`` together (``[ctrl, s]``), first focusing the window whose title
    matches ``window`` if there is one (if there is none, the keys go to whatever has the
    focus: as a post-step, "save if the document is still open").

    A post-step that saves the document before the evaluator reads it.
    """

    keys: list[Annotated[str, AfterValidator(_key)]] = Field(min_length=1)
    window: Regex | None = None


class WaitForFileArgs(StrictModel):
    """Wait until ``path`` exists and has not changed for ``stable_s`` (a save finished).

    With ``must_exist: false`` a file that is not there is no error (a post-step: the
    evaluator then reports the missing file as the agent's failure).
    """

    path: HomePath
    stable_s: float = Field(default=0.5, strict=False, ge=0, le=60)
    timeout_s: PositiveFloat = 15.0
    must_exist: bool = True


class MailAttachment(StrictModel):
    """A file attached to a delivered message, shipped in the task's folder."""

    from_: TaskPath = Field(alias="from")
    name: NonBlank | None = None


class DeliverMailArgs(StrictModel):
    """Put a message into the user's inbox (the environment's mail server) before the
    mail client starts. ``to`` defaults to the user's address (``environment.mail``)."""

    from_: NonBlank = Field(alias="from")
    subject: NonBlank
    body: str = ""
    to: NonBlank | None = None
    date: str | None = None
    message_id: str | None = None
    attachments: list[MailAttachment] = Field(default_factory=list)

    @field_validator("from_", "to")
    @classmethod
    def _address(cls, value: str | None) -> str | None:
        if value is not None and not re.search(r"[^@\s<>]+@[^@\s<>]+", value):
            raise ValueError(f"expected an e-mail address (name@host or 'Name <name@host>'), got {value!r}")
        return value


def _web_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "file", "chrome", "about", "data") or not (parts.netloc or parts.path):
        raise ValueError(f"expected a web address (http, https, file, chrome, about or data), got {url!r}")
    return url


WebUrl = Annotated[str, AfterValidator(_web_url)]


class ChromeOpenTabsArgs(StrictModel):
    """Open ``urls`` in new tabs of the running Chromium (through its DevTools port), then
    close the tabs it had before (OSWorld's ``chrome_open_tabs``: the start tab goes, the
    last URL's tab is the active one). A page that does not load (no internet) stays
    open with its error page, as in a person's browser."""

    urls: list[WebUrl] = Field(min_length=1)
    timeout_s: PositiveFloat = 30.0


class ChromeCloseTabsArgs(StrictModel):
    """Close, for each of ``urls``, the first open tab showing that address (compared as
    OSWorld compares URLs: scheme and host case, ``www.`` and a lone trailing ``/`` aside).
    A URL no tab shows fails the step."""

    urls: list[WebUrl] = Field(min_length=1)
    timeout_s: PositiveFloat = 15.0


class HistoryVisit(StrictModel):
    """One visit of browsing history: ``url`` with its page ``title``, ``seconds_ago``."""

    url: NonBlank
    title: str = ""
    seconds_ago: float = Field(default=0.0, strict=False, ge=0)


class ChromeAddHistoryArgs(StrictModel):
    """Add ``visits`` to the Chromium profile's browsing history before Chromium starts
    (OSWorld's ``update_browse_history``). A profile that has no history database yet
    gets one from Chromium itself (started headless for a moment, so the database has
    exactly the schema this Chromium expects)."""

    visits: list[HistoryVisit] = Field(min_length=1)
    timeout_s: PositiveFloat = 30.0


class QuitAppArgs(StrictModel):
    """Quit ``app`` (OSWorld's ``pkill chrome`` post steps): its windows are closed as
    their close buttons do, and the step waits until it has exited, so what it saves on
    the way out (Chromium's ``Preferences``, ``Bookmarks``, ``History``) is on disk before
    the next step. What still runs after ``timeout_s`` gets SIGTERM, then SIGKILL. An app
    that is not running is no error."""

    app: DesktopApp
    timeout_s: PositiveFloat = 15.0


class PlaceFileStep(SingleKey):
    name: ClassVar[str] = "place_file"
    place_file: PlaceFileArgs


class LaunchStep(SingleKey):
    name: ClassVar[str] = "launch"
    launch: LaunchArgs


class RunCommandStep(SingleKey):
    name: ClassVar[str] = "run_command"
    run_command: RunCommandArgs


class WaitForWindowStep(SingleKey):
    name: ClassVar[str] = "wait_for_window"
    wait_for_window: WaitForWindowArgs


class OpenFileStep(SingleKey):
    name: ClassVar[str] = "open_file"
    open_file: OpenFileArgs


class ActivateWindowStep(SingleKey):
    name: ClassVar[str] = "activate_window"
    activate_window: ActivateWindowArgs


class CloseWindowStep(SingleKey):
    name: ClassVar[str] = "close_window"
    close_window: CloseWindowArgs


class InputActionsStep(SingleKey):
    name: ClassVar[str] = "input_actions"
    input_actions: InputActionsArgs


class HotkeyStep(SingleKey):
    name: ClassVar[str] = "hotkey"
    hotkey: HotkeyArgs


class WaitForFileStep(SingleKey):
    name: ClassVar[str] = "wait_for_file"
    wait_for_file: WaitForFileArgs


class DeliverMailStep(SingleKey):
    name: ClassVar[str] = "deliver_mail"
    deliver_mail: DeliverMailArgs


class ChromeOpenTabsStep(SingleKey):
    name: ClassVar[str] = "chrome_open_tabs"
    chrome_open_tabs: ChromeOpenTabsArgs


class ChromeCloseTabsStep(SingleKey):
    name: ClassVar[str] = "chrome_close_tabs"
    chrome_close_tabs: ChromeCloseTabsArgs


class ChromeAddHistoryStep(SingleKey):
    name: ClassVar[str] = "chrome_add_history"
    chrome_add_history: ChromeAddHistoryArgs


class QuitAppStep(SingleKey):
    name: ClassVar[str] = "quit_app"
    quit_app: QuitAppArgs


#: The desktop step types, in the order error messages list them.
DESKTOP_STEP_TYPES: tuple[type[SingleKey], ...] = (
    PlaceFileStep, LaunchStep, RunCommandStep, WaitForWindowStep, OpenFileStep,
    ActivateWindowStep, CloseWindowStep, HotkeyStep, WaitForFileStep, DeliverMailStep, InputActionsStep,
    ChromeOpenTabsStep, ChromeCloseTabsStep, ChromeAddHistoryStep, QuitAppStep,
)
