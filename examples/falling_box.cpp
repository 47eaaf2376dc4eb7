// The README's rigid-body example; the tests build and run it.
#include <collide2d/collide2d.hpp>
#include <cstdio>

int main() {
  using namespace collide2d;
  PhysicsWorld physics({.gravity = {0, -10}});  // a static ground whose top is y = 0, and a unit box above it
  physics.add({.shape = make_box(10, Real(0.5)).value(), .transform = Transform::from({0, Real(-0.5)}, 0), .type = BodyType::static_body});
  const BodyHandle box = physics.add({.shape = make_box(Real(0.5), Real(0.5)).value(), .transform = Transform::from({0, 4}, 0)}).value();
  for (int step = 0; step < 120; ++step) physics.step(Real(1) / 60);  // two seconds at 60 steps per second
  std::printf("after 2 s the box's centre rests at height %.2f, asleep: %s\n", double(physics.transform(box).position.y),
              physics.awake(box) ? "no" : "yes");
}
