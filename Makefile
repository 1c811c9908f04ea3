comma := ,
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test demo lint typecheck clean bench docs browser lock test-latest

# Every package `make demo` and `make test` install, at the exact version the suite last passed
# on: requirements.lock, written by `make lock` (uv pip compile over pyproject.toml's ranges and
# the extras below). pyproject.toml keeps ranges, for installs into one's own environment.
LOCK := requirements.lock
EXTRAS := test,plots,fast,docs,serve,cluster
UV_VERSION := 0.13.9

# The batch kernels compiled ahead of time (tabletop.geom.compiled): built after the install, and again
# when a kernel source changes. A failed build warns in one line; the numba JIT path serves.
AOT := $(VENV)/.aot-built
AOT_SOURCES := $(addprefix tabletop/,geom/_kernels.py geom/_arc_kernel.py geom/numba_support.py \
	geom/tolerance.py geom/compiled.py geom/aot_build.py \
	obstacles/_kernels.py obstacles/_compiled.py obstacles/_aot_build.py)

$(STAMP): pyproject.toml $(LOCK)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	@# the locked versions of every dependency and extra (serve: the board's server; test
	@# carries playwright, which drives the system's Chromium; cluster: dask.distributed, for
	@# --scheduler), then the project itself on top without resolving anything again
	$(BIN)/python -m pip install -q -r $(LOCK)
	$(BIN)/python -m pip install -q --no-deps --no-build-isolation -e .
	@$(MAKE) --no-print-directory browser
	$(BIN)/python -m tabletop.geom.aot_build
	$(BIN)/python -m tabletop.obstacles._aot_build
	touch $(STAMP)
	touch $(AOT)

$(AOT): $(STAMP) $(AOT_SOURCES)
	$(BIN)/python -m tabletop.geom.aot_build
	$(BIN)/python -m tabletop.obstacles._aot_build
	touch $(AOT)

