"""How much of OSWorld imports whole, and how fast an imported task's desktop is up.

    git clone https://github.com/xlang-ai/OSWorld           # OSWorld's own task configs
    python scripts/bench_osworld.py --samples OSWorld/evaluation_examples/examples
    python scripts/bench_osworld.py --samples DIR           # any folder of OSWorld configs (searched below)
    python scripts/bench_osworld.py --reset --repeats 3     # time reset -> first observation

Coverage: every Linux config (not ``*-win.json``) of the Calc, Writer, Impress and
Thunderbird domains is converted; one converts *completely* when nothing of it is left
out (its evaluator is whole). Printed per domain and per OSWorld evaluator function.

Reset: one imported task per app (with locally made inputs, tests/task/osworld_local_inputs.py)
is reset on a fresh desktop; the time until ``reset`` returns the first observation is
its set-up (place files, unpack a profile, open the file or start the app, wait until
idle). Beside it, what OSWorld's own code waits for the same thing: it reverts the VM to
a snapshot and restarts it (``DesktopEnv._revert_to_snapshot`` + ``_start_emulator``), runs
the set-up, then its run loop sleeps a fixed 60 s "to wait for the environment to be
ready" (``lib_run_single.py``: ``env.reset(task_config=example); time.sleep(60)``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DOMAINS = ("libreoffice_calc", "libreoffice_writer", "libreoffice_impress", "thunderbird")
#: What OSWorld waits after reset, by its own code (seconds), not counting the snapshot revert.
OSWORLD_FIXED_WAIT_S = 60.0
#: One imported sample task per app for the reset timing.
RESET_TASKS = {
    "calc": "libreoffice_calc-1e8df695-bd1b-45b3-b557-e7d599cf7597",
    "writer": "libreoffice_writer-ecc2413d-8a48-416e-a3a2-d30106ca36cb",
    "impress": "libreoffice_impress-73c99fb9-f828-43ce-b87a-01dc07faa224",
    "thunderbird": "thunderbird-2ad9387a-65d8-4e33-ad5b-7580065a27ca",
}


def coverage(samples: Path) -> int:
    from gui_agent.errors import OsworldConfigError
    from gui_agent.task.osworld_import import convert_osworld, domain_of

    by_domain: dict[str, Counter] = defaultdict(Counter)
    by_func: dict[str, Counter] = defaultdict(Counter)
    misses = []
    for path in sorted(samples.rglob("*.json")):  # OSWorld's layout: examples/<domain>/<id>.json
        if path.stem.lower().endswith(("-win", "_win")):
            continue
        config = json.loads(path.read_text(encoding="utf-8"))
        domain = domain_of(config)
        if domain not in DOMAINS:
            continue
        funcs = config.get("evaluator", {}).get("func")
        funcs = funcs if isinstance(funcs, list) else [funcs]
        try:
            conversion = convert_osworld(config, config_path=path)
            complete = conversion.complete
            why = "; ".join(conversion.unsupported)
        except OsworldConfigError as exc:
            complete, why = False, f"unreadable: {exc}"
        by_domain[domain]["all"] += 1
        by_domain[domain]["complete"] += complete
        for func in set(map(str, funcs)):
            by_func[func]["all"] += 1
            by_func[func]["complete"] += complete
        if not complete:
            misses.append(f"  {path.name}: {why}")
    total = sum(c["all"] for c in by_domain.values())
    done = sum(c["complete"] for c in by_domain.values())
    print("| domain | configs | convert completely |\n|---|---:|---:|")
    for domain in DOMAINS:
        c = by_domain[domain]
        print(f"| {domain} | {c['all']} | {c['complete']} ({100 * c['complete'] / max(c['all'], 1):.0f}%) |")
    print(f"| **all** | {total} | {done} ({100 * done / max(total, 1):.1f}%) |\n")
    print("| evaluator function | configs | convert completely |\n|---|---:|---:|")
    for func, c in sorted(by_func.items(), key=lambda kv: (-kv[1]["all"], kv[0])):
        print(f"| `{func}` | {c['all']} | {c['complete']} |")
    if misses:
        print("\nnot complete:")
        print("\n".join(misses))
    print(f"\ncoverage: {done}/{total} = {100 * done / max(total, 1):.1f}% of the Linux configs in {samples}")
    print(f"measured by: python scripts/bench_osworld.py --samples {samples}")
    return 0 if total and done / total >= 0.9 else 1


def reset_times(repeats: int) -> None:
    from gui_agent.cli import main
    from gui_agent.envs.factory import make_env
    from gui_agent.task import load_task
    from tests.paths import FIXTURES
    from tests.task.osworld_local_inputs import MAKERS

    print("\n| app | imported task | reset -> first observation (median of %d) | OSWorld: revert + restart VM, set-up, then a fixed |" % repeats)
    print("|---|---|---:|---:|")
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        for app, name in RESET_TASKS.items():
            if main(["import-osworld", str(FIXTURES / "osworld" / f"{name}.json"), "--out", str(folder), "--force"]) not in (0, 1):
                raise SystemExit(f"{name} did not import")
            MAKERS[name.split("-", 1)[1]](folder / "inputs")
            task = load_task(folder / f"{name}.yaml")
            times = []
            with make_env(task) as env:
                for _ in range(repeats):
                    started = time.perf_counter()
                    env.reset(options={"setup": list(task.setup), "instruction": task.instruction})
                    times.append(time.perf_counter() - started)
            print(f"| {app} | {name.split('-', 1)[1][:8]} | {statistics.median(times):.1f} s "
                  f"(min {min(times):.1f}, max {max(times):.1f}) | {OSWORLD_FIXED_WAIT_S:.0f} s sleep |", flush=True)
    print("measured by: python scripts/bench_osworld.py --reset --repeats", repeats)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=Path, metavar="DIR",
                        help="OSWorld task configs to convert, searched below DIR: OSWorld/evaluation_examples/examples "
                        "in a clone of https://github.com/xlang-ai/OSWorld")
    parser.add_argument("--reset", action="store_true", help="time reset -> first observation per app")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.samples is None and not args.reset:
        parser.error("name the OSWorld configs with --samples DIR (OSWorld/evaluation_examples/examples in a clone of "
                     "https://github.com/xlang-ai/OSWorld), or time resets with --reset")
    if args.samples is not None and not args.samples.is_dir():
        parser.error(f"--samples {args.samples}: no such folder")
    status = coverage(args.samples) if args.samples is not None else 0
    if args.reset:
        reset_times(args.repeats)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
