// collide2d/penetration.hpp — how deep two shapes overlap and along which direction.
#pragma once

#include <algorithm>
#include <optional>
#include <type_traits>

#include "collide2d/algorithms.hpp"
#include "collide2d/detail/circle_core.hpp"
#include "collide2d/tolerance.hpp"

namespace collide2d {

/// The minimum translation separating two overlapping shapes.
struct Penetration {
  Real depth = 0;  ///< overlap depth (>= 0; 0 when touching), length units
  Vec2 normal;     ///< world unit normal from A to B: moving B by depth * normal (or A by -depth * normal) separates them
  Vec2 point_a;    ///< world point of A deepest inside B
  Vec2 point_b;    ///< world point of B deepest inside A; point_a - point_b = depth * normal
  IterationStatus status = IterationStatus::converged;  ///< iteration_cap when GJK or EPA stopped at its cap
  Real tolerance = 0;  ///< the touching band of the features involved (length units): depths within it mean touching
};

/// Depth, normal and witness points when A and B overlap or touch; empty when they are apart.
/// GJK on the cores decides; if the cores are apart the radii overlap and the answer is the core
/// closest points pushed out by the radii; if the cores overlap, EPA gives the core penetration,
/// to which the radii add, and the band is that of EPA's final edge (the features in contact).
/// Cores GJK calls touching within its band may be apart: EPA then gives minus their distance, so
/// the depth is the radii less it on both sides of the band's edge.
/// Two circles are analytic, along the line of centres (circle_pair, as
/// overlap(), distance() and collide(); concentric circles report the normal +x of A); so are a
/// circle and a polygon, a capsule or a segment, along the normal of the other shape's core
/// feature nearest the circle's centre (the least translation for a convex core, as overlap(),
/// distance() and collide()).
template <ConvexSupport A, ConvexSupport B>
[[nodiscard]] std::optional<Penetration> penetration(const A& a, const Transform& transform_a, const B& b,
                                                     const Transform& transform_b) {
  const Real radius_a = a.rounding_radius(), radius_b = b.rounding_radius();
  if constexpr (std::is_same_v<A, Circle> && std::is_same_v<B, Circle>) {
    const CirclePair pair = circle_pair(a.center, transform_a, b.center, transform_b, radius_a + radius_b);
    const Real between = length_in_real(pair.offset);
    if (between > radius_a + radius_b + pair.tolerance) return std::nullopt;
    Penetration result;
    result.tolerance = pair.tolerance;
    result.normal = pair.normal(between, transform_a);
    result.depth = std::max(radius_a + radius_b - between, Real(0));
    result.point_a = pair.surface_a(transform_a, radius_a, result.normal);
    result.point_b = pair.surface_b(transform_a, radius_b, result.normal);
    return result;
  } else if constexpr (detail::is_circle_core_pair<A, B>) {
    const detail::CircleCoreGap pair = detail::circle_core_gap_of(a, transform_a, b, transform_b);
    if (pair.gap > pair.tolerance) return std::nullopt;
    constexpr bool core_first = std::is_same_v<B, Circle>;
    Penetration result;
    result.tolerance = pair.tolerance;
    result.depth = std::max(-pair.gap, Real(0));
    result.normal = core_first ? pair.normal : -pair.normal;
    result.point_a = core_first ? pair.core_point : pair.circle_point;
    result.point_b = core_first ? pair.circle_point : pair.core_point;
    return result;
  }
  const Transform b_to_a = inverse_compose(transform_a, transform_b);
  const GjkResult cores = gjk(a, b, b_to_a);
  if (cores.distance > radius_a + radius_b + cores.tolerance) return std::nullopt;
  Penetration result;
  Vec2 point_a = cores.point_a, point_b = cores.point_b;
  Vec2 normal = cores.normal;
  Real core_depth = -cores.distance;
  result.status = cores.status;
  result.tolerance = cores.tolerance;
  if (cores.overlapping) {
    const EpaResult expansion = epa(a, b, b_to_a, cores.simplex);
    point_a = expansion.point_a;
    point_b = expansion.point_b;
    normal = expansion.normal;
    core_depth = expansion.depth;
    // The band of the features in contact (EPA's final edge and a neighbour that ties with it),
    // not of GJK's last simplex, whose points are wherever its search ended: a box 1.7 into a
    // piece of a compound 1.5e6 across (float) got 3.7 or 1.1 at poses 8 apart as GJK's simplex
    // did or did not take the piece's far corner, and was touching at one and deep at the next.
    result.tolerance = contact_tolerance(expansion.feature_magnitude + radius_a + radius_b);
    if (expansion.status == IterationStatus::iteration_cap) result.status = IterationStatus::iteration_cap;
  }
  result.depth = std::max(core_depth + radius_a + radius_b, Real(0));
  result.normal = rotate(transform_a.rotation, normal);
  result.point_a = transform_point(transform_a, point_a + radius_a * normal);
  result.point_b = transform_point(transform_a, point_b - radius_b * normal);
  return result;
}

/// penetration() for any pair of shapes held in the Shape variant. With a compound on either side
/// the answer is a translation of B (depth * normal) that frees it from the whole compound, not
/// from one piece, and the least such translation: B is clear exactly where its translation lies
/// in no pair of parts' Minkowski difference, and the least is the nearest point outside their
/// union (a point on one difference's boundary nearest the origin, or where two boundaries
/// cross), so A and B swapped give the same depth and the mirrored normal. A first way out bounds
/// that search: the shortest translation meeting the contact planes (the seam-resolved contacts of
/// contact_manifolds()), each pair of pieces' own way out and each contact's way out to the
/// outline, or, where the planes squeeze B from opposite sides or no contact exists (B deep
/// inside a piece whose faces are all seams), the shortest exit over the contact normals and 32
/// directions found by casting B back from beyond A. Every translation is checked against every
/// pair of pieces within their bands, and a shape without area along a seam where the seam runs
/// inside the outline by more than the band (or within its band over more than a band of its
/// length, or a point within its band), or a convex shape's centre that the outline's point query
/// holds deep inside (in a crack thinner than the band, clear of every piece, too; the disk about
/// it that fits in the shape reaching into the outline deeper than the pieces themselves are
/// overlapped, by more than the band), is never taken as freed; nor is a union candidate that
/// leaves a centre there a few bands further on. B squeezed in a crack narrower than itself, with a
/// pair beyond its band by at most a quarter of it whose own way out does not free B, is taken back
/// to three quarters of that pair's band along its normal where that frees B: the answer is then that
/// move, within the band (touching), not the way out along the crack. Where those
/// rules refuse the union's candidates the first way out stands, then not always the least (a
/// segment parallel to a seam beside a sliver thinner than the seam's band). The least way out may
/// end in a pocket, touching B to A on two sides, where moving on along the normal enters A again.
/// point_a lies on A's surface where B comes to touch it, and point_b = point_a - depth * normal
/// is that point of B before the move (on B's surface, except where the first way out left B
/// beyond touching). A compound and a convex shape are worked out with the compound first
/// whichever side it is on, and two compounds with the one reaching farther from its origin first
/// (docs/conventions.md), so swapping A and B gives exactly the same depth and band, the normal
/// negated and the witness points swapped. The band reported is at least the widest band of the pairs of
/// pieces overlapping B beyond their own (where none does, of those touching it), so a compound
/// never calls a pose overlapping that its pieces alone call touching.
[[nodiscard]] std::optional<Penetration> penetration(const Shape& a, const Transform& transform_a, const Shape& b,
                                                     const Transform& transform_b);

}  // namespace collide2d
