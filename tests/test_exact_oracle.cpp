// test_exact_oracle.cpp — every output of the polygon pair queries against exact rational
// arithmetic.
//
// Each polygon's vertices are transformed to world coordinates in Real (transform_point), and
// those Reals are converted exactly to GMP rationals (mpq_class). With exact arithmetic, for each
// edge of either polygon the unnormalised outward normal n = (dy, -dx) and the value
// v = min over the other polygon's vertices of n . (vertex - edge start) give the separation
// v / |n| along that edge's axis. The polygons overlap (touching included) exactly when no v is
// positive; for overlapping convex polygons the penetration depth is -max(v / |n|) and its normal
// is the best axis; for polygons apart the distance is the smallest vertex-to-edge distance,
// whose square is rational.
//
// The oracle alone decides which pairs are too close to call: those whose largest separation
// max(v / |n|) lies within the band of zero, decided exactly (v^2 <= band^2 |n|^2). The band is a
// few touching bands of the coordinates in use, the world vertices' magnitude M:
//     band = 8 * contact_tolerance(M),
// never the library's own distance or normal.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "random_shapes.hpp"

namespace {

using namespace collide2d;
using random_shapes::Pair;


struct ExactPoint {
  mpq_class x, y;
};

std::vector<ExactPoint> exact_world_vertices(const Polygon& polygon, const Transform& transform) {
  std::vector<ExactPoint> points;
  for (Vec2 v : polygon.vertices()) {
    const Vec2 world = transform_point(transform, v);  // rounded to Real, then converted exactly
    points.push_back({mpq_class(static_cast<double>(world.x)), mpq_class(static_cast<double>(world.y))});
  }
  return points;
}

/// The exact facts about one polygon pair that the checks compare against.
struct ExactPair {
  bool overlapping = false;   // exact, touching included
  bool too_close = false;     // the largest axis separation lies within the band of zero (exact)
  double depth = 0;           // overlapping: -max(v / |n|)
  double second_depth = 0;    // overlapping: the same for the best axis of the other polygon (ties)
  Vec2 normal;                // overlapping: the best axis's unit normal, pointing from A to B
  double distance = 0;        // apart: the exact distance (rounded once)
};

/// The largest axis separation over `reference`'s edges against `other`, with its axis: exact
/// numerator and squared normal length, and the unit normal in double.
struct ExactAxis {
  mpq_class value, normal_length2;
  double separation = -1e300;
  Vec2 normal;
  int edge = -1;                  // the edge of the reference polygon
  double runner_up = -1e300;      // the next best edge's separation, to tell ties apart
};

ExactAxis best_axis(const std::vector<ExactPoint>& reference, const std::vector<ExactPoint>& other) {
  ExactAxis best;
  const std::size_t n = reference.size();
  for (std::size_t i = 0; i < n; ++i) {
    const ExactPoint& p = reference[i];
    const ExactPoint& q = reference[(i + 1) % n];
    const mpq_class nx = q.y - p.y, ny = p.x - q.x;
    mpq_class lowest;
    bool first = true;
    for (const ExactPoint& o : other) {
      const mpq_class value = nx * (o.x - p.x) + ny * (o.y - p.y);
      if (first || value < lowest) lowest = value;
      first = false;
    }
    const mpq_class length2 = nx * nx + ny * ny;
    const double separation = lowest.get_d() / std::sqrt(length2.get_d());
    if (separation > best.separation) {
      const double runner_up = best.separation;
      best = {lowest, length2, separation, {}, static_cast<int>(i), runner_up};
      const double length = std::sqrt(length2.get_d());
      best.normal = {static_cast<Real>(nx.get_d() / length), static_cast<Real>(ny.get_d() / length)};
    } else {
      best.runner_up = std::max(best.runner_up, separation);
    }
  }
  return best;
}

/// |value / sqrt(length2)| <= band, decided exactly.
bool within_band(const ExactAxis& axis, double band) {
  const mpq_class exact_band(band);
  return axis.value * axis.value <= exact_band * exact_band * axis.normal_length2;
}

/// The smallest squared distance from the points of one polygon to the edges of another (exact).
mpq_class smallest_squared_distance(const std::vector<ExactPoint>& points, const std::vector<ExactPoint>& ring) {
  mpq_class best = -1;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const ExactPoint& p = ring[i];
    const ExactPoint& q = ring[(i + 1) % ring.size()];
    const mpq_class ex = q.x - p.x, ey = q.y - p.y, length2 = ex * ex + ey * ey;
    for (const ExactPoint& o : points) {
      mpq_class t = ((o.x - p.x) * ex + (o.y - p.y) * ey) / length2;
      if (t < 0) t = 0;
      if (t > 1) t = 1;
      const mpq_class dx = o.x - p.x - t * ex, dy = o.y - p.y - t * ey, squared = dx * dx + dy * dy;
      if (best < 0 || squared < best) best = squared;
    }
  }
  return best;
}

