#!/usr/bin/env bash
# The JavaScript's checks (issue 51: the JavaScript is code too), run by
# `make js` and so by `make test`: ESLint over every JS file of the
# repository (eslint.config.mjs), then the JS unit tests (*.test.cjs,
# next to what they test) under `node --test`. Either failing fails it.
# On a fresh machine it installs what it needs: Debian's Node.js and npm
# when there is no node, and the pinned tools (package-lock.json, with
# npm ci) when node_modules is missing or was installed from another
# lock file.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "js-check: installing Debian's nodejs and npm packages" >&2
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq nodejs npm >/dev/null
fi

# node_modules/.js-check-lock: the lock file node_modules was installed
# from (a checkout's file times say nothing about that).
if ! cmp -s package-lock.json node_modules/.js-check-lock 2>/dev/null; then
  echo "js-check: npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.js-check-lock
fi

node_modules/.bin/eslint .

tests=()
while IFS= read -r f; do tests+=("$f"); done < <(
  find . \( -name node_modules -o -name testdata -o -name .git \) -prune -o -name '*.test.cjs' -print | sort)
if [ ${#tests[@]} -eq 0 ]; then
  echo "js-check: no *.test.cjs found" >&2
  exit 1
fi
node --test --test-reporter=spec "${tests[@]}"
