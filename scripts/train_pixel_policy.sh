#!/usr/bin/env bash
# The shipped pixel policy from nothing, timed: record the oracle's demonstrations on
# training seeds (1000-1249 of the 16 miniwob-pixel tasks: 4,000 episodes, two workers),
# then behaviour-clone the policy on them (13 epochs, two torch threads, stopped by
# --time-budget at the latest). Prints each phase's wall time and the total; the
# checkpoint is OUT/pixel.pt. Then score it on unseen seeds with
#   .venv/bin/python scripts/bench_policy.py --checkpoint OUT/pixel.pt --seeds 0-49
# Usage: scripts/train_pixel_policy.sh [OUT] [TRAINING_BUDGET_MINUTES]   (defaults: runs/pixel-train, 40)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-runs/pixel-train}
budget=${2:-40}
mkdir -p "$out"
start=$(date +%s)
rc=0; .venv/bin/gui-agent eval miniwob-pixel --seeds 1000-1249 --workers 2 --out "$out/demos" --quiet || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || exit "$rc"  # 3: a few episodes unscored (environment faults)
demos=$(date +%s)
.venv/bin/gui-agent train policy "$out/demos/episodes" --out "$out/pixel.pt" --epochs 13 \
    --time-budget "$budget" --threads 2 --quiet
end=$(date +%s)
echo "demonstrations: $(( (demos - start) / 60 )) min $(( (demos - start) % 60 )) s"
echo "training:       $(( (end - demos) / 60 )) min $(( (end - demos) % 60 )) s"
echo "total:          $(( (end - start) / 60 )) min $(( (end - start) % 60 )) s  (load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
