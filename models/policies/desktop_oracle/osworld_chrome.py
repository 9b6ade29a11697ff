"""Oracle scripts for imported OSWorld chrome tasks.

Chromium fills OSWorld's 1920x1080 screen (it starts maximised). The scripts open the
browser's own pages by typing their address (Ctrl+L), as a person who knows them does,
and click where those pages put their controls on that screen; a title barrier waits for
each page before its keys and clicks.
"""

from __future__ import annotations

from gui_agent.actions import Click, Wait
from gui_agent.models.policies.desktop_oracle.script import Item, WaitForTitle, keys, type_text

#: chrome://settings/fonts on a 1920x1080 screen: the "Font size" slider, its left (Tiny)
#: and right (Huge) ends.
FONT_SIZE_TINY = Click(1076, 239)
FONT_SIZE_HUGE = Click(1268, 239)
#: chrome://history with search results: a blank spot of the results card's heading
#: (clicking it takes the keyboard from the search box, so Ctrl+A selects the results).
HISTORY_RESULTS_HEADING = Click(1200, 250)


def go_to(address: str, title: str) -> list[Item]:
    """Type ``address`` into the address bar and wait for the page titled ``title``."""
    return [keys("ctrl", "l"), type_text(address + "\n"), WaitForTitle(title), Wait(1.0)]


def font_size(end: Click, key: str) -> list[Item]:
    """Customize fonts: click the "Font size" slider at ``end``, then ``key`` (Home/End) to its last stop."""
    return [*go_to("chrome://settings/fonts", "Customize fonts"), end, keys(key), Wait(0.5)]


def largest_font_size() -> list[Item]:
    """af630914: the default font size at its largest (the slider's far end, 72)."""
    return font_size(FONT_SIZE_HUGE, "end")


def delete_history_of(query: str) -> list[Item]:
    """Search the history for ``query``, select every result (Ctrl+A), delete them (Delete,
    then Enter on "Delete selected items?")."""
    return [
        *go_to(f"chrome://history/?q={query}", "^History"), Wait(1.0), HISTORY_RESULTS_HEADING,
        keys("ctrl", "a"), keys("delete"), Wait(1.0), keys("enter"), Wait(1.0),
    ]


def delete_youtube_history() -> list[Item]:
    """44ee5668: every YouTube address gone from the history."""
    return delete_history_of("youtube")


_CHROME = "osworld.chrome."

#: Task id -> the script solving it.
SCRIPTS = {
    _CHROME + "af630914-714e-4a24-a7bb-f9af687d3b91": largest_font_size,
    _CHROME + "44ee5668-ecd5-4366-a6ce-c1c9b8d4e938": delete_youtube_history,
}
