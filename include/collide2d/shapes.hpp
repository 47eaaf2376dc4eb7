// collide2d/shapes.hpp — the convex shapes, each a value type in its own local frame.
//
// Every shape is a "core" (a point, a segment or a convex polygon) swept by a rounding radius.
// Queries run GJK/EPA/SAT on the cores and add the radii, so rounded shapes are exact, never
// tessellated. Each shape offers `support(direction)` (farthest core point) and
// `rounding_radius()`, the interface the ConvexSupport concept in support.hpp names.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
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

namespace detail {
/// Index of the point of `points` (the first `count`, at least one) farthest along `direction`,
/// the first of equals: every point's dot product, the index kept by keep_larger's mask, with no
/// branch on which point wins. Polygon::support_index and GJK's placed polygons search with it.
[[gnu::always_inline]] inline int farthest_point_index(const Vec2* points, int count, Vec2 direction) {
  int best = 0;
  Real best_value = dot(points[0], direction);
  for (int i = 1; i < count; ++i) keep_larger(dot(points[i], direction), i, best_value, best);
  return best;
}
}  // namespace detail

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
  /// True when the core is a rectangle (4 vertices, perpendicular edges).
  bool is_rectangle() const { return is_rectangle_; }

  /// Index of the core vertex farthest along `direction`. O(n) for inline polygons (the first of
  /// equals), O(log n) for larger ones (binary search over the normals' angles, then a local check).
  /// Always inlined, as transformed_support is: the support loops of GJK and the casts call it.
  [[gnu::always_inline]] int support_index(Vec2 direction) const {
    if (count_ > polygon_inline_capacity) return support_index_by_search(direction);
    return detail::farthest_point_index(inline_vertices_.data(), count_, direction);
  }
  /// The core vertex farthest along `direction`.
  [[gnu::always_inline]] Vec2 support(Vec2 direction) const { return vertex_data()[support_index(direction)]; }
  Real rounding_radius() const { return radius_; }

 private:
  friend Result<Polygon> make_polygon(std::span<const Vec2> points, Real radius);
  friend Real size_scale(const Polygon& shape) { return shape.reach_ + shape.radius_; }
  int support_index_by_search(Vec2 direction) const;  // polygons above the inline capacity
  const Vec2* vertex_data() const { return count_ <= polygon_inline_capacity ? inline_vertices_.data() : heap_vertices_.data(); }
  const Vec2* normal_data() const { return count_ <= polygon_inline_capacity ? inline_normals_.data() : heap_normals_.data(); }

  std::array<Vec2, polygon_inline_capacity> inline_vertices_{};  // past count_, copies of vertex 0 (the SAT reads them)
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
/// Duplicate points (closer than weld_tolerance of the points' largest coordinate_magnitude) are
/// welded and collinear points dropped; the result is stored counter-clockwise. Refuses, with
/// the index of the offending input point where there is one: NaN or infinite input, a negative
/// radius, fewer than 3 distinct points, zero area, an outline that is not convex or winds more
/// than once.
Result<Polygon> make_polygon(std::span<const Vec2> points, Real radius = 0);

/// A rectangle of half_width by half_height centred on `offset.position` and turned by
/// `offset.rotation`, in the shape's local frame, optionally rounded. Refuses half extents
/// that are not finite and positive, and a negative radius.
Result<Polygon> make_box(Real half_width, Real half_height, const Transform& offset = {}, Real radius = 0);

/// Any of the convex shapes.
using ConvexShape = std::variant<Circle, Capsule, Segment, Polygon>;

/// One convex child of a compound: a shape placed in the compound's local frame.
struct CompoundChild {
  ConvexShape shape;    ///< the child's shape, in its own frame
  Transform transform;  ///< the child's frame expressed in the compound's local frame
};

/// A node of a compound's bounding-volume tree over its children (compound frame).
struct CompoundTreeNode {
  Aabb box;        ///< bounds of every child below this node, compound frame
  int first = -1;  ///< leaf: the child index; inner node: index of the first of its two subtree nodes
  int second = -1; ///< inner node: index of the second subtree node; -1 for a leaf
};

