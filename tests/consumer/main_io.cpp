// Links against the installed collide2d::io, loads the scene file named on the command line and
// checks that it holds at least two bodies.
#include <collide2d/collide2d.hpp>
#include <collide2d/io/scene.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const auto scene = collide2d::io::load_scene(argv[1]);
  if (!scene) {
    std::fprintf(stderr, "%s\n", scene.error().message.c_str());
    return 1;
  }
  std::printf("%zu bodies\n", scene.value().bodies.size());
  return scene.value().bodies.size() >= 2 ? 0 : 1;
}
