#!/usr/bin/env bash
# Installs everything gui-agent needs on a fresh Debian machine, and nothing twice:
# apt packages (Xvfb, Chromium, xdotool, fonts), a virtualenv in .venv, torch (CPU) first,
# then the project with its test extras. Safe to run again; quiet when nothing is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# The FFmpeg 5 libraries are what torchcodec (datasets.Video decoding, export --video) links against.
APT_PACKAGES=(xvfb xdotool chromium x11-utils xauth fonts-dejavu-core openbox libreoffice-calc libreoffice-writer libreoffice-impress thunderbird
              libavutil57 libavcodec59 libavformat59 libavdevice59 libavfilter8 libswscale6 libswresample4
              x11vnc novnc websockify
              gimp vlc xterm pcmanfm xclip ffmpeg tesseract-ocr gedit
              dbus-daemon at-spi2-core libatk-adaptor libreoffice-gtk3 python3-pyatspi python3-gi gir1.2-gtk-3.0)
TORCH_PIN="torch==2.13.0"   # a CPU wheel; a bare 'torch' pulls a multi-GB CUDA build

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing apt packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# VS Code (code-server from npm, in .tools/code-server): the vscode app of desktop tasks.
bash scripts/install_code_server.sh

PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PYTHON" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi
if ! .venv/bin/python -c "import torch" 2>/dev/null; then
  echo "setup: installing $TORCH_PIN (CPU)"
  .venv/bin/python -m pip install -q "$TORCH_PIN"
fi
stamp=".venv/.gui-agent-installed"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ setup.py -nt "$stamp" ]; then
  echo "setup: installing gui-agent and its test tools into .venv"
  log=$(mktemp)
  if ! .venv/bin/python -m pip install -q -e ".[test]" >"$log" 2>&1; then
    cat "$log"; rm -f "$log"; echo "setup: installing the project failed (output above)" >&2; exit 1
  fi
  rm -f "$log"
  touch "$stamp"
fi
