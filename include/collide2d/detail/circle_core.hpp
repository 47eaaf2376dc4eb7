// collide2d/detail/circle_core.hpp — a circle against a polygon, a capsule or a segment in closed
// form, from the other shape's core feature nearest the circle's centre (a polygon's face that
// separates the centre most, or one of its two end vertices; a capsule's or a segment's core
// segment, or one of its ends), as collide() decides the pair: overlap(), penetration() and
// distance() answer these pairs, in either order, from it, so the four queries agree.
#pragma once

#include <array>
#include <type_traits>

#include "collide2d/math.hpp"
#include "collide2d/shapes.hpp"

namespace collide2d::detail {

/// How a circle and a shape with a polygon-like core (a polygon, a capsule or a segment; rounded or
/// not) lie, in the world: normal from that shape toward the circle.
struct CircleCoreGap {
  Real gap = 0;                 ///< signed distance between the surfaces (< 0: they overlap by -gap), length units
  Real tolerance = 0;           ///< the touching band of the features involved (docs/conventions.md), length units
  Vec2 normal;                  ///< world unit outward normal of the core's nearest feature, toward the circle's centre
  Vec2 core_point;              ///< world point of the shape's surface on that feature, along the normal
  Vec2 circle_point;            ///< world point of the circle's surface along -normal from its centre
  std::array<Vec2, 2> feature;  ///< the nearest feature's core vertices in the shape's frame (an edge's two ends, or one vertex)
  int feature_count = 0;        ///< 2 for an edge, 1 for a vertex
};

/// The circle against the shape, each placed in the world by its transform (queries.cpp). A
/// capsule's or a segment's core is its segment; one of zero length is a point.
CircleCoreGap circle_core_gap(const Polygon& polygon, const Transform& polygon_transform, const Circle& circle,
                              const Transform& circle_transform);
CircleCoreGap circle_core_gap(const Capsule& capsule, const Transform& capsule_transform, const Circle& circle,
                              const Transform& circle_transform);
CircleCoreGap circle_core_gap(const Segment& segment, const Transform& segment_transform, const Circle& circle,
                              const Transform& circle_transform);

/// True when `S` is a shape circle_core_gap takes beside a circle.
template <class S>
inline constexpr bool has_polygon_like_core = std::is_same_v<S, Polygon> || std::is_same_v<S, Capsule> || std::is_same_v<S, Segment>;

/// True when A and B are a circle and a polygon, a capsule or a segment, in either order.
template <class A, class B>
inline constexpr bool is_circle_core_pair =
    (has_polygon_like_core<A> && std::is_same_v<B, Circle>) || (std::is_same_v<A, Circle> && has_polygon_like_core<B>);

/// circle_core_gap for a circle and a polygon, a capsule or a segment in either order
/// (is_circle_core_pair).
template <class A, class B>
CircleCoreGap circle_core_gap_of(const A& a, const Transform& transform_a, const B& b, const Transform& transform_b) {
  if constexpr (std::is_same_v<B, Circle>) {
    return circle_core_gap(a, transform_a, b, transform_b);
  } else {
    return circle_core_gap(b, transform_b, a, transform_a);
  }
}

}  // namespace collide2d::detail
