// random_cases.hpp — the seeded inputs every benchmark shares: random convex polygons and circles,
// placed pairs tuned so that about half overlap, rays, shape casts, sweeps and moving boxes.
// Every library measures the same cases, converted once to its own types (peers.hpp).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <type_traits>
#include <vector>

#include "collide2d/collide2d.hpp"

namespace collide2d_bench {

using collide2d::Circle;
using collide2d::Polygon;
using collide2d::Real;
using collide2d::Transform;
using collide2d::Vec2;

/// Cases per benchmark; the timing loop visits them in a random order (bench_support.hpp, CaseOrder).
inline constexpr std::size_t case_count = 256;
static_assert(std::has_single_bit(case_count), "case_count must be a power of two: CaseOrder draws an index from whole bits");

/// Box2D's polygon skin, b2_polygonRadius (2 * b2_linearSlop = 0.01 length units in 2.4.1). Our
/// polygons in the pair benchmarks are rounded by exactly this, so all libraries collide the same
/// rounded shapes (peers.cpp checks it against Box2D's constant).
inline constexpr Real box2d_polygon_skin = Real(0.01);

/// Answers may differ where the shapes are within this of touching (length units; the shapes are
/// about 1 across): Box2D reports polygon contacts from a separating axis, not the true distance,
/// and its casts stop up to one skin deep. Disagreements farther from touching than this are real.
inline constexpr double touching_band = 2 * double(box2d_polygon_skin);

/// A deterministic random source: std::mt19937 (fully specified by the standard) for the bits and
/// our own mapping to ranges, because the standard distributions differ between libraries. Draws
/// are made in separate statements or braced lists (evaluated left to right), never as two
/// arguments of one call, whose order is unspecified and differs between compilers.
class RandomSource {
 public:
  explicit RandomSource(std::uint32_t seed) : engine_(seed) {}
  /// Uniform in [low, high).
  double uniform(double low, double high) {
    const double unit = static_cast<double>(engine_()) * (1.0 / 4294967296.0);
    return low + (high - low) * unit;
  }
  /// Uniform in [low, high), as Real.
  Real uniform_real(double low, double high) { return static_cast<Real>(uniform(low, high)); }
  /// An angle uniform in [-pi, pi).
  Real angle() { return uniform_real(-std::numbers::pi, std::numbers::pi); }
  /// A point uniform over the unit disc.
  Vec2 in_unit_disc() {
    const double radius = std::sqrt(uniform(0, 1));
    const double direction = uniform(-std::numbers::pi, std::numbers::pi);
    return {static_cast<Real>(radius * std::cos(direction)), static_cast<Real>(radius * std::sin(direction))};
  }
  /// A unit vector in a uniformly random direction.
  Vec2 unit_vector() {
    const double direction = uniform(-std::numbers::pi, std::numbers::pi);
    return {static_cast<Real>(std::cos(direction)), static_cast<Real>(std::sin(direction))};
  }

