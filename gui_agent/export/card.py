"""The dataset card (``README.md``): a YAML header the hub and ``datasets`` read, and a summary.

The header declares every config with its ``data_files`` per split, its features and its
split sizes, written by ``datasets``' and ``huggingface_hub``' own card classes so that
``load_dataset`` reads back exactly what was declared. The body summarises what is inside
(tasks, apps, counts, success rate, screen sizes, who acted, licence, what was scrubbed and
skipped). The card holds no timestamps and no local paths, so exporting the same episodes
twice gives the same bytes (and a push of an unchanged dataset changes nothing).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from datasets import Features
from datasets.info import DatasetInfo, DatasetInfosDict
from datasets.splits import SplitDict, SplitInfo
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCard, DatasetCardData

from gui_agent.episode.format import FORMAT_VERSION, EpisodeMeta
from gui_agent.export.features import SCRUB_KINDS
from gui_agent.export.layout import (
    EPISODES,
    EXPORT_FORMAT_VERSION,
    GROUNDING,
    OUTCOMES,
    PREFERENCES,
    REWARD,
    SFT,
    STEPS,
    split_glob,
)
from gui_agent.export.shards import SplitResult

CONFIG_DESCRIPTIONS = {
    STEPS: "one row per step: the screenshot before it (`image`), the action as structured fields "
    "(`action`) and as text (`action_text`), the instruction, thought, target, reward and episode id; "
    "`mistake` is true where a reviewer marked the step a mistake (their note is `note` in `info`), "
    "so `ds.filter(lambda row: not row[\"mistake\"])` keeps the steps worth imitating",
    EPISODES: "one row per episode: task, environment, who acted, outcome, labels, step count and "
    "the screen after the last step (`final_image`)",
    SFT: "chat rows for supervised fine-tuning of vision-language models (`images` + `messages`: "
    "system prompt with the action space, user turn with the task and screenshot, assistant turn "
    "with `Thought:`/`Action:`)",
    REWARD: "step-level reward-model samples (`gui-agent make-reward-data`): the screenshot before the step, "
    "the action judged, `label` (progress / neutral / harmful) and `reward` (1.0 / 0.5 / 0.0)",
    OUTCOMES: "outcome-level samples: one executed trajectory (a replay or a simulated variant), whether the "
    "task's evaluator accepted it (`success`, `reward`) and the screen after its last step (`final_image`)",
    PREFERENCES: "preference pairs of one task: the better (`chosen_episode_id`) and the worse "
    "(`rejected_episode_id`) executed trajectory, their rewards and why",
    GROUNDING: "GUI grounding rows in ScreenSpot's field names: the screenshot (`image`), an `instruction` "
    "(a step's own, or the action on its target element, for `source` = `step`; the element's role and name "
    "for `source` = `element`, every visible usable element of the keyframe's accessibility tree), the "
    "element's box `bbox` = [x1, y1, x2, y2] and a `point` inside it, in pixels of the image (`bbox_norm`, "
    "`point_norm`: the same in 0..1); `data_type` is the element's role, `data_source` the environment and app",
}

JSON_COLUMNS = "`target`, `timings`, `info` (steps), `detail`, `labels`, `video_timestamps` (episodes), `detail` (reward)"


@dataclass
class Summary:
    """What the card says about the content, gathered while the export streams."""

    license: str = "unknown"
    scrub: bool = True
    episodes: Counter[str] = field(default_factory=Counter)  # per split
    steps: Counter[str] = field(default_factory=Counter)  # per split
    tasks: Counter[str] = field(default_factory=Counter)
    apps: Counter[str] = field(default_factory=Counter)
    screens: Counter[str] = field(default_factory=Counter)
    annotators: Counter[str] = field(default_factory=Counter)
    policies: Counter[str] = field(default_factory=Counter)
    successes: int = 0
    judged: int = 0
    scrubbed: Counter[str] = field(default_factory=Counter)
    skipped_episodes: int = 0
    sft_skipped: Counter[str] = field(default_factory=Counter)
    #: Grounding rows by source (``step``, ``element``), and why candidates gave none.
    grounding_rows: Counter[str] = field(default_factory=Counter)
    grounding_skipped: Counter[str] = field(default_factory=Counter)
    reward_samples: int = 0
    videos: int = 0  # episodes exported with their screen.mp4 (--video)
    videos_left_out: int = 0  # screen.mp4 files that did not decode (their episodes exported without)
    station_accepted: int = 0  # episodes of annotation-station DATASETs a reviewer accepted
    station_unreviewed: int = 0  # and ones no reviewer decided on (--include-unreviewed)

    def add_episode(self, meta: EpisodeMeta, split: str, steps: int) -> None:
        self.episodes[split] += 1
        self.steps[split] += steps
        self.tasks[meta.task.id] += 1
        self.apps[meta.env.app or meta.env.kind] += 1
        self.screens[f"{meta.env.screen.width}x{meta.env.screen.height}"] += 1
        (self.annotators if meta.actor.type == "human" else self.policies)[meta.actor.name] += 1
        if meta.outcome is not None and meta.outcome.success is not None:
            self.judged += 1
            self.successes += int(meta.outcome.success)


def _top(counter: Counter[str], limit: int = 20) -> str:
    if not counter:
        return "none"
    items = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ", ".join(f"`{name}` ({count})" for name, count in items[:limit])
    return shown + (f", and {len(items) - limit} more" if len(items) > limit else "")


def _size_category(n: int) -> str:
    bounds = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")]
    for bound, name in bounds:
        if n < bound:
            return name
    return "1M<n<10M"


def render_card(
    *,
    configs: list[str],
    features: dict[str, Features],
    results: dict[str, dict[str, SplitResult]],
    splits: list[str],
    summary: Summary,
    pretty_name: str | None = None,
) -> str:
    """The whole README.md text.

    Only configs and splits that hold rows are declared: ``datasets`` cannot load an empty
    split (an export of one episode into train/test has one of them empty).
    """
    present = {c: [s for s in splits if results[c][s].num_rows] for c in configs}
    configs = [c for c in configs if present[c]]
    total_rows = sum(r.num_rows for r in results[configs[0]].values())
    data = DatasetCardData(
        license=summary.license,
        pretty_name=pretty_name,
        tags=["gui-agent", "computer-use", "trajectories", "screenshots"],
        task_categories=["image-text-to-text"],
        size_categories=[_size_category(total_rows)],
    )
    MetadataConfigs(
        {
            config: {
                "data_files": [{"split": split, "path": split_glob(config, split)} for split in present[config]],
                **({"default": True} if index == 0 else {}),
            }
            for index, config in enumerate(configs)
        }
    ).to_dataset_card_data(data)
    infos = {}
    for config in configs:
        split_dict = SplitDict()
        for split in present[config]:
            result = results[config][split]
            split_dict.add(SplitInfo(name=split, num_bytes=result.num_bytes, num_examples=result.num_rows))
        download = sum(r.download_size for r in results[config].values())
        infos[config] = DatasetInfo(
            features=features[config],
            splits=split_dict,
            download_size=download,
            dataset_size=sum(r.num_bytes for r in results[config].values()),
        )
    DatasetInfosDict(infos).to_dataset_card_data(data)
    body = _body(configs=configs, results=results, splits=splits, summary=summary, pretty_name=pretty_name)
    return str(DatasetCard(f"---\n{data.to_yaml()}\n---\n{body}"))


def _body(
    *, configs: list[str], results: dict[str, dict[str, SplitResult]], splits: list[str], summary: Summary, pretty_name: str | None
) -> str:
    lines = [f"# {pretty_name or 'GUI-agent trajectories'}", ""]
    first_split = next(s for s in splits if results[configs[0]][s].num_rows)
    intro = (
        "Trajectories of GUI (computer-use) agents and people at real screens, exported by "
        f"gui-agent's `export` (trajectory format v{FORMAT_VERSION}, export format "
        f"v{EXPORT_FORMAT_VERSION}). Screenshots are embedded image files (PNG or lossless WebP), byte for byte as recorded."
    )
    lines += [
        intro,
        "",
        "## Summary",
        "",
        "| | |",
        "|---|---|",
    ]
    n_episodes = sum(summary.episodes.values())
    n_steps = sum(summary.steps.values())
    rate = f"{summary.successes / summary.judged:.1%} ({summary.successes} of {summary.judged} judged)" if summary.judged else "not judged"
    per_split = ", ".join(f"{s}: {summary.episodes[s]} episodes / {summary.steps[s]} steps" for s in splits)
    scrub = (
        "typed text scrubbed of " + ", ".join(f"{k} ({summary.scrubbed[k]})" for k in SCRUB_KINDS)
        if summary.scrub
        else "not scrubbed (exported with `--no-scrub`)"
    )
    rows = [
        ("episodes", str(n_episodes)),
        ("steps", str(n_steps)),
        ("splits", per_split),
        ("success rate", rate),
        ("tasks", f"{len(summary.tasks)}: {_top(summary.tasks)}"),
        ("apps", _top(summary.apps)),
        ("screen sizes", _top(summary.screens)),
        ("annotators (people)", _top(summary.annotators)),
        ("policies", _top(summary.policies)),
        ("licence", f"`{summary.license}`" + (" (not set; pass `--license` when exporting)" if summary.license == "unknown" else "")),
        ("privacy", scrub),
    ]
    if summary.reward_samples:
        rows.append(("reward samples", str(summary.reward_samples)))
    if summary.station_accepted or summary.station_unreviewed:
        unreviewed = (f", and {summary.station_unreviewed} not reviewed (exported with `--include-unreviewed`)"
                      if summary.station_unreviewed else "")
        rows.append(("review", f"{summary.station_accepted} episode(s) of the annotation station accepted by a reviewer"
                     f"{unreviewed}; rejected ones left out"))
    if summary.skipped_episodes:
        rows.append(("left out", f"{summary.skipped_episodes} corrupt or unfinished episode(s)"))
    if summary.sft_skipped:
        rows.append(("sft steps left out", _top(summary.sft_skipped, limit=10)))
    if summary.grounding_rows:
        rows.append(("grounding rows", _top(summary.grounding_rows)))
    if summary.grounding_skipped:
        rows.append(("grounding candidates left out", _top(summary.grounding_skipped, limit=10)))
    if summary.videos or summary.videos_left_out:
        left_out = f"; {summary.videos_left_out} undecodable left out" if summary.videos_left_out else ""
        rows.append(("screen video", f"{summary.videos} episode(s) with `video` (H.264 MP4, `datasets.Video`){left_out}"))
    lines += [f"| {k} | {v} |" for k, v in rows]
    lines += ["", "## Configs", ""]
    for config in configs:
        sizes = ", ".join(f"{split} {results[config][split].num_rows}" for split in splits if results[config][split].num_rows)
        lines.append(f"- `{config}` ({sizes} rows): {CONFIG_DESCRIPTIONS[config]}.")
    lines += [
        "",
        f"Columns holding JSON text: {JSON_COLUMNS}.",
        "",
        "## Use",
        "",
        "```python",
        "from datasets import load_dataset",
        "",
        f'ds = load_dataset("PATH_OR_REPO_ID", "{configs[0]}", split="{first_split}")',
        "```",
        "",
        "Back to episode folders (frames and actions bit-exact): `gui-agent import PATH_OR_REPO_ID --out episodes/`.",
        "",
    ]
    return "\n".join(lines)
