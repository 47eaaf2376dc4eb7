// test_properties.cpp — symmetries every query must respect, on random pairs of every kind.
//
//   - Swapping A and B flips the normal and keeps depth, distance and the overlap decision
//     (penetration, distance, collide).
//   - One rigid transform applied to both shapes changes no decision, depth or distance.
//   - A pair moved far from the origin (max_offset: 1e3 in float, 1e6 in double) gives the same
//     answers as near it.
//
// Tolerances use the band of test_differential.cpp:
//     band = K * real_epsilon * (size_a + size_b + |position_a| + |position_b|),   K = 64,
// taking the larger scale of the two configurations compared; decisions are compared only
// where the depth or distance is outside the band. collide() may choose a different reference
// face for the swapped pair (its hysteresis keeps A's face unless B's separates more by 16 pair
// tolerances), so its deepest separations are compared within that hysteresis.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

#include "random_shapes.hpp"

namespace {

using namespace collide2d;
using random_shapes::Body;
using random_shapes::Check;
using random_shapes::Pair;

using random_shapes::K;
using random_shapes::manifold_K;

/// What the queries say about one configuration of a pair.
struct Answers {
  std::optional<Penetration> pen;
  DistanceResult dist;
  Manifold manifold;
  bool overlapping = false;
  double signed_distance = 0;  // -depth or distance
  double deepest_separation = 0;
};

Answers ask(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb) {
  Answers answers;
  answers.pen = penetration(a, ta, b, tb);
  answers.dist = distance(a, ta, b, tb);
  std::vector<ChildManifold> manifolds;
  contact_manifolds(a, ta, b, tb, manifolds);
  answers.manifold = manifolds.empty() ? Manifold{} : manifolds[0].manifold;
  answers.overlapping = overlap(a, ta, b, tb);
  answers.signed_distance = answers.pen ? -static_cast<double>(answers.pen->depth) : static_cast<double>(answers.dist.distance);
  answers.deepest_separation = std::numeric_limits<double>::max();
  for (int i = 0; i < answers.manifold.point_count; ++i) {
    answers.deepest_separation = std::min(answers.deepest_separation, static_cast<double>(answers.manifold.points[i].separation));
  }
  return answers;
}

std::string describe_pair(int index, const Pair& pair, const Answers& first, const Answers& second) {
  char head[200];
  std::snprintf(head, sizeof head, "pair %d: signed distance %.9g vs %.9g, overlap %d vs %d, manifold points %d vs %d\n  A ", index,
                first.signed_distance, second.signed_distance, first.overlapping, second.overlapping, first.manifold.point_count,
                second.manifold.point_count);
  return head + random_shapes::describe(pair.a) + "\n  B " + random_shapes::describe(pair.b);
}

/// The gap between the shapes' projections on the unit direction n (A to B), radii included:
/// never more than their distance, and equal to it along the true normal.
double gap_along(const Shape& a, const Transform& ta, const Shape& b, const Transform& tb, Vec2 n) {
  auto reach = [](const Shape& shape, const Transform& t, Vec2 direction) {
    return random_shapes::visit_convex(
        [&](const auto& s) {
          const Vec2 p = transformed_support(s, t, direction);
          return static_cast<double>(p.x) * static_cast<double>(direction.x) + static_cast<double>(p.y) * static_cast<double>(direction.y) +
                 static_cast<double>(s.rounding_radius());
        },
        shape);
  };
  return -reach(b, tb, -n) - reach(a, ta, n);
}

/// Compares the answers for two configurations of the same pair that must agree; `flip` is -1
/// when the second has A and B swapped (normals reversed), `rotation` turns the first's world
/// normals into the second's.
struct Agreement {
  Check decision{"overlap/penetration/distance/collide decisions", K};
  Check depth{"penetration depth", K};
  Check gap{"distance", K};
  Check pen_normal{"penetration normal (or an equally good one)", K};
  Check dist_normal{"distance normal: gap along it = distance", K};
  Check manifold{"collide deepest separation", manifold_K};
  int ties = 0;  // overlapping pairs whose two normals differ but both push out

