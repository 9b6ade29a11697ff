"""Which of our desktop apps stands for what OSWorld names: its ``related_apps``, the
programs its ``launch`` steps start, and the files its ``open`` steps open.

One table each, so an app added to the desktop is taught to the import here and nowhere else.
"""

from __future__ import annotations

import re
from types import MappingProxyType

#: OSWorld app names (``related_apps``/``snapshot``, lower case, spaces as underscores) -> our app.
APP_NAMES: MappingProxyType[str, str] = MappingProxyType({
    "libreoffice_calc": "calc", "calc": "calc",
    "libreoffice_writer": "writer", "writer": "writer",
    "libreoffice_impress": "impress", "impress": "impress",
    "thunderbird": "thunderbird",
    "chrome": "chrome", "google_chrome": "chrome", "browser": "chrome", "pdf": "chrome",
    "gimp": "gimp", "image": "gimp",
    "vlc": "vlc", "ubuntu_media_player": "vlc",
    "vs_code": "vscode", "vscode": "vscode", "code": "vscode",
    "terminal": "terminal",
    "files": "file_manager", "nautilus": "file_manager", "file_manager": "file_manager",
    "gedit": "text_editor", "text_editor": "text_editor",
})
#: ``related_apps`` entries that need no app of their own (the desktop itself; LibreOffice
#: alone names no one program, the steps that open files do).
DESKTOP_ITSELF = frozenset({"os", "libreoffice"})

#: Whole launch command lines -> our app (launched without extra arguments).
COMMAND_LINES: MappingProxyType[str, str] = MappingProxyType({
    "libreoffice --calc": "calc", "soffice --calc": "calc",
    "libreoffice --writer": "writer", "soffice --writer": "writer",
    "libreoffice --impress": "impress", "soffice --impress": "impress",
})
#: Programs (the command's first word, its base name) -> our app; their other arguments
#: are kept (home-relative), less the ones :data:`DROPPED_ARGS` names.
PROGRAMS: MappingProxyType[str, str] = MappingProxyType({
    "thunderbird": "thunderbird", "localc": "calc", "lowriter": "writer", "loimpress": "impress",
    "google-chrome": "chrome", "google-chrome-stable": "chrome", "chromium": "chrome", "chromium-browser": "chrome",
    "gimp": "gimp", "vlc": "vlc", "code": "vscode",
    "gnome-terminal": "terminal", "xterm": "terminal",
    "nautilus": "file_manager", "pcmanfm": "file_manager", "gedit": "text_editor",
})
#: Arguments OSWorld passes that our app sets itself (Chromium's DevTools port is the
#: episode's own, see the chrome app).
DROPPED_ARGS: MappingProxyType[str, re.Pattern[str]] = MappingProxyType({
    "chrome": re.compile(r"^--remote-debugging-port(=.*)?$"),
})
#: Processes OSWorld's steps kill by name (``pkill chrome``) -> the app quit in their place
#: (``quit_app``: its windows closed, so it saves what it keeps, then waited for).
KILLED_BY_NAME: MappingProxyType[str, str] = MappingProxyType({
    "chrome": "chrome", "google-chrome": "chrome", "chromium": "chrome", "vlc": "vlc", "gimp": "gimp",
    "thunderbird": "thunderbird", "code": "vscode",
})
#: Programs OSWorld starts that exist only for its VM's plumbing, left out here (its
#: ``socat`` forwards Chrome's DevTools port 1337 to 9222; our Chromium serves its own port).
PLUMBING = frozenset({"socat"})
#: Window names OSWorld activates -> the app whose main window that is (found here by that
#: app's own title; Chromium's title says "Chromium", code-server's says "code-server").
WINDOW_NAMES: MappingProxyType[str, str] = MappingProxyType({
    "Google Chrome": "chrome", "Visual Studio Code": "vscode",
})
#: File endings -> the app that opens them.
OPENERS: MappingProxyType[str, str] = MappingProxyType({
    ".xlsx": "calc", ".xls": "calc", ".ods": "calc", ".csv": "calc",
    ".docx": "writer", ".doc": "writer", ".odt": "writer", ".rtf": "writer",
    ".pptx": "impress", ".ppt": "impress", ".odp": "impress",
    ".png": "gimp", ".jpg": "gimp", ".jpeg": "gimp", ".xcf": "gimp", ".bmp": "gimp", ".gif": "gimp", ".tif": "gimp", ".tiff": "gimp",
    ".mp4": "vlc", ".mkv": "vlc", ".avi": "vlc", ".webm": "vlc", ".mp3": "vlc", ".wav": "vlc", ".ogg": "vlc", ".flac": "vlc",
    ".html": "chrome", ".htm": "chrome", ".pdf": "chrome",
    ".py": "vscode", ".ipynb": "vscode",
    ".txt": "text_editor", ".json": "text_editor", ".md": "text_editor", ".log": "text_editor",
})

__all__ = ["APP_NAMES", "COMMAND_LINES", "DESKTOP_ITSELF", "DROPPED_ARGS", "KILLED_BY_NAME", "OPENERS", "PLUMBING", "PROGRAMS",
           "WINDOW_NAMES"]
