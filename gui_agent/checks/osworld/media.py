"""OSWorld's VLC metrics (``metrics/vlc.py``) as checks of the media family
(:mod:`gui_agent.checks.media`) and ``value`` checks of the ``vlc_setting`` source.

The settings metrics (``check_qt_bgcone``, ``check_qt_max_volume``...) read one line of
``vlcrc`` the way OSWorld's code does (commented-out defaults count, a missing line is the
default the code assumes) and compare its text with the expected value as text; that is
a ``value`` check with an ``eq`` rule. ``compare_images`` (also in that file) is the image
family's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gui_agent.checks.osworld import presentation
from gui_agent.checks.osworld.config import OSWORLD_HOME, home_path
from gui_agent.checks.osworld.metric import Check, Metric, kind_of
from gui_agent.errors import OsworldConfigError, OsworldUnsupported

#: The similarity (OSWorld's compare_audios score, ``1 / (1 + DTW distance)``) at which two
#: recordings count as the same. OSWorld keeps the score as partial credit; a check passes
#: or fails, so it needs a line: 0.5 is a total cosine distance of 1 along the alignment.
#: The same recording re-encoded as MP3 (96-192 kbit/s) scores 0.97-0.999, the same music
#: cut 5 s later or another tune under 0.01.
AUDIO_MIN_SIMILARITY = 0.5

#: Settings metric -> (its rule key, the vlcrc option it reads, the value it assumes when no line sets it).
_SETTINGS: dict[str, tuple[str, str, str]] = {
    "check_qt_bgcone": ("expected_qt_bgcone", "qt-bgcone", "1"),
    "check_qt_max_volume": ("expected_qt_max_volume", "qt-max-volume", "125"),
    "check_qt_minimal_view": ("expected_qt_minimal_view", "qt-minimal-view", "0"),
    "check_one_instance_when_started_from_file": (
        "expected_one_instance_when_started_from_file", "one-instance-when-started-from-file", "1"),
}
#: The slider colours VLC uses when vlcrc does not set them.
_DEFAULT_SLIDER_COLOURS = "153;210;153;20;210;20;255;199;15;245;39;29"


def _getter(metric: Metric, side: str) -> str:
    spec = getattr(metric, side)
    if not isinstance(spec, dict) or not isinstance(spec.get("type"), str):
        raise OsworldConfigError(f"{metric.where}.{side}", f"expected a getter mapping with 'type', got {kind_of(spec)}")
    return str(spec["type"])


def _needs_vlc_config(metric: Metric) -> None:
    kind = _getter(metric, "result")
    if kind != "vlc_config":
        raise OsworldUnsupported(f"{metric.func} reads VLC's vlcrc (vlc_config); a result of type {kind!r} has no equivalent")


def _as_text(value: Any, where: str) -> str:
    """An expected setting as OSWorld compares it: numbers as their text."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise OsworldConfigError(where, f"expected a setting value (a number or a text), got {kind_of(value)}")
    return str(value)


def _setting_value(name: str, rule: dict[str, Any], *, default: str | None, commented: bool = True) -> Check:
    source: dict[str, Any] = {"name": name, "commented": commented}
    if default is not None:
        source["default"] = default
    return {"value": {"of": {"vlc_setting": source}, "rule": rule}}


def vlc_setting_metric(metric: Metric) -> list[Check]:
    """check_qt_bgcone, check_qt_max_volume, check_qt_minimal_view, check_one_instance_when_started_from_file."""
    _needs_vlc_config(metric)
    key, name, default = _SETTINGS[metric.func]
    rules = metric.rules()
    if key not in rules:
        raise OsworldConfigError(f"{metric.where}.expected.rules", f"expected {key}")
    wanted = _as_text(rules[key], f"{metric.where}.expected.rules.{key}")
    return [_setting_value(name, {"method": "eq", "ref": wanted}, default=default)]


def check_global_key_play_pause(metric: Metric) -> list[Check]:
    """OSWorld counts the global play/pause key as set (1) when its line has any value."""
    _needs_vlc_config(metric)
    rules = metric.rules()
    wanted = _as_text(rules.get("expected_global_key_play_pause"), f"{metric.where}.expected.rules.expected_global_key_play_pause")
    if wanted not in ("0", "1"):
        raise OsworldConfigError(f"{metric.where}.expected.rules.expected_global_key_play_pause", "expected 0 or 1")
    rule = {"method": "re", "ref": r"\S"} if wanted == "1" else {"method": "eq", "ref": ""}
    return [_setting_value("global-key-play-pause", rule, default="")]


