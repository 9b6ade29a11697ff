"""The media checks and sources on real things: Debian's VLC on a real display (its HTTP
status, its window, the vlcrc it saves), files VLC would write, recordings and videos made
by ffmpeg, and ``xdg-mime`` answering from a home's ``mimeapps.list``.

The signal processing replaces librosa, fastdtw, scipy and imagehash (OSWorld's): its
numbers are compared with those those libraries computed on the same exact inputs (WAV
samples and an image written from numpy, so no codec stands between), recorded below.
"""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request
import wave
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gui_agent.actions import Hotkey
from gui_agent.checks.media_signals import audio_similarity, load_mono, mfcc, perceptual_hash
from gui_agent.checks.sources.media import VLC_HTTP_PASSWORD, qt_setting, vlcrc_value
from gui_agent.envs.desktop.apps.vlc import HTTP_PASSWORD, VLC
from gui_agent.envs.desktop.session import DesktopSession
from tests.checks.check_helpers import FolderProbe, check, passes
from tests.task.osworld_vlc_inputs import make_video

SLIDER_DEFAULT = "153;210;153;20;210;20;255;199;15;245;39;29"


class HomeProbe(FolderProbe):
    """A folder probe whose commands run as on the desktop: ``HOME`` and the XDG folders in
    the home folder, and the session's display and environment when given one."""

    def __init__(self, home: Path, task_dir: Path | None = None, env: dict[str, str] | None = None) -> None:
        super().__init__(home, task_dir)
        self.env = env or {
            "PATH": os.environ["PATH"], "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local/share"), "DBUS_SESSION_BUS_ADDRESS": "disabled:",
        }

    def run_command(self, argv: Sequence[str], *, timeout_s: float = 30.0) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(argv), cwd=self.home, env=self.env, capture_output=True, text=True, timeout=timeout_s,
                              check=False, stdin=subprocess.DEVNULL)


def vlc(spec: dict[str, Any], probe: FolderProbe) -> dict[str, Any]:
    return check(spec, probe, apps="vlc")


def setting(name: str, rule: dict[str, Any], **source: Any) -> dict[str, Any]:
    return {"value": {"of": {"vlc_setting": {"name": name, **source}}, "rule": rule}}


def ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *args], check=True, capture_output=True, timeout=120)


# ---------------------------------------------------------------------- vlcrc, Qt settings, default apps


#: A vlcrc as VLC 3 saves it: every option once, defaults commented out.
VLCRC = """\ufeff###
###  vlc 3.0.24
###

[qt] # Qt interface
# Start in minimal view (without menus) (boolean)
qt-minimal-view=1
# Define the colors of the volume slider (string)
#qt-slider-colours=153;210;153;20;210;20;255;199;15;245;39;29
# Maximum Volume displayed (integer)
#qt-max-volume=125

[core] # core program
# Record directory or filename (string)
#input-record-path=
# Play/Pause (string)
#global-key-play-pause=
# Play/Pause (string)
key-play-pause=Space
"""


def test_vlcrc_values_count_commented_defaults_as_osworld_reads_them() -> None:
    assert vlcrc_value(VLCRC, "qt-minimal-view") == "1"
    assert vlcrc_value(VLCRC, "qt-max-volume") == "125"
    assert vlcrc_value(VLCRC, "qt-max-volume", commented=False) is None
    assert vlcrc_value(VLCRC, "global-key-play-pause") == ""
    assert vlcrc_value(VLCRC, "key-play-pause") == "Space"  # not the global key's line
    assert vlcrc_value(VLCRC, "qt-bgcone") is None


def test_vlc_setting_values(tmp_path: Path) -> None:
    probe = FolderProbe(tmp_path)
    probe.write(".config/vlc/vlcrc", VLCRC)
    assert passes(setting("qt-minimal-view", {"method": "eq", "ref": "1"}, default="0"), probe, apps="vlc")
    assert not passes(setting("qt-max-volume", {"method": "eq", "ref": "200"}, default="125"), probe, apps="vlc")
    assert passes(setting("qt-bgcone", {"method": "eq", "ref": "1"}, default="1"), probe, apps="vlc")
    assert not passes(setting("global-key-play-pause", {"method": "re", "ref": r"\S"}, default=""), probe, apps="vlc")
    probe.write(".config/vlc/vlcrc", VLCRC.replace("#global-key-play-pause=", "global-key-play-pause=Ctrl+Space"))
    assert passes(setting("global-key-play-pause", {"method": "re", "ref": r"\S"}, default=""), probe, apps="vlc")


