"""``export_dataset``: episode folders -> a hub dataset folder, streaming, in bounded memory.

Two passes over the inputs. The first reads only each episode's ``episode.json`` (to skip
the unusable ones, keep only what reviewers accepted in a station's DATASET, stop on one id
meaning two different episodes, and assign splits, which needs every episode's id and
task) and runs before the output folder is touched; the second
reads one episode at a time, checks its frames, and streams its rows into the Parquet
writers of its split. Nothing grows with the number of episodes but a list of ids and the
card's counters.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from datasets import Features

from gui_agent.action_formats import FORMATS, format_names
from gui_agent.actions import action_from_dict, action_to_text
from gui_agent.episode import Episode, EpisodeMeta
from gui_agent.errors import ExportError, NothingExportedError
from gui_agent.export import reward as reward_mod
from gui_agent.export.card import Summary, render_card
from gui_agent.export.features import config_features
from gui_agent.export.layout import (
    CARD_FILE,
    DATA_DIR,
    EPISODES,
    FORMAT_CONFIGS,
    GROUNDING,
    OUTCOMES,
    PENDING_PUSH_FILE,
    PREFERENCES,
    REWARD,
    SFT,
    STEPS,
)
from gui_agent.export.rows import (
    action_from_row,
    action_row,
    episode_row,
    image_cell,
    scrub_action,
    step_row,
    to_json,
)
from gui_agent.export.scrub import Scrubber
from gui_agent.export.sft import SftEpisode, SftOptions
from gui_agent.export.shards import (
    DEFAULT_ROW_GROUP_BYTES,
    DEFAULT_ROW_GROUP_ROWS,
    DEFAULT_SHARD_BYTES,
    ShardWriter,
    SplitResult,
)
from gui_agent.export.sources import (
    Skipped,
    find_episodes,
    load_episode,
    scan_metas,
)
from gui_agent.export.splits import SplitSpec, assign_splits
from gui_agent.export.stations import StationTally, review_decision

#: Called as episodes finish: (episodes done, episodes to do, steps written so far).
ProgressCallback = Callable[[int, int, int], None]


@dataclass(frozen=True)
class ExportOptions:
    """Everything ``gui-agent export`` can be told.

    Attributes:
        formats: which of ``steps``, ``sft``, ``reward`` to write (see
            :data:`~gui_agent.export.layout.FORMAT_CONFIGS` for the configs each brings).
        split: the splits and how episodes are assigned to them.
        scrub: scrub typed text (and every other free text) of emails, phones, cards, secrets.
        secrets: exact strings always scrubbed (the hub token is added by the CLI).
        license: the card's licence id (e.g. ``apache-2.0``, ``cc-by-4.0``).
        pretty_name: the card's title.
        video: embed ``screen.mp4`` (when an episode has one) as a ``datasets.Video`` column.
        sft: how ``sft`` rows are built.
        overwrite: replace an earlier export in the output folder.
        include_unreviewed: from a station's DATASET, export the episodes no reviewer
            decided on as well as the accepted ones (rejected ones never).
        grounding_elements: ``element`` rows per keyframe in ``grounding`` (a sample, the
            same in every run; 0: all). Each row embeds its screenshot, so all of a
            spreadsheet's ~600 cells would repeat one image ~600 times.
    """

    formats: tuple[str, ...] = ("steps",)
    split: SplitSpec = field(default_factory=SplitSpec)
    scrub: bool = True
    secrets: tuple[str, ...] = ()
    license: str = "unknown"
    pretty_name: str | None = None
    video: bool = False
    sft: SftOptions = field(default_factory=SftOptions)
    overwrite: bool = False
    include_unreviewed: bool = False
    shard_bytes: int = DEFAULT_SHARD_BYTES
    row_group_rows: int = DEFAULT_ROW_GROUP_ROWS
    row_group_bytes: int = DEFAULT_ROW_GROUP_BYTES
    content_defined_chunking: bool = True
    grounding_elements: int = 20

    def configs(self) -> list[str]:
        unknown = [f for f in self.formats if f not in FORMAT_CONFIGS]
        if unknown or not self.formats:
            raise ExportError(f"unknown format(s) {unknown or '(none)'}; expected one or more of {', '.join(FORMAT_CONFIGS)}")
        configs: list[str] = []
        for name in self.formats:
            configs.extend(c for c in FORMAT_CONFIGS[name] if c not in configs)
        if SFT in configs and not FORMATS[self.sft.action_format].sft:
            raise ExportError(f"sft rows are written in {', '.join(format_names(sft=True))}, not {self.sft.action_format!r} "
                              "(a format prompted as its makers prompt their models)")
        return configs


@dataclass
class ExportReport:
    """What an export wrote and what it left out."""

    out: Path
    configs: list[str]
    splits: list[str]
    results: dict[str, dict[str, SplitResult]]
    summary: Summary
    skipped: list[Skipped] = field(default_factory=list)
    skipped_samples: list[str] = field(default_factory=list)
    #: ``"<episode folder>: <why>"`` for each video (or time map) left out of an exported episode.
    video_problems: list[str] = field(default_factory=list)
    #: What each station DATASET among the inputs gave (accepted, rejected, not reviewed).
    stations: list[StationTally] = field(default_factory=list)

    @property
    def episodes(self) -> int:
        return sum(self.summary.episodes.values())

    @property
    def steps(self) -> int:
        return sum(self.summary.steps.values())

    @property
    def bytes_written(self) -> int:
        return sum(r.download_size for per_split in self.results.values() for r in per_split.values()) + (
            self.out / CARD_FILE
        ).stat().st_size


def _prepare_out(out: Path, overwrite: bool) -> None:
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out}: exists and is not a folder")
    if not out.exists():
        out.mkdir(parents=True)
        return
    entries = {p.name for p in out.iterdir()}
    if not entries:
        return
    ours = {CARD_FILE, DATA_DIR, ".cache", PENDING_PUSH_FILE}
    if entries - ours:
        raise ExportError(f"{out}: not empty and not an earlier export ({', '.join(sorted(entries - ours)[:5])}); choose an empty folder")
    if not overwrite:
        raise ExportError(f"{out}: already holds an export; pass --overwrite to replace it")
    shutil.rmtree(out / DATA_DIR, ignore_errors=True)
    (out / CARD_FILE).unlink(missing_ok=True)
    (out / PENDING_PUSH_FILE).unlink(missing_ok=True)  # a push left to resume was of the export replaced now


def _read(path: Path) -> bytes:
    return path.read_bytes()


@dataclass
class _Scan:
    """The first pass over the episode inputs: what to export, and what was left out."""

    usable: list[tuple[Path, str, str]]  # (folder, episode id, task id)
    skipped: list[Skipped]  # damaged, unfinished, duplicates: listed one by one
    stations: dict[Path, StationTally]  # station DATASET -> its counts
    station_of: dict[Path, Path]  # episode folder -> its station DATASET
    #: kept station folders whose episode no reviewer decided on (exported with include_unreviewed)
    unreviewed: set[Path]


def _scan_episodes(inputs: Sequence[str | Path], include_unreviewed: bool) -> _Scan:
    """Pass 1, before the output folder is touched: every input's ``episode.json``.

    Raises:
        ExportError: a missing input, a folder holding no episode, one id for two different
            episodes where a station DATASET is involved.
    """
    found = find_episodes(inputs)
    scan = _Scan(usable=[], skipped=[], stations={}, station_of=found.stations, unreviewed=set())
    for dataset in found.stations.values():
        scan.stations.setdefault(dataset, StationTally(dataset, include_unreviewed=include_unreviewed))
    for path, meta in scan_metas(found.dirs, stations=found.stations, include_unreviewed=include_unreviewed):
        tally = scan.stations.get(found.stations.get(path))  # type: ignore[arg-type]
        if isinstance(meta, Skipped):
            if tally is not None:
                if meta.kind == "rejected":
                    tally.rejected += 1
                elif meta.kind == "unreviewed":
                    tally.unreviewed += 1
                elif meta.kind == "copy":
                    tally.copies += 1
                else:
                    tally.damaged += 1
            if meta.kind == "damaged":
                scan.skipped.append(meta)
            continue
        scan.usable.append((path, meta.episode_id, meta.task.id))
        if tally is not None and review_decision(meta) == "unreviewed":
            scan.unreviewed.add(path)
    return scan


class _Exporter:
    def __init__(self, out: Path, options: ExportOptions, on_progress: ProgressCallback | None):
        self.out = out
        self.options = options
        self.on_progress = on_progress
        self.configs = options.configs()
        self.splits = options.split.names
        self.features: dict[str, Features] = {c: config_features(c, video=options.video) for c in self.configs}
        self.scrubber = Scrubber(options.secrets, enabled=options.scrub)
        self.summary = Summary(license=options.license, scrub=options.scrub)
        self.skipped: list[Skipped] = []
        self.skipped_samples: list[str] = []
        self.video_problems: list[str] = []
        self.writers: dict[str, dict[str, ShardWriter]] = {
            config: {
                split: ShardWriter(
                    out,
                    config,
                    split,
                    self.features[config],
                    shard_bytes=options.shard_bytes,
                    row_group_rows=options.row_group_rows,
                    row_group_bytes=options.row_group_bytes,
                    content_defined_chunking=options.content_defined_chunking,
                )
                for split in self.splits
            }
            for config in self.configs
        }
        self.steps_done = 0
        self.stations: dict[Path, StationTally] = {}
        #: episode id -> split, shared by every config so an episode is in one split only.
        self.assignment: dict[str, str] = {}

    # -- episodes (steps, episodes, sft) -------------------------------------------------
    def export_episodes(self, scan: _Scan) -> None:
        usable = scan.usable
        self.skipped.extend(scan.skipped)
        self.stations = scan.stations
        assignment = assign_splits([(episode_id, task_id) for _, episode_id, task_id in usable], self.options.split)
        self.assignment.update(assignment)
        total = len(usable)
        for done, (path, episode_id, _) in enumerate(usable, start=1):
            episode = load_episode(path)
            exported = False
            if isinstance(episode, Skipped):
                self.skipped.append(episode)
            elif episode.meta.episode_id != episode_id:  # changed on disk since pass 1
                self.skipped.append(Skipped(path, f"episode id changed during the export ({episode_id} -> {episode.meta.episode_id})"))
            else:
                self._episode(episode, assignment[episode_id])
                exported = True
            tally = scan.stations.get(scan.station_of.get(path))  # type: ignore[arg-type]
            if tally is not None:
                tally.count(exported=exported, reviewed=path not in scan.unreviewed)
            if self.on_progress is not None:
                self.on_progress(done, total, self.steps_done)
        self.summary.skipped_episodes = len(self.skipped)
        self.summary.station_accepted = sum(t.accepted for t in self.stations.values())
        self.summary.station_unreviewed = sum(t.unreviewed_exported for t in self.stations.values())

    def _episode(self, episode: Episode, split: str) -> None:
        meta = episode.meta
        scrubber = self.scrubber
        scrubber.take_counts()
        instruction = scrubber.text(meta.task.instruction)
        steps_writer = self.writers.get(STEPS, {}).get(split)
        sft_writer = self.writers.get(SFT, {}).get(split)
        sft = SftEpisode(meta, instruction, self.options.sft) if sft_writer is not None else None
        grounding_writer = self.writers.get(GROUNDING, {}).get(split)
        grounding = None
        if grounding_writer is not None:
            from gui_agent.export.grounding import GroundingEpisode

            grounding = GroundingEpisode(meta, episode.path, instruction, scrubber.text,
                                         elements=self.options.grounding_elements)
        for step in episode.steps:
            image = image_cell(_read(episode.path / step.frame_before), step.frame_before) if step.frame_before else None
            after = image_cell(_read(episode.path / step.frame_after), step.frame_after) if step.frame_after else None
            row = step_row(meta, step, instruction=instruction, image=image, image_after=after, scrubber=scrubber)
            if steps_writer is not None:
                steps_writer.add(row)
            if sft is not None and sft_writer is not None:
                action = action_from_row(row["action"])
                for sft_row in sft.add(step.index, action, row["thought"], image, mistake=row["mistake"]):
                    sft_writer.add(sft_row)
            if grounding is not None and grounding_writer is not None:
                for grounding_row in grounding.rows(step, image):
                    grounding_writer.add(grounding_row)
                    self.summary.grounding_rows[grounding_row["source"]] += 1
            self.steps_done += 1
        if sft is not None:
            self.summary.sft_skipped.update(sft.skipped)
        if grounding is not None:
            self.summary.grounding_skipped.update(grounding.skipped)
        if EPISODES in self.writers:
            final = image_cell(_read(episode.path / episode.final_frame), episode.final_frame) if episode.final_frame else None
            video = self._video(episode) if self.options.video else None
            row = episode_row(meta, instruction=instruction, final_image=final, scrubbed=None, scrubber=scrubber, video=video)
            # Every text of the episode has been through the scrubber now, detail and labels included.
            row["scrubbed"] = scrubber.take_counts() if self.options.scrub else None
            self.writers[EPISODES][split].add(row)
            self.summary.scrubbed.update(row["scrubbed"] or {})
        else:
            self.summary.scrubbed.update(scrubber.take_counts())
        self.summary.add_episode(meta, split, len(episode.steps))

    def _video(self, episode: Episode) -> dict[str, Any]:
        from gui_agent.export.video import video_cells

        cells = video_cells(episode.path)
        if cells.problem is not None:
            self.video_problems.append(f"{episode.path}: {cells.problem}")
        self.summary.videos += cells.video is not None
        self.summary.videos_left_out += cells.problem is not None and cells.video is None
        return cells.cells()

    # -- reward samples -----------------------------------------------------------------
    def export_rewards(self, inputs: Sequence[str | Path]) -> None:
        files = reward_mod.find_reward_files(inputs)
        if not files:
            raise reward_mod.no_reward_data_error(inputs)
        samples: list[tuple[Path, int, reward_mod.RewardSample]] = []
        for file in files:
            for number, sample in reward_mod.read_samples(file):
                if isinstance(sample, str):
                    self.skipped_samples.append(f"{file}:{number}: {sample}")
                else:
                    samples.append((file, number, sample))
        outcomes = self._read_siblings(files, reward_mod.OUTCOMES_FILE, reward_mod.OutcomeSample)
        pairs = self._read_siblings(files, reward_mod.PREFERENCES_FILE, reward_mod.PreferencePair)
        metas: dict[Path, EpisodeMeta | Skipped] = {}
        referenced_dirs = [(file.parent / s.episode) for file, _, s in samples] + [(file.parent / o.episode) for file, _, o in outcomes]
        referenced_dirs += [(file.parent / p.chosen) for file, _, p in pairs]
        for raw in referenced_dirs:
            folder = raw.resolve()
            if folder not in metas:
                metas[folder] = next(iter(scan_metas([folder])))[1]
        referenced = sorted({(m.episode_id, m.task.id) for m in metas.values() if isinstance(m, EpisodeMeta)})
        new = [pair for pair in referenced if pair[0] not in self.assignment]
        assignment = {**assign_splits(new, self.options.split), **self.assignment}
        writer = self.writers[REWARD]
        cached: tuple[Path, Episode | Skipped] | None = None
        for done, (file, number, sample) in enumerate(samples, start=1):
            folder = (file.parent / sample.episode).resolve()
            if cached is None or cached[0] != folder:
                cached = (folder, load_episode(folder))
            episode = cached[1]
            if isinstance(episode, Skipped):
                self.skipped_samples.append(f"{file}:{number}: episode {sample.episode}: {episode.reason}")
                continue
            if sample.step_index >= len(episode.steps):
                self.skipped_samples.append(
                    f"{file}:{number}: step {sample.step_index} is past the episode's {len(episode.steps)} steps"
                )
                continue
            step = episode.steps[sample.step_index]
            action = scrub_action(sample.action, self.scrubber)
            writer[assignment[episode.meta.episode_id]].add(
                {
                    "sample_id": sample.sample_id,
                    "episode_id": episode.meta.episode_id,
                    "step_index": sample.step_index,
                    "task_id": episode.meta.task.id,
                    "instruction": self.scrubber.text(episode.meta.task.instruction),
                    "image": image_cell(_read(folder / step.frame_before), step.frame_before) if step.frame_before else None,
                    "action": action_row(action),
                    "action_text": action_to_text(action_from_dict(action)),
                    "reward": sample.reward,
                    "label": sample.label,
                    "perturbation": sample.perturbation,
                    "source": sample.source,
                    "group": sample.group,
                    "detail": to_json(self.scrubber.value(sample.detail)),
                }
            )
            self.summary.reward_samples += 1
            if self.on_progress is not None and done % 100 == 0:
                self.on_progress(done, len(samples), self.steps_done)
        self._export_outcomes(outcomes, assignment)
        self._export_preferences(pairs, metas, assignment)
        self.summary.scrubbed.update(self.scrubber.take_counts())

    def _read_siblings(self, reward_files: list[Path], name: str, model: type) -> list[tuple[Path, int, Any]]:
        """Records of the ``outcomes.jsonl`` / ``preferences.jsonl`` next to each ``reward.jsonl``."""
        found: list[tuple[Path, int, Any]] = []
        for reward_file in reward_files:
            file = reward_file.parent / name
            if not file.is_file():
                continue
            for number, record in reward_mod.read_records(file, model):
                if isinstance(record, str):
                    self.skipped_samples.append(f"{file}:{number}: {record}")
                else:
                    found.append((file, number, record))
        return found

    def _export_outcomes(self, outcomes: list[tuple[Path, int, Any]], assignment: dict[str, str]) -> None:
        for file, number, outcome in outcomes:
            folder = (file.parent / outcome.episode).resolve()
            episode = load_episode(folder)
            if isinstance(episode, Skipped):
                self.skipped_samples.append(f"{file}:{number}: episode {outcome.episode}: {episode.reason}")
                continue
            final = episode.final_frame
            self.writers[OUTCOMES][assignment[episode.meta.episode_id]].add(
                {
                    "sample_id": outcome.sample_id,
                    "episode_id": episode.meta.episode_id,
                    "task_id": outcome.task_id,
                    "instruction": self.scrubber.text(outcome.instruction),
                    "success": outcome.success,
                    "reward": outcome.reward,
                    "steps": len(episode.steps),
                    "final_image": image_cell(_read(folder / final), final) if final else None,
                    "perturbation": outcome.perturbation,
                    "source": outcome.source,
                    "group": outcome.group,
                    "detail": to_json(self.scrubber.value(outcome.detail)),
                }
            )

    def _export_preferences(self, pairs: list[tuple[Path, int, Any]], metas: dict[Path, EpisodeMeta | Skipped], assignment: dict[str, str]) -> None:
        """A pair goes to the split of its chosen episode."""
        for file, number, pair in pairs:
            chosen = metas.get((file.parent / pair.chosen).resolve())
            rejected = next(iter(scan_metas([(file.parent / pair.rejected).resolve()])))[1]
            bad = next((m for m in (chosen, rejected) if not isinstance(m, EpisodeMeta)), None)
            if bad is not None or chosen is None:
                reason = bad.reason if isinstance(bad, Skipped) else "not found"
                self.skipped_samples.append(f"{file}:{number}: an episode of the pair is unusable: {reason}")
                continue
            self.writers[PREFERENCES][assignment[chosen.episode_id]].add(
                {
                    "pair_id": pair.pair_id,
                    "task_id": pair.task_id,
                    "instruction": self.scrubber.text(pair.instruction),
                    "chosen_episode_id": chosen.episode_id,
                    "rejected_episode_id": rejected.episode_id,  # type: ignore[union-attr]
                    "chosen_reward": pair.chosen_reward,
                    "rejected_reward": pair.rejected_reward,
                    "reason": pair.reason,
                }
            )

    # -- finishing ----------------------------------------------------------------------
    def finish(self) -> dict[str, dict[str, SplitResult]]:
        results = {config: {split: w.close() for split, w in per.items()} for config, per in self.writers.items()}
        if not any(r.num_rows for per in results.values() for r in per.values()):
            stations = [t.nothing_chosen() for t in self.stations.values() if not t.exported]
            reasons = "; ".join(stations + [f"{s.path}: {s.reason}" for s in self.skipped[:3]]) or "no steps, episodes or samples"
            more = f" (and {len(self.skipped) - 3} more)" if len(self.skipped) > 3 else ""
            raise NothingExportedError(f"nothing could be exported: {reasons}{more}")
        card = render_card(
            configs=self.configs,
            features=self.features,
            results=results,
            splits=self.splits,
            summary=self.summary,
            pretty_name=self.options.pretty_name,
        )
        tmp = self.out / (CARD_FILE + ".tmp")
        tmp.write_text(card, encoding="utf-8")
        tmp.replace(self.out / CARD_FILE)
        return results

    def abort(self) -> None:
        for per in self.writers.values():
            for writer in per.values():
                writer.abort()


def export_dataset(
    episodes: Sequence[str | Path],
    out: str | Path,
    options: ExportOptions = ExportOptions(),
    *,
    on_progress: ProgressCallback | None = None,
) -> ExportReport:
    """Export episode folders (or folders of them) as a hub dataset in ``out``.

    Corrupt, unfinished and duplicate episodes are skipped and listed in the report; the
    export itself fails only on bad options, an unusable output folder, or no input. From a
    station's DATASET (a folder holding ``station.json``, given or found below a given
    folder) only the episodes a reviewer accepted are exported (and, with
    ``options.include_unreviewed``, the ones not reviewed); the report counts the rest.

    Raises:
        ExportError: bad options, a missing input, an output folder that is in use, one
            episode id for two different episodes where a station DATASET is involved.
    """
    out = Path(out)
    configs = options.configs()
    if not episodes:
        raise ExportError("no episodes given; name episode folders or folders that hold them")
    if options.video and EPISODES in configs:
        from gui_agent.export.video import require_video_decoder

        require_video_decoder()
    if REWARD in configs:
        if not reward_mod.find_reward_files(episodes):
            raise reward_mod.no_reward_data_error(episodes)
    # Pass 1 fails on bad inputs before the output folder is touched.
    scan = _scan_episodes(episodes, options.include_unreviewed) if any(c in configs for c in (STEPS, EPISODES, SFT, GROUNDING)) else None
    _prepare_out(out, options.overwrite)
    exporter = _Exporter(out, options, on_progress)
    try:
        if scan is not None:
            exporter.export_episodes(scan)
        if REWARD in configs:
            exporter.export_rewards(episodes)
        results = exporter.finish()
    except BaseException:
        exporter.abort()
        raise
    return ExportReport(
        out=out,
        configs=exporter.configs,
        splits=exporter.splits,
        results=results,
        summary=exporter.summary,
        skipped=exporter.skipped,
        skipped_samples=exporter.skipped_samples,
        video_problems=exporter.video_problems,
        stations=list(exporter.stations.values()),
    )
