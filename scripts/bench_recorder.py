"""Benchmark the recorder over a scripted session at 1920x1080 (real Xvfb, Chromium, xdotool).

Measures the recorder process only (/proc): CPU as % of one core, peak and final RSS and
RSS growth (second half vs first half of the session), disk per minute of the episode, event
loss (events xdotool sent vs lines in events.jsonl) and keyframe staleness (action time
minus its keyframe's grab time, from steps.jsonl). Then it re-encodes the session's own
keyframes with every lossless option (PNG levels, WebP lossless efforts) and prints, per
option, the size per keyframe, the encode CPU per keyframe and the disk per minute this
session would have used with it: the baseline (PNG level 1, the old default) in the same run.

    python scripts/bench_recorder.py                      # the 2-minute session of the issue
    python scripts/bench_recorder.py --seconds 30         # shorter
    python scripts/bench_recorder.py --frame-format png   # the recorder writing PNG keyframes
    python scripts/bench_recorder.py --video-fps 2        # with the continuous video
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PAGE = """<!DOCTYPE html><html><head><title>bench</title><style>
body{margin:0;font:18px sans-serif;background:#fafafa}
#cells{display:grid;grid-template-columns:repeat(12,140px);gap:2px;padding:20px}
.c{height:40px;background:#fff;border:1px solid #ccc}
#inp{position:fixed;left:20px;bottom:40px;width:600px;height:36px;font-size:18px}
</style></head><body><div id="cells"></div><input id="inp">
<script>
const cells = document.getElementById('cells');
for (let i = 0; i < 12 * 60; i++) { const d = document.createElement('div'); d.className = 'c'; d.textContent = i;
  d.onmousedown = () => { d.style.background = '#' + ((Math.random() * 0xffffff) | 0).toString(16).padStart(6, '0'); };
  cells.appendChild(d); }
</script></body></html>"""


def proc_sample(pid: int) -> tuple[float, int]:
    """(cpu seconds, rss bytes) of a process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))
    return cpu, rss


#: Every lossless keyframe encoding considered: Pillow save options.
OPTIONS: dict[str, dict[str, object]] = {
    "png level 1 (old default)": {"format": "PNG", "compress_level": 1},
    "png level 6": {"format": "PNG", "compress_level": 6},
    "png level 9": {"format": "PNG", "compress_level": 9},
    "png optimize": {"format": "PNG", "optimize": True},
    "webp lossless method 0, quality 0": {"format": "WEBP", "lossless": True, "method": 0, "quality": 0},
    "webp lossless method 1, quality 0 (recorder default)": {"format": "WEBP", "lossless": True, "method": 1, "quality": 0},
    "webp lossless method 4, quality 0": {"format": "WEBP", "lossless": True, "method": 4, "quality": 0},
    "webp lossless method 1, quality 100": {"format": "WEBP", "lossless": True, "method": 1, "quality": 100},
    "webp lossless method 4, quality 100": {"format": "WEBP", "lossless": True, "method": 4, "quality": 100},
}


