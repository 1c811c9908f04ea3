PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test demo lint typecheck clean bench

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,plots,fast]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check --no-cache .
	$(BIN)/ruff format --check --no-cache .

typecheck: $(STAMP)
	$(BIN)/mypy

test: lint typecheck
	$(BIN)/python -m pytest

demo: $(STAMP)
	mkdir -p out
	for f in examples/*.toml; do $(BIN)/tabletop report $$f || exit 1; done
	@# check exits 1 when it finds violations (xwing-contested.toml has two on purpose)
	for f in examples/*.toml; do $(BIN)/tabletop check $$f; test $$? -le 1 || exit 1; done
	$(BIN)/tabletop measure examples/xwing-dogfight.toml wedge howl --arc front
	$(BIN)/tabletop move examples/xwing-dogfight.toml wedge straight 5
	for f in examples/*.toml; do $(BIN)/tabletop render $$f -o out/$$(basename $$f .toml).png || exit 1; done
	$(BIN)/tabletop render examples/xwing-dogfight.toml -o out/xwing-dogfight-move.png \
		--move wedge straight 5 --measure falcon vader --arc front

# The pictures of the bundled examples, for the docs (commit them after looking at them).
.PHONY: gallery
gallery: $(STAMP)
	mkdir -p docs/gallery
	for f in examples/*.toml; do $(BIN)/tabletop render $$f -o docs/gallery/$$(basename $$f .toml).png || exit 1; done

clean:
	rm -rf $(VENV) out .mypy_cache .pytest_cache .ruff_cache

bench: $(STAMP)
	@# byte-compile the packages as a regular install would (PYTHONDONTWRITEBYTECODE may be set)
	$(BIN)/python -m compileall -q geom obstacles maneuvers plots tabletop benchmarks
	$(BIN)/python -m benchmarks
