"""Privacy at export: typed text scrubbed by default, --no-scrub keeps it, masked regions stay blank."""

from __future__ import annotations

import os
from pathlib import Path

import datasets
import numpy as np
import pytest

from gui_agent.actions import Click, Done, Type
from gui_agent.cli import main
from gui_agent.export import ExportError, ExportOptions, Scrubber, export_dataset
from gui_agent.export.scrub import ExportSecrets, export_secrets, luhn_valid, secrets_in_environment
from tests.synthetic_episodes import frame, write_synthetic


@pytest.mark.parametrize(
    ("text", "expected", "kind"),
    [
        ("mail me at jane.doe+work@mail.example.co.uk today", "mail me at [EMAIL] today", "email"),
        ("4111 1111 1111 1111", "[CARD]", "card"),
        ("card: 5500-0000-0000-0004!", "card: [CARD]!", "card"),
        ("378282246310005", "[CARD]", "card"),  # 15-digit Amex
        ("call (555) 123-4567 now", "call [PHONE] now", "phone"),
        ("+44 20 7946 0958", "[PHONE]", "phone"),
        ("+1-555-123-4567", "[PHONE]", "phone"),
        ("020 7946 0958", "[PHONE]", "phone"),
        ("ext 555-1234", "ext [PHONE]", "phone"),
        ("5551234567", "[PHONE]", "phone"),
        ("(212) 555-0199", "[PHONE]", "phone"),
        ("1-800-555-0199", "[PHONE]", "phone"),
        ("06 12 34 56 78", "[PHONE]", "phone"),
        ("+33 6 12 34 56 78", "[PHONE]", "phone"),
        ("0161 496 0000", "[PHONE]", "phone"),
        ("02079460958", "[PHONE]", "phone"),
        ("tel:555-123-4567", "tel:[PHONE]", "phone"),
        ("Phone: 555.123.4567.", "Phone: [PHONE].", "phone"),
    ],
)
def test_sensitive_text_is_replaced_by_its_kind(text: str, expected: str, kind: str) -> None:
    scrubber = Scrubber()
    assert scrubber.text(text) == expected
    assert scrubber.counts[kind] == 1 and sum(scrubber.counts.values()) == 1


@pytest.mark.parametrize(
    "text",
    [
        "order 4111 1111 1111 1112",  # fails Luhn: not a card, and not a phone either
        "on 2024-01-15 at 12:30:45",
        "host 192.168.1.10",
        "years 2023 2024 2025",
        "price 1,234.56 and version 1.2.3",
        "zip 90210, room 101",
        "user@localhost",  # no dot-domain
        "episode miniwob-click-button_20261130T081210_7f4fba",
        # Chromium's log lines and other timestamps are not phone numbers
        "[1205/083512.123456:INFO:CONSOLE(1)] page loaded",
        "[12345:12345:1205/083512.123456:ERROR:gpu_init.cc(441)] Passthrough is not supported",
        "at 2026-12-05T08:35:12.123456Z, or 2026-12-05 08:35:12-0500",
        "basic ISO 20261205T083512.123Z",
        "unix 1733387712 and 1733387712.5",
        "time=083512.123",
        "2026-12-05-08-35-12 and 2026.12.05 08.35.12",
        "price 123.4567",
    ],
)
def test_ordinary_text_is_kept(text: str) -> None:
    scrubber = Scrubber()
    assert scrubber.text(text) == text
    assert not scrubber.counts


def test_secrets_luhn_and_bad_secrets() -> None:
    assert luhn_valid("4111111111111111") and not luhn_valid("4111111111111112")
    scrubber = Scrubber(["s3cr3t-api-key", "hunter22"])
    assert scrubber.text("key=s3cr3t-api-key;pw=hunter22") == "key=[SECRET];pw=[SECRET]"
    assert scrubber.value({"a": ["hunter22", 5], "b": {"c": "x@y.io"}}) == {"a": ["[SECRET]", 5], "b": {"c": "[EMAIL]"}}
    with pytest.raises(ExportError, match="at least 4"):
        Scrubber(["abc"])
    assert Scrubber(["hunter22"], enabled=False).text("hunter22 x@y.io") == "hunter22 x@y.io"


def _episode_with_private_typing(root: Path) -> Path:
    return write_synthetic(
        root, "private",
        [Click(5, 5), Type("jane@example.com\n"), Type("4111 1111 1111 1111"), Type("pw: hunter22-secret"), Done(answer="call +1-555-123-4567")],
        instruction="Sign in as jane@example.com",
        thoughts=["focus", "type jane@example.com", "card", "password", "done"],
        labels={"note": "customer jane@example.com"},
    )


