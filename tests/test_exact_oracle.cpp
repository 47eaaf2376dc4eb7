// test_exact_oracle.cpp — overlap() against an exact rational decision.
//
// Each polygon's vertices are transformed to world coordinates in Real (transform_point), and
// those Reals are converted exactly to GMP rationals (mpq_class). With exact arithmetic two
// convex polygons overlap, touching included, exactly when no edge normal of either separates
// them strictly; the unnormalised normal (dy, -dx) of a counter-clockwise edge keeps that exact.
// (Rounding the world coordinates can make a polygon very slightly non-convex; that moves the
// boundary by round-off only, which the band below covers.)
//
// overlap() is compared wherever the library's own signed distance (distance() when apart,
// -penetration().depth when overlapping) lies outside the band
//     band = K * real_epsilon * (size_a + size_b + |position_a| + |position_b|),   K = 64,
// the same band as test_differential.cpp; pairs inside it are counted as skipped.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "random_shapes.hpp"

namespace {

using namespace collide2d;
using random_shapes::Pair;

using random_shapes::K;

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

/// True when some edge normal of `reference` strictly separates `other` from it.
bool has_separating_edge(const std::vector<ExactPoint>& reference, const std::vector<ExactPoint>& other) {
  const std::size_t n = reference.size();
  mpq_class nx, ny, value;
  for (std::size_t i = 0; i < n; ++i) {
    const ExactPoint& p = reference[i];
    const ExactPoint& q = reference[(i + 1) % n];
    nx = q.y - p.y;  // outward normal of a counter-clockwise edge: (dy, -dx)
    ny = p.x - q.x;
    bool separates = true;
    for (const ExactPoint& o : other) {
      value = nx * (o.x - p.x) + ny * (o.y - p.y);
      if (value <= 0) {
        separates = false;
        break;
      }
    }
    if (separates) return true;
  }
  return false;
}

bool exact_overlap(const std::vector<ExactPoint>& a, const std::vector<ExactPoint>& b) {
  return !has_separating_edge(a, b) && !has_separating_edge(b, a);
}

TEST(ExactOracle, OverlapAgreesWithRationalArithmetic) {
  constexpr int pair_count = 25000;
  const auto start = std::chrono::steady_clock::now();
  random_shapes::Generator generator(0x5eed'e8ac'0001ULL);
  int checked = 0, skipped = 0, overlapping = 0, failures = 0, near_touching = 0;
  for (int index = 0; index < pair_count; ++index) {
    const Pair pair = generator.polygon_pair();
    const Polygon &a = random_shapes::as_polygon(pair.a.shape), &b = random_shapes::as_polygon(pair.b.shape);
    const Transform &ta = pair.a.transform, &tb = pair.b.transform;
    const double band = K * static_cast<double>(real_epsilon) * random_shapes::pair_scale(pair);

    const std::optional<Penetration> pen = penetration(a, ta, b, tb);
    // The pair as placed, and for overlapping pairs B moved to just beyond either edge of the
    // band around touching, by (depth +- 2 band) * normal: random placements rarely land there.
    std::vector<Transform> poses_b = {tb};
    if (pen) {
      for (const double offset : {2 * band, -2 * band}) {
        poses_b.push_back({tb.position + static_cast<Real>(static_cast<double>(pen->depth) + offset) * pen->normal, tb.rotation});
      }
    }
    const std::vector<ExactPoint> exact_a = exact_world_vertices(a, ta);
    for (std::size_t k = 0; k < poses_b.size(); ++k) {
      const Transform& pose_b = poses_b[k];
      const double pose_band = K * static_cast<double>(real_epsilon) * random_shapes::pair_scale(pair.a, ta, pair.b, pose_b);
      const std::optional<Penetration> pen_here = k == 0 ? pen : penetration(a, ta, b, pose_b);
      const double library_signed_distance =
          pen_here ? -static_cast<double>(pen_here->depth) : static_cast<double>(distance(a, ta, b, pose_b).distance);
      if (std::abs(library_signed_distance) <= pose_band) {
        ++skipped;
        continue;
      }
      ++checked;
      near_touching += k > 0;
      const bool exact = exact_overlap(exact_a, exact_world_vertices(b, pose_b));
      overlapping += exact;
      const bool library = overlap(a, ta, b, pose_b);
      if (library != exact && ++failures <= 8) {
        ADD_FAILURE() << "pair " << index << (k == 0 ? "" : k == 1 ? " moved to +2 band" : " moved to -2 band") << ": overlap() "
                      << library << ", exact " << exact << ", library signed distance " << library_signed_distance << ", band "
                      << pose_band << "\n  A " << random_shapes::describe(pair.a) << "\n  B " << random_shapes::describe(pair.b)
                      << "\n  B placed at (" << pose_b.position.x << ", " << pose_b.position.y << ")";
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("checked %d pairs against exact rational overlap (%d overlapping, %d placed 2 bands from touching), skipped %d inside "
              "the band, %d disagreements, %.2f s\n",
              checked, overlapping, near_touching, skipped, failures, seconds);
  EXPECT_EQ(failures, 0);
  EXPECT_GE(checked, 20000);
}

}  // namespace