def encode_options(episode: Path, n_steps: int, duration_s: float, episode_bytes: int, n_frames: int) -> dict[str, dict[str, float]]:
    """Re-encode ``n_frames`` of the session's keyframes with each option: KB and CPU ms per
    keyframe (checked lossless), and the disk per minute of this session had its keyframes
    been written so (the other files as they are)."""
    import io

    import numpy as np
    from PIL import Image

    from gui_agent.episode import read_episode

    recorded = read_episode(episode)
    rels = [s.frame_before for s in recorded.steps if s.frame_before]
    rels = rels[:: max(1, len(rels) // n_frames)][:n_frames]  # spread over the session (the page fills up)
    pixels = [recorded.load_frame(rel) for rel in rels]
    frame_files = [p for p in (episode / "frames").iterdir() if p.is_file()]
    other_bytes = episode_bytes - sum(p.stat().st_size for p in frame_files)
    out: dict[str, dict[str, float]] = {}
    for name, options in OPTIONS.items():
        sizes, cpu = [], []
        for array in pixels:
            image = Image.fromarray(array)
            buf = io.BytesIO()
            started = time.process_time()
            image.save(buf, **options)  # type: ignore[arg-type]
            cpu.append(time.process_time() - started)
            sizes.append(buf.tell())
            assert np.array_equal(np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB")), array), name
        kb = sum(sizes) / len(sizes) / 1024
        mb_per_min = (other_bytes + len(frame_files) * kb * 1024) / 2**20 / (duration_s / 60)
        out[name] = {"kb_per_keyframe": round(kb, 1), "encode_cpu_ms_median": round(1000 * sorted(cpu)[len(cpu) // 2], 1),
                     "session_mb_per_min": round(mb_per_min, 2)}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=120.0, help="length of the scripted session (default: 120)")
    parser.add_argument("--fps", type=float, default=40.0, help="recorder keyframe grab rate (default: 40)")
    parser.add_argument("--video-fps", type=float, default=0.0, help="also record screen.mp4 at this rate (default: 0, none)")
    parser.add_argument("--frame-format", choices=("webp", "png"), default="webp", help="keyframe files (default: webp, the recorder's)")
    parser.add_argument("--options-frames", type=int, default=12, help="keyframes re-encoded per option (default: 12)")
    args = parser.parse_args()

    from gui_agent.envs.browser.chromium import ChromiumProcess
    from gui_agent.episode import read_meta
    from gui_agent.episode.labels import SCREEN_GRABS

    load_before = os.getloadavg()
    tmp = Path(tempfile.mkdtemp(prefix="bench_recorder_"))
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    display = ":" + os.fdopen(read_fd).readline().strip()
    env = {**os.environ, "DISPLAY": display}
    chromium = ChromiumProcess(headless=False, display=display, window_size=(1920, 1080),
                               extra_args=("--window-position=0,0",))
    (tmp / "page.html").write_text(PAGE)
    rec = None
    sent = {"button": 0, "scroll": 0, "key": 0}
    try:
        chromium.start()
        from playwright.sync_api import sync_playwright

        pw = sync_playwright().start()
        page = pw.chromium.connect_over_cdp(chromium.cdp_url).new_context(no_viewport=True).new_page()
        page.goto((tmp / "page.html").as_uri())
        rec = subprocess.Popen([sys.executable, "-m", "gui_agent", "record", "--task", "bench", "--out", str(tmp / "rec"),
                                "--display", display, "--fps", str(args.fps), "--video-fps", str(args.video_fps),
                                "--frame-format", args.frame_format,
                                "--success", "--notes", ""],
                               cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        first = rec.stdout.readline()
        if not first.startswith("recording to"):
            raise SystemExit("recorder did not start: " + first + rec.stdout.read())
        episode = Path(first.split()[2])
        samples: list[tuple[float, float, int]] = []
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                try:
                    cpu, rss = proc_sample(rec.pid)
                except (OSError, StopIteration):
                    return
                samples.append((time.monotonic(), cpu, rss))
                stop.wait(1.0)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        n_actions, duration = _play(args.seconds, env, sent)
        time.sleep(3.0)  # let the last actions reduce (typing idle timeout)
        stop.set()
        sampler.join()
        rec.send_signal(signal.SIGTERM)
        rec.wait(60)
        pw.stop()
    finally:
        if rec is not None and rec.poll() is None:
            rec.kill()
            rec.wait(10)
        chromium.stop()
        xvfb.terminate()
        xvfb.wait(10)

    result = _figures(episode, samples, duration, n_actions, sent)
    result["load_average_1_5_15_before_after"] = [[round(v, 2) for v in load_before], [round(v, 2) for v in os.getloadavg()]]
    result["frame_format"] = args.frame_format
    # Staleness is bounded by the grab gap its action fell into: the recorder counts them.
    result["screen_grabs"] = SCREEN_GRABS.get(read_meta(episode).labels)
    result["keyframe_options"] = encode_options(episode, len(_steps_of(episode)), duration, _size(episode), args.options_frames)
    print(json.dumps(result, indent=1))
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


def _play(seconds: float, env: dict[str, str], sent: dict[str, int]) -> tuple[int, float]:
    """The scripted person: random clicks, typing, scrolls and shortcuts through xdotool for
    ``seconds``; counts the input events sent in ``sent``. Returns (actions, seconds taken)."""
    rng = random.Random(0)
    words = ["total", "sum", "invoice", "march", "revenue", "q1", "report", "draft"]

    def x(*a: str) -> None:
        subprocess.run(["xdotool", *a], env=env, check=True)

    start = time.monotonic()
    n_actions = 0
    while time.monotonic() - start < seconds:
        choice = rng.random()
        if choice < 0.45:
            x("mousemove", str(rng.randrange(40, 1700)), str(rng.randrange(40, 900)), "click", "1")
            sent["button"] += 2
        elif choice < 0.7:
            x("mousemove", "300", "1020", "click", "1")
            word = rng.choice(words)
            x("type", "--delay", "60", word + " ")
            sent["button"] += 2
            sent["key"] += 2 * (len(word) + 1)
        elif choice < 0.85:
            n = rng.randrange(1, 5)
            x("mousemove", "900", "500", "click", "--repeat", str(n), "--delay", "40", rng.choice(["4", "5"]))
            sent["scroll"] += n
        else:
            x("key", "ctrl+a")
            sent["key"] += 4
        n_actions += 1
        time.sleep(rng.uniform(0.8, 1.6))
    return n_actions, time.monotonic() - start


def _steps_of(episode: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in (episode / "steps.jsonl").read_text().splitlines()]


def _size(episode: Path) -> int:
    return sum(p.stat().st_size for p in episode.rglob("*") if p.is_file())


def _figures(episode: Path, samples: list[tuple[float, float, int]], duration: float, n_actions: int,
             sent: dict[str, int]) -> dict[str, object]:
    """The recorder's figures: CPU and memory from ``samples``, disk, event loss, keyframe staleness."""
    events = [json.loads(line) for line in (episode / "events.jsonl").read_text().splitlines()]
    got = {"button": sum(e["kind"] in ("down", "up") for e in events), "scroll": sum(e["kind"] == "scroll" for e in events),
           "key": sum(e["kind"] in ("key_down", "key_up") for e in events)}
    steps = _steps_of(episode)
    stale = sorted(s["timings"]["keyframe_staleness_s"] for s in steps if "keyframe_staleness_s" in s.get("timings", {}))
    size = _size(episode)
    t0, c0, _ = samples[0]
    t1, c1, _ = samples[-1]
    rss = [r for _, _, r in samples]
    half = len(rss) // 2
    result = {
        "seconds": round(duration, 1), "actions_played": n_actions, "steps_recorded": len(steps),
        "cpu_pct_of_one_core": round(100 * (c1 - c0) / (t1 - t0), 1),
        "rss_peak_mb": round(max(rss) / 2**20, 1), "rss_final_mb": round(rss[-1] / 2**20, 1),
        "rss_first_half_max_mb": round(max(rss[:half]) / 2**20, 1), "rss_second_half_max_mb": round(max(rss[half:]) / 2**20, 1),
        "disk_mb_per_min": round(size / 2**20 / (duration / 60), 2),
        "video_mb_per_min": round((episode / "screen.mp4").stat().st_size / 2**20 / (duration / 60), 2)
        if (episode / "screen.mp4").exists() else None,
        "events_sent": sent, "events_recorded": got, "events_lost": sum(sent.values()) - sum(got.values()),
        "staleness_ms_median_p95_max": [round(1000 * stale[len(stale) // 2], 1), round(1000 * stale[int(len(stale) * 0.95)], 1),
                                        round(1000 * stale[-1], 1)],
    }
    return result


if __name__ == "__main__":
    sys.exit(main())
