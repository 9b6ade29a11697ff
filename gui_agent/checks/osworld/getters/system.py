"""OSWorld's system getters as our sources, and its command lines as ours.

=========================  ==================================================================
OSWorld getter             source
=========================  ==================================================================
``vm_command_line``        ``command_output`` (unstripped, as OSWorld returns it); a shell
                           line (``shell: true``) runs as ``bash -c LINE`` in the home folder;
                           one reading the clipboard (``xsel``/``xclip``) is ``clipboard``
``vm_command_error``       ``command_output`` with ``stream: stderr``
``vm_terminal_output``     ``terminal_text``: the focused terminal's screen
``vm_screen_size``         ``screen_size``; ``vm_window_size``: ``window_size``
``list_directory``         ``folder_entries`` (the names its metric reads off the tree)
``rule``                   ``constant`` (the rules as they are); ``time_diff_range`` too
``rule_relativeTime``      ``relative_time_rule`` (dated when the check runs)
``content_from_vm_file``   ``xlsx_last_row``
``vm_file`` ``cache_file`` ``file_text``; ``cloud_file``: ``task_file_text`` (a declared input)
=========================  ==================================================================

A command converts when it only reads or changes what a desktop session here has: files
in the home folder, the session's display. One that runs a program standing for the
machine (its clock, services, users, installed software, GNOME's settings, the sound
server) or names a path outside the home folder has no equivalent (:data:`MACHINE_PROGRAMS`).
OSWorld's ``echo password | sudo -S CMD`` becomes ``CMD`` when ``CMD`` only makes or
changes files in the home folder (the desktop runs as its user, without sudo: what it
makes belongs to the user, not root).
"""

from __future__ import annotations

import posixpath
import re
import shlex
from typing import Any

from gui_agent.checks.osworld.config import OSWORLD_HOME, home_path
from gui_agent.checks.osworld.getters.base import Getter, SourceSpec
from gui_agent.checks.osworld.metric import Files, kind_of
from gui_agent.errors import OsworldConfigError, OsworldUnsupported

#: OSWorld's server runs a command for at most this long (then the getter returns nothing).
COMMAND_TIMEOUT_S = 120.0

_GNOME = ("GNOME's settings: gsettings here writes to dconf over D-Bus, which desktop sessions do not have, "
          "and no GNOME component here would apply them")
_INSTALL = "installing or listing system software needs root and the network, which this desktop does not give"
_USERS = "user accounts and logins belong to the machine (root), not to the desktop session"
#: Programs that read or change the machine rather than the session, and why they have no equivalent.
MACHINE_PROGRAMS: dict[str, str] = {
    **dict.fromkeys(("timedatectl", "hwclock"), "the system clock and time zone (systemd, root)"),
    **dict.fromkeys(("systemctl", "service", "reboot", "shutdown", "poweroff", "loginctl"), "system services and sessions (systemd, root)"),
    **dict.fromkeys(("gsettings", "dconf"), _GNOME),
    **dict.fromkeys(("pactl", "pulseaudio", "pacmd", "amixer"), "the sound server: this desktop has no sound"),
    **dict.fromkeys(("apt", "apt-get", "aptget", "dpkg", "snap", "flatpak", "which", "conda", "pip", "pip3"), _INSTALL),
    **dict.fromkeys(("useradd", "adduser", "usermod", "userdel", "passwd", "chpasswd", "getent", "su", "chsh"), _USERS),
    **dict.fromkeys(("killall", "pkill"), "it kills processes by name, on the whole machine"),
    **dict.fromkeys(("nmcli", "bluetoothctl", "rfkill"), "network and Bluetooth hardware belong to the machine"),
    **dict.fromkeys(("xsel",), "xsel is not installed here (the clipboard reads through xclip)"),
}
#: Programs ``sudo`` may run here as the user instead of root: they make or change files.
_FILE_PROGRAMS = frozenset({"mkdir", "touch", "chmod", "cp", "mv", "rm", "ln", "echo", "cat", "ls"})
#: Paths outside the home folder a command may name: nothing is kept there.
_HARMLESS_PATHS = ("/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/zero", "/dev/urandom")
_SUDO_WITH_PASSWORD = re.compile(r"""echo\s+(['"]?)password\1\s*\|\s*sudo\s+-S\s+""")
_SHELL_WORDS = frozenset({"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in", "!", "{",
                          "}", "time", "nohup", "exec", "env", "command", "case", "esac"})
