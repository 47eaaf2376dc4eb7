// A concave outline as one solid: an L-shaped wall cut into convex pieces, a box resting in its
// corner, and the contacts between them, one manifold per piece the box touches.
#include <collide2d/collide2d.hpp>
#include <cstdio>
#include <vector>

int main() {
  using namespace collide2d;
  const std::vector<Vec2> l_shape = {{0, 0}, {4, 0}, {4, 1}, {1, 1}, {1, 4}, {0, 4}};
  const Shape wall = shape_from_outline(l_shape).value();  // concave: a Compound of convex pieces
  std::printf("pieces %zu\n", std::get<Compound>(wall).children().size());

  const Shape box = make_box(Real(0.5), Real(0.5)).value();
  const Transform box_at = Transform::from({Real(1.45), Real(1.45)}, 0);  // pressed 0.05 into both arms
  std::vector<ChildManifold> contacts;
  contact_manifolds(wall, Transform{}, box, box_at, contacts);
  for (const ChildManifold& contact : contacts) {
    std::printf("piece %d: normal (%.2f, %.2f), %d points, depth %.2f\n", contact.child_a, double(contact.manifold.normal.x),
                double(contact.manifold.normal.y), contact.manifold.point_count, double(-contact.manifold.points[0].separation));
  }
  // Moved out of the corner into the notch of the L, it is inside the L's convex hull but clear of the wall.
  std::printf("overlap in the notch %s\n", overlap(wall, Transform{}, box, Transform::from({2, 2}, 0)) ? "yes" : "no");
}