def test_vlc_path_setting_is_the_exact_folder_in_the_home(tmp_path: Path) -> None:
    probe = FolderProbe(tmp_path)
    spec = {"vlc_path_setting": {"name": "input-record-path", "path": "Desktop"}}
    assert vlc(spec, probe)["observed"] == {"exists": False}  # no vlcrc: nothing was saved
    probe.write(".config/vlc/vlcrc", VLCRC)
    assert vlc(spec, probe)["observed"] == {"value": None}  # only the commented default
    probe.write(".config/vlc/vlcrc", VLCRC.replace("#input-record-path=", f"#input-record-path={tmp_path}/Desktop"))
    assert not passes(spec, probe, apps="vlc")
    for wrong in ("~/Desktop", f"{tmp_path}/Desktop/", f"{tmp_path}/Documents"):
        probe.write(".config/vlc/vlcrc", VLCRC.replace("#input-record-path=", f"input-record-path={wrong}"))
        assert not passes(spec, probe, apps="vlc"), wrong
    probe.write(".config/vlc/vlcrc", VLCRC.replace("#input-record-path=", f"input-record-path={tmp_path}/Desktop"))
    assert passes(spec, probe, apps="vlc")


@pytest.mark.parametrize(("colours", "blackish"), [
    (None, False),  # VLC's default green-to-red slider
    ("0;0;0;20;20;20;99;99;99;10;10;10", True),
    ("0;0;0;20;20;20;99;100;99;10;10;10", False),
    ("0;0;0;black", False),
])
def test_vlc_colours_blackish(tmp_path: Path, colours: str | None, blackish: bool) -> None:
    probe = FolderProbe(tmp_path)
    text = VLCRC if colours is None else VLCRC.replace(f"#qt-slider-colours={SLIDER_DEFAULT}", f"qt-slider-colours={colours}")
    probe.write(".config/vlc/vlcrc", text)
    spec = {"vlc_colours_blackish": {"name": "qt-slider-colours", "default": SLIDER_DEFAULT, "below": 100}}
    assert passes(spec, probe, apps="vlc") is blackish


def test_vlc_qt_settings(tmp_path: Path) -> None:
    text = ("[General]\ngeometry=@ByteArray(\\x1\\xd9\\xd0\\xcb)\n\n[MainWindow]\nplaylist-visible=false\nbgSize=@Size(600 346)\n\n"
            "[RecentsMRL]\nlist=file:///home/u/a.mp4, file:///home/u/b%20c.mp4\n")
    assert qt_setting(text, "MainWindow/playlist-visible") == "false"
    assert qt_setting(text, "geometry") == "@ByteArray(\\x1\\xd9\\xd0\\xcb)"
    assert qt_setting(text, "MainWindow/nothing") is None
    probe = FolderProbe(tmp_path)
    probe.write(".config/vlc/vlc-qt-interface.conf", text)
    spec = {"value": {"of": {"vlc_qt_setting": {"key": "RecentsMRL/list"}}, "rule": {"method": "re", "ref": "b%20c"}}}
    assert passes(spec, probe, apps="vlc")


def test_default_app_is_what_xdg_mime_names_for_most_types(tmp_path: Path) -> None:
    probe = HomeProbe(tmp_path)
    spec = {"value": {"of": {"default_app": {"mime_types": ["video/mp4", "video/webm", "video/x-matroska"]}},
                      "rule": {"method": "eq", "ref": "vlc.desktop"}}}
    assert passes(spec, probe, apps="vlc")  # Debian's VLC registers itself for them
    probe.write(".local/share/applications/player.desktop", "[Desktop Entry]\nType=Application\nName=Player\nExec=true %f\n")
    probe.write(".config/mimeapps.list", "[Default Applications]\nvideo/mp4=player.desktop\nvideo/webm=player.desktop\n")
    report = vlc(spec, probe)
    assert (report["passed"], report["observed"]["value"]) == (False, "player.desktop")


# ---------------------------------------------------------------------- audio


def _write_wav(path: Path, samples: np.ndarray, rate: int = 22050) -> Path:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes((np.clip(samples, -1, 1) * 32767).astype("<i2").tobytes())
    return path


