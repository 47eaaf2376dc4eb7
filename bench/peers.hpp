// peers.hpp — our shapes, transforms, sweeps and boxes converted to Box2D 2.4.1 and Chipmunk 7
// types, once and outside every timing loop, and thin overloads that pick the peer's function for
// a shape pair. The conversions copy the same float values, so every library sees the same input.
#pragma once

#include <box2d/b2_broad_phase.h>
#include <box2d/b2_distance.h>
#include <box2d/b2_dynamic_tree.h>
#include <box2d/b2_time_of_impact.h>
#include <box2d/box2d.h>
#include <chipmunk/chipmunk.h>

#include <type_traits>
#include <utility>

#include "random_cases.hpp"

namespace collide2d_bench {

// ---- Box2D -------------------------------------------------------------------------------------

b2Vec2 to_box2d(Vec2 vector);
b2Transform to_box2d(const Transform& transform);
/// The same polygon (Box2D recomputes the hull from our counter-clockwise vertices and may start it
/// at another vertex); m_radius is our rounding radius. Only for polygons of up to
/// b2_maxPolygonVertices (8) vertices.
b2PolygonShape to_box2d(const Polygon& polygon);
b2CircleShape to_box2d(const Circle& circle);
b2Sweep to_box2d(const collide2d::Sweep& sweep);
b2AABB to_box2d(const collide2d::Aabb& box);

template <class Shape>
using Box2dShape = decltype(to_box2d(std::declval<const Shape&>()));

/// Box2D's manifold function for a shape pair.
inline void box2d_collide(b2Manifold* manifold, const b2CircleShape& a, const b2Transform& transform_a, const b2CircleShape& b,
                          const b2Transform& transform_b) {
  b2CollideCircles(manifold, &a, transform_a, &b, transform_b);
}
inline void box2d_collide(b2Manifold* manifold, const b2PolygonShape& a, const b2Transform& transform_a, const b2PolygonShape& b,
                          const b2Transform& transform_b) {
  b2CollidePolygons(manifold, &a, transform_a, &b, transform_b);
}
inline void box2d_collide(b2Manifold* manifold, const b2PolygonShape& a, const b2Transform& transform_a, const b2CircleShape& b,
                          const b2Transform& transform_b) {
  b2CollidePolygonAndCircle(manifold, &a, transform_a, &b, transform_b);
}

/// Box2D's versions of a set of pair cases. The distance proxies point into the shapes, so the
/// shapes never move after construction (the object is built in place and never copied).
template <class ShapeA, class ShapeB>
struct Box2dPairs {
  std::vector<Box2dShape<ShapeA>> shapes_a;
  std::vector<Box2dShape<ShapeB>> shapes_b;
  std::vector<b2Transform> transforms_a, transforms_b, moved_transforms_b;
  std::vector<b2DistanceInput> distance_inputs, moved_distance_inputs;

  explicit Box2dPairs(const PairCases<ShapeA, ShapeB>& pairs) {
    shapes_a.reserve(case_count);
    shapes_b.reserve(case_count);
    for (const auto& pair : pairs.cases) {
      shapes_a.push_back(to_box2d(pair.a));
      shapes_b.push_back(to_box2d(pair.b));
      transforms_a.push_back(to_box2d(pair.transform_a));
      transforms_b.push_back(to_box2d(pair.transform_b));
      moved_transforms_b.push_back(to_box2d(pair.moved_transform_b));
    }
    for (std::size_t i = 0; i < case_count; ++i) {
      b2DistanceInput input;
      input.proxyA.Set(&shapes_a[i], 0);
      input.proxyB.Set(&shapes_b[i], 0);
      input.transformA = transforms_a[i];
      input.transformB = transforms_b[i];
      input.useRadii = true;
      distance_inputs.push_back(input);
      input.transformB = moved_transforms_b[i];
      moved_distance_inputs.push_back(input);
    }
  }
  Box2dPairs(const Box2dPairs&) = delete;
  Box2dPairs& operator=(const Box2dPairs&) = delete;
};

// ---- Chipmunk ----------------------------------------------------------------------------------

cpVect to_chipmunk(Vec2 vector);
cpTransform to_chipmunk(const Transform& transform);
cpBB to_chipmunk(const collide2d::Aabb& box);

/// A Chipmunk shape with no body, its world data cached for `transform` by cpShapeUpdate (what
/// cpShapesCollide and cpShapeSegmentQuery read). Polygons keep our counter-clockwise vertices
/// (cpPolyShapeNewRaw) and our rounding radius. Owns the shape.
class ChipmunkShape {
 public:
  ChipmunkShape(const Polygon& polygon, const Transform& transform);
  ChipmunkShape(const Circle& circle, const Transform& transform);
  ChipmunkShape(ChipmunkShape&& other) noexcept : shape_(std::exchange(other.shape_, nullptr)) {}
  ChipmunkShape(const ChipmunkShape&) = delete;
  ChipmunkShape& operator=(const ChipmunkShape&) = delete;
  ChipmunkShape& operator=(ChipmunkShape&&) = delete;
  ~ChipmunkShape();
  const cpShape* get() const { return shape_; }

 private:
  cpShape* shape_ = nullptr;
};

/// How many warnings Chipmunk has raised so far (counted, not printed: see peers.cpp).
std::size_t chipmunk_warning_count();

/// Chipmunk's versions of a set of pair cases.
struct ChipmunkPairs {
  std::vector<ChipmunkShape> shapes_a, shapes_b;
};

template <class ShapeA, class ShapeB>
ChipmunkPairs to_chipmunk_pairs(const PairCases<ShapeA, ShapeB>& pairs) {
  ChipmunkPairs converted;
  converted.shapes_a.reserve(case_count);
  converted.shapes_b.reserve(case_count);
  for (const auto& pair : pairs.cases) {
    converted.shapes_a.emplace_back(pair.a, pair.transform_a);
    converted.shapes_b.emplace_back(pair.b, pair.transform_b);
  }
  return converted;
}

}  // namespace collide2d_bench