_OPERATORS = frozenset({";", "&&", "||", "|", "&", "(", ")", ";;", "|&"})
_DBUS_EXPORT = re.compile(r"^\s*export\s+DBUS_SESSION_BUS_ADDRESS=\S*\s*$")


# ---------------------------------------------------------------------- shell lines


def _home_variable(line: str) -> str:
    """``/home/user`` in a shell line as ``$HOME``, quoted for where it stands (in single quotes
    the quote is closed and reopened around ``"$HOME"``)."""
    out, quote, i = [], "", 0
    home = OSWORLD_HOME.rstrip("/")
    while i < len(line):
        char = line[i]
        if line.startswith(home, i) and not re.match(r"[\w.-]", line[i + len(home):i + len(home) + 1]):
            out.append({"": '"$HOME"', '"': "$HOME", "'": "'\"$HOME\"'"}[quote])
            i += len(home)
            continue
        if char == "\\" and quote != "'":
            out.append(line[i:i + 2])
            i += 2
            continue
        if char in "'\"" and quote in ("", char):
            quote = "" if quote else char
        out.append(char)
        i += 1
    return "".join(out)


def _without_sudo(line: str) -> str:
    """The line with ``echo password | sudo -S`` and later ``sudo`` prefixes removed, when every
    command it runs then is a file program (:data:`_FILE_PROGRAMS`); else unchanged."""
    stripped = re.sub(r"(^|[;&|(]\s*)sudo\s+", r"\1", _SUDO_WITH_PASSWORD.sub("", line))
    if stripped == line or not all(p in _FILE_PROGRAMS for p in programs(stripped)):
        return line
    return stripped


def shell_line(line: str) -> str:
    """An OSWorld shell line as it runs here (``bash -c`` in the home folder): ``/home/user``
    is ``$HOME``, GNOME's session-bus export is dropped (the session sets its own bus) and a
    ``sudo`` of file programs runs them as the user.

    Raises:
        OsworldUnsupported: the line runs a machine program or names a path outside the home.
    """
    kept = "\n".join(part for part in line.split("\n") if not _DBUS_EXPORT.match(part))
    converted = _home_variable(_without_sudo(kept))
    check_command(converted)
    return converted


