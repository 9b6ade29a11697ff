#!/usr/bin/env bash
# The whole test suite, slow tests included: set up (first time only), then pytest.
# Extra arguments go to pytest (e.g. -k episode, -x).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/python -m pytest "$@"
