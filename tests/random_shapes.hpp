// random_shapes.hpp — a seeded generator of random convex shapes and poses for the randomised
// tests (test_differential, test_exact_oracle, test_properties).
//
// Every generator is a std::mt19937_64 with a fixed seed, so a run is reproducible and a failure
// message's pair index identifies the pair. Shapes:
//   - polygons of 3..12 vertices: random points on a jittered (and sometimes squashed) circle,
//     then convex_hull + make_polygon;
//   - rectangles via make_box (SAT's rectangle fast path), sometimes offset and turned locally;
//   - large polygons of 40..64 vertices (the binary-search support path, > polygon_inline_capacity);
//   - circles, capsules and segments, for the mixed batches;
//   - an optional rounding radius on some polygons.
// Sizes are log-uniform in [1e-2, 1e2]; rotations are uniform; positions reach max_offset
// (1e3 in float, 1e6 in double). B is placed near A so that about half of the pairs overlap.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "collide2d/collide2d.hpp"

namespace random_shapes {

using collide2d::Real;
using collide2d::Rot;
using collide2d::Shape;
using collide2d::Transform;
using collide2d::Vec2;

/// How far from the world origin the random poses go.
#if COLLIDE2D_DOUBLE
inline constexpr Real max_offset = Real(1e6);
#else
inline constexpr Real max_offset = Real(1e3);
#endif
inline constexpr Real min_size = Real(1e-2);
inline constexpr Real max_size = Real(1e2);

/// The tolerance band constant: answers are compared outside (or, for values, within)
/// K * real_epsilon * (size_a + size_b + |position_a| + |position_b|); see test_differential.cpp.
inline constexpr double K = 64;
/// K epsilons of Real: the relative band the older randomised tests scale their bands by (the
/// library's own tolerances come from collide2d/tolerance.hpp and are smaller).
inline constexpr double relative_band = K * static_cast<double>(collide2d::real_epsilon);
/// collide() keeps A's face as the reference unless B's separates more by 16 pair tolerances
/// (16 touching bands of the faces, a hysteresis against flicker, see manifold.cpp), so its
/// points may sit that much deeper than the true depth: their check allows K + 16 * 64.
inline constexpr double manifold_K = K + 16 * 64;

/// The kinds of shape the generator makes.
enum class Kind { polygon, box, large_polygon, rounded_polygon, circle, capsule, segment };

/// A shape placed in the world, with its size (size_scale: reach from its local origin, radius included).
struct Body {
  Shape shape;
  Transform transform;
  Real size = 0;
};

/// A pair of bodies, A and B.
struct Pair {
  Body a;
  Body b;
};

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : engine_(seed) {}

  std::mt19937_64& engine() { return engine_; }

