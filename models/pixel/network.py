"""The pixel policy network: screen + instruction + own history -> action kind, click heatmap, typed span.

Why this shape: MiniWoB++-style tasks are "find the thing the instruction names on the
screen". The screen goes through a small conv net that keeps 4-pixel cells (words stay
legible at 13 px fonts); instruction tokens are encoded from their characters and words
and contextualised by a bidirectional GRU. Attention heads pick the tokens that matter
at this step (the quoted label, the tab number) and their vectors are matched against
every cell (a dot product: "where does this word appear?"); further convs turn those
match maps into a click heatmap ("the checkbox left of that word"). Kinds come from
pooled image features and the history; typed text is a start/end pointer over tokens.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn

from gui_agent.models.pixel.history import KINDS, MAX_STEP, MAX_TYPED, PREVIOUS_OTHER
from gui_agent.models.pixel.text import CHAR_BUCKETS, WORD_BUCKETS

#: Input pixels per heatmap cell along each axis.
STRIDE = 4
#: Coordinates are given to the network as pixel / COORD_SCALE (absolute, not relative to size).
COORD_SCALE = 256.0


@dataclass(frozen=True)
class NetConfig:
    """Sizes of the network; stored in every checkpoint so it rebuilds the same."""

    max_side: int = 320
    stem_channels: int = 32
    channels: int = 40
    text_dim: int = 64
    match_heads: int = 4

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def heatmap_size(height: int, width: int) -> tuple[int, int]:
    """Rows and columns of the click heatmap for a ``height x width`` input (the stem's arithmetic)."""

    def down(size: int, kernel: int) -> int:
        return (size + 2 - kernel) // 2 + 1

    return down(down(height, 4), 3), down(down(width, 4), 3)


def cell_of(pixel: float) -> int:
    """The heatmap cell whose centre is nearest to input pixel ``pixel``."""
    return max(0, round((pixel - 0.5) / STRIDE))


def pixel_of(cell: int) -> float:
    """The input pixel at the centre of heatmap cell ``cell``."""
    return STRIDE * cell + 0.5


class _Residual(nn.Module):
    def __init__(self, channels: int, dilation: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels, channels, 3, padding=dilation, dilation=dilation),
            nn.GroupNorm(8, channels),
            nn.ReLU(inplace=True),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.GroupNorm(8, channels),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.body(x))


