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

bench:
	@echo "make bench: the benchmarks against Box2D and Chipmunk arrive with issue 7; nothing to run yet."

clean:
	rm -rf build
