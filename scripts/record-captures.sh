#!/usr/bin/env bash
# Records testdata/captures/NAME.capture.json from testdata/pages/NAME.html
# with axfuse itself (bin/axfuse), for the golden tests.
set -euo pipefail
cd "$(dirname "$0")/.."
for page in testdata/pages/*.html; do
  # full captures (capture's default)
  name=$(basename "$page" .html)
  ./bin/axfuse capture "$page" -o "testdata/captures/$name.capture.json"
  echo "recorded $name"
done
# Viewport-first captures of long pages, for the tests that fuse both kinds
# of one page alike (and of the drag board, whose drag targets the viewport
# pass must find as the full capture does, and of the delegated orders,
# whose cursor spans Chrome makes no AX node of).
for name in big shop scrolled drag delegated sight ariahidden standin paint; do
  ./bin/axfuse capture --capture viewport "testdata/pages/$name.html" -o "testdata/captures/$name-viewport.capture.json"
  echo "recorded $name-viewport"
done
# The names and paint cases (issue 50), pixels and all: what the fuse
# stage makes of names of unseen things, generated content and inert text.
./bin/axfuse capture testdata/pages/names/index.html -o testdata/captures/names.capture.json
echo "recorded names"
# testdata/pages/frames needs two sites (127.0.0.1 and localhost) from one
# server: its end-to-end test serves it and records the capture.
AXFUSE_RECORD=1 go test -count=1 -run 'TestFramesAndShadowRootsInOneTree$' ./cmd/axfuse
echo "recorded frames"
# The ground-truth page, with the browser's hit tests (package truth).
./bin/axfuse capture --hits testdata/pages/truth/index.html -o testdata/captures/truth-hits.capture.json
echo "recorded truth-hits"