def test_export_scrubs_every_text_of_an_episode_by_default(tmp_path: Path) -> None:
    _episode_with_private_typing(tmp_path / "in")
    secrets = tmp_path / "secrets.txt"
    secrets.write_text("# one per line\nhunter22-secret\n")
    out = tmp_path / "ds"
    assert main(["export", str(tmp_path / "in"), "--out", str(out), "--secrets-file", str(secrets), "--quiet",
                 "--format", "steps,sft"]) == 0
    steps = datasets.load_dataset(str(out), "steps", split="train", cache_dir=str(tmp_path / "c"))
    assert [a["text"] for a in steps["action"]][1:4] == ["[EMAIL]\n", "[CARD]", "pw: [SECRET]"]
    assert steps["action"][4]["answer"] == "call [PHONE]"
    assert steps["action_text"][1] == 'type("[EMAIL]\\n")'
    assert set(steps["instruction"]) == {"Sign in as [EMAIL]"}
    assert steps["thought"][1] == "type [EMAIL]"
    episodes = datasets.load_dataset(str(out), "episodes", split="train", cache_dir=str(tmp_path / "c"))
    assert episodes[0]["scrubbed"] == {"email": 4, "phone": 1, "card": 1, "secret": 1}
    assert "[EMAIL]" in episodes[0]["labels"]
    everything = b"".join(p.read_bytes() for p in out.rglob("*") if p.is_file())
    for leaked in (b"jane@example.com", b"4111 1111 1111 1111", b"hunter22-secret", b"555-123-4567"):
        assert leaked not in everything, leaked
    assert "email (4), phone (1), card (1), secret (1)" in (out / "README.md").read_text()


def test_no_scrub_keeps_typed_text(tmp_path: Path) -> None:
    _episode_with_private_typing(tmp_path / "in")
    out = tmp_path / "ds"
    assert main(["export", str(tmp_path / "in"), "--out", str(out), "--no-scrub", "--quiet"]) == 0
    steps = datasets.load_dataset(str(out), "steps", split="train", cache_dir=str(tmp_path / "c"))
    assert steps["action"][1]["text"] == "jane@example.com\n"
    assert "not scrubbed" in (out / "README.md").read_text()


def test_masked_regions_stay_blank(tmp_path: Path) -> None:
    """A region the recorder blanked (a password field) is exported exactly as recorded."""
    shot = frame(64, 48, 3)
    shot[10:20, 5:45] = 0  # the mask
    write_synthetic(tmp_path / "in", "masked", [Click(1, 1)], frames=[shot])
    out = tmp_path / "ds"
    export_dataset([tmp_path / "in"], out, ExportOptions())
    image = np.asarray(datasets.load_dataset(str(out), "steps", split="train", cache_dir=str(tmp_path / "c"))[0]["image"])
    assert np.array_equal(image, shot)
    assert not image[10:20, 5:45].any()


def test_the_keys_in_the_environment_are_scrubbed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_GATEWAY_API_KEY", "gw-live-7c1d9e2f4a")
    monkeypatch.setenv("USE_TOKEN", "1")  # too short to be a key: left alone
    assert "gw-live-7c1d9e2f4a" in secrets_in_environment(os.environ) and "1" not in secrets_in_environment(os.environ)
    write_synthetic(tmp_path / "in", "pasted", [Click(1, 1), Type("export KEY=gw-live-7c1d9e2f4a\n")], instruction="Set the key")
    out = tmp_path / "ds"
    assert main(["export", str(tmp_path / "in"), "--out", str(out), "--quiet", "--format", "steps"]) == 0
    steps = datasets.load_dataset(str(out), "steps", split="train", cache_dir=str(tmp_path / "c"))
    assert steps["action"][1]["text"] == "export KEY=[SECRET]\n"
    assert b"gw-live-7c1d9e2f4a" not in b"".join(p.read_bytes() for p in out.rglob("*") if p.is_file())


def test_an_export_scrubs_the_secrets_file_the_keys_in_use_and_the_hub_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Which secrets an export scrubs is the export's rule (gui_agent/export/scrub.py), not its command's."""
    import huggingface_hub.constants

    monkeypatch.setattr(huggingface_hub.constants, "HF_TOKEN_PATH", str(tmp_path / "no-login"))
    secrets_file = tmp_path / "secrets.txt"
    secrets_file.write_text("# one a line\nhunter2-long\n\n")
    environ = {"MY_GATEWAY_API_KEY": "gw-live-7c1d9e2f4a", "HOME": "/home/someone"}
    assert export_secrets(secrets_file=secrets_file, environ=environ, push=False, scrub=True) == ExportSecrets(
        secrets=("hunter2-long", "gw-live-7c1d9e2f4a"), token=None)
    with pytest.raises(ExportError, match="--push needs a hub token"):
        export_secrets(secrets_file=None, environ=environ, push=True, scrub=True)
    monkeypatch.setenv("HF_TOKEN", "hf_test0123456789abcdef")
    assert export_secrets(secrets_file=None, environ=environ, push=False, scrub=True) == ExportSecrets(
        secrets=("gw-live-7c1d9e2f4a", "hf_test0123456789abcdef"), token="hf_test0123456789abcdef")
    # Neither pushing nor scrubbing: the token is not needed, so not looked up.
    assert export_secrets(secrets_file=None, environ=environ, push=False, scrub=False).token is None
