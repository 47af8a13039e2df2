#!/usr/bin/env bash
# Installs Debian's Chromium and fonts when no Chromium is on PATH, so that
# a fresh machine runs the demo and the end-to-end tests with no manual step.
set -euo pipefail
for b in chromium chromium-browser google-chrome google-chrome-stable; do
  if command -v "$b" >/dev/null 2>&1; then exit 0; fi
done
echo "ensure-chromium: installing Debian's chromium package" >&2
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium fonts-liberation fonts-dejavu-core >/dev/null
command -v chromium >/dev/null
