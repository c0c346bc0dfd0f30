# The two commands of the README:
#   make run   - install, build a demo club in an embedded SQLite database, serve it (and a worker)
#   make test  - install everything and run the whole test suite (scripts/test: on all cores)
VENV := .venv/bin
DEMO_DB := var/demo.sqlite3
PORT ?= 8000

.PHONY: run test install install-test demo acceptance benchmarks clean

install:
	scripts/bootstrap

install-test:
	scripts/bootstrap --test

demo: install
	mkdir -p var
	@if [ ! -f $(DEMO_DB) ]; then $(VENV)/clubrating --database sqlite:///$(DEMO_DB) demo; fi

# A worker beside the server analyses what is published or given moves; it stops with the server.
run: demo
	$(VENV)/clubrating --database sqlite:///$(DEMO_DB) worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(VENV)/clubrating --database sqlite:///$(DEMO_DB) serve --port $(PORT)

test: install-test
	scripts/test

acceptance: install-test
	scripts/acceptance

benchmarks: install-test
	for b in benchmarks/bench_*.py; do $(VENV)/python $$b; done

clean:
	rm -rf .venv var build *.egg-info src/*.egg-info
