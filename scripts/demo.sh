#!/usr/bin/env bash
# The main job, end to end: set up (first time only), then run a real MiniWoB++ task in
# headless Chromium with the shipped pixel-in policy (it sees only the screenshot and the
# instruction), for five unseen seeds, write the episodes and print the outcomes.
# Extra arguments go to 'gui-agent run' (e.g. --policy oracle, --policy random).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/gui-agent run datasets/tasks/miniwob/enter-text.yaml --seeds 0-4 --out runs/demo "$@"
