"""Privacy at export: typed text loses emails, phone numbers, card numbers and secrets.

What a person typed is the riskiest text in a trajectory. :class:`Scrubber` replaces, in
this order (earlier kinds win where matches overlap):

* ``secret``: every configured secret, verbatim (the hub token is always one);
* ``email``: ``name@domain.tld``;
* ``card``: 13 to 19 digits, spaces or dashes allowed between them, that pass the Luhn
  check (an order number that fails it is kept);
* ``phone``: ``+CC ...`` international numbers, North American ``(555) 123-4567`` forms,
  national numbers starting with 0 (``020 7946 0958``) and ``555-1234``; dates, times and
  timestamps (log lines' ``1205/083512.123456``, Unix seconds), IP addresses, decimals and
  plain numbers are not phones.

Each match becomes ``[EMAIL]``, ``[PHONE]``, ``[CARD]`` or ``[SECRET]``. The same scrubber is
applied to every free text of an episode (typed text, the instruction, thoughts, answers,
targets, labels), so a value scrubbed from what was typed does not survive in the
instruction that asked for it. Counts per kind are kept; the values never are.

Limits, said plainly: a value typed in pieces across several ``type`` actions is not seen
whole, and pixels are not read (frames are exported exactly as recorded: regions the
recorder masked stay blank, and nothing else is masked).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gui_agent.errors import ExportError
from gui_agent.export.features import SCRUB_KINDS

REPLACEMENTS: dict[str, str] = {kind: f"[{kind.upper()}]" for kind in SCRUB_KINDS}
#: Shorter secrets would scrub ordinary words; refuse them.
MIN_SECRET_LENGTH = 4

_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_CARD = re.compile(r"(?<![\d])\d(?:[ -]?\d){12,18}(?![\d])")
#: Phone-number shapes, and only those: a number glued to more digits by ``/ : . , -`` is
#: part of something else (a time, a date, a version, a decimal), never a phone. Chromium's
#: log prefix ``[1205/083512.123456:INFO:...]`` and Unix times (``1733387712``, whose
#: "area code" would start with 1) were scrubbed as phones by looser forms.
_PHONE = re.compile(
    r"(?<![\w+])(?<!\d[/:.,-])(?:"
    r"\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,6}"  # +44 20 7946 0958, +1-555-123-4567
    r"|(?:1[ .-]?)?(?:\(\d{3}\)[ .-]?|[2-9]\d{2}[ .-]?)\d{3}[ .-]?\d{4}"  # (555) 123-4567, 555.123.4567
    r"|0\d{1,4}(?P<sep>[ .-])\d{2,4}(?:(?P=sep)\d{2,4}){1,3}"  # 020 7946 0958, 06 12 34 56 78: one separator
    r"|0\d{9,10}"  # 02079460958
    r"|[2-9]\d{2}-\d{4}"  # 555-1234
    r")(?!\w)(?![/:.,-]\d)"
)


def luhn_valid(digits: str) -> bool:
    """The Luhn checksum every payment card number satisfies."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


