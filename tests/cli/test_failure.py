"""Error lines print their message verbatim: text from a path or an exception is never read as rich markup."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from rich.console import Console

from gui_agent.cli.failure import fail
from tests.paths import REPO


def test_message_with_markup_like_text_is_printed_as_is() -> None:
    out = io.StringIO()
    code = fail(Console(file=out, width=200, color_system=None), "bad [bold]value[/bold] in [/tmp/x]", 3)
    assert code == 3
    assert out.getvalue() == "error: bad [bold]value[/bold] in [/tmp/x]\n"


def test_cli_error_naming_a_path_with_brackets_is_a_clean_exit_2(tmp_path: Path) -> None:
    """Before: rich raised MarkupError on the path's '[/bold]' and the command died with a traceback."""
    episode = tmp_path / "[x]" / "[/bold]episode"
    episode.mkdir(parents=True)
    result = subprocess.run([sys.executable, "-m", "gui_agent", "show", str(episode)], cwd=REPO, capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"error: {episode}: not an episode folder" in result.stdout
    assert "Traceback" not in result.stderr


def test_run_step_lines_and_bar_print_actions_and_errors_verbatim() -> None:
    """Typed text and browser messages may hold "[...]": once swallowed by rich ("[pid=1]") or a crash ("[/x]")."""
    from gui_agent.cli.run import _run_with_progress

    def run(on_step):  # type: ignore[no-untyped-def]
        on_step(1, 5, 'type("[/x] [b]")', "net::ERR_FAILED [pid=1]")
        return "done"

    plain = io.StringIO()
    assert _run_with_progress(Console(file=plain, width=200, color_system=None), "t seed=0", False, run) == "done"
    assert 'type("[/x] [b]")' in plain.getvalue() and "[pid=1]" in plain.getvalue()
    bar = io.StringIO()
    terminal = Console(file=bar, width=200, force_terminal=True, color_system=None)
    assert _run_with_progress(terminal, "t [/seed]", False, run) == "done"
    assert "[pid=1]" in bar.getvalue() and "t [/seed]" in bar.getvalue()
