"""``gui-agent review EPISODE``: a self-contained HTML review page, plus trim and relabel."""

from __future__ import annotations

import argparse
from pathlib import Path

EXAMPLES = """\
examples:
  gui-agent review recordings/recorded_20261130T081500_ab12cd          # writes EPISODE/review.html
  gui-agent review EPISODE --out /tmp/r.html
  gui-agent review EPISODE --trim 2:9            # keep steps 2..8, renumbered from 0
  gui-agent review EPISODE --failure --notes "wrong cell" --label quality=low
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "review", help="write an HTML review page of an episode; trim or relabel it",
        description="Write a self-contained HTML page showing each keyframe with its action drawn on it, a "
        "timeline and the labels. Edits (trim, relabel) are applied first, in place.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("episode", type=Path, help="an episode folder, or a folder holding exactly one")
    parser.add_argument("--out", type=Path, help="where to write the page (default: EPISODE/review.html)")
    parser.add_argument("--trim", metavar="START:END", help="keep steps START..END-1 (END may be empty)")
    verdict = parser.add_mutually_exclusive_group()
    verdict.add_argument("--success", action="store_true", default=None, help="relabel: the task succeeded")
    verdict.add_argument("--failure", action="store_true", help="relabel: the task failed")
    parser.add_argument("--notes", help="relabel: annotator notes")
    parser.add_argument("--task", dest="instruction", help="relabel: the task's instruction text")
    parser.add_argument("--label", action="append", default=[], metavar="KEY=VALUE", help="set a label (repeatable)")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from gui_agent.episode.finder import find_one_episode
    from gui_agent.errors import EpisodeFormatError, EpisodeNotFoundError
    from gui_agent.recorder.edit import relabel, trim
    from gui_agent.recorder.review import write_review

    try:
        args.episode = find_one_episode(args.episode)
        if args.trim:
            start_text, _, end_text = args.trim.partition(":")
            trim(args.episode, int(start_text or 0), int(end_text) if end_text else None)
        labels = {}
        for item in args.label:
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise ValueError(f"--label wants KEY=VALUE, got {item!r}")
            labels[key] = value
        success = True if args.success else (False if args.failure else None)
        if labels or success is not None or args.notes is not None or args.instruction is not None:
            relabel(args.episode, success=success, notes=args.notes, instruction=args.instruction, labels=labels)
        page = write_review(args.episode, args.out)
    except (EpisodeFormatError, EpisodeNotFoundError, ValueError, OSError) as exc:
        print(f"error: {exc}")
        return 2
    print(f"review: {page}")
    return 0
