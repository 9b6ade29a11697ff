"""``gui-agent export EPISODES... --out DIR``: episodes -> a Hugging Face dataset (and the hub)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from gui_agent.action_formats import format_names
from gui_agent.cli.failure import fail
from gui_agent.cli.progress import progress_bar

EXAMPLES = """\
examples:
  gui-agent export runs/ --out exports/demo
  gui-agent export runs/ --out exports/split --split train=0.9,test=0.1 --seed 1
  gui-agent export runs/ --out exports/held-out --split train=0.8,test=0.2 --split-by task
  gui-agent export runs/ --out exports/sft --format sft --action-format pyautogui --sft-images 2
  gui-agent export runs/ --out exports/all --format steps,sft --license cc-by-4.0
  gui-agent export recordings/ --out exports/grounding --format grounding   # (screenshot, instruction, bbox, point)
  gui-agent export recordings/ --out exports/video --video    # + screen.mp4 as datasets.Video
  gui-agent export runs/ --out exports/hub --push my-org/gui-trajectories --private
  gui-agent export annotations/ --out annotations-hf          # a station's DATASET: what reviewers accepted
  gui-agent export vm1/annotations vm2/annotations --out merged-hf   # several stations' DATASETs, merged
  gui-agent export annotations/ --out drafts-hf --include-unreviewed  # + the episodes not reviewed yet

formats (several may be given, comma-separated):
  steps   configs 'steps' (one row per step) and 'episodes' (one row per episode)
  sft     configs 'sft' (chat rows: system/user/assistant, screenshots, for fine-tuning
          VLMs) and 'episodes'
  reward  configs 'reward', 'outcomes', 'preferences': what 'gui-agent make-reward-data'
          wrote (reward.jsonl, outcomes.jsonl, preferences.jsonl)
  grounding  config 'grounding': GUI grounding rows in ScreenSpot's field names (image,
          instruction, bbox [x1,y1,x2,y2], point, data_type, data_source, source): one per
          step whose target element is known (the step's instruction, or the action on
          the element), and one per visible usable element of each keyframe whose
          accessibility tree the recording kept (described by role and name)

