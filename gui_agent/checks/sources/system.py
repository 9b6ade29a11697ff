"""Sources read from the desktop session itself: a command's output, a file's text."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field, PositiveFloat

from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.sources.base import SourceType
from gui_agent.schema import NonBlank, SingleKey, StrictModel


class CommandOutputArgs(StrictModel):
    """What ``command`` prints on the desktop (its standard output, or its error output
    with ``stream: stderr``), stripped of surrounding blanks unless ``strip: false``."""

    command: list[NonBlank] = Field(min_length=1)
    stream: str = Field(default="stdout", pattern="^(stdout|stderr)$")
    strip: bool = True
    timeout_s: PositiveFloat = 30.0


class FileTextArgs(StrictModel):
    """The text of the home-relative file ``path``."""

    path: NonBlank


class CommandOutputSource(SingleKey):
    name: ClassVar[str] = "command_output"
    command_output: CommandOutputArgs


class FileTextSource(SingleKey):
    name: ClassVar[str] = "file_text"
    file_text: FileTextArgs


def _command_output(args: CommandOutputArgs, probe: DesktopProbe) -> str:
    done = probe.run_command(args.command, timeout_s=args.timeout_s)
    text = done.stdout if args.stream == "stdout" else done.stderr
    return text.strip() if args.strip else text


def _file_text(args: FileTextArgs, probe: DesktopProbe) -> str:
    return probe.resolve_path(args.path).read_text(errors="replace")


SOURCES: tuple[SourceType, ...] = (
    SourceType(CommandOutputSource, _command_output),
    SourceType(FileTextSource, _file_text),
)
