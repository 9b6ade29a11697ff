"""What a run starts from (``--from``): a pixel checkpoint, or ``hf:PATH`` -- a VLM, trained with LoRA.

The one place that tells the two apart; the learner, the workers and ``run.json`` ask here.
"""

from __future__ import annotations

from pathlib import Path

#: What ``--from`` starts with for a VLM instead of a pixel checkpoint.
VLM_PREFIX = "hf:"


def is_vlm_start(start: str | Path | None) -> bool:
    return isinstance(start, str) and start.startswith(VLM_PREFIX)


def vlm_start(start: str) -> str:
    """``hf:PATH[?options]`` with a local PATH made absolute (a resumed run finds it from anywhere)."""
    argument = start[len(VLM_PREFIX):]
    source, sep, options = argument.partition("?")
    if Path(source).expanduser().exists():
        source = str(Path(source).expanduser().resolve())
    return f"{VLM_PREFIX}{source}{sep}{options}"
