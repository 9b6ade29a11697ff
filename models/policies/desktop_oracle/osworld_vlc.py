"""Oracle scripts for imported OSWorld vlc tasks: VLC's own shortcuts, its file dialog and
its Simple Preferences, as a person would use them.

OSWorld's screen is 1920x1080; VLC's Simple Preferences dialog (800x700) opens centred on
it, so its check boxes are at fixed places (:data:`PREFERENCES`).
"""

from __future__ import annotations

from collections.abc import Callable

from gui_agent.actions import Click, Wait
from gui_agent.models.policies.desktop_oracle.script import Item, WaitForTitle, keys, type_text

#: The main window's title (the playing item's name comes first: ``clip.mp4 - VLC media player``).
MAIN_WINDOW = r"VLC media player$"
#: Points of the Simple Preferences dialog's Interface page on a 1920x1080 screen.
PREFERENCES: dict[str, Click] = {
    "minimal_view": Click(738, 483),  # "Start in minimal view mode"
    "dark_palette": Click(1012, 512),  # "Use a dark palette"
    "one_instance_from_file": Click(600, 707),  # "Use only one instance when started from file manager"
}


def open_file(path: str) -> list[Item]:
    """Media > Open File (Ctrl+O), the home-relative ``path`` typed in the dialog (it
    expands ``~``), Enter: VLC plays it."""
    return [
        WaitForTitle(MAIN_WINDOW, timeout_s=30.0), keys("ctrl", "o"), WaitForTitle("^Select one or more files to open$"),
        type_text(f"~/{path}"), keys("enter"), WaitForTitle(MAIN_WINDOW),
    ]


def play_music_video() -> list[Item]:
    """59f21cfb: play the music video saved on the Desktop."""
    return open_file("Desktop/Rick Astley - Never Gonna Give You Up (Official Music Video).mp4")


#: How long a person watches VLC go full screen before saying done. A playing video never
#: lets a step settle (the desktop gives up waiting after 2 s), and on a busy machine VLC
#: is still resizing its window then.
FULLSCREEN_LOOK_S = 3.0


def fullscreen() -> list[Item]:
    """8d9fd4e2: make the video fill the screen (F: VLC's full-screen key), and look."""
    return [WaitForTitle(MAIN_WINDOW, timeout_s=30.0), keys("f"), Wait(FULLSCREEN_LOOK_S)]


def simple_preference(box: str) -> list[Item]:
    """Tools > Preferences (Ctrl+P), click one check box of its Interface page, Save (Alt+S)."""
    return [
        WaitForTitle(MAIN_WINDOW, timeout_s=30.0), keys("ctrl", "p"), WaitForTitle("^Simple Preferences$"),
        PREFERENCES[box], keys("alt", "s"), WaitForTitle(MAIN_WINDOW),
    ]


def minimal_view() -> list[Item]:
    """a5bbbcd5: hide the toolbar in window mode: "Start in minimal view mode", saved."""
    return simple_preference("minimal_view")


_VLC = "osworld.vlc."

#: Task id -> the script solving it.
SCRIPTS: dict[str, Callable[[], list[Item]]] = {
    _VLC + "59f21cfb-0120-4326-b255-a5b827b38967": play_music_video,
    _VLC + "8d9fd4e2-6fdb-46b0-b9b9-02f06495c62f": fullscreen,
    _VLC + "a5bbbcd5-b398-4c91-83d4-55e1e31bbb81": minimal_view,
}
