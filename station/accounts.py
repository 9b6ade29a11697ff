"""Who may use the station: one secret token per annotator, and reviewers.

Tokens are printed at start (:func:`generate_accounts`) or read from a file
(:func:`load_accounts`), one account a line::

    # name      token                              role (annotator unless given)
    alice       6f1c0e...                          annotator
    rosa        91ab33...                          reviewer

A token is checked against every account with :func:`hmac.compare_digest`, so how long
the check takes says nothing about which token is close.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from gui_agent.station.errors import AccountsError

Role = Literal["annotator", "reviewer"]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
#: Shortest token a file may give (bytes of text); generated ones are 32 hex bytes.
MIN_TOKEN_CHARS = 16


@dataclass(frozen=True)
class Account:
    name: str
    token: str
    role: Role = "annotator"

    @property
    def reviewer(self) -> bool:
        return self.role == "reviewer"


class Accounts:
    """The accounts of one station, and the per-process secret that derives CSRF tokens."""

    def __init__(self, accounts: list[Account]):
        names = [a.name for a in accounts]
        if len(set(names)) != len(names):
            raise AccountsError("account names must be unique")
        if len({a.token for a in accounts}) != len(accounts):
            raise AccountsError("every account needs its own token")
        if not any(a.role == "annotator" for a in accounts):
            raise AccountsError("at least one annotator account is needed")
        self.accounts = list(accounts)
        self._secret = secrets.token_bytes(32)

    @property
    def annotators(self) -> list[str]:
        return [a.name for a in self.accounts if a.role == "annotator"]

    def verify(self, token: str | None) -> Account | None:
        """The account whose token is ``token``, compared in constant time with every account."""
        if not token:
            return None
        given = token.encode("utf-8", "replace")
        found = None
        for account in self.accounts:  # no early exit: every token is compared
            if hmac.compare_digest(given, account.token.encode("utf-8")):
                found = account
        return found

    def csrf_token(self, account: Account) -> str:
        """What the page sends in ``X-Station-CSRF`` with a state-changing call signed in by cookie."""
        return hmac.new(self._secret, account.token.encode("utf-8"), hashlib.sha256).hexdigest()

    def check_csrf(self, account: Account, value: str | None) -> bool:
        return bool(value) and hmac.compare_digest(value.encode("utf-8", "replace"), self.csrf_token(account).encode())


def generate_accounts(n_annotators: int, *, reviewers: int = 1) -> Accounts:
    """``annotator1``..``annotatorN`` and ``reviewer`` (``reviewer2``...) with fresh random tokens."""
    if n_annotators < 1:
        raise AccountsError("--annotators must be at least 1")
    accounts = [Account(f"annotator{i}", secrets.token_hex(16)) for i in range(1, n_annotators + 1)]
    accounts += [Account("reviewer" if i == 1 else f"reviewer{i}", secrets.token_hex(16), "reviewer") for i in range(1, reviewers + 1)]
    return Accounts(accounts)


def load_accounts(path: str | Path) -> Accounts:
    """Read ``NAME TOKEN [ROLE]`` lines (``#`` comments, blank lines skipped)."""
    path = Path(path)
    accounts = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        where = f"{path}:{number}"
        if len(fields) not in (2, 3):
            raise AccountsError(f"{where}: expected 'NAME TOKEN [annotator|reviewer]', got {len(fields)} fields")
        name, token, role = fields[0], fields[1], fields[2] if len(fields) == 3 else "annotator"
        if not _NAME.match(name):
            raise AccountsError(f"{where}: name {name!r} must be letters, digits, '_', '.' or '-'")
        if len(token) < MIN_TOKEN_CHARS:
            raise AccountsError(f"{where}: the token of {name!r} is shorter than {MIN_TOKEN_CHARS} characters")
        if role not in ("annotator", "reviewer"):
            raise AccountsError(f"{where}: role must be 'annotator' or 'reviewer', got {role!r}")
        accounts.append(Account(name, token, role))  # type: ignore[arg-type]
    if not accounts:
        raise AccountsError(f"{path}: no accounts")
    try:
        return Accounts(accounts)
    except AccountsError as exc:
        raise AccountsError(f"{path}: {exc}") from None
