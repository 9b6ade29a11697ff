"""Benchmark: grounding rows per minute, ``gui-agent export --format grounding`` on a folder of episodes.

The episodes are built from one real desktop: LibreOffice Calc at 1280x800 on its own
Xvfb and accessibility bus. Its screenshot and its accessibility tree (read by the
desktop's reader, ~600 visible cells plus toolbars and menus) are each step's keyframe and
kept tree (``info.a11y_tree``), and each step clicks a real element of that tree with the
element as its target, as the recorder writes them. So every row is built from real data:
the measure is the export (tree parsing, box clipping, Parquet shards with embedded images).

    python scripts/bench_grounding.py                       # 20 episodes x 10 steps
    python scripts/bench_grounding.py --episodes 5 --steps 5  # a quick look
    python scripts/bench_grounding.py --elements 0            # every element of every keyframe
    python scripts/bench_grounding.py --data runs/recordings  # your own episodes instead
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import tempfile
import time
from pathlib import Path


def _calc_sample() -> tuple[object, str]:
    """A real Calc screenshot and its tree (OSWorld XML)."""
    from gui_agent.actions import Wait
    from gui_agent.envs.desktop.env import DesktopEnv
    from gui_agent.envs.desktop.steps import LaunchArgs, LaunchStep

    env = DesktopEnv(screen=(1280, 800), apps=("calc",), observe_a11y_tree=True, step_timeout_s=30)
    try:
        env.reset(options={"setup": [LaunchStep(launch=LaunchArgs(app="calc"))]})
        obs, *_ = env.step(Wait(1.0))
        assert obs.a11y_tree is not None, "the desktop gave no tree"
        return obs.screenshot, obs.a11y_tree
    finally:
        env.close()


def _write_episodes(root: Path, episodes: int, steps: int) -> int:
    from gui_agent.actions import Click
    from gui_agent.envs.desktop.accessibility.linearize import rows
    from gui_agent.episode import ActorInfo, EnvInfo, EpisodeWriter, Outcome, ScreenSize, TaskInfo

    screenshot, tree = _calc_sample()
    elements = [r for r in rows(tree) if r.name]
    packed = gzip.compress(tree.encode("utf-8"), compresslevel=5)
    for e in range(episodes):
        writer = EpisodeWriter.create(
            root, task=TaskInfo(id=f"bench/calc-{e % 5}", instruction="Fill the sheet"),
            env=EnvInfo(kind="desktop", app="calc", screen=ScreenSize(width=1280, height=800)),
            actor=ActorInfo(type="human", name="bench"), episode_id=f"grounding-{e:04d}",
        )
        for s in range(steps):
            element = elements[(e * steps + s) * 7 % len(elements)]
            x, y = element.center
            rel = f"a11y/{s:06d}.xml.gz"
            (writer.path / "a11y").mkdir(exist_ok=True)
            (writer.path / rel).write_bytes(packed)
            target = {"source": "a11y", "role": element.tag.replace("-", " "), "name": element.name, "states": [],
                      "bbox_screen": [element.x, element.y, element.width, element.height], "app": "soffice", "window": "Calc"}
            writer.add_step(Click(x, y), frame_before=screenshot, target=target, info={"a11y_tree": rel})  # type: ignore[arg-type]
        writer.finalize(Outcome(success=True, termination="done"))
    return len(elements)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--elements", type=int, default=20, help="element rows per keyframe (--grounding-elements; 0: all)")
    parser.add_argument("--data", type=Path, help="export these episodes instead of the generated ones")
    args = parser.parse_args()
    from gui_agent.export import ExportOptions, export_dataset

    work = Path(tempfile.mkdtemp(prefix="bench-grounding-"))
    try:
        data = args.data
        if data is None:
            data = work / "episodes"
            started = time.perf_counter()
            per_tree = _write_episodes(data, args.episodes, args.steps)
            print(f"generated {args.episodes} x {args.steps} steps from a real Calc tree ({per_tree} named elements) "
                  f"in {time.perf_counter() - started:.0f} s")
        started = time.perf_counter()
        report = export_dataset([data], work / "out", ExportOptions(formats=("grounding",), grounding_elements=args.elements))
        elapsed = time.perf_counter() - started
        n_rows = sum(r.num_rows for per in report.results.values() for r in per.values())
        print(f"grounding export: {report.episodes} episodes, {report.steps} steps -> {n_rows} rows in {elapsed:.1f} s: "
              f"{n_rows / elapsed * 60:,.0f} rows per minute ({dict(report.summary.grounding_rows)}), "
              f"{report.bytes_written / 1e6:.0f} MB written")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
