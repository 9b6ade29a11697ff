"""OSWorld's VLC getters (``getters/vlc.py``) as our sources (:mod:`gui_agent.checks.sources.media`).

* ``vlc_playing_info`` fetches VLC's ``status.xml`` from its HTTP interface into a file:
  the source is that document (``vlc_status`` with neither field nor meta).
* ``vlc_config`` copies ``~/.config/vlc/vlcrc``: the source is its text.
* ``default_video_player`` asks ``xdg-mime`` for the default app of about sixty video
  types; the ``default_app`` source can ask the same (``mime_types: [video/mp4, ...]``),
  but the task that uses it has no equivalent start here (see :data:`NO_EQUIVALENT`).
"""

from __future__ import annotations

from typing import Any

from gui_agent.checks.osworld.getters.base import Getter, SourceSpec
from gui_agent.checks.osworld.metric import Files
from gui_agent.checks.sources.media import VLCRC


def vlc_playing_info(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    return {"vlc_status": {}}


def vlc_config(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    return {"file_text": {"path": VLCRC}}


#: OSWorld getter type -> its conversion to a source.
GETTERS: dict[str, Getter] = {
    "vlc_playing_info": vlc_playing_info,
    "vlc_config": vlc_config,
}
#: OSWorld getter type -> why it has no equivalent here.
NO_EQUIVALENT: dict[str, str] = {
    "default_video_player": "the task cannot start as on OSWorld's Ubuntu: VLC is the only video player on this desktop, so xdg-mime already "
                            "names vlc.desktop for every video type before the task begins (OSWorld's Ubuntu starts "
                            "with GNOME Videos), and a check of it would pass untouched",
}
