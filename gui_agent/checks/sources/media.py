"""Sources read from the media player: what VLC plays, its settings, the default video app.

* ``vlc_status``: what VLC's HTTP interface reports (``/requests/status.xml``, on the
  loopback port the episode reserved for it): one top-level ``field`` (``state``,
  ``fullscreen``, ``time``...), one ``meta`` datum of the item playing (``filename``,
  ``url``, ``title``...), or the whole document. OSWorld's ``vlc_playing_info`` getter
  fetches the same document from its VM's VLC.
* ``vlc_setting``: one setting of ``~/.config/vlc/vlcrc`` read the way OSWorld's VLC
  metrics read it (see :func:`vlcrc_value`).
* ``vlc_qt_setting``: one value of the Qt interface's own settings file,
  ``~/.config/vlc/vlc-qt-interface.conf`` (window state, recent files, toolbars).
* ``default_app``: which ``.desktop`` application ``xdg-mime`` opens most of the given
  MIME types with (OSWorld's ``default_video_player``).
"""

from __future__ import annotations

import base64
import configparser
import re
import urllib.request
import xml.etree.ElementTree as ET
from collections import Counter
from typing import ClassVar

from pydantic import Field, model_validator

from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.sources.base import SourceType
from gui_agent.schema import NonBlank, SingleKey, StrictModel

#: VLC's HTTP interface password; the vlc app passes the same word on VLC's command line
#: (``gui_agent.envs.desktop.apps.vlc.HTTP_PASSWORD``; a test keeps the two equal, since
#: checks and environments do not import each other).
VLC_HTTP_PASSWORD = "gui-agent-vlc"
#: VLC's settings files, relative to the home folder.
VLCRC = ".config/vlc/vlcrc"
VLC_QT_CONF = ".config/vlc/vlc-qt-interface.conf"
#: How long a status request may take (VLC answers at once when it runs).
STATUS_TIMEOUT_S = 10.0


class VlcStatusArgs(StrictModel):
    """One item of VLC's status: a top-level ``field`` (``state``, ``fullscreen``, ``time``,
    ``length``, ``volume``...) or a ``meta`` datum of the item playing (``filename``,
    ``url``, ``title``...); neither: the whole ``status.xml`` text. None when VLC reports
    no such item."""

    field: NonBlank | None = None
    meta: NonBlank | None = None

    @model_validator(mode="after")
    def _at_most_one(self) -> VlcStatusArgs:
        if self.field is not None and self.meta is not None:
            raise ValueError("expected at most one of: field, meta")
        return self


class VlcSettingArgs(StrictModel):
    """The setting ``name`` of ``~/.config/vlc/vlcrc`` (``default`` when no line sets it).

    ``commented``: lines VLC wrote commented out (``#name=value``, its defaults) count too,
    as OSWorld's Qt-setting metrics read them; ``false`` skips them (its recordings-folder
    metric)."""

    name: NonBlank
    default: str | None = None
    commented: bool = True


class VlcQtSettingArgs(StrictModel):
    """The value of ``key`` (``Group/name``; a bare name is in ``[General]``) in VLC's
    ``~/.config/vlc/vlc-qt-interface.conf``, as text; None when it is not there."""

    key: NonBlank


class DefaultAppArgs(StrictModel):
    """The ``.desktop`` file ``xdg-mime query default`` names for most of ``mime_types``
    (``unknown`` when it names none)."""

    mime_types: list[NonBlank] = Field(min_length=1)


class VlcStatusSource(SingleKey):
    name: ClassVar[str] = "vlc_status"
    vlc_status: VlcStatusArgs


class VlcSettingSource(SingleKey):
    name: ClassVar[str] = "vlc_setting"
    vlc_setting: VlcSettingArgs


class VlcQtSettingSource(SingleKey):
    name: ClassVar[str] = "vlc_qt_setting"
    vlc_qt_setting: VlcQtSettingArgs


class DefaultAppSource(SingleKey):
    name: ClassVar[str] = "default_app"
    default_app: DefaultAppArgs


# ---------------------------------------------------------------------- VLC's status