  /// Uniform in [lo, hi).
  Real uniform(double lo, double hi) { return static_cast<Real>(std::uniform_real_distribution<double>(lo, hi)(engine_)); }
  /// Uniform integer in [lo, hi].
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(engine_); }
  /// Log-uniform in [lo, hi).
  Real log_uniform(double lo, double hi) {
    const double t = std::uniform_real_distribution<double>(0, 1)(engine_);
    return static_cast<Real>(lo * std::pow(hi / lo, t));
  }
  /// True with probability p.
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(engine_) < p; }
  /// A uniform angle in [-pi, pi).
  Real angle() { return uniform(-std::numbers::pi, std::numbers::pi); }
  /// A uniform unit vector.
  Vec2 direction() {
    const double theta = std::uniform_real_distribution<double>(-std::numbers::pi, std::numbers::pi)(engine_);
    return {static_cast<Real>(std::cos(theta)), static_cast<Real>(std::sin(theta))};
  }
  /// A random size, log-uniform in [min_size, max_size).
  Real size() { return log_uniform(min_size, max_size); }

  /// A local offset of the shape's core from its local origin: none half of the time.
  Vec2 local_offset(Real size) { return chance(0.5) ? Vec2{} : uniform(0, 0.5) * size * direction(); }

  /// A convex polygon of `min_vertices`..`max_vertices` points on a jittered circle of radius
  /// `size` (the hull may drop a few), rounded by `radius`.
  collide2d::Polygon polygon(Real size, int min_vertices, int max_vertices, Real radius = 0) {
    for (;;) {
      const int n = integer(min_vertices, max_vertices);
      const bool large = min_vertices > collide2d::polygon_inline_capacity;
      // Large polygons keep almost all their vertices: the jitter stays below the sagitta of an edge.
      const double jitter = large ? 2e-4 : 0.25;
      const bool stratified = large || chance(0.5);
      const Real squash = chance(0.3) ? uniform(0.15, 1.0) : Real(1);
      const Rot turn = Rot::from_angle(angle());
      const Vec2 offset = local_offset(size);
      std::vector<Vec2> points;
      points.reserve(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) {
        const double theta = stratified ? 2 * std::numbers::pi * (i + std::uniform_real_distribution<double>(0.1, 0.9)(engine_)) / n
                                        : std::uniform_real_distribution<double>(0, 2 * std::numbers::pi)(engine_);
        const double r = size * (1 + std::uniform_real_distribution<double>(-jitter, jitter)(engine_));
        const Vec2 on_circle{static_cast<Real>(r * std::cos(theta)) * squash, static_cast<Real>(r * std::sin(theta))};
        points.push_back(collide2d::rotate(turn, on_circle) + offset);
      }
      const std::vector<Vec2> hull = collide2d::convex_hull(points);
      if (hull.size() < 3) continue;
      auto made = collide2d::make_polygon(hull, radius);
      if (!made) continue;
      if (large && made.value().count() <= collide2d::polygon_inline_capacity) continue;
      return std::move(made).value();
    }
  }

  /// A rectangle of half extents up to `size`, sometimes offset and turned in its local frame.
  collide2d::Polygon box(Real size, Real radius = 0) {
    const Real half_width = size * uniform(0.2, 1.0), half_height = size * uniform(0.05, 1.0);
    const Transform offset = chance(0.5) ? Transform{} : Transform{local_offset(size), Rot::from_angle(angle())};
    auto made = collide2d::make_box(half_width, half_height, offset, radius);
    if (!made) throw std::logic_error("random_shapes: make_box refused a valid box");
    return std::move(made).value();
  }

  /// A shape of the given kind and overall size.
  Shape shape(Kind kind, Real size) {
    switch (kind) {
      case Kind::polygon: return polygon(size, 3, 12);
      case Kind::box: return box(size);
      case Kind::large_polygon: return polygon(size, 40, 64);
      case Kind::rounded_polygon: {
        const Real radius = size * uniform(0.01, 0.5);
        const Real core = size - radius;
        if (chance(0.25)) return box(core, radius);
        return polygon(core, 3, chance(0.1) ? 64 : 12, radius);
      }
      case Kind::circle: return collide2d::Circle{local_offset(size), size * uniform(0.3, 1.0)};
      case Kind::capsule: {
        const Real radius = size * uniform(0.05, 0.6);
        const Vec2 center = local_offset(size), half = (size - radius) * uniform(0.1, 1.0) * direction();
        return collide2d::Capsule{center - half, center + half, radius};
      }
      case Kind::segment: {
        const Vec2 center = local_offset(size), half = size * uniform(0.1, 1.0) * direction();
        return collide2d::Segment{center - half, center + half};
      }
    }
    throw std::logic_error("random_shapes: unknown kind");
  }

  /// A convex polygon without rounding: 3..12 vertices (70%), a rectangle (20%) or 40..64 vertices (10%).
  Kind polygon_kind() {
    const double u = std::uniform_real_distribution<double>(0, 1)(engine_);
    return u < 0.7 ? Kind::polygon : u < 0.9 ? Kind::box : Kind::large_polygon;
  }
  /// Any kind: plain polygons, rounded polygons, circles, capsules and segments.
  Kind any_kind() {
    static constexpr Kind kinds[] = {Kind::polygon, Kind::box, Kind::large_polygon, Kind::rounded_polygon,
                                     Kind::rounded_polygon, Kind::circle, Kind::capsule, Kind::segment};
    return kinds[integer(0, static_cast<int>(std::size(kinds)) - 1)];
  }

  /// A world position: the origin a quarter of the time, else at a log-uniform distance up to max_offset.
  Vec2 position(Real reach = max_offset) {
    if (chance(0.25)) return {};
    return log_uniform(1e-2, static_cast<double>(reach)) * direction();
  }
  /// A random pose up to `reach` from the origin.
  Transform pose(Real reach = max_offset) { return {position(reach), Rot::from_angle(angle())}; }

  /// A body of the given kind with a random size and pose.
  Body body(Kind kind, Real reach = max_offset) {
    Body result{shape(kind, size()), pose(reach), 0};
    result.size = collide2d::size_scale(result.shape);
    return result;
  }

  /// Places b near a: at a's position plus a random direction times (size_a + size_b) * U(0.2, 1.1),
  /// with a random rotation. About half of such pairs overlap.
  void place_near(const Body& a, Body& b) {
    b.transform.position = a.transform.position + (a.size + b.size) * uniform(0.2, 1.1) * direction();
    b.transform.rotation = Rot::from_angle(angle());
  }

  /// A pair of unrounded convex polygons, B placed near A.
  Pair polygon_pair(Real reach = max_offset) {
    Pair pair{body(polygon_kind(), reach), body(polygon_kind(), reach)};
    place_near(pair.a, pair.b);
    return pair;
  }
  /// A pair of shapes of any kind, B placed near A.
  Pair mixed_pair(Real reach = max_offset) {
    Pair pair{body(any_kind(), reach), body(any_kind(), reach)};
    place_near(pair.a, pair.b);
    return pair;
  }

 private:
  std::mt19937_64 engine_;
};

