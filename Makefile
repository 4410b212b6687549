# Plaza's everyday commands. `go run .` and `make test` are all a new
# developer needs; the rest are for working on Plaza itself.

VERSION  ?= $(shell cat VERSION)
LDFLAGS  := -s -w -X github.com/plazahq/plaza/internal/version.stamped=$(VERSION)
PKGS     := ./...

.PHONY: run build test postgres-sample test-short check-generated generate css lint bench seed-bench contact-sheet gallery clean

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
	go test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime 10s ./internal/linkpreview

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

# Fails when the committed templ output does not match the .templ sources.
check-generated:
	@before=$$(cat views/*_templ.go | sha256sum); \
	out=$$(go tool templ generate -path views 2>&1) \
		|| { printf '%s\n' "$$out" >&2; echo "templ generate failed: fix the .templ source named above" >&2; exit 1; }; \
	after=$$(cat views/*_templ.go | sha256sum); \
	if [ "$$before" != "$$after" ]; then echo "templ output was stale and has been regenerated: commit views/*_templ.go"; exit 1; fi

# Regenerates everything committed that is built: templ output, CSS and htmx.
generate:
	go tool templ generate -path views
	npm ci --no-audit --no-fund
	npm run build

css:
	npm run build:css

lint:
	go vet $(PKGS)
	go tool staticcheck $(PKGS)

bench:
	go test -run '^$$' -bench . -benchmem $(PKGS)

seed-bench:
	bash bench/seed.sh

# The pictures in docs/, made by the real engines: 48 avatars on one sheet,
# and a dozen social images of mixed seeds and quote lengths.
contact-sheet:
	go run ./internal/avatar/contactsheet -o docs/avatars.png

gallery:
	go run ./internal/ogimage/gallery -out docs/og

clean:
	rm -rf bin
