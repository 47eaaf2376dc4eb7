// queries.cpp — the Shape-variant front doors of overlap, penetration and distance; each visits
// both shapes and calls the typed query.
#include "collide2d/distance.hpp"
#include "collide2d/overlap.hpp"
#include "collide2d/penetration.hpp"

namespace collide2d {

bool overlap(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b) {
  return std::visit([&](const auto& shape_a, const auto& shape_b) { return overlap(shape_a, transform_a, shape_b, transform_b); }, a, b);
}

std::optional<Penetration> penetration(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b) {
  return std::visit([&](const auto& shape_a, const auto& shape_b) { return penetration(shape_a, transform_a, shape_b, transform_b); },
                    a, b);
}

DistanceResult distance(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                        const DistanceOptions& options) {
  return std::visit(
      [&](const auto& shape_a, const auto& shape_b) { return distance(shape_a, transform_a, shape_b, transform_b, options); }, a, b);
}

}  // namespace collide2d
