"""gedit, the text editor OSWorld's Ubuntu opens plain text and JSON files with.

Debian's gedit is GNOME's own editor, so its window titles are OSWorld's:
``restaurants.txt (~/Desktop) - gedit``. It runs without the D-Bus session bus the
desktop leaves out (GApplication then runs as a plain, non-unique process), and its
settings go to GSettings' memory backend: each episode starts from gedit's defaults.
"""

from __future__ import annotations

import re

from gui_agent.envs.desktop.apps.spec import AppSpec

TEXT_EDITOR = AppSpec(
    name="text_editor",
    title="gedit",
    command=("gedit", "--new-window"),
    window_title=r" - gedit$",
    install_hint="install Debian's gedit (`apt-get install --no-install-recommends gedit`; scripts/setup.sh does)",
    # "restaurants.txt (~/Desktop) - gedit": the name, the folder it is in, the program.
    file_window_title=lambda name: "^" + re.escape(name) + r" \(.*\) - gedit$",
    chatter=(r"dbus", r"GLib-GIO-CRITICAL", r"Gtk-WARNING", r"dconf", r"GtkSourceView"),
)
