"""``gui-agent eval SUITE``: k tries per task on parallel workers; pass@1, pass@k, pass^k, cost."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from gui_agent.cli.arguments import acknowledging_safety_checks, observations, positive_float, positive_int, seed_range
from gui_agent.cli.failure import fail
from gui_agent.cli.progress import progress_bar

if TYPE_CHECKING:
    from gui_agent.evaluate.ledger import LedgerRecord
    from gui_agent.evaluate.run import EvalOptions

EXAMPLES = """\
examples:
  gui-agent eval miniwob --repeats 8 --workers 2 --out runs/oracle-k8
  gui-agent eval datasets/tasks/miniwob/click-b*.yaml --policy random:1 --repeats 2 --out runs/random-k2
  gui-agent eval desktop --policy desktop-oracle --out runs/desktop      # every desktop suite: calc, mail, ...
  gui-agent eval miniwob --repeats 8 --out runs/oracle-k8 --resume      # after Ctrl-C or a kill
  gui-agent eval miniwob --ray --workers 4                              # local Ray (or $RAY_ADDRESS)
  gui-agent eval miniwob --ray 10.0.0.5:6379 --workers 16               # a Ray cluster
  gui-agent eval my-tasks/ --policy hf:runs/smolvlm-sft --judge runs/reward-ckpt   # no evaluator: a reward model judges
  gui-agent eval my-tasks/ --policy hf:runs/smolvlm-sft --judge "hf:Qwen/Qwen2-VL-2B-Instruct?votes=5"   # ... or a VLM
  gui-agent eval miniwob --policy random:1 --best-of 8 --reward-model runs/reward-ckpt

SUITE is task files, folders of task files (searched into subfolders, as 'gui-agent
validate' searches them), or a named suite (a folder under datasets/tasks/: miniwob,
desktop, desktop/calc...). Try r of a task uses seed SEED+r (--same-seed: SEED). A policy
that cannot act on some of the tasks at all (an oracle outside its suites) is refused
before anything starts (exit 2): choose one that can, e.g. a model for your own tasks.

