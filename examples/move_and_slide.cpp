// The README's move-and-slide example; the tests build and run it.
#include <collide2d/collide2d.hpp>
#include <cstdio>

int main() {
  using namespace collide2d;
  World world;  // a 30-degree slope through the origin, and a box character above it
  world.add({.shape = make_box(20, 1).value(), .transform = Transform::from({Real(0.5), Real(-0.866)}, Real(0.5236))});
  const Polygon character = make_box(Real(0.5), Real(0.5)).value();
  MoveResult move = move_and_slide(world, character, Transform::from({0, 3}, 0), {0, -5});
  std::printf("landed at (%.2f, %.2f), on the floor: %s\n", double(move.transform.position.x), double(move.transform.position.y),
              move.on_floor ? "yes" : "no");
  for (int frame = 0; frame < 60; ++frame) {  // gravity pulls, the slope holds: no creeping down
    move = move_and_slide(world, character, move.transform, {0, Real(-0.1)});
  }
  std::printf("after 60 frames: (%.2f, %.2f)\n", double(move.transform.position.x), double(move.transform.position.y));
}