class PixelPolicyNet(nn.Module):
    """See the module docstring. Inputs are batched; see :meth:`forward`."""

    def __init__(self, config: NetConfig) -> None:
        super().__init__()
        self.config = config
        d, c, k = config.text_dim, config.channels, config.match_heads
        # Instruction.
        self.char_embedding = nn.Embedding(CHAR_BUCKETS, 32, padding_idx=0)
        self.char_conv = nn.Conv1d(32, d, 3, padding=1)
        self.word_embedding = nn.Embedding(WORD_BUCKETS, d, padding_idx=0)
        self.typed_embedding = nn.Embedding(MAX_TYPED + 1, d)
        self.token_rnn = nn.GRU(2 * d, d // 2, batch_first=True, bidirectional=True)
        # History.
        self.step_embedding = nn.Embedding(MAX_STEP + 1, d)
        self.previous_embedding = nn.Embedding(PREVIOUS_OTHER + 1, d)
        self.attention = nn.Linear(2 * d, k)
        self.queries = nn.Linear(d, d * k)
        # Screen.
        self.stem = nn.Sequential(
            nn.Conv2d(6, config.stem_channels, 4, stride=2, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(config.stem_channels, c, 3, stride=2, padding=1),
            nn.GroupNorm(8, c),
            nn.ReLU(inplace=True),
        )
        self.lower = nn.Sequential(_Residual(c, 1), _Residual(c, 2))
        self.film = nn.Linear(2 * d, 2 * c)
        self.keys = nn.Conv2d(c, d, 1)
        self.merge = nn.Conv2d(c + k, c, 1)
        self.upper = nn.Sequential(_Residual(c, 2), _Residual(c, 1))
        self.click_head = nn.Conv2d(c, 1, 1)
        # Decisions.
        self.kind_head = nn.Sequential(nn.Linear(2 * c + 2 * d, 128), nn.ReLU(inplace=True), nn.Linear(128, len(KINDS)))
        self.span_state = nn.Linear(2 * c + 2 * d, d)
        self.span_head = nn.Sequential(nn.Linear(2 * d, 64), nn.ReLU(inplace=True), nn.Linear(64, 2))

    def forward(
        self,
        images: torch.Tensor,
        chars: torch.Tensor,
        words: torch.Tensor,
        typed: torch.Tensor,
        token_mask: torch.Tensor,
        step: torch.Tensor,
        previous: torch.Tensor,
    ) -> dict[str, torch.Tensor]:
        """Score every decision for a batch.

        Args:
            images: ``(B, 4, H, W)`` float, from :func:`gui_agent.models.pixel.screen.network_input`.
            chars: ``(B, T, MAX_CHARS)`` character ids; words, typed: ``(B, T)`` ids/counts.
            token_mask: ``(B, T)`` bool, True for real tokens (each row has at least one).
            step, previous: ``(B,)`` step number and previous-kind ids.

        Returns:
            ``kind`` (B, len(KINDS)), ``click`` (B, H/4, W/4), ``start`` and ``end`` (B, T)
            logits; padded tokens score -inf.
        """
        batch, n_tokens, n_chars = chars.shape
        d, k = self.config.text_dim, self.config.match_heads
        # Tokens: characters (a conv over the word, max-pooled) + the word's own embedding.
        char_vectors = self.char_embedding(chars.view(batch * n_tokens, n_chars)).transpose(1, 2)
        char_vectors = torch.relu(self.char_conv(char_vectors)).max(dim=2).values.view(batch, n_tokens, d)
        token_vectors = torch.cat([char_vectors, self.word_embedding(words) + self.typed_embedding(typed)], dim=2)
        context, _ = self.token_rnn(token_vectors)
        history = self.step_embedding(step) + self.previous_embedding(previous)
        scores = self.attention(torch.cat([context, history[:, None].expand(-1, n_tokens, -1)], dim=2))
        scores = scores.masked_fill(~token_mask[:, :, None], float("-inf"))
        weights = torch.softmax(scores, dim=1)  # (B, T, K)
        pooled = torch.einsum("btk,btd->bkd", weights, context)  # (B, K, D)
        summary = pooled.mean(dim=1)
        queries = self.queries(pooled.mean(dim=1)).view(batch, k, d) + pooled
        # Screen, conditioned on what the instruction asks now.
        height, width = images.shape[2:]
        ys = torch.arange(height, dtype=images.dtype, device=images.device).view(1, 1, -1, 1).expand(batch, 1, height, width)
        xs = torch.arange(width, dtype=images.dtype, device=images.device).view(1, 1, 1, -1).expand(batch, 1, height, width)
        features = self.lower(self.stem(torch.cat([images, xs / COORD_SCALE, ys / COORD_SCALE], dim=1)))
        gamma, beta = self.film(torch.cat([summary, history], dim=1)).chunk(2, dim=1)
        features = features * (1 + gamma[:, :, None, None]) + beta[:, :, None, None]
        match = torch.einsum("bdhw,bkd->bkhw", self.keys(features), queries) / d**0.5
        features = self.upper(self.merge(torch.cat([features, match], dim=1)))
        click = self.click_head(features)[:, 0]
        state = torch.cat([features.amax(dim=(2, 3)), features.mean(dim=(2, 3)), summary, history], dim=1)
        kind = self.kind_head(state)
        span_state = self.span_state(state)[:, None].expand(-1, n_tokens, -1)
        span = self.span_head(torch.cat([context, span_state], dim=2)).masked_fill(~token_mask[:, :, None], float("-inf"))
        return {"kind": kind, "click": click, "start": span[:, :, 0], "end": span[:, :, 1]}
