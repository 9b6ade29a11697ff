"""LibreOffice's own settings, as its profile saves them in ``registrymodifications.xcu``.

LibreOffice writes a setting there (within seconds, while it runs) once it differs from
its default: ``<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop
oor:name="AutoSaveTimeIntervall"><value>3</value></prop></item>``, a setting inside a
set going down through ``<node oor:name="...">`` elements (or spelled in the item's path
as ``Type['name']``). :func:`read_settings` flattens them all to one path each
(``/org.openoffice.Office.Views/Windows/27414/UserData/Data``).
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from gui_agent.checks.presentation.models import LibreofficeLocaleArgs, LibreofficeSettingArgs
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, missing
from gui_agent.checks.value_rules import matches

_OOR = "{http://openoffice.org/2001/registry}"
_NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"
_SET_ELEMENT = re.compile(r"^[\w.-]+:[\w.-]+\['(.*)'\]$")


def _segments(path: str) -> list[str]:
    """A registry path's names (``Type['27414']`` -> ``27414``)."""
    parts = []
    for part in path.strip("/").split("/"):
        element = _SET_ELEMENT.match(part)
        parts.append(element.group(1) if element else part)
    return parts


def _walk(element: Any, prefix: list[str], found: dict[str, str | None]) -> None:
    for child in element:
        name = child.get(f"{_OOR}name")
        if name is None:
            continue
        if child.tag == "node":
            _walk(child, [*prefix, name], found)
        elif child.tag == "prop":
            value = child.find("value")
            nil = value is None or value.get(_NIL) == "true"
            found["/" + "/".join([*prefix, name])] = None if nil else (value.text or "")


def read_settings(path: Path) -> dict[str, str | None]:
    """Every setting in a ``registrymodifications.xcu``: its full path -> its value's text
    ("" for an empty value, None for a nil one)."""
    found: dict[str, str | None] = {}
    for item in ET.parse(path).getroot().iter("item"):
        _walk(item, _segments(item.get(f"{_OOR}path", "")), found)
    return found


def setting_key(item: str, prop: str) -> str:
    """The full path of ``prop`` of ``item``, as :func:`read_settings` names it."""
    return "/" + "/".join([*_segments(item), prop])


def typed(value: str | None) -> Any:
    """A saved value as the setting means it: whole numbers as int, true/false as bool."""
    if value is not None and re.fullmatch(r"-?\d+", value):
        return int(value)
    if value in ("true", "false"):
        return value == "true"
    return value


def libreoffice_setting(args: LibreofficeSettingArgs, probe: DesktopProbe, report: Report) -> None:
    path = probe.resolve_path(args.path)
    if not path.is_file():
        missing(report, args.path, " (LibreOffice writes it when a setting changes)")
        return
    settings = read_settings(path)
    key = setting_key(args.item, args.prop)
    saved = key in settings
    value = typed(settings[key]) if saved else args.default
    ok = value is not None and matches(value, args.value)
    how = "" if saved else (" (not saved: LibreOffice's default)" if args.default is not None else " (not set)")
    report.update(observed={"value": value, "saved": saved}, passed=ok,
                  reason=f"{args.item}/{args.prop} is {value!r}{how}, expected {args.value.describe()}")


def saved_locale(settings: dict[str, str | None]) -> str | None:
    """The locale LibreOffice uses, as ``check_libre_locale`` reads it: the locale setting
    (``ooSetupSystemLocale``) of an ``.../L10N`` item, else the UI language (``ooLocale``)."""
    for prop in ("ooSetupSystemLocale", "ooLocale"):
        for key, value in settings.items():
            parts = key.rsplit("/", 2)
            if len(parts) == 3 and parts[1].endswith("L10N") and parts[2] == prop:
                return value
    return None


def libreoffice_locale(args: LibreofficeLocaleArgs, probe: DesktopProbe, report: Report) -> None:
    path = probe.resolve_path(args.path)
    if not path.is_file():
        missing(report, args.path, " (LibreOffice writes it when a setting changes)")
        return
    locale = saved_locale(read_settings(path))
    ok = locale is not None and any(fnmatch.fnmatchcase(locale, pattern) for pattern in args.patterns)
    report.update(observed={"locale": locale}, passed=ok,
                  reason=f"the locale is {locale!r}" + (" (none saved)" if locale is None else "")
                         + f"; expected one like {args.patterns}")


__all__ = ["libreoffice_locale", "libreoffice_setting", "read_settings", "saved_locale", "setting_key", "typed"]
