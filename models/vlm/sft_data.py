"""Training rows for VLM fine-tuning, from episode folders or a ``--format sft`` export.

Both sources yield the very rows :class:`gui_agent.export.sft.SftEpisode` builds -- the
builder the policy prompts with at inference -- so what a model learns to answer is
exactly what it will be asked. From episodes the rows are built here (no scrubbing: the
policy sees the real instruction); from an export they are read from its Parquet shards
(``data/sft/<split>-*.parquet``), and the export's reply format is recognised from its
system prompt.

:func:`encode_row` turns a row into model inputs with the loss on the assistant turn only:
the prompt is processed exactly as :func:`gui_agent.models.vlm.generation.prepare_inputs` does at
inference, and the reply (plus the family's end-of-turn token) is tokenized on its own and
appended, so the tokens the model learns to emit are the tokens generation produces.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gui_agent.action_formats import FORMATS, SmartResize, format_names
from gui_agent.errors import ModelError
from gui_agent.export.layout import SFT, SPLIT_GLOB
from gui_agent.export.sft import SftEpisode, SftOptions
from gui_agent.models.vlm.generation import prepare_inputs
from gui_agent.models.vlm.loading import LoadedVlm


@dataclass
class SftData:
    """Chat rows and what they were built with.

    Attributes:
        rows: ``{"images": [...], "messages": [system, user, assistant], ...}`` rows.
        action_format: the reply format of every row.
        images: most screenshots in one prompt.
        history: most previous actions listed in one prompt (for an export, the most seen).
        skipped: steps left out, by reason.
    """

    rows: list[dict[str, Any]]
    action_format: str
    images: int
    history: int
    skipped: Counter[str] = field(default_factory=Counter)


def is_sft_export(path: Path) -> bool:
    """True for a folder written by ``gui-agent export --format sft``."""
    return (path / "data" / SFT).is_dir()


def rows_from_episodes(paths: Sequence[str | Path], options: SftOptions) -> SftData:
    """Rows of every usable episode under ``paths``. Failed episodes (``success: false``) and
    damaged ones are left out and counted; episodes nobody judged are kept, except inside an
    annotation station's DATASET, where only what a reviewer accepted is used (as
    ``gui-agent export`` publishes)."""
    from gui_agent.errors import ExportError
    from gui_agent.export.rows import is_mistake
    from gui_agent.export.sources import Skipped, find_episodes, load_episode, scan_metas

    try:
        found = find_episodes(paths)
    except ExportError as exc:
        raise ModelError(str(exc)) from None
    data = SftData(rows=[], action_format=options.action_format, images=options.images, history=options.history)
    for path, meta in scan_metas(found.dirs, stations=found.stations):
        if isinstance(meta, Skipped):
            data.skipped[f"episode skipped: {meta.reason}"] += 1
            continue
        if meta.outcome is not None and meta.outcome.success is False:
            data.skipped["failed episode (a demonstration of what not to do)"] += 1
            continue
        episode = load_episode(path)
        if isinstance(episode, Skipped):
            data.skipped[f"episode skipped: {episode.reason}"] += 1
            continue
        builder = SftEpisode(episode.meta, episode.meta.task.instruction, options)
        for step in episode.steps:
            image = {"bytes": (path / step.frame_before).read_bytes(), "path": step.frame_before} if step.frame_before else None
            data.rows.extend(builder.add(step.index, step.action, step.thought, image, mistake=is_mistake(step.info)))
        data.skipped.update(builder.skipped)
    return data


def rows_from_export(path: Path, *, declared_format: str | None = None, split: str = "train") -> SftData:
    """Rows of an export's ``sft`` config, split ``split``.

    The format is read from the rows' system prompt; formats that share one (UI-TARS v1 and
    1.5) differ only in coordinates, so for them ``declared_format`` (``--format``) must say which.
    """
    import pyarrow.parquet as pq

    shards = sorted(path.glob(SPLIT_GLOB.format(config=SFT, split=split)))
    if not shards:
        found = sorted({p.name.split("-")[0] for p in (path / "data" / SFT).glob("*.parquet")})
        raise ModelError(f"{path}: the sft export has no {split!r} split (found: {', '.join(found) or 'none'})")
    rows: list[dict[str, Any]] = []
    for shard in shards:
        rows.extend(pq.read_table(shard, columns=["images", "messages"]).to_pylist())
    if not rows:
        raise ModelError(f"{path}: the sft export's {split!r} split has no rows")
    prompts = _SftPrompts()
    kinds = {prompts.formats_of(row, path) for row in rows}
    if len(kinds) > 1:
        raise ModelError(f"{path}: rows in several reply formats ({', '.join(sorted(' or '.join(k) for k in kinds))}); "
                         "export one format")
    candidates = kinds.pop()
    if declared_format is not None and declared_format not in candidates:
        form = FORMATS[candidates[0]].family if len(candidates) > 1 else repr(candidates[0])
        raise ModelError(f"{path}: the export's rows are in {form} form, not {declared_format!r}")
    if declared_format is None and len(candidates) > 1:
        raise ModelError(f"{path}: {FORMATS[candidates[0]].family} rows; their prompt is that of {', '.join(candidates)}, "
                         f"which differ in coordinates only: pass {' or '.join(f'--format {name}' for name in candidates)}, "
                         "as exported")
    kind = declared_format or candidates[0]
    history = max(_listed_actions(row) for row in rows)
    return SftData(rows=rows, action_format=kind, images=max(len(row["images"]) for row in rows),
                   history=history)


class _SftPrompts:
    """Which SFT formats a row's system prompt is, by the screen it shows (prompts per size, kept)."""

    def __init__(self) -> None:
        self._by_size: dict[tuple[int, int], dict[str, tuple[str, ...]]] = {}

    def formats_of(self, row: dict[str, Any], where: Path) -> tuple[str, ...]:
        """Names of the SFT formats whose system prompt the row's is, in registry order."""
        size = _image_size(row["images"][-1])
        if size not in self._by_size:
            by_prompt: dict[str, tuple[str, ...]] = {}
            for name in format_names(sft=True):
                prompt = FORMATS[name].system_prompt(screen_width=size[0], screen_height=size[1])
                by_prompt[prompt] = (*by_prompt.get(prompt, ()), name)
            self._by_size[size] = by_prompt
        matches = self._by_size[size].get(row["messages"][0]["content"][0]["text"])
        if not matches:
            raise ModelError(f"{where}: a row's system prompt is not one of gui_agent's SFT prompts; "
                             "export with this version of 'gui-agent export --format sft'")
        return matches


