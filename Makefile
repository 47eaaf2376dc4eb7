# collide2d — the two commands a newcomer needs, plus a few for developers.
#   make run    install what is missing, build, run `collide2d pairs` on a shipped scene and
#               write its picture to build/pairs.svg
#   make test   install what is missing, build, run every test (float, Release)
.PHONY: run test test-double test-asan test-clang bench deps clean

PRESET ?= release

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
	ctest --preset $(PRESET)

test-double:
	$(MAKE) test PRESET=double

test-asan:
	$(MAKE) test PRESET=asan-ubsan

test-clang:
	$(MAKE) test PRESET=clang

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

clean:
	rm -rf build