 private:
  std::mt19937 engine_;
};

/// A random convex polygon with exactly `vertex_count` vertices: points on an ellipse with semi-axes
/// in [0.5, 1] at jittered angles, turned by a random angle, local origin at the ellipse centre,
/// rounded by `rounding_radius`.
Polygon random_polygon(RandomSource& random, int vertex_count, Real rounding_radius);
/// A circle of radius in [0.4, 1] centred on its local origin.
Circle random_circle(RandomSource& random);

/// The signed gap between two placed shapes by our own queries: the distance when apart, minus the
/// penetration depth when overlapping.
template <class ShapeA, class ShapeB>
double signed_gap(const ShapeA& a, const Transform& transform_a, const ShapeB& b, const Transform& transform_b) {
  const auto hit = collide2d::penetration(a, transform_a, b, transform_b);
  if (hit) return -double(hit->depth);
  return double(collide2d::distance(a, transform_a, b, transform_b).distance);
}

/// The smallest value of a function of t in [0, 1] that is convex (ternary search).
template <class Function>
double convex_minimum(Function function, double low = 0, double high = 1) {
  for (int step = 0; step < 80; ++step) {
    const double first = low + (high - low) / 3, second = high - (high - low) / 3;
    if (function(first) <= function(second)) {
      high = second;
    } else {
      low = first;
    }
  }
  return std::min({function(low), function(0.5 * (low + high)), function(high)});
}

/// Finds, by bisection, the smallest spread in [0, largest] at which `count(spread)` (which must
/// fall as the spread grows) is at most `target`.
template <class Count>
double tune_spread(Count count, std::size_t target, double largest) {
  double low = 0, high = largest;
  for (int step = 0; step < 40; ++step) {
    const double middle = 0.5 * (low + high);
    if (count(middle) > target) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return high;
}

/// Two shapes placed in the world: one input of a pair benchmark.
template <class ShapeA, class ShapeB>
struct PairCase {
  ShapeA a;
  Transform transform_a;
  ShapeB b;
  Transform transform_b;
  Transform moved_transform_b;  // B moved a little (warm-started distance alternates between the two)
  double gap = 0;               // our signed gap (distance, or minus the depth)
  bool overlapping = false;     // our overlap() answer
};

template <class ShapeA, class ShapeB>
struct PairCases {
  std::vector<PairCase<ShapeA, ShapeB>> cases;
  double spread = 0;            // radius of the disc B's offset from A is drawn from, tuned for half overlapping
  double overlap_fraction = 0;  // fraction of cases our overlap() calls overlapping
};

/// `case_count` pairs: A anywhere in a 40 x 40 square at a random angle, B at a random angle and at
/// an offset drawn uniformly from a disc whose radius is tuned so that half the pairs overlap.
template <class ShapeA, class ShapeB, class MakeA, class MakeB>
PairCases<ShapeA, ShapeB> make_pair_cases(std::uint32_t seed, MakeA make_a, MakeB make_b) {
  RandomSource random(seed);
  struct Draw {
    Vec2 position;
    Real angle_a, angle_b;
    Vec2 unit_offset;
    Vec2 nudge;
    Real nudge_angle;
  };
  PairCases<ShapeA, ShapeB> result;
  std::vector<Draw> draws;
  for (std::size_t i = 0; i < case_count; ++i) {
    PairCase<ShapeA, ShapeB> pair{make_a(random), {}, make_b(random), {}, {}, 0, false};
    result.cases.push_back(std::move(pair));
    const Vec2 position{random.uniform_real(-20, 20), random.uniform_real(-20, 20)};
    const Real angle_a = random.angle(), angle_b = random.angle();
    const Vec2 unit_offset = random.in_unit_disc();
    const Vec2 nudge = Real(0.01) * random.unit_vector();
    draws.push_back({position, angle_a, angle_b, unit_offset, nudge, random.uniform_real(-0.01, 0.01)});
  }
  auto place = [&](double spread) {
    for (std::size_t i = 0; i < case_count; ++i) {
      const Draw& draw = draws[i];
      PairCase<ShapeA, ShapeB>& pair = result.cases[i];
      pair.transform_a = Transform::from(draw.position, draw.angle_a);
      const Vec2 offset{static_cast<Real>(spread * double(draw.unit_offset.x)), static_cast<Real>(spread * double(draw.unit_offset.y))};
      pair.transform_b = Transform::from(draw.position + offset, draw.angle_b);
      pair.moved_transform_b = Transform::from(draw.position + offset + draw.nudge, draw.angle_b + draw.nudge_angle);
    }
  };
  auto count_overlapping = [&](double spread) {
    place(spread);
    std::size_t overlapping = 0;
    for (const auto& pair : result.cases) overlapping += collide2d::overlap(pair.a, pair.transform_a, pair.b, pair.transform_b) ? 1 : 0;
    return overlapping;
  };
  result.spread = tune_spread(count_overlapping, case_count / 2, 16.0);
  place(result.spread);
  std::size_t overlapping = 0;
  for (auto& pair : result.cases) {
    pair.overlapping = collide2d::overlap(pair.a, pair.transform_a, pair.b, pair.transform_b);
    pair.gap = signed_gap(pair.a, pair.transform_a, pair.b, pair.transform_b);
    overlapping += pair.overlapping ? 1 : 0;
  }
  result.overlap_fraction = double(overlapping) / double(case_count);
  return result;
}

/// A shape placed in the world and a ray toward it: one input of a ray-cast benchmark.
template <class Shape>
struct RayCase {
  Shape shape;
  Transform transform;
  collide2d::Ray ray;
  double closest_approach = 0;  // smallest signed distance from the ray's points to the surface
  bool hit = false;             // our raycast() answer
};

template <class Shape>
struct RayCases {
  std::vector<RayCase<Shape>> cases;
  double spread = 0;        // how far beside the shape's centre the rays aim, at most (tuned)
  double hit_fraction = 0;  // fraction of rays we report hitting
};

/// `case_count` rays of length 6, starting 3 from the shape's origin in a random direction and
/// aimed beside it by an offset tuned so that half of them hit.
template <class Shape, class MakeShape>
RayCases<Shape> make_ray_cases(std::uint32_t seed, MakeShape make_shape) {
  RandomSource random(seed);
  struct Draw {
    Vec2 toward_origin;
    Real aim;
  };
  RayCases<Shape> result;
  std::vector<Draw> draws;
  for (std::size_t i = 0; i < case_count; ++i) {
    Shape shape = make_shape(random);
    const Vec2 position{random.uniform_real(-20, 20), random.uniform_real(-20, 20)};
    const Transform transform = Transform::from(position, random.angle());
    result.cases.push_back({std::move(shape), transform, {}, 0, false});
    draws.push_back({random.unit_vector(), random.uniform_real(-1, 1)});
  }
  auto place = [&](double spread) {
    for (std::size_t i = 0; i < case_count; ++i) {
      RayCase<Shape>& ray_case = result.cases[i];
      const Vec2 center = ray_case.transform.position;
      const Vec2 origin = center - Real(3) * draws[i].toward_origin;
      const Vec2 target = center + static_cast<Real>(spread * double(draws[i].aim)) * collide2d::left_perpendicular(draws[i].toward_origin);
      ray_case.ray = {origin, Real(6) * collide2d::normalize(target - origin), 1};
    }
  };
  auto count_hits = [&](double spread) {
    place(spread);
    std::size_t hits = 0;
    for (const auto& ray_case : result.cases) hits += collide2d::raycast(ray_case.shape, ray_case.transform, ray_case.ray) ? 1 : 0;
    return hits;
  };
  result.spread = tune_spread(count_hits, case_count / 2, 4.0);
  place(result.spread);
  std::size_t hits = 0;
  for (auto& ray_case : result.cases) {
    ray_case.hit = collide2d::raycast(ray_case.shape, ray_case.transform, ray_case.ray).has_value();
    hits += ray_case.hit ? 1 : 0;
    auto distance_at = [&](double t) {
      const Vec2 point = ray_case.ray.origin + static_cast<Real>(t) * ray_case.ray.translation;
      return double(collide2d::closest_point(ray_case.shape, ray_case.transform, point).signed_distance);
    };
    ray_case.closest_approach = convex_minimum(distance_at);
  }
  result.hit_fraction = double(hits) / double(case_count);
  return result;
}

/// A fixed shape A and a shape B translating toward it: one input of a shape-cast benchmark.
template <class ShapeA, class ShapeB>
struct ShapeCastCase {
  ShapeA a;
  Transform transform_a;
  ShapeB b;
  Transform transform_b;
  Vec2 translation_b;
  double smallest_gap = 0;  // smallest signed gap over the motion
  bool hit = false;         // our shape_cast() answer
  double time = 1;          // our time of first contact (1 when none)
};

/// Two shapes each following a sweep (translation and rotation): one input of a time-of-impact benchmark.
template <class ShapeA, class ShapeB>
struct TimeOfImpactCase {
  ShapeA a;
  collide2d::Sweep sweep_a;
  ShapeB b;
  collide2d::Sweep sweep_b;
  double smallest_gap = 0;  // smallest signed gap over the motion (sampled, then refined)
  bool hit = false;         // our time_of_impact() answer
  double time = 1;          // our time of first contact (1 when none)
};

template <class Case>
struct CastCases {
  std::vector<Case> cases;
  double spread = 0;        // how far beside A the motions aim, at most (tuned)
  double hit_fraction = 0;  // fraction of cases we report coming into contact
};

/// `case_count` shape casts: B starts 4 from A in a random direction, apart, and moves 1 to 1.5
/// times that distance toward a point beside A, at an offset tuned so that half of them hit.
template <class ShapeA, class ShapeB, class MakeA, class MakeB>
CastCases<ShapeCastCase<ShapeA, ShapeB>> make_shape_cast_cases(std::uint32_t seed, MakeA make_a, MakeB make_b) {
  RandomSource random(seed);
  struct Draw {
    Vec2 toward_a;
    Real aim;
    Real reach;
  };
  CastCases<ShapeCastCase<ShapeA, ShapeB>> result;
  std::vector<Draw> draws;
  for (std::size_t i = 0; i < case_count; ++i) {
    ShapeA a = make_a(random);
    ShapeB b = make_b(random);
    const Vec2 position{random.uniform_real(-20, 20), random.uniform_real(-20, 20)};
    const Transform transform_a = Transform::from(position, random.angle());
    const Vec2 toward_a = random.unit_vector();
    const Transform transform_b = Transform::from(transform_a.position - Real(4) * toward_a, random.angle());
    result.cases.push_back({std::move(a), transform_a, std::move(b), transform_b, {}, 0, false, 1});
    draws.push_back({toward_a, random.uniform_real(-1, 1), random.uniform_real(1, 1.5)});
  }
  auto place = [&](double spread) {
    for (std::size_t i = 0; i < case_count; ++i) {
      auto& cast = result.cases[i];
      const Vec2 target = cast.transform_a.position +
                          static_cast<Real>(spread * double(draws[i].aim)) * collide2d::left_perpendicular(draws[i].toward_a);
      cast.translation_b = draws[i].reach * (target - cast.transform_b.position);
    }
  };
  auto count_hits = [&](double spread) {
    place(spread);
    std::size_t hits = 0;
    for (const auto& cast : result.cases)
      hits += collide2d::shape_cast(cast.a, cast.transform_a, cast.b, cast.transform_b, cast.translation_b) ? 1 : 0;
    return hits;
  };
  result.spread = tune_spread(count_hits, case_count / 2, 8.0);
  place(result.spread);
  std::size_t hits = 0;
  for (auto& cast : result.cases) {
    const auto hit = collide2d::shape_cast(cast.a, cast.transform_a, cast.b, cast.transform_b, cast.translation_b);
    cast.hit = hit.has_value();
    cast.time = hit ? double(hit->time) : 1.0;
    hits += cast.hit ? 1 : 0;
    auto gap_at = [&](double t) {
      const Transform moved{cast.transform_b.position + static_cast<Real>(t) * cast.translation_b, cast.transform_b.rotation};
      return signed_gap(cast.a, cast.transform_a, cast.b, moved);
    };
    cast.smallest_gap = convex_minimum(gap_at);
  }
  result.hit_fraction = double(hits) / double(case_count);
  return result;
}

/// `case_count` sweeps: A drifts by up to 0.5 and turns by up to 1 radian; B starts 4 from A,
/// apart, turns by up to 1 radian and moves 1 to 1.5 times that distance toward a point beside A,
/// at an offset tuned so that about half of them come into contact. Both turn about their centroid
/// (polygons) or centre (circles).
template <class ShapeA, class ShapeB, class MakeA, class MakeB>
CastCases<TimeOfImpactCase<ShapeA, ShapeB>> make_time_of_impact_cases(std::uint32_t seed, MakeA make_a, MakeB make_b) {
  RandomSource random(seed);
  struct Draw {
    Vec2 toward_a;
    Real aim;
    Real reach;
  };
  auto center_of = [](const auto& shape) {
    if constexpr (std::is_same_v<std::decay_t<decltype(shape)>, Circle>) {
      return shape.center;
    } else {
      return shape.centroid();
    }
  };
  CastCases<TimeOfImpactCase<ShapeA, ShapeB>> result;
  std::vector<Draw> draws;
  for (std::size_t i = 0; i < case_count; ++i) {
    ShapeA a = make_a(random);
    ShapeB b = make_b(random);
    collide2d::Sweep sweep_a;
    sweep_a.local_center = center_of(a);
    sweep_a.center_start = {random.uniform_real(-20, 20), random.uniform_real(-20, 20)};
    sweep_a.center_end = sweep_a.center_start + Real(0.5) * random.in_unit_disc();
    sweep_a.angle_start = random.angle();
    sweep_a.angle_end = sweep_a.angle_start + random.uniform_real(-1, 1);
    const Vec2 toward_a = random.unit_vector();
    collide2d::Sweep sweep_b;
    sweep_b.local_center = center_of(b);
    sweep_b.center_start = sweep_a.center_start - Real(4) * toward_a;
    sweep_b.angle_start = random.angle();
    sweep_b.angle_end = sweep_b.angle_start + random.uniform_real(-1, 1);
    result.cases.push_back({std::move(a), sweep_a, std::move(b), sweep_b, 0, false, 1});
    draws.push_back({toward_a, random.uniform_real(-1, 1), random.uniform_real(1, 1.5)});
  }
  auto place = [&](double spread) {
    for (std::size_t i = 0; i < case_count; ++i) {
      auto& cast = result.cases[i];
      const Vec2 target = cast.sweep_a.center_start +
                          static_cast<Real>(spread * double(draws[i].aim)) * collide2d::left_perpendicular(draws[i].toward_a);
      cast.sweep_b.center_end = cast.sweep_b.center_start + draws[i].reach * (target - cast.sweep_b.center_start);
    }
  };
  auto count_hits = [&](double spread) {
    place(spread);
    std::size_t hits = 0;
    for (const auto& cast : result.cases) hits += collide2d::time_of_impact(cast.a, cast.sweep_a, cast.b, cast.sweep_b) ? 1 : 0;
    return hits;
  };
  result.spread = tune_spread(count_hits, case_count / 2, 8.0);
  place(result.spread);
  std::size_t hits = 0;
  for (auto& cast : result.cases) {
    const auto hit = collide2d::time_of_impact(cast.a, cast.sweep_a, cast.b, cast.sweep_b);
    cast.hit = hit.has_value();
    cast.time = hit ? double(hit->time) : 1.0;
    hits += cast.hit ? 1 : 0;
    // Rotation makes the gap non-convex in t: sample, then refine around the smallest sample.
    auto gap_at = [&](double t) {
      const auto t_real = static_cast<Real>(t);
      return signed_gap(cast.a, cast.sweep_a.at(t_real), cast.b, cast.sweep_b.at(t_real));
    };
    constexpr int samples = 200;
    int best_sample = 0;
    double best_gap = gap_at(0);
    for (int sample = 1; sample <= samples; ++sample) {
      const double gap = gap_at(double(sample) / samples);
      if (gap < best_gap) {
        best_gap = gap;
        best_sample = sample;
      }
    }
    const double low = std::max(0, best_sample - 1) / double(samples), high = std::min(samples, best_sample + 1) / double(samples);
    cast.smallest_gap = std::min(best_gap, convex_minimum(gap_at, low, high));
  }
  result.hit_fraction = double(hits) / double(case_count);
  return result;
}

/// Unit boxes (1 x 1, axis-aligned) at a constant density of 0.5 per unit area in a square, each
/// moving a little every frame (speed up to 0.05 per frame, bouncing off the square's sides).
class MovingBoxes {
 public:
  static constexpr Real half_extent = Real(0.5);
  static constexpr double density = 0.5;

  MovingBoxes(int count, std::uint32_t seed);
  /// Moves every box by its velocity for one frame.
  void advance();
  int size() const { return static_cast<int>(centers_.size()); }
  /// The box of body i this frame.
  collide2d::Aabb box(int i) const {
    return {centers_[i] - Vec2{half_extent, half_extent}, centers_[i] + Vec2{half_extent, half_extent}};
  }
  Vec2 center(int i) const { return centers_[i]; }
  /// How far body i moved in the last frame (its velocity).
  Vec2 displacement(int i) const { return velocities_[i]; }
  Real side() const { return side_; }

 private:
  std::vector<Vec2> centers_;
  std::vector<Vec2> velocities_;
  Real side_ = 0;
};

/// The number of pairs of boxes that overlap or touch, by an independent grid count: the reference
/// every broad phase is checked against.
std::size_t count_overlapping_pairs(const MovingBoxes& boxes);

/// True when two boxes overlap or touch (the rule every broad phase applies to the tight boxes).
inline bool boxes_overlap(const collide2d::Aabb& first, const collide2d::Aabb& second) { return first.overlaps(second); }

}  // namespace collide2d_bench
