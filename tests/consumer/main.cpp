// Links against the installed library and checks one answer.
#include <collide2d/collide2d.hpp>

int main() {
  using namespace collide2d;
  const Polygon box = make_box(1, 1).value();
  const bool touching = overlap(box, Transform{}, Circle{{0, 0}, 1}, Transform::from({2, 0}, 0));
  const bool apart = overlap(box, Transform{}, Circle{{0, 0}, 1}, Transform::from({2.5f, 0}, 0));
  return touching && !apart ? 0 : 1;
}
