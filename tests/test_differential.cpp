// test_differential.cpp — the algorithms checked against each other and against a brute-force
// oracle on many random pairs.
//
// The oracle works in long double on the world coordinates of the cores (every Real input
// converted exactly, the transform applied in long double):
//   - core distance: 0 when an edge of one core crosses an edge of the other or a vertex of one
//     lies inside the other; else the least vertex-to-edge distance (the distance of two disjoint
//     convex sets is attained between a vertex and an edge);
//   - core depth, when the cores overlap: the least overlap along the edge normals of both
//     cores (±perpendicular for a segment), which are the edge normals of the Minkowski
//     difference, so the least of them is the penetration depth;
//   - signed distance of the rounded shapes: core distance - radii, or -(core depth + radii).
//
// Tolerance band. Every answer is compared outside (or, for values, within) the band
//     band = K * real_epsilon * (size_a + size_b + |position_a| + |position_b|)
// where size is size_scale() (reach from the local origin, radius included). The library's own
// touching band is 16 eps times the magnitudes it works with (tolerance.hpp), which this scale
// bounds, so a pair within 16 eps * scale of touching may be called either way; K = 64 leaves
// room for the round-off of the two independent methods compared. K = 64 holds for every check below, in float and in
// double. The worst errors seen (float, these seeds) are about 46 eps * scale (classification by
// collide() and minkowski_difference, EPA depth against the oracle); double stays below 2.
// Each run prints the worst error of every check in units of eps * scale, so the margin stays
// visible. Pairs moved to touching +- 2 band test both edges of the band directly.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "point2.hpp"
#include "random_shapes.hpp"
#include "world_core.hpp"

namespace {

using namespace collide2d;
using random_shapes::Body;
using random_shapes::Check;
using random_shapes::Pair;

using random_shapes::K;
using random_shapes::manifold_K;

using LD = long double;
using P = test_points::Point2<LD>;

using Core = test_points::WorldCore<LD>;
using test_points::world_core;

struct Edge {
  P start, end;
};
std::vector<Edge> edges_of(const Core& core) {
  const std::size_t n = core.vertices.size();
  if (n == 1) return {{core.vertices[0], core.vertices[0]}};
  if (n == 2) return {{core.vertices[0], core.vertices[1]}};
  std::vector<Edge> edges;
  for (std::size_t i = 0; i < n; ++i) edges.push_back({core.vertices[i], core.vertices[(i + 1) % n]});
  return edges;
}

LD point_segment_distance(P p, const Edge& e) {
  const P along = e.end - e.start;
  const LD len2 = dot(along, along);
  LD t = len2 > 0 ? dot(p - e.start, along) / len2 : 0;
  t = std::clamp(t, LD(0), LD(1));
  return norm(p - P{e.start.x + t * along.x, e.start.y + t * along.y});
}

int sign_of(LD v) { return (v > 0) - (v < 0); }
bool within_box(P a, P b, P p) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y && p.y <= std::max(a.y, b.y);
}
bool segments_intersect(const Edge& e, const Edge& f) {
  const int d1 = sign_of(cross(f.end - f.start, e.start - f.start)), d2 = sign_of(cross(f.end - f.start, e.end - f.start));
  const int d3 = sign_of(cross(e.end - e.start, f.start - e.start)), d4 = sign_of(cross(e.end - e.start, f.end - e.start));
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  if (d1 == 0 && within_box(f.start, f.end, e.start)) return true;
  if (d2 == 0 && within_box(f.start, f.end, e.end)) return true;
  if (d3 == 0 && within_box(e.start, e.end, f.start)) return true;
  if (d4 == 0 && within_box(e.start, e.end, f.end)) return true;
  return false;
}
bool polygon_contains(const Core& core, P p) {
  const std::size_t n = core.vertices.size();
  if (n < 3) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (cross(core.vertices[(i + 1) % n] - core.vertices[i], p - core.vertices[i]) < 0) return false;
  }
  return true;
}

LD core_distance(const Core& a, const Core& b) {
  if (polygon_contains(a, b.vertices[0]) || polygon_contains(b, a.vertices[0])) return 0;
  const std::vector<Edge> edges_a = edges_of(a), edges_b = edges_of(b);
  for (const Edge& e : edges_a) {
    for (const Edge& f : edges_b) {
      if (segments_intersect(e, f)) return 0;
    }
  }
  LD best = std::numeric_limits<LD>::max();
  for (const P& p : a.vertices) {
    for (const Edge& f : edges_b) best = std::min(best, point_segment_distance(p, f));
  }
  for (const P& p : b.vertices) {
    for (const Edge& e : edges_a) best = std::min(best, point_segment_distance(p, e));
  }
  return best;
}

