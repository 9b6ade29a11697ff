"""A desktop recording replays by its elements when the pixels moved (real Xvfb, real AT-SPI
bus, a real GTK window, real X input).

A person's click on a GTK window's "Keep" button is recorded with its target from the tree
(the recorder in this process, as in tests/recorder/test_recorder_a11y.py). The replay runs
on a task whose window shows the buttons elsewhere, in other colours and a larger font, in
the other order (the recorded point now holds "Delete"), or with "Keep" renamed: the image
patch finds nothing there, the tree does. The app's own record of which button it got
(``clicked.txt``, read by the task's evaluator) says the click landed on "Keep".

The element rules themselves (ties, the position fallback, containers) run on trees in
OSWorld's XML form without a desktop.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from gui_agent.actions import Click, Wait
from gui_agent.envs.desktop.steps import LaunchArgs, LaunchStep
from gui_agent.episode import read_episode
from gui_agent.replay.anchor import locate
from gui_agent.replay.element import find_element, needs_element_tree
from gui_agent.replay.replayer import ReplayResult, replay_episode
from gui_agent.replay.source import load_source
from tests.recorder.a11y_desktop import Recorder, center_of, close_env, open_env

#: A GTK 3 window with two buttons; each click appends the button's key to clicked.txt in
#: the home folder. argv[1] picks the layout: ``record``; ``moved`` (another place and size,
#: the buttons swapped and restyled); ``renamed`` (the recorded layout, "Keep" relabelled
#: and restyled); ``frozen`` (the recorded layout, and the app stops itself once shown).
WINDOW = textwrap.dedent('''
    import sys
    import gi
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gdk, Gtk
    layout = sys.argv[1]
    win = Gtk.Window(title="Tidy up")
    win.set_type_hint(Gdk.WindowTypeHint.DIALOG)  # not maximized by the desktop's window manager
    win.set_default_size(*((520, 260) if layout == "moved" else (420, 160)))
    win.move(*((640, 420) if layout == "moved" else (100, 100)))
    box = Gtk.Box(spacing=12, homogeneous=True, margin=30)
    labels = {"keep": "Keep all" if layout == "renamed" else "Keep", "delete": "Delete"}
    def clicked(_button, key):
        with open("clicked.txt", "a") as out:
            out.write(key + "\\n")
    for key in (["delete", "keep"] if layout == "moved" else ["keep", "delete"]):
        button = Gtk.Button(label=labels[key])
        button.connect("clicked", clicked, key)
        box.pack_start(button, True, True, 0)
    if layout != "record":
        css = Gtk.CssProvider()
        css.load_from_data(b"button { background: #102080; color: #ffff00; font-size: 20px; }")
        Gtk.StyleContext.add_provider_for_screen(Gdk.Screen.get_default(), css, Gtk.STYLE_PROVIDER_PRIORITY_USER)
    win.add(box)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    if layout == "frozen":  # shown, then it stops answering anyone (the X server keeps its window)
        import os, signal
        from gi.repository import GLib
        GLib.timeout_add(300, lambda: os.kill(os.getpid(), signal.SIGSTOP))
    Gtk.main()
''')


def _task(folder: Path, script: Path, layout: str) -> Path:
    """A task on the window in ``layout``, done when the app got exactly one click on Keep.
    It does not ask for accessibility: the replay turns it on for a recording with targets."""
    path = folder / f"tidy-{layout}.yaml"
    path.write_text(textwrap.dedent(f"""\
        id: test.gtk.keep
        instruction: Keep the files.
        environment:
          kind: desktop
          screen: {{width: 1280, height: 800}}
        setup:
          - launch: {{command: [/usr/bin/python3, {script}, {layout}], window: Tidy up}}
        evaluator:
          file_contains: {{path: clicked.txt, matches: '\\Akeep\\n\\Z'}}
        limits: {{max_steps: 10, step_timeout_s: 20, episode_timeout_s: 120}}
        """))
    return path


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """(the recorded episode of one click on Keep, the window's script)."""
    folder = tmp_path_factory.mktemp("element-replay")
    script = folder / "tidy.py"
    script.write_text(WINDOW)
    env = open_env((), [LaunchStep(launch=LaunchArgs(command=["/usr/bin/python3", str(script), "record"], window="Tidy up"))])
    try:
        with pytest.MonkeyPatch.context() as monkeypatch:
            obs, *_ = env.step(Wait(1.0))
            keep = center_of(obs.a11y_tree or "", "push-button", "Keep")
            rec = Recorder(env, folder / "rec", monkeypatch)
            env.step(Click(keep[0] - 20, keep[1] + 5))  # off-centre, as people click
            path = rec.stop()
        got = env.resolve_path("clicked.txt").read_text()
    finally:
        close_env(env)
    assert got == "keep\n"  # the person's click reached Keep
    yield path, script


def _replay(recorded: tuple[Path, Path], layout: str, out: Path) -> tuple[ReplayResult, dict]:  # type: ignore[type-arg]
    path, script = recorded
    source = load_source(path, task_file=_task(out, script, layout))
    assert needs_element_tree(source.episode) and source.task.environment.accessibility  # type: ignore[union-attr]
    result = replay_episode(source, out_dir=out / "replays")
    clicks = [r for r in result.steps if r.action["kind"] == "click"]
    assert len(clicks) == 1, result.summary()
    return result, clicks[0].to_dict()


@pytest.mark.slow
def test_a_moved_and_restyled_button_is_found_by_role_and_name(recorded: tuple[Path, Path], tmp_path: Path) -> None:
    episode = read_episode(recorded[0])
    step = next(s for s in episode.steps if s.action["kind"] == "click")
    assert step.target is not None and (step.target["role"], step.target["name"]) == ("push button", "Keep")
    result, click = _replay(recorded, "moved", tmp_path)
    assert result.success and result.refused is None, result.summary()  # the app got Keep, once
    assert click["anchor"]["method"] == "element" and click["moved_by"], click
    # the pixels really moved: the recorded patch finds no confident match where Keep went
    replayed = read_episode(result.episode_path)
    live = replayed.load_frame(replayed.steps[0].frame_before)
    patch = locate(episode.load_frame(step.frame_before), step.action["x"], step.action["y"], live)
    x, y = click["action"]["x"], click["action"]["y"]
    assert not patch.confident or abs(patch.x - x) + abs(patch.y - y) > 20, patch  # type: ignore[operator]


@pytest.mark.slow
def test_a_renamed_button_is_found_by_role_and_place(recorded: tuple[Path, Path], tmp_path: Path) -> None:
    result, click = _replay(recorded, "renamed", tmp_path)
    assert result.success and result.refused is None, result.summary()
    assert click["anchor"]["method"] == "element-position", click


# ---------------------------------------------------------------------- the rules, on trees

_HEAD = ('<desktop-frame xmlns:st="https://accessibility.ubuntu.example.org/ns/state" '
         'xmlns:cp="https://accessibility.ubuntu.example.org/ns/component">')
_SHOWN = 'st:showing="true" st:visible="true"'


def _tree(*windows: tuple[str, str]) -> str:
    """A desktop of one app whose frames (title, inner XML) hold the given elements."""
    frames = "".join(f'<frame name="{title}" {_SHOWN}>{inner}</frame>' for title, inner in windows)
    return f'{_HEAD}<application name="app">{frames}</application></desktop-frame>'


def _button(name: str, x: int, y: int, w: int = 80, h: int = 30, role: str = "push-button") -> str:
    return f'<{role} name="{name}" {_SHOWN} cp:screencoord="({x}, {y})" cp:size="({w}, {h})"/>'


def _target(role: str, name: str, box: list[int], window: str = "Main") -> dict:  # type: ignore[type-arg]
    return {"source": "a11y", "role": role, "name": name, "states": [], "bbox_screen": box, "app": "app", "window": window}


def test_same_name_in_two_windows_prefers_the_recorded_window_then_the_nearest() -> None:
    tree = _tree(("Other", _button("OK", 10, 10)), ("Main", _button("OK", 500, 400) + _button("OK", 900, 700)))
    assert find_element(tree, _target("push button", "OK", [880, 690, 80, 30]), (900, 700)) == (920, 710, "element")
    assert find_element(tree, _target("push button", "OK", [0, 0, 80, 30]), (40, 15)) == (540, 415, "element")


def test_position_fallback_takes_the_same_role_at_the_recorded_place_only() -> None:
    tree = _tree(("Main", _button("Save as", 100, 100, 120) + _button("Open", 300, 100) + _button("Save", 100, 100, role="label")))
    assert find_element(tree, _target("push button", "Save", [100, 100, 80, 30]), (140, 115)) == (160, 115, "element-position")
    assert find_element(tree, _target("push button", "Save", [600, 100, 80, 30]), (640, 115)) is None  # nothing there


def test_cells_and_containers_are_not_guessed() -> None:
    cells = _tree(("Sheet", _button("C7", 100, 100, role="table-cell")))
    assert find_element(cells, _target("table cell", "C5", [100, 100, 80, 30]), (140, 115)) is None  # another cell
    assert find_element(cells, _target("table cell", "C7", [300, 300, 80, 30]), (340, 315)) == (140, 115, "element")
    panel = _tree(("Main", _button("", 0, 0, 400, 300, role="panel")))
    assert find_element(panel, _target("panel", "", [0, 0, 400, 300]), (10, 10)) is None
    assert find_element(panel, {"selector": "#ok", "tag": "button"}, (10, 10)) is None  # a browser target


@pytest.mark.slow
def test_a_tree_that_cannot_be_read_is_an_environment_fault(recorded: tuple[Path, Path], tmp_path: Path) -> None:
    path, script = recorded
    source = load_source(path, task_file=_task(tmp_path, script, "frozen"))
    result = replay_episode(source, out_dir=tmp_path / "replays")
    outcome = read_episode(result.episode_path).meta.outcome
    assert result.run.env_failed and outcome is not None and outcome.termination == "env_error", outcome
    assert outcome.detail["fault"] == "hung" and "accessibility" in (outcome.reason or ""), outcome  # not the agent's
    assert result.steps == []  # it neither clicked blind nor hung