Output (OUT/): ledger.jsonl (one line per finished episode, written as it finishes),
results.json, results.md, cost_effectiveness.png, run.json, episodes/. pass@1 comes with
its 95% Wilson interval; pass@k and pass^k (all k tries succeed) are unbiased estimates
averaged over tasks. Environment failures (browser died or hung on every attempt) and
policy service failures (the model endpoint stayed down past its retries) are counted
apart and never scored. With priced models (openai:, anthropic:, openai-cua:) the table
has cost per episode and per success, and --max-cost / --max-run-cost bound the spend. --judge scores only episodes of tasks that have no
evaluator (the verdict goes into the episode's outcome, detail.judge); --best-of N asks the
policy N times per step and acts on the decision the reward model rates best. Exit status: 0 done, 3 some episodes could not be scored
(environment failures), 2 bad input, 130 interrupted (resume with --resume).
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "eval",
        help="evaluate a policy on a task suite: pass@1/pass@k/pass^k, cost, env failures apart",
        description="Run a policy k times on every task of a suite, in parallel local processes or on Ray; "
        "stream results to a ledger, and report success, reliability and cost per task and overall.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("suite", nargs="+", help="task files, folders of them, or a named suite (miniwob)")
    parser.add_argument("--policy", default="oracle", help="a policy spec as in gui-agent run --help: oracle, random[:SEED], hf:..., openai:..., anthropic:..., openai-cua:..., py:module:Name (default: oracle)")
    parser.add_argument("--repeats", "-k", type=positive_int, default=1, help="tries per task, the k of pass@k/pass^k (default: 1)")
    parser.add_argument("--workers", "-j", type=positive_int, default=1, help="parallel workers, each with its own browser (default: 1)")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="run the workers as Ray actors: on the cluster at ADDRESS, or $RAY_ADDRESS / a new local Ray")
    parser.add_argument("--no-pin-cpus", dest="pin_cpus", action="store_false",
                        help="let local workers float over the CPUs (by default 2+ workers, no more than the CPUs, "
                        "get a CPU each with their browsers: 10-20 %% more episodes/s than floating workers on 2 cores)")
    parser.add_argument("--out", type=Path, help="run folder (default: runs/eval-<time>; needed with --resume)")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out, redoing only unfinished episodes")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first try (default: 0)")
    parser.add_argument("--same-seed", action="store_true", help="every try of a task uses --seed (same instance)")
    parser.add_argument("--seeds", type=seed_range, help="explicit seeds, one per try, e.g. 0-9 or 3,17,40 (sets --repeats)")
    parser.add_argument("--max-attempts", type=positive_int, default=3, help="tries of an episode whose environment failed (default: 3)")
    parser.add_argument("--on-loop", choices=("stop", "warn"), default="stop", help="doom loop: end the episode, or tell the policy")
    parser.add_argument("--max-tokens", type=positive_int, help="token budget per episode (input + output); replaces the task files' limits.max_tokens")
    parser.add_argument("--acknowledge-safety-checks", action="store_true",
                        help="acknowledge the safety checks an openai-cua: model asks for (default: refuse them, ending the episode)")
    parser.add_argument("--max-cost", type=positive_float, metavar="USD", help="money budget per episode, in US dollars of priced model calls")
    parser.add_argument("--max-run-cost", type=positive_float, metavar="USD",
                        help="money budget of the whole run: once spent, no new episode starts (--resume with more runs the rest)")
    parser.add_argument("--judge", metavar="CKPT|hf:MODEL",
                        help="judge episodes of tasks without an evaluator: a reward-model checkpoint (gui-agent train reward) "
                        "or hf:MODEL[?votes=5&temperature=0.7] for a transformers VLM")
    parser.add_argument("--best-of", type=positive_int, default=1, metavar="N",
                        help="sample N decisions per step and act on the one the reward model scores highest (default: 1, off)")
    parser.add_argument("--reward-model", metavar="CKPT", help="reward-model checkpoint for --best-of (default: --judge when it is a checkpoint)")
    parser.add_argument("--headed", action="store_true", help="show the browsers (needs $DISPLAY)")
    parser.add_argument("--observe", type=observations, default=frozenset(), metavar="KINDS",
                        help="extra observations for the policy, as for gui-agent run: a11y_tree (desktop tasks' "
                             "accessibility tree in every observation; a browser task in the suite is refused)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar, only the results")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    import datetime as dt

    from rich.markup import escape

    from gui_agent.errors import GuiAgentError
    from gui_agent.evaluate.judging import best_of_reward_model
    from gui_agent.evaluate.run import evaluate_suite

    console = _console()
    if (problem := _where_to_run_problem(args)) is not None:
        return fail(console, problem)
    if args.seeds:
        args.repeats = len(args.seeds)
    reward_model = best_of_reward_model(reward_model=args.reward_model, judge=args.judge, best_of=args.best_of)
    if args.acknowledge_safety_checks:
        try:
            args.policy = acknowledging_safety_checks(args.policy)
        except ValueError as exc:
            return fail(console, str(exc))
    out = args.out or Path("runs") / f"eval-{dt.datetime.now().strftime('%Y%m%dT%H%M%S')}"
    options = _options(args, out, reward_model)
    progress = _Progress(console, quiet=args.quiet)
    try:
        with progress:
            results = evaluate_suite(options, on_start=progress.start, on_record=progress.record, on_note=progress.note)
    except KeyboardInterrupt:
        console.print(f"[yellow]interrupted[/yellow]; finished episodes are in {escape(str(out))}/ledger.jsonl. Continue with:\n"
                      + escape(_resume_command(args, out, reward_model)), soft_wrap=True)
        return 130
    except (GuiAgentError, ValueError, OSError, RuntimeError) as exc:
        return fail(console, str(exc))
    _print_results(console, results, out)
    return 3 if results["unscored"] else 0


def _console():  # type: ignore[no-untyped-def]
    from rich.console import Console

    console = Console(highlight=False)
    return console if console.is_terminal else Console(highlight=False, width=200)  # a log file: room for the whole table