/// Unit directions across every edge of a core, both ways.
void add_axes(const Core& core, std::vector<P>& axes) {
  if (core.vertices.size() < 2) return;
  for (const Edge& e : edges_of(core)) {
    const P along = e.end - e.start;
    const LD len = norm(along);
    if (len == 0) continue;
    axes.push_back({along.y / len, -along.x / len});
    axes.push_back({-along.y / len, along.x / len});
  }
}

/// Penetration depth of overlapping cores: the least translation of B along any edge normal of
/// the Minkowski difference that separates them. Directions that are not such normals only give
/// upper bounds, so both orientations of every edge normal are tried.
LD core_depth(const Core& a, const Core& b) {
  std::vector<P> axes;
  add_axes(a, axes);
  add_axes(b, axes);
  LD best = axes.empty() ? LD(0) : std::numeric_limits<LD>::max();
  for (const P& n : axes) {
    LD max_a = -std::numeric_limits<LD>::max(), min_b = std::numeric_limits<LD>::max();
    for (const P& p : a.vertices) max_a = std::max(max_a, dot(p, n));
    for (const P& p : b.vertices) min_b = std::min(min_b, dot(p, n));
    best = std::min(best, max_a - min_b);
  }
  return std::max(best, LD(0));
}

/// Signed distance between the rounded shapes: > 0 apart, < 0 overlapping by -value.
double oracle_signed_distance(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb) {
  const Core core_a = world_core<LD>(a, ta), core_b = world_core<LD>(b, tb);
  const LD radii = core_a.radius + core_b.radius;
  const LD d = core_distance(core_a, core_b);
  if (d > 0) return static_cast<double>(d - radii);
  return static_cast<double>(-(core_depth(core_a, core_b) + radii));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string pair_text(int index, const Pair& pair, double sd, double band) {
  char head[160];
  std::snprintf(head, sizeof head, "pair %d: oracle signed distance %.9g, band %.3g\n  A ", index, sd, band);
  return head + random_shapes::describe(pair.a) + "\n  B " + random_shapes::describe(pair.b);
}

void report(const std::vector<Check*>& checks) {
  for (const Check* check : checks) {
    check->print();
    for (const std::string& message : check->messages()) ADD_FAILURE() << check->name() << " failed on " << message;
    EXPECT_EQ(check->failures(), 0) << check->name();
  }
}

/// The checks common to every pair: classification outside the band, values against the oracle
/// within the band, and pushing B out by depth * normal.
struct QueryChecks {
  Check overlap_class{"overlap() vs oracle outside band", K};
  Check penetration_class{"penetration() present <=> overlapping", K};
  Check distance_class{"distance().overlapping <=> overlapping", K};
  Check queries_agree{"penetration(), distance() agree exactly", K};
  Check distance_value{"distance() vs oracle", K};
  Check depth_value{"penetration() depth vs oracle", K};
  Check witness{"distance() witness points |pb-pa| = d", K};
  Check push_oracle{"B moved by depth*normal: oracle |sd|", K};
  Check push_distance{"B moved by depth*normal: distance()", K};
  Check push_depth{"B moved by depth*normal: no deeper", K};
  Check near_overlap{"touching +- 2 band: overlap()", K};
  Check near_penetration{"touching +- 2 band: penetration()", K};
  Check near_distance{"touching +- 2 band: distance()", K};
  Check near_collide{"touching +- 2 band: collide()", K};
  Check manifold_class{"collide() non-empty <=> overlapping", K};
  Check manifold_depth{"collide() separations >= -depth - hysteresis", manifold_K};
  Check manifold_touch{"collide() deepest separation <= band", K};

  std::vector<Check*> all() {
    return {&overlap_class, &penetration_class, &distance_class, &queries_agree, &distance_value,
            &depth_value,   &witness,           &push_oracle,    &push_distance, &push_depth,
            &near_overlap, &near_penetration, &near_distance, &near_collide,
            &manifold_class, &manifold_depth, &manifold_touch};
  }

  /// Runs overlap(), penetration() and distance() on the pair and checks them; returns the penetration.
  std::optional<Penetration> run(int index, const Pair& pair, double sd) {
    const Shape &a = pair.a.shape, &b = pair.b.shape;
    const Transform &ta = pair.a.transform, &tb = pair.b.transform;
    const double scale = random_shapes::pair_scale(pair);
    const double band = K * static_cast<double>(real_epsilon) * scale;
    auto context = [&] { return pair_text(index, pair, sd, band); };
    const bool overlapping = sd < 0;
    const bool decisive = std::abs(sd) > band;

    const bool lib_overlap = overlap(a, ta, b, tb);
    const std::optional<Penetration> pen = penetration(a, ta, b, tb);
    const DistanceResult dist = distance(a, ta, b, tb);

    // Classification: wrong answers are errors of |sd|, so the worst ratio shows the K needed.
    overlap_class.record(lib_overlap == overlapping ? 0 : std::abs(sd), scale, context);
    penetration_class.record(pen.has_value() == overlapping ? 0 : std::abs(sd), scale, context);
    distance_class.record(dist.overlapping == overlapping ? 0 : std::abs(sd), scale, context);
    queries_agree.require(pen.has_value() == dist.overlapping && (!decisive || lib_overlap == dist.overlapping), context);

    // Values, everywhere (a misclassification inside the band is a small value error).
    distance_value.record(std::abs(static_cast<double>(dist.distance) - std::max(sd, 0.0)), scale, context);
    if (pen) depth_value.record(std::abs(static_cast<double>(pen->depth) - std::max(-sd, 0.0)), scale, context);
    if (!dist.overlapping) {
      witness.record(std::abs(static_cast<double>(collide2d::distance(dist.point_a, dist.point_b)) - static_cast<double>(dist.distance)),
                     scale, context);
      witness.require(std::abs(static_cast<double>(length(dist.normal)) - 1) < 1e-3, context);
    }

    // Push out: B moved by depth * normal touches A, within the band.
    if (pen) {
      depth_value.require(std::abs(static_cast<double>(length(pen->normal)) - 1) < 1e-3, context);
      const Transform moved{tb.position + pen->depth * pen->normal, tb.rotation};
      const double moved_scale = random_shapes::pair_scale(pair.a, ta, pair.b, moved);
      const double sd_moved = oracle_signed_distance(a, ta, b, moved);
      auto moved_context = [&] {
        char text[160];
        std::snprintf(text, sizeof text, "depth %.9g normal (%.9g, %.9g), after the move oracle sd %.9g; ", static_cast<double>(pen->depth),
                      static_cast<double>(pen->normal.x), static_cast<double>(pen->normal.y), sd_moved);
        return text + context();
      };
      push_oracle.record(std::abs(sd_moved), moved_scale, moved_context);
      push_distance.record(static_cast<double>(distance(a, ta, b, moved).distance), moved_scale, moved_context);
      const std::optional<Penetration> again = penetration(a, ta, b, moved);
      push_depth.record(again ? static_cast<double>(again->depth) : 0.0, moved_scale, moved_context);

      // Just beyond the band on either side of touching: B moved by (depth +- 2 band) * normal.
      // Random placements rarely land this close (never in double), so these pairs test the band's edges.
      for (const double offset : {2 * band, -2 * band}) {
        const Transform near{tb.position + static_cast<Real>(static_cast<double>(pen->depth) + offset) * pen->normal, tb.rotation};
        const double near_scale = random_shapes::pair_scale(pair.a, ta, pair.b, near);
        const double sd_near = oracle_signed_distance(a, ta, b, near);
        auto near_context = [&] {
          char text[160];
          std::snprintf(text, sizeof text, "B moved by depth %+.3g band along (%.9g, %.9g), oracle sd %.9g; ", offset / band,
                        static_cast<double>(pen->normal.x), static_cast<double>(pen->normal.y), sd_near);
          return text + context();
        };
        const bool near_overlapping = sd_near < 0;
        near_overlap.record(overlap(a, ta, b, near) == near_overlapping ? 0 : std::abs(sd_near), near_scale, near_context);
        near_penetration.record(penetration(a, ta, b, near).has_value() == near_overlapping ? 0 : std::abs(sd_near), near_scale, near_context);
        near_distance.record(distance(a, ta, b, near).overlapping == near_overlapping ? 0 : std::abs(sd_near), near_scale, near_context);
        near_collide.record((random_shapes::collide_convex(a, ta, b, near).point_count > 0) == near_overlapping ? 0 : std::abs(sd_near), near_scale, near_context);
      }
    }
    // collide(): a manifold exactly when overlapping; no point deeper than the depth (up to the
    // reference-face hysteresis); the deepest point touches or overlaps.
    const Manifold manifold = random_shapes::collide_convex(a, ta, b, tb);
    manifold_class.record((manifold.point_count > 0) == overlapping ? 0 : std::abs(sd), scale, context);
    if (manifold.point_count > 0) {
      double deepest = std::numeric_limits<double>::max();
      for (int i = 0; i < manifold.point_count; ++i) {
        const double separation = static_cast<double>(manifold.points[i].separation);
        manifold_depth.record(std::max(-std::max(-sd, 0.0) - separation, 0.0), scale, context);
        deepest = std::min(deepest, separation);
      }
      manifold_touch.record(std::max(deepest, 0.0), scale, context);
      manifold_depth.require(std::abs(static_cast<double>(length(manifold.normal)) - 1) < 1e-3, context);
    }
    return pen;
  }
};

TEST(Differential, RandomPolygonPairs) {
  constexpr int pair_count = 100000;
  const auto start = std::chrono::steady_clock::now();
  random_shapes::Generator generator(0x5eed'd1ff'0001ULL);
  QueryChecks queries;
  Check sat_class{"sat() separation > 0 <=> apart", K};
  Check sat_value{"sat() separation vs oracle", K};
  Check epa_vs_sat{"penetration() depth vs -sat() separation", K};
  Check minkowski_class{"minkowski_difference() contains_origin", K};
  Check minkowski_value{"minkowski_difference() signed_distance", K};
  int overlapping = 0, apart = 0, in_band = 0, large = 0, rectangles = 0;

  for (int index = 0; index < pair_count; ++index) {
    const Pair pair = generator.polygon_pair();
    const Polygon &a = random_shapes::as_polygon(pair.a.shape), &b = random_shapes::as_polygon(pair.b.shape);
    const Transform &ta = pair.a.transform, &tb = pair.b.transform;
    const double sd = oracle_signed_distance(pair.a.shape, ta, pair.b.shape, tb);
    const double scale = random_shapes::pair_scale(pair);
    const double band = K * static_cast<double>(real_epsilon) * scale;
    auto context = [&] { return pair_text(index, pair, sd, band); };
    if (sd > band) ++apart;
    else if (sd < -band) ++overlapping;
    else ++in_band;
    large += (a.count() >= 40) + (b.count() >= 40);
    rectangles += a.is_rectangle() + b.is_rectangle();

    const std::optional<Penetration> pen = queries.run(index, pair, sd);

    const Transform b_to_a = inverse_compose(ta, tb);
    const SatAxis axis = sat(a, b, b_to_a);
    const double separation = static_cast<double>(axis.separation);
    sat_class.record((separation > 0) == (sd > 0) ? 0 : std::abs(sd), scale, context);
    // SAT's best edge normal is a lower bound of the distance when apart and exactly -depth when overlapping.
    sat_value.record(sd <= 0 ? std::abs(separation - sd) : std::max(separation - sd, 0.0), scale, context);
    if (pen && sd < -band) epa_vs_sat.record(std::abs(static_cast<double>(pen->depth) + separation), scale, context);

    const MinkowskiDifference difference = minkowski_difference(random_shapes::as_convex(pair.a.shape), random_shapes::as_convex(pair.b.shape), b_to_a);
    minkowski_class.record(difference.contains_origin == (sd <= 0) ? 0 : std::abs(sd), scale, context);
    minkowski_value.record(std::abs(static_cast<double>(difference.signed_distance) - sd), scale, context);
  }

  std::vector<Check*> checks = queries.all();
  for (Check* check : {&sat_class, &sat_value, &epa_vs_sat, &minkowski_class, &minkowski_value}) checks.push_back(check);
  std::printf("checked %d polygon pairs (%d overlapping, %d apart, %d within the band; %d polygons of 40+ vertices, %d rectangles) in %.2f s\n",
              pair_count, overlapping, apart, in_band, large, rectangles, seconds_since(start));
  report(checks);
}

TEST(Differential, RandomMixedPairs) {
  constexpr int pair_count = 30000;
  const auto start = std::chrono::steady_clock::now();
  random_shapes::Generator generator(0x5eed'd1ff'0002ULL);
  QueryChecks queries;
  Check minkowski_value{"minkowski_difference() signed_distance", K};
  int overlapping = 0, apart = 0, in_band = 0;

  for (int index = 0; index < pair_count; ++index) {
    const Pair pair = generator.mixed_pair();
    const Transform &ta = pair.a.transform, &tb = pair.b.transform;
    const double sd = oracle_signed_distance(pair.a.shape, ta, pair.b.shape, tb);
    const double scale = random_shapes::pair_scale(pair);
    const double band = K * static_cast<double>(real_epsilon) * scale;
    auto context = [&] { return pair_text(index, pair, sd, band); };
    if (sd > band) ++apart;
    else if (sd < -band) ++overlapping;
    else ++in_band;

    queries.run(index, pair, sd);

    const MinkowskiDifference difference = minkowski_difference(random_shapes::as_convex(pair.a.shape), random_shapes::as_convex(pair.b.shape), inverse_compose(ta, tb));
    minkowski_value.record(std::abs(static_cast<double>(difference.signed_distance) - sd), scale, context);
  }

  std::vector<Check*> checks = queries.all();
  checks.push_back(&minkowski_value);
  std::printf("checked %d mixed pairs (%d overlapping, %d apart, %d within the band) in %.2f s\n", pair_count, overlapping, apart,
              in_band, seconds_since(start));
  report(checks);
}

}  // namespace