  void compare(int index, const Pair& pair, const Answers& first, const Answers& second, double scale, Real flip, Rot rotation,
               const Shape& a2, const Transform& ta2, const Shape& b2, const Transform& tb2) {
    const double band = K * static_cast<double>(real_epsilon) * scale;
    auto context = [&] { return describe_pair(index, pair, first, second); };
    const double sd = first.signed_distance;
    const bool decisive = std::abs(sd) > band && std::abs(second.signed_distance) > band;
    if (decisive) {
      decision.require(first.overlapping == second.overlapping && first.pen.has_value() == second.pen.has_value() &&
                           first.dist.overlapping == second.dist.overlapping &&
                           (first.manifold.point_count > 0) == (second.manifold.point_count > 0),
                       context);
    }
    gap.record(std::abs(static_cast<double>(first.dist.distance) - static_cast<double>(second.dist.distance)), scale, context);
    if (first.pen && second.pen) {
      depth.record(std::abs(static_cast<double>(first.pen->depth) - static_cast<double>(second.pen->depth)), scale, context);
      const Vec2 expected = flip * rotate(rotation, first.pen->normal);
      if (sd < -band && dot(expected, second.pen->normal) < Real(0.999)) {
        // Two minimum directions (a tie): the second normal must push out as well as the first.
        ++ties;
        const Vec2 push = flip * second.pen->depth * second.pen->normal;  // moves the second configuration's B
        const Transform moved{tb2.position + push, tb2.rotation};
        const std::optional<Penetration> again = penetration(a2, ta2, b2, moved);
        pen_normal.record(again ? static_cast<double>(again->depth) : 0.0, scale, context);
      } else {
        pen_normal.record(0, scale, context);
      }
    }
    if (!second.dist.overlapping) {
      // GJK stops when the distance is right within tolerance; the normal may then be off by
      // about sqrt(tolerance / distance), so it is checked for what it must do: the shapes are
      // apart by the distance along it (their projections on it leave that gap, within the band).
      const double along = gap_along(a2, ta2, b2, tb2, second.dist.normal);
      dist_normal.record(std::max(static_cast<double>(second.dist.distance) - along, 0.0), scale, context);
    }
    if (first.manifold.point_count > 0 && second.manifold.point_count > 0) {
      manifold.record(std::abs(first.deepest_separation - second.deepest_separation), scale, context);
    }
  }

  void report(const char* title, int pairs) {
    std::printf("checked %d pairs for %s (%d overlapping pairs with a tie of normals)\n", pairs, title, ties);
    for (Check* check : {&decision, &depth, &gap, &pen_normal, &dist_normal, &manifold}) {
      check->print();
      for (const std::string& message : check->messages()) ADD_FAILURE() << check->name() << " failed on " << message;
      EXPECT_EQ(check->failures(), 0) << check->name();
    }
  }
};

TEST(Properties, SwappingShapesFlipsTheNormal) {
  constexpr int pair_count = 20000;
  random_shapes::Generator generator(0x5eed'9a0b'0001ULL);
  Agreement agreement;
  int manifold_normal_differs = 0;
  for (int index = 0; index < pair_count; ++index) {
    const Pair pair = generator.mixed_pair();
    const Answers forward = ask(pair.a.shape, pair.a.transform, pair.b.shape, pair.b.transform);
    const Answers swapped = ask(pair.b.shape, pair.b.transform, pair.a.shape, pair.a.transform);
    agreement.compare(index, pair, forward, swapped, random_shapes::pair_scale(pair), Real(-1), Rot{}, pair.b.shape, pair.b.transform,
                      pair.a.shape, pair.a.transform);
    if (forward.manifold.point_count > 0 && swapped.manifold.point_count > 0 &&
        dot(forward.manifold.normal, swapped.manifold.normal) > Real(-0.999)) {
      ++manifold_normal_differs;
    }
  }
  agreement.report("swapping A and B", pair_count);
  std::printf("  (%d manifolds chose a different reference face when swapped)\n", manifold_normal_differs);
}

TEST(Properties, RigidTransformOfBothChangesNothing) {
  constexpr int pair_count = 20000;
  random_shapes::Generator generator(0x5eed'9a0b'0002ULL);
  Agreement agreement;
  for (int index = 0; index < pair_count; ++index) {
    const Pair pair = generator.mixed_pair();
    const Transform motion = generator.pose();
    const Transform ta = compose(motion, pair.a.transform), tb = compose(motion, pair.b.transform);
    const Answers before = ask(pair.a.shape, pair.a.transform, pair.b.shape, pair.b.transform);
    const Answers after = ask(pair.a.shape, ta, pair.b.shape, tb);
    const double scale = std::max(random_shapes::pair_scale(pair), random_shapes::pair_scale(pair.a, ta, pair.b, tb));
    agreement.compare(index, pair, before, after, scale, Real(1), motion.rotation, pair.a.shape, ta, pair.b.shape, tb);
  }
  agreement.report("one rigid transform applied to both", pair_count);
}

TEST(Properties, FarFromTheOriginWorksAsNearIt) {
  constexpr int pair_count = 20000;
  random_shapes::Generator generator(0x5eed'9a0b'0003ULL);
  Agreement agreement;
  for (int index = 0; index < pair_count; ++index) {
    const Pair pair = generator.mixed_pair(Real(1));  // A within 1 of the origin
    const Vec2 far = random_shapes::max_offset * generator.direction();
    const Transform ta{pair.a.transform.position + far, pair.a.transform.rotation};
    const Transform tb{pair.b.transform.position + far, pair.b.transform.rotation};
    const Answers near = ask(pair.a.shape, pair.a.transform, pair.b.shape, pair.b.transform);
    const Answers away = ask(pair.a.shape, ta, pair.b.shape, tb);
    const double scale = std::max(random_shapes::pair_scale(pair), random_shapes::pair_scale(pair.a, ta, pair.b, tb));
    agreement.compare(index, pair, near, away, scale, Real(1), Rot{}, pair.a.shape, ta, pair.b.shape, tb);
  }
  agreement.report("far from the origin (max_offset) vs near it", pair_count);
}

}  // namespace
