#!/usr/bin/env bash
# The main job, end to end: set up (first time only), then run a real MiniWoB++ task in
# headless Chromium with the scripted oracle, write the episode and print the outcome.
# Extra arguments go to 'gui-agent run' (e.g. --policy random, --seed 3).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/gui-agent run datasets/tasks/miniwob/click-button.yaml --policy oracle --out runs/demo "$@"
