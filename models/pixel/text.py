"""The instruction as the network reads it: tokens with their character spans.

Tokens are words and single punctuation marks. Typed text is predicted as a span of
tokens and cut from the instruction by character offsets, so what the policy types is
always exactly a piece of the instruction (MiniWoB++ text tasks type quoted names,
passwords and search terms that appear in it). Characters and words are hashed into
fixed id ranges, so any text, any script, encodes without a vocabulary file.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

#: Longest instruction the network reads, in tokens; later tokens are dropped.
MAX_TOKENS = 64
#: Characters per token the character encoder sees; longer tokens are cut.
MAX_CHARS = 16
#: Character ids: 0 is padding, 1..127 ASCII, the rest hashed.
CHAR_BUCKETS = 512
#: Word ids (lower-cased word hashed); 0 is padding.
WORD_BUCKETS = 2048
#: Longest typed span, in tokens.
MAX_SPAN_TOKENS = 8

_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class Token:
    """A word or punctuation mark and where it sits in the instruction."""

    text: str
    start: int
    end: int


def tokenize(instruction: str) -> list[Token]:
    """Split an instruction into at most :data:`MAX_TOKENS` tokens."""
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(instruction)][:MAX_TOKENS]


def char_id(char: str) -> int:
    """A character's id in ``1..CHAR_BUCKETS-1``."""
    code = ord(char)
    if 0 < code < 128:
        return code
    return 128 + code % (CHAR_BUCKETS - 128)


def word_id(word: str) -> int:
    """A word's id in ``1..WORD_BUCKETS-1`` (case-insensitive; the characters keep case)."""
    return 1 + zlib.crc32(word.lower().encode("utf-8")) % (WORD_BUCKETS - 1)


def encode_tokens(tokens: list[Token]) -> tuple[list[list[int]], list[int]]:
    """Character ids (``len(tokens) x MAX_CHARS``, zero-padded) and word ids of ``tokens``."""
    chars = [[char_id(c) for c in t.text[:MAX_CHARS]] + [0] * (MAX_CHARS - min(len(t.text), MAX_CHARS)) for t in tokens]
    return chars, [word_id(t.text) for t in tokens]


def span_text(instruction: str, tokens: list[Token], start: int, end: int) -> str:
    """The instruction text from token ``start`` to token ``end`` (inclusive)."""
    return instruction[tokens[start].start : tokens[end].end]


def find_span(instruction: str, tokens: list[Token], text: str) -> tuple[int, int] | None:
    """The first, shortest token span whose text is exactly ``text``, or None.

    None means the text was not copied from the instruction (e.g. changed case), so it
    cannot be a training target for the copy pointer.
    """
    for length in range(1, MAX_SPAN_TOKENS + 1):
        for start in range(len(tokens) - length + 1):
            if span_text(instruction, tokens, start, start + length - 1) == text:
                return start, start + length - 1
    return None