def _image_size(image: Any) -> tuple[int, int]:
    """(width, height) of a row's screenshot (an image cell of the export: bytes), read from its header."""
    import io

    from PIL import Image

    with Image.open(io.BytesIO(image["bytes"])) as opened:
        return opened.size


def _listed_actions(row: dict[str, Any]) -> int:
    text = row["messages"][1]["content"][0]["text"]
    if "Previous actions:\n" not in text:
        return 0
    listed = text.split("Previous actions:\n", 1)[1].split("\n\n", 1)[0]
    return len(listed.splitlines())


def load_rows(inputs: Sequence[str | Path], options: SftOptions, *, declared_format: str | None = None) -> SftData:
    """Rows from episode folders (built with ``options``), or from sft export folders
    (``declared_format``: see :func:`rows_from_export`); ``inputs`` all of one kind."""
    paths = [Path(p) for p in inputs]
    exports = [p for p in paths if p.is_dir() and is_sft_export(p)]
    if exports and len(exports) != len(paths):
        raise ModelError("give either episode folders or sft export folders, not both")
    if exports:
        parts = [rows_from_export(p, declared_format=declared_format) for p in exports]
        if len({part.action_format for part in parts}) > 1:
            raise ModelError("the exports use different reply formats; train on one format")
        data = SftData(rows=[r for part in parts for r in part.rows], action_format=parts[0].action_format,
                       images=max(p.images for p in parts), history=max(p.history for p in parts))
    else:
        data = rows_from_episodes(paths, options)
    servable = format_names(sft=True, parses=True)
    if data.action_format not in servable:
        raise ModelError(f"reply format {data.action_format!r} cannot be parsed back at inference; "
                         f"train on one of {', '.join(servable)}")
    if not data.rows:
        reasons = "; ".join(f"{reason} ({n})" for reason, n in data.skipped.most_common(5)) or "no steps"
        raise ModelError(f"no training rows: {reasons}")
    return data


