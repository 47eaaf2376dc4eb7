// collide2d/detail/circle_polygon.hpp — a circle against a polygon in closed form, from the
// polygon's nearest feature to the circle's centre (the face that separates the centre most, or
// one of its two end vertices), as collide() decides the pair: overlap(), penetration() and
// distance() answer a circle and a polygon, in either order, from it, so the four queries agree.
#pragma once

#include <array>
#include <type_traits>

#include "collide2d/math.hpp"
#include "collide2d/shapes.hpp"

namespace collide2d::detail {

/// How a circle and a polygon (rounded or not) lie, in the world: normal from the polygon toward
/// the circle.
struct CirclePolygonGap {
  Real gap = 0;                 ///< signed distance between the surfaces (< 0: they overlap by -gap), length units
  Real tolerance = 0;           ///< the touching band of the features involved (docs/conventions.md), length units
  Vec2 normal;                  ///< world unit outward normal of the polygon's nearest feature, toward the circle's centre
  Vec2 polygon_point;           ///< world point of the polygon's surface on that feature, along the normal
  Vec2 circle_point;            ///< world point of the circle's surface along -normal from its centre
  std::array<Vec2, 2> feature;  ///< the nearest feature's core vertices in the polygon's frame (an edge's two ends, or one vertex)
  int feature_count = 0;        ///< 2 for an edge, 1 for a vertex
};

/// The circle against the polygon, each placed in the world by its transform (queries.cpp).
CirclePolygonGap circle_polygon_gap(const Polygon& polygon, const Transform& polygon_transform, const Circle& circle,
                                    const Transform& circle_transform);

/// True when A and B are a polygon and a circle, in either order.
template <class A, class B>
inline constexpr bool is_circle_polygon_pair =
    (std::is_same_v<A, Polygon> && std::is_same_v<B, Circle>) || (std::is_same_v<A, Circle> && std::is_same_v<B, Polygon>);

/// circle_polygon_gap for a polygon and a circle in either order (is_circle_polygon_pair).
template <class A, class B>
CirclePolygonGap circle_polygon_gap_of(const A& a, const Transform& transform_a, const B& b, const Transform& transform_b) {
  if constexpr (std::is_same_v<A, Polygon>) {
    return circle_polygon_gap(a, transform_a, b, transform_b);
  } else {
    return circle_polygon_gap(b, transform_b, a, transform_a);
  }
}

}  // namespace collide2d::detail