/// Visits a Shape the caller knows is convex (these generators make no compounds); a compound
/// throws std::logic_error. The visitor's result type is its result for a Circle.
template <class Visitor>
auto visit_convex(Visitor&& visitor, const Shape& shape) {
  using Answer = std::invoke_result_t<Visitor&, const collide2d::Circle&>;
  return std::visit(
      [&](const auto& concrete) -> Answer {
        if constexpr (std::is_same_v<std::decay_t<decltype(concrete)>, collide2d::Compound>) {
          throw std::logic_error("visit_convex: the shape is a compound");
        } else {
          return visitor(concrete);
        }
      },
      shape);
}

/// The convex shape a Shape holds (the caller knows it is convex), copied into a ConvexShape.
inline collide2d::ConvexShape as_convex(const Shape& shape) {
  return visit_convex([](const auto& concrete) -> collide2d::ConvexShape { return concrete; }, shape);
}

/// collide() on two Shapes the caller knows are convex.
inline collide2d::Manifold collide_convex(const Shape& a, const collide2d::Transform& ta, const Shape& b, const collide2d::Transform& tb,
                                          const collide2d::CollideOptions& options = {}) {
  return visit_convex([&](const auto& x) { return visit_convex([&](const auto& y) { return collide(x, ta, y, tb, options); }, b); }, a);
}

/// The polygon held by a Shape (the caller knows it is one).
inline const collide2d::Polygon& as_polygon(const Shape& shape) { return std::get<collide2d::Polygon>(shape); }