ExactPair exact_pair(const std::vector<ExactPoint>& a, const std::vector<ExactPoint>& b, double band, bool with_distance) {
  ExactPair result;
  const ExactAxis of_a = best_axis(a, b), of_b = best_axis(b, a);
  result.overlapping = of_a.value <= 0 && of_b.value <= 0;
  const ExactAxis& best = of_a.separation >= of_b.separation ? of_a : of_b;
  result.too_close = within_band(best, band);
  if (result.overlapping) {
    result.depth = -best.separation;
    result.second_depth = -(of_a.separation >= of_b.separation ? of_b.separation : of_a.separation);
    result.normal = of_a.separation >= of_b.separation ? best.normal : -best.normal;
  } else if (with_distance) {
    const mpq_class squared = std::min(smallest_squared_distance(a, b), smallest_squared_distance(b, a));
    result.distance = std::sqrt(squared.get_d());
  }
  return result;
}

/// Distance from a point to a polygon's boundary (double, from its world vertices).
double boundary_distance(Vec2 point, const std::vector<ExactPoint>& ring) {
  double best = 1e300;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const double px = ring[i].x.get_d(), py = ring[i].y.get_d();
    const double ex = ring[(i + 1) % ring.size()].x.get_d() - px, ey = ring[(i + 1) % ring.size()].y.get_d() - py;
    const double ox = double(point.x) - px, oy = double(point.y) - py;
    const double t = std::clamp((ox * ex + oy * ey) / (ex * ex + ey * ey), 0.0, 1.0);
    best = std::min(best, std::hypot(ox - t * ex, oy - t * ey));
  }
  return best;
}

/// The largest coordinate_magnitude of two polygons' world vertices: the coordinates in use.
double world_magnitude(const std::vector<ExactPoint>& a, const std::vector<ExactPoint>& b) {
  double magnitude = 0;
  for (const auto* ring : {&a, &b}) {
    for (const ExactPoint& p : *ring) magnitude = std::max(magnitude, std::abs(p.x.get_d()) + std::abs(p.y.get_d()));
  }
  return magnitude;
}

/// The oracle's band for a magnitude, in the Check's units (real_epsilon * magnitude).
constexpr double band_epsilons = 8 * static_cast<double>(round_off_epsilons);