def check_qt_slider_colours(metric: Metric) -> list[Check]:
    _needs_vlc_config(metric)
    rules = metric.rules()
    kind = rules.get("type")
    if kind == "blackish":
        return [{"vlc_colours_blackish": {"name": "qt-slider-colours", "default": _DEFAULT_SLIDER_COLOURS, "below": 100}}]
    if kind == "match":
        wanted = rules.get("expected_qt_slider_colours")
        if not isinstance(wanted, str):
            raise OsworldConfigError(f"{metric.where}.expected.rules.expected_qt_slider_colours", "expected the colours r;g;b;...")
        return [_setting_value("qt-slider-colours", {"method": "eq", "ref": wanted}, default=_DEFAULT_SLIDER_COLOURS)]
    raise OsworldConfigError(f"{metric.where}.expected.rules.type", f"expected 'match' or 'blackish', got {kind!r}")


def is_vlc_recordings_folder(metric: Metric) -> list[Check]:
    """The uncommented input-record-path line must be exactly the folder (the VM's home
    becomes the episode's)."""
    _needs_vlc_config(metric)
    folder = metric.rules().get("recording_file_path")
    if not isinstance(folder, str) or not folder:
        raise OsworldConfigError(f"{metric.where}.expected.rules.recording_file_path", "expected a folder path")
    if folder.startswith((OSWORLD_HOME, "~/")):
        return [{"vlc_path_setting": {"name": "input-record-path", "path": home_path(folder)}}]
    return [_setting_value("input-record-path", {"method": "eq", "ref": folder}, default=None, commented=False)]


def is_vlc_playing(metric: Metric) -> list[Check]:
    kind = _getter(metric, "result")
    if kind != "vlc_playing_info":
        raise OsworldUnsupported(f"is_vlc_playing reads VLC's status (vlc_playing_info); a result of type {kind!r} has no equivalent")
    rules = metric.rules()
    what = rules.get("type")
    if what not in ("file_name", "url"):
        raise OsworldConfigError(f"{metric.where}.expected.rules.type", f"expected 'file_name' or 'url', got {what!r}")
    wanted = rules.get(what)
    if not isinstance(wanted, str) or not wanted:
        raise OsworldConfigError(f"{metric.where}.expected.rules.{what}", "expected a text the playing item's name ends with")
    return [{"vlc_playing": {what: wanted}}]


def is_vlc_fullscreen(metric: Metric) -> list[Check]:
    """OSWorld compares the VLC window's size with the screen's (either side may be which)."""
    sides = {_getter(metric, "result"): metric.result, _getter(metric, "expected"): metric.expected}
    if set(sides) != {"vm_window_size", "vm_screen_size"}:
        raise OsworldUnsupported(f"is_vlc_fullscreen compares vm_window_size with vm_screen_size; got {sorted(sides)}")
    window_class = sides["vm_window_size"].get("app_class_name")
    if not isinstance(window_class, str) or not window_class:
        raise OsworldConfigError(f"{metric.where}", "vm_window_size needs app_class_name")
    return [{"window_fills_screen": {"window_class": window_class}}]


def compare_audios(metric: Metric) -> list[Check]:
    """A recording the agent saved, judged by sound; a slide's audio stays the presentation
    family's (its bytes are the file's)."""
    if _getter(metric, "result") == "audio_in_slide":
        return presentation.compare_audios(metric)
    return [{"audio_similar": {"path": metric.result_path(), "expected": metric.expected_file(),
                               "min_similarity": AUDIO_MIN_SIMILARITY}}]


def compare_videos(metric: Metric) -> list[Check]:
    check: dict[str, Any] = {"path": metric.result_path(), "expected": metric.expected_file()}
    for option, field in (("max_frames_to_check", "max_frames"), ("threshold", "threshold")):
        if option in metric.options:
            value = metric.options[option]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise OsworldConfigError(f"{metric.where}.options.{option}", f"expected a whole number, got {value!r}")
            check[field] = value
    unknown = sorted(set(metric.options) - {"max_frames_to_check", "threshold"})
    if unknown:
        raise OsworldUnsupported(f"compare_videos options {unknown} have no equivalent")
    return [{"video_same": check}]


def are_audio_files_similar(metric: Metric) -> list[Check]:
    return [{"audio_fingerprint_equal": {"path": metric.result_path(), "expected": metric.expected_file()}}]


#: OSWorld metric name -> its conversion.
METRICS: dict[str, Callable[[Metric], list[Check]]] = {
    **{name: vlc_setting_metric for name in _SETTINGS},
    "check_global_key_play_pause": check_global_key_play_pause,
    "check_qt_slider_colours": check_qt_slider_colours,
    "is_vlc_recordings_folder": is_vlc_recordings_folder,
    "is_vlc_playing": is_vlc_playing,
    "is_vlc_fullscreen": is_vlc_fullscreen,
    "compare_audios": compare_audios,
    "compare_videos": compare_videos,
    "are_audio_files_similar": are_audio_files_similar,
}
#: OSWorld metric name -> why it has no equivalent here.
NO_EQUIVALENT: dict[str, str] = {
    "compare_audios_by_dl_model": "OSWorld's own function is an empty stub (it returns None), so there is nothing to judge by",
}