def row_texts(row: dict[str, Any]) -> Iterator[str]:
    """Every text of a row (to train a tiny model's tokenizer on)."""
    for message in row["messages"]:
        for part in message["content"]:
            if part.get("type") == "text" and part.get("text"):
                yield part["text"]


def check_frames(data: SftData, vlm: LoadedVlm) -> None:
    """Rows of a smart_resize format (``uitars``) are written in pixels of smart_resize with
    the format's default bounds; the model must see the same frame, or it learns coordinates
    it will misread later."""
    written_by = FORMATS[data.action_format]
    rule = written_by.image_size
    if not isinstance(rule, SmartResize):
        return
    from gui_agent.models.vlm.generation import to_pil

    low, high = vlm.pixel_bounds()
    seen_by = written_by.with_pixels(min_pixels=low, max_pixels=high)
    sizes = {to_pil(row["images"][-1]).size for row in data.rows}
    for width, height in sorted(sizes):
        written = written_by.image_frame(width, height)
        seen = seen_by.image_frame(width, height)
        if written != seen:
            in_screen_pixels = [name for name in format_names(sft=True, parses=True)
                                if not isinstance(FORMATS[name].image_size, SmartResize)]
            raise ModelError(
                f"{vlm.source}: its processor resizes a {width}x{height} screen to {seen[0]}x{seen[1]}, but the "
                f"{data.action_format!r} rows give coordinates in {written[0]}x{written[1]} (min_pixels={rule.min_pixels}, "
                f"max_pixels={rule.max_pixels}); set those in preprocessor_config.json or train with "
                f"--format {' or '.join(in_screen_pixels)}"
            )


@dataclass
class Encoded:
    """One training example: model inputs with ``labels`` (-100 on the prompt)."""

    inputs: dict[str, Any]
    prompt_tokens: int
    reply_tokens: int


def encode_row(vlm: LoadedVlm, row: dict[str, Any]) -> Encoded:
    """Inputs and labels of one row; the loss falls on the reply and its end-of-turn token."""
    import torch

    messages = row["messages"]
    if messages[-1]["role"] != "assistant":
        raise ModelError("a training row must end with the assistant's turn")
    inputs = prepare_inputs(vlm, messages[:-1], list(row["images"]))
    reply = messages[-1]["content"][0]["text"]
    reply_ids = vlm.tokenizer(vlm.family.reply_prefix + reply + vlm.family.end_of_turn, add_special_tokens=False)["input_ids"]
    prompt_length = int(inputs["input_ids"].shape[1])
    encoded = with_reply(inputs, reply_ids)
    labels = torch.full_like(encoded["input_ids"], -100)
    labels[0, prompt_length:] = encoded["input_ids"][0, prompt_length:]
    encoded["labels"] = labels
    return Encoded(inputs=encoded, prompt_tokens=prompt_length, reply_tokens=len(reply_ids))


def with_reply(inputs: Any, reply_ids: list[int]) -> dict[str, Any]:
    """The prompt's tensors (:func:`prepare_inputs`) with ``reply_ids`` appended: the reply
    attended to, its per-token type ids those of text. RL scores sampled replies with it."""
    import torch

    prompt_length = int(inputs["input_ids"].shape[1])
    tail = torch.tensor([reply_ids], dtype=inputs["input_ids"].dtype, device=inputs["input_ids"].device)
    encoded: dict[str, Any] = {}
    for key, value in inputs.items():
        if isinstance(value, torch.Tensor) and value.dim() == 2 and value.shape == (1, prompt_length):
            if key == "input_ids":
                extra = tail
            elif key == "attention_mask":
                extra = torch.ones_like(tail)
            else:  # per-token type ids: the reply is text
                extra = torch.zeros_like(tail)
            encoded[key] = torch.cat([value, extra], dim=1)
        else:
            encoded[key] = value
    return encoded

