#!/usr/bin/env python
"""Benchmark replay and the human simulator on MiniWoB++, all figures from one run.

1. **Recordings**: the scripted oracle solves each MiniWoB++ task file for ``--seeds``
   seeds through the runner (one browser per task); its successful episodes are the
   recordings.
2. **Replays** (fast mode, re-anchoring on, one browser kept across episodes, each replay
   written in the trajectory format and judged by the evaluator): replays per minute, and
   the share of successful recordings that replay to success.
3. **Pace**: the fast replay's wall time per episode against the recording's own duration
   (``stats.duration_s``), and against timed-mode replays (the recording's pace, the
   baseline) of ``--timed`` of the same episodes, measured in this run.
4. **Blind vs anchored** on a moved layout: click-button recordings replayed on a page that
   is wider, shifted and scrolled (the ``SHIFTED`` setup below), with and without
   re-anchoring: share that succeed.
5. **Human simulator**: every variant kind of ``--variant-sources`` recordings, each
   executed, judged and labelled by executing prefixes (the feasibility runs included):
   variants per minute and executions per variant.
6. **Human-paced recordings** (``--human-tasks``, ``--human-seeds``): the real recorder (``gui-agent record
   --browser miniwob:TASK --seed S`` on its own Xvfb) records xdotool playing a person who
   does what the oracle would, at a person's pace (1-2 s to read the task, 0.5-1.5 s
   between actions, ~6.7 characters a second; ``tests/replay/human_player.py``). Each
   successful recording is replayed fast (task by task in one environment slot) and, as
   the baseline, in timed mode (the recording's own pace): wall time per replay (reset,
   every step, writing and judging included) against the recorded duration (the task
   shown to the last action), all replays and only those that found their task's
   environment open; and the share that replay to success.

7. **Desktop human simulator** (``--desktop-kinds``): a desktop-oracle episode of
   LibreOffice Calc sort-descending (real Xvfb and Calc) replayed, then varied: each variant
   executed (a fresh Calc on a fresh copy of the file), judged on the saved file and
   labelled; variants per minute, executions per variant.

Usage:
    python scripts/bench_replay.py [--seeds 3] [--tasks click-test,...] [--variant-sources 12] [--human-seeds 2]
                                   [--sections oracle,human] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SHIFTED = (
    "if (!document.getElementById('spacer')) document.body.insertAdjacentHTML('afterbegin', "
    "'<div id=\"spacer\" style=\"height:600px\"></div>'); "
    "document.getElementById('wrap').style.marginLeft = '57px'; window.scrollTo(0, 560);"
)


def _record(task_files: list[Path], seeds: int, out: Path) -> list[Path]:
    from gui_agent.envs.factory import make_env
    from gui_agent.registry import load_policy
    from gui_agent.runner import run_episode
    from gui_agent.task import load_task

    policy = load_policy("oracle")
    episodes: list[Path] = []
    for file in task_files:
        task = load_task(file)
        with make_env(task) as env:
            for seed in range(seeds):
                result = run_episode(task, policy, out_dir=out, seed=seed, env=env)
                if result.success:
                    episodes.append(result.episode_path)
    return episodes


def _replay_all(sources, out: Path, *, mode: str = "fast", anchoring: bool = True) -> tuple[list, float]:
    from gui_agent.runner import EnvSlot
    from gui_agent.replay.replayer import replay_episode

    slot = EnvSlot()
    results = []
    started = time.perf_counter()
    try:
        for source in sources:
            result = replay_episode(source, out_dir=out, mode=mode, anchoring=anchoring, env=slot.get(source.task))
            if result.run.env_failed:
                slot.discard()
            results.append(result)
    finally:
        slot.close()
    return results, time.perf_counter() - started


#: Tasks the human player does (clicks, typing, an autocomplete that appears after a delay,
#: a list choice); each recorded with seeds 0..--human-seeds-1.
HUMAN_TASKS = ("enter-text", "click-checkboxes", "use-autocomplete", "choose-list")


def _human_section(tasks: list[str], seeds: int, work: Path) -> dict[str, object]:
    """Record each task x seed at a person's pace, replay them fast and timed; figures.

    Replays run task by task in one environment slot: the first replay of a task pays for
    building its environment (a browser start, as the task's limits differ), the others
    find it open ("warm"). Both are reported.
    """
    from gui_agent.episode import read_meta
    from gui_agent.runner import EnvSlot
    from gui_agent.task import load_task
    from gui_agent.replay.replayer import replay_episode
    from gui_agent.replay.source import load_source
    from tests.replay.human_player import (
        MINIWOB_TASKS,
        oracle_actions,
        record_human,
        recorded_duration_s,
    )

    jobs = [(task, seed) for task in tasks for seed in range(seeds)]
    plan_slot = EnvSlot()  # what the person will do: the oracle's actions, planned in one headless browser
    try:
        plans = [oracle_actions(task, seed, env=plan_slot.get(load_task(MINIWOB_TASKS / f"{task}.yaml")))
                 for task, seed in jobs]
    finally:
        plan_slot.close()
    made, started = [], time.perf_counter()
    for i, ((task, seed), plan) in enumerate(zip(jobs, plans)):
        path = record_human(task, seed, work / "human", actions=plan, rng_seed=i)
        print(f"  recorded {task} seed {seed}: {recorded_duration_s(path):.2f} s, success={read_meta(path).outcome.success}",
              flush=True)
        made.append(path)
    record_wall = time.perf_counter() - started
    sources = [load_source(p) for p in made if read_meta(p).outcome.success]
    durations = [recorded_duration_s(s.episode.path) for s in sources]
    figures: dict[str, object] = {"human_recordings": len(made), "human_successful": len(sources),
                                  "human_record_wall_s": round(record_wall, 1),
                                  "human_recorded_total_s": round(sum(durations), 2),
                                  "human_recorded_median_s": round(sorted(durations)[len(durations) // 2], 2) if durations else None}
    for mode in ("fast", "timed"):
        slot, walls, warm, results, previous = EnvSlot(), [], [], [], None
        try:
            for source in sources:
                t0 = time.perf_counter()
                result = replay_episode(source, out_dir=work / f"human-{mode}", mode=mode, env=slot.get(source.task))
                walls.append(time.perf_counter() - t0)
                warm.append(previous == source.task.id)
                previous = None if result.run.env_failed else source.task.id
                if result.run.env_failed:
                    slot.discard()
                results.append(result)
        finally:
            slot.close()
        warm_walls = sorted(w for w, is_warm in zip(walls, warm) if is_warm)
        warm_recorded = sum(d for d, is_warm in zip(durations, warm) if is_warm)
        figures.update({
            f"human_{mode}_succeeded": sum(r.success for r in results),
            f"human_{mode}_total_s": round(sum(walls), 2),
            f"human_{mode}_warm_replays": len(warm_walls),
            f"human_{mode}_warm_total_s": round(sum(warm_walls), 2),
            f"human_{mode}_warm_median_s": round(warm_walls[len(warm_walls) // 2], 3) if warm_walls else None,
            f"human_{mode}_warm_recorded_s": round(warm_recorded, 2),
            f"human_{mode}_failures": [f"{r.run.task_id}: {r.refused or r.run.reason}" for r in results if not r.success],
            f"human_{mode}_settle_waits": sum(1 for r in results for st in r.steps if st.waited_s),
        })
    figures["human_speed_vs_recorded"] = round(sum(durations) / max(1e-9, figures["human_fast_total_s"]), 2)
    figures["human_speed_vs_recorded_warm"] = round(
        figures["human_fast_warm_recorded_s"] / max(1e-9, figures["human_fast_warm_total_s"]), 2)
    figures["human_speed_vs_timed"] = round(figures["human_timed_total_s"] / max(1e-9, figures["human_fast_total_s"]), 2)
    return figures


DESKTOP_TASK = "datasets/tasks/desktop/calc/sort-descending.yaml"


def _desktop_section(kinds: list[str], work: Path) -> dict[str, object]:
    """One Calc episode: its replay, then ``kinds`` variants executed, judged and labelled."""
    from gui_agent.envs.factory import make_env
    from gui_agent.registry import load_policy
    from gui_agent.runner import run_episode
    from gui_agent.task import load_task
    from gui_agent.replay.replayer import replay_episode
    from gui_agent.replay.simulator import Simulator
    from gui_agent.replay.source import load_source

    task = load_task(REPO / DESKTOP_TASK)
    recorded = run_episode(task, load_policy("desktop-oracle"), out_dir=work / "desktop-recorded")
    if not recorded.success:
        return {"desktop_error": f"the desktop oracle failed: {recorded.reason}"}
    source = load_source(recorded.episode_path)
    with make_env(task) as env:
        t0 = time.perf_counter()
        replay = replay_episode(source, out_dir=work / "desktop-replay", env=env)
        replay_s = time.perf_counter() - t0
        simulator = Simulator(source, env=env, seed=0)
        t0 = time.perf_counter()
        outcomes = {kind: (None if v is None else (v.run.success, [x.label for x in v.verdicts]))
                    for kind, v in simulator.variants(work / "desktop-variants", kinds)}
        sim_s = time.perf_counter() - t0
    done = [o for o in outcomes.values() if o is not None]
    return {"desktop_task": task.id, "desktop_steps": len(source.actions), "desktop_replay_success": replay.success,
            "desktop_replay_s": round(replay_s, 2), "desktop_variants": len(done),
            "desktop_variants_succeeded": sum(o[0] for o in done), "desktop_simulator_s": round(sim_s, 2),
            "desktop_variants_per_minute": round(60 * len(done) / max(1e-9, sim_s), 2),
            "desktop_executions_per_variant": round((len(done) + simulator.feasible.executed) / max(1, len(done)), 2),
            "desktop_outcomes": outcomes}


def _written_s(result) -> float:  # type: ignore[no-untyped-def]
    from gui_agent.episode import read_meta

    return read_meta(result.episode_path).stats.duration_s


def _oracle_section(files: list[Path], args: argparse.Namespace, suite: Path, work: Path) -> dict[str, object]:
    """Sections 1-5: oracle recordings, their replays (fast, timed, on a moved layout), the simulator."""
    from gui_agent.replay.source import load_source

    figures: dict[str, object] = {}
    t0 = time.perf_counter()
    recordings = _record(files, args.seeds, work / "recorded")
    figures["record_s"] = round(time.perf_counter() - t0, 1)
    sources = [load_source(p) for p in recordings]
    figures["recordings"] = len(sources)
    figures["recording_attempts"] = len(files) * args.seeds

    results, wall = _replay_all(sources, work / "replayed")
    ok = [r for r in results if r.success]
    failed = Counter(r.run.task_id for r in results if not r.success)
    figures.update(
        replays=len(results), replays_succeeded=len(ok), replay_success_share=round(len(ok) / len(results), 4),
        replay_failures_by_task=dict(failed), replay_wall_s=round(wall, 2),
        replays_per_minute=round(60 * len(results) / wall, 1),
        reanchored_replays=sum(1 for r in results if r.reanchored_steps),
        diverged_replays=sum(1 for r in results if r.first_divergent_step is not None),
    )
    # like for like: both are the episode writer's own duration (first step to the end, reset excluded)
    recorded_s = sum(s.episode.meta.stats.duration_s for s in sources)
    replay_s = sum(_written_s(r) for r in results)
    figures.update(recorded_total_s=round(recorded_s, 2), replay_total_s=round(replay_s, 2),
                   speed_vs_recorded=round(recorded_s / replay_s, 2))

    timed_sources = sources[: args.timed]
    timed_results, _ = _replay_all(timed_sources, work / "timed", mode="timed")
    fast_same = [r for r in results[: args.timed]]
    figures.update(
        timed_replays=len(timed_results), timed_total_s=round(sum(_written_s(r) for r in timed_results), 2),
        fast_total_s_same_episodes=round(sum(_written_s(r) for r in fast_same), 2),
        timed_succeeded=sum(1 for r in timed_results if r.success),
    )
    figures["speed_vs_timed"] = round(figures["timed_total_s"] / max(1e-9, figures["fast_total_s_same_episodes"]), 2)
    figures.update(_moved_layout([s for s in sources if s.task.id == "miniwob/click-button"], suite, work))
    figures.update(_simulator_section([s for s in sources if s.succeeded][: args.variant_sources], work))
    return figures


def _moved_layout(click_button: list, suite: Path, work: Path) -> dict[str, object]:  # type: ignore[type-arg]
    """Section 4: click-button recordings replayed on the ``SHIFTED`` page, anchored and blind."""
    from gui_agent.task import load_task

    if not click_button:
        return {}
    base = (suite / "click-button.yaml").read_text()
    text = base.replace("viewport: {width: 160, height: 210}", "viewport: {width: 320, height: 300}")
    text = text.replace("evaluator:", f"setup:\n  - run_js: {{script: {json.dumps(SHIFTED)}}}\nevaluator:", 1)
    shifted_file = work / "shifted.yaml"
    shifted_file.write_text(text)
    shifted = load_task(shifted_file)
    moved = [type(s)(episode=s.episode, task=shifted, seed=s.seed) for s in click_button]
    anchored, _ = _replay_all(moved, work / "moved-anchored")
    blind, _ = _replay_all(moved, work / "moved-blind", anchoring=False)
    return {"moved_layout_replays": len(moved), "moved_anchored_succeeded": sum(r.success for r in anchored),
            "moved_blind_succeeded": sum(r.success for r in blind)}


def _simulator_section(chosen: list, work: Path) -> dict[str, object]:  # type: ignore[type-arg]
    """Section 5: every variant kind of the ``chosen`` recordings, executed, judged and labelled."""
    from gui_agent.runner import EnvSlot
    from gui_agent.replay.perturb import VARIANT_KINDS
    from gui_agent.replay.simulator import Simulator

    slot = EnvSlot()
    variants = succeeded = executions = 0
    labels: Counter[str] = Counter()
    started = time.perf_counter()
    try:
        for source in chosen:
            donors = [a for other in chosen if other.task.id != source.task.id for a in other.actions[:1]][:5]
            simulator = Simulator(source, env=slot.get(source.task), seed=0, donors=donors)
            for _, simulated in simulator.variants(work / "variants", VARIANT_KINDS):
                if simulated is None:
                    continue
                variants += 1
                succeeded += int(simulated.run.success)
                labels.update(v.label for v in simulated.verdicts)
            executions += simulator.feasible.executed
    finally:
        slot.close()
    sim_wall = time.perf_counter() - started
    return {"variant_sources": len(chosen), "variants": variants, "variants_succeeded": succeeded,
            "feasibility_executions": executions, "simulator_wall_s": round(sim_wall, 2),
            "variants_per_minute": round(60 * variants / sim_wall, 1),
            "executions_per_variant": round((variants + executions) / max(1, variants), 2),
            "step_labels": dict(labels)}


def _print_oracle(figures: dict, files: list[Path], args: argparse.Namespace) -> None:  # type: ignore[type-arg]
    print(f"recordings: {figures['recordings']} successful oracle episodes of {figures['recording_attempts']} "
          f"({len(files)} tasks x {args.seeds} seeds)")
    print(f"replays: {figures['replays_succeeded']}/{figures['replays']} succeeded "
          f"({100 * figures['replay_success_share']:.1f} %), failures by task: {figures['replay_failures_by_task'] or 'none'}; "
          f"{figures['diverged_replays']} with a divergent step, {figures['reanchored_replays']} re-anchored")
    print(f"replays per minute (fast, one browser, every replay written and judged): {figures['replays_per_minute']}")
    print(f"pace: replays took {figures['replay_total_s']} s for recordings of {figures['recorded_total_s']} s "
          f"(x{figures['speed_vs_recorded']}); timed mode (the recorded pace, baseline) {figures['timed_total_s']} s vs "
          f"fast {figures['fast_total_s_same_episodes']} s on the same {figures['timed_replays']} episodes "
          f"(x{figures['speed_vs_timed']})")
    if "moved_layout_replays" in figures:
        print(f"moved layout (click-button, wider/shifted/scrolled page): anchored {figures['moved_anchored_succeeded']}"
              f"/{figures['moved_layout_replays']} succeed, blind {figures['moved_blind_succeeded']}/{figures['moved_layout_replays']}")
    print(f"human simulator: {figures['variants']} variants of {figures['variant_sources']} recordings "
          f"({figures['variants_succeeded']} succeeded) in {figures['simulator_wall_s']} s = "
          f"{figures['variants_per_minute']} variants/min, {figures['executions_per_variant']} executions per variant "
          f"(labelling included); step labels {figures['step_labels']}")


def _print_human(figures: dict) -> None:  # type: ignore[type-arg]
    print(f"human-paced recordings (real recorder, xdotool as the person): {figures['human_successful']} successful of "
          f"{figures['human_recordings']}, {figures['human_recorded_total_s']} s recorded (task shown to last action; "
          f"median {figures['human_recorded_median_s']} s)")
    print(f"  fast replays: {figures['human_fast_succeeded']}/{figures['human_successful']} succeeded; all: "
          f"{figures['human_fast_total_s']} s (environment starts included) -> x{figures['human_speed_vs_recorded']} "
          f"the recorded pace; with the task's environment open ({figures['human_fast_warm_replays']} replays): "
          f"{figures['human_fast_warm_total_s']} s for {figures['human_fast_warm_recorded_s']} s recorded (median "
          f"{figures['human_fast_warm_median_s']} s) -> x{figures['human_speed_vs_recorded_warm']}; "
          f"{figures['human_fast_settle_waits']} settle waits")
    print(f"  timed replays (the recorded pace, baseline): {figures['human_timed_succeeded']}/{figures['human_successful']} "
          f"succeeded in {figures['human_timed_total_s']} s -> fast is x{figures['human_speed_vs_timed']}")
    for mode in ("fast", "timed"):
        if figures[f"human_{mode}_failures"]:
            print(f"  {mode} failures: {figures[f'human_{mode}_failures']}")


def _print_desktop(figures: dict) -> None:  # type: ignore[type-arg]
    if "desktop_error" in figures:
        print(f"desktop: {figures['desktop_error']}")
        return
    print(f"desktop ({figures['desktop_task']}, {figures['desktop_steps']} steps, real Xvfb + LibreOffice Calc): "
          f"replay success={figures['desktop_replay_success']} in {figures['desktop_replay_s']} s; "
          f"{figures['desktop_variants']} variants ({figures['desktop_variants_succeeded']} succeeded) in "
          f"{figures['desktop_simulator_s']} s = {figures['desktop_variants_per_minute']} variants/min, "
          f"{figures['desktop_executions_per_variant']} executions per variant; {figures['desktop_outcomes']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3, help="oracle recordings per task (seeds 0..N-1)")
    parser.add_argument("--tasks", help="comma-separated MiniWoB++ task names (default: all task files)")
    parser.add_argument("--timed", type=int, default=10, help="episodes also replayed in timed mode")
    parser.add_argument("--variant-sources", type=int, default=12, help="recordings the simulator varies")
    parser.add_argument("--human-tasks", default=",".join(HUMAN_TASKS), help="MiniWoB++ tasks the person records (section human)")
    parser.add_argument("--human-seeds", type=int, default=2, help="recordings per human task (seeds 0..N-1)")
    parser.add_argument("--desktop-kinds", default="click_offset_small,click_offset_large,skip_step",
                        help="variant kinds of the Calc episode (section desktop)")
    parser.add_argument("--sections", default="oracle,human,desktop",
                        help="comma-separated: oracle (1-5), human (6), desktop (7)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--keep", action="store_true", help="keep the recordings and replays (the folder is printed)")
    args = parser.parse_args()
    sections = set(args.sections.split(","))
    known = {"oracle", "human", "desktop"}
    if not sections <= known:
        parser.error(f"unknown section(s) {sorted(sections - known)}; expected oracle, human, desktop")

    suite = REPO / "datasets" / "tasks" / "miniwob"
    files = sorted(suite.glob("*.yaml"))
    if args.tasks:
        wanted = set(args.tasks.split(","))
        files = [f for f in files if f.stem in wanted]
    work = Path(tempfile.mkdtemp(prefix="bench-replay-"))
    figures: dict[str, object] = {"load_before": os.getloadavg()}
    try:
        if "oracle" in sections:
            figures.update(_oracle_section(files, args, suite, work))
        if "human" in sections:
            figures.update(_human_section(args.human_tasks.split(","), args.human_seeds, work))
        if "desktop" in sections:
            figures.update(_desktop_section(args.desktop_kinds.split(","), work))
        figures["load_after"] = os.getloadavg()
    finally:
        if args.keep:
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)

    print("command: python scripts/bench_replay.py " + " ".join(sys.argv[1:]))
    print(f"load average before / after: {figures['load_before']} / {figures.get('load_after')}")
    if "oracle" in sections:
        _print_oracle(figures, files, args)
    if "human" in sections:
        _print_human(figures)
    if "desktop" in sections:
        _print_desktop(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