def _where_to_run_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with where the run goes (--resume without --out) or shows (--headed without a display)."""
    from gui_agent.errors import GuiAgentError

    if args.resume and args.out is None:
        return "--resume needs --out (the run folder to continue)"
    if args.headed:
        from gui_agent.envs.x_display import check_display

        try:
            check_display(has_display_option=False)  # the workers' browsers show on $DISPLAY: a missing one is the user's setting
        except GuiAgentError as exc:
            return str(exc)
    return None


def _options(args: argparse.Namespace, out: Path, reward_model: str | None) -> EvalOptions:
    """The run's settings from the command line."""
    from gui_agent.evaluate.run import EvalOptions

    return EvalOptions(
        suite=list(args.suite), policy=args.policy, repeats=args.repeats, out_dir=out, workers=args.workers,
        pin_cpus=args.pin_cpus, ray=args.ray is not None, ray_address=args.ray or None, resume=args.resume, seed=args.seed,
        same_seed=args.same_seed, seeds=args.seeds, max_attempts=args.max_attempts, on_loop=args.on_loop, max_tokens=args.max_tokens,
        max_cost_usd=args.max_cost, max_run_cost_usd=args.max_run_cost, headless=False if args.headed else None, judge=args.judge,
        best_of=args.best_of, reward_model=reward_model, observe=tuple(sorted(args.observe)),
    )


def _resume_command(args: argparse.Namespace, out: Path, reward_model: str | None) -> str:
    """The command that continues an interrupted run with the same settings."""
    return (f"  gui-agent eval {' '.join(args.suite)} --repeats {args.repeats} --policy {args.policy} --out {out} --resume"
            + (f" --judge {args.judge}" if args.judge else "")
            + (f" --best-of {args.best_of} --reward-model {reward_model}" if args.best_of > 1 else "")
            + (f" --observe {','.join(sorted(args.observe))}" if args.observe else ""))


class _Progress:
    """A live bar (episodes done, successes, env failures) that also prints worker notes."""

    def __init__(self, console, *, quiet: bool) -> None:  # type: ignore[no-untyped-def]
        self.console = console
        self.quiet = quiet
        self.bar = None
        self.task = None
        self.counts = {"ok": 0, "fail": 0, "env": 0, "service": 0}
        self.cost = 0.0

    def __enter__(self) -> _Progress:
        if not self.quiet:
            self.bar = progress_bar(self.console, "eval", after="{task.fields[counts]}")
            self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def start(self, to_run: int, planned: int) -> None:
        if planned > to_run:
            self.console.print(f"resuming: {planned - to_run} of {planned} episodes already in the ledger, {to_run} to run")
        if self.bar is not None:
            self.task = self.bar.add_task("eval", total=to_run, counts="")

    def record(self, entry: LedgerRecord) -> None:
        if entry.scored:
            key = "ok" if entry.success else "fail"
        else:
            key = "service" if entry.service_failed else "env"
        self.counts[key] += 1
        self.cost += entry.cost_usd
        if self.bar is not None and self.task is not None:
            c = self.counts
            text = f"[green]{c['ok']} ok[/green] [red]{c['fail']} failed[/red] [yellow]{c['env']} env[/yellow]"
            if c["service"]:
                text += f" [magenta]{c['service']} service[/magenta]"
            if self.cost:
                text += f" ${self.cost:.4f}"
            self.bar.update(self.task, advance=1, counts=text)

    def note(self, text: str) -> None:
        from rich.markup import escape

        self.console.print(f"[yellow]note:[/yellow] {escape(text)}", soft_wrap=True)


def _print_results(console, results: dict, out: Path) -> None:  # type: ignore[no-untyped-def,type-arg]
    from rich.markup import escape

    from gui_agent.cli.results_table import fit_results_table

    fitted = fit_results_table(results, console.width)
    console.print(fitted.table)
    if (left_out := fitted.note()) is not None:
        console.print(left_out, markup=False)
    overall = results["overall"]
    if overall["env_faults"]:
        console.print("environment faults (all attempts): " + ", ".join(f"{k} {v}" for k, v in overall["env_faults"].items()))
    if overall.get("cost_usd") is not None:
        console.print(f"cost: ${overall['cost_usd']:.4f}; per episode ${overall['cost_per_episode'] or 0:.4f}, "
                      f"per success " + (f"${overall['cost_per_success']:.4f}" if overall["cost_per_success"] else "-"))
    if results["run"].get("stopped"):
        console.print(f"[yellow]stopped early:[/yellow] {escape(results['run']['stopped'])}", soft_wrap=True)
    if results["run"].get("episodes_per_s"):
        console.print(f"throughput: {results['run']['episodes_per_s']:.2f} episodes/s")
    console.print(escape(f"results: {out}/results.json, {out}/results.md, {out}/cost_effectiveness.png; ledger: {out}/ledger.jsonl"),
                  soft_wrap=True)
