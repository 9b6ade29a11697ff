"""The project's exception hierarchy, in one place.

Callers decide what to do by the *kind* of failure: a broken environment is retried and
reported as an environment failure, a malformed file names where it is broken, an
unparseable model reply carries the raw text so nothing is silently replaced by a default.
"""

from __future__ import annotations

from pathlib import Path


class GuiAgentError(Exception):
    """Base class of every error this project raises on purpose."""


class EnvError(GuiAgentError):
    """The environment itself broke (browser died, display gone, a hang).

    Never the agent's fault: the runner reports it as an environment failure and may
    rebuild the environment. A merely failed action is *not* an EnvError; it is reported
    in the observation's ``last_action_error``.
    """


class EnvDiedError(EnvError):
    """The environment's process (browser, display, app) is gone."""


class EnvHungError(EnvError):
    """The environment stopped answering within its time limit."""


class PageError(GuiAgentError):
    """An operation on a healthy page failed: a selector never appeared, a script threw.

    Deliberately *not* an :class:`EnvError`: the browser needs no rebuilding, and an
    evaluator check whose script throws (say, the element the agent should have created
    is missing) simply fails. A task whose *setup* step fails this way is reported by the
    runner as an environment failure, since it is never the agent's fault.
    """


class DesktopStepError(PageError):
    """A desktop task's setup or post step could not be done on a healthy desktop."""


class ActionError(GuiAgentError):
    """An action is invalid in itself (bad coordinates, unknown key, wrong field)."""


class ActionParseError(GuiAgentError):
    """Model output or code could not be turned into canonical actions.

    Attributes:
        raw: the complete text that failed to parse, kept for logging and training.
        reason: what exactly was wrong.
    """

    def __init__(self, reason: str, raw: str):
        self.reason = reason
        self.raw = raw
        shown = raw if len(raw) <= 200 else raw[:200] + "..."
        super().__init__(f"{reason} (in: {shown!r})")


class FileFormatError(GuiAgentError):
    """A file on disk is malformed; the message names the file, the line and the problem.

    Attributes:
        path: the file.
        line: 1-based line number, when the problem has one.
        problem: what is wrong, in words.
    """

    def __init__(self, path: str | Path, problem: str, line: int | None = None):
        self.path = Path(path)
        self.line = line
        self.problem = problem
        where = f"{self.path}:{line}" if line is not None else f"{self.path}"
        super().__init__(f"{where}: {problem}")


class EpisodeFormatError(FileFormatError):
    """An episode folder is damaged or written by a newer format version."""


class EpisodeNotFoundError(GuiAgentError):
    """A path given as episodes does not exist, holds no episode folder, or (where one
    episode is wanted) holds several; the message says which and how many."""


class TaskFileError(FileFormatError):
    """A task file is malformed: wrong or unknown key, bad value, bad YAML."""


class ExportError(GuiAgentError):
    """Bad input to a dataset export, import or push: the message names what and why."""


class NothingExportedError(ExportError):
    """Every episode was skipped (or there were none): no dataset was written."""


class RewardDataError(GuiAgentError):
    """Reward-model data is missing or unusable (no folder, no samples, an episode or frame a sample needs)."""


class RewardCheckpointError(GuiAgentError):
    """A reward-model checkpoint is missing, damaged, or not a reward model's."""


class ModelError(GuiAgentError):
    """A vision-language model cannot be loaded, prompted or trained as asked: a path that
    is not a model, an unsupported ``model_type``, a model that needs a GPU on a CPU-only
    machine, training data it cannot learn from. The message says what to do instead."""


class PolicyCheckpointError(GuiAgentError):
    """A policy checkpoint is missing, damaged, or not one the chosen policy can load
    (another model's file, a newer format, a network of other sizes)."""


class PolicyDataError(GuiAgentError):
    """Episodes given to train a policy are missing or unusable (no episode folders, no
    steps a policy can learn from); the message names the paths."""


class DisplayError(GuiAgentError, ValueError):
    """The X display a headed browser is to be shown on is not set or does not answer.

    The user's setting (``--headed``, ``--display``, ``$DISPLAY``), checked before anything
    starts: bad input (exit 2), never an environment failure.
    """


class PolicyTaskError(GuiAgentError, ValueError):
    """A policy cannot act on a task at all: a scripted oracle with no solver or script for it.

    Bad input, known before the episode starts, and never an environment failure:
    ``gui-agent run`` and ``eval`` refuse it (exit 2) before any environment is built, and
    the runner raises it before it writes an episode.
    """


class PolicyServiceError(GuiAgentError):
    """The service a policy calls (a model endpoint, a vendor API) stayed unavailable:
    connection errors, timeouts, 429 or 5xx answers past the bounded retries.

    Like an :class:`EnvError`, never the agent's fault: the runner ends the episode as
    ``service_error`` and ``gui-agent eval`` counts it apart, unscored. A request the
    service refuses for what it says (another 4xx) is a plain :class:`PolicyRequestError`.
    """


class PolicyRequestError(PolicyServiceError):
    """The service a policy calls refused the request itself (a 4xx other than 429: a bad
    key, an unknown model, a malformed body): it fails at once, since retrying cannot help.
    The message carries the service's own words. Still not the agent's fault."""


class OsworldConfigError(GuiAgentError, ValueError):
    """An OSWorld task config the importer cannot read: ``key`` (``evaluator.result.path``) is wrong."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


class InputFetchError(GuiAgentError):
    """A declared input of a task could not be downloaded (the message names the URL and why)."""


class WaitTimeoutError(GuiAgentError, TimeoutError):
    """A condition :func:`gui_agent.polling.wait_until` waited for did not come in time; the
    message names what was waited for and how long."""


class XdotoolDiedError(EnvDiedError):
    """The xdotool process exited (an X error, or the display is gone)."""


class EditError(ValueError):
    """An edit that cannot be applied: malformed, out of range, or to an episode that cannot be edited."""


# ---------------------------------------------------------------------- signals within one module
# Raised and caught inside one module (or one module and its callers in the same package)
# to end a step of work early, never shown to a user as they are. They derive from
# Exception, not GuiAgentError, on purpose: a handler of GuiAgentError between the raise
# and its catch must not swallow them.


class OsworldUnsupported(Exception):
    """One part of an OSWorld config has no equivalent here (the message says which and why);
    the importer leaves the task (or that part) out and reports the message."""


class ImportSkip(Exception):
    """One episode of a dataset cannot be imported; the importer skips it and reports the message."""


def first_line(exc: BaseException, limit: int = 300) -> str:
    """The first line of an exception's message, at most ``limit`` characters.

    For messages that carry pages of detail after the first line (Playwright appends its
    call log), where a report or an observation field needs just what went wrong.
    """
    text = str(exc).strip().split("\n", 1)[0].strip() or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."
