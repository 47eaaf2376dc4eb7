// bench_casts.cpp — measures ray casts, shape casts (translation) and time of impact (translation
// and rotation): ours against Box2D 2.4.1 (b2PolygonShape::RayCast, b2CircleShape::RayCast,
// b2ShapeCast, b2TimeOfImpact) and Chipmunk 7 (cpShapeSegmentQuery) on the same cases, with the
// count of cases where they disagree on hit or miss.
#include "bench_support.hpp"
#include "peers.hpp"

namespace collide2d_bench {
namespace {

void add_benchmark(const std::string& name, std::function<void(benchmark::State&)> body) {
  benchmark::RegisterBenchmark(name.c_str(), std::move(body))->MinTime(narrow_phase_min_time);
}

// ---- ray casts ---------------------------------------------------------------------------------

/// Box2D's copies of the ray cases: shapes, transforms and ray inputs.
template <class Shape>
struct Box2dRays {
  std::vector<Box2dShape<Shape>> shapes;
  std::vector<b2Transform> transforms;
  std::vector<b2RayCastInput> rays;
  explicit Box2dRays(const RayCases<Shape>& set) {
    for (const auto& ray_case : set.cases) {
      shapes.push_back(to_box2d(ray_case.shape));
      transforms.push_back(to_box2d(ray_case.transform));
      b2RayCastInput input;
      input.p1 = to_box2d(ray_case.ray.origin);
      input.p2 = to_box2d(ray_case.ray.origin + ray_case.ray.translation);
      input.maxFraction = ray_case.ray.max_fraction;
      rays.push_back(input);
    }
  }
};

template <class Shape>
void register_raycast(const std::string& name, std::uint32_t seed, std::function<Shape(RandomSource&)> make_shape, bool box2d_can_hold) {
  auto cases = make_lazy<RayCases<Shape>>([=] { return make_ray_cases<Shape>(seed, make_shape); });
  add_benchmark(benchmark_name("raycast", name, "ours"), [cases](benchmark::State& state) {
    const auto& set = cases->get();
    time_cases(state, [&](std::size_t i) {
      const auto& ray_case = set.cases[i];
      return collide2d::raycast(ray_case.shape, ray_case.transform, ray_case.ray);
    });
    state.counters["hit_fraction"] = set.hit_fraction;
    state.counters["spread"] = set.spread;
  });
  if (box2d_can_hold) {
    add_benchmark(benchmark_name("raycast", name, "box2d"), [cases](benchmark::State& state) {
      const auto& set = cases->get();
      const Box2dRays<Shape> peer(set);
      auto box2d_raycast = [&](std::size_t i) {
        b2RayCastOutput output;
        output.fraction = -1;
        peer.shapes[i].RayCast(&output, peer.rays[i], peer.transforms[i], 0);
        return output;
      };
      Agreement agreement;
      std::size_t fraction_mismatch = 0;
      for (std::size_t i = 0; i < case_count; ++i) {
        const auto& ray_case = set.cases[i];
        b2RayCastOutput output;
        const bool hit = peer.shapes[i].RayCast(&output, peer.rays[i], peer.transforms[i], 0);
        agreement.add(ray_case.hit, hit, ray_case.closest_approach);
        const auto ours = collide2d::raycast(ray_case.shape, ray_case.transform, ray_case.ray);
        if (ours && hit && std::abs(double(ours->fraction) - double(output.fraction)) > 1e-4) ++fraction_mismatch;
      }
      time_cases(state, box2d_raycast);
      agreement.report(state);
      state.counters["fraction_mismatch"] = double(fraction_mismatch);
    });
  }
  add_benchmark(benchmark_name("raycast", name, "chipmunk"), [cases](benchmark::State& state) {
    const auto& set = cases->get();
    std::vector<ChipmunkShape> shapes;
    std::vector<std::pair<cpVect, cpVect>> segments;
    shapes.reserve(case_count);
    for (const auto& ray_case : set.cases) {
      shapes.emplace_back(ray_case.shape, ray_case.transform);
      segments.emplace_back(to_chipmunk(ray_case.ray.origin), to_chipmunk(ray_case.ray.origin + ray_case.ray.translation));
    }
    auto chipmunk_raycast = [&](std::size_t i) {
      cpSegmentQueryInfo info;
      cpShapeSegmentQuery(shapes[i].get(), segments[i].first, segments[i].second, 0, &info);
      return info;
    };
    Agreement agreement;
    std::size_t fraction_mismatch = 0;
    for (std::size_t i = 0; i < case_count; ++i) {
      const auto& ray_case = set.cases[i];
      cpSegmentQueryInfo info;
      const bool hit = cpShapeSegmentQuery(shapes[i].get(), segments[i].first, segments[i].second, 0, &info);
      agreement.add(ray_case.hit, hit, ray_case.closest_approach);
      const auto ours = collide2d::raycast(ray_case.shape, ray_case.transform, ray_case.ray);
      if (ours && hit && std::abs(double(ours->fraction) - info.alpha) > 1e-4) ++fraction_mismatch;
    }
    time_cases(state, chipmunk_raycast);
    agreement.report(state);
    state.counters["fraction_mismatch"] = double(fraction_mismatch);
  });
}

// ---- shape casts and time of impact -------------------------------------------------------------

/// Box2D shapes and distance proxies for a set of cast cases (proxies point into the shapes, which
/// stay where they are: the object is built in place and never copied).
template <class ShapeA, class ShapeB>
struct Box2dCastShapes {
  std::vector<Box2dShape<ShapeA>> shapes_a;
  std::vector<Box2dShape<ShapeB>> shapes_b;
  std::vector<b2DistanceProxy> proxies_a, proxies_b;
  template <class Cases>
  explicit Box2dCastShapes(const Cases& set) {
    shapes_a.reserve(case_count);
    shapes_b.reserve(case_count);
    for (const auto& cast : set.cases) {
      shapes_a.push_back(to_box2d(cast.a));
      shapes_b.push_back(to_box2d(cast.b));
    }
    for (std::size_t i = 0; i < case_count; ++i) {
      proxies_a.emplace_back();
      proxies_a.back().Set(&shapes_a[i], 0);
      proxies_b.emplace_back();
      proxies_b.back().Set(&shapes_b[i], 0);
    }
  }
  Box2dCastShapes(const Box2dCastShapes&) = delete;
  Box2dCastShapes& operator=(const Box2dCastShapes&) = delete;
};

/// Accumulates |our time - the peer's time| over the cases where both report contact.
struct TimeDifference {
  double total = 0;
  std::size_t count = 0;
  void add(double ours, double peer) {
    total += std::abs(ours - peer);
    ++count;
  }
  void report(benchmark::State& state) const { state.counters["mean_time_difference"] = count > 0 ? total / double(count) : 0.0; }
};

template <class ShapeA, class ShapeB>
void register_shape_cast(const std::string& name, std::uint32_t seed, std::function<ShapeA(RandomSource&)> make_a,
                         std::function<ShapeB(RandomSource&)> make_b, bool box2d_can_hold) {
  using Cases = CastCases<ShapeCastCase<ShapeA, ShapeB>>;
  auto cases = make_lazy<Cases>([=] { return make_shape_cast_cases<ShapeA, ShapeB>(seed, make_a, make_b); });
  add_benchmark(benchmark_name("shape_cast", name, "ours"), [cases](benchmark::State& state) {
    const auto& set = cases->get();
    time_cases(state, [&](std::size_t i) {
      const auto& cast = set.cases[i];
      return collide2d::shape_cast(cast.a, cast.transform_a, cast.b, cast.transform_b, cast.translation_b);
    });
    state.counters["hit_fraction"] = set.hit_fraction;
    state.counters["spread"] = set.spread;
  });
  if (!box2d_can_hold) return;
  add_benchmark(benchmark_name("shape_cast", name, "box2d"), [cases](benchmark::State& state) {
    const auto& set = cases->get();
    const Box2dCastShapes<ShapeA, ShapeB> shapes(set);
    std::vector<b2ShapeCastInput> inputs;
    for (std::size_t i = 0; i < case_count; ++i) {
      const auto& cast = set.cases[i];
      b2ShapeCastInput input;
      input.proxyA = shapes.proxies_a[i];
      input.proxyB = shapes.proxies_b[i];
      input.transformA = to_box2d(cast.transform_a);
      input.transformB = to_box2d(cast.transform_b);
      input.translationB = to_box2d(cast.translation_b);
      inputs.push_back(input);
    }
    auto box2d_shape_cast = [&](std::size_t i) {
      b2ShapeCastOutput output;
      output.lambda = b2ShapeCast(&output, &inputs[i]) ? output.lambda : 1.0f;
      return output;
    };
    Agreement agreement;
    TimeDifference time_difference;
    for (std::size_t i = 0; i < case_count; ++i) {
      const auto& cast = set.cases[i];
      b2ShapeCastOutput output;
      const bool hit = b2ShapeCast(&output, &inputs[i]);
      agreement.add(cast.hit, hit, cast.smallest_gap);
      if (cast.hit && hit) time_difference.add(cast.time, double(output.lambda));
    }
    time_cases(state, box2d_shape_cast);
    agreement.report(state);
    time_difference.report(state);
  });
}

template <class ShapeA, class ShapeB>
void register_time_of_impact(const std::string& name, std::uint32_t seed, std::function<ShapeA(RandomSource&)> make_a,
                             std::function<ShapeB(RandomSource&)> make_b, bool box2d_can_hold) {
  using Cases = CastCases<TimeOfImpactCase<ShapeA, ShapeB>>;
  auto cases = make_lazy<Cases>([=] { return make_time_of_impact_cases<ShapeA, ShapeB>(seed, make_a, make_b); });
  add_benchmark(benchmark_name("time_of_impact", name, "ours"), [cases](benchmark::State& state) {
    const auto& set = cases->get();
    time_cases(state, [&](std::size_t i) {
      const auto& cast = set.cases[i];
      return collide2d::time_of_impact(cast.a, cast.sweep_a, cast.b, cast.sweep_b);
    });
    state.counters["hit_fraction"] = set.hit_fraction;
    state.counters["spread"] = set.spread;
  });
  if (!box2d_can_hold) return;
  add_benchmark(benchmark_name("time_of_impact", name, "box2d"), [cases](benchmark::State& state) {
    const auto& set = cases->get();
    const Box2dCastShapes<ShapeA, ShapeB> shapes(set);
    std::vector<b2TOIInput> inputs;
    for (std::size_t i = 0; i < case_count; ++i) {
      const auto& cast = set.cases[i];
      b2TOIInput input;
      input.proxyA = shapes.proxies_a[i];
      input.proxyB = shapes.proxies_b[i];
      input.sweepA = to_box2d(cast.sweep_a);
      input.sweepB = to_box2d(cast.sweep_b);
      input.tMax = 1;
      inputs.push_back(input);
    }
    auto box2d_time_of_impact = [&](std::size_t i) {
      b2TOIOutput output;
      b2TimeOfImpact(&output, &inputs[i]);
      return output;
    };
    Agreement agreement;
    TimeDifference time_difference;
    std::size_t failed = 0;
    for (std::size_t i = 0; i < case_count; ++i) {
      const auto& cast = set.cases[i];
      const b2TOIOutput output = box2d_time_of_impact(i);
      const bool hit = output.state == b2TOIOutput::e_touching || output.state == b2TOIOutput::e_overlapped;
      failed += output.state == b2TOIOutput::e_failed ? 1 : 0;
      agreement.add(cast.hit, hit, cast.smallest_gap);
      if (cast.hit && hit) time_difference.add(cast.time, double(output.t));
    }
    time_cases(state, box2d_time_of_impact);
    agreement.report(state);
    time_difference.report(state);
    state.counters["box2d_failed"] = double(failed);
  });
}

std::function<Polygon(RandomSource&)> polygon_maker(int vertex_count, Real rounding_radius) {
  return [vertex_count, rounding_radius](RandomSource& random) { return random_polygon(random, vertex_count, rounding_radius); };
}

Polygon random_sharp_box(RandomSource& random) {
  const Real half_width = random.uniform_real(0.25, 1), half_height = random.uniform_real(0.25, 1);
  return collide2d::make_box(half_width, half_height).value();
}

}  // namespace

void register_cast_benchmarks() {
  // Box2D's ray casts ignore the polygon skin, so the ray-cast polygons have none, for every library.
  register_raycast<Circle>("circle", 201, random_circle, true);
  register_raycast<Polygon>("box", 202, random_sharp_box, true);
  register_raycast<Polygon>("polygon4", 203, polygon_maker(4, 0), true);
  register_raycast<Polygon>("polygon8", 204, polygon_maker(8, 0), true);
  register_raycast<Polygon>("polygon64", 205, polygon_maker(64, 0), false);

  const auto rounded4 = polygon_maker(4, box2d_polygon_skin), rounded8 = polygon_maker(8, box2d_polygon_skin);
  const auto rounded64 = polygon_maker(64, box2d_polygon_skin);
  register_shape_cast<Polygon, Polygon>("polygon4-polygon4", 301, rounded4, rounded4, true);
  register_shape_cast<Polygon, Polygon>("polygon8-polygon8", 302, rounded8, rounded8, true);
  register_shape_cast<Polygon, Circle>("polygon8-circle", 303, rounded8, random_circle, true);
  register_shape_cast<Polygon, Polygon>("polygon64-polygon64", 304, rounded64, rounded64, false);

  register_time_of_impact<Polygon, Polygon>("polygon4-polygon4", 401, rounded4, rounded4, true);
  register_time_of_impact<Polygon, Polygon>("polygon8-polygon8", 402, rounded8, rounded8, true);
  register_time_of_impact<Polygon, Circle>("polygon8-circle", 403, rounded8, random_circle, true);
  register_time_of_impact<Polygon, Polygon>("polygon64-polygon64", 404, rounded64, rounded64, false);
}

}  // namespace collide2d_bench
