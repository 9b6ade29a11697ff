"""Canonical key names (see :data:`gui_agent.actions.NAMED_KEYS`) for each input backend.

Key names belong to the action layer: the action formats read and write them (a
BrowserGym ``press('Control+a')``, an xdotool ``ctrl+Return`` from a computer-use model)
and the environments press them, both from these tables, so the two cannot drift apart.
One table per backend, so an environment never spells keys itself:

* :func:`to_playwright_key` for ``page.keyboard.down/up/press`` (browser environments);
* :func:`to_xdotool_key` for ``xdotool key`` / XTEST keysyms (desktop environments).

Both accept canonical names only (run :func:`gui_agent.actions.normalize_key` first;
:class:`gui_agent.actions.Hotkey` already does) and raise :class:`ActionError` for a name
they cannot send.
"""

from __future__ import annotations

from gui_agent.actions import NAMED_KEYS
from gui_agent.errors import ActionError

#: Canonical name -> Playwright key name (the DOM ``KeyboardEvent.key`` values Playwright uses).
PLAYWRIGHT_KEYS: dict[str, str] = {
    "ctrl": "Control",
    "alt": "Alt",
    "shift": "Shift",
    "meta": "Meta",
    "enter": "Enter",
    "escape": "Escape",
    "backspace": "Backspace",
    "delete": "Delete",
    "tab": "Tab",
    "space": "Space",
    "insert": "Insert",
    "up": "ArrowUp",
    "down": "ArrowDown",
    "left": "ArrowLeft",
    "right": "ArrowRight",
    "home": "Home",
    "end": "End",
    "pageup": "PageUp",
    "pagedown": "PageDown",
    "capslock": "CapsLock",
    "printscreen": "PrintScreen",
    "menu": "ContextMenu",
    **{f"f{i}": f"F{i}" for i in range(1, 13)},
}

#: Canonical name -> X keysym name, as ``xdotool key`` takes it.
XDOTOOL_KEYS: dict[str, str] = {
    "ctrl": "ctrl",
    "alt": "alt",
    "shift": "shift",
    "meta": "super",
    "enter": "Return",
    "escape": "Escape",
    "backspace": "BackSpace",
    "delete": "Delete",
    "tab": "Tab",
    "space": "space",
    "insert": "Insert",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "home": "Home",
    "end": "End",
    "pageup": "Prior",
    "pagedown": "Next",
    "capslock": "Caps_Lock",
    "printscreen": "Print",
    "menu": "Menu",
    **{f"f{i}": f"F{i}" for i in range(1, 13)},
}

#: Printable ASCII punctuation -> X keysym name (letters and digits are their own keysym).
XDOTOOL_CHARS: dict[str, str] = {
    "!": "exclam", '"': "quotedbl", "#": "numbersign", "$": "dollar", "%": "percent",
    "&": "ampersand", "'": "apostrophe", "(": "parenleft", ")": "parenright",
    "*": "asterisk", "+": "plus", ",": "comma", "-": "minus", ".": "period", "/": "slash",
    ":": "colon", ";": "semicolon", "<": "less", "=": "equal", ">": "greater",
    "?": "question", "@": "at", "[": "bracketleft", "\\": "backslash", "]": "bracketright",
    "^": "asciicircum", "_": "underscore", "`": "grave", "{": "braceleft", "|": "bar",
    "}": "braceright", "~": "asciitilde",
}

assert set(PLAYWRIGHT_KEYS) == set(NAMED_KEYS) == set(XDOTOOL_KEYS), "key tables out of date"


def to_playwright_key(key: str) -> str:
    """The Playwright name of a canonical key: ``"ctrl"`` -> ``"Control"``, ``"a"`` -> ``"a"``.

    Raises:
        ActionError: ``key`` is neither a named canonical key nor one character.
    """
    if len(key) == 1:
        return "Space" if key == " " else key
    try:
        return PLAYWRIGHT_KEYS[key]
    except KeyError:
        raise ActionError(f"no Playwright key for {key!r}; expected a canonical key name") from None


def to_xdotool_key(key: str) -> str:
    """The X keysym name of a canonical key: ``"enter"`` -> ``"Return"``, ``"/"`` -> ``"slash"``.

    Raises:
        ActionError: ``key`` is neither a named canonical key nor one character.
    """
    if len(key) == 1:
        if key.isascii() and key.isalnum():
            return key
        if key == " ":
            return "space"
        if key in XDOTOOL_CHARS:
            return XDOTOOL_CHARS[key]
        # Any other character: xdotool understands Unicode keysyms "U<hex>".
        return f"U{ord(key):04X}"
    try:
        return XDOTOOL_KEYS[key]
    except KeyError:
        raise ActionError(f"no X keysym for {key!r}; expected a canonical key name") from None
