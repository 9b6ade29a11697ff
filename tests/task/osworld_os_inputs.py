"""Locally made inputs of imported OSWorld os tasks: the set-up and evaluation scripts
OSWorld downloads from Google Drive, written the way the tasks' instructions say."""

from __future__ import annotations

from pathlib import Path

BR = "os-5ced85fc-fa1a-4217-95fd-0fb530545ce2"
PHP = "os-4127319a-8b79-4410-b58a-7a151e15f3d7"
PERM = "os-4d117223-a354-47fb-8b45-62ab1390a95f"

EVAL_BR = """#!/bin/bash
# output.txt holds 1, 2 and 3, each line ending in <br/>.
expected=$'1<br/>\\n2<br/>\\n3<br/>'
if [ -f output.txt ] && [ "$(cat output.txt)" = "$expected" ]; then
  echo "Success: The task has been completed correctly."
else
  echo "Failure: output.txt is $(cat output.txt 2>/dev/null | tr '\\n' '|')"
fi
"""

#: ~/project: .php files of 20 + 30 + 4 = 54 lines, and other files (16 lines) beside them.
SETUP_PHP = """#!/bin/bash
mkdir -p ~/project/src/lib ~/project/web
for n in $(seq 20); do echo "<?php echo $n; ?>"; done > ~/project/index.php
for n in $(seq 30); do echo "<?php \\$x$n = $n; ?>"; done > ~/project/src/model.php
for n in $(seq 4); do echo "<?php // $n"; done > ~/project/src/lib/util.php
for n in $(seq 10); do echo "line $n"; done > ~/project/README.md
for n in $(seq 6); do echo "<p>$n</p>"; done > ~/project/web/index.html
"""

#: ~/testDir: regular files of other modes at three depths, and folders (which keep theirs).
SETUP_PERM = """#!/bin/bash
mkdir -p testDir/a/b
touch testDir/top.txt testDir/a/mid.sh testDir/a/b/deep.cfg
chmod 600 testDir/top.txt; chmod 755 testDir/a/mid.sh; chmod 777 testDir/a/b/deep.cfg
chmod 755 testDir/a testDir/a/b
"""
EVAL_PERM = """#!/bin/bash
wrong=$(find testDir -type f ! -perm 644 | sort | tr '\\n' ' ')
dirs=$(find testDir -mindepth 1 -type d ! -perm 755 | sort | tr '\\n' ' ')
if [ -z "$wrong" ] && [ -z "$dirs" ]; then echo "All files have the correct permissions."; else echo "Wrong modes: $wrong$dirs"; fi
"""

INPUTS: dict[str, dict[str, str]] = {
    BR: {"eval.sh": EVAL_BR}, PHP: {"setup.sh": SETUP_PHP}, PERM: {"setup.sh": SETUP_PERM, "eval.sh": EVAL_PERM},
}


def write_inputs(name: str, inputs: Path) -> None:
    """Write the inputs of the imported task ``name`` (``os-<id>``) into ``inputs``."""
    inputs.mkdir(parents=True, exist_ok=True)
    for file, text in INPUTS[name].items():
        (inputs / file).write_text(text)
