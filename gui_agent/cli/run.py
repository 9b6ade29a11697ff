"""``gui-agent run TASK.yaml``: one policy, one task, one written episode, the outcome printed."""

from __future__ import annotations

import argparse
from pathlib import Path

from gui_agent.cli.arguments import acknowledging_safety_checks, observations, positive_float, seed_range
from gui_agent.cli.failure import fail
from gui_agent.cli.progress import progress_bar

EXAMPLES = """\
examples:
  gui-agent run datasets/tasks/miniwob/click-button.yaml          # the shipped pixel policy
  gui-agent run datasets/tasks/miniwob/click-button.yaml --policy oracle
  gui-agent run datasets/tasks/miniwob/enter-text.yaml --policy random --seed 3
  gui-agent run datasets/tasks/miniwob/click-tab.yaml --seeds 0-4 --out runs/tabs
  gui-agent run datasets/tasks/miniwob/click-test.yaml --policy oracle --out runs/one
  gui-agent run datasets/tasks/miniwob/click-test.yaml --policy replay:runs/one   # plays runs/one's episode back
  gui-agent run TASK.yaml --headed --display :99   # watch it on an X display

policies:
  pixel[:CKPT]    pixel-in network: screenshot + instruction -> action (default: the
                  shipped checkpoint; CKPT from 'gui-agent train policy')
  oracle          scripted MiniWoB++ solver reading the DOM (makes demonstrations)
  random[:SEED]   random clicks, typing and keys: the floor to beat
  replay:EPISODE  plays back a recorded episode's actions (EPISODE: its folder, or a
                  folder holding only it)
  hf:PATH_OR_ID   a transformers VLM (Qwen2-VL, Qwen2.5-VL/UI-TARS, Idefics3/SmolVLM);
                  options after '?', e.g. hf:runs/vlm?images=2&history=3
  openai:MODEL    a model behind an OpenAI-compatible chat API (vLLM, SGLang, TGI,
                  transformers serve, Ollama, OpenAI), e.g.
                  "openai:ui-tars-1.5-7b?base_url=http://gpu:8000/v1&format=uitars"
  anthropic:MODEL Claude with the computer-use tool ($ANTHROPIC_API_KEY)
  openai-cua:MODEL  OpenAI's computer-use model ($OPENAI_API_KEY)
  py:MOD:NAME     your own policy class (docs/policies.md)

The episode is written to OUT/<episode_id>/ in the trajectory format; inspect it with
'gui-agent show OUT/<episode_id>'. Several seeds end with a summary line.
A task with no evaluator is not judged: its episodes print NO VERDICT and say
'success: null'. Exit status: 0 all episodes succeeded, 1 some failed,
4 none failed but some were not judged (the task has no evaluator), 3 the environment
broke or the policy's model service stayed down (not the agent's fault), 2 bad input,
130 interrupted (Ctrl-C).
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "run",
        help="run a policy on a task file and write the episode",
        description="Run a policy on a task until it is done or hits a limit, evaluate the result, "
        "and write the episode in the trajectory format.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("task", type=Path, help="a task file (task.yaml)")
    parser.add_argument("--policy", default="pixel", help="which policy acts (default: pixel, the shipped pixel-in network; see below)")
    seeds = parser.add_mutually_exclusive_group()
    seeds.add_argument("--seed", type=int, default=0, help="environment seed (default: 0)")
    seeds.add_argument("--seeds", type=seed_range, help="several seeds, e.g. 0-9 or 1,5,7: one episode each")
    parser.add_argument("--out", type=Path, default=Path("runs"), help="folder for episodes (default: runs/)")
    parser.add_argument("--headed", action="store_true", help="show the browser on an X display instead of headless")
    parser.add_argument("--display", help="X display for --headed, e.g. :99 (default: $DISPLAY)")
    parser.add_argument("--acknowledge-safety-checks", action="store_true",
                        help="acknowledge the safety checks an openai-cua: model asks for (default: refuse them, ending the episode)")
    parser.add_argument("--max-cost", type=positive_float, metavar="USD", help="money budget per episode, in US dollars of priced model calls")
    parser.add_argument("--observe", type=observations, default=frozenset(), metavar="KINDS",
                        help="extra observations for the policy: a11y_tree (a desktop task's accessibility tree, "
                             "in OSWorld's XML form, and its numbered marks for click(mark=N), in every observation; "
                             "as observe: {a11y_tree: true} in the task file)")
    parser.add_argument("--quiet", action="store_true", help="print only the final outcome line(s)")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape

    from gui_agent.envs.factory import make_env
    from gui_agent.envs.observe_modes import apply_observe
    from gui_agent.envs.x_display import check_display
    from gui_agent.errors import GuiAgentError, PolicyTaskError
    from gui_agent.guards import Budget
    from gui_agent.envs.observe_modes import observed
    from gui_agent.registry import check_policy, load_policy
    from gui_agent.runner import run_episode
    from gui_agent.task import load_task
    from gui_agent.task.task_inputs import missing_inputs_message

    console = Console(stderr=False, highlight=False)
    try:
        task = load_task(args.task)
        apply_observe(task, args.observe, where=str(args.task))
        if (missing := missing_inputs_message(task)) is not None:  # declared inputs not downloaded: the task is not ready
            return fail(console, missing)
        spec = acknowledging_safety_checks(args.policy) if args.acknowledge_safety_checks else args.policy
        check_policy(spec, [task.id], observed={task.id: observed(task)})  # refused before any browser starts
        if task.environment.kind == "browser" and (args.headed or not task.environment.headless):  # a desktop has its own display
            check_display(args.display)  # a missing or wrong display is the user's setting, not an env failure
        policy = load_policy(spec)
    except (GuiAgentError, ValueError, OSError) as exc:
        return fail(console, str(exc))
    seeds = args.seeds or [args.seed]
    headless = False if args.headed else None  # None: as the task file says
    results = []
    env = None
    try:
        for seed in seeds:
            label = f"{task.id} seed={seed} policy={policy.name}"
            if env is None:  # one browser for all seeds; rebuilt only after it broke
                env = make_env(task, headless=headless, display=args.display)
            result = _run_with_progress(console, label, args.quiet, lambda on_step, seed=seed, env=env: run_episode(
                task, policy, out_dir=args.out, seed=seed, env=env, on_step=on_step,
                budget=Budget.from_limits(task.limits, max_cost_usd=args.max_cost),
            ))
            if result.env_failed:
                env.close()
                env = None
            results.append(result)
            _print_result(console, label, result)
    except PolicyTaskError as exc:  # said by the policy itself at reset: no episode was written
        return fail(console, str(exc))
    except GuiAgentError as exc:
        return fail(console, str(exc), 3)
    except KeyboardInterrupt:
        # Mid-step (a model call, an action): the episode under way keeps what it wrote,
        # status 'recording' (see 'gui-agent show --recover').
        console.print(f"[yellow]interrupted[/yellow] after {len(results)} of {len(seeds)} episode(s); "
                      f"the one under way is left as 'recording' in {escape(str(args.out))}", soft_wrap=True)
        return 130
    finally:
        if env is not None:
            env.close()
    if len(results) > 1:
        console.print(_summary(results), soft_wrap=True)
    return exit_status(results)


#: ``gui-agent run``'s exit status when no episode failed but some had no verdict.
NOT_JUDGED = 4


def exit_status(results: list) -> int:  # type: ignore[type-arg]
    """3 a fault outside the agent, else 1 a failure, else 4 an unjudged episode, else 0.

    An episode nobody judged (the task has no evaluator) is neither a success nor a
    failure, so it gets a status of its own rather than passing for either.
    """
    if any(r.env_failed or r.service_failed for r in results):
        return 3
    if any(r.judged and not r.success for r in results):
        return 1
    return 0 if all(r.judged for r in results) else NOT_JUDGED


def _summary(results: list) -> str:  # type: ignore[type-arg]
    """``5 episodes: 3 succeeded, 1 failed, 1 not judged``: the counts that are not zero."""
    counts = {
        "succeeded": sum(1 for r in results if r.judged and r.success and not (r.env_failed or r.service_failed)),
        "failed": sum(1 for r in results if r.judged and not r.success and not (r.env_failed or r.service_failed)),
        "not judged": sum(1 for r in results if not r.judged),
        "environment failures": sum(1 for r in results if r.env_failed),
        "service failures": sum(1 for r in results if r.service_failed),
    }
    return f"{len(results)} episodes: " + ", ".join(f"{n} {what}" for what, n in counts.items() if n)


def _run_with_progress(console, label, quiet, run):  # type: ignore[no-untyped-def]
    """Run with a live step bar (steps used of the step limit, the last action).

    Actions and errors are escaped: typed text or a browser's message may hold "[...]",
    which rich would take for markup (swallowed, or a crash on "[/...]").
    """
    from rich.markup import escape

    if quiet or not console.is_terminal:
        def on_step(index: int, limit: int, action: str, error: str | None) -> None:
            if not quiet:
                console.print(f"  step {index}/{limit}  {escape(action)}" + (f"  [yellow]! {escape(error)}[/yellow]" if error else ""),
                              soft_wrap=True)
        return run(on_step)
    with progress_bar(console, "{task.description}", after="{task.fields[last]}", remaining=False) as progress:
        bar = progress.add_task(escape(label), total=None, last="")

        def on_step(index: int, limit: int, action: str, error: str | None) -> None:
            progress.update(bar, completed=index, total=limit, last=escape(action + (f" ! {error}" if error else "")))

        return run(on_step)


def _print_result(console, label: str, result) -> None:  # type: ignore[no-untyped-def]
    from rich.markup import escape

    if result.env_failed:
        verdict = "[yellow]ENV FAILURE[/yellow]"
    elif result.service_failed:
        verdict = "[magenta]SERVICE FAILURE[/magenta]"
    elif not result.judged:
        verdict = "[yellow]NO VERDICT[/yellow]"
    else:
        verdict = "[green]SUCCESS[/green]" if result.success else "[red]FAILURE[/red]"
    console.print(
        f"{verdict} {escape(label)}  " + (f"reward={result.reward:g} " if result.judged else "")
        + f"steps={result.steps} time={result.duration_s:.2f}s "
        f"end={result.termination}" + (f" ({escape(result.reason)})" if result.reason else "")
        + (f" cost=${result.usage['cost_usd']:.4f}" if result.usage.get("cost_usd") is not None else ""),
        soft_wrap=True,
    )
    if not result.judged:
        console.print("  not judged: the task has no evaluator (the episode says success: null)", soft_wrap=True)
    console.print(f"  episode: {escape(str(result.episode_path))}", soft_wrap=True)
