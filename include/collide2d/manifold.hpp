// collide2d/manifold.hpp — contact manifolds: the contact normal and up to two contact points.
//
// Polygon-like pairs (polygons, capsules and segments as two-vertex polygons) use SAT to find the
// reference face and clip the incident edge against it; circles are analytic. One overload is
// written per unordered pair of shapes; the mirrored order is a single template that swaps the
// arguments and flips the normal, and a pair with no overload is a compile error.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "collide2d/math.hpp"
#include "collide2d/shapes.hpp"

namespace collide2d {

/// Which features (edges, vertices) of the two shapes made a contact point: the reference and
/// incident feature indices (28 bits each, so unique for polygons of up to 2^28 vertices), which
/// end of the incident edge, which shape held the reference face, and the kind of contact.
using FeatureId = std::uint64_t;

/// One contact point of a manifold.
struct ManifoldPoint {
  Vec2 point;            ///< world point midway between the two surfaces at this contact
  Real separation = 0;   ///< signed gap between the surfaces along the normal: < 0 overlapping, > 0 apart
  FeatureId id = 0;      ///< which features made the point; unchanged under small motion that keeps them
};

/// A contact manifold between shapes A and B.
struct Manifold {
  Vec2 normal;                            ///< world unit normal from A to B; meaningless when point_count is 0
  std::array<ManifoldPoint, 2> points{};  ///< the first point_count are in use
  int point_count = 0;                    ///< 0 (apart beyond the speculative distance), 1 or 2
};

/// Options for collide().
struct CollideOptions {
  /// Keep contact points whose separation is at most this (length units, >= 0); 0 reports only
  /// overlapping and touching points.
  Real speculative_distance = 0;
  /// Length units (>= 0): between two polygon faces that could be the reference face, A's (or,
  /// when tied, the larger shape's) is kept unless the other separates more by this much, so the
  /// choice and the feature ids stay put while bodies rock slightly (a rigid-body step uses a tenth
  /// of its linear slop). 0 keeps only a round-off band; a band b may report a manifold depth up
  /// to b short of the deepest face's.
  Real reference_face_hysteresis = 0;
};

/// The canonical pairs, in the order Circle, Capsule, Segment, Polygon.
Manifold collide(const Circle& a, const Transform& transform_a, const Circle& b, const Transform& transform_b, const CollideOptions& options = {});
Manifold collide(const Circle& a, const Transform& transform_a, const Capsule& b, const Transform& transform_b, const CollideOptions& options = {});
Manifold collide(const Circle& a, const Transform& transform_a, const Segment& b, const Transform& transform_b, const CollideOptions& options = {});
Manifold collide(const Circle& a, const Transform& transform_a, const Polygon& b, const Transform& transform_b, const CollideOptions& options = {});
Manifold collide(const Capsule& a, const Transform& transform_a, const Capsule& b, const Transform& transform_b, const CollideOptions& options = {});
Manifold collide(const Capsule& a, const Transform& transform_a, const Segment& b, const Transform& transform_b, const CollideOptions& options = {});
Manifold collide(const Capsule& a, const Transform& transform_a, const Polygon& b, const Transform& transform_b, const CollideOptions& options = {});
Manifold collide(const Segment& a, const Transform& transform_a, const Segment& b, const Transform& transform_b, const CollideOptions& options = {});
Manifold collide(const Segment& a, const Transform& transform_a, const Polygon& b, const Transform& transform_b, const CollideOptions& options = {});
Manifold collide(const Polygon& a, const Transform& transform_a, const Polygon& b, const Transform& transform_b, const CollideOptions& options = {});
/// Shapes against a circle, written out rather than mirrored: the circle's path gives the normal
/// from the shape to the circle without turning it twice.
Manifold collide(const Capsule& a, const Transform& transform_a, const Circle& b, const Transform& transform_b, const CollideOptions& options = {});
Manifold collide(const Segment& a, const Transform& transform_a, const Circle& b, const Transform& transform_b, const CollideOptions& options = {});
Manifold collide(const Polygon& a, const Transform& transform_a, const Circle& b, const Transform& transform_b, const CollideOptions& options = {});

/// Position of each shape type in the canonical pair order; unspecialised types have none.
template <class S>
inline constexpr int shape_rank = -1;
template <> inline constexpr int shape_rank<Circle> = 0;
template <> inline constexpr int shape_rank<Capsule> = 1;
template <> inline constexpr int shape_rank<Segment> = 2;
template <> inline constexpr int shape_rank<Polygon> = 3;

/// The mirrored pairs: computes the canonical pair and flips the normal.
template <class A, class B>
  requires(shape_rank<A> > shape_rank<B> && shape_rank<B> > 0)
Manifold collide(const A& a, const Transform& transform_a, const B& b, const Transform& transform_b, const CollideOptions& options = {}) {
  Manifold manifold = collide(b, transform_b, a, transform_a, options);
  manifold.normal = -manifold.normal;
  return manifold;
}

/// Any pair of convex shapes.
Manifold collide(const ConvexShape& a, const Transform& transform_a, const ConvexShape& b, const Transform& transform_b,
                 const CollideOptions& options = {});

/// The manifold between one child of A and one child of B.
struct ChildManifold {
  int child_a = -1;   ///< index of A's child, or -1 when A is not a compound
  int child_b = -1;   ///< index of B's child, or -1 when B is not a compound
  Manifold manifold;  ///< world-space manifold between the two children, normal from A to B, at least one point
};

/// Every manifold between two shapes, either of which may be a compound: one per pair of
/// touching children (a single one, with child indices -1, for two convex shapes), appended to
/// `manifolds` in order of A's child, then B's. A compound's seams never push: a manifold whose
/// normal would leave a child through a seam, or through a point where the compound's outline is
/// flat or concave, is recomputed against the child's best face on the compound's outside, so
/// shapes slide across the joins between pieces without catching (docs/algorithms.md). A compound
/// and a convex shape are collided with the compound first whichever side it is on, and two
/// compounds with the one reaching farther from its origin first (docs/conventions.md), so
/// swapping A and B gives the same points and separations, the child indices swapped and the
/// normals negated (the list still in order of A's child, then B's).
void contact_manifolds(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                       std::vector<ChildManifold>& manifolds, const CollideOptions& options = {});

}  // namespace collide2d
