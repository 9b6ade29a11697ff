"""Writing one config's split as Parquet shards, incrementally, in bounded memory.

Rows are buffered until a row group is full (by rows or by bytes, whichever comes first),
then written and dropped; a shard is closed and the next one opened once it passes its size
limit. So memory holds at most one row group per open writer, whatever the dataset's size.

The files are written the way ``datasets`` writes Parquet for the hub: the features in the
schema metadata, embedded media stored uncompressed (PNG is compressed already) and
everything else snappy-compressed with dictionaries, a page index, and content-defined
chunking so that re-uploading a slightly changed dataset moves little data.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from datasets import Features
from datasets.arrow_writer import get_parquet_column_options
from datasets.config import DEFAULT_CDC_OPTIONS

from gui_agent.export.layout import partial_path, shard_path

#: A shard is closed once it holds this many bytes (the hub's guidance: well under 1 GB).
DEFAULT_SHARD_BYTES = 500 * 1024 * 1024
#: A row group is written once it holds this many rows ...
DEFAULT_ROW_GROUP_ROWS = 100
#: ... or this many bytes of cell data; this bounds the writer's memory.
DEFAULT_ROW_GROUP_BYTES = 32 * 1024 * 1024


def _row_bytes(value: Any) -> int:
    """A cheap estimate of a row's size: the bytes and strings in it, plus a little."""
    if isinstance(value, (bytes, str)):
        return len(value)
    if isinstance(value, dict):
        return sum(_row_bytes(v) for v in value.values()) + 8
    if isinstance(value, list):
        return sum(_row_bytes(v) for v in value) + 8
    return 8


@dataclass
class SplitResult:
    """What one config's split ended up as."""

    config: str
    split: str
    num_rows: int = 0
    num_bytes: int = 0  # arrow (uncompressed) bytes, as datasets counts a split's size
    files: list[Path] = field(default_factory=list)

    @property
    def download_size(self) -> int:
        return sum(path.stat().st_size for path in self.files)


class ShardWriter:
    """Appends rows of one config's split to ``data/<config>/<split>-NNNNN...parquet``.

    Call :meth:`add` per row and :meth:`close` once; shards keep a ``.partial`` name until
    :meth:`close` renames them ``<split>-00000-of-00003.parquet``. A split with no rows gets
    no file at all (``datasets`` cannot load an empty split; the card leaves it out).
    """

    def __init__(
        self,
        root: Path,
        config: str,
        split: str,
        features: Features,
        *,
        shard_bytes: int = DEFAULT_SHARD_BYTES,
        row_group_rows: int = DEFAULT_ROW_GROUP_ROWS,
        row_group_bytes: int = DEFAULT_ROW_GROUP_BYTES,
        content_defined_chunking: bool = True,
    ):
        self.root = root
        self.config = config
        self.split = split
        self.features = features
        self.schema = features.arrow_schema
        self.shard_bytes = shard_bytes
        self.row_group_rows = row_group_rows
        self.row_group_bytes = row_group_bytes
        self.cdc = content_defined_chunking
        self.result = SplitResult(config, split)
        self._rows: list[dict[str, Any]] = []
        self._buffered = 0
        self._partials: list[Path] = []
        self._sink: pa.NativeFile | None = None
        self._writer: pq.ParquetWriter | None = None

    def add(self, row: dict[str, Any]) -> None:
        self._rows.append(row)
        self._buffered += _row_bytes(row)
        if len(self._rows) >= self.row_group_rows or self._buffered >= self.row_group_bytes:
            self.flush()

    def flush(self) -> None:
        """Write the buffered rows as one row group (opening or rolling the shard as needed)."""
        if not self._rows:
            return
        table = pa.Table.from_pylist(self._rows, schema=self.schema)
        self._rows = []
        self._buffered = 0
        writer = self._open()
        writer.write_table(table, row_group_size=table.num_rows)
        self.result.num_rows += table.num_rows
        self.result.num_bytes += table.nbytes
        assert self._sink is not None
        if self._sink.tell() >= self.shard_bytes:
            self._close_shard()

    def close(self) -> SplitResult:
        """Flush, close, and give the shards their final names."""
        self.flush()
        self._close_shard()
        count = len(self._partials)
        for index, partial in enumerate(self._partials):
            final = self.root / shard_path(self.config, self.split, index, count)
            os.replace(partial, final)
            self.result.files.append(final)
        self._partials = []
        return self.result

    def abort(self) -> None:
        """Close and delete whatever was written (used when the export fails)."""
        self._rows = []
        try:
            self._close_shard()
        finally:
            for partial in self._partials:
                partial.unlink(missing_ok=True)
            self._partials = []

    def _open(self) -> pq.ParquetWriter:
        if self._writer is None:
            path = self.root / partial_path(self.config, self.split, len(self._partials))
            path.parent.mkdir(parents=True, exist_ok=True)
            self._partials.append(path)
            self._sink = pa.OSFile(str(path), "wb")
            options = get_parquet_column_options(self.features, self.schema)
            self._writer = pq.ParquetWriter(
                self._sink,
                self.schema,
                write_page_index=True,
                use_content_defined_chunking=DEFAULT_CDC_OPTIONS if self.cdc else False,
                **options,
            )
        return self._writer

    def _close_shard(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._sink is not None:
            self._sink.close()
            self._sink = None