/// A short description of a body for failure messages.
inline std::string describe(const Body& body) {
  std::string text;
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, "pose (%.17g, %.17g) rot (%.17g, %.17g) size %.17g: ", static_cast<double>(body.transform.position.x),
                static_cast<double>(body.transform.position.y), static_cast<double>(body.transform.rotation.cosine),
                static_cast<double>(body.transform.rotation.sine), static_cast<double>(body.size));
  text += buffer;
  auto point = [&](Vec2 p) {
    std::snprintf(buffer, sizeof buffer, "(%.17g, %.17g)", static_cast<double>(p.x), static_cast<double>(p.y));
    text += buffer;
  };
  visit_convex(
      [&](const auto& shape) {
        using S = std::decay_t<decltype(shape)>;
        if constexpr (std::is_same_v<S, collide2d::Circle>) {
          text += "circle ";
          point(shape.center);
          std::snprintf(buffer, sizeof buffer, " r %.17g", static_cast<double>(shape.radius));
          text += buffer;
        } else if constexpr (std::is_same_v<S, collide2d::Capsule>) {
          text += "capsule ";
          point(shape.a);
          point(shape.b);
          std::snprintf(buffer, sizeof buffer, " r %.17g", static_cast<double>(shape.radius));
          text += buffer;
        } else if constexpr (std::is_same_v<S, collide2d::Segment>) {
          text += "segment ";
          point(shape.a);
          point(shape.b);
        } else {
          std::snprintf(buffer, sizeof buffer, "polygon r %.17g n %d ", static_cast<double>(shape.radius()), shape.count());
          text += buffer;
          for (Vec2 p : shape.vertices()) point(p);
        }
      },
      body.shape);
  return text;
}

}  // namespace random_shapes

namespace random_shapes {

/// The scale of a pair's round-off: the sizes plus the distances of both poses from the origin.
/// Tolerance bands are K * real_epsilon * pair_scale(...).
inline double pair_scale(const Body& a, const Transform& transform_a, const Body& b, const Transform& transform_b) {
  return static_cast<double>(a.size) + static_cast<double>(b.size) + static_cast<double>(collide2d::length(transform_a.position)) +
         static_cast<double>(collide2d::length(transform_b.position));
}
inline double pair_scale(const Pair& pair) { return pair_scale(pair.a, pair.a.transform, pair.b, pair.b.transform); }

/// One named check over many pairs: counts failures (errors above the band), remembers the
/// worst error in units of real_epsilon * scale (so the run shows which K each check needs) and
/// keeps the first few failure messages.
class Check {
 public:
  Check(const char* name, double k) : name_(name), k_(k) {}

  /// Records `error` (>= 0, length units) for a pair whose round-off scale is `scale`; the check
  /// fails when error > K * real_epsilon * scale. `context` is called only on failure.
  template <class Context>
  bool record(double error, double scale, Context&& context) {
    ++count_;
    const double ratio = error / (static_cast<double>(collide2d::real_epsilon) * scale);
    if (ratio > worst_) worst_ = ratio;
    if (!(error <= k_ * static_cast<double>(collide2d::real_epsilon) * scale)) {  // NaN fails too
      if (failures_ < 8) messages_.push_back(context());
      ++failures_;
      return false;
    }
    return true;
  }
  /// Records a boolean check that must hold.
  template <class Context>
  bool require(bool ok, Context&& context) {
    ++count_;
    if (!ok) {
      if (failures_ < 8) messages_.push_back(context());
      ++failures_;
    }
    return ok;
  }

  long failures() const { return failures_; }
  long count() const { return count_; }
  double worst() const { return worst_; }
  const char* name() const { return name_; }
  const std::vector<std::string>& messages() const { return messages_; }

  /// Prints the summary line: checks made, failures, worst error in real_epsilon * scale units.
  void print() const {
    std::printf("  %-44s %9ld checks, %ld failures, worst error %.3g eps*scale (K = %g)\n", name_, count_, failures_, worst_, k_);
  }

 private:
  const char* name_;
  double k_;
  long count_ = 0;
  long failures_ = 0;
  double worst_ = 0;
  std::vector<std::string> messages_;
};

}  // namespace random_shapes
