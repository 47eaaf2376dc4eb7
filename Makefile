# collide2d — the two commands a newcomer needs, plus a few for developers.
#   make run    install what is missing, build, run `collide2d pairs` on a shipped scene and
#               write its picture to build/pairs.svg
#   make test   install what is missing, build, run every test (float, Release)
#   make demo   install what is missing, build and open the interactive demo (DEMO_ARGS adds options)
#   make demo-screenshots   redraw the demo pictures in docs/images/ headless, under xvfb-run
.PHONY: run test test-double test-asan test-clang bench fuzz fuzz-build fuzz-smoke stress deps clean demo demo-screenshots

PRESET ?= release
# Test suites run side by side, one per core (each is single-threaded).
TEST_JOBS ?= $(shell nproc)

deps:
	@scripts/install-deps

build/%/build.ninja: CMakeLists.txt CMakePresets.json
	cmake --preset $*

RUN_SCENE ?= scenes/mixed.json

run: deps build/release/build.ninja
	cmake --build --preset release --target collide2d_cli
	./build/release/apps/cli/collide2d pairs $(RUN_SCENE) --svg build/pairs.svg
	@echo "picture: build/pairs.svg"

test: deps build/$(PRESET)/build.ninja
	cmake --build --preset $(PRESET)
	ctest --preset $(PRESET) --parallel $(TEST_JOBS)

DEMO ?= ./build/release/apps/demo/collide2d-demo
DEMO_ARGS ?=
demo: deps build/release/build.ninja
	cmake --build --preset release --target collide2d_demo
	$(DEMO) $(DEMO_ARGS)

# The README's pictures of views 1, 2, 3 and 5, each the last of a scripted run.
HEADLESS = xvfb-run -a -s '-screen 0 1280x1024x24'
demo-screenshots: deps build/release/build.ninja
	cmake --build --preset release --target collide2d_demo
	$(HEADLESS) $(DEMO) --view boxes --frames 75 --keys right:50,i+right:25 --screenshot docs/images/demo-boxes.png
	$(HEADLESS) $(DEMO) --view minkowski --frames 4 --keys e:1,n:1,n:1,wait:1 --screenshot docs/images/demo-minkowski.png
	$(HEADLESS) $(DEMO) --view slopes --frames 230 --keys right:100,right+up:2,right:128 --screenshot docs/images/demo-slopes.png
	$(HEADLESS) $(DEMO) --view playground --frames 150 --screenshot docs/images/demo-playground.png
	$(HEADLESS) $(DEMO) --view scene --scene scenes/mixed.json --frames 2 --screenshot docs/images/demo-scene.png

test-double:
	$(MAKE) test PRESET=double

test-asan:
	$(MAKE) test PRESET=asan-ubsan

test-clang:
	$(MAKE) test PRESET=clang

# make stress: the reliability run's big world under ASan and UBSan: a million bodies moving for
# 100 frames, a hundred removed and added each frame, every contact checked against the narrow
# phase and sampled bodies checked for lost contacts (tests/stress_world.cpp; several minutes).
STRESS_ARGS ?= 1000000 100
stress: deps build/asan-ubsan/build.ninja
	cmake --build build/asan-ubsan --target stress_world
	./build/asan-ubsan/tests/stress_world $(STRESS_ARGS)

# make bench: builds the Release benchmarks (the bench preset), runs ours and Box2D/Chipmunk on the
# same inputs (3 repetitions, randomly interleaved so a disturbance of the machine does not hit one
# benchmark's every repetition; medians), prints the table and writes bench/results/latest.json.
# BENCH_ARGS adds options, e.g. BENCH_ARGS=--benchmark_filter=collide
BENCH_ARGS ?=
bench: deps build/bench/build.ninja
	cmake --build build/bench --target collide2d_bench
	./build/bench/bench/collide2d_bench --benchmark_repetitions=3 --benchmark_enable_random_interleaving=true \
	  --benchmark_display_aggregates_only=true \
	  --benchmark_out=build/bench/raw.json --benchmark_out_format=json $(BENCH_ARGS)
	python3 bench/report.py build/bench/raw.json