EPISODES are episode folders, or folders searched at any depth for them (a run's or an
eval's --out, a folder of recordings).

A station's DATASET (a folder holding station.json, written by 'gui-agent annotate --out
DATASET'), given or found below a given folder, brings only the episodes a reviewer
accepted (the decision each episode keeps in labels.review); the rejected ones and those
not reviewed are counted, not exported. --include-unreviewed exports the ones not reviewed
too; rejected ones never. An episode folder named directly is exported as named. The same
episode id in two DATASETs is exported once when the copies are the same episode, and is
an error (exit 2) naming both folders when they are not.

Typed text (and every other free text) is scrubbed of emails, phone numbers, card numbers
(Luhn-checked) and secrets unless --no-scrub: the lines of --secrets-file, the hub token
and the values of environment variables named like keys, tokens and passwords
(OPENAI_API_KEY, ANTHROPIC_API_KEY, HF_TOKEN...). Corrupt or unfinished episodes are
reported and skipped. Load the result with datasets.load_dataset(DIR, "steps"); turn it
back into episodes with 'gui-agent import DIR --out EPISODES_DIR'.

Pushing needs a token with write access: HF_TOKEN, or 'hf auth login' beforehand. After a
failed push, re-run the same command to resume it: the export in OUT is pushed as it is
(not made again; --overwrite makes it again), and files already on the hub are not sent
again. Exit status: 0 exported (and pushed), 1 nothing exported or the push failed, 2 bad
input.
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "export",
        help="export episodes as a Hugging Face dataset (Parquet + dataset card), optionally push it",
        description="Export episode folders as a Hugging Face dataset: Parquet shards with embedded "
        "screenshots under data/, and a README.md dataset card declaring configs, features and splits.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("episodes", nargs="+", type=Path, help="episode folders, or folders holding them (searched recursively)")
    parser.add_argument("--out", type=Path, required=True, help="output folder (new or empty; see --overwrite)")
    parser.add_argument("--format", default="steps", help="steps, sft, reward, grounding, or several comma-separated (default: steps)")
    parser.add_argument("--split", default="train", help="splits and ratios, e.g. train=0.9,test=0.1 (default: train)")
    parser.add_argument("--split-by", choices=("episode", "task"), default="episode",
                        help="assign whole episodes, or whole tasks (held-out tasks) to splits (default: episode)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the split shuffle (default: 0)")
    parser.add_argument("--no-scrub", action="store_true", help="keep typed text as it is (no email/phone/card/secret scrubbing)")
    parser.add_argument("--secrets-file", type=Path, help="file of exact strings to scrub, one per line")
    parser.add_argument("--license", default="unknown", help="licence id for the card, e.g. apache-2.0, cc-by-4.0")
    parser.add_argument("--name", help="the dataset's title in the card")
    parser.add_argument("--video", action="store_true",
                        help="embed each episode's screen.mp4 (recorded with --video-fps) as a datasets.Video column "
                        "of 'episodes', with its frame times; needs torchcodec and FFmpeg's libraries (scripts/setup.sh); "
                        "a video that does not decode is reported and left out")
    parser.add_argument("--action-format", default="uitars", choices=format_names(sft=True),
                        help="assistant action form in sft rows (default: uitars = UI-TARS-1.5)")
    parser.add_argument("--sft-images", type=int, default=1, help="screenshots per sft row: current + previous (default: 1)")
    parser.add_argument("--grounding-elements", type=int, default=20,
                        help="grounding rows per keyframe from its accessibility tree: a sample, the same in every run "
                        "(0: every element; each row embeds the screenshot) (default: 20)")
    parser.add_argument("--sft-history", type=int, default=5, help="previous actions listed in sft rows (default: 5)")
    parser.add_argument("--shard-size", type=int, default=500, help="Parquet shard size in MB (default: 500)")
    parser.add_argument("--overwrite", action="store_true", help="replace an earlier export in --out")
    parser.add_argument("--include-unreviewed", action="store_true",
                        help="from a station's DATASET, export the episodes no reviewer decided on too "
                        "(default: only the accepted ones; rejected ones never)")
    hub = parser.add_argument_group("hub")
    hub.add_argument("--push", metavar="REPO_ID", help="then create or update this dataset repo on the hub")
    hub.add_argument("--private", action="store_true", help="make the repo private")
    hub.add_argument("--message", default="Upload dataset with gui-agent", help="commit message")
    hub.add_argument("--endpoint", help="hub URL (default: $HF_ENDPOINT or huggingface.co)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape

    from gui_agent.errors import NothingExportedError
    from gui_agent.export import ExportError, export_dataset
    from gui_agent.export.push import pending_push, redact
    from gui_agent.export.scrub import export_secrets

    console = Console(highlight=False)
    err = Console(stderr=True, highlight=False)
    token = None
    try:
        secrets = export_secrets(secrets_file=args.secrets_file, environ=os.environ, push=bool(args.push), scrub=not args.no_scrub)
        token = secrets.token
        command = _command(args)
        if args.push and not args.overwrite and pending_push(args.out) == command:
            # The same command after a failed push: the export is there, only the push is left.
            console.print(escape(f"{args.out} holds this command's export, whose push failed: pushing it again"), soft_wrap=True)
            return _push(console, args, token, command)
        options = _options(args, secrets.secrets)
        report = _run_with_progress(err, args.quiet, lambda on_progress: export_dataset(
            args.episodes, args.out, options, on_progress=on_progress))
    except ExportError as exc:
        return fail(console, redact(str(exc), token), 1 if isinstance(exc, NothingExportedError) else 2)
    _print_report(console, report, token)
    if args.push:
        return _push(console, args, token, command)
    return 0


def _options(args: argparse.Namespace, secrets: tuple[str, ...]):  # type: ignore[no-untyped-def]
    """The export's settings from the command line."""
    from gui_agent.export import ExportOptions, SftOptions, SplitSpec
    from gui_agent.export.splits import parse_ratios

    return ExportOptions(
        formats=tuple(f.strip() for f in args.format.split(",") if f.strip()),
        split=SplitSpec(ratios=parse_ratios(args.split), by=args.split_by, seed=args.seed),
        scrub=not args.no_scrub,
        secrets=secrets,
        license=args.license,
        pretty_name=args.name,
        video=args.video,
        sft=SftOptions(action_format=args.action_format, images=args.sft_images, history=args.sft_history),
        overwrite=args.overwrite,
        include_unreviewed=args.include_unreviewed,
        shard_bytes=max(1, args.shard_size) * 1024 * 1024,
        grounding_elements=args.grounding_elements,
    )


def _print_report(console, report, token: str | None) -> None:  # type: ignore[no-untyped-def]
    """What the export wrote, left out and scrubbed (every message with the hub token redacted)."""
    from rich.markup import escape

    from gui_agent.export.push import redact

    for skipped in report.skipped:
        console.print(f"[yellow]skipped[/yellow] {escape(str(skipped.path))}: {escape(redact(skipped.reason, token))}", soft_wrap=True)
    for line in report.skipped_samples:
        console.print(f"[yellow]skipped sample[/yellow] {escape(redact(line, token))}", soft_wrap=True)
    for line in report.video_problems:
        console.print(f"[yellow]video left out[/yellow] {escape(redact(line, token))}", soft_wrap=True)
    for station in report.stations:
        if station.exported:
            console.print(escape(station.line()), soft_wrap=True)
        else:
            console.print(f"[yellow]{escape(station.nothing_chosen())}[/yellow]", soft_wrap=True)
    sizes = ", ".join(
        f"{config}: " + " / ".join(f"{split} {r.num_rows}" for split, r in per.items()) for config, per in report.results.items()
    )
    console.print(
        f"exported {_exported(report)} to {escape(str(report.out))} "
        f"({report.bytes_written / 1e6:.1f} MB; {sizes})", soft_wrap=True,
    )
    if report.skipped:
        console.print(f"[yellow]{len(report.skipped)} episode(s) skipped[/yellow] (listed above)")
    if report.summary.scrub and sum(report.summary.scrubbed.values()):
        console.print("scrubbed " + ", ".join(f"{k} {v}" for k, v in report.summary.scrubbed.items() if v))


def _command(args: argparse.Namespace) -> dict[str, object]:
    """What makes an export and its push the same command again (the paths resolved)."""
    return {
        "episodes": [str(p.resolve()) for p in args.episodes], "out": str(args.out.resolve()), "push": args.push,
        "format": args.format, "split": args.split, "split_by": args.split_by, "seed": args.seed, "no_scrub": args.no_scrub,
        "secrets_file": str(args.secrets_file.resolve()) if args.secrets_file else None, "license": args.license,
        "name": args.name, "video": args.video, "action_format": args.action_format, "sft_images": args.sft_images,
        "sft_history": args.sft_history, "shard_size": args.shard_size, "include_unreviewed": args.include_unreviewed,
        "grounding_elements": args.grounding_elements,
    }


def _push(console, args: argparse.Namespace, token: str | None, command: dict[str, object]) -> int:  # type: ignore[no-untyped-def]
    from rich.markup import escape

    from gui_agent.export import ExportError, push_dataset
    from gui_agent.export.push import clear_pending_push, mark_push_pending, redact

    def on_chunk(part: int, parts: int, files: list[str]) -> None:
        what = files[0] if len(files) == 1 else f"{len(files)} files"
        console.print(f"  push {part}/{parts}: {escape(what)}")

    try:
        report = push_dataset(
            args.out, args.push, private=True if args.private else None, message=args.message,
            token=token, endpoint=args.endpoint, on_chunk=on_chunk,
        )
    except ExportError as exc:
        mark_push_pending(args.out, command)
        console.print(f"[red]push failed:[/red] {escape(redact(str(exc), token))}", soft_wrap=True)
        console.print("re-run the same command to resume: the export is kept and pushed again, "
                      "and files already on the hub are not sent again")
        return 1
    clear_pending_push(args.out)
    console.print(
        f"pushed to {escape(report.url)}: {len(report.uploaded)} file(s) uploaded, {len(report.unchanged)} unchanged, "
        f"{len(report.deleted)} stale removed, {len(report.commits)} commit(s)", soft_wrap=True,
    )
    return 0


#: How the rows of each reward-data config are counted in the ``exported ...`` line.
_REWARD_ROWS = {"reward": "reward sample", "outcomes": "episode outcome", "preferences": "preference pair"}


def _exported(report) -> str:  # type: ignore[no-untyped-def]
    """What was written: episodes and steps, and the rows of the reward-data configs.

    ``--format reward`` exports samples, not episodes; counting only episodes read
    "exported 0 episodes, 0 steps" for an export that wrote hundreds of samples.
    """
    parts = [f"{report.episodes} episode(s), {report.steps} step(s)"] if report.episodes else []
    for config, noun in _REWARD_ROWS.items():
        rows = sum(r.num_rows for r in report.results.get(config, {}).values())
        if rows:
            parts.append(f"{rows} {noun}(s)")
    return ", ".join(parts) or "nothing"


def _run_with_progress(console, quiet: bool, run):  # type: ignore[no-untyped-def]
    """Run with a live bar over episodes (and the steps written so far) when on a terminal."""
    if quiet or not console.is_terminal:
        return run(None)
    with progress_bar(console, "exporting", after="episodes, {task.fields[steps]} steps") as progress:
        bar = progress.add_task("export", total=None, steps=0)

        def on_progress(done: int, total: int, steps: int) -> None:
            progress.update(bar, completed=done, total=total, steps=steps)

        return run(on_progress)
