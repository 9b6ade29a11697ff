"""How a command says it failed: one red ``error:`` line and an exit status.

The message is printed as plain text, never read as rich markup: an exception's text
can hold anything (a path named ``[/x]``, a YAML list), and rich either swallows what
looks like a tag or raises ``MarkupError`` on an unmatched closing one, which turned a
clear error into a traceback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rich is imported when a command runs, not when the parser is built
    from rich.console import Console


def print_error(console: Console, message: str) -> None:
    """Print ``error: message`` (``error:`` in red) on ``console``, the message verbatim."""
    from rich.text import Text

    console.print(Text.assemble(("error:", "red"), " ", message), soft_wrap=True)


def fail(console: Console, message: str, code: int = 2) -> int:
    """:func:`print_error`, then the exit status to return (2: bad input or settings)."""
    print_error(console, message)
    return code