def _tune(kind: str) -> np.ndarray:
    t = np.arange(22050 * 6) / 22050
    if kind == "tune":
        notes = 220.0 * 2 ** (np.floor(t * 2) % 5 / 12 * 3)
        return 0.4 * np.sin(2 * np.pi * notes * t) + 0.2 * np.sin(2 * np.pi * 3 * notes * t) * (0.5 + 0.5 * np.sin(2 * np.pi * 0.7 * t))
    if kind == "noisy_tune":
        return _tune("tune") + 0.01 * np.random.default_rng(7).standard_normal(len(t))
    notes = 330.0 * 2 ** (np.floor(t * 3) % 4 / 12 * 2)
    return 0.4 * np.sin(2 * np.pi * notes * t) + 0.1 * np.sign(np.sin(2 * np.pi * 1.5 * t))


def test_mfcc_and_similarity_equal_librosa_and_fastdtw(tmp_path: Path) -> None:
    """Recorded from librosa 0.11 (``librosa.load`` + ``feature.mfcc`` + ``util.normalize``)
    and fastdtw 0.3 with scipy's cosine, as OSWorld's compare_audios calls them."""
    wavs = {kind: _write_wav(tmp_path / f"{kind}.wav", _tune(kind)) for kind in ("tune", "noisy_tune", "other_tune")}
    coefficients = mfcc(load_mono(wavs["tune"]))
    assert coefficients.shape == (20, 259)
    assert np.allclose(coefficients[:3, 100], [-489.55508, 44.745537, 14.327261], rtol=1e-4)
    assert coefficients[5, 50] == pytest.approx(0.65202725, rel=1e-3)
    assert audio_similarity(wavs["tune"], wavs["noisy_tune"]) == pytest.approx(0.1082670612273013, rel=1e-4)
    assert audio_similarity(wavs["tune"], wavs["other_tune"]) == pytest.approx(0.006671877390404503, rel=1e-4)
    assert audio_similarity(wavs["tune"], wavs["tune"]) == 1.0


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A 12 s tune as WAV, the same as MP3 at two bit rates, cut 3 s later, another tune, a video with it."""
    folder = tmp_path_factory.mktemp("recordings")
    tune = "0.3*sin(2*PI*(220+110*floor(mod(t\\,4)))*t)+0.2*sin(2*PI*(330+55*floor(mod(t*2\\,6)))*t)"
    ffmpeg("-f", "lavfi", "-i", f"aevalsrc={tune}|{tune}:s=44100:d=12", str(folder / "tune.wav"))
    ffmpeg("-i", str(folder / "tune.wav"), "-b:a", "192k", str(folder / "tune192.mp3"))
    ffmpeg("-i", str(folder / "tune.wav"), "-b:a", "96k", str(folder / "tune96.mp3"))
    ffmpeg("-ss", "3", "-i", str(folder / "tune.wav"), "-b:a", "192k", str(folder / "later.mp3"))
    ffmpeg("-f", "lavfi", "-i", "aevalsrc=0.3*sin(2*PI*(300+80*floor(mod(t*1.5\\,5)))*t):s=44100:d=12", str(folder / "other.mp3"))
    ffmpeg("-f", "lavfi", "-i", "smptebars=duration=12:size=320x180:rate=5", "-i", str(folder / "tune.wav"),
           "-shortest", "-pix_fmt", "yuv420p", "-c:a", "aac", str(folder / "clip.mp4"))
    return {path.stem: path for path in folder.iterdir()}


@pytest.mark.parametrize(("saved", "similar"), [("tune96", True), ("tune192", True), ("later", False), ("other", False)])
def test_audio_similar(tmp_path: Path, recordings: dict[str, Path], saved: str, similar: bool) -> None:
    probe = FolderProbe(tmp_path / "home", recordings["tune"].parent)
    spec = {"audio_similar": {"path": "Desktop/song.mp3", "expected": "tune192.mp3", "min_similarity": 0.5}}
    assert vlc(spec, probe)["observed"] == {"exists": False}
    (tmp_path / "home/Desktop").mkdir(parents=True)
    (tmp_path / "home/Desktop/song.mp3").write_bytes(recordings[saved].read_bytes())
    report = vlc(spec, probe)
    assert report["passed"] is similar, report


def test_audio_fingerprint_equal(tmp_path: Path, recordings: dict[str, Path]) -> None:
    """OSWorld's are_audio_files_similar: the same ffmpeg extraction gives the same
    fingerprint; another tune (or another encoding of the same one) does not."""
    probe = HomeProbe(tmp_path, recordings["clip"].parent)
    ffmpeg("-i", str(recordings["clip"]), "-vn", "-ar", "44100", "-ac", "2", "-ab", "192k", "-f", "mp3", str(tmp_path / "song.mp3"))
    spec = {"audio_fingerprint_equal": {"path": "song.mp3", "expected": "clip.mp4"}}
    assert passes(spec, probe, apps="vlc")
    (tmp_path / "song.mp3").write_bytes(recordings["other"].read_bytes())
    report = vlc(spec, probe)
    assert report["passed"] is False and report["observed"]["same_fingerprint"] is False


# ---------------------------------------------------------------------- video


def test_perceptual_hash_equals_imagehash_phash() -> None:
    """Recorded from imagehash 4.3 (``str(imagehash.phash(Image.fromarray(img)))``)."""
    rng = np.random.default_rng(3)
    yy, xx = np.mgrid[0:120, 0:160]
    img = np.stack([(xx * 1.5) % 256, (yy * 2) % 256, ((xx + yy) * 3 + rng.integers(0, 20, xx.shape)) % 256], axis=-1).astype(np.uint8)

    def hex_of(bits: np.ndarray) -> str:
        return f"{int(''.join('1' if b else '0' for b in bits), 2):016x}"

    assert hex_of(perceptual_hash(img)) == "a272a50f5b2a587d"
    assert hex_of(perceptual_hash(img[::-1].copy())) == "a28da5f15bd558a2"


@pytest.fixture(scope="module")
def videos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("videos")
    ffmpeg("-f", "lavfi", "-i", "testsrc2=duration=6:size=320x240:rate=25", "-pix_fmt", "yuv420p", str(folder / "gold.mp4"))
    ffmpeg("-f", "lavfi", "-i", "testsrc2=duration=6:size=320x240:rate=25", "-vf", "vflip", "-pix_fmt", "yuv420p",
           str(folder / "flipped.mp4"))
    ffmpeg("-i", str(folder / "flipped.mp4"), "-vf", "vflip", "-crf", "30", "-pix_fmt", "yuv420p", str(folder / "turned_back.mp4"))
    ffmpeg("-i", str(folder / "gold.mp4"), "-t", "2", str(folder / "short.mp4"))
    return folder


@pytest.mark.parametrize(("saved", "same"), [("turned_back", True), ("flipped", False), ("short", False)])
def test_video_same(tmp_path: Path, videos: Path, saved: str, same: bool) -> None:
    probe = FolderProbe(tmp_path, videos)
    (tmp_path / "out.mp4").write_bytes((videos / f"{saved}.mp4").read_bytes())
    report = vlc({"video_same": {"path": "out.mp4", "expected": "gold.mp4"}}, probe)
    assert report["passed"] is same, report
    if saved == "short":
        assert report["observed"]["ended"] == [True, False] and report["observed"]["frames"] == 50


def test_video_same_with_fewer_frames_checked(tmp_path: Path, videos: Path) -> None:
    """Only the first ``max_frames`` count (OSWorld's max_frames_to_check): a video that
    differs later, or ends later, passes."""
    probe = FolderProbe(tmp_path, videos)
    (tmp_path / "out.mp4").write_bytes((videos / "short.mp4").read_bytes())
    assert passes({"video_same": {"path": "out.mp4", "expected": "gold.mp4", "max_frames": 40}}, probe, apps="vlc")
    (tmp_path / "out.txt").write_text("not a video")
    report = vlc({"video_same": {"path": "out.txt", "expected": "gold.mp4"}}, probe)
    assert report["passed"] is False and "cannot be read as a video" in report["reason"]


# ---------------------------------------------------------------------- a real VLC


def test_the_app_and_the_checks_share_the_http_password() -> None:
    assert HTTP_PASSWORD == VLC_HTTP_PASSWORD


@pytest.fixture
def playing_vlc() -> Iterator[tuple[DesktopSession, HomeProbe]]:
    """A desktop with Debian's VLC playing ~/Desktop/clip.mp4 (the app's own launch command)."""
    session = DesktopSession(width=1280, height=800, apps=("vlc",))
    try:
        session.start()
        make_video(session.home / "Desktop" / "clip.mp4", seconds=60.0, size="320x240", pattern="smptebars", rate=5)
        port = session.app_ports["vlc"]
        session.launch(VLC.launch_argv(["Desktop/clip.mp4"], home=session.home, port=port), label=VLC.title)
        probe = HomeProbe(session.home, env=session.env)
        probe.ports["vlc"] = port
        deadline = time.monotonic() + 30
        playing = {"value": {"of": {"vlc_status": {"field": "state"}}, "rule": {"method": "eq", "ref": "playing"}}}
        while not vlc(playing, probe)["passed"]:  # "connection refused" until its HTTP interface is up
            assert time.monotonic() < deadline, "VLC did not start playing within 30 s"
            session.check_alive()
            time.sleep(0.5)
        yield session, probe
    finally:
        session.stop()


def _until(condition: Any, timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.3)
    return condition()


def _focused_title(probe: HomeProbe) -> str:
    return probe.run_command(["xdotool", "getactivewindow", "getwindowname"]).stdout.strip()


@pytest.mark.slow
def test_a_real_vlc_playing_full_screen_stopped_and_saving_its_preferences(playing_vlc: tuple[DesktopSession, HomeProbe]) -> None:
    session, probe = playing_vlc
    (vlc_pid,) = [p for p in session.app_pids() if Path(f"/proc/{p}/comm").read_text().strip() == "vlc"]
    if os.geteuid() == 0:  # Debian's vlc refuses root: it runs as uid 1000 of a user namespace of its own
        assert Path(f"/proc/{vlc_pid}/uid_map").read_text().split() == ["1000", "0", "1"]
    assert passes({"vlc_playing": {"file_name": "clip.mp4"}}, probe, apps="vlc")
    report = vlc({"vlc_playing": {"file_name": "other.mp4"}}, probe)
    assert (report["passed"], report["observed"]) == (False, {"state": "playing", "filename": "clip.mp4"})
    assert passes({"value": {"of": {"vlc_status": {"meta": "filename"}}, "rule": {"method": "eq", "ref": "clip.mp4"}}},
                  probe, apps="vlc")

    spec = {"window_fills_screen": {"window_class": "vlc"}}
    report = vlc(spec, probe)
    assert report["passed"] is False and report["observed"]["screen"] == [1280, 800], report
    assert session.input is not None
    session.input.perform(Hotkey(("f",)), timeout_s=5)
    assert _until(lambda: passes(spec, probe, apps="vlc")), vlc(spec, probe)
    session.input.perform(Hotkey(("f",)), timeout_s=5)
    assert _until(lambda: not passes(spec, probe, apps="vlc"))

    token = ":" + VLC_HTTP_PASSWORD
    request = urllib.request.Request(f"http://127.0.0.1:{probe.ports['vlc']}/requests/status.xml?command=pl_stop",
                                     headers={"Authorization": "Basic " + __import__("base64").b64encode(token.encode()).decode()})
    urllib.request.urlopen(request, timeout=10).read()
    assert _until(lambda: vlc({"vlc_playing": {"file_name": "clip.mp4"}}, probe)["observed"]["state"] == "stopped")

    rc = session.home / ".config/vlc/vlcrc"
    assert rc.read_text().count("\n") < 10  # the first-start answers only
    session.input.perform(Hotkey(("ctrl", "p")), timeout_s=5)
    assert _until(lambda: _focused_title(probe) == "Simple Preferences"), _focused_title(probe)
    session.input.perform(Hotkey(("alt", "s")), timeout_s=5)
    assert _until(lambda: rc.read_text(encoding="utf-8").count("\n") > 1000)  # VLC wrote every option
    saved = rc.read_text(encoding="utf-8")
    assert vlcrc_value(saved, "qt-privacy-ask") == "0" and vlcrc_value(saved, "qt-max-volume") == "125"
    assert vlcrc_value(saved, "extraintf", commented=False) is None  # command-line options stay off it
    leaked = [p for p in session.home.rglob("*") if p.is_file() and HTTP_PASSWORD.encode() in p.read_bytes()]
    assert not leaked, leaked
    assert passes(setting("qt-max-volume", {"method": "eq", "ref": "125"}, default="125"), probe, apps="vlc")
