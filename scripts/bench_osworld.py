"""How much of OSWorld imports whole, and how fast an imported task's desktop is up.

    git clone https://github.com/xlang-ai/OSWorld           # OSWorld's own task configs
    python scripts/bench_osworld.py --samples OSWorld/evaluation_examples/examples
    python scripts/bench_osworld.py --samples DIR           # any folder of OSWorld configs (searched below)
    python scripts/bench_osworld.py --reset --repeats 3     # time reset -> first observation, per domain
    python scripts/bench_osworld.py --catalogue OSWorld     # every evaluator function and getter: what it became

Coverage: every Linux config (not ``*-win.json``) of OSWorld's ten domains is converted;
one converts *completely* when nothing of it is left out (its evaluator is whole).
Configs that sign in to an internet account (Google Drive, a Google login) are counted
apart: nothing local can stand in for them. Printed per domain and per OSWorld evaluator
function; an exception other than a config error is counted as a crash.

Reset: one imported task per domain (tests/task/osworld_domain_samples.py, with locally made
inputs) is reset on a fresh desktop; the time until ``reset`` returns the first observation is
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

#: Step and getter types that sign in to an internet account (Google Drive, a Google login):
#: such configs cannot run off the internet and are left out of the target's count.
ACCOUNT_STEPS = {"googledrive", "login"}
ACCOUNT_GETTERS = {"googledrive_file"}
#: What OSWorld waits after reset, by its own code (seconds), not counting the snapshot revert.
OSWORLD_FIXED_WAIT_S = 60.0


def needs_account(config: dict) -> bool:
    """The config signs in to an internet account (a Google Drive file, a Google login)."""
    steps = list(config.get("config") or [])
    evaluator = config.get("evaluator") if isinstance(config.get("evaluator"), dict) else {}
    steps += list(evaluator.get("postconfig") or [])
    if any(isinstance(s, dict) and s.get("type") in ACCOUNT_STEPS for s in steps):
        return True
    getters = []
    for key in ("result", "expected"):
        value = evaluator.get(key)
        getters += value if isinstance(value, list) else [value]
    return any(isinstance(g, dict) and g.get("type") in ACCOUNT_GETTERS for g in getters)


def _convert(path: Path, config: dict) -> tuple[str, str]:
    """(``complete`` | ``partial`` | ``unreadable`` | ``crash``, why)."""
    from gui_agent.errors import OsworldConfigError
    from gui_agent.task.osworld_import import convert_osworld

    try:
        conversion = convert_osworld(config, config_path=path)
    except OsworldConfigError as exc:
        return "unreadable", f"unreadable: {exc}"
    except Exception as exc:  # noqa: BLE001 - a crash is what this counts
        return "crash", f"CRASH {type(exc).__name__}: {exc}"
    return ("complete", "") if conversion.complete else ("partial", "; ".join(conversion.unsupported))


def coverage(samples: Path) -> int:
    from gui_agent.task.osworld_import import OSWORLD_DOMAINS, domain_of, is_windows_variant

    by_domain: dict[str, Counter] = defaultdict(Counter)
    by_func: dict[str, Counter] = defaultdict(Counter)
    misses, accounts = [], []
    for path in sorted(samples.rglob("*.json")):  # OSWorld's layout: examples/<domain>/<id>.json
        if path.name == "template.json":
            continue
        try:
            config = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(config, dict) or "id" not in config or is_windows_variant(path, config):
            continue
        domain = domain_of(config, path)
        if domain not in OSWORLD_DOMAINS:
            continue
        if needs_account(config):
            accounts.append(f"  {path.name}")
            by_domain[domain]["account"] += 1
            continue
        evaluator = config.get("evaluator") if isinstance(config.get("evaluator"), dict) else {}
        funcs = evaluator.get("func")
        funcs = funcs if isinstance(funcs, list) else [funcs]
        status, why = _convert(path, config)
        complete = status == "complete"
        by_domain[domain]["all"] += 1
        by_domain[domain]["complete"] += complete
        by_domain[domain]["crash"] += status == "crash"
        for func in set(map(str, funcs)):
            by_func[func]["all"] += 1
            by_func[func]["complete"] += complete
        if not complete:
            misses.append(f"  {path.name}: {why}")
    total = sum(c["all"] for c in by_domain.values())
    done = sum(c["complete"] for c in by_domain.values())
    crashes = sum(c["crash"] for c in by_domain.values())
    print("| domain | configs (no account) | convert completely | need an internet account (left out) |\n|---|---:|---:|---:|")
    for domain in OSWORLD_DOMAINS:
        c = by_domain[domain]
        print(f"| {domain} | {c['all']} | {c['complete']} ({100 * c['complete'] / max(c['all'], 1):.0f}%) | {c['account']} |")
    left_out = sum(c["account"] for c in by_domain.values())
    print(f"| **all** | {total} | {done} ({100 * done / max(total, 1):.1f}%) | {left_out} |\n")
    print("| evaluator function | configs | convert completely |\n|---|---:|---:|")
    for func, c in sorted(by_func.items(), key=lambda kv: (-kv[1]["all"], kv[0])):
        print(f"| `{func}` | {c['all']} | {c['complete']} |")
    if misses:
        print("\nnot complete:")
        print("\n".join(misses))
    if accounts:
        print("\nleft out, they sign in to an internet account:")
        print("\n".join(accounts))
    invalid = validate_imported(samples)
    print(f"\ncoverage: {done}/{total} = {100 * done / max(total, 1):.1f}% of the Linux configs in {samples} "
          f"that need no internet account; crashes: {crashes}; task files gui-agent validate refuses: {invalid}")
    print(f"measured by: python scripts/bench_osworld.py --samples {samples}")
    return 0 if total and done / total >= 0.95 and not crashes and not invalid else 1


def _declared_inputs(path: Path) -> list:
    from gui_agent.task.osworld_import import convert_osworld

    try:
        return convert_osworld(json.loads(path.read_text(encoding="utf-8")), config_path=path).inputs
    except Exception:  # noqa: BLE001 - unreadable configs are counted by coverage()
        return []


def validate_imported(samples: Path) -> int:
    """Import every config below ``samples`` as a user would (``gui-agent import-osworld``)
    and count the task files ``gui-agent validate`` refuses. The declared inputs (files on
    the internet) are stood in for by empty files, so what is judged is the task file."""
    import contextlib
    import io

    from gui_agent.cli import main as cli

    configs = [str(p) for p in sorted(samples.rglob("*.json")) if p.name != "template.json"]
    with tempfile.TemporaryDirectory() as out, contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        cli(["import-osworld", *configs, "--out", out])
        files = sorted(Path(out).glob("*.yaml"))
        for name in {i.path for config in configs for i in _declared_inputs(Path(config))}:
            (Path(out) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(out) / name).touch()
        return sum(cli(["validate", "-q", str(f)]) != 0 for f in files)


def _imported_names(init: Path) -> list[tuple[str, str]]:
    """(module, name) of each name an OSWorld ``__init__.py`` imports (``from .chrome import (...)``)."""
    import ast

    tree = ast.parse(init.read_text(encoding="utf-8"))
    return [(node.module or "", alias.name) for node in tree.body
            if isinstance(node, ast.ImportFrom) and node.level == 1 for alias in node.names]


def catalogue(osworld: Path) -> int:
    """Every evaluator function and getter OSWorld exports, with what it became here."""
    from gui_agent.checks.osworld import METRICS, NO_EQUIVALENT
    from gui_agent.checks.osworld.getters import GETTERS
    from gui_agent.checks.osworld.getters import NO_EQUIVALENT as GETTERS_NO_EQUIVALENT
    from gui_agent.checks.osworld.getters import READ_BY_METRICS
    from gui_agent.checks.osworld.metric import BUILT_IN_GETTERS

    evaluators = osworld / "desktop_env" / "evaluators"
    missing = 0
    print("| OSWorld evaluator function | its module | here |\n|---|---|---|")
    for module, name in sorted(_imported_names(evaluators / "metrics" / "__init__.py"), key=lambda m: (m[0], m[1])):
        if name in METRICS:
            here = "converted"
        elif name in NO_EQUIVALENT:
            here = f"no equivalent: {NO_EQUIVALENT[name].removeprefix('no equivalent: ')}"
        else:
            here, missing = "**not converted**", missing + 1
        print(f"| `{name}` | {module} | {here} |")
    print("| `infeasible` | \\_\\_init\\_\\_ | converted |" if "infeasible" in METRICS else "")
    print("\n| OSWorld getter (`type`) | its module | here |\n|---|---|---|")
    for module, name in sorted(_imported_names(evaluators / "getters" / "__init__.py"), key=lambda m: (m[0], m[1])):
        kind = name.removeprefix("get_")
        if kind in GETTERS or kind in BUILT_IN_GETTERS:
            here = "converted"
        elif kind in READ_BY_METRICS:
            here = f"converted (read by the conversion of `{READ_BY_METRICS[kind]}`)"
        elif kind in GETTERS_NO_EQUIVALENT:
            here = f"no equivalent: {GETTERS_NO_EQUIVALENT[kind].removeprefix('no equivalent: ')}"
        else:
            here, missing = "**not converted**", missing + 1
        print(f"| `{kind}` | {module} | {here} |")
    print(f"\nnot converted and not explained: {missing}")
    print(f"measured by: python scripts/bench_osworld.py --catalogue {osworld}")
    return 0 if missing == 0 else 1


def reset_times(repeats: int, domains: list[str] | None = None) -> None:
    from gui_agent.envs.factory import make_env
    from gui_agent.task import load_task
    from tests.task.osworld_domain_samples import SAMPLES, import_sample

    print("\n| domain | imported task | reset -> first observation: median of %d (min, max) | OSWorld |" % repeats)
    print("|---|---|---:|---|")
    medians = []
    with tempfile.TemporaryDirectory() as work:
        for domain in domains or list(SAMPLES):
            folder = Path(work) / domain
            task = load_task(import_sample(domain, folder))
            times = []
            with make_env(task) as env:
                for _ in range(repeats):
                    started = time.perf_counter()
                    env.reset(options={"setup": list(task.setup), "instruction": task.instruction})
                    times.append(time.perf_counter() - started)
            medians.append(statistics.median(times))
            print(f"| {domain} | {SAMPLES[domain][0].split('-', 1)[1][:8]} | {medians[-1]:.1f} s "
                  f"({min(times):.1f}, {max(times):.1f}) | revert + restart the VM, set-up, then a fixed "
                  f"{OSWORLD_FIXED_WAIT_S:.0f} s sleep |", flush=True)
    print(f"median over domains: {statistics.median(medians):.1f} s; slowest domain: {max(medians):.1f} s; "
          f"OSWorld's fixed wait alone: {OSWORLD_FIXED_WAIT_S:.0f} s ({OSWORLD_FIXED_WAIT_S / max(medians):.0f}x the slowest)")
    print("measured by: python scripts/bench_osworld.py --reset --repeats", repeats)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=Path, metavar="DIR",
                        help="OSWorld task configs to convert, searched below DIR: OSWorld/evaluation_examples/examples "
                        "in a clone of https://github.com/xlang-ai/OSWorld")
    parser.add_argument("--catalogue", type=Path, metavar="OSWORLD",
                        help="list every evaluator function and getter of the OSWorld clone OSWORLD with what it became here")
    parser.add_argument("--reset", action="store_true", help="time reset -> first observation per app")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--domains", nargs="+", metavar="DOMAIN", help="time only these domains (default: all ten)")
    args = parser.parse_args()
    if args.catalogue is not None:
        return catalogue(args.catalogue)
    if args.samples is None and not args.reset:
        parser.error("name the OSWorld configs with --samples DIR (OSWorld/evaluation_examples/examples in a clone of "
                     "https://github.com/xlang-ai/OSWorld), or time resets with --reset")
    if args.samples is not None and not args.samples.is_dir():
        parser.error(f"--samples {args.samples}: no such folder")
    status = coverage(args.samples) if args.samples is not None else 0
    if args.reset:
        reset_times(args.repeats, args.domains)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
