"""Checks of the media family: what VLC plays and how it is set up, and audio or video files
judged by how they sound or look.

They cover OSWorld's VLC metrics (``metrics/vlc.py``), each judging the way that code does:

* ``vlc_playing``: VLC plays (its HTTP interface's ``state`` is ``playing``) an item whose
  ``filename`` (or ``url``) meta ends with the given text (``is_vlc_playing``).
* ``vlc_path_setting``: a ``vlcrc`` setting is exactly a folder of the episode's home
  (``is_vlc_recordings_folder``: ``input-record-path`` is ``/home/user/Desktop`` there).
* ``vlc_colours_blackish``: every RGB triple of a colour-list setting is below a level
  (``check_qt_slider_colours`` with ``blackish``). OSWorld's other settings metrics are
  ``value`` checks of the ``vlc_setting`` source (:mod:`gui_agent.checks.sources.media`).
* ``window_fills_screen``: the first managed window of a class is exactly the screen's size
  (``is_vlc_fullscreen`` over ``vm_window_size``/``vm_screen_size``).
* ``audio_similar``: two recordings sound alike by OSWorld's measure (``compare_audios``,
  see :func:`~gui_agent.checks.media_signals.audio_similarity`).
* ``video_same``: two videos show the same frames by perceptual hash (``compare_videos``,
  see :func:`~gui_agent.checks.media_signals.videos_match`).
* ``audio_fingerprint_equal``: OSWorld's ``are_audio_files_similar``: the Chromaprint
  fingerprints of the two soundtracks (the second re-encoded as MP3 first) are equal.

The signal processing (MFCC, fast DTW, perceptual hashes) is in
:mod:`gui_agent.checks.media_signals`.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import ClassVar

import av
import cv2
from pydantic import Field, model_validator

from gui_agent.checks.family import CheckType
from gui_agent.checks.media_signals import audio_similarity, videos_match
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, written_file
from gui_agent.checks.sources.media import VLCRC, status_field, status_meta, vlc_status_xml, vlcrc_value
from gui_agent.envs.desktop.paths import HomePath, TaskPath
from gui_agent.schema import NonBlank, SingleKey, StrictModel, exactly_one

# ---------------------------------------------------------------------- what a task file writes


class VlcPlayingArgs(StrictModel):
    """VLC is playing, and the item's ``filename`` meta ends with ``file_name`` (or its
    ``url`` meta with ``url``)."""

    file_name: NonBlank | None = None
    url: NonBlank | None = None

    @model_validator(mode="after")
    def _one(self) -> VlcPlayingArgs:
        exactly_one(self, ("file_name", "url"))
        return self


class VlcPathSettingArgs(StrictModel):
    """The ``vlcrc`` setting ``name`` (its uncommented line) is exactly the absolute path of
    the home-relative folder ``path``."""

    name: NonBlank
    path: HomePath


class VlcColoursBlackishArgs(StrictModel):
    """Every RGB triple of the ``vlcrc`` colour list ``name`` (``r;g;b;r;g;b...``, ``default``
    when no line sets it) has all three values below ``below``."""

    name: NonBlank = "qt-slider-colours"
    default: str = "153;210;153;20;210;20;255;199;15;245;39;29"
    below: int = Field(default=100, ge=1, le=256)


class WindowFillsScreenArgs(StrictModel):
    """The first managed window (``_NET_CLIENT_LIST`` order) whose ``WM_CLASS`` names
    ``window_class`` (any case) is exactly as wide and high as the screen."""

    window_class: NonBlank


class AudioSimilarArgs(StrictModel):
    """The recording at ``path`` sounds like ``expected`` (shipped with the task): OSWorld's
    similarity ``1 / (1 + DTW distance)`` of their MFCCs is at least ``min_similarity``."""

    path: HomePath
    expected: TaskPath
    min_similarity: float = Field(default=0.5, gt=0, le=1)


class VideoSameArgs(StrictModel):
    """The video at ``path`` shows ``expected``'s frames: over the first ``max_frames``,
    at most ``threshold`` frames' perceptual hashes differ by more than ``threshold`` bits,
    and if either video ends there, both end together."""

    path: HomePath
    expected: TaskPath
    max_frames: int = Field(default=100, ge=1)
    threshold: int = Field(default=5, ge=0)


class AudioFingerprintEqualArgs(StrictModel):
    """The soundtrack at ``path`` has the same Chromaprint fingerprint (first 120 s) as
    ``expected``'s re-encoded as MP3, and is at least as long."""

    path: HomePath
    expected: TaskPath


