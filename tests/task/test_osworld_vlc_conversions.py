"""What OSWorld's vlc evaluators (``metrics/vlc.py``, ``getters/vlc.py``) become, from the
real configs (``tests/fixtures/osworld/vlc-*.json``) and variations of them."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from gui_agent.checks.osworld.getters import source_of
from gui_agent.errors import OsworldConfigError, OsworldUnsupported
from gui_agent.task.osworld_import import convert_osworld
from tests.paths import FIXTURES


def config(fragment: str, domain: str = "vlc") -> dict[str, Any]:
    (path,) = (FIXTURES / "osworld").glob(f"{domain}-{fragment}*.json")
    return json.loads(path.read_text())


def evaluator(cfg: dict[str, Any]) -> Any:
    conversion = convert_osworld(cfg)
    assert conversion.complete, conversion.unsupported
    return conversion.task.model_dump(mode="json", by_alias=True, exclude_unset=True)["evaluator"]


def with_rules(fragment: str, rules: dict[str, Any]) -> dict[str, Any]:
    cfg = copy.deepcopy(config(fragment))
    cfg["evaluator"]["expected"]["rules"] = rules
    return cfg


def unsupported(cfg: dict[str, Any]) -> list[str]:
    return [u for u in convert_osworld(cfg).unsupported if u.startswith("evaluator")]


def setting(name: str, rule: dict[str, Any], default: str | None, commented: bool = True) -> dict[str, Any]:
    source: dict[str, Any] = {"name": name, "commented": commented}
    if default is not None:
        source["default"] = default
    return {"value": {"of": {"vlc_setting": source}, "rule": rule}}


@pytest.mark.parametrize(("fragment", "expected"), [
    ("215dfd39", setting("qt-bgcone", {"method": "eq", "ref": "0"}, "1")),
    ("9195653c", setting("qt-max-volume", {"method": "eq", "ref": "200"}, "125")),
    ("a5bbbcd5", setting("qt-minimal-view", {"method": "eq", "ref": "1"}, "0")),
    ("f3977615", setting("one-instance-when-started-from-file", {"method": "eq", "ref": "0"}, "1")),
    ("386dbd0e", setting("global-key-play-pause", {"method": "re", "ref": r"\S"}, "")),
    ("d06f0d4d", {"vlc_colours_blackish": {"name": "qt-slider-colours", "default": "153;210;153;20;210;20;255;199;15;245;39;29",
                                           "below": 100}}),
])
def test_settings_metrics_read_vlcrc_as_osworld_does(fragment: str, expected: dict[str, Any]) -> None:
    assert evaluator(config(fragment)) == expected


def test_the_settings_tasks_restart_vlc_before_the_check_as_osworld_does() -> None:
    task = convert_osworld(config("9195653c")).task.model_dump(mode="json", exclude_unset=True)
    assert task["post_steps"] == [{"quit_app": {"app": "vlc"}}, {"launch": {"app": "vlc"}}]  # pkill vlc: this episode's VLC
    assert task["environment"]["apps"] == ["vlc"]


def test_global_key_unset_and_slider_colours_matched() -> None:
    assert evaluator(with_rules("386dbd0e", {"expected_global_key_play_pause": 0})) == setting(
        "global-key-play-pause", {"method": "eq", "ref": ""}, "")
    with pytest.raises(OsworldConfigError, match="expected 0 or 1"):
        convert_osworld(with_rules("386dbd0e", {"expected_global_key_play_pause": 2}))
    colours = "0;0;0;10;10;10;20;20;20;30;30;30"
    assert evaluator(with_rules("d06f0d4d", {"type": "match", "expected_qt_slider_colours": colours})) == setting(
        "qt-slider-colours", {"method": "eq", "ref": colours}, "153;210;153;20;210;20;255;199;15;245;39;29")


def test_recordings_folder_in_the_home_and_elsewhere() -> None:
    assert evaluator(config("8ba5ae7a")) == {"vlc_path_setting": {"name": "input-record-path", "path": "Desktop"}}
    assert evaluator(with_rules("8ba5ae7a", {"recording_file_path": "/media/recordings"})) == setting(
        "input-record-path", {"method": "eq", "ref": "/media/recordings"}, None, commented=False)


def test_playing_by_file_name_and_by_url() -> None:
    assert evaluator(config("59f21cfb")) == {
        "vlc_playing": {"file_name": "Rick Astley - Never Gonna Give You Up (Official Music Video).mp4"}}
    assert evaluator(config("bba3381f")) == {"vlc_playing": {"url": "https://www.youtube.com/watch?v=pgBsyTKAwLw"}}
    with pytest.raises(OsworldConfigError, match="'file_name' or 'url'"):
        convert_osworld(with_rules("59f21cfb", {"type": "title", "title": "x"}))


def test_fullscreen_compares_the_vlc_window_with_the_screen() -> None:
    assert evaluator(config("8d9fd4e2")) == {"window_fills_screen": {"window_class": "vlc"}}
    swapped = copy.deepcopy(config("8d9fd4e2"))
    evaluation = swapped["evaluator"]
    evaluation["result"], evaluation["expected"] = evaluation["expected"], evaluation["result"]
    assert evaluator(swapped) == {"window_fills_screen": {"window_class": "vlc"}}


def test_audio_and_video_comparisons_with_their_gold_files() -> None:
    conversion = convert_osworld(config("8f080098"))
    assert conversion.complete, conversion.unsupported
    assert evaluator(config("8f080098")) == {"audio_similar": {
        "path": "Desktop/Baby Justin Bieber.mp3", "expected": "inputs/baby_gold.mp3", "min_similarity": 0.5}}
    assert evaluator(config("aa4b5023")) == {"video_same": {
        "path": "1984_Apple_Macintosh_Commercial.mp4", "expected": "inputs/1984_Apple_Macintosh_Commercial_gold.mp4"}}
    tuned = copy.deepcopy(config("aa4b5023"))
    tuned["evaluator"]["options"] = {"max_frames_to_check": 250, "threshold": 3}
    assert evaluator(tuned)["video_same"] | {"max_frames": 250, "threshold": 3} == evaluator(tuned)["video_same"]
    tuned["evaluator"]["options"] = {"fps": 3}
    assert "have no equivalent" in unsupported(tuned)[0]


def test_are_audio_files_similar_compares_fingerprints() -> None:
    cfg = copy.deepcopy(config("8f080098"))
    cfg["evaluator"]["func"] = "are_audio_files_similar"
    assert evaluator(cfg) == {"audio_fingerprint_equal": {"path": "Desktop/Baby Justin Bieber.mp3",
                                                          "expected": "inputs/baby_gold.mp3"}}


def test_a_slides_audio_stays_the_presentation_familys() -> None:
    """compare_audios of an audio_in_slide result: the embedded file must be the placed one (its bytes)."""
    found = evaluator(config("c59742c0", domain="libreoffice_impress"))
    assert found == {"presentation_media": {"path": "Desktop/Mady_and_Mia_Baseball.pptx", "slide": 0, "kind": "audio",
                                            "same_as": "inputs/Baseball.mp3"}}


def test_getters_become_sources() -> None:
    assert source_of({"type": "vlc_config", "dest": "vlcrc"}, "evaluator.result", None) == {
        "file_text": {"path": ".config/vlc/vlcrc"}}
    assert source_of({"type": "vlc_playing_info", "dest": "status.xml"}, "evaluator.result", None) == {"vlc_status": {}}
    with pytest.raises(OsworldUnsupported, match="VLC is the only video player"):
        source_of({"type": "default_video_player"}, "evaluator.result", None)