# make fuzz: builds the libFuzzer targets (the fuzz preset: Clang, ASan, UBSan) and runs each for
# FUZZ_SECONDS (default 600) in one process, growing its corpus in build/fuzz/corpus/TARGET (the
# JSON and XML readers start from scenes/). A crash, sanitizer report or broken invariant stops
# the target and leaves the input as build/fuzz/crash-*; replay it with ./build/fuzz/fuzz/TARGET FILE.
# make fuzz-smoke: the CI run, each target for FUZZ_RUNS inputs with a fixed seed, FUZZ_JOBS
# targets at a time (below): -use_cmp=0 keeps
# the operands of traced comparisons (pointers among them, which address randomisation moves) out
# of the mutations, and -reload=0 keeps libFuzzer from re-reading its corpus directory every
# second. Both start from scenes/ (the file readers) and fuzz/regressions/TARGET: every input a
# fuzzer broke an invariant with, named after what it found, replayed first on every run. The
# seeds go in one to a directory, in a fixed order (scripts/fuzz-seeds): libFuzzer takes a
# directory's files in the file system's order, which differs between machines, and among seeds
# of one size it keeps that order, so a run with a fixed seed explored differently on another
# machine (the CI's mover smoke broke an invariant there that it passed here). Runs still part
# now and then: one of three identical mover smokes parted after 12,393 inputs (cause not found).
# Longest smoke first (fuzz-smoke runs them FUZZ_JOBS at a time, in this order).
FUZZ_TARGETS = fuzz_world fuzz_mover fuzz_pair_queries fuzz_scene_json fuzz_outline fuzz_scene_steersuite
FUZZ_SECONDS ?= 600
FUZZ_RUNS ?= 200000
# The mover target is slower (a world and a move per input, about 1,300 inputs a second under
# ASan), so its smoke runs fewer: 60,000 took about 50 seconds on the Intel host, 92-97 on the
# AMD EPYC. Inputs a target breaks that are not yet fixed wait in fuzz/open/TARGET (CHANGELOG,
# "Known"), outside the smoke's seeds.
FUZZ_MOVER_RUNS ?= 60000
# The smoke's targets run side by side, one per core: each is its own process with its own seed
# directory, corpus and log, so each explores as it did when they ran one after another. On the
# 2-core AMD EPYC host the six took 364 s one after another (world 129, mover 97, pair queries
# 86, JSON 35, outline 11, SteerSuite 6), and 182 s two at a time.
FUZZ_JOBS ?= $(shell nproc)
FUZZ_FLAGS = -rss_limit_mb=2048 -timeout=10 -artifact_prefix=build/fuzz/
fuzz-build: deps build/fuzz/build.ninja
	cmake --build build/fuzz --target $(FUZZ_TARGETS)

fuzz: fuzz-build
	@for target in $(FUZZ_TARGETS); do \
	  mkdir -p build/fuzz/corpus/$$target; \
	  seeds="$$(scripts/fuzz-seeds $$target build/fuzz/seeds/$$target)"; \
	  echo "fuzz: $$target for $(FUZZ_SECONDS) s"; \
	  ./build/fuzz/fuzz/$$target build/fuzz/corpus/$$target $$seeds -max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS) > build/fuzz/$$target.log 2>&1 \
	    || { tail -n 40 build/fuzz/$$target.log; exit 1; }; tail -n 2 build/fuzz/$$target.log; \
	done

fuzz-smoke: fuzz-build
	@$(MAKE) --no-print-directory -j$(FUZZ_JOBS) $(addprefix fuzz-smoke-,$(FUZZ_TARGETS))

.PHONY: $(addprefix fuzz-smoke-,$(FUZZ_TARGETS))
$(addprefix fuzz-smoke-,$(FUZZ_TARGETS)): fuzz-smoke-%:
	@target=$*; \
	seeds="$$(scripts/fuzz-seeds $$target build/fuzz/seeds/$$target)"; \
	mkdir -p build/fuzz/smoke/$$target && rm -f build/fuzz/smoke/$$target/*; \
	runs="$$(case $$target in fuzz_mover) echo $(FUZZ_MOVER_RUNS);; *) echo $(FUZZ_RUNS);; esac)"; \
	echo "fuzz-smoke: $$target, $$runs runs, seed 1"; \
	./build/fuzz/fuzz/$$target build/fuzz/smoke/$$target $$seeds -seed=1 -runs=$$runs -reload=0 -use_cmp=0 $(FUZZ_FLAGS) > build/fuzz/$$target.log 2>&1 \
	  || { echo "fuzz-smoke: $$target failed:"; tail -n 40 build/fuzz/$$target.log; exit 1; }; \
	echo "fuzz-smoke: $$target: $$(tail -n 1 build/fuzz/$$target.log)"

clean:
	rm -rf build
