# Plaza's everyday commands. `go run .` and `make test` are all a new
# developer needs; the rest are for working on Plaza itself.

VERSION  ?= $(shell cat VERSION)
LDFLAGS  := -s -w -X github.com/plazahq/plaza/internal/version.stamped=$(VERSION)
PKGS     := ./...
# Fuzzing budgets are counts of inputs, not durations: with a duration, Go
# 1.26's fuzz coordinator can fail a clean run with "context deadline
# exceeded" as the time runs out (fixed in Go 1.27).
FUZZ_EXTRACT   ?= 100000x
FUZZ_ENDPOINTS ?= 300x
FUZZ_NORMALIZE ?= 100000x
FUZZ_EVENTDATA ?= 100000x
ASSETS   := static/css/app.css static/js/console.min.js static/js/htmx.min.js tests/e2e/testdata/axe/axe.min.js tests/e2e/testdata/nextauth/next-auth-client.min.js tests/e2e/testdata/nextauth/LICENSE

.PHONY: screenshots run build test postgres-sample test-short check-generated check-assets generate css lint bench seed-bench race-walk contact-sheet gallery clean

run:
	go run .

build:
	go build -trimpath -ldflags "$(LDFLAGS)" -o bin/plaza .

# The whole suite: SQLite always; PostgreSQL, Redis and Chromium when they
# answer (REQUIRE_POSTGRES=1 / REQUIRE_REDIS=1 / REQUIRE_BROWSER=1 turn a
# missing one from a loud skip into a failure, as .ci/run does).
test: check-generated
	go vet $(PKGS)
	go test -count=1 -timeout 20m $(PKGS)
	@$(MAKE) -s postgres-sample
	go test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZ_EXTRACT) ./internal/linkpreview
	go test -run '^$$' -fuzz '^FuzzEndpoints$$' -fuzztime $(FUZZ_ENDPOINTS) ./handlers
	go test -run '^$$' -fuzz '^FuzzNormalize$$' -fuzztime $(FUZZ_NORMALIZE) ./internal/blocks
	go test -run '^$$' -fuzz '^FuzzAppendEventData$$' -fuzztime $(FUZZ_EVENTDATA) ./models

# A sample of the PostgreSQL-backed tests, listed to show they ran. Without
# PostgreSQL they skip, and that is only reported; REQUIRE_POSTGRES=1 makes
# "none ran" a failure.
postgres-sample:
	@echo "PostgreSQL-backed tests that ran (a sample):"; \
	out=$$(go test -count=1 -v -run 'TestMigrateFromEmpty|TestSchemaMatchesModels' ./models 2>&1) \
		|| { printf '%s\n' "$$out"; echo "the PostgreSQL sample failed" >&2; exit 1; }; \
	ran=$$(printf '%s\n' "$$out" | grep -e '--- PASS: .*/postgres' || true); \
	if [ -n "$$ran" ]; then printf '%s\n' "$$ran"; \
	elif [ "$$REQUIRE_POSTGRES" = 1 ]; then \
		printf '%s\n' "$$out" | grep -m1 -e 'PostgreSQL' >&2 || true; \
		echo "no PostgreSQL-backed test ran, and REQUIRE_POSTGRES=1 requires them" >&2; exit 1; \
	else \
		echo "  none: PostgreSQL does not answer, so its tests were skipped (REQUIRE_POSTGRES=1 makes this a failure)"; \
		printf '%s\n' "$$out" | grep -m1 -o -e 'SKIPPING PostgreSQL test: .*' | sed 's/^/  /' || true; \
	fi

test-short:
	go test -count=1 -short $(PKGS)

# Fails when the committed templ output does not match the .templ sources,
# or the committed Go SDK (client/) what the route table's OpenAPI document
# makes of it (docs/api.md, "The Go SDK"). Either is left regenerated.
check-generated:
	@stale=; \
	before=$$(cat views/*_templ.go | sha256sum); \
	out=$$(go tool templ generate -path views 2>&1) \
		|| { printf '%s\n' "$$out" >&2; echo "templ generate failed: fix the .templ source named above" >&2; exit 1; }; \
	after=$$(cat views/*_templ.go | sha256sum); \
	if [ "$$before" != "$$after" ]; then echo "templ output was stale and has been regenerated: commit views/*_templ.go"; stale=1; fi; \
	before=$$(cat client/client.gen.go | sha256sum); \
	out=$$(go generate ./client 2>&1) \
		|| { printf '%s\n' "$$out" >&2; echo "generating the Go SDK failed: see above" >&2; exit 1; }; \
	after=$$(cat client/client.gen.go | sha256sum); \
	if [ "$$before" != "$$after" ]; then echo "the Go SDK was stale and has been regenerated: commit client/client.gen.go"; stale=1; fi; \
	[ -z "$$stale" ]

# Fails when the committed CSS or htmx differ from what the committed
# package.json and package-lock.json build (needs Node.js and npm; CI runs it).
# Like check-generated it leaves the rebuilt files in place, ready to commit.
check-assets:
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	for f in $(ASSETS); do mkdir -p "$$tmp/$${f%/*}"; cp "$$f" "$$tmp/$$f" 2>/dev/null || true; done; \
	out=$$(npm ci --no-audit --no-fund 2>&1) || { printf '%s\n' "$$out" >&2; echo "check-assets: npm ci failed" >&2; exit 1; }; \
	out=$$(BROWSERSLIST_IGNORE_OLD_DATA=1 npm run build 2>&1) || { printf '%s\n' "$$out" >&2; echo "check-assets: npm run build failed" >&2; exit 1; }; \
	stale=; for f in $(ASSETS); do \
		cmp -s "$$f" "$$tmp/$$f" || { stale="$$stale $$f"; \
			echo "STALE: $$f: $$(wc -c <"$$tmp/$$f" 2>/dev/null || echo 0) bytes in the tree, $$(wc -c <"$$f") bytes built" >&2; }; \
	done; \
	if [ -n "$$stale" ]; then \
		echo "check-assets: the committed built assets differ from what 'npm ci && npm run build' makes from" >&2; \
		echo "package.json, package-lock.json, tailwind.config.js and views/*.templ. They have been rebuilt:" >&2; \
		echo "commit$$stale" >&2; exit 1; \
	fi; \
	echo "check-assets: $(ASSETS) match a fresh build"

# Regenerates everything committed that is built: templ output, the Go SDK,
# CSS and htmx.
generate:
	go tool templ generate -path views
	go generate ./client
	npm ci --no-audit --no-fund
	npm run build

css:
	npm run build:css

lint:
	go vet $(PKGS)
	go tool staticcheck $(PKGS)

bench:
	go test -run '^$$' -bench . -benchmem $(PKGS)

# The race walk with many racers (make test runs it with 4): every unsafe
# route's sample sent RACERS times at once, on both databases.
RACERS ?= 32
race-walk:
	go test -count=1 -run '^TestRaceWalk$$' ./handlers -walkers=$(RACERS) -v

seed-bench:
	bash bench/seed.sh

# The pictures in docs/, made by the real engines: 48 avatars on one sheet,
# and a dozen social images of mixed seeds and quote lengths.
contact-sheet:
	go run ./internal/avatar/contactsheet -o docs/avatars.png

gallery:
	go run ./internal/ogimage/gallery -out docs/og

# The console's pages in docs/console, taken by the browser tests from the
# real pages (needs Chromium).
screenshots:
	PLAZA_SCREENSHOTS=$(CURDIR)/docs/console go test -count=1 -run '^TestConsolePages$$' ./tests/e2e

clean:
	rm -rf bin
