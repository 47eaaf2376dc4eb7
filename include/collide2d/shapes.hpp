// collide2d/shapes.hpp — the convex shapes, each a value type in its own local frame.
//
// Every shape is a "core" (a point, a segment or a convex polygon) swept by a rounding radius.
// Queries run GJK/EPA/SAT on the cores and add the radii, so rounded shapes are exact, never
// tessellated. Each shape offers `support(direction)` (farthest core point) and
// `rounding_radius()`, the interface the ConvexSupport concept in support.hpp names.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "collide2d/math.hpp"
#include "collide2d/result.hpp"

namespace collide2d {

/// A disc: every point within `radius` of `center`. Radius 0 is a point.
struct Circle {
  Vec2 center;     ///< centre, in the shape's local frame
  Real radius = 0; ///< radius, >= 0, in length units

  /// The core is the centre, whatever the direction.
  constexpr Vec2 support(Vec2) const { return center; }
  constexpr Real rounding_radius() const { return radius; }
};

/// A stadium: every point within `radius` of the segment from `a` to `b`.
struct Capsule {
  Vec2 a;          ///< first end of the core segment, local frame
  Vec2 b;          ///< second end of the core segment, local frame
  Real radius = 0; ///< rounding radius, >= 0

  /// The end of the core segment farthest along `direction` (`a` on ties).
  constexpr Vec2 support(Vec2 direction) const { return dot(b - a, direction) > 0 ? b : a; }
  constexpr Real rounding_radius() const { return radius; }
};

/// A line segment from `a` to `b` with no thickness.
struct Segment {
  Vec2 a;  ///< first end, local frame
  Vec2 b;  ///< second end, local frame

  /// The end farthest along `direction` (`a` on ties).
  constexpr Vec2 support(Vec2 direction) const { return dot(b - a, direction) > 0 ? b : a; }
  constexpr Real rounding_radius() const { return 0; }
};

/// Polygons with at most this many vertices are stored inline, without heap allocation, and
/// their support function scans the vertices; larger ones use a binary search over edge normals.
inline constexpr int polygon_inline_capacity = 8;

/// A convex polygon with any number of vertices (>= 3), stored counter-clockwise with no
/// duplicate or collinear vertices, optionally rounded by `radius()`. Build one with
/// make_polygon, make_box or convex_hull + make_polygon; the invariants are checked there.
class Polygon {
 public:
  /// Vertices in counter-clockwise order, local frame.
  std::span<const Vec2> vertices() const { return {vertex_data(), static_cast<std::size_t>(count_)}; }
  /// Outward unit normal of edge i, the edge from vertex i to vertex i+1 (cyclic).
  std::span<const Vec2> normals() const { return {normal_data(), static_cast<std::size_t>(count_)}; }
  /// Number of vertices (and of edges).
  int count() const { return count_; }
  /// Rounding radius: the shape is every point within this distance of the core polygon.
  Real radius() const { return radius_; }
  /// Area centroid of the core polygon, local frame.
  Vec2 centroid() const { return centroid_; }
  /// True when the core is a rectangle (4 vertices, perpendicular edges); SAT has a fast path for it.
  bool is_rectangle() const { return is_rectangle_; }

  /// Index of the core vertex farthest along `direction`. O(n) for inline polygons, O(log n)
  /// for larger ones (binary search over the normals' angles, then a local check).
  int support_index(Vec2 direction) const;
  /// The core vertex farthest along `direction`.
  Vec2 support(Vec2 direction) const { return vertex_data()[support_index(direction)]; }
  Real rounding_radius() const { return radius_; }

 private:
  friend Result<Polygon> make_polygon(std::span<const Vec2> points, Real radius);
  friend Real size_scale(const Polygon& shape);
  const Vec2* vertex_data() const { return count_ <= polygon_inline_capacity ? inline_vertices_.data() : heap_vertices_.data(); }
  const Vec2* normal_data() const { return count_ <= polygon_inline_capacity ? inline_normals_.data() : heap_normals_.data(); }

  std::array<Vec2, polygon_inline_capacity> inline_vertices_{};
  std::array<Vec2, polygon_inline_capacity> inline_normals_{};
  std::vector<Vec2> heap_vertices_;       // used when count_ > polygon_inline_capacity
  std::vector<Vec2> heap_normals_;        // used when count_ > polygon_inline_capacity
  std::vector<Real> normal_pseudo_angles_; // increasing angle of each normal from normal 0, large polygons only
  int count_ = 0;
  Real radius_ = 0;
  Vec2 centroid_;
  Real reach_ = 0;  // largest distance of a vertex from the local origin
  bool is_rectangle_ = false;
};

/// Builds a convex polygon from an outline given in either winding, with optional rounding.
/// Duplicate points (closer than the size-scaled tolerance) are welded and collinear points
/// dropped; the result is stored counter-clockwise. Refuses, with the index of the offending
/// input point where there is one: NaN or infinite input, a negative radius, fewer than 3
/// distinct points, zero area, an outline that is not convex or winds more than once.
Result<Polygon> make_polygon(std::span<const Vec2> points, Real radius = 0);

/// A rectangle of half_width by half_height centred on `offset.position` and turned by
/// `offset.rotation`, in the shape's local frame, optionally rounded. Refuses half extents
/// that are not finite and positive, and a negative radius.
Result<Polygon> make_box(Real half_width, Real half_height, const Transform& offset = {}, Real radius = 0);

/// Any of the convex shapes.
using Shape = std::variant<Circle, Capsule, Segment, Polygon>;

/// The world-space bounding box of a shape placed by `transform`, including its rounding radius.
Aabb compute_aabb(const Circle& shape, const Transform& transform);
Aabb compute_aabb(const Capsule& shape, const Transform& transform);
Aabb compute_aabb(const Segment& shape, const Transform& transform);
Aabb compute_aabb(const Polygon& shape, const Transform& transform);
Aabb compute_aabb(const Shape& shape, const Transform& transform);

/// How far the shape reaches from its local origin: the largest distance of a core point from
/// the origin plus the rounding radius (length units). Size-scaled tolerances use it.
Real size_scale(const Circle& shape);
Real size_scale(const Capsule& shape);
Real size_scale(const Segment& shape);
Real size_scale(const Polygon& shape);
Real size_scale(const Shape& shape);

}  // namespace collide2d