class VlcPlayingCheck(SingleKey):
    name: ClassVar[str] = "vlc_playing"
    vlc_playing: VlcPlayingArgs


class VlcPathSettingCheck(SingleKey):
    name: ClassVar[str] = "vlc_path_setting"
    vlc_path_setting: VlcPathSettingArgs


class VlcColoursBlackishCheck(SingleKey):
    name: ClassVar[str] = "vlc_colours_blackish"
    vlc_colours_blackish: VlcColoursBlackishArgs


class WindowFillsScreenCheck(SingleKey):
    name: ClassVar[str] = "window_fills_screen"
    window_fills_screen: WindowFillsScreenArgs


class AudioSimilarCheck(SingleKey):
    name: ClassVar[str] = "audio_similar"
    audio_similar: AudioSimilarArgs


class VideoSameCheck(SingleKey):
    name: ClassVar[str] = "video_same"
    video_same: VideoSameArgs


class AudioFingerprintEqualCheck(SingleKey):
    name: ClassVar[str] = "audio_fingerprint_equal"
    audio_fingerprint_equal: AudioFingerprintEqualArgs


# ---------------------------------------------------------------------- VLC's state and settings


def _vlc_playing(args: VlcPlayingArgs, probe: DesktopProbe, report: Report) -> None:
    xml_text = vlc_status_xml(probe)
    state = status_field(xml_text, "state")
    meta, wanted = ("filename", args.file_name) if args.file_name is not None else ("url", args.url)
    assert wanted is not None
    value = status_meta(xml_text, meta)
    report["observed"] = {"state": state, meta: value}
    if state != "playing":
        report.update(passed=False, reason=f"VLC is {state or 'in no state'}, not playing")
        return
    ok = bool(value) and value.endswith(wanted)
    report.update(passed=ok, reason=f"VLC plays an item whose {meta} is {value!r}, which "
                                    f"{'ends' if ok else 'does not end'} with {wanted!r}")


def _vlcrc_text(probe: DesktopProbe, report: Report) -> str | None:
    path = written_file(probe, VLCRC, report)
    return None if path is None else path.read_text(encoding="utf-8", errors="replace")


def _vlc_path_setting(args: VlcPathSettingArgs, probe: DesktopProbe, report: Report) -> None:
    text = _vlcrc_text(probe, report)
    if text is None:
        return
    value = vlcrc_value(text, args.name, commented=False)
    wanted = str(probe.resolve_path(args.path))
    report["observed"] = {"value": value}
    ok = value == wanted
    report.update(passed=ok, reason=f"{args.name} is {value!r}" + (" (as wanted)" if ok else f", not {wanted!r} (~/{args.path})"))


def _vlc_colours_blackish(args: VlcColoursBlackishArgs, probe: DesktopProbe, report: Report) -> None:
    text = _vlcrc_text(probe, report)
    if text is None:
        return
    value = vlcrc_value(text, args.name)
    value = args.default if value is None else value
    report["observed"] = {"value": value}
    try:
        numbers = [int(part) for part in value.split(";")]
    except ValueError:
        report.update(passed=False, reason=f"{args.name} is {value!r}, not a list of numbers r;g;b;...")
        return
    triples = list(zip(numbers[0::3], numbers[1::3], numbers[2::3]))
    light = [t for t in triples if not all(v < args.below for v in t)]
    report.update(passed=not light, reason=f"{args.name} is {value!r}: " + (
        f"every colour has r, g and b below {args.below}" if not light else f"{light} are not below {args.below} in r, g and b"))


# ---------------------------------------------------------------------- windows


def _numbers(text: str, *names: str) -> list[int]:
    found = [re.search(rf"{name}:\s*(-?\d+)", text) for name in names]
    return [int(m.group(1)) if m else -1 for m in found]