/// A shape made of convex children, such as a concave outline cut into convex pieces
/// (shape_from_outline in decompose.hpp) or pieces of terrain laid side by side. Queries treat it
/// as the union of its children. An edge of a polygon child that another child covers is a seam
/// ("internal edge"): contacts never push along a seam's normal, so shapes slide across the joins
/// without catching. Build one with make_compound; the children are checked there.
class Compound {
 public:
  /// The children, in the order given to make_compound.
  std::span<const CompoundChild> children() const { return children_; }
  /// Each child's bounding box in the compound's local frame, rounding radius included.
  std::span<const Aabb> child_boxes() const { return child_boxes_; }
  /// The bounding-volume tree over the children (node 0 is the root; a leaf holds one child).
  std::span<const CompoundTreeNode> tree() const { return tree_; }
  /// True when edge `edge` (vertex edge to edge + 1) of polygon child `child` is a seam: the
  /// region just outside it belongs to another child. False for children that are not polygons.
  bool is_internal_edge(int child, int edge) const;
  /// Indices of the children whose boxes overlap or touch `region` (compound frame), ascending.
  std::vector<int> children_overlapping(const Aabb& region) const;
  /// Largest distance of any child's point from the compound's local origin (length units).
  Real reach() const { return reach_; }
  /// Largest size_scale of a child placed by a transform other than the identity, in the child's
  /// own frame (length units; 0 when every child is placed by the identity): how large the
  /// coordinates are that placing such a child rounds, beyond its coordinates in the compound's frame.
  Real child_frame_reach() const { return child_frame_reach_; }

 private:
  friend Result<Compound> make_compound(std::vector<CompoundChild> children);
  std::vector<CompoundChild> children_;
  std::vector<Aabb> child_boxes_;
  std::vector<CompoundTreeNode> tree_;
  std::vector<int> first_edge_flag_;      // per child: index of its edge 0 in internal_edges_ (-1 when not a polygon)
  std::vector<bool> internal_edges_;      // seam flags of every polygon child's edges
  Real reach_ = 0;
  Real child_frame_reach_ = 0;
};

/// Builds a compound from convex children placed in its local frame. Finds the seams (edges of
/// polygon children whose outside belongs to another child) and builds the tree over the children.
/// Refuses an empty list, non-finite child transforms, child positions beyond coordinate_limit
/// and children validate() refuses (ShapeError::index is then the child's).
Result<Compound> make_compound(std::vector<CompoundChild> children);

/// Any shape: one of the convex shapes, or a compound of them.
using Shape = std::variant<Circle, Capsule, Segment, Polygon, Compound>;

/// "the coordinate limit 1e+17 of this float build": the words every out_of_range refusal uses.
std::string coordinate_limit_text();

/// Checks a convex shape against the input rules every query assumes: finite coordinates, a
/// radius >= 0, every coordinate and radius within coordinate_limit (math.hpp). Circles,
/// capsules and segments are plain structs, so this is their only check; polygons were checked
/// by make_polygon. The reason for refusal (ShapeError::index is -1), or nothing when valid.
std::optional<ShapeError> validate(const ConvexShape& shape);
/// The same for any shape placed by `transform` (world frame): also a finite rotation and a
/// position within coordinate_limit. Compounds were checked by make_compound. Call it on shapes
/// built by hand before handing them to the queries or the World.
std::optional<ShapeError> validate(const Shape& shape, const Transform& transform = {});

/// The world-space bounding box of a shape placed by `transform`, including its rounding radius.
Aabb compute_aabb(const Circle& shape, const Transform& transform);
Aabb compute_aabb(const Capsule& shape, const Transform& transform);
Aabb compute_aabb(const Segment& shape, const Transform& transform);
Aabb compute_aabb(const Polygon& shape, const Transform& transform);
Aabb compute_aabb(const Compound& shape, const Transform& transform);
Aabb compute_aabb(const ConvexShape& shape, const Transform& transform);
Aabb compute_aabb(const Shape& shape, const Transform& transform);

/// How far the shape reaches from its local origin: the largest distance of a core point from
/// the origin plus the rounding radius (length units). Size-scaled tolerances use it; the circle's
/// and the polygon's are inline, as they sit on the hot path of their queries.
inline Real size_scale(const Circle& shape) { return length(shape.center) + shape.radius; }
Real size_scale(const Capsule& shape);
Real size_scale(const Segment& shape);
Real size_scale(const Polygon& shape);
Real size_scale(const Compound& shape);
Real size_scale(const ConvexShape& shape);
Real size_scale(const Shape& shape);

}  // namespace collide2d
