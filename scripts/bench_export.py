"""Benchmark: exporting 5,000 steps of 1920x1080 keyframes as a hub dataset.

Measures ``gui_agent.export.export_dataset`` (streaming, Parquet shards written row group by
row group) against a naive all-in-memory export with the same rows and features
(``datasets.Dataset.from_dict(...).to_parquet(...)``), in the same run, each in a fresh
process so peak memory (max RSS) is its own. Our export is also run on a fifth of the
steps to show that its peak memory does not grow with the dataset.

The episodes are synthetic but realistic: a rendered desktop (wallpaper, task bar, windows
with title bars and lines of text) where each step moves the pointer and types a little,
written with the real EpisodeWriter (PNG keyframes, compress level 1, ~0.2 MB each).

    python scripts/bench_export.py                 # 5,000 steps (about 5 minutes on 2 cores)
    python scripts/bench_export.py --steps 500     # a quick look
    python scripts/bench_export.py --data /tmp/bench-episodes --keep   # reuse generated episodes
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

WIDTH, HEIGHT = 1920, 1080


def _desktop(seed: int):  # type: ignore[no-untyped-def]
    import numpy as np
    from PIL import Image, ImageDraw, ImageFont

    rng = np.random.default_rng(seed)
    y = np.linspace(0, 1, HEIGHT)[:, None, None]
    tint = rng.integers(20, 60, 3)
    pixels = np.broadcast_to((tint + y * np.array([40, 60, 90])).astype(np.uint8), (HEIGHT, WIDTH, 3)).copy()
    image = Image.fromarray(pixels)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=14)
    draw.rectangle([0, HEIGHT - 40, WIDTH, HEIGHT], fill=(20, 20, 24))
    for i in range(8):
        draw.rectangle([10 + i * 48, HEIGHT - 34, 46 + i * 48, HEIGHT - 6], fill=tuple(int(v) for v in rng.integers(60, 200, 3)))
    windows = []
    for i in range(3):
        w, h = int(rng.integers(500, 1000)), int(rng.integers(300, 650))
        x, y0 = int(rng.integers(0, WIDTH - w)), int(rng.integers(0, HEIGHT - 40 - h))
        draw.rectangle([x, y0, x + w, y0 + h], fill=(245, 245, 245), outline=(120, 120, 120))
        draw.rectangle([x, y0, x + w, y0 + 30], fill=(60, 90, 160))
        draw.text((x + 10, y0 + 8), f"Window {seed}.{i} - report.txt", fill=(255, 255, 255), font=font)
        for line in range(1, (h - 40) // 20):
            draw.text((x + 12, y0 + 30 + line * 20), f"{line:3d}  the quick brown fox jumps over the lazy dog {seed * 97 + line}",
                      fill=(30, 30, 30), font=font)
        windows.append((x, y0, w, h))
    return np.asarray(image), windows


def _write_episode(args: tuple[str, int, int]) -> int:
    import numpy as np
    from PIL import Image, ImageDraw, ImageFont

    from gui_agent.actions import Click, Type
    from gui_agent.episode import (
        ActorInfo,
        EnvInfo,
        EpisodeWriter,
        Outcome,
        ScreenSize,
        TaskInfo,
    )

    root, seed, steps = args
    base, windows = _desktop(seed)
    x, y0, w, h = windows[-1]
    font = ImageFont.load_default(size=14)
    writer = EpisodeWriter.create(
        root, task=TaskInfo(id=f"bench/task-{seed % 10}", instruction="Type the report into the editor"),
        env=EnvInfo(kind="desktop", app="editor", screen=ScreenSize(width=WIDTH, height=HEIGHT)),
        actor=ActorInfo(type="human", name=f"annotator-{seed % 4}"), episode_id=f"bench-{seed:04d}",
    )
    typed = ""
    for step in range(steps):
        image = Image.fromarray(base.copy())
        draw = ImageDraw.Draw(image)
        draw.rectangle([x + 1, y0 + h - 30, x + w - 1, y0 + h - 1], fill=(255, 255, 230))
        draw.text((x + 12, y0 + h - 24), typed[-90:], fill=(0, 0, 0), font=font)
        px, py = x + 20 + (step * 37) % (w - 40), y0 + 40 + (step * 23) % (h - 80)
        draw.polygon([(px, py), (px, py + 18), (px + 5, py + 13), (px + 12, py + 13)], fill=(0, 0, 0), outline=(255, 255, 255))
        action = Type(f"word{step} ") if step % 2 else Click(px, py)
        typed += f"word{step} " if step % 2 else ""
        writer.add_step(action, frame_before=np.asarray(image), thought=f"step {step} of the report")
    writer.add_final_frame(base)
    writer.finalize(Outcome(success=seed % 5 != 0, reward=1.0, termination="done"))
    return steps


def generate(root: Path, steps: int, per_episode: int) -> None:
    marker = root / f".bench-{steps}-{per_episode}"
    if marker.exists():
        print(f"reusing {steps} steps in {root}")
        return
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    jobs = [(str(root), seed, min(per_episode, steps - seed * per_episode)) for seed in range((steps + per_episode - 1) // per_episode)]
    started = time.perf_counter()
    with Pool(os.cpu_count() or 1) as pool:
        done = sum(pool.imap_unordered(_write_episode, jobs))
    size = sum(p.stat().st_size for p in root.rglob("*.png"))
    print(f"generated {done} steps ({len(jobs)} episodes, {size / 1e6:.0f} MB of PNG) in {time.perf_counter() - started:.0f} s")
    marker.touch()


def _measure(kind: str, data: Path, out: Path, limit: int | None) -> dict:
    """Run one export in this (fresh) process; report time, rows, bytes and peak RSS."""
    started = time.perf_counter()
    episodes = sorted(p for p in data.iterdir() if p.is_dir())
    if limit is not None:
        episodes = episodes[:limit]
    if kind == "ours":
        from gui_agent.export import ExportOptions, export_dataset

        report = export_dataset(episodes, out, ExportOptions())
        steps = report.steps
    else:
        from datasets import Dataset

        from gui_agent.episode import read_episode
        from gui_agent.export.features import steps_features
        from gui_agent.export.rows import image_cell, step_row
        from gui_agent.export.scrub import Scrubber

        scrubber = Scrubber()
        rows = []
        for path in episodes:  # everything in memory first, then one from_dict and one write
            episode = read_episode(path)
            instruction = scrubber.text(episode.meta.task.instruction)
            for step in episode.steps:
                image = image_cell((path / step.frame_before).read_bytes(), step.frame_before)
                rows.append(step_row(episode.meta, step, instruction=instruction, image=image, image_after=None, scrubber=scrubber))
        columns = {name: [row[name] for row in rows] for name in rows[0]}
        del rows
        dataset = Dataset.from_dict(columns, features=steps_features())
        del columns
        out.mkdir(parents=True)
        dataset.to_parquet(str(out / "steps.parquet"))
        steps = dataset.num_rows
    seconds = time.perf_counter() - started
    written = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    return {"kind": kind, "steps": steps, "seconds": seconds, "bytes": written, "peak_rss": peak}


def _run_child(kind: str, data: Path, out: Path, limit: int | None) -> dict:
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, __file__, "--_measure", kind, "--data", str(data), "--_out", str(out)]
    if limit is not None:
        command += ["--_limit", str(limit)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"{kind} failed:\n{result.stdout}\n{result.stderr}")
    shutil.rmtree(out, ignore_errors=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--per-episode", type=int, default=100, help="steps per episode (default: 100)")
    parser.add_argument("--data", type=Path, help="where to generate (or reuse) the episodes (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the generated episodes")
    parser.add_argument("--skip-baseline", action="store_true")
    parser.add_argument("--_measure", help=argparse.SUPPRESS)
    parser.add_argument("--_out", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--_limit", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args._measure:
        print(json.dumps(_measure(args._measure, args.data, args._out, args._limit)))
        return

    scratch = Path(tempfile.mkdtemp(prefix="bench-export-"))
    data = args.data or scratch / "episodes"
    try:
        generate(data, args.steps, args.per_episode)
        episodes = (args.steps + args.per_episode - 1) // args.per_episode
        results = [_run_child("ours", data, scratch / "out", None)]
        results.append(_run_child("ours", data, scratch / "out", max(1, episodes // 5)))
        if not args.skip_baseline:
            results.append(_run_child("naive", data, scratch / "out", None))
    finally:
        if args.keep and args.data is None:
            print(f"episodes kept in {data}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)  # generated episodes go too, unless --data named them

    print(f"\nexport of {WIDTH}x{HEIGHT} keyframes, {os.cpu_count()} CPU(s)")
    print(f"{'method':<44}{'steps':>7}{'s':>8}{'steps/s':>10}{'MB/s':>8}{'peak MB':>9}")
    names = {"ours": "gui-agent export (streaming Parquet shards)", "naive": "naive: Dataset.from_dict + to_parquet"}
    for r in results:
        print(f"{names[r['kind']]:<44}{r['steps']:>7}{r['seconds']:>8.1f}{r['steps'] / r['seconds']:>10.0f}"
              f"{r['bytes'] / 1e6 / r['seconds']:>8.1f}{r['peak_rss'] / 2**20:>9.0f}")
    if not args.skip_baseline:
        ours, naive = results[0], results[-1]
        print(f"\nspeed ratio (ours / naive): {naive['seconds'] / ours['seconds']:.2f}x   "
              f"peak memory ratio (naive / ours): {naive['peak_rss'] / ours['peak_rss']:.1f}x")
    small, full = results[1], results[0]
    print(f"ours, peak memory at {small['steps']} steps: {small['peak_rss'] / 2**20:.0f} MB; "
          f"at {full['steps']} steps: {full['peak_rss'] / 2**20:.0f} MB")


if __name__ == "__main__":
    main()
