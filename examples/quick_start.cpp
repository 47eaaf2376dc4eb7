// The README's quick-start example; the tests build and run it.
#include <collide2d/collide2d.hpp>
#include <cstdio>

int main() {
  using namespace collide2d;
  const Polygon box = make_box(1, 1).value();                   // a 2 x 2 box
  const Circle ball{.center = {0, 0}, .radius = Real(0.5)};
  const Transform box_at = Transform::from({0, 0}, Real(0.3));  // turned 0.3 rad
  const Transform ball_at = Transform::from({1.2f, 0.4f}, 0);
  if (auto hit = penetration(box, box_at, ball, ball_at)) {
    std::printf("depth %.4f along (%.4f, %.4f)\n", double(hit->depth), double(hit->normal.x), double(hit->normal.y));
  }
  std::printf("distance %.4f\n", double(distance(box, box_at, ball, Transform::from({4, 0}, 0)).distance));
}