class Scrubber:
    """Replaces sensitive spans in text; :attr:`counts` says how many of each kind.

    Args:
        secrets: exact strings to remove wherever they appear (API keys, passwords).
        enabled: ``False`` keeps everything (``--no-scrub``), secrets included.

    Raises:
        ExportError: a secret shorter than :data:`MIN_SECRET_LENGTH` characters.
    """

    def __init__(self, secrets: Iterable[str] = (), *, enabled: bool = True):
        self.enabled = enabled
        self.counts: Counter[str] = Counter()
        cleaned = sorted({s for s in (x.strip() for x in secrets) if s}, key=len, reverse=True)
        for secret in cleaned:
            if len(secret) < MIN_SECRET_LENGTH:
                raise ExportError(
                    f"a configured secret is only {len(secret)} character(s) long; secrets must have at least "
                    f"{MIN_SECRET_LENGTH}, or ordinary text would be scrubbed"
                )
        self._secrets = re.compile("|".join(re.escape(s) for s in cleaned)) if cleaned else None

    def text(self, value: str) -> str:
        """``value`` with every sensitive span replaced."""
        if not self.enabled or not value:
            return value
        if self._secrets is not None:
            value = self._secrets.sub(lambda m: self._hit("secret"), value)
        value = _EMAIL.sub(lambda m: self._hit("email"), value)
        value = _CARD.sub(self._card, value)
        value = _PHONE.sub(self._phone, value)
        return value

    def value(self, data: Any) -> Any:
        """Scrub every string inside a JSON-like value (keys are kept as they are)."""
        if isinstance(data, str):
            return self.text(data)
        if isinstance(data, dict):
            return {key: self.value(item) for key, item in data.items()}
        if isinstance(data, (list, tuple)):
            return type(data)(self.value(item) for item in data)
        return data

    def take_counts(self) -> dict[str, int]:
        """The counts since the last call (every kind present, zeros included), then reset."""
        counts = {kind: self.counts.get(kind, 0) for kind in SCRUB_KINDS}
        self.counts.clear()
        return counts

    def _hit(self, kind: str) -> str:
        self.counts[kind] += 1
        return REPLACEMENTS[kind]

    def _card(self, match: re.Match[str]) -> str:
        digits = _digits(match.group())
        if 13 <= len(digits) <= 19 and luhn_valid(digits):
            return self._hit("card")
        return match.group()

    def _phone(self, match: re.Match[str]) -> str:
        text = match.group()
        if not 7 <= len(_digits(text)) <= 15:
            return text
        return self._hit("phone")


def read_secrets_file(path: str) -> list[str]:
    """Secrets from a file: one per line; blank lines and lines starting with ``#`` are skipped."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as exc:
        raise ExportError(f"cannot read the secrets file {path}: {exc.strerror}") from None
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


#: Environment variables whose values are secrets by their name: the API keys HTTP
#: policies read (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ``key_env=MY_GATEWAY_KEY``),
#: hub tokens, passwords.
_SECRET_NAME = re.compile(r"(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD)$", re.IGNORECASE)
#: Shorter values are not keys (a flag such as ``USE_TOKEN=1``); scrubbing them would hit words.
MIN_ENV_SECRET_LENGTH = 8


def secrets_in_environment(environ: Mapping[str, str]) -> list[str]:
    """The values of the variables named like keys, tokens or passwords: the keys in use.

    An episode written by an HTTP policy never holds its key, but a person may have typed
    or pasted one while recording; the export scrubs these values wherever they appear.
    """
    return sorted({value.strip() for name, value in environ.items()
                   if _SECRET_NAME.search(name) and len(value.strip()) >= MIN_ENV_SECRET_LENGTH})


@dataclass(frozen=True)
class ExportSecrets:
    """What an export keeps out of its dataset and out of what it prints.

    Attributes:
        secrets: exact strings scrubbed from every free text (see :class:`Scrubber`).
        token: the hub token, when the export pushes or scrubs: pushed with, scrubbed,
            and replaced by ``***`` in every message (:func:`gui_agent.export.push.redact`).
    """

    secrets: tuple[str, ...]
    token: str | None


def export_secrets(*, secrets_file: str | Path | None, environ: Mapping[str, str], push: bool, scrub: bool) -> ExportSecrets:
    """The secrets an export scrubs: the lines of ``secrets_file``, the values of the
    variables of ``environ`` named like keys, tokens and passwords (the keys in use), and the
    hub token (it never ends up in a dataset).

    The token is looked up (``HF_TOKEN``, or the user's login) when the export pushes or
    scrubs; with neither (``--no-scrub``, no ``--push``) it is not needed.

    Raises:
        ExportError: the secrets file cannot be read, or ``push`` and there is no token.
    """
    secrets = read_secrets_file(str(secrets_file)) if secrets_file else []
    secrets += secrets_in_environment(environ)
    token = None
    if push or scrub:
        from huggingface_hub import get_token

        token = get_token()
        if token:
            secrets.append(token)
    if push and not token:
        raise ExportError("--push needs a hub token: set HF_TOKEN or log in with 'hf auth login'")
    return ExportSecrets(secrets=tuple(secrets), token=token)