def _tokens(line: str) -> list[str]:
    lexer = shlex.shlex(line.replace("\n", " ; "), posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes: bash would refuse the line too
        raise OsworldUnsupported(f"the shell line {line!r} does not parse (unbalanced quotes)") from None


def programs(line: str) -> list[str]:
    """The programs a shell line runs (base names of each simple command's first word; a
    command run by ``sudo`` follows ``sudo``)."""
    found, at_start, after_sudo = [], True, False
    for token in _tokens(line):
        if token in _OPERATORS:
            at_start, after_sudo = True, False
        elif at_start and (token in _SHELL_WORDS or re.match(r"^[A-Za-z_]\w*=", token) or (after_sudo and token.startswith("-"))):
            continue
        elif at_start:
            found.append(posixpath.basename(token))
            at_start = after_sudo = token == "sudo"
    return found


def _outside_home(line: str) -> list[str]:
    """Words of the line naming a path outside the home folder (an assignment's value too;
    not a program's own path, like ``/bin/bash``)."""
    found, at_start = [], True
    for token in _tokens(line):
        if token in _OPERATORS:
            at_start = True
            continue
        assignment = re.match(r"^[A-Za-z_]\w*=", token)
        value = token[assignment.end():] if assignment else token
        program = at_start and not assignment and token not in _SHELL_WORDS
        if program:
            at_start = False
        if value.startswith("/") and not program and not value.startswith(_HARMLESS_PATHS):
            found.append(value)
    return found


def check_command(line: str) -> None:
    """Raise :class:`OsworldUnsupported` if the (converted) shell line runs a machine program
    or names a path outside the home folder."""
    found = programs(line)
    for index, program in enumerate(found):
        if program == "sudo":
            runs = found[index + 1] if index + 1 < len(found) else "a command"
            why = MACHINE_PROGRAMS.get(runs, "this desktop runs as its user, without sudo")
            raise OsworldUnsupported(f"it runs {runs!r} as root (sudo): {why}")
        if program in MACHINE_PROGRAMS:
            raise OsworldUnsupported(f"it runs {program!r}: {MACHINE_PROGRAMS[program]}")
    outside = _outside_home(line)
    if outside:
        raise OsworldUnsupported(f"it names {outside[0]!r}, outside the home folder (a desktop task only reaches its home)")


def home_relative_arg(value: Any) -> str:
    """A command argument (no shell) naming the VM's home as home-relative (commands run there);
    ``~/`` too, which OSWorld's server expands."""
    text = str(value)
    if text.rstrip("/") in (OSWORLD_HOME.rstrip("/"), "~"):
        return "."
    return text.removeprefix("~/").replace(OSWORLD_HOME, "")


def command_argv(command: Any, shell: Any, where: str) -> list[str]:
    """OSWorld's ``command`` (a list, or a text split like a shell does unless ``shell``) as
    our argument list; a shell line, or a list running ``bash -c``/``sh -c``, has its
    script converted by :func:`shell_line`.

    Raises:
        OsworldUnsupported: it runs a machine program or reaches outside the home folder.
        OsworldConfigError: ``command`` is neither a text nor a list of words.
    """
    if isinstance(command, str) and shell:  # OSWorld posts "shell": "true" too: truthy
        return ["bash", "-c", shell_line(command)]
    if isinstance(command, str):
        try:
            command = shlex.split(command)
        except ValueError:
            raise OsworldConfigError(f"{where}.command", f"{command!r} does not split into words") from None
    if not isinstance(command, list) or not command or not all(isinstance(c, (str, int, float)) for c in command):
        raise OsworldConfigError(f"{where}.command", f"expected a command (a list of words or a text), got {kind_of(command)}")
    words = [str(c) for c in command]
    if len(words) >= 3 and posixpath.basename(words[0]) in ("bash", "sh") and words[1] == "-c":
        return [words[0], "-c", shell_line(words[2]), *words[3:]]
    converted = [home_relative_arg(w) for w in words]
    check_command(shlex.join(converted))
    return converted


# ---------------------------------------------------------------------- getters


def _reads_clipboard(command: Any) -> bool:
    """``xsel --clipboard --output`` / ``xclip -selection clipboard -o`` (as text or words)."""
    words = shlex.split(command) if isinstance(command, str) else [str(c) for c in command or []]
    if not words:
        return False
    if words[0] == "xsel":
        return set(words[1:]) <= {"--clipboard", "-b", "--output", "-o"} and bool({"--clipboard", "-b"} & set(words))
    return words[0] == "xclip" and "-o" in words and "clipboard" in words


def _command_line(stream: str, spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    command = spec.get("command")
    if stream == "stdout" and isinstance(command, (str, list)) and _reads_clipboard(command):
        return {"clipboard": {}}
    argv = command_argv(command, spec.get("shell", False), where)
    streams = {"stream": "stderr"} if stream == "stderr" else {}
    return {"command_output": {"command": argv, **streams, "strip": False, "timeout_s": COMMAND_TIMEOUT_S}}


def _path(spec: dict[str, Any], where: str) -> str:
    path = spec.get("path")
    if not isinstance(path, str) or not path:
        raise OsworldConfigError(f"{where}.path", "expected a path")
    return home_path(path)


def _vm_file(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    if spec.get("multi") or isinstance(spec.get("path"), list):
        raise OsworldUnsupported("several files (multi) are not one value")
    source: dict[str, Any] = {"path": _path(spec, where)}
    if spec.get("time_suffix"):
        source["dated"] = str(spec.get("time_format") or "%Y_%m_%d")
    return {"file_text": source}


def _cloud_file(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    url, dest = spec.get("path"), spec.get("dest")
    if spec.get("multi") or not isinstance(url, str) or not url:
        raise OsworldUnsupported("several files (multi) are not one value") if spec.get("multi") else \
            OsworldConfigError(f"{where}.path", "expected the file's URL")
    return {"task_file_text": {"path": files.declare(url, dest if isinstance(dest, str) and dest else url)}}


def _cache_file(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    name = spec.get("path")
    if not isinstance(name, str) or not name:
        raise OsworldConfigError(f"{where}.path", "expected the cache file's name")
    made = files.cache_file(name)
    if made is None:
        raise OsworldUnsupported(f"the cache file {name!r} is written by no post step")
    return {"file_text": {"path": made}}


def _rules(spec: dict[str, Any], where: str) -> Any:
    if "rules" not in spec:
        raise OsworldConfigError(f"{where}.rules", "missing: a rule getter returns its rules")
    return spec["rules"]


def _relative_time(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    rules = _rules(spec, where)
    if not isinstance(rules, dict) or not isinstance(rules.get("relativeTime"), dict):
        raise OsworldConfigError(f"{where}.rules.relativeTime", "expected {from: ..., to: ...}")
    from gui_agent.checks.sources.system import relative_days_known

    if not relative_days_known(rules["relativeTime"]):
        raise OsworldUnsupported(f"relativeTime {rules['relativeTime']!r} names a day OSWorld's getter cannot date")
    return {"relative_time_rule": {"rules": rules}}


def _content_from_vm_file(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    if (spec.get("file_type"), spec.get("file_content")) != ("xlsx", "last_row"):
        raise OsworldUnsupported(f"content_from_vm_file of {spec.get('file_type')!r}/{spec.get('file_content')!r}: "
                                 "OSWorld reads only an xlsx file's last row")
    return {"xlsx_last_row": {"path": _path(spec, where)}}


def _window_size(spec: dict[str, Any], where: str, files: Files) -> SourceSpec:
    name = spec.get("app_class_name")
    if not isinstance(name, str) or not name:
        raise OsworldConfigError(f"{where}.app_class_name", "expected the window's class name")
    return {"window_size": {"wm_class": name}}


#: OSWorld getter type -> its conversion to a source.
GETTERS: dict[str, Getter] = {
    "vm_command_line": lambda spec, where, files: _command_line("stdout", spec, where, files),
    "vm_command_error": lambda spec, where, files: _command_line("stderr", spec, where, files),
    "vm_terminal_output": lambda spec, where, files: {"terminal_text": {}},
    "vm_screen_size": lambda spec, where, files: {"screen_size": {}},
    "vm_window_size": _window_size,
    "list_directory": lambda spec, where, files: {"folder_entries": {"path": _path(spec, where)}},
    "rule": lambda spec, where, files: {"constant": {"value": _rules(spec, where)}},
    "rule_relativeTime": _relative_time,
    "time_diff_range": lambda spec, where, files: {"constant": {"value": spec.get("diff_range_in_minutes")}},
    "content_from_vm_file": _content_from_vm_file,
    "vm_file": _vm_file,
    "cloud_file": _cloud_file,
    "cache_file": _cache_file,
}
#: OSWorld getter type -> why it has no equivalent here.
NO_EQUIVALENT: dict[str, str] = {
    "vm_wallpaper": "the wallpaper is GNOME's setting (org.gnome.desktop.background); no desktop here draws one",
    "replay": "it types keys on the desktop and returns nothing: an action, not a value",
}

__all__ = ["COMMAND_TIMEOUT_S", "GETTERS", "MACHINE_PROGRAMS", "NO_EQUIVALENT", "check_command", "command_argv",
           "home_relative_arg", "programs", "shell_line"]
