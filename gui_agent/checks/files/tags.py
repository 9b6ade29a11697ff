"""The ``audio_tags`` check: an audio file's tags (title, artist, album ...) satisfy rules
(OSWorld's ``check_mp3_meta``).

OSWorld reads an MP3's ID3 tags through mutagen's ``EasyID3`` names (``title``,
``artist``, ``tracknumber`` ...); here FFmpeg's demuxers read them (through PyAV, already
a dependency), which name some tags differently: :data:`EASY_NAMES` maps the EasyID3
name to FFmpeg's, so task files use OSWorld's names. A tag that is not there is the
empty text, as in OSWorld.
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import ClassVar

from pydantic import Field, field_validator

from gui_agent.checks.family import CheckType
from gui_agent.checks.probes import DesktopProbe
from gui_agent.checks.reports import Report, cut, verdict, written_file
from gui_agent.checks.value_rules import ValueRule, matches
from gui_agent.envs.desktop.paths import HomePath
from gui_agent.schema import SingleKey, StrictModel

#: EasyID3 tag name -> the name FFmpeg gives the same ID3 frame.
EASY_NAMES: MappingProxyType[str, str] = MappingProxyType({
    "title": "title", "artist": "artist", "album": "album", "albumartist": "album_artist",
    "genre": "genre", "date": "date", "tracknumber": "track", "discnumber": "disc",
    "composer": "composer", "copyright": "copyright", "encodedby": "encoded_by",
    "language": "language", "organization": "publisher", "albumsort": "album-sort",
    "artistsort": "artist-sort", "titlesort": "title-sort", "bpm": "TBPM", "lyricist": "TEXT",
    "mood": "TMOO", "media": "TMED", "isrc": "TSRC", "discsubtitle": "TSST", "conductor": "TPE3",
})


def audio_tags(path: Path) -> dict[str, str]:
    """The file's tags as FFmpeg names them (its container's and, for MP3, the ID3 frames').

    Raises:
        ValueError: FFmpeg cannot open it as audio.
    """
    import av

    try:
        with av.open(str(path)) as container:
            return {str(k): str(v) for k, v in container.metadata.items()}
    except av.error.FFmpegError as exc:
        raise ValueError(f"{path.name} is not an audio file FFmpeg reads ({exc})") from None


class AudioTagsArgs(StrictModel):
    """The audio file at ``path`` has tags satisfying every rule of ``expect`` (EasyID3 tag
    name -> rule, e.g. ``title: {method: eq, ref: Missing You}``)."""

    path: HomePath
    expect: dict[str, ValueRule] = Field(min_length=1)

    @field_validator("expect")
    @classmethod
    def _known(cls, value: dict[str, ValueRule]) -> dict[str, ValueRule]:
        unknown = sorted(set(value) - set(EASY_NAMES))
        if unknown:
            raise ValueError(f"unknown tag name(s) {unknown}; known: {', '.join(EASY_NAMES)}")
        return value


class AudioTagsCheck(SingleKey):
    name: ClassVar[str] = "audio_tags"
    audio_tags: AudioTagsArgs


def _audio_tags(args: AudioTagsArgs, probe: DesktopProbe, report: Report) -> None:
    path = written_file(probe, args.path, report)
    if path is None:
        return
    tags = audio_tags(path)
    values = {name: tags.get(EASY_NAMES[name], "") for name in args.expect}
    report["observed"] = {"tags": {k: cut(v) for k, v in values.items()}}
    problems = [f"{name} is {cut(values[name])!r}, expected {rule.describe()}"
                for name, rule in args.expect.items() if not matches(values[name], rule)]
    verdict(report, problems, ok=f"the tags of {args.path} are as expected")


#: These checks, each with its judge, in the order error messages list them.
CHECKS: tuple[CheckType, ...] = (CheckType(AudioTagsCheck, _audio_tags),)

__all__ = ["CHECKS", "EASY_NAMES", "audio_tags"]
