// queries.cpp — the Shape-variant front doors of overlap, penetration, distance, contact
// manifolds and the casts, and the point and ray queries on compounds.
//
// Two convex shapes go straight to the typed query. A compound is the union of its children:
// each query walks the pairs of convex parts (a convex shape is its own single part) whose boxes
// can matter, using the compound's child tree, and combines the answers: any overlap; the
// smallest distance (pairs whose boxes are farther apart than the best so far are skipped); the
// earliest cast hit; one manifold per touching child pair, kept off the seams (src/seams.cpp).
// Every pair query works in A's frame (B placed by b_to_a) and turns its answer into world
// coordinates at the end, so round-off follows the shapes' own coordinates, not the distance
// from the world origin.
//
// Penetration with a compound: the translation of B that frees it from the whole of A, not one
// child's depth. The seam-resolved contacts give planes dot(n, t) >= depth; the translations
// where one or two planes are tight (src/plane_solver.cpp), and each pair of parts' own way out,
// are tried shortest first, each checked against every pair of convex parts, and the first that
// frees B wins; when none does, the contacts at the shortest translation all planes allow add
// planes, for a capped number of rounds. Where the planes do not describe the way out (B
// squeezed between opposed faces), B is placed beyond A along each contact normal and a fan of
// 32 directions and cast back: the shortest of these exits frees B, though it may not be the
// least translation. Once a way out is found, the contacts at the shortest few translations that
// did not free B add their planes, and a shorter translation among their candidates that frees B
// replaces it.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

#include "collide2d/distance.hpp"
#include "collide2d/manifold.hpp"
#include "collide2d/overlap.hpp"
#include "collide2d/penetration.hpp"
#include "collide2d/point_query.hpp"
#include "collide2d/raycast.hpp"
#include "collide2d/shape_cast.hpp"
#include "collide2d/tolerance.hpp"
#include "compound_internal.hpp"
#include "culling.hpp"
#include "minkowski_union.hpp"
#include "plane_solver.hpp"
#include "polygon_view.hpp"
#include "seams.hpp"

