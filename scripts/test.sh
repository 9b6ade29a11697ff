#!/usr/bin/env bash
# The whole test suite, slow tests included: set up (first time only), then pytest in two
# worker processes (pytest-xdist; GUI_AGENT_TEST_WORKERS=1 runs it in one).
# Extra arguments go to pytest (e.g. -k episode, -x).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
workers="${GUI_AGENT_TEST_WORKERS:-2}"
if [ "$workers" -gt 1 ]; then
  exec .venv/bin/python -m pytest -n "$workers" "$@"
fi
exec .venv/bin/python -m pytest "$@"
