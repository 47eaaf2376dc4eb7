// fuzz_pair_queries.cpp — every pair query, ray cast and shape cast on arbitrary valid shapes and
// poses, checking the answers' invariants rather than only looking for crashes:
// - penetration: depth >= 0, unit normal, point_a - point_b = depth x normal;
// - distance: >= 0, unit normal when apart, point_b - point_a = distance x normal;
// - overlap, penetration, distance and collide agree, except within the touching band;
// - swapping A and B (convex pairs) mirrors depth and distance, and the normal when apart; with a
//   compound and a convex shape, it mirrors overlap, penetration and distance exactly;
// - a ray's hit lies on the surface it reports, at a fraction within the ray;
// - a shape cast stops at a time in [0, 1] without overlap; with no hit, B never sinks into A on
//   the way (checked at five times along the motion).
// Bands: a fixed number of touching bands (tolerance.hpp) of the pair's reach, positions included.
#include <cmath>
#include <vector>

#include "collide2d/collide2d.hpp"
#include "fuzz_check.hpp"
#include "fuzz_input.hpp"

namespace {

using namespace collide2d;

bool near(Vec2 a, Vec2 b, Real band) { return std::abs(a.x - b.x) <= band && std::abs(a.y - b.y) <= band; }
bool unit(Vec2 v) { return std::abs(length(v) - 1) <= 8 * direction_tolerance; }

/// Signed gap: distance when apart, -depth when overlapping.
Real signed_gap(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb) {
  if (const std::optional<Penetration> depth = penetration(a, ta, b, tb)) return -depth->depth;
  return distance(a, ta, b, tb).distance;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  const std::optional<Shape> a = fuzz::shape(input), b = fuzz::shape(input);
  if (!a || !b) return 0;
  const Real unit_a = fuzz::scale(input), unit_b = fuzz::scale(input);
  const Transform ta = fuzz::pose(input, unit_a), tb = fuzz::pose(input, unit_b);
  const Real reach = fuzz::reach(*a, ta) + fuzz::reach(*b, tb);
  const Real band = 64 * contact_tolerance(reach);
  const bool convex = !std::holds_alternative<Compound>(*a) && !std::holds_alternative<Compound>(*b);

  const bool overlapping = overlap(*a, ta, *b, tb);
  const std::optional<Penetration> depth = penetration(*a, ta, *b, tb);
  const DistanceResult gap = distance(*a, ta, *b, tb);
  std::vector<ChildManifold> manifolds;
  contact_manifolds(*a, ta, *b, tb, manifolds);
  if (depth) {
    fuzz::check(depth->depth >= 0, "depth >= 0");
    fuzz::check(unit(depth->normal), "the penetration normal is unit");
    fuzz::check(near(depth->point_a - depth->point_b, depth->depth * depth->normal, band), "point_a - point_b = depth x normal");
  }
  fuzz::check(gap.distance >= 0 && std::isfinite(gap.distance), "distance >= 0 and finite");
  if (!gap.overlapping) {
    fuzz::check(unit(gap.normal), "the distance normal is unit");
    fuzz::check(near(gap.point_b - gap.point_a, gap.distance * gap.normal, band), "point_b - point_a = distance x normal");
  }
  const bool decided = depth ? depth->depth > band : gap.distance > band;
  if (decided) {
    fuzz::check(overlapping == depth.has_value(), "overlap and penetration agree");
    fuzz::check(overlapping == gap.overlapping, "overlap and distance agree");
    fuzz::check(overlapping == !manifolds.empty(), "overlap and collide agree");
  }
  for (const ChildManifold& child : manifolds) {
    fuzz::check(unit(child.manifold.normal), "a manifold normal is unit");
    fuzz::check(child.manifold.point_count >= 1 && child.manifold.point_count <= 2, "a manifold has 1 or 2 points");
  }

  if (convex) {
    const std::optional<Penetration> swapped_depth = penetration(*b, tb, *a, ta);
    const DistanceResult swapped_gap = distance(*b, tb, *a, ta);
    if (decided) fuzz::check(swapped_depth.has_value() == depth.has_value(), "swapping A and B keeps the verdict");
    if (depth && swapped_depth) fuzz::check(std::abs(depth->depth - swapped_depth->depth) <= band, "swapping A and B keeps the depth");
    fuzz::check(std::abs(gap.distance - swapped_gap.distance) <= band, "swapping A and B keeps the distance");
    if (gap.distance > band && !swapped_gap.overlapping) {
      // A pair of points whose distance is within the band of the least one is at most
      // sqrt(2 band / distance) off the true normal (projected on it, it spans the least distance),
      // so two such answers differ by twice that; add the round-off of the points over the distance.
      const Real spread = 2 * std::sqrt(2 * band / gap.distance) + 4 * band / gap.distance;
      fuzz::check(near(gap.normal, -swapped_gap.normal, Real(1e-3) + spread), "swapping A and B flips the distance normal");
    }
  }

  // A compound and a convex shape are judged with the compound first in either order, so swapping
  // them mirrors every answer exactly (docs/conventions.md).
  if (std::holds_alternative<Compound>(*a) != std::holds_alternative<Compound>(*b)) {
    fuzz::check(overlap(*b, tb, *a, ta) == overlapping, "swapping a compound and a convex shape keeps overlap() exactly");
    const std::optional<Penetration> swapped_depth = penetration(*b, tb, *a, ta);
    fuzz::check(swapped_depth.has_value() == depth.has_value() &&
                    (!depth || (swapped_depth->depth == depth->depth && swapped_depth->normal == -depth->normal && swapped_depth->point_a == depth->point_b)),
                "swapping a compound and a convex shape mirrors penetration() exactly");
    const DistanceResult swapped_gap = distance(*b, tb, *a, ta);
    fuzz::check(swapped_gap.distance == gap.distance && swapped_gap.overlapping == gap.overlapping && swapped_gap.point_a == gap.point_b,
                "swapping a compound and a convex shape mirrors distance() exactly");
  }

  // A ray from a point on A's grid along a vector on B's.
  const Ray ray{fuzz::point(input, unit_a), fuzz::point(input, unit_b), Real(input.ConsumeIntegralInRange<int>(0, 4)) / 2};
  if (const std::optional<RayHit> hit = raycast(*b, tb, ray)) {
    fuzz::check(hit->fraction >= 0 && hit->fraction <= ray.max_fraction, "a ray hits within its fraction");
    if (!hit->inside) {
      const Real ray_band = band + 64 * contact_tolerance(coordinate_magnitude(ray.origin) + coordinate_magnitude(ray.translation));
      fuzz::check(std::abs(closest_point(*b, tb, hit->point).signed_distance) <= ray_band, "a ray hit lies on the surface");
    }
  }

  // B moves by a vector on its grid.
  if (convex) {
    const Vec2 motion = fuzz::point(input, unit_b);
    const Real motion_band = band + 64 * contact_tolerance(coordinate_magnitude(motion));
    const std::optional<CastHit> cast = shape_cast(*a, ta, *b, tb, motion);
    if (cast) {
      fuzz::check(cast->time >= 0 && cast->time <= 1, "a cast's time is in [0, 1]");
      fuzz::check(unit(cast->normal) || cast->initially_touching, "a cast's normal is unit");
      if (!cast->initially_touching) {
        const Transform at_hit{tb.position + cast->time * motion, tb.rotation};
        fuzz::check(signed_gap(*a, ta, *b, at_hit) >= -motion_band, "a cast stops without overlap");
      }
    } else {
      for (const Real time : {Real(0), Real(0.25), Real(0.5), Real(0.75), Real(1)}) {
        const Transform moved{tb.position + time * motion, tb.rotation};
        fuzz::check(signed_gap(*a, ta, *b, moved) >= -motion_band, "with no cast hit, B never sinks into A");
      }
    }
  }
  return 0;
}