def _window_fills_screen(args: WindowFillsScreenArgs, probe: DesktopProbe, report: Report) -> None:
    listing = probe.run_command(["xprop", "-root", "_NET_CLIENT_LIST"]).stdout
    windows = re.findall(r"0x[0-9a-fA-F]+", listing.partition("#")[2])
    screen = _numbers(probe.run_command(["xwininfo", "-root"]).stdout, "Width", "Height")
    for window in windows:
        classes = re.findall(r'"([^"]*)"', probe.run_command(["xprop", "-id", window, "WM_CLASS"]).stdout)
        if args.window_class.lower() in (c.lower() for c in classes):
            size = _numbers(probe.run_command(["xwininfo", "-id", window]).stdout, "Width", "Height")
            ok = size == screen
            report.update(observed={"window": window, "size": size, "screen": screen}, passed=ok,
                          reason=f"the {args.window_class} window is {size[0]}x{size[1]}, the screen {screen[0]}x{screen[1]}")
            return
    report.update(observed={"windows": len(windows), "screen": screen}, passed=False,
                  reason=f"no window of class {args.window_class!r} is open")


# ---------------------------------------------------------------------- audio and video: OSWorld's compare_audios, compare_videos


def _audio_similar(args: AudioSimilarArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    score = audio_similarity(path, probe.task_file(args.expected))
    ok = score >= args.min_similarity
    report.update(observed={"similarity": round(score, 5)}, passed=ok,
                  reason=f"{args.path} sounds {score:.4f} like {args.expected} (at least {args.min_similarity:g} needed)")


def _video_same(args: VideoSameArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    for video in (path, probe.task_file(args.expected)):
        if not cv2.VideoCapture(str(video)).isOpened():
            report.update(observed={"opened": False}, passed=False, reason=f"{video.name} cannot be read as a video")
            return
    ok, seen = videos_match(path, probe.task_file(args.expected), max_frames=args.max_frames, threshold=args.threshold)
    ended = seen.get("ended")
    how = (f"{'both end' if ok else 'only one ends'} after {seen['frames']} frames" if ended else f"over {seen['frames']} frames")
    report.update(observed=seen, passed=ok, reason=f"{args.path} and {args.expected}: {how}, {seen['mismatched']} "
                                                   f"frame(s) look different (at most {args.threshold} allowed)")


# ---------------------------------------------------------------------- OSWorld's are_audio_files_similar


def _fingerprint(probe: DesktopProbe, path: Path) -> tuple[str, int]:
    """Chromaprint's fingerprint of the first 120 s of ``path`` (fpcalc's defaults) and its
    length in whole seconds, through ffmpeg's chromaprint muxer."""
    done = probe.run_command(["ffmpeg", "-nostdin", "-v", "error", "-i", str(path), "-vn", "-t", "120",
                              "-f", "chromaprint", "-fp_format", "base64", "-"], timeout_s=120)
    if done.returncode != 0 or not done.stdout.strip():
        raise ValueError(f"ffmpeg could not fingerprint {path.name}: {done.stderr.strip()[-300:]}")
    with av.open(str(path)) as container:
        seconds = int((container.duration or 0) / av.time_base)
    return done.stdout.strip(), seconds


def _audio_fingerprint_equal(args: AudioFingerprintEqualArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    with tempfile.TemporaryDirectory(prefix="gui-agent-audio-") as folder:
        extracted = Path(folder) / "extracted.mp3"
        done = probe.run_command(["ffmpeg", "-nostdin", "-v", "error", "-i", str(probe.task_file(args.expected)), "-vn",
                                  "-ar", "44100", "-ac", "2", "-ab", "192k", "-f", "mp3", str(extracted)], timeout_s=300)
        if done.returncode != 0:
            raise ValueError(f"ffmpeg could not extract the sound of {args.expected}: {done.stderr.strip()[-300:]}")
        theirs, their_length = _fingerprint(probe, extracted)
    ours, our_length = _fingerprint(probe, path)
    same, long_enough = ours == theirs, our_length >= their_length
    report.update(observed={"same_fingerprint": same, "seconds": our_length, "expected_seconds": their_length},
                  passed=same and long_enough,
                  reason=f"{args.path} ({our_length} s) {'has' if same else 'does not have'} the fingerprint of "
                         f"{args.expected}'s sound ({their_length} s)" + ("" if long_enough else ", and is shorter"))


CHECKS: tuple[CheckType, ...] = (
    CheckType(VlcPlayingCheck, _vlc_playing),
    CheckType(VlcPathSettingCheck, _vlc_path_setting),
    CheckType(VlcColoursBlackishCheck, _vlc_colours_blackish),
    CheckType(WindowFillsScreenCheck, _window_fills_screen),
    CheckType(AudioSimilarCheck, _audio_similar),
    CheckType(VideoSameCheck, _video_same),
    CheckType(AudioFingerprintEqualCheck, _audio_fingerprint_equal),
)

__all__ = ["CHECKS"]
