// bench_narrow_phase.cpp — measures the pair queries on placed shape pairs: contact manifolds
// (collide), overlap, penetration, and GJK distance cold and warm-started, ours against Box2D 2.4.1
// (b2CollideCircles, b2CollidePolygons, b2CollidePolygonAndCircle, b2TestOverlap, b2Distance) and
// Chipmunk 7 (cpShapesCollide) on the same cases, with the count of cases where they disagree;
// and penetration with compounds, ours alone.
#include "bench_support.hpp"
#include "peers.hpp"

namespace collide2d_bench {
namespace {

/// One shape pair ("polygon8-polygon8") with its cases and the peers' copies of them.
template <class ShapeA, class ShapeB>
struct PairFamily {
  std::string name;
  std::shared_ptr<Lazy<PairCases<ShapeA, ShapeB>>> cases;
  std::shared_ptr<Lazy<std::unique_ptr<Box2dPairs<ShapeA, ShapeB>>>> box2d;  // null when Box2D cannot hold the shapes
  std::shared_ptr<Lazy<ChipmunkPairs>> chipmunk;
};

template <class ShapeA, class ShapeB, class MakeA, class MakeB>
PairFamily<ShapeA, ShapeB> make_family(std::string name, std::uint32_t seed, MakeA make_a, MakeB make_b, bool box2d_can_hold) {
  PairFamily<ShapeA, ShapeB> family;
  family.name = std::move(name);
  auto cases = make_lazy<PairCases<ShapeA, ShapeB>>([=] { return make_pair_cases<ShapeA, ShapeB>(seed, make_a, make_b); });
  family.cases = cases;
  if (box2d_can_hold) {
    family.box2d = make_lazy<std::unique_ptr<Box2dPairs<ShapeA, ShapeB>>>(
        [cases] { return std::make_unique<Box2dPairs<ShapeA, ShapeB>>(cases->get()); });
  }
  family.chipmunk = make_lazy<ChipmunkPairs>([cases] { return to_chipmunk_pairs(cases->get()); });
  return family;
}

void add_benchmark(const std::string& name, std::function<void(benchmark::State&)> body) {
  benchmark::RegisterBenchmark(name.c_str(), std::move(body))->MinTime(narrow_phase_min_time);
}

/// A peer's contact normal agrees with ours when within about 2.5 degrees.
bool normals_agree(collide2d::Vec2 ours, double x, double y) { return double(ours.x) * x + double(ours.y) * y > 0.999; }

template <class ShapeA, class ShapeB>
void register_collide(const PairFamily<ShapeA, ShapeB>& family) {
  auto cases = family.cases;
  add_benchmark(benchmark_name("collide", family.name, "ours"), [cases](benchmark::State& state) {
    const auto& set = cases->get();
    std::size_t touching = 0;
    for (const auto& pair : set.cases) touching += collide2d::collide(pair.a, pair.transform_a, pair.b, pair.transform_b).point_count > 0;
    time_cases(state, [&](std::size_t i) {
      const auto& pair = set.cases[i];
      return collide2d::collide(pair.a, pair.transform_a, pair.b, pair.transform_b);
    });
    state.counters["overlap_fraction"] = double(touching) / double(case_count);
    state.counters["spread"] = set.spread;
  });
  if (family.box2d) {
    auto box2d = family.box2d;
    for (const bool world_manifold : {false, true}) {
      // b2CollidePolygons alone gives a local manifold without separations; b2WorldManifold
      // turns it into world points and separations, what our collide() returns.
      const std::string library = world_manifold ? "box2d_world_manifold" : "box2d";
      add_benchmark(benchmark_name("collide", family.name, library), [cases, box2d, world_manifold](benchmark::State& state) {
        const auto& set = cases->get();
        const auto& peer = *box2d->get();
        Agreement agreement;
        std::size_t normal_mismatch = 0;
        for (std::size_t i = 0; i < case_count; ++i) {
          const auto& pair = set.cases[i];
          const collide2d::Manifold ours = collide2d::collide(pair.a, pair.transform_a, pair.b, pair.transform_b);
          b2Manifold manifold;
          box2d_collide(&manifold, peer.shapes_a[i], peer.transforms_a[i], peer.shapes_b[i], peer.transforms_b[i]);
          agreement.add(ours.point_count > 0, manifold.pointCount > 0, pair.gap);
          if (ours.point_count > 0 && manifold.pointCount > 0) {
            b2WorldManifold world;
            world.Initialize(&manifold, peer.transforms_a[i], peer.shapes_a[i].m_radius, peer.transforms_b[i], peer.shapes_b[i].m_radius);
            normal_mismatch += normals_agree(ours.normal, world.normal.x, world.normal.y) ? 0 : 1;
          }
        }
        if (world_manifold) {
          time_cases(state, [&](std::size_t i) {
            b2Manifold manifold;
            box2d_collide(&manifold, peer.shapes_a[i], peer.transforms_a[i], peer.shapes_b[i], peer.transforms_b[i]);
            b2WorldManifold world;
            world.Initialize(&manifold, peer.transforms_a[i], peer.shapes_a[i].m_radius, peer.transforms_b[i], peer.shapes_b[i].m_radius);
            return world;
          });
        } else {
          time_cases(state, [&](std::size_t i) {
            b2Manifold manifold;
            box2d_collide(&manifold, peer.shapes_a[i], peer.transforms_a[i], peer.shapes_b[i], peer.transforms_b[i]);
            return manifold;
          });
        }
        agreement.report(state);
        state.counters["normal_mismatch"] = double(normal_mismatch);
      });
    }
  }
  auto chipmunk = family.chipmunk;
  add_benchmark(benchmark_name("collide", family.name, "chipmunk"), [cases, chipmunk](benchmark::State& state) {
    const auto& set = cases->get();
    const auto& peer = chipmunk->get();
    Agreement agreement;
    std::size_t normal_mismatch = 0;
    const std::size_t warnings_before = chipmunk_warning_count();
    for (std::size_t i = 0; i < case_count; ++i) {
      const auto& pair = set.cases[i];
      const collide2d::Manifold ours = collide2d::collide(pair.a, pair.transform_a, pair.b, pair.transform_b);
      const cpContactPointSet contacts = cpShapesCollide(peer.shapes_a[i].get(), peer.shapes_b[i].get());
      agreement.add(ours.point_count > 0, contacts.count > 0, pair.gap);
      if (ours.point_count > 0 && contacts.count > 0) normal_mismatch += normals_agree(ours.normal, contacts.normal.x, contacts.normal.y) ? 0 : 1;
    }
    // Cases (of case_count) in which Chipmunk warned, e.g. that its EPA ran 20 iterations.
    const std::size_t warnings = chipmunk_warning_count() - warnings_before;
    time_cases(state, [&](std::size_t i) { return cpShapesCollide(peer.shapes_a[i].get(), peer.shapes_b[i].get()); });
    agreement.report(state);
    state.counters["chipmunk_warnings"] = double(warnings);
    state.counters["normal_mismatch"] = double(normal_mismatch);
  });
}

template <class ShapeA, class ShapeB>
void register_overlap_and_penetration(const PairFamily<ShapeA, ShapeB>& family) {
  auto cases = family.cases;
  add_benchmark(benchmark_name("overlap", family.name, "ours"), [cases](benchmark::State& state) {
    const auto& set = cases->get();
    time_cases(state, [&](std::size_t i) {
      const auto& pair = set.cases[i];
      return collide2d::overlap(pair.a, pair.transform_a, pair.b, pair.transform_b);
    });
    state.counters["overlap_fraction"] = set.overlap_fraction;
  });
  if (family.box2d) {
    auto box2d = family.box2d;
    add_benchmark(benchmark_name("overlap", family.name, "box2d"), [cases, box2d](benchmark::State& state) {
      const auto& set = cases->get();
      const auto& peer = *box2d->get();
      auto box2d_overlap = [&](std::size_t i) {
        return b2TestOverlap(&peer.shapes_a[i], 0, &peer.shapes_b[i], 0, peer.transforms_a[i], peer.transforms_b[i]);
      };
      Agreement agreement;
      for (std::size_t i = 0; i < case_count; ++i) agreement.add(set.cases[i].overlapping, box2d_overlap(i), set.cases[i].gap);
      time_cases(state, box2d_overlap);
      agreement.report(state);
    });
  }
  add_benchmark(benchmark_name("penetration", family.name, "ours"), [cases](benchmark::State& state) {
    const auto& set = cases->get();
    time_cases(state, [&](std::size_t i) {
      const auto& pair = set.cases[i];
      return collide2d::penetration(pair.a, pair.transform_a, pair.b, pair.transform_b);
    });
    state.counters["overlap_fraction"] = set.overlap_fraction;
  });
}

/// Warm-started distance alternates each case between two poses of B (moved by 0.01 and turned by
/// up to 0.01 rad) on its successive visits, so each query starts from the simplex of the other
/// pose, as from the previous frame in a simulation: one flag per case says which pose comes next.
class WarmPoses {
 public:
  bool next_is_moved(std::size_t index) { return (moved_[index] ^= 1) != 0; }