# The browser of the board's browser tests: Debian's chromium (Playwright's own browser
# downloads are not used). Installed when missing and we are root; otherwise one line says
# that those tests will skip.
CHROMIUM := /usr/bin/chromium
browser:
	@if [ -x $(CHROMIUM) ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -q && apt-get install -y -q chromium \
		|| echo "chromium could not be installed: the board's browser tests will skip"; \
	else echo "no $(CHROMIUM) and not root to install it: the board's browser tests will skip"; fi

# A new lock from pyproject.toml's ranges: the newest releases that satisfy them, today.
# Run `make test` after it, and commit requirements.lock only when that passes.
lock:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q uv==$(UV_VERSION)
	$(BIN)/uv pip compile pyproject.toml --python-version 3.11 --quiet \
		$(foreach e,$(subst $(comma), ,$(EXTRAS)),--extra $(e)) \
		--custom-compile-command 'make lock' -o $(LOCK)

# The whole suite on the newest releases (no lock), in a venv of its own: what `make lock`
# would pin tomorrow, tried before it is pinned.
LATEST := .venv-latest
test-latest:
	rm -rf $(LATEST)
	$(PYTHON) -m venv $(LATEST)
	$(LATEST)/bin/python -m pip install -q --upgrade pip
	$(LATEST)/bin/python -m pip install -q --upgrade -e '.[$(EXTRAS)]'
	$(LATEST)/bin/python -m pip list --format=freeze > $(LATEST)/versions.txt
	$(LATEST)/bin/python -m tabletop.geom.aot_build
	$(LATEST)/bin/python -m tabletop.obstacles._aot_build
	$(LATEST)/bin/ruff check --no-cache .
	$(LATEST)/bin/mypy
	@# the kernels it compiled are this venv's; the project's own venv compiles its own again
	rm -f $(AOT)
	$(LATEST)/bin/python -m pytest -p no:cacheprovider
	@echo "newest releases tried: $(LATEST)/versions.txt"

lint: $(STAMP)
	$(BIN)/ruff check --no-cache .
	$(BIN)/ruff format --check --no-cache .

typecheck: $(STAMP)
	$(BIN)/mypy

test: lint typecheck docs $(AOT)
	$(BIN)/python -m pytest

# The manual's site, from docs/ and mkdocs.yml, into site/; --strict fails on any warning
# (a broken link or anchor, a page left out of the nav, an API name it cannot document).
# NO_MKDOCS_2_WARNING silences mkdocs-material's notice about its own end of life, which
# says nothing about this site.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

demo: $(STAMP) $(AOT)
	mkdir -p out
	@# the list at the end names the files written from here on
	touch out/.demo-start
	@# byte-compile the package as a regular install does (pip compiles what it installs;
	@# the editable install's sources are compiled here, PYTHONDONTWRITEBYTECODE or not)
	$(BIN)/python -m compileall -q tabletop
	for f in examples/*.toml; do $(BIN)/tabletop report $$f || exit 1; done
	@# check exits 1 when it finds violations (xwing-contested.toml has two on purpose)
	for f in examples/*.toml; do $(BIN)/tabletop check $$f; test $$? -le 1 || exit 1; done
	@# every measurement with its margin, smallest first; fixes off (exit 1: two violations)
	$(BIN)/tabletop check examples/xwing-contested.toml --margins --no-fix; test $$? -eq 1
	$(BIN)/tabletop measure examples/xwing-dogfight.toml wedge howl --arc front
	$(BIN)/tabletop measure examples/xwing-dogfight.toml wedge howl --arc front --also tts
	$(BIN)/tabletop measure examples/armada-standard.toml victory setup:left
	$(BIN)/tabletop move examples/xwing-dogfight.toml wedge straight 5
	$(BIN)/tabletop list tokens --ruleset armada
	@# which compiled path the batch functions take (aot: the kernels compiled ahead of time)
	$(BIN)/python -c 'from tabletop.geom import batch; print("batch functions run on:", batch.backend())'
	for f in examples/*.toml; do $(BIN)/tabletop render $$f -o out/$$(basename $$f .toml).png --force || exit 1; done
	$(BIN)/tabletop render examples/xwing-dogfight.toml -o out/xwing-dogfight-move.png --force \
		--move wedge straight 5 --measure falcon vader --arc front
	$(BIN)/tabletop pocket check examples/pocket/battle-60.toml
	@# the illegal army exits 1 on purpose (formation broken, over the size)
	$(BIN)/tabletop pocket check examples/pocket/illegal-army.toml; test $$? -eq 1
	$(BIN)/tabletop pocket replay examples/pocket/full-battle.toml
	$(BIN)/tabletop pocket render examples/pocket/full-battle.toml -o out/pocket-full-battle.png --force
	$(BIN)/tabletop dogfight check examples/dogfight/standard.toml
	$(BIN)/tabletop dogfight moves examples/dogfight/midgame.toml --depth 2
	$(BIN)/tabletop dogfight replay examples/dogfight/game.toml
	$(BIN)/tabletop dogfight render examples/dogfight/midgame.toml -o out/dogfight-midgame.png --fighter d4 --force
	$(BIN)/tabletop dogfight play --games 1000 --seed 1
	@# organized play: a new Armada event paired and scored, the finished examples audited and drawn
	rm -f out/demo-event.toml
	$(BIN)/tabletop event new --game armada --players examples/events/armada-players.csv --seed 7 -o out/demo-event.toml
	$(BIN)/tabletop event pair out/demo-event.toml
	for t in 1 2 3 4 5 6; do $(BIN)/tabletop event result out/demo-event.toml 1 $$t --scores 138 105 || exit 1; done
	$(BIN)/tabletop event pair out/demo-event.toml
	$(BIN)/tabletop event standings out/demo-event.toml
	$(BIN)/tabletop event check examples/events/armada-store-championship.toml
	$(BIN)/tabletop event check examples/events/armada-planted-fault.toml; test $$? -eq 1
	$(BIN)/tabletop event render examples/events/destiny-regional-top8.json -o out/destiny-regional-top8.png --force
	@# client saves (written from the format facts by examples/saves/make_saves.py, not by the
	@# clients): each imported; the TTS save checked directly; the log checked step by step
	@# (step 3 puts a ship on another's base on purpose: exit 1)
	for f in examples/saves/*.json examples/saves/*.vsav examples/saves/*.vlog; do \
		$(BIN)/tabletop import $$f -o out/$$(basename $$f | tr . -).toml --force || exit 1; done
	$(BIN)/tabletop check examples/saves/xwing2-tournament.json
	$(BIN)/tabletop check examples/saves/xwing2-first-moves.vlog --all-steps; test $$? -eq 1
	@# the board: tabletop serve on the tournament table, a rock dragged in headless Chromium,
	@# the page with its verdict written to out/board.png; the server stopped after it
	$(BIN)/python -m benchmarks.board_demo out/board.png
	@# what was written to out/, and what each file shows
	@$(BIN)/python -m benchmarks.demo_outputs out

# The pictures of the bundled examples, for the docs (commit them after looking at them).
.PHONY: gallery
gallery: $(STAMP)
	mkdir -p docs/gallery
	for f in examples/*.toml; do $(BIN)/tabletop render $$f -o docs/gallery/$$(basename $$f .toml).png --force || exit 1; done
	$(BIN)/tabletop pocket render examples/pocket/battle-60.toml -o docs/gallery/pocket-battle-60.png --force
	$(BIN)/python -m benchmarks.board_demo docs/gallery/board.png

clean:
	rm -rf $(VENV) $(LATEST) out site .mypy_cache .pytest_cache .ruff_cache
	rm -f tabletop/geom/_kernels_aot*.so tabletop/obstacles/_kernels_aot*.so

bench: $(STAMP) $(AOT)
	@# byte-compile the packages as a regular install would (PYTHONDONTWRITEBYTECODE may be set)
	$(BIN)/python -m compileall -q tabletop benchmarks
	$(BIN)/python -m benchmarks
	@# each kernel against a C loop of it (the system cc), a plain numba loop and shapely
	$(BIN)/python -m benchmarks.kernels
	$(BIN)/python -m benchmarks.pocket
	$(BIN)/python -m benchmarks.scaling
	@# whole commands against plain scripts: measure, --version, check vs an STRtree script
	$(BIN)/python -m benchmarks.commands
	$(BIN)/python -m benchmarks.bounds
	$(BIN)/python -m benchmarks.dogfight
	$(BIN)/python -m benchmarks.event
	$(BIN)/python -m benchmarks.imports
	@# bulk jobs: play, setup --count and query on 1, 2 and 4 processes and LocalCluster workers
	$(BIN)/python -m benchmarks.bulk
	@# the board: check through the server and through tabletop query, then the page's own
	@# time from the end of a drag to the verdict drawn (headless Chromium)
	$(BIN)/python -m benchmarks.board
	$(BIN)/python -m benchmarks.board_browser