TEST(ExactOracle, OverlapAgreesWithRationalArithmetic) {
  constexpr int pair_count = 25000;
  const auto start = std::chrono::steady_clock::now();
  random_shapes::Generator generator(0x5eed'e8ac'0001ULL);
  int checked = 0, skipped = 0, overlapping = 0, failures = 0, near_touching = 0;
  for (int index = 0; index < pair_count; ++index) {
    const Pair pair = generator.polygon_pair();
    const Polygon &a = random_shapes::as_polygon(pair.a.shape), &b = random_shapes::as_polygon(pair.b.shape);
    const Transform &ta = pair.a.transform, &tb = pair.b.transform;
    const std::vector<ExactPoint> exact_a = exact_world_vertices(a, ta);
    const double band = band_epsilons * static_cast<double>(real_epsilon) * world_magnitude(exact_a, exact_world_vertices(b, tb));
    // The pair as placed, and for overlapping pairs B moved to just beyond either edge of the
    // band around touching, by (depth +- 2 band) along the oracle's normal.
    std::vector<Transform> poses_b = {tb};
    const ExactPair placed = exact_pair(exact_a, exact_world_vertices(b, tb), band, false);
    if (placed.overlapping) {
      for (const double offset : {2 * band, -2 * band}) {
        poses_b.push_back({tb.position + static_cast<Real>(placed.depth + offset) * placed.normal, tb.rotation});
      }
    }
    for (std::size_t k = 0; k < poses_b.size(); ++k) {
      const Transform& pose_b = poses_b[k];
      const ExactPair truth = k == 0 ? placed : exact_pair(exact_a, exact_world_vertices(b, pose_b), band, false);
      if (truth.too_close) {
        ++skipped;
        continue;
      }
      ++checked;
      near_touching += k > 0;
      overlapping += truth.overlapping;
      const bool library = overlap(a, ta, b, pose_b);
      if (library != truth.overlapping && ++failures <= 8) {
        ADD_FAILURE() << "pair " << index << (k == 0 ? "" : k == 1 ? " moved to +2 band" : " moved to -2 band") << ": overlap() "
                      << library << ", exact " << truth.overlapping << ", band " << band << "\n  A " << random_shapes::describe(pair.a)
                      << "\n  B " << random_shapes::describe(pair.b) << "\n  B placed at (" << pose_b.position.x << ", "
                      << pose_b.position.y << ")";
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("checked %d pairs against exact rational overlap (%d overlapping, %d placed 2 bands from touching), skipped %d too close "
              "to call (decided exactly), %d disagreements, %.2f s\n",
              checked, overlapping, near_touching, skipped, failures, seconds);
  EXPECT_EQ(failures, 0);
  EXPECT_GE(checked, 20000);
}

TEST(ExactOracle, EveryOutputOfPenetrationDistanceAndManifoldsAgrees) {
  // Depth, normal and both witness points of penetration(); distance and both closest points of
  // distance(); every manifold point on both surfaces, the manifold normal and depth; and the
  // mirrored manifold when A and B swap.
  constexpr int pair_count = 6000;
  random_shapes::Generator generator(0x5eed'e8ac'0002ULL);
  random_shapes::Check depth("penetration depth", band_epsilons), normal("penetration normal (x size)", band_epsilons),
      witness_a("penetration point_a on A's surface", band_epsilons), witness_b("penetration point_b on B's surface", band_epsilons),
      witness_gap("point_a - point_b = depth * normal", band_epsilons), gap("distance", band_epsilons),
      closest_a("distance point_a on A's surface", band_epsilons), closest_b("distance point_b on B's surface", band_epsilons),
      closest_gap("|point_b - point_a| = distance", band_epsilons),
      manifold_surface_a("manifold point on A's surface", band_epsilons + 16 * round_off_epsilons),
      manifold_surface_b("manifold point on B's surface", band_epsilons + 16 * round_off_epsilons),
      manifold_depth("manifold depth (hysteresis allowed)", band_epsilons + 16 * round_off_epsilons),
      manifold_normal("manifold normal = oracle axis (no tie)", band_epsilons), manifold_presence("manifold present iff overlapping", 0),
      mirrored("swapped manifold mirrored", band_epsilons);
  int skipped = 0;
  auto where = [&](int index, const Pair& pair) {
    return [&, index] { return "pair " + std::to_string(index) + "\n  A " + random_shapes::describe(pair.a) + "\n  B " + random_shapes::describe(pair.b); };
  };
  for (int index = 0; index < pair_count; ++index) {
    const Pair pair = generator.polygon_pair();
    const Polygon &a = random_shapes::as_polygon(pair.a.shape), &b = random_shapes::as_polygon(pair.b.shape);
    const Transform &ta = pair.a.transform, &tb = pair.b.transform;
    const std::vector<ExactPoint> exact_a = exact_world_vertices(a, ta), exact_b = exact_world_vertices(b, tb);
    const double magnitude = world_magnitude(exact_a, exact_b);
    const double band = band_epsilons * static_cast<double>(real_epsilon) * magnitude;
    const ExactPair truth = exact_pair(exact_a, exact_b, band, true);
    if (truth.too_close) {
      ++skipped;
      continue;
    }
    const auto context = where(index, pair);
    const Manifold manifold = collide(a, ta, b, tb);
    manifold_presence.require((manifold.point_count > 0) == truth.overlapping, context);
    if (truth.overlapping) {
      const std::optional<Penetration> found = penetration(a, ta, b, tb);
      if (!manifold_presence.require(found.has_value(), context)) continue;
      depth.record(std::abs(double(found->depth) - truth.depth), magnitude, context);
      const double size = std::max(double(pair.a.size), double(pair.b.size));
      // The normal is decided only when the other polygon's best axis is clearly worse.
      if (truth.second_depth - truth.depth > 32 * band) {
        normal.record(double(length(found->normal - truth.normal)) * size, magnitude, context);
        manifold_normal.record(double(length(manifold.normal - truth.normal)) * size, magnitude, context);
      }
      witness_a.record(boundary_distance(found->point_a, exact_a), magnitude, context);
      witness_b.record(boundary_distance(found->point_b, exact_b), magnitude, context);
      witness_gap.record(double(length(found->point_a - found->point_b - found->depth * found->normal)), magnitude, context);
      double deepest = 0;
      for (int i = 0; i < manifold.point_count; ++i) {
        const ManifoldPoint& point = manifold.points[i];
        deepest = std::max(deepest, -double(point.separation));
        manifold_surface_a.record(boundary_distance(point.point - Real(0.5) * point.separation * manifold.normal, exact_a), magnitude, context);
        manifold_surface_b.record(boundary_distance(point.point + Real(0.5) * point.separation * manifold.normal, exact_b), magnitude, context);
      }
      manifold_depth.record(std::abs(deepest - truth.depth), magnitude, context);
      // Swapped: the same points, the normal turned round.
      const Manifold swapped = collide(b, tb, a, ta);
      if (mirrored.require(swapped.point_count == manifold.point_count, context)) {
        mirrored.record(double(length(swapped.normal + manifold.normal)) * size, magnitude, context);
        for (int i = 0; i < manifold.point_count; ++i) {
          double nearest = 1e300;
          for (int j = 0; j < swapped.point_count; ++j) {
            nearest = std::min(nearest, double(length(swapped.points[j].point - manifold.points[i].point)) +
                                            std::abs(double(swapped.points[j].separation - manifold.points[i].separation)));
          }
          mirrored.record(nearest, magnitude, context);
        }
      }
    } else {
      const DistanceResult result = distance(a, ta, b, tb);
      gap.record(std::abs(double(result.distance) - truth.distance), magnitude, context);
      closest_a.record(boundary_distance(result.point_a, exact_a), magnitude, context);
      closest_b.record(boundary_distance(result.point_b, exact_b), magnitude, context);
      closest_gap.record(std::abs(double(length(result.point_b - result.point_a)) - truth.distance), magnitude, context);
    }
  }
  std::printf("%d pairs, %d too close to call (decided exactly); worst errors in real_epsilon x the world magnitude:\n", pair_count, skipped);
  for (const random_shapes::Check* check : {&depth, &normal, &witness_a, &witness_b, &witness_gap, &gap, &closest_a, &closest_b, &closest_gap,
                                            &manifold_surface_a, &manifold_surface_b, &manifold_depth, &manifold_normal, &manifold_presence,
                                            &mirrored}) {
    check->print();
    for (const std::string& message : check->messages()) ADD_FAILURE() << check->name() << ": " << message;
    EXPECT_EQ(check->failures(), 0) << check->name();
  }
}

/// The incident edge the oracle expects: the edge of `incident` whose outward normal is most
/// opposed to `reference_normal` (world), with the margin to the next edge.
std::pair<int, double> expected_incident_edge(const std::vector<ExactPoint>& incident, Vec2 reference_normal) {
  int best = -1;
  double best_dot = 1e300, runner_up = 1e300;
  for (std::size_t i = 0; i < incident.size(); ++i) {
    const ExactPoint& p = incident[i];
    const ExactPoint& q = incident[(i + 1) % incident.size()];
    const double nx = mpq_class(q.y - p.y).get_d(), ny = mpq_class(p.x - q.x).get_d(), length = std::hypot(nx, ny);
    const double value = (nx * double(reference_normal.x) + ny * double(reference_normal.y)) / length;
    if (value < best_dot) {
      runner_up = best_dot;
      best_dot = value;
      best = static_cast<int>(i);
    } else {
      runner_up = std::min(runner_up, value);
    }
  }
  return {best, runner_up - best_dot};
}

TEST(ExactOracle, FeatureIdsNameTheEdgesInContactAndStayUnderSmallMotion) {
  // For overlapping pairs whose reference face and incident edge the oracle decides clearly, the
  // first manifold point's id names them (reference edge, incident edge, which shape is the
  // reference); moving B by 1e-3 of its size keeps the id (without the end bit) while the oracle
  // keeps the same features, and changes it when the oracle's reference face changes.
  constexpr FeatureId index_mask = (FeatureId(1) << 28) - 1;
  auto features_of = [](FeatureId id) { return id & ~(FeatureId(1) << 56); };
  random_shapes::Generator generator(0x5eed'e8ac'0003ULL);
  int named = 0, wrong_names = 0, kept = 0, lost_under_motion = 0, changed = 0, not_changed = 0;
  struct Decided {
    bool clear = false;
    bool b_is_reference = false;
    int reference_edge = -1, incident_edge = -1;
  };
  auto decide = [&](const std::vector<ExactPoint>& exact_a, const std::vector<ExactPoint>& exact_b, double band) {
    Decided decided;
    const ExactAxis of_a = best_axis(exact_a, exact_b), of_b = best_axis(exact_b, exact_a);
    if (!(of_a.value <= 0 && of_b.value <= 0)) return decided;  // apart
    const bool b_reference = of_b.separation > of_a.separation;
    const ExactAxis& best = b_reference ? of_b : of_a;
    const double other_best = b_reference ? of_a.separation : of_b.separation;
    // Clear: the other shape's axes and this shape's other edges all worse by the hysteresis and more.
    if (best.separation - std::max(other_best, best.runner_up) <= 64 * band) return decided;
    const Vec2 reference_normal = best.normal;  // outward normal of the reference face (world)
    const auto [incident, margin] = expected_incident_edge(b_reference ? exact_a : exact_b, reference_normal);
    if (margin <= 1e-3) return decided;
    decided = {true, b_reference, best.edge, incident};
    return decided;
  };
  for (int index = 0; index < 6000; ++index) {
    const Pair pair = generator.polygon_pair();
    const Polygon &a = random_shapes::as_polygon(pair.a.shape), &b = random_shapes::as_polygon(pair.b.shape);
    const Transform &ta = pair.a.transform, &tb = pair.b.transform;
    const std::vector<ExactPoint> exact_a = exact_world_vertices(a, ta), exact_b = exact_world_vertices(b, tb);
    const double band = band_epsilons * static_cast<double>(real_epsilon) * world_magnitude(exact_a, exact_b);
    const Decided before = decide(exact_a, exact_b, band);
    if (!before.clear) continue;
    const Manifold manifold = collide(a, ta, b, tb);
    if (manifold.point_count == 0) continue;  // checked elsewhere
    const FeatureId id = manifold.points[0].id;
    ++named;
    const bool names_right = int(id & index_mask) == before.reference_edge && int((id >> 28) & index_mask) == before.incident_edge &&
                             bool((id >> 57) & 1) == before.b_is_reference && (id >> 58) == 0;
    if (!names_right && ++wrong_names <= 5) {
      ADD_FAILURE() << "pair " << index << ": id names reference " << (id & index_mask) << " incident " << ((id >> 28) & index_mask)
                    << " b_is_reference " << ((id >> 57) & 1) << ", the oracle " << before.reference_edge << " / " << before.incident_edge
                    << " / " << before.b_is_reference;
    }
    // A small motion (1e-3 of B's size), and a large one (B turned by up to a radian).
    const Transform small_motion{tb.position + Real(1e-3) * pair.b.size * generator.direction(), tb.rotation};
    const Transform large_motion{tb.position, compose(Rot::from_angle(generator.uniform(-1, 1)), tb.rotation)};
    for (const Transform& moved : {small_motion, large_motion}) {
      const Decided after = decide(exact_a, exact_world_vertices(b, moved), band);
      const Manifold moved_manifold = collide(a, ta, b, moved);
      if (!after.clear || moved_manifold.point_count == 0) continue;
      const bool same_features = after.b_is_reference == before.b_is_reference && after.reference_edge == before.reference_edge &&
                                 after.incident_edge == before.incident_edge;
      bool shares_id = false;
      for (int i = 0; i < moved_manifold.point_count; ++i) {
        for (int j = 0; j < manifold.point_count; ++j) {
          shares_id = shares_id || features_of(moved_manifold.points[i].id) == features_of(manifold.points[j].id);
        }
      }
      if (same_features) {
        ++kept;
        lost_under_motion += !shares_id;
      } else {
        ++changed;
        not_changed += shares_id;
      }
    }
  }
  std::printf("feature ids: %d named (%d wrong); moved B: %d kept the features (%d ids changed), %d changed them (%d ids kept)\n",
              named, wrong_names, kept, lost_under_motion, changed, not_changed);
  EXPECT_GT(named, 1000);
  EXPECT_EQ(wrong_names, 0);
  EXPECT_EQ(lost_under_motion, 0);
  EXPECT_GT(changed, 200);
  EXPECT_EQ(not_changed, 0);
}

}  // namespace