namespace collide2d {
namespace {

using detail::box_magnitude;
using detail::culling_margin;
using detail::culling_region;
using detail::own_frame_magnitude;

bool is_compound(const Shape& shape) { return std::holds_alternative<Compound>(shape); }

/// The box, in the frame `transform` places, holding a box of the parent frame.
Aabb to_local_box(const Aabb& parent_box, const Transform& transform) {
  const Vec2 corners[4] = {parent_box.lower, {parent_box.upper.x, parent_box.lower.y}, parent_box.upper, {parent_box.lower.x, parent_box.upper.y}};
  Aabb local{inverse_transform_point(transform, corners[0]), inverse_transform_point(transform, corners[0])};
  for (const Vec2 corner : corners) {
    const Vec2 point = inverse_transform_point(transform, corner);
    local = local.merged({point, point});
  }
  return local;
}

/// Gap between two boxes (0 when they overlap).
Real box_gap(const Aabb& a, const Aabb& b) {
  const Vec2 gap = max(Vec2{}, max(a.lower - b.upper, b.lower - a.upper));
  return length(gap);
}

/// Calls visit(convex part, its transform, child index or -1) for a convex shape, or for each
/// child of a compound whose box meets the box `region` (every child when null), until visit
/// returns false. `transform` and `region` are in the same frame, and so are the transforms given.
template <class Visit>
void for_each_part(const Shape& shape, const Transform& transform, const Aabb* region, Visit&& visit) {
  std::visit(
      [&](const auto& concrete) {
        if constexpr (std::is_same_v<std::decay_t<decltype(concrete)>, Compound>) {
          auto visit_child = [&](int child) {
            const CompoundChild& part = concrete.children()[child];
            const Transform placed = compose(transform, part.transform);
            return std::visit([&](const auto& convex) { return visit(convex, placed, child); }, part.shape);
          };
          if (region == nullptr) {
            for (int child = 0; child < static_cast<int>(concrete.children().size()); ++child) {
              if (!visit_child(child)) return;
            }
          } else {
            // Each node widened by the culling margin of its own coordinates (and of its children's
            // frames): the region only carries the other shape's.
            const Aabb local = to_local_box(*region, transform);
            const Real child_frames = 2 * concrete.child_frame_reach();
            detail::for_each_child_where(
                concrete, [&](const Aabb& box) { return box.overlaps(local.expanded(culling_margin(box_magnitude(box) + child_frames))); }, visit_child);
          }
        } else {
          visit(concrete, transform, -1);
        }
      },
      shape);
}

/// The touching band of one manifold point (A's frame).
Real point_tolerance(const ManifoldPoint& point) { return contact_tolerance(coordinate_magnitude(point.point)); }

/// Every child manifold between A (at the origin of its frame) and B (placed by b_to_a), in A's
/// frame, kept off both sides' seams; appended to `manifolds` from index `first`.
void manifolds_in_frame_of_a(const Shape& a, const Shape& b, const Transform& b_to_a, std::vector<ChildManifold>& manifolds,
                             const CollideOptions& options) {
  const std::size_t first = manifolds.size();
  const Transform identity{};
  const Compound* compound_a = std::get_if<Compound>(&a);
  const Compound* compound_b = std::get_if<Compound>(&b);
  const bool both_convex = compound_a == nullptr && compound_b == nullptr;  // no boxes needed
  const Aabb region_b = both_convex ? Aabb{} : culling_region(b, b_to_a, options.speculative_distance);
  for_each_part(a, identity, both_convex ? nullptr : &region_b, [&](const auto& part_a, const Transform& placed_a, int child_a) {
    const Aabb region_a = both_convex ? Aabb{} : culling_region(part_a, placed_a, options.speculative_distance);
    for_each_part(b, b_to_a, both_convex ? nullptr : &region_a, [&](const auto& part_b, const Transform& placed_b, int child_b) {
      const Manifold manifold = collide(part_a, placed_a, part_b, placed_b, options);
      if (manifold.point_count > 0) manifolds.push_back({child_a, child_b, manifold});
      return true;
    });
    return true;
  });
  if (both_convex) return;
  // The deepest overlap before the seam rule: deep inside pieces whose faces are seams the rule can
  // drop every manifold (no outside face to put a contact on), and a pair overlapping by 1,700
  // would report no contact at all. It keeps that one, seam normal and all, rather than lose the
  // contact.
  std::optional<ChildManifold> deepest;
  Real deepest_overlap = 0;
  for (std::size_t i = first; i < manifolds.size(); ++i) {
    for (int k = 0; k < manifolds[i].manifold.point_count; ++k) {
      const ManifoldPoint& point = manifolds[i].manifold.points[k];
      if (-point.separation > point_tolerance(point) && -point.separation > deepest_overlap) {
        deepest_overlap = -point.separation;
        deepest = manifolds[i];
      }
    }
  }
  if (compound_a != nullptr) detail::resolve_seams(*compound_a, identity, true, b, b_to_a, manifolds, first, options);
  if (compound_b != nullptr) detail::resolve_seams(*compound_b, b_to_a, false, a, identity, manifolds, first, options);
  manifolds.erase(std::remove_if(manifolds.begin() + static_cast<std::ptrdiff_t>(first), manifolds.end(),
                                 [](const ChildManifold& entry) { return entry.manifold.point_count == 0; }),
                  manifolds.end());
  if (manifolds.size() == first && deepest) manifolds.push_back(*deepest);
  std::sort(manifolds.begin() + static_cast<std::ptrdiff_t>(first), manifolds.end(), [](const ChildManifold& p, const ChildManifold& q) {
    return p.child_a != q.child_a ? p.child_a < q.child_a : p.child_b < q.child_b;
  });
}

/// How many rounds of new contacts penetration() adds before it falls back to a direction search,
/// and how many candidate translations it tries in one round.
constexpr int penetration_rounds = 16;
constexpr std::size_t penetration_candidates_per_round = 32;
/// How many of the candidates that did not free B penetration() goes on from, once one frees it,
/// looking for a shorter way out through them.
constexpr std::size_t penetration_continuations = 4;
/// How many of the union's clear candidates (minkowski_union.hpp) penetration() tests with the
/// whole freeing test, shortest first, for the least way out.
constexpr std::size_t penetration_union_exits = 8;

/// Whether a query on A and B is answered with the two swapped and the answer mirrored back, so
/// that both orders do the same arithmetic. overlap(), distance(), contact_manifolds(),
/// penetration() (its freeing test with it), shape_cast() and time_of_impact() all follow it at
/// their front doors. A pair's band counts where its shapes lie in the frame it is judged in,
/// and swapped pair by pair the relative transform is rounded differently, so each order would
/// judge the band's edge its own way.
/// - A compound and a convex shape: the compound first, and its pieces the first shape of every
///   pair of parts (a segment 4.97 into a piece 2e6 across, in float, was touching within the
///   band of 7.25 with the segment first and overlapping beyond the band of 3.67 with the
///   compound first; a sweep of a segment across the band of a piece 1e6 from its compound's
///   origin got 114 different overlap() verdicts of 20,200).
/// - Two compounds: the one reaching farther from its origin first, in whose frame its own
///   coordinates stay as they are and the other's lie within them, where the other's frame adds
///   the distance between the two to the larger one's (a compound 3.4e7 across over a small one,
///   float: the pairs of pieces 146 deep against bands of 99 in the large one's frame, 308 in
///   the small one's; the small one first found them touching, depth 0, the large one first
///   202,418). As far, the one with more children first, then the one whose position (any fixed
///   point of it: the caller's transform or sweep start) comes first by x, then y. Equal in all
///   of these, the caller's order stands.
bool answer_swapped(const Shape& a, Vec2 position_a, const Shape& b, Vec2 position_b) {
  const Compound* compound_a = std::get_if<Compound>(&a);
  const Compound* compound_b = std::get_if<Compound>(&b);
  if (compound_a == nullptr || compound_b == nullptr) return compound_b != nullptr;
  const auto key = [](const Compound& compound, Vec2 position) {
    return std::tuple{-compound.reach(), -static_cast<std::ptrdiff_t>(compound.children().size()), position.x, position.y};
  };
  return key(*compound_b, position_b) < key(*compound_a, position_a);
}

/// Calls found(penetration) for each pair of convex parts of A (at the origin; a compound, as
/// penetration() puts it first) and B (placed by b_to_a) that touches or overlaps, until found
/// returns false. Seams play no part here, so a pose that frees B is checked against the pieces
/// themselves.
template <class Found>
void for_each_part_contact(const Shape& a, const Shape& b, const Transform& b_to_a, Found&& found) {
  bool going_on = true;
  const Aabb region_b = culling_region(b, b_to_a);
  for_each_part(a, Transform{}, &region_b, [&](const auto& part_a, const Transform& placed_a, int) {
    const Aabb region_a = culling_region(part_a, placed_a);
    for_each_part(b, b_to_a, &region_a, [&](const auto& part_b, const Transform& placed_b, int) {
      if (const std::optional<Penetration> overlap = penetration(part_a, placed_a, part_b, placed_b)) going_on = found(*overlap);
      return going_on;
    });
    return going_on;
  });
}

/// Where no pair of convex parts overlaps beyond its own band, the deepest overlap of those that
/// touch (0 where none does); empty where one overlaps beyond its band: the freeing test stops at
/// the first that does.
std::optional<Real> deepest_touch_of_parts(const Shape& a, const Shape& b, const Transform& b_to_a) {
  std::optional<Real> deepest = Real(0);
  for_each_part_contact(a, b, b_to_a, [&](const Penetration& contact) {
    if (contact.depth > contact.tolerance) deepest.reset();
    else deepest = std::max(*deepest, contact.depth);
    return deepest.has_value();  // one beyond its band is enough
  });
  return deepest;
}

/// For a compound A at the origin and a convex B placed by b_to_a (penetration() puts a compound
/// first): the compound, the convex shape, and the transform from its frame to the compound's;
/// empty for two compounds.
struct CompoundAndConvex {
  const Compound& compound;
  const Shape& convex;
  Transform convex_to_compound;
};
std::optional<CompoundAndConvex> compound_and_convex(const Shape& a, const Shape& b, const Transform& b_to_a) {
  if (is_compound(b)) return std::nullopt;
  return CompoundAndConvex{std::get<Compound>(a), b, b_to_a};
}

/// A shape without area (a segment, a point, a capsule of radius 0) lying along a seam of a
/// compound touches the pieces on both sides only, yet lies inside the outline. True when the
/// convex one of A (at the origin) and B (placed by b_to_a) has no area, lies within the band of
/// a seam of the other, a compound, along more than a point of it (or, a point, on one away from
/// its ends), whether along the seam or crossing it at a small angle, where the seam runs inside
/// the outline by more than the band, and touches the seam's piece.
bool along_a_seam(const Shape& a, const Shape& b, const Transform& b_to_a) {
  const std::optional<CompoundAndConvex> pair = compound_and_convex(a, b, b_to_a);
  if (!pair) return false;
  const Compound& compound = pair->compound;
  const Shape& other = pair->convex;
  // The other shape's core ends in the compound's frame, when it has no area.
  const Transform& to_compound = pair->convex_to_compound;
  Vec2 first, second;
  if (const auto* segment = std::get_if<Segment>(&other)) {
    first = segment->a, second = segment->b;
  } else if (const auto* capsule = std::get_if<Capsule>(&other); capsule && capsule->radius == 0) {
    first = capsule->a, second = capsule->b;
  } else if (const auto* circle = std::get_if<Circle>(&other); circle && circle->radius == 0) {
    first = second = circle->center;
  } else {
    return false;
  }
  first = transform_point(to_compound, first);
  second = transform_point(to_compound, second);
  const Real ends_magnitude = coordinate_magnitude(first) + coordinate_magnitude(second);
  const std::span<const CompoundChild> children = compound.children();
  for (int child = 0; child < static_cast<int>(children.size()); ++child) {
    const auto* polygon = std::get_if<Polygon>(&children[static_cast<std::size_t>(child)].shape);
    if (polygon == nullptr) continue;
    const Transform& placed = children[static_cast<std::size_t>(child)].transform;
    for (int edge = 0; edge < polygon->count(); ++edge) {
      if (!compound.is_internal_edge(child, edge)) continue;
      const Vec2 start = transform_point(placed, polygon->vertices()[edge]);
      const Vec2 end = transform_point(placed, polygon->vertices()[(edge + 1) % polygon->count()]);
      // The band of the features involved: the seam's two vertices and the shape's ends (not the
      // whole compound's reach, which made a shape 32 units off a seam of a compound 2e7 across
      // lie "along" it in float).
      const Real tolerance = contact_tolerance(std::max(coordinate_magnitude(start), coordinate_magnitude(end)) + ends_magnitude);
      const Real edge_length = length(end - start);
      if (!(edge_length > 2 * tolerance)) continue;
      const Vec2 along = (1 / edge_length) * (end - start);
      // The stretch of the shape within the band of the seam's line (all of it when it lies along
      // the line; a long segment crossing the line at a small angle lies within the band, inside
      // the outline, over a stretch of twice the band over the angle's sine: 41 units for a
      // segment 7,000 long turned 0.0015 from a seam 12 long, 4.9 deep in the outline).
      const Real offset_first = cross(along, first - start), offset_second = cross(along, second - start);
      Real from = 0, to = 1;  // the stretch, as fractions from `first` to `second`
      if (offset_first == offset_second) {
        if (std::abs(offset_first) > tolerance) continue;
      } else {
        const Real entry = (-tolerance - offset_first) / (offset_second - offset_first), exit = (tolerance - offset_first) / (offset_second - offset_first);
        from = std::max(from, std::min(entry, exit));
        to = std::min(to, std::max(entry, exit));
        if (!(from <= to)) continue;
      }
      const Vec2 near_first = lerp(first, second, from), near_second = lerp(first, second, to);
      // Sharing more than a point of the seam away from its ends.
      const Real low = std::max(std::min(dot(near_first - start, along), dot(near_second - start, along)), tolerance);
      const Real high = std::min(std::max(dot(near_first - start, along), dot(near_second - start, along)), edge_length - tolerance);
      if (!(first == second ? low <= high : high - low > tolerance)) continue;
      // The stretch counts only where the seam runs inside the outline by more than the band:
      // toward a sliver's tip the band of the seam's line reaches out along the outline's face (a
      // segment 0.026 outside a sliver 0.09 thick lay within it for 30 units of a seam 880 long,
      // next to its end), and a seam beside a crack thinner than the band runs along the outline
      // (a point the outline's query put 0.09 inside, within its band of 187, was sent 6.1e6
      // away, and so was a segment 430 long lying along the crack).
      const Vec2 middle = start + (Real(0.5) * (low + high)) * along;
      if (!(closest_point(compound, Transform{}, middle).signed_distance < -tolerance)) continue;
      // And touching the seam's piece by the pair's own test: a shape within the seam's band of
      // its line but apart from every piece (beyond a sliver thinner than that band, whose outer
      // face it lies along) is outside.
      const bool touches = std::visit(
          [&](const auto& concrete) {
            if constexpr (std::is_same_v<std::decay_t<decltype(concrete)>, Compound>) return false;  // not reached: no area checked above
            else return overlap(*polygon, placed, concrete, to_compound);
          },
          other);
      if (touches) return true;
    }
  }
  return false;
}

/// Does the disk about the centre of a convex shape (a polygon's centroid, the middle of a
/// segment's or capsule's core) that the shape contains, placed in a compound's frame by
/// `to_compound`, reach into that compound deeper than `accounted` (the deepest the pairs of pieces
/// overlap, each within its band) by more than the contact tolerance of the compound's reach and
/// the centre's coordinates? The compound's point query decides, which follows the
/// outline and holds a crack between pieces thinner than the band inside, whatever faces are near:
/// a point in such a crack, clear of every piece, is deep inside. The point query's signed
/// distance changes no faster than the point moves, so the shape cannot leave the outline by a
/// translation shorter than the disk's radius less that distance: a circle of radius 97 across
/// the tip of such a crack (float, a compound 6.7e7 across), its centre 27.7 inside, overlapped
/// the pieces on either side within their bands (123 against 133, 69 against 128), yet the way out
/// of the filled crack was 262,330. Where the outline runs along the pieces' faces, the disk reaches
/// no deeper into it than the shape into the nearest piece, a depth the pairs judge by their own
/// bands; so only the outline's depth beyond theirs counts (a crack filled, a seam), else the two
/// bands' difference decides: a capsule of radius 106 on a face beside a crack 4.7e7 across
/// (float), its core's middle 10 to 14 outside the outline by round-off, reached 92 to 96 into it
/// against a band of 93.4, and was free or 124,000 deep (along the crack) by turns, though every
/// pair called it touching (106 against 125). A shape without area has the centre alone, and so has
/// any shape when `centre_alone` is set.
template <class Convex>
bool convex_centre_inside(const Compound& compound, const Convex& convex, const Transform& to_compound, bool centre_alone, Real accounted) {
  // The centre, and the disk's radius: how deep the centre lies in the shape itself.
  struct CentreDisk {
    Vec2 centre;
    Real radius = 0;
  };
  const CentreDisk disk = std::visit(
      [&](const auto& shape) -> CentreDisk {
        using Kind = std::decay_t<decltype(shape)>;
        if constexpr (std::is_same_v<Kind, Compound>) {
          return {};  // not reached
        } else {
          Vec2 centre;
          if constexpr (std::is_same_v<Kind, Circle>) centre = shape.center;
          else if constexpr (std::is_same_v<Kind, Polygon>) centre = shape.centroid();
          else centre = Real(0.5) * (shape.a + shape.b);
          return {centre, centre_alone ? 0 : std::max(Real(0), -closest_point(shape, Transform{}, centre).signed_distance)};
        }
      },
      convex);
  const Vec2 centre = transform_point(to_compound, disk.centre);
  const Real tolerance = contact_tolerance(compound.reach() + coordinate_magnitude(centre));
  return closest_point(compound, Transform{}, centre).signed_distance < disk.radius - accounted - tolerance;
}

/// A shape thinner than the touching band of a compound's large coordinates, lying near a seam,
/// overlaps each piece by less than the pair's band and so touches both, though the outline holds
/// it deep inside (a segment 125 long along a sliver's seam of a compound 1.2e7 across, in float,
/// 17,000 inside). True when the convex one of A (at the origin) and B (placed by b_to_a) has the
/// disk about its centre inside the other, a compound, or its centre alone when `centre_alone`
/// (convex_centre_inside), deeper than `accounted`, the deepest overlap of the pairs of parts;
/// with compounds on both sides, when a child of either has (a compound 329 across inside one
/// 4.7e7 across, in float, touched its pieces within their bands).
bool centre_inside_outline(const Shape& a, const Shape& b, const Transform& b_to_a, bool centre_alone, Real accounted) {
  if (const std::optional<CompoundAndConvex> pair = compound_and_convex(a, b, b_to_a)) {
    return convex_centre_inside(pair->compound, pair->convex, pair->convex_to_compound, centre_alone, accounted);
  }
  const Compound* compound_a = std::get_if<Compound>(&a);
  const Compound* compound_b = std::get_if<Compound>(&b);
  if (compound_a == nullptr || compound_b == nullptr) return false;
  auto any_child_inside = [&](const Compound& holder, const Compound& other, const Transform& other_to_holder) {
    return std::any_of(other.children().begin(), other.children().end(), [&](const CompoundChild& child) {
      return convex_centre_inside(holder, child.shape, compose(other_to_holder, child.transform), centre_alone, accounted);
    });
  };
  return any_child_inside(*compound_a, *compound_b, b_to_a) || any_child_inside(*compound_b, *compound_a, inverse_compose(b_to_a, Transform{}));
}

/// compound_penetration takes a squeezed pair back within its band (in band widths): where the pair
/// overlaps by at most near_band_reach bands, to an overlap of near_band_margin bands: a move of at
/// most half a band.
constexpr Real near_band_reach = Real(1.25);
constexpr Real near_band_margin = Real(0.75);

/// Directions the fallback of compound_penetration tries besides the contact normals.
constexpr int fallback_directions = 32;

/// Penetration of a compound A and a convex shape or a compound B, in A's frame (the header
/// comment's outline); penetration() puts a compound first.
std::optional<Penetration> compound_penetration(const Shape& a, const Shape& b, const Transform& b_to_a) {
  std::vector<ChildManifold> contacts;
  manifolds_in_frame_of_a(a, b, b_to_a, contacts, {});
  auto moved_by = [&](Vec2 translation) { return Transform{b_to_a.position + translation, b_to_a.rotation}; };
  // Freed: no pair of pieces overlaps beyond its band, B does not lie along a seam, and the disk
  // about the convex one's centre does not reach into the compound's outline beyond the pairs'
  // deepest overlap, `accounted` (both above).
  auto clear_of_seams = [&](const Transform& placed, Real accounted) {
    return !along_a_seam(a, b, placed) && !centre_inside_outline(a, b, placed, false, accounted);
  };
  auto frees = [&](Vec2 translation) {
    const Transform placed = moved_by(translation);
    const std::optional<Real> deepest_touch = deepest_touch_of_parts(a, b, placed);
    return deepest_touch && clear_of_seams(placed, *deepest_touch);
  };
  std::vector<detail::ContactPlane> planes;
  Real tolerance = 0;
  Vec2 translation;  // the translation of B tried last
  // The direction B leaves along, for a way out of length 0 (the fallback's cast touching at B's
  // own pose); +x of A's frame where none is found.
  Vec2 exit_direction{1, 0};
  // The planes of `contacts`, found with B moved by `found_at`.
  auto add_planes = [&](Vec2 found_at) {
    for (const ChildManifold& entry : contacts) {
      for (int i = 0; i < entry.manifold.point_count; ++i) {
        const ManifoldPoint& point = entry.manifold.points[i];
        planes.push_back({entry.manifold.normal, dot(entry.manifold.normal, found_at) - point.separation});
        tolerance = std::max(tolerance, point_tolerance(point));
      }
    }
  };
  Penetration result;
  // Farther than this, B is clear of A whatever the direction: a contact plane translation that
  // long (two nearly parallel planes meet far away) is never the answer; the fallback's casts
  // start there.
  const Real beyond = size_scale(a) + size_scale(b) + length(b_to_a.position) + 1;
  add_planes({});
  // Each pair of parts' own way out is a candidate too, besides the planes' corners: against a far
  // side much larger than a piece, the seam rule recomputes a contact on the piece's outside face,
  // whose separation is then the far side's whole extent (1.2e7 for a piece 32 deep in a rounded
  // polygon 7e7 across), and those planes' corners miss the short way out.
  std::vector<Vec2> part_exits;
  // Each pair of parts' own way out, where it overlaps beyond its band: its depth along its
  // normal, a translation of B. The first pair found touching is kept for a verdict of touching.
  std::optional<Penetration> touching_part;
  // The widest band of the pairs of parts overlapping beyond their own, and of those touching: the
  // answer's band is at least the one those pairs alone would report (a box 67 into a piece whose
  // corners lie 2.7e7 out, in float, has a band of 52 against the piece; the contact points, near
  // the compound's origin, gave 9e-5 and called it overlapping where the piece called it touching).
  Real overlapping_parts_band = 0, touching_parts_band = 0, deepest_touch = 0;
  // The pairs beyond their band by at most a quarter of it: their way out, depth and band.
  struct NearBand {
    Vec2 exit;
    Real depth, tolerance;
  };
  std::vector<NearBand> near_band;
  for_each_part_contact(a, b, b_to_a, [&](const Penetration& contact) {
    if (contact.depth > contact.tolerance) {
      part_exits.push_back(contact.depth * contact.normal);
      overlapping_parts_band = std::max(overlapping_parts_band, contact.tolerance);
      if (contact.depth <= near_band_reach * contact.tolerance) near_band.push_back({part_exits.back(), contact.depth, contact.tolerance});
    } else {
      touching_parts_band = std::max(touching_parts_band, contact.tolerance);
      deepest_touch = std::max(deepest_touch, contact.depth);
      if (!touching_part) touching_part = contact;
    }
    return true;
  });
  bool freed = part_exits.empty() && clear_of_seams(b_to_a, deepest_touch);  // only touching: no translation needed
  // Pairs overlapping beyond their bands give theirs; where none does, the pairs touching B give
  // theirs, whether B is free where it stands or the outline's tests hold it inside: those tests
  // overrule pairs that call the pose touching, and the way out ends with B touching pieces within
  // such bands (a circle across a crack's tip, its pairs touching within 133, left along the
  // crack to touch a piece 2.9 deep, where the contacts' own band is 2.5).
  const Real parts_band = !part_exits.empty() ? overlapping_parts_band : touching_parts_band;
  // A compound (A) against a convex shape (B).
  const std::optional<CompoundAndConvex> compound_pair = compound_and_convex(a, b, b_to_a);
  // And, a compound against a convex shape, each contact's way out to the outline: the translation
  // that carries the contact's point of the convex shape, inside the outline, to the outline's
  // nearest point. The planes miss it where the outline turns into a notch between pieces the
  // convex shape does not touch (a point 0.02 inside a piece beside such a corner was sent 516 out
  // through a neighbour's far side, the seam rule's plane); for a point it is the answer itself.
  if (compound_pair && !freed) {
    for (const ChildManifold& entry : contacts) {
      for (int i = 0; i < entry.manifold.point_count; ++i) {
        // The contact's point on the convex shape's surface.
        const Vec2 convex_point = detail::surface_point(entry.manifold, entry.manifold.points[i], false);
        const PointProjection outline = closest_point(compound_pair->compound, Transform{}, convex_point);
        if (!(outline.signed_distance < 0)) continue;
        // Moving B, the convex point onto the outline.
        part_exits.push_back(outline.point - convex_point);
      }
    }
  }
  // No contact and nothing overlapping: apart, or touching where a pair of parts touches (below).
  // Without contacts the pair may still overlap: deep inside a piece whose faces are all seams the
  // seam rule finds no outside face to put a contact on (a compound 45 across, 1.5e6 inside one
  // 1.2e7 across); the candidates and the fallback then find the way out.
  if (contacts.empty() && freed) {
    if (!touching_part) return std::nullopt;
    // Touching, as overlap() has it, though the seam rule left no contact: a segment along a seam
    // beside a sliver thinner than the band touches the pieces on both sides, and either pair's
    // normal may lead into the other piece. Against a convex shape the normal is the outline's
    // outward one at the pair's point on the convex shape, the way out; with two compounds, the
    // pair's own.
    if (compound_pair) {
      const PointProjection outline = closest_point(compound_pair->compound, Transform{}, touching_part->point_b);
      touching_part->normal = outline.normal;
      touching_part->point_b = touching_part->point_a - touching_part->depth * touching_part->normal;
    }
    return touching_part;
  }
  // B squeezed (a crack narrower than B): a pair beyond its band by round-off, whose own way out
  // leaves B overlapping the piece across beyond its band, is taken back within its band, a
  // quarter of the band inside its edge; a move that short (at most half a band) that frees B
  // makes the pose touching.
  // Without it the answer jumped from touching to the way out along the crack as round-off moved
  // the pair across its band's edge (a capsule of radius 106 sliding along a face of a fan 4.7e7
  // across, float, 124.4 and 126.4 into it at poses 2,600 apart against a band of 125.2, was
  // touching and then 159,783 deep). A pair whose own way out frees B keeps its whole depth, as
  // the pair alone reports it.
  if (!freed) {
    for (const NearBand& pair : near_band) {
      if (frees(pair.exit)) continue;  // not squeezed: the search below finds this way out
      const Vec2 within_band = ((pair.depth - near_band_margin * pair.tolerance) / pair.depth) * pair.exit;
      if (frees(within_band)) {
        freed = true;
        translation = within_band;
        break;
      }
    }
  }
  auto shorter = [](Vec2 p, Vec2 q) { return length_squared(p) < length_squared(q); };
  std::vector<Vec2> failed;  // candidates tried that did not free B, in the order tried
  for (int round = 0; !freed && round < penetration_rounds; ++round) {
    // Shortest first, the translations where one or two contact planes are tight; the first that
    // frees B wins (a plane B can slide past need not hold).
    std::vector<Vec2> candidates = detail::candidate_translations(planes);
    candidates.insert(candidates.end(), part_exits.begin(), part_exits.end());
    detail::keep_shortest(candidates, penetration_candidates_per_round);
    for (std::size_t i = 0; i < candidates.size() && !freed; ++i) {
      if (length_squared(candidates[i]) <= length_squared(translation)) continue;  // not beyond what was tried
      if (length_squared(candidates[i]) > beyond * beyond) break;                   // shortest first: the rest are longer
      freed = frees(candidates[i]);
      if (freed) translation = candidates[i];
      else failed.push_back(candidates[i]);
    }
    if (freed) break;
    // None frees B: go on from the shortest translation every plane allows, with the contacts there.
    const std::optional<Vec2> shortest = detail::shortest_translation(planes, tolerance);
    if (!shortest || length_squared(*shortest) > beyond * beyond) break;  // squeezed between opposed planes, or nothing near
    translation = *shortest;
    freed = frees(translation);
    if (!freed) failed.push_back(translation);
    contacts.clear();
    manifolds_in_frame_of_a(a, b, moved_by(translation), contacts, {});
    add_planes(translation);
  }
  if (!freed) {
    // The contact planes do not describe the way out (B squeezed between opposed faces, or sunk
    // deep): along each contact normal and each of a fan of directions, B is placed beyond A and
    // cast back; where it first touches frees it. The shortest of these wins.
    std::vector<Vec2> directions;
    for (const detail::ContactPlane& plane : planes) directions.push_back(plane.normal);
    for (int k = 0; k < fallback_directions; ++k) {
      const Real angle = Real(2 * 3.14159265358979323846) * Real(k) / Real(fallback_directions);
      directions.push_back({std::cos(angle), std::sin(angle)});
    }
    Real shortest = std::numeric_limits<Real>::max();
    result.status = IterationStatus::iteration_cap;  // until a direction is found
    for (const Vec2 direction : directions) {
      const std::optional<CastHit> back = shape_cast(a, Transform{}, b, moved_by(beyond * direction), -beyond * direction);
      if (!back) continue;
      const Real exit = beyond * (1 - back->time);
      if (exit < shortest) {
        shortest = exit;
        translation = exit * direction;
        exit_direction = direction;
        result.status = back->status;
      }
    }
  }
  // A shorter way out may pass through a translation that did not free B: a piece's own way out
  // across a seam ends inside the next piece, whose far side only the contacts there show (a
  // segment along the cut beside a sliver leaves across the sliver, 970, where the first
  // translation that frees it crossed the other piece, 382,000). From the shortest few of those,
  // the contacts there add their planes, and the new candidates shorter than the way out found
  // are tried; one that frees B replaces it.
  if (freed || result.status == IterationStatus::converged) {
    std::sort(failed.begin(), failed.end(), shorter);
    for (std::size_t k = 0; k < failed.size() && k < penetration_continuations && shorter(failed[k], translation); ++k) {
      contacts.clear();
      manifolds_in_frame_of_a(a, b, moved_by(failed[k]), contacts, {});
      add_planes(failed[k]);
      std::vector<Vec2> onward = detail::candidate_translations(planes);
      detail::keep_shortest(onward, penetration_candidates_per_round);
      for (std::size_t i = 0; i < onward.size() && shorter(onward[i], translation); ++i) {
        if (std::find(failed.begin(), failed.end(), onward[i]) != failed.end()) continue;  // tried already
        if (frees(onward[i])) translation = onward[i];
      }
    }
  }
  // The least way out. B is clear of A exactly where its translation lies in no pair of parts'
  // obstacle (A's part minus B's: minkowski_union.hpp), so the least lies among the points the
  // union's boundary offers. The pairs within reach of the way out found give those shorter than
  // it, clear of every obstacle; the first that frees B by the whole test (the bands, the seams
  // and the centres, above) replaces it. The candidates and fallback above may stop at a longer
  // one, and differently with A and B swapped.
  if ((freed || result.status == IterationStatus::converged) && length_squared(translation) > 0) {
    const Real found = length(translation);
    std::vector<detail::TranslationObstacle> obstacles;
    const Aabb region_b = culling_region(b, b_to_a, found);
    for_each_part(a, Transform{}, &region_b, [&](const auto& part_a, const Transform& placed_a, int) {
      std::vector<Vec2> core_a = detail::core_vertices(part_a);
      for (Vec2& vertex : core_a) vertex = transform_point(placed_a, vertex);
      const Aabb region_a = culling_region(part_a, placed_a, found);
      for_each_part(b, b_to_a, &region_a, [&](const auto& part_b, const Transform& placed_b, int) {
        std::vector<Vec2> core_b = detail::core_vertices(part_b);
        for (Vec2& vertex : core_b) vertex = transform_point(placed_b, vertex);
        obstacles.push_back(detail::translation_obstacle(core_a, core_b, part_a.rounding_radius() + part_b.rounding_radius()));
        return true;
      });
      return true;
    });
    // A candidate must also leave no centre deep inside the outline a few bands further on (the
    // freeing test checks the candidate itself): the union reaches to the tip of a crack thinner
    // than the band between two pieces, which the outline's query puts on the outline but whose
    // every neighbour along the way out it holds inside (a mover left there slid on into the
    // crack). The centre alone: a least way out may end in a pocket, where going on along it
    // brings the shape's disk back into the outline.
    const Real onward = 4 * contact_tolerance(beyond);
    auto stays_out = [&](Vec2 exit) { return !centre_inside_outline(a, b, moved_by(exit + (onward / length(exit)) * exit), true, 0); };
    for (const Vec2 exit : detail::union_exits(obstacles, found, penetration_union_exits)) {
      if (frees(exit) && stays_out(exit)) {
        translation = exit;
        break;
      }
    }
  }
  contacts.clear();  // the contacts where B comes to rest
  manifolds_in_frame_of_a(a, b, moved_by(translation), contacts, {});
  // The witness: a contact of the final pose (touching), the one whose normal is nearest the
  // translation's direction; with no translation, the deepest contact.
  const Real depth = length(translation);
  const Vec2 direction = depth > 0 ? (Real(1) / depth) * translation : exit_direction;
  const ChildManifold* witness = nullptr;
  int witness_point = 0;
  Real best = -std::numeric_limits<Real>::max();
  for (const ChildManifold& entry : contacts) {
    for (int i = 0; i < entry.manifold.point_count; ++i) {
      const Real score = depth > 0 ? dot(entry.manifold.normal, direction) : -entry.manifold.points[i].separation;
      if (score > best) {
        best = score;
        witness = &entry;
        witness_point = i;
      }
    }
  }
  result.depth = depth;
  result.normal = direction;
  result.tolerance = std::max(tolerance, parts_band);
  if (witness == nullptr) {
    // No contact at the final pose (B freed a hair beyond touching): the witness is A's point
    // nearest B there, and that point of B before the move.
    const DistanceResult closest = distance(a, Transform{}, b, moved_by(translation));
    result.point_a = closest.point_a;
    result.point_b = result.point_a - translation;
    return result;
  }
  const ManifoldPoint& point = witness->manifold.points[witness_point];
  if (depth == 0) {  // touching only: the closest points (they meet), with the contact's normal
    const DistanceResult closest = distance(a, Transform{}, b, b_to_a);
    result.normal = witness->manifold.normal;
    result.point_a = closest.point_a;
    result.point_b = closest.point_b;
    return result;
  }
  result.point_a = detail::surface_point(witness->manifold, point, true);  // on A's surface
  result.point_b = result.point_a - translation;                          // that point of B before the move
  return result;
}

}  // namespace

namespace detail {

namespace {

/// circle_core_gap's body, on the core's view (placed by `core_transform`). The circle's centre is
/// placed in the core's frame (place_circle_center, as collide() places it), the core's feature
/// nearest it found (nearest_core_feature: the face of greatest separation, or an end vertex the
/// centre lies past), and the touching band of that feature, the centre and the placement taken:
/// collide()'s circle path (manifold.cpp) decides with the same three. The circle's surface point
/// is taken from its centre placed in the world directly, not through the core's frame.
[[gnu::always_inline]] inline CircleCoreGap circle_view_gap(const PolygonView& view, const Transform& core_transform, const Circle& circle,
                                                           const Transform& circle_transform) {
  Vec2 center;
  Real placement;
  place_circle_center(circle.center, circle_transform, core_transform, center, placement);
  const CoreFeature nearest = nearest_core_feature(view, center, std::numeric_limits<Real>::max());
  const Real radii = view.radius + circle.radius;
  CircleCoreGap result;
  result.gap = nearest.signed_distance - radii;
  result.tolerance = circle_feature_tolerance(view, nearest, center, placement, radii);
  result.normal = rotate(core_transform.rotation, nearest.normal);
  result.core_point = transform_point(core_transform, nearest.core_point + view.radius * nearest.normal);
  result.circle_point = transform_point(circle_transform, circle.center) - circle.radius * result.normal;
  if (nearest.at_vertex) {
    result.feature = {view.vertices[nearest.feature], {}};
    result.feature_count = 1;
  } else {
    result.feature = {view.vertices[nearest.feature], view.vertices[view.next(nearest.feature)]};
    result.feature_count = 2;
  }
  return result;
}

}  // namespace

CircleCoreGap circle_core_gap(const Polygon& polygon, const Transform& polygon_transform, const Circle& circle,
                              const Transform& circle_transform) {
  return circle_view_gap(view_of(polygon), polygon_transform, circle, circle_transform);
}
CircleCoreGap circle_core_gap(const Capsule& capsule, const Transform& capsule_transform, const Circle& circle,
                              const Transform& circle_transform) {
  const SegmentCore core(capsule.a, capsule.b);
  return circle_view_gap(core.view(capsule.radius), capsule_transform, circle, circle_transform);
}
CircleCoreGap circle_core_gap(const Segment& segment, const Transform& segment_transform, const Circle& circle,
                              const Transform& circle_transform) {
  const SegmentCore core(segment.a, segment.b);
  return circle_view_gap(core.view(0), segment_transform, circle, circle_transform);
}

}  // namespace detail

// --- front doors ---------------------------------------------------------------------------

bool overlap(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b) {
  if (answer_swapped(a, transform_a.position, b, transform_b.position)) return overlap(b, transform_b, a, transform_a);  // both orders alike
  const Transform b_to_a = inverse_compose(transform_a, transform_b);
  const Transform identity{};
  const bool both_convex = !is_compound(a) && !is_compound(b);  // no boxes needed
  const Aabb region_b = both_convex ? Aabb{} : culling_region(b, b_to_a);
  bool found = false;
  for_each_part(a, identity, both_convex ? nullptr : &region_b, [&](const auto& part_a, const Transform& placed_a, int) {
    const Aabb region_a = both_convex ? Aabb{} : culling_region(part_a, placed_a);
    for_each_part(b, b_to_a, both_convex ? nullptr : &region_a, [&](const auto& part_b, const Transform& placed_b, int) {
      found = overlap(part_a, placed_a, part_b, placed_b);
      return !found;
    });
    return !found;
  });
  return found;
}

void contact_manifolds(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                       std::vector<ChildManifold>& manifolds, const CollideOptions& options) {
  if (!is_compound(a) && !is_compound(b)) {
    // Two convex shapes: their one manifold, straight from collide() (the same answer as the
    // general path below, where placing A at the origin and back is exact, without its layers).
    const Manifold manifold = std::visit(
        [&](const auto& shape_a, const auto& shape_b) -> Manifold {
          if constexpr (std::is_same_v<std::decay_t<decltype(shape_a)>, Compound> || std::is_same_v<std::decay_t<decltype(shape_b)>, Compound>) {
            return {};  // not reached: both are convex here
          } else {
            return collide(shape_a, transform_a, shape_b, transform_b, options);
          }
        },
        a, b);
    if (manifold.point_count > 0) manifolds.push_back({-1, -1, manifold});
    return;
  }
  if (answer_swapped(a, transform_a.position, b, transform_b.position)) {  // mirrored back: both orders alike
    const std::size_t first = manifolds.size();
    contact_manifolds(b, transform_b, a, transform_a, manifolds, options);
    for (std::size_t i = first; i < manifolds.size(); ++i) {
      std::swap(manifolds[i].child_a, manifolds[i].child_b);
      manifolds[i].manifold.normal = -manifolds[i].manifold.normal;  // its points lie midway, the same either way
    }
    // Back in order of A's child, then B's (already so where A is convex, its child being -1).
    std::sort(manifolds.begin() + static_cast<std::ptrdiff_t>(first), manifolds.end(), [](const ChildManifold& p, const ChildManifold& q) {
      return std::pair{p.child_a, p.child_b} < std::pair{q.child_a, q.child_b};
    });
    return;
  }
  const std::size_t first = manifolds.size();
  manifolds_in_frame_of_a(a, b, inverse_compose(transform_a, transform_b), manifolds, options);
  for (std::size_t i = first; i < manifolds.size(); ++i) detail::place_manifold(manifolds[i].manifold, transform_a);
}

std::optional<Penetration> penetration(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b) {
  if (!is_compound(a) && !is_compound(b)) {
    return std::visit(
        [&](const auto& shape_a, const auto& shape_b) -> std::optional<Penetration> {
          if constexpr (std::is_same_v<std::decay_t<decltype(shape_a)>, Compound> || std::is_same_v<std::decay_t<decltype(shape_b)>, Compound>) {
            return std::nullopt;  // not reached: both are convex here
          } else {
            return penetration(shape_a, transform_a, shape_b, transform_b);
          }
        },
        a, b);
  }
  if (answer_swapped(a, transform_a.position, b, transform_b.position)) {  // mirrored back: both orders alike
    std::optional<Penetration> mirrored = penetration(b, transform_b, a, transform_a);
    if (mirrored) {
      mirrored->normal = -mirrored->normal;
      std::swap(mirrored->point_a, mirrored->point_b);
    }
    return mirrored;
  }
  std::optional<Penetration> result = compound_penetration(a, b, inverse_compose(transform_a, transform_b));
  if (result) {
    result->normal = rotate(transform_a.rotation, result->normal);
    result->point_a = transform_point(transform_a, result->point_a);
    result->point_b = transform_point(transform_a, result->point_b);
  }
  return result;
}

DistanceResult distance(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                        const DistanceOptions& options) {
  const bool both_convex = !is_compound(a) && !is_compound(b);
  if (both_convex) {  // straight to the typed query, which keeps its own frame and warm start
    return std::visit(
        [&](const auto& shape_a, const auto& shape_b) -> DistanceResult {
          if constexpr (std::is_same_v<std::decay_t<decltype(shape_a)>, Compound> || std::is_same_v<std::decay_t<decltype(shape_b)>, Compound>) {
            return {};  // not reached: both are convex here
          } else {
            return distance(shape_a, transform_a, shape_b, transform_b, options);
          }
        },
        a, b);
  }
  if (answer_swapped(a, transform_a.position, b, transform_b.position)) {  // mirrored back: both orders alike
    DistanceResult mirrored = distance(b, transform_b, a, transform_a, options);
    std::swap(mirrored.point_a, mirrored.point_b);
    mirrored.normal = -mirrored.normal;
    return mirrored;
  }
  const Transform b_to_a = inverse_compose(transform_a, transform_b);
  const DistanceOptions child_options{.cache = nullptr, .max_iterations = options.max_iterations};
  DistanceResult best;
  bool found = false;
  int iterations = 0;
  IterationStatus status = IterationStatus::converged;
  for_each_part(a, Transform{}, nullptr, [&](const auto& part_a, const Transform& placed_a, int) {
    const Aabb box_a = compute_aabb(part_a, placed_a);
    const Aabb region = box_a.expanded(found ? best.distance : Real(0));
    for_each_part(b, b_to_a, found ? &region : nullptr, [&](const auto& part_b, const Transform& placed_b, int) {
      if (found && box_gap(box_a, compute_aabb(part_b, placed_b)) >= best.distance) return true;
      const DistanceResult result = distance(part_a, placed_a, part_b, placed_b, child_options);
      iterations += result.iterations;
      if (result.status == IterationStatus::iteration_cap) status = IterationStatus::iteration_cap;
      if (!found || result.overlapping || result.distance < best.distance) best = result;
      found = true;
      return !best.overlapping;
    });
    return !best.overlapping;
  });
  best.iterations = iterations;
  best.status = status;
  best.point_a = transform_point(transform_a, best.point_a);
  best.point_b = transform_point(transform_a, best.point_b);
  best.normal = rotate(transform_a.rotation, best.normal);
  return best;
}

namespace {

/// What the outlines of the compounds on either side of a cast say about a contact between two of
/// their parts (src/seams.cpp, outline_contact), the points and the normal (A to B) in A's frame,
/// B placed by `b_to_a`: the normal the outlines allow nearest `normal` (unchanged off the
/// seams), and, for B moving along `direction` (unit, zero for none), whether it enters an
/// outline at a seam and the normal it closes on there. `contact_band` is how far the points may
/// lie from the contact they stand for (a vertex of a piece that close is at the contact).
struct SeamVerdict {
  Vec2 normal;
  bool enters = false;
  Vec2 blocking_normal;
};
SeamVerdict judge_on_outlines(const Shape& a, const Shape& b, const Transform& b_to_a, Vec2 point_a, Vec2 point_b, Vec2 normal, Vec2 direction,
                              Real contact_band) {
  SeamVerdict verdict{normal, false, {}};
  if (const Compound* compound = std::get_if<Compound>(&a)) {
    const detail::OutlineContact outline = detail::outline_contact(*compound, point_a, normal, direction, contact_band);
    verdict = {outline.normal, outline.on_seam && outline.enters, outline.blocking_normal};
  }
  if (const Compound* compound = std::get_if<Compound>(&b)) {
    // Seen from B: its outward normal is the contact normal reversed, and A moves the other way.
    const detail::OutlineContact outline = detail::outline_contact(*compound, inverse_transform_point(b_to_a, point_b),
                                                                   inverse_rotate(b_to_a.rotation, -verdict.normal),
                                                                   inverse_rotate(b_to_a.rotation, -direction), contact_band);
    if (outline.on_seam) {
      verdict.normal = -rotate(b_to_a.rotation, outline.normal);
      if (outline.enters && !verdict.enters) {
        verdict.enters = true;
        verdict.blocking_normal = -rotate(b_to_a.rotation, outline.blocking_normal);
      }
    }
  }
  return verdict;
}

}  // namespace

std::optional<CastHit> shape_cast(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                                  Vec2 translation_b, const CastOptions& options) {
  // In A's frame: B placed by b_to_a, moving by the motion turned into A's axes. A compound is
  // cast part against part, and its seams (the cuts between its pieces, not its surface) are then
  // judged against its outline (src/seams.cpp):
  // - a hit on a seam's end, where a piece may report the seam's normal, takes the normal the
  //   outline allows there nearest it;
  // - a pair of parts that touch at time 0 on a seam, whose own cast finds nothing because the
  //   motion runs along the seam or away from the part, is met at time 0 when the motion closes
  //   on the outline: for every normal the outline allows there (a point on a seam and on no
  //   outside face is inside). Only a point or a segment can do so unseen by the parts (a shape
  //   with area entering the outline enters a piece).
  if (answer_swapped(a, transform_a.position, b, transform_b.position)) {
    // Swapped, B held and A moving the other way, and the hit mirrored back: at time t, B sits
    // t x translation_b back from where this cast has it.
    std::optional<CastHit> mirrored = shape_cast(b, transform_b, a, transform_a, -translation_b, options);
    if (mirrored) {
      mirrored->point += mirrored->time * translation_b;
      mirrored->normal = -mirrored->normal;
    }
    return mirrored;
  }
  const Transform b_to_a = inverse_compose(transform_a, transform_b);
  const Vec2 motion = inverse_rotate(transform_a.rotation, translation_b);
  const Aabb box_b = compute_aabb(b, b_to_a);
  const Aabb swept_b = box_b.merged({box_b.lower + motion, box_b.upper + motion});
  const Aabb region_b = swept_b.expanded(culling_margin(box_magnitude(swept_b) + own_frame_magnitude(b)) + options.target_separation);  // a cast stops target_separation short
  const bool has_seams = is_compound(a) || is_compound(b);
  const Real motion_length = length(motion);
  const Vec2 motion_direction = motion_length > 0 ? (Real(1) / motion_length) * motion : Vec2{};
  std::optional<CastHit> earliest;
  for_each_part(a, Transform{}, &region_b, [&](const auto& part_a, const Transform& placed_a, int) {
    // B's parts whose path can reach A's part start in A's part's box pushed back along the motion.
    const Aabb box_a = compute_aabb(part_a, placed_a);
    const Aabb reached_a = box_a.expanded(culling_margin(box_magnitude(box_a) + own_frame_magnitude(part_a)) + options.target_separation);  // A's part, where a cast stops short
    const Aabb region = reached_a.merged({box_a.lower - motion, box_a.upper - motion});
    for_each_part(b, b_to_a, &region, [&](const auto& part_b, const Transform& placed_b, int) {
      std::optional<CastHit> hit = shape_cast(part_a, placed_a, part_b, placed_b, motion, options);
      // The pair's band about contact points whose coordinates have this magnitude (A's frame).
      auto pair_band = [&](Real points_magnitude) { return contact_tolerance(points_magnitude + size_scale(part_a) + size_scale(part_b)); };
      if (has_seams && hit) {
        // A hit after time 0 is judged at the parts' own nearest points at the hit's pose: the
        // cast stops up to a band short (half a band beyond target_separation for a circle, more
        // for a long motion), so the point midway can lie off a seam's end that the part's point
        // is on. A pair touching from the start, or whose parts touch at the hit (distance() then
        // shares one estimate between them, which along a long face can lie well off the vertex
        // touching it), is judged at the contact, each surface half the target separation off it.
        const Transform b_to_a_at_hit{b_to_a.position + hit->time * motion, b_to_a.rotation};
        Vec2 surface_a = hit->point - Real(0.5) * options.target_separation * hit->normal;
        Vec2 surface_b = hit->point + Real(0.5) * options.target_separation * hit->normal;
        if (hit->time > 0) {
          const DistanceResult at_hit = distance(part_a, placed_a, part_b, {placed_b.position + hit->time * motion, placed_b.rotation});
          if (!at_hit.overlapping) {
            surface_a = at_hit.point_a;
            surface_b = at_hit.point_b;
          }
        }
        // Met at time 0 (closing on a piece), the surface the motion closes on is the one to report.
        // The contact point stands for the parts' contact within the pair's band (a vertex
        // touching a long face has its estimate somewhere along the face within it).
        const Real contact_band = pair_band(coordinate_magnitude(hit->point));
        const SeamVerdict verdict = judge_on_outlines(a, b, b_to_a_at_hit, surface_a, surface_b, hit->normal,
                                                      hit->time == 0 ? motion_direction : Vec2{}, contact_band);
        hit->normal = verdict.enters ? verdict.blocking_normal : verdict.normal;
      } else if (has_seams && motion_length > 0 && (!earliest || earliest->time > 0)) {
        const Aabb box_b_now = compute_aabb(part_b, placed_b);
        if (reached_a.overlaps(box_b_now)) {
          const DistanceResult start = distance(part_a, placed_a, part_b, placed_b);
          const Real band = pair_band(coordinate_magnitude(start.point_a) + coordinate_magnitude(start.point_b));
          if (start.distance <= options.target_separation + band) {
            const SeamVerdict verdict = judge_on_outlines(a, b, b_to_a, start.point_a, start.point_b, start.normal, motion_direction, band);
            if (verdict.enters) hit = CastHit{0, Real(0.5) * (start.point_a + start.point_b), verdict.blocking_normal, true};
          }
        }
      }
      if (hit && (!earliest || hit->time < earliest->time)) earliest = hit;
      return true;
    });
    return true;
  });
  if (earliest) {
    earliest->point = transform_point(transform_a, earliest->point);
    earliest->normal = rotate(transform_a.rotation, earliest->normal);
  }
  return earliest;
}

namespace {

/// The sweep of a child placed at `placement` in a body following `sweep`.
Sweep child_sweep(const Sweep& sweep, const Transform& placement, int child) {
  if (child < 0) return sweep;
  const Real turn = placement.rotation.angle();
  return {inverse_transform_point(placement, sweep.local_center), sweep.center_start, sweep.center_end, sweep.angle_start + turn,
          sweep.angle_end + turn};
}

/// A box holding a part throughout a sweep: its boxes at both ends, widened by how far rotation
/// can carry a point off the straight path (reach x turn, at most twice the reach).
template <class Part>
Aabb swept_box(const Part& part, const Sweep& sweep) {
  const Aabb start = compute_aabb(part, sweep.at(0)), end = compute_aabb(part, sweep.at(1));
  const Real reach = detail::reach_about(part, sweep.local_center);
  const Aabb swept = start.merged(end).expanded(reach * std::min(std::abs(sweep.angle_end - sweep.angle_start), Real(2)));
  return swept.expanded(culling_margin(box_magnitude(swept) + own_frame_magnitude(part)));
}

}  // namespace

std::optional<CastHit> time_of_impact(const Shape& a, const Sweep& sweep_a, const Shape& b, const Sweep& sweep_b, const CastOptions& options) {
  if (answer_swapped(a, sweep_a.center_start, b, sweep_b.center_start)) {  // the normal mirrored back (the point is the same)
    std::optional<CastHit> mirrored = time_of_impact(b, sweep_b, a, sweep_a, options);
    if (mirrored) mirrored->normal = -mirrored->normal;
    return mirrored;
  }
  std::optional<CastHit> earliest;
  // Parts are enumerated in the body frame (identity transform) to get each child's placement.
  for_each_part(a, Transform{}, nullptr, [&](const auto& part_a, const Transform& placement_a, int child_a) {
    const Sweep part_sweep_a = child_sweep(sweep_a, placement_a, child_a);
    const Aabb box_a = swept_box(part_a, part_sweep_a);
    for_each_part(b, Transform{}, nullptr, [&](const auto& part_b, const Transform& placement_b, int child_b) {
      const Sweep part_sweep_b = child_sweep(sweep_b, placement_b, child_b);
      if (!box_a.overlaps(swept_box(part_b, part_sweep_b))) return true;
      const std::optional<CastHit> hit = time_of_impact(part_a, part_sweep_a, part_b, part_sweep_b, options);
      if (hit && (!earliest || hit->time < earliest->time)) earliest = hit;
      return true;
    });
    return true;
  });
  return earliest;
}

std::optional<RayHit> raycast(const Compound& shape, const Transform& transform, const Ray& ray) {
  const Vec2 origin = inverse_transform_point(transform, ray.origin);
  const Vec2 translation = inverse_rotate(transform.rotation, ray.translation);
  const Real tolerance = contact_tolerance(std::max(coordinate_magnitude(origin), coordinate_magnitude(origin + ray.max_fraction * translation)));
  // A ray starting inside the compound is inside, even next to a seam, where each child alone
  // may see it on its surface (and one may report a hit far along, deep inside the outline).
  bool in_a_child_box = false;
  detail::for_each_child_where(
      shape, [&](const Aabb& box) { return box.contains(origin); },
      [&](int) {
        in_a_child_box = true;
        return false;
      });
  if (in_a_child_box && closest_point(shape, transform, ray.origin).signed_distance < -tolerance) return RayHit{0, ray.origin, {}, true};
  std::optional<RayHit> first;
  // A child's box widened by the band of the ray's coordinates and by the culling margin of its
  // own (a child's ray band counts its reach: a ray grazing a bar 2e6 long, float, within its
  // band of 1.9 was culled with the ray's band of 1e-5).
  const Real child_frames = 2 * shape.child_frame_reach();
  detail::for_each_child_where(
      shape,
      [&](const Aabb& box) {
        return segment_meets_box(origin, translation, first ? first->fraction : ray.max_fraction,
                                 box.expanded(tolerance + culling_margin(box_magnitude(box) + child_frames)));
      },
      [&](int child) {
        const CompoundChild& part = shape.children()[child];
        const Transform placed = compose(transform, part.transform);
        const std::optional<RayHit> hit = std::visit([&](const auto& convex) { return raycast(convex, placed, ray); }, part.shape);
        if (hit && (!first || hit->fraction < first->fraction || (hit->fraction == first->fraction && hit->inside))) first = hit;
        return !(first && first->inside);
      });
  return first;
}

PointProjection closest_point(const Compound& shape, const Transform& transform, Vec2 point) {
  const Vec2 local = inverse_transform_point(transform, point);
  // The probes step off a surface point by a few touching bands of its own coordinates and the
  // compound's: a child's distance carries the round-off of the child's vertices (a point on a
  // cut whose ends are 3.4e7 out lay 0.06 outside both pieces in float).
  auto tolerance_at = [&](Vec2 surface) { return 4 * contact_tolerance(coordinate_magnitude(surface) + shape.reach()); };
  // How far the probes around a corner step off it; a face point within it of a vertex is judged
  // as a corner.
  auto probe_reach_at = [&](Vec2 surface) { return 2 * tolerance_at(surface); };
  const auto children = shape.children();
  auto project = [&](int child, Vec2 query) { return detail::closest_point_on_child(children[child], query); };
  // Nearest child surface. In or on any child, the answer is the nearest point of the outline
  // instead (for a point on the outline itself that is about 0 away).
  PointProjection nearest;
  nearest.signed_distance = std::numeric_limits<Real>::max();
  int nearest_child = -1;
  for (int child = 0; child < static_cast<int>(children.size()); ++child) {
    if (box_gap(shape.child_boxes()[child], {local, local}) > nearest.signed_distance) continue;
    const PointProjection projection = project(child, local);
    if (projection.signed_distance < nearest.signed_distance) {
      nearest = projection;
      nearest_child = child;
    }
  }
  // Is a child's surface point covered by another child (a probe a little onward lies well inside
  // another child)? Then it is a seam, not the outline.
  auto covered = [&](Vec2 surface, Vec2 outward, Vec2 face_from, Vec2 face_to, int owner) {
    return detail::covered_by_another_child(shape, surface, outward, face_from, face_to, owner, probe_reach_at(surface), tolerance_at(surface));
  };
  // A point outside every child by less than the band, beside a covered surface, lies in the
  // crack round-off leaves along a seam: it is inside. The surface is judged over the face it lies
  // on, as the seam flags judge it (over the neighbour's whole facing face, a crack 8.6 wide at a
  // point 8.7e5 along seams 2.8e7 long, float, diverged by 465 at the neighbour's far end, and a
  // point in it was outside while penetration() held it inside, along the seam).
  auto in_a_crack = [&] {
    if (!(nearest.signed_distance > 0 && nearest.signed_distance <= tolerance_at(nearest.point))) return false;
    // The face the point lies on: of those facing the projection's way, the nearest (a nearly
    // flat vertex leaves two faces with nearly one normal, and one of them may be a seam).
    Vec2 face_from = nearest.point, face_to = nearest.point;  // a corner or a rounded surface: the point alone
    const CompoundChild& owner = children[nearest_child];
    if (const Polygon* polygon = std::get_if<Polygon>(&owner.shape)) {
      Real nearest_face_distance = std::numeric_limits<Real>::max();
      for (int face = 0; face < polygon->count(); ++face) {
        const Vec2 outward = rotate(owner.transform.rotation, polygon->normals()[face]);
        if (dot(outward, nearest.normal) < 1 - direction_tolerance) continue;
        const Vec2 offset = polygon->radius() * outward;  // the surface's face: the core's moved out by the radius
        const Vec2 from = transform_point(owner.transform, polygon->vertices()[face]) + offset;
        const Vec2 to = transform_point(owner.transform, polygon->vertices()[(face + 1) % polygon->count()]) + offset;
        const Real face_distance = distance_to_segment(nearest.point, from, to);
        if (face_distance < nearest_face_distance) {
          nearest_face_distance = face_distance;
          face_from = from;
          face_to = to;
        }
      }
    }
    return covered(nearest.point, nearest.normal, face_from, face_to, nearest_child);
  }();
  if (nearest.signed_distance <= 0 || in_a_crack) {
    // The nearest point of the outline: the faces of polygon children, and the surfaces of other
    // children, where no other child covers them. A face flagged a seam counts too where the
    // covering test finds it uncovered: the flag judges the whole face within a few bands
    // (make_compound), and a crack that much wide along part of it is open there, as the test
    // above finds for a point in it (a crack 73 wide, 4 of the point query's bands, 2.5e6 along a
    // side 3.5e6 long flagged a seam, float: a point just outside that side was 4.9 outside, one
    // just inside it 73 deep, across the crack, and penetration() held a point in the crack
    // 803,207 deep along the seam).
    nearest.signed_distance = -std::numeric_limits<Real>::max();
    // A corner is on the outline when some point close around it is outside every child: probes
    // at 32 angles, and along the bisector between each two neighbouring directions of the pieces'
    // edges leaving the corner (a notch narrower than the 32 probes' spacing, 11 degrees, opens
    // between two of them), both close to the corner and, for a notch narrower than that, where
    // it is one tolerance wide; a notch narrower than that along the whole of its shorter side is
    // a crack round-off left along a seam, not outline (as covered_by_another_child judges it).
    auto corner_on_outline = [&](Vec2 corner) {
      const Real tolerance = tolerance_at(corner), probe_reach = probe_reach_at(corner);
      auto outside_every_child = [&](Vec2 direction, Real reach) {
        const Vec2 probe = corner + reach * direction;
        bool outside = true;
        detail::for_each_child_overlapping(shape, Aabb{probe, probe}, [&](int other) {
          outside = project(other, probe).signed_distance > 0;
          return outside;
        });
        return outside;
      };
      constexpr int probes = 32;
      for (int k = 0; k < probes; ++k) {
        const Real angle = Real(2 * 3.14159265358979323846) * Real(k) / Real(probes);
        if (outside_every_child({std::cos(angle), std::sin(angle)}, probe_reach)) return true;
      }
      struct Leaving {
        Vec2 direction;  // unit
        Real length;
      };
      // The edges leaving polygon vertices within the probes' reach of the corner: a face point that
      // close to a vertex is judged as a corner, and the notch it may sit in opens from the vertex.
      std::vector<Leaving> leaving;
      detail::for_each_child_overlapping(shape, Aabb{corner, corner}.expanded(probe_reach), [&](int other) {
        const Polygon* polygon = std::get_if<Polygon>(&children[other].shape);
        if (polygon == nullptr) return true;
        const Transform& placement = children[other].transform;
        const int count = polygon->count();
        for (int i = 0; i < count; ++i) {
          const Vec2 vertex = transform_point(placement, polygon->vertices()[i]);
          if (length(vertex - corner) > probe_reach) continue;
          for (const int neighbour : {(i + 1) % count, (i + count - 1) % count}) {
            const Vec2 edge = transform_point(placement, polygon->vertices()[neighbour]) - vertex;
            leaving.push_back({normalize(edge), length(edge)});
          }
        }
        return true;
      });
      std::sort(leaving.begin(), leaving.end(),
                [](const Leaving& a, const Leaving& b) { return std::atan2(a.direction.y, a.direction.x) < std::atan2(b.direction.y, b.direction.x); });
      for (std::size_t k = 0; k < leaving.size(); ++k) {
        const Leaving& first = leaving[k];
        const Leaving& second = leaving[(k + 1) % leaving.size()];
        const Vec2 between = first.direction + second.direction;  // the bisector (turning counter-clockwise from first to second)
        if (!(length_squared(between) > 0 && cross(first.direction, second.direction) > 0)) continue;
        const Vec2 bisector = normalize(between);
        if (outside_every_child(bisector, probe_reach)) return true;
        // |first - second| is twice the sine of half the notch's angle: at `reach` along the
        // bisector, the notch is one tolerance wide (the margin of the covering test's probe).
        const Real reach = tolerance / length(first.direction - second.direction);
        if (reach <= std::min(first.length, second.length) && outside_every_child(bisector, reach)) return true;
      }
      return false;
    };
    // A face point is on the outline unless a probe out along the face normal is in another child;
    // taken when it is on the outline and nearer than the best so far.
    // [face_from, face_to] is the face through the point (both the point for a rounded surface,
    // whose covering neighbour is then judged over its facing face's whole length).
    auto consider = [&](Vec2 surface, Vec2 outward, Vec2 face_from, Vec2 face_to, int owner, bool at_corner) {
      const Real depth = -length(surface - local);
      if (depth <= nearest.signed_distance) return;
      if (!(at_corner ? corner_on_outline(surface) : !covered(surface, outward, face_from, face_to, owner))) return;
      nearest = {surface, depth, at_corner && depth < 0 ? normalize(surface - local) : outward};
    };
    for (int child = 0; child < static_cast<int>(children.size()); ++child) {
      const Polygon* polygon = std::get_if<Polygon>(&children[child].shape);
      if (polygon == nullptr || polygon->radius() > 0) {
        const PointProjection projection = project(child, local);
        consider(projection.point, projection.normal, projection.point, projection.point, child, false);
        continue;
      }
      const Transform& placement = children[child].transform;
      for (int face = 0; face < polygon->count(); ++face) {
        const Vec2 v1 = transform_point(placement, polygon->vertices()[face]);
        const Vec2 v2 = transform_point(placement, polygon->vertices()[(face + 1) % polygon->count()]);
        const Real along = closest_parameter_on_segment(v1, v2, local);
        const Vec2 surface = lerp(v1, v2, along);
        // A face point within the probes' reach of a corner is judged as the corner, the point on
        // it too: a piece's corner on another piece's face (where a cut ends on it) is on the
        // outline though a probe off either face there lies in the other piece.
        const Real corner_reach = probe_reach_at(surface);
        const bool at_corner = along <= 0 || along >= 1 || length(surface - v1) <= corner_reach || length(surface - v2) <= corner_reach;
        // A seam's end is judged as a corner through the outline faces meeting there (a point on
        // the seam beside it is not on the outline).
        if (at_corner && shape.is_internal_edge(child, face)) continue;
        const Vec2 outward = rotate(placement.rotation, polygon->normals()[face]);
        consider(surface, outward, v1, v2, child, at_corner);
      }
    }
    if (nearest.signed_distance == -std::numeric_limits<Real>::max()) nearest = {local, 0, {1, 0}};  // no uncovered outline found
  }
  return {transform_point(transform, nearest.point), nearest.signed_distance, rotate(transform.rotation, nearest.normal)};
}

}  // namespace collide2d
