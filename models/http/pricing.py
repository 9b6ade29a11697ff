"""What a model call costs in US dollars, from a small price table or the user's own prices.

Token cost is a first-class figure: an agent 1 % better for 5x the tokens is not better.
The table holds list prices per million tokens of common hosted models, as their vendors
publish them (``PRICES_NOTED`` says when they were written down; prices change, so check
them, and override them per run with ``price_in=``/``price_out=``/``price_cached=`` in the
policy spec). A model is found by the longest table name its id starts with, so dated
ids (``claude-sonnet-4-5-20250929``, ``gpt-4o-2024-08-06``) find their family. A model
not in the table (a self-hosted server's) has no price: its steps record ``cost_usd``
None, and nothing is made up.

Tokens: ``input_tokens`` counts every prompt token, ``cached_tokens`` the part of them
read from the vendor's prompt cache, billed at the cached price.
"""

from __future__ import annotations

from dataclasses import dataclass

from gui_agent.episode.format import Usage

#: When the prices below were copied from the vendors' price pages.
PRICES_NOTED = "2025-11"


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens."""

    input: float
    output: float
    cached_input: float | None = None  # None: cached tokens cost the input price

    def cost(self, *, input_tokens: int, output_tokens: int, cached_tokens: int = 0) -> float:
        """Dollars of one call; cached tokens are a part of ``input_tokens``."""
        cached = min(max(cached_tokens, 0), input_tokens)
        cached_rate = self.input if self.cached_input is None else self.cached_input
        return ((input_tokens - cached) * self.input + cached * cached_rate + output_tokens * self.output) / 1_000_000


#: List prices by model family (longest matching prefix wins).
PRICES: dict[str, Price] = {
    # Anthropic (cached: prompt-cache reads)
    "claude-opus-4-5": Price(5.00, 25.00, 0.50),
    "claude-opus-4-1": Price(15.00, 75.00, 1.50),
    "claude-opus-4": Price(15.00, 75.00, 1.50),
    "claude-sonnet-4-5": Price(3.00, 15.00, 0.30),
    "claude-sonnet-4": Price(3.00, 15.00, 0.30),
    "claude-3-7-sonnet": Price(3.00, 15.00, 0.30),
    "claude-haiku-4-5": Price(1.00, 5.00, 0.10),
    "claude-3-5-haiku": Price(0.80, 4.00, 0.08),
    # OpenAI
    "computer-use-preview": Price(3.00, 12.00),
    "gpt-5-mini": Price(0.25, 2.00, 0.025),
    "gpt-5-nano": Price(0.05, 0.40, 0.005),
    "gpt-5": Price(1.25, 10.00, 0.125),
    "gpt-4.1-mini": Price(0.40, 1.60, 0.10),
    "gpt-4.1-nano": Price(0.10, 0.40, 0.025),
    "gpt-4.1": Price(2.00, 8.00, 0.50),
    "gpt-4o-mini": Price(0.15, 0.60, 0.075),
    "gpt-4o": Price(2.50, 10.00, 1.25),
}


def price_of(model: str, *, table: dict[str, Price] | None = None) -> Price | None:
    """The price of ``model`` by the longest table name it starts with, or None when unknown.

    Served ids may carry a vendor prefix (``openai/gpt-4o``, ``anthropic/claude-...``);
    only the part after the last ``/`` is matched.
    """
    table = PRICES if table is None else table
    name = model.rsplit("/", 1)[-1].lower()
    matches = [key for key in table if name.startswith(key)]
    return table[max(matches, key=len)] if matches else None


def metered_usage(
    price: Price | None,
    *,
    input_tokens: int,
    output_tokens: int,
    cached_tokens: int = 0,
    images: int = 0,
    latency_s: float | None = None,
    retries: int = 0,
) -> Usage:
    """A step's :class:`~gui_agent.episode.format.Usage`, priced when the price is known."""
    cost = None if price is None else round(price.cost(input_tokens=input_tokens, output_tokens=output_tokens, cached_tokens=cached_tokens), 8)
    return Usage(input_tokens=input_tokens, output_tokens=output_tokens, cached_tokens=cached_tokens, images=images,
                 latency_s=None if latency_s is None else round(latency_s, 4), retries=retries, cost_usd=cost)


def override(base: Price | None, *, price_in: float | None, price_out: float | None, price_cached: float | None) -> Price | None:
    """``base`` with the user's prices (per million tokens) in place of the table's.

    Both input and output prices must be known in the end: a half-priced model would
    report a cost that is not what it costs.

    Raises:
        ValueError: only one of input/output is known.
    """
    if price_in is None and price_out is None and price_cached is None:
        return base
    inp = price_in if price_in is not None else (base.input if base else None)
    out = price_out if price_out is not None else (base.output if base else None)
    if inp is None or out is None:
        raise ValueError("give both price_in and price_out (US dollars per million tokens) for a model the price table does not list")
    cached = price_cached if price_cached is not None else (base.cached_input if base else None)
    return Price(inp, out, cached)


__all__ = ["PRICES", "PRICES_NOTED", "Price", "metered_usage", "override", "price_of"]