def vlc_status_xml(probe: DesktopProbe) -> str:
    """The ``status.xml`` VLC's HTTP interface serves now.

    Raises:
        RuntimeError: the episode has no VLC control port.
        OSError: VLC does not answer (it is not running, or was closed).
    """
    port = probe.app_port("vlc")
    token = base64.b64encode(f":{VLC_HTTP_PASSWORD}".encode()).decode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/requests/status.xml", headers={"Authorization": f"Basic {token}"})
    with urllib.request.urlopen(request, timeout=STATUS_TIMEOUT_S) as response:
        return response.read().decode("utf-8", errors="replace")


def status_field(xml_text: str, field: str) -> str | None:
    """The text of the top-level element ``field`` of a status document (None: absent)."""
    element = ET.fromstring(xml_text).find(field)
    return None if element is None else (element.text or "")


def status_meta(xml_text: str, name: str) -> str | None:
    """The ``meta`` category's info ``name`` of a status document (None: absent)."""
    root = ET.fromstring(xml_text)
    for category in root.iterfind("information/category"):
        if category.get("name") == "meta":
            for info in category.iterfind("info"):
                if info.get("name") == name:
                    return info.text or ""
    return None


def _vlc_status(args: VlcStatusArgs, probe: DesktopProbe) -> str | None:
    xml_text = vlc_status_xml(probe)
    if args.field is not None:
        return status_field(xml_text, args.field)
    if args.meta is not None:
        return status_meta(xml_text, args.meta)
    return xml_text


# ---------------------------------------------------------------------- settings files


def vlcrc_value(text: str, name: str, *, commented: bool = True) -> str | None:
    """The value the last line setting ``name`` gives it in a ``vlcrc`` text, or None.

    VLC writes every option once, as ``name=value`` when it differs from the default and
    as ``#name=default`` when it does not. OSWorld's metrics read the value after the
    ``=`` of the lines mentioning the name, commented-out ones included (so the default
    VLC wrote counts), except its recordings-folder metric, which skips comments:
    ``commented`` chooses. The value is stripped of surrounding blanks, as theirs is.
    """
    pattern = re.compile(rf"^\s*(#\s*)?{re.escape(name)}\s*=(.*)$")
    found = None
    for line in text.splitlines():
        match = pattern.match(line)
        if match is None or (match.group(1) and not commented):
            continue
        found = match.group(2).strip()
    return found


def _vlc_setting(args: VlcSettingArgs, probe: DesktopProbe) -> str | None:
    text = probe.resolve_path(VLCRC).read_text(encoding="utf-8", errors="replace")
    value = vlcrc_value(text, args.name, commented=args.commented)
    return args.default if value is None else value


def qt_setting(text: str, key: str) -> str | None:
    """The value of ``key`` (``Group/name``; a bare name is in ``[General]``) in a Qt INI text
    (Qt writes the keys of a group's subgroups as ``sub\\name`` in the group's section)."""
    group, _, name = key.partition("/")
    group, name = (group, name.replace("/", "\\")) if name else ("", group)
    parser = configparser.RawConfigParser(strict=False, delimiters=("=",), comment_prefixes=(";",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # Qt keys are case-sensitive
    parser.read_string(text)
    section = group or "General"
    if not parser.has_section(section) or not parser.has_option(section, name):
        return None
    return parser.get(section, name)


def _vlc_qt_setting(args: VlcQtSettingArgs, probe: DesktopProbe) -> str | None:
    return qt_setting(probe.resolve_path(VLC_QT_CONF).read_text(encoding="utf-8", errors="replace"), args.key)


# ---------------------------------------------------------------------- default applications


def _default_app(args: DefaultAppArgs, probe: DesktopProbe) -> str:
    answers: list[str] = []
    for mime in dict.fromkeys(args.mime_types):  # once each, in order (ties go to the first)
        done = probe.run_command(["xdg-mime", "query", "default", mime])
        if done.stdout.strip():
            answers.append(done.stdout.strip())
    return Counter(answers).most_common(1)[0][0] if answers else "unknown"


SOURCES: tuple[SourceType, ...] = (
    SourceType(VlcStatusSource, _vlc_status),
    SourceType(VlcSettingSource, _vlc_setting),
    SourceType(VlcQtSettingSource, _vlc_qt_setting),
    SourceType(DefaultAppSource, _default_app),
)

__all__ = [
    "SOURCES", "VLCRC", "VLC_HTTP_PASSWORD", "VLC_QT_CONF", "qt_setting", "status_field", "status_meta",
    "vlc_status_xml", "vlcrc_value",
]
