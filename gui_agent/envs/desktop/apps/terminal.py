"""The terminal: xterm running bash in the home folder, standing in for Ubuntu's GNOME Terminal.

What is the same as OSWorld's GNOME Terminal: bash as the user, starting in the home
folder (or ``--working-directory``), its history in ``~/.bash_history`` when the shell
exits (closing the window hangs it up), Ctrl+Shift+C / Ctrl+Shift+V copying the
selection to the clipboard and pasting it, a window titled "Terminal", and checks that
read what the focused terminal shows (OSWorld's ``vm_terminal_output``).

What differs: no tabs, no menu bar or Preferences dialog (xterm's menus open with
Ctrl+click), its size when it opens is the window manager's (windows open maximized
here; GNOME Terminal opens at its profile's size), its font and colours are xterm's; the
shell reads no Ubuntu ``~/.bashrc`` (the home folder starts empty but for its folders).

How a check reads the screen: xterm prints its screen when the program on its tty writes
``ESC [ i`` ("media copy"); :data:`RESOURCES` make that print go, as plain text, to
``$XDG_RUNTIME_DIR/`` :data:`SCREEN_FILE`. The ``terminal_text`` source writes the
sequence to the focused terminal's tty (output, not input: the shell sees nothing) and
reads the file: xterm's own rendering of its screen, as GNOME Terminal's accessible text
is its.
"""

from __future__ import annotations

from pathlib import Path

from gui_agent.envs.desktop.apps.spec import AppSpec

#: The file (in the session's ``XDG_RUNTIME_DIR``) a terminal's screen is printed to.
SCREEN_FILE = "terminal-screen.txt"
#: xterm's resources: where and how the screen is printed, and GNOME Terminal's copy/paste keys.
RESOURCES = (
    f"XTerm*printerCommand: sh -c 'cat > \"$XDG_RUNTIME_DIR/{SCREEN_FILE}.part\" && "
    f"mv \"$XDG_RUNTIME_DIR/{SCREEN_FILE}.part\" \"$XDG_RUNTIME_DIR/{SCREEN_FILE}\"'",
    "XTerm*printAttributes: 0",      # plain text, no escape sequences for bold or colours
    "XTerm*printerAutoClose: true",  # each print ends (the printer command exits)
    "XTerm*printerExtent: true",     # the whole screen, whatever the scrolling margins
    "XTerm*VT100.translations: #override Ctrl Shift <Key>C: copy-selection(CLIPBOARD)\\n"
    "Ctrl Shift <Key>V: insert-selection(CLIPBOARD)",
)
#: The launch command before extra arguments (the shell is added last, see :func:`_with_shell`).
BASE_COMMAND = ("xterm", "-title", "Terminal", "-fa", "DejaVu Sans Mono", "-fs", "11",
                *(part for resource in RESOURCES for part in ("-xrm", resource)))


def _with_shell(home: Path, argv: list[str]) -> list[str]:
    """The launch command with bash last (``-e`` must end xterm's options); GNOME Terminal's
    ``--working-directory=DIR`` (home-relative) becomes the shell's starting folder and its
    ``--maximize`` is dropped (windows open maximized here)."""
    extra = iter(argv[len(BASE_COMMAND):])
    workdir: str | None = None
    kept: list[str] = []
    for arg in extra:
        if arg == "--maximize":
            continue
        if arg.startswith("--working-directory="):
            workdir = arg.split("=", 1)[1]
        elif arg == "--working-directory":
            workdir = next(extra, None)
        else:
            kept.append(arg)
    shell = ["-e", "bash"] if not workdir else ["-e", "sh", "-c", 'cd -- "$1" && exec bash', "terminal", workdir]
    return [*argv[:len(BASE_COMMAND)], *kept, *shell]


TERMINAL = AppSpec(
    name="terminal",
    title="Terminal",
    command=BASE_COMMAND,
    window_title=r"^Terminal$",
    install_hint="install Debian's xterm (scripts/setup.sh does)",
    adapt_command=_with_shell,
    chatter=(r"^xterm: cannot load font", r"XGetInputFocus returned the focused window"),
)