 private:
  std::vector<unsigned char> moved_ = std::vector<unsigned char>(case_count, 0);
};

template <class ShapeA, class ShapeB>
void register_distance(const PairFamily<ShapeA, ShapeB>& family) {
  auto cases = family.cases;
  add_benchmark(benchmark_name("distance_cold", family.name, "ours"), [cases](benchmark::State& state) {
    const auto& set = cases->get();
    time_cases(state, [&](std::size_t i) {
      const auto& pair = set.cases[i];
      return collide2d::distance(pair.a, pair.transform_a, pair.b, pair.transform_b);
    });
    state.counters["overlap_fraction"] = set.overlap_fraction;
  });
  add_benchmark(benchmark_name("distance_warm", family.name, "ours"), [cases](benchmark::State& state) {
    const auto& set = cases->get();
    std::vector<collide2d::SimplexCache> caches(case_count);
    CaseOrder order;
    WarmPoses poses;
    for (auto _ : state) {
      const std::size_t i = order.next();
      const auto& pair = set.cases[i];
      const Transform& transform_b = poses.next_is_moved(i) ? pair.moved_transform_b : pair.transform_b;
      auto result = collide2d::distance(pair.a, pair.transform_a, pair.b, transform_b, {.cache = &caches[i]});
      benchmark::DoNotOptimize(result);
    }
    state.counters["cases"] = double(case_count);
  });
  if (!family.box2d) return;
  auto box2d = family.box2d;
  add_benchmark(benchmark_name("distance_cold", family.name, "box2d"), [cases, box2d](benchmark::State& state) {
    const auto& set = cases->get();
    const auto& peer = *box2d->get();
    auto box2d_distance = [&](std::size_t i) {
      b2SimplexCache cache;
      cache.count = 0;
      b2DistanceOutput output;
      b2Distance(&output, &cache, &peer.distance_inputs[i]);
      return output;
    };
    Agreement agreement;
    std::size_t distance_mismatch = 0;
    double ours_searches = 0, box2d_searches = 0;  // support searches per query (ours: GJK's start is one)
    for (std::size_t i = 0; i < case_count; ++i) {
      const auto& pair = set.cases[i];
      const collide2d::DistanceResult ours = collide2d::distance(pair.a, pair.transform_a, pair.b, pair.transform_b);
      const b2DistanceOutput output = box2d_distance(i);
      ours_searches += ours.iterations;
      box2d_searches += output.iterations;
      agreement.add(ours.overlapping, output.distance == 0, pair.gap);
      if (std::abs(double(ours.distance) - double(output.distance)) > 1e-3) ++distance_mismatch;
    }
    time_cases(state, box2d_distance);
    agreement.report(state);
    state.counters["distance_mismatch"] = double(distance_mismatch);
    state.counters["ours_support_searches"] = ours_searches / case_count;
    state.counters["box2d_support_searches"] = box2d_searches / case_count;
  });
  add_benchmark(benchmark_name("distance_warm", family.name, "box2d"), [box2d](benchmark::State& state) {
    const auto& peer = *box2d->get();
    std::vector<b2SimplexCache> caches(case_count);
    for (auto& cache : caches) cache.count = 0;
    CaseOrder order;
    WarmPoses poses;
    for (auto _ : state) {
      const std::size_t i = order.next();
      const b2DistanceInput& input = poses.next_is_moved(i) ? peer.moved_distance_inputs[i] : peer.distance_inputs[i];
      b2DistanceOutput output;
      b2Distance(&output, &caches[i], &input);
      benchmark::DoNotOptimize(output);
    }
    state.counters["cases"] = double(case_count);
  });
}

template <class ShapeA, class ShapeB>
void register_family(const PairFamily<ShapeA, ShapeB>& family) {
  register_collide(family);
  register_overlap_and_penetration(family);
  register_distance(family);
}

auto polygon_maker(int vertex_count) {
  return [vertex_count](RandomSource& random) { return random_polygon(random, vertex_count, box2d_polygon_skin); };
}

Polygon random_box(RandomSource& random) {
  const Real half_width = random.uniform_real(0.25, 1), half_height = random.uniform_real(0.25, 1);
  return collide2d::make_box(half_width, half_height, {}, box2d_polygon_skin).value();
}

/// Compound pairs: an L (two boxes), a comb (six) or a star (five crossing boxes) against a box, a
/// circle, a capsule or one of the three, placed to overlap (no peer answers these).
struct CompoundCases {
  std::vector<collide2d::Shape> shapes;  // the three compounds first, then the convex partners
  struct Pair {
    int a, b;
    collide2d::Transform transform_a, transform_b;
  };
  std::vector<Pair> cases;
};

CompoundCases make_compound_cases() {
  using collide2d::CompoundChild;
  using collide2d::Vec2;
  auto box = [](double half_width, double half_height, Vec2 at, double angle) {
    return CompoundChild{collide2d::make_box(static_cast<Real>(half_width), static_cast<Real>(half_height)).value(),
                         collide2d::Transform::from(at, static_cast<Real>(angle))};
  };
  CompoundCases set;
  set.shapes.push_back(collide2d::make_compound({box(2, 0.5, {0, 0}, 0), box(0.5, 2, {-1.5, 2.5}, 0)}).value());
  std::vector<CompoundChild> comb{box(3, 0.4, {0, 0}, 0)};
  for (int tooth = 0; tooth < 5; ++tooth) comb.push_back(box(0.25, 1.2, {Real(-2.6 + 1.3 * tooth), Real(1.6)}, 0));
  set.shapes.push_back(collide2d::make_compound(std::move(comb)).value());
  std::vector<CompoundChild> star;
  for (int arm = 0; arm < 5; ++arm) star.push_back(box(2, 0.3, {0, 0}, arm * std::numbers::pi / 5));
  set.shapes.push_back(collide2d::make_compound(std::move(star)).value());
  set.shapes.push_back(collide2d::make_box(Real(0.7), Real(0.4)).value());
  set.shapes.push_back(Circle{{0, 0}, Real(0.6)});
  set.shapes.push_back(collide2d::Capsule{{Real(-0.8), 0}, {Real(0.8), 0}, Real(0.3)});
  RandomSource random(107);
  while (set.cases.size() < case_count) {
    const int a = static_cast<int>(random.uniform_real(0, 3)), b = std::min(5, static_cast<int>(random.uniform_real(0, 6)));
    const Real angle_a = random.angle(), angle_b = random.angle();
    const Vec2 offset{random.uniform_real(-2, 2), random.uniform_real(-2, 2)};
    const auto transform_a = collide2d::Transform::from({}, angle_a), transform_b = collide2d::Transform::from(offset, angle_b);
    if (collide2d::overlap(set.shapes[a], transform_a, set.shapes[b], transform_b)) set.cases.push_back({a, b, transform_a, transform_b});
  }
  return set;
}

void register_compound_benchmarks() {
  auto cases = make_lazy<CompoundCases>(make_compound_cases);
  add_benchmark(benchmark_name("penetration", "compound-mixed", "ours"), [cases](benchmark::State& state) {
    const CompoundCases& set = cases->get();
    time_cases(state, [&](std::size_t i) {
      const CompoundCases::Pair& pair = set.cases[i];
      return collide2d::penetration(set.shapes[pair.a], pair.transform_a, set.shapes[pair.b], pair.transform_b);
    });
  });
}

}  // namespace

void register_narrow_phase_benchmarks() {
  register_family(make_family<Circle, Circle>("circle-circle", 101, random_circle, random_circle, true));
  register_family(make_family<Polygon, Polygon>("box-box", 102, random_box, random_box, true));
  register_family(make_family<Polygon, Polygon>("polygon4-polygon4", 103, polygon_maker(4), polygon_maker(4), true));
  register_family(make_family<Polygon, Polygon>("polygon8-polygon8", 104, polygon_maker(8), polygon_maker(8), true));
  register_family(make_family<Polygon, Circle>("polygon8-circle", 105, polygon_maker(8), random_circle, true));
  register_family(make_family<Polygon, Polygon>("polygon64-polygon64", 106, polygon_maker(64), polygon_maker(64), false));
  register_compound_benchmarks();
}

}  // namespace collide2d_bench
