# Two commands set everything up on a fresh machine:
#   make demo   installs Chromium if missing, then snapshots the embedded demo page
#   make test   lints the JavaScript and runs its unit tests (make js),
#               installs Chromium if missing, then vets and runs every Go test but
#               the long ones, left out by name (make test-long: the whole
#               shared corpus, and the tests through a Browserless farm)
GO ?= go
# Static builds: nothing here needs cgo, and a process without the dynamic
# loader and libc starts about 2 ms sooner (every snapshot is a process).
export CGO_ENABLED ?= 0

.PHONY: demo test test-long js chromium build install bench record record-sessions

demo: chromium
	$(GO) run ./cmd/axfuse snapshot

test: js chromium
	$(GO) vet ./...
	$(GO) test -timeout 40m -skip 'OnTheCorpus$$|ThroughAFarm$$|InEveryWidth$$' ./...

# The long suite: the tests that go through every page of ../shared/corpus
# (named ...OnTheCorpus), those through a local Browserless farm, which
# scripts/browserless installs and starts (named ...ThroughAFarm), and the
# whole native-controls matrix (named ...InEveryWidth); make test leaves
# them out by name, so nothing skips. CI runs it after make
# test.
test-long: chromium
	$(GO) test -count=1 -timeout 70m -run 'OnTheCorpus$$|ThroughAFarm$$|InEveryWidth$$' ./cmd/axfuse ./browser/chrome

# The JavaScript's lint (ESLint, pinned in package.json) and unit tests
# (*.test.cjs, under node --test); installs Node.js and the tools if missing.
js:
	@./scripts/js-check.sh

chromium:
	@./scripts/ensure-chromium.sh

# -buildvcs=auto: the binary records the commit it was built from (for
# `axfuse --version`) even where GOFLAGS turns that off.
build:
	$(GO) build -buildvcs=auto -o bin/axfuse ./cmd/axfuse

install:
	$(GO) install -buildvcs=auto ./cmd/axfuse

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./fuse ./paintorder

# Re-record the captures under testdata/captures from testdata/pages.
record: chromium build
	./scripts/record-captures.sh

# Re-record the act and MCP sessions under testdata/sessions (the scenarios
# of testdata/sessions/scenarios.json on real Chromium), which the act and
# mcpserver unit tests replay.
record-sessions: chromium
	AXFUSE_RECORD=1 $(GO) test -count=1 -run 'TestRecordedSessionsHoldLive$$' ./cmd/axfuse
