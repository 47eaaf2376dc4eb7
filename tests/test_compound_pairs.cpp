// test_compound_pairs.cpp — concave shapes against concave shapes: contacts are never lost, the
// penetration frees B from the whole compound, and every query agrees on touching.
//
// Oracle: the L outline is the union of two rectangles, so an L against an L is four rectangle
// pairs. The separating-axis test on two rectangles, written here on its own in long double,
// gives each rectangle pair's signed separation (the largest separation over the four axes); the
// L pair overlaps by more than the band when some rectangle pair does, and is apart by more than
// the band when every rectangle pair is. Pairs in between are too close to call and skipped: the
// oracle decides that, never the library.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "collide2d/collide2d.hpp"
#include "world_core.hpp"

namespace {

using namespace collide2d;

using Point = std::array<long double, 2>;
using Rectangle = std::array<Point, 4>;  // counter-clockwise corners, world frame

/// A point of the library's in long double.
Point as_point(Vec2 point) { return {point.x, point.y}; }

/// The L of the issue: the union of [0, 2] x [0, 0.5] and [0, 0.5] x [0, 2].
const std::vector<Vec2> l_outline = {{0, 0}, {2, 0}, {2, 0.5f}, {0.5f, 0.5f}, {0.5f, 2}, {0, 2}};
const std::array<std::array<Vec2, 2>, 2> l_rectangles = {{{Vec2{0, 0}, Vec2{2, 0.5f}}, {Vec2{0, 0}, Vec2{0.5f, 2}}}};

Rectangle placed_rectangle(Vec2 lower, Vec2 upper, const Transform& transform) {
  Rectangle corners;
  const Vec2 local[4] = {lower, {upper.x, lower.y}, upper, {lower.x, upper.y}};
  const long double c = transform.rotation.cosine, s = transform.rotation.sine;
  for (int i = 0; i < 4; ++i) {
    corners[i] = {c * local[i].x - s * local[i].y + transform.position.x, s * local[i].x + c * local[i].y + transform.position.y};
  }
  return corners;
}

/// A compound's child: the convex polygon of `corners`, placed at the compound's origin.
CompoundChild piece(std::vector<Vec2> corners) { return CompoundChild{make_polygon(corners).value(), {}}; }
/// The compound of convex pieces with these corners, placed at its origin.
Shape compound_of(const std::vector<std::vector<Vec2>>& pieces) {
  std::vector<CompoundChild> children;
  for (const std::vector<Vec2>& corners : pieces) children.push_back(piece(corners));
  return make_compound(children).value();
}
CompoundChild triangle(Vec2 p, Vec2 q, Vec2 r) { return piece({p, q, r}); }

/// A world holding one body, its pairs updated.
World world_holding(const Shape& shape, const Transform& transform) {
  World world;
  BodyDefinition body;
  body.shape = shape;
  body.transform = transform;
  world.add(std::move(body));
  world.update();
  return world;
}

/// A fuzzer's rotation, unit to round-off in float, normalised in Real: in double it would
/// otherwise scale coordinates 1e6 from the origin by its float round-off.
Rot unit_rotation(Vec2 turned) {
  const Vec2 unit = normalize(turned);
  return {unit.x, unit.y};
}

/// The largest separation of two convex polygons (counter-clockwise, world frame) over the edge
/// normals of both (long double).
long double convex_separation(std::span<const Point> p, std::span<const Point> q) {
  long double best = -1e30L;
  for (const bool own_is_p : {true, false}) {
    const std::span<const Point> own = own_is_p ? p : q, other = own_is_p ? q : p;
    for (std::size_t i = 0; i < own.size(); ++i) {
      const Point from = own[i], to = own[(i + 1) % own.size()];
      long double nx = to[1] - from[1], ny = -(to[0] - from[0]);
      const long double length = std::sqrt(nx * nx + ny * ny);
      nx /= length;
      ny /= length;
      long double nearest = 1e30L;
      for (const Point& corner : other) nearest = std::min(nearest, nx * (corner[0] - from[0]) + ny * (corner[1] - from[1]));
      best = std::max(best, nearest);
    }
  }
  return best;
}

/// The largest over rectangle pairs of minus their separation: > 0 when the Ls overlap.
long double l_pair_overlap(const Transform& a, const Transform& b) {
  long double deepest = -1e30L;
  for (const auto& first : l_rectangles) {
    for (const auto& second : l_rectangles) {
      deepest = std::max(deepest, -convex_separation(placed_rectangle(first[0], first[1], a), placed_rectangle(second[0], second[1], b)));
    }
  }
  return deepest;
}

Shape l_shape() { return shape_from_outline(l_outline).value(); }

/// The first s >= 0 in none of the open intervals `blocked`.
long double first_free(const std::vector<std::pair<long double, long double>>& blocked) {
  long double s = 0;
  for (bool moved = true; moved;) {
    moved = false;
    for (const auto& [low, high] : blocked) {
      if (low < s && s < high) {
        s = high;
        moved = true;
      }
    }
  }
  return s;
}

/// The least translation of B that leaves every pair of A's and B's convex pieces (world frame,
/// counter-clockwise) at most touching, sampled over `directions` directions (long double): along
/// a direction d, a pair's separation with B moved by s d is the largest of functions linear in s
/// (one per axis: the nearest vertex along an axis of A's piece does not change as B moves, nor
/// the nearest of A's along B's), so it is negative on one open interval of s; the first s >= 0
/// outside every pair's interval is where B first comes free along d. The least over the
/// directions is never below the true least, and reaches it as they get finer unless the way out
/// ends in a pocket only one direction meets.
long double least_translation_by_directions(const std::vector<std::vector<Point>>& pieces_a, const std::vector<std::vector<Point>>& pieces_b,
                                            int directions) {
  struct Axis {
    long double nx, ny, base;  // unit normal, separation at s = 0
    bool moves;                // an axis of B's piece (B moving along d closes on it as -n.d)
  };
  std::vector<std::vector<Axis>> pairs;
  for (const std::vector<Point>& p : pieces_a) {
    for (const std::vector<Point>& q : pieces_b) {
      std::vector<Axis> axes;
      for (const bool own_is_b : {false, true}) {
        const std::vector<Point>& own = own_is_b ? q : p;
        const std::vector<Point>& other = own_is_b ? p : q;
        for (std::size_t i = 0; i < own.size(); ++i) {
          const Point from = own[i], to = own[(i + 1) % own.size()];
          const long double length = std::hypot(to[0] - from[0], to[1] - from[1]);
          const long double nx = (to[1] - from[1]) / length, ny = -(to[0] - from[0]) / length;
          long double nearest = 1e30L;
          for (const Point& corner : other) nearest = std::min(nearest, nx * (corner[0] - from[0]) + ny * (corner[1] - from[1]));
          axes.push_back({nx, ny, nearest, own_is_b});
        }
      }
      pairs.push_back(axes);
    }
  }
  long double least = 1e30L;
  for (int k = 0; k < directions; ++k) {
    const long double angle = 2 * 3.14159265358979323846L * k / directions, dx = std::cos(angle), dy = std::sin(angle);
    std::vector<std::pair<long double, long double>> blocked;  // open intervals of s where a pair overlaps
    for (const std::vector<Axis>& axes : pairs) {
      long double low = -1e30L, high = 1e30L;
      for (const Axis& axis : axes) {
        const long double rate = (axis.moves ? -1 : 1) * (axis.nx * dx + axis.ny * dy);  // separation = base + rate s
        if (rate > 0) high = std::min(high, -axis.base / rate);
        else if (rate < 0) low = std::max(low, -axis.base / rate);
        else if (axis.base >= 0) high = low;  // separated along this axis whatever s
      }
      if (low < high) blocked.push_back({low, high});
    }
    least = std::min(least, first_free(blocked));
  }
  return least;
}

/// The L's two rectangles placed by `transform`, as convex pieces.
std::vector<std::vector<Point>> l_pieces(const Transform& transform) {
  std::vector<std::vector<Point>> pieces;
  for (const auto& rectangle : l_rectangles) {
    const Rectangle corners = placed_rectangle(rectangle[0], rectangle[1], transform);
    pieces.emplace_back(corners.begin(), corners.end());
  }
  return pieces;
}

/// The cores of `shape` (a convex shape of radius 0, or a compound of them) placed by `pose`, in
/// world coordinates (long double, apart from the library's arithmetic): each a polygon's corners
/// or a segment's two ends.
std::vector<std::vector<Point>> placed_cores(const Shape& shape, const Transform& pose) {
  std::vector<std::vector<Point>> cores;
  // A convex core placed by its child's transform within the compound, then by `pose`.
  auto add = [&](const Shape& convex, const Transform& in_compound) {
    const test_points::WorldCore<long double> core = test_points::world_core<long double>(convex, in_compound);
    EXPECT_EQ(core.radius, 0);  // the oracles below take corners only
    const long double cosine = pose.rotation.cosine, sine = pose.rotation.sine;
    std::vector<Point>& placed = cores.emplace_back();
    for (const test_points::Point2<long double>& vertex : core.vertices) {
      placed.push_back({cosine * vertex.x - sine * vertex.y + pose.position.x, sine * vertex.x + cosine * vertex.y + pose.position.y});
    }
  };
  if (const auto* compound = std::get_if<Compound>(&shape)) {
    for (const CompoundChild& child : compound->children()) {
      std::visit([&](const auto& convex) { add(Shape(convex), child.transform); }, child.shape);
    }
  } else {
    add(shape, Transform{});
  }
  return cores;
}

/// The deepest overlap of any pair of `polygons_a` and `polygons_b` (minus their separation), in
/// long double: > 0 when some pair overlaps.
long double deepest_overlap(const std::vector<std::vector<Point>>& polygons_a, const std::vector<std::vector<Point>>& polygons_b) {
  long double deepest = -1e30L;
  for (const std::vector<Point>& p : polygons_a) {
    for (const std::vector<Point>& q : polygons_b) deepest = std::max(deepest, -convex_separation(p, q));
  }
  return deepest;
}

/// The touching band of the oracle: a few contact tolerances of the coordinates in use.
Real band_for(const Transform& a, const Transform& b) {
  return 8 * contact_tolerance(std::max(coordinate_magnitude(a.position), coordinate_magnitude(b.position)) + 4);
}

TEST(CompoundPairs, OverlappingLShapesOfTheIssueKeepTheirContacts) {
  const Shape l = l_shape();
  const Transform a{}, b = Transform::from({0.5f, 0.25f}, Real(3.14159265358979323846));
  EXPECT_TRUE(overlap(l, a, l, b));
  std::vector<ChildManifold> manifolds;
  contact_manifolds(l, a, l, b, manifolds);
  ASSERT_FALSE(manifolds.empty());
  const std::optional<Penetration> found = penetration(l, a, l, b);
  ASSERT_TRUE(found.has_value());
  // The overlap is the rectangle [0, 0.5] x [0, 0.25]: B leaves it by moving 0.25 down.
  EXPECT_NEAR(found->depth, 0.25, 1e-5);
  EXPECT_NEAR(found->normal.x, 0, 1e-5);
  EXPECT_NEAR(found->normal.y, -1, 1e-5);
  EXPECT_NEAR(found->point_a.x - found->point_b.x, found->depth * found->normal.x, 1e-5);
  EXPECT_NEAR(found->point_a.y - found->point_b.y, found->depth * found->normal.y, 1e-5);
  // point_a on A's surface; point_b on B's surface.
  EXPECT_NEAR(closest_point(l, a, found->point_a).signed_distance, 0, 1e-5);
  EXPECT_NEAR(closest_point(l, b, found->point_b).signed_distance, 0, 1e-5);
}

TEST(CompoundPairs, RandomLPairsNeverLoseContactsAndThePenetrationFreesThem) {
  const Shape l = l_shape();
  std::mt19937_64 random(20261122);
  std::uniform_real_distribution<double> coordinate(-2.2, 2.2), angle(-3.14159, 3.14159);
  int overlapping = 0, apart = 0, skipped = 0, lost = 0, not_freed = 0, disagreements = 0, longer_than_least = 0;
  double worst_leftover = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    const Transform a = Transform::from({Real(coordinate(random)), Real(coordinate(random))}, Real(angle(random)));
    const Transform b = Transform::from({Real(coordinate(random)), Real(coordinate(random))}, Real(angle(random)));
    const long double truth = l_pair_overlap(a, b);
    const Real band = band_for(a, b);
    if (std::abs(truth) <= band) {
      ++skipped;
      continue;
    }
    std::vector<ChildManifold> manifolds;
    contact_manifolds(l, a, l, b, manifolds);
    const std::optional<Penetration> found = penetration(l, a, l, b);
    const DistanceResult gap = distance(l, a, l, b);
    const bool says_overlap = overlap(l, a, l, b);
    if (truth > 0) {
      ++overlapping;
      if (manifolds.empty() || !found) {
        ++lost;
        continue;
      }
      disagreements += !says_overlap || !gap.overlapping;
      // The least way out: no longer than the least over 1,440 directions.
      const long double least = least_translation_by_directions(l_pieces(a), l_pieces(b), 1440);
      longer_than_least += found->depth > least + band;
      if (found->depth > least + band && longer_than_least < 6) {
        std::printf("longer than the least: trial %d depth %g, least over directions %Lg\n", trial, double(found->depth), least);
      }
      // Moving B by the penetration (and a band) leaves the Ls at most touching.
      const Transform moved{b.position + (found->depth + band) * found->normal, b.rotation};
      const long double leftover = l_pair_overlap(a, moved);
      worst_leftover = std::max(worst_leftover, static_cast<double>(leftover));
      not_freed += leftover > band;
      if (leftover > band && not_freed < 6) {
        std::printf("not freed: trial %d depth %g normal (%g, %g) status %d leftover %g truth %g\n", trial, double(found->depth),
                    double(found->normal.x), double(found->normal.y), int(found->status), double(leftover), double(truth));
      }
    } else {
      ++apart;
      disagreements += says_overlap || found.has_value() || !manifolds.empty() || gap.overlapping;
    }
  }
  std::printf("L against L: %d overlapping, %d apart, %d too close to call; lost %d, not freed %d, worst leftover %.3g, longer than the least %d\n",
              overlapping, apart, skipped, lost, not_freed, worst_leftover, longer_than_least);
  EXPECT_EQ(longer_than_least, 0);
  EXPECT_GT(overlapping, 1000);
  EXPECT_GT(apart, 1000);
  EXPECT_EQ(lost, 0);
  EXPECT_EQ(not_freed, 0);
  EXPECT_EQ(disagreements, 0);
}

TEST(CompoundPairs, LPairsInAWorldTouchThroughoutASlide) {
  // B slides through A along x while they overlap throughout: the world never reports them apart.
  const Shape l = l_shape();
  World world;
  BodyDefinition definition;
  definition.shape = l;
  world.add(definition);
  definition.transform = Transform::from({-1.5f, 0.25f}, Real(3.14159265358979323846));
  const BodyHandle second = world.add(definition);
  int frames_apart = 0, frames_overlapping = 0, events = 0;
  bool was_overlapping = false;
  for (int step = 0; step <= 40; ++step) {
    const Transform pose = Transform::from({Real(0.1 + 0.095 * step), 0.25f}, Real(3.14159265358979323846));
    world.set_transform(second, pose);
    world.update();
    const bool overlapping = l_pair_overlap(Transform{}, pose) > 1e-4L;
    if (overlapping && was_overlapping) events += static_cast<int>(world.began().size() + world.ended().size());
    if (overlapping) {
      ++frames_overlapping;
      if (world.contacts().empty()) ++frames_apart;
    }
    was_overlapping = overlapping;
  }
  std::printf("%d of 41 frames overlapping\n", frames_overlapping);
  EXPECT_GE(frames_overlapping, 40);
  EXPECT_EQ(frames_apart, 0);
  EXPECT_EQ(events, 0);  // no spurious began/ended while they overlap throughout
}

// --- concave outlines of several families against each other ---------------------------------

/// A comb: a base bar with `teeth` teeth pointing up (counter-clockwise).
std::vector<Vec2> comb_outline(int teeth) {
  std::vector<Vec2> points = {{0, 0}, {Real(2 * teeth - 1), 0}};
  for (int k = teeth - 1; k >= 0; --k) {
    const Real right = Real(2 * k + 1), left = Real(2 * k);
    points.push_back({right, Real(0.5)});
    points.push_back({right, Real(2)});
    points.push_back({left, Real(2)});
    if (k > 0) points.push_back({left, Real(0.5)});
  }
  return points;
}

/// A star of `spikes` points with alternating radii 2 and 0.8.
std::vector<Vec2> star_outline(int spikes) {
  std::vector<Vec2> points;
  for (int k = 0; k < 2 * spikes; ++k) {
    const double angle = 3.14159265358979323846 * k / spikes;
    const double radius = k % 2 == 0 ? 2.0 : 0.8;
    points.push_back({Real(radius * std::cos(angle)), Real(radius * std::sin(angle))});
  }
  return points;
}

/// Terrain: a flat bottom and a zigzag top of `peaks` peaks.
std::vector<Vec2> terrain_outline(int peaks) {
  std::vector<Vec2> points = {{0, -1}, {Real(2 * peaks), -1}};
  for (int k = 2 * peaks; k >= 0; --k) points.push_back({Real(k), k % 2 == 0 ? Real(0.3) : Real(1.4)});
  return points;
}

using Ring = std::vector<Point>;

Ring placed_ring(const std::vector<Vec2>& outline, const Transform& transform) {
  Ring ring;
  for (const Vec2 p : outline) {
    const Vec2 world = transform_point(transform, p);
    ring.push_back({world.x, world.y});
  }
  return ring;
}

long double cross_of(Point o, Point a, Point b) { return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]); }

/// The signed distance of `p` from the line through `from` and `to`: positive to its left.
long double offset_from_line(Point from, Point to, Point p) { return cross_of(from, to, p) / std::hypot(to[0] - from[0], to[1] - from[1]); }

long double segment_point_distance(Point a, Point b, Point p) {
  const long double ex = b[0] - a[0], ey = b[1] - a[1];
  long double t = ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey);
  t = std::clamp(t, 0.0L, 1.0L);
  return std::hypot(p[0] - a[0] - t * ex, p[1] - a[1] - t * ey);
}

/// The distance from `point` to the edges of `pieces` that no other piece shares (matched exactly,
/// reversed), in long double: the outline of a compound cut edge to edge.
long double distance_to_unshared_edges(const std::vector<std::vector<Vec2>>& pieces, Point point) {
  long double least = 1e30L;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    for (std::size_t k = 0; k < pieces[i].size(); ++k) {
      const Vec2 from = pieces[i][k], to = pieces[i][(k + 1) % pieces[i].size()];
      bool shared = false;
      for (std::size_t j = 0; j < pieces.size() && !shared; ++j) {
        for (std::size_t m = 0; m < pieces[j].size() && !shared; ++m) shared = j != i && pieces[j][m] == to && pieces[j][(m + 1) % pieces[j].size()] == from;
      }
      if (!shared) least = std::min(least, segment_point_distance({from.x, from.y}, {to.x, to.y}, point));
    }
  }
  return least;
}

bool inside_even_odd(const Ring& ring, Point p) {
  bool inside = false;
  for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
    if ((ring[i][1] > p[1]) != (ring[j][1] > p[1]) &&
        p[0] < (ring[j][0] - ring[i][0]) * (p[1] - ring[i][1]) / (ring[j][1] - ring[i][1]) + ring[i][0]) {
      inside = !inside;
    }
  }
  return inside;
}

long double boundary_distance(const Ring& ring, Point p) {
  long double best = 1e30L;
  for (std::size_t i = 0; i < ring.size(); ++i) best = std::min(best, segment_point_distance(ring[i], ring[(i + 1) % ring.size()], p));
  return best;
}

/// How far penetration()'s witness points are from what they promise, in long double: point_a on
/// A's outline, point_b on B's outline, and point_a - point_b = depth x normal. The largest of the
/// three misses.
long double witness_miss(const Penetration& found, const Ring& ring_a, const Ring& ring_b) {
  const Point on_a{found.point_a.x, found.point_a.y}, on_b{found.point_b.x, found.point_b.y};
  const long double along = std::hypot(on_a[0] - on_b[0] - (long double)found.depth * found.normal.x,
                                       on_a[1] - on_b[1] - (long double)found.depth * found.normal.y);
  return std::max({boundary_distance(ring_a, on_a), boundary_distance(ring_b, on_b), along});
}

/// Checks closest_point's signed distance at `point` against the outline's (in long double, inside
/// by even-odd), within four touching bands of the point's and the compound's magnitudes.
void expect_outline_distance(const Shape& shape, const Transform& pose, const Ring& ring, Vec2 point, const std::string& where) {
  const Point exact{point.x, point.y};
  const long double oracle = (inside_even_odd(ring, exact) ? -1 : 1) * boundary_distance(ring, exact);
  const Real band = 4 * contact_tolerance(coordinate_magnitude(point) + size_scale(shape));
  EXPECT_NEAR(closest_point(shape, pose, point).signed_distance, static_cast<Real>(oracle), band) << where;
}

/// expect_outline_distance at `centre` (local) and at 64 points on each of four circles round it
/// (radii 0.001 to 1).
void expect_outline_distance_all_round(const Shape& shape, const Transform& pose, const Ring& ring, Vec2 centre) {
  for (const Real radius : {Real(0), Real(1e-3), Real(1e-2), Real(0.1), Real(1)}) {
    for (int k = 0; k < (radius == 0 ? 1 : 64); ++k) {
      const Real angle = Real(2 * 3.14159265358979323846) * Real(k) / 64;
      const Vec2 point = transform_point(pose, centre + radius * Vec2{std::cos(angle), std::sin(angle)});
      expect_outline_distance(shape, pose, ring, point, "radius " + std::to_string(radius) + " step " + std::to_string(k));
    }
  }
}

/// The fuzzer's ray for a compound placed by `pose`, from (-32, -32) by (-32, -32) with a max
/// fraction of 2: it must hit at the local `corner` (the ray runs along the local diagonal), or up
/// to `short_of` (length) before it, and the hit point must lie on the surface within the touching
/// band.
void expect_fuzzer_ray_meets(const Shape& shape, const Transform& pose, Vec2 corner, Real short_of = 0) {
  const Ray ray{{-32, -32}, {-32, -32}, 2};
  const std::optional<RayHit> hit = raycast(shape, pose, ray);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->fraction, corner.x / 32 - short_of / length(ray.translation) / 2, 1e-5f + short_of / length(ray.translation) / 2);
  EXPECT_LE(std::abs(closest_point(shape, pose, hit->point).signed_distance), 4 * contact_tolerance(coordinate_magnitude(hit->point) + size_scale(shape)));
}

/// The oracle's verdict on two simple outlines, in long double: +1 clearly overlapping (a vertex
/// of one deeper than the band inside the other, or two edges crossing with every end farther
/// than the band from the other edge's line), -1 clearly apart (no crossing, no containment, and
/// the boundaries farther apart than the band), 0 too close to call.
int outline_verdict(const Ring& p, const Ring& q, long double band) {
  for (const auto& [first, second] : {std::pair{&p, &q}, std::pair{&q, &p}}) {
    for (const Point& vertex : *first) {
      if (inside_even_odd(*second, vertex) && boundary_distance(*second, vertex) > band) return 1;
    }
  }
  long double closest = 1e30L;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Point a = p[i], b = p[(i + 1) % p.size()];
    const long double length_ab = std::hypot(b[0] - a[0], b[1] - a[1]);
    for (std::size_t j = 0; j < q.size(); ++j) {
      const Point c = q[j], d = q[(j + 1) % q.size()];
      const long double length_cd = std::hypot(d[0] - c[0], d[1] - c[1]);
      const long double side_c = cross_of(a, b, c) / length_ab, side_d = cross_of(a, b, d) / length_ab;
      const long double side_a = cross_of(c, d, a) / length_cd, side_b = cross_of(c, d, b) / length_cd;
      if (side_c * side_d < 0 && side_a * side_b < 0 && std::min(std::abs(side_c), std::abs(side_d)) > band &&
          std::min(std::abs(side_a), std::abs(side_b)) > band) {
        return 1;
      }
      closest = std::min({closest, segment_point_distance(a, b, c), segment_point_distance(a, b, d), segment_point_distance(c, d, a),
                          segment_point_distance(c, d, b)});
      if (side_c * side_d <= 0 && side_a * side_b <= 0) closest = 0;  // the edges meet
    }
  }
  const bool contained = inside_even_odd(q, p[0]) || inside_even_odd(p, q[0]);
  return !contained && closest > band ? -1 : 0;
}

TEST(CompoundPairs, CombsStarsAndTerrainAgainstEachOtherAgreeWithTheOutlineOracle) {
  const std::vector<std::vector<Vec2>> outlines = {l_outline, comb_outline(4), star_outline(5), terrain_outline(3)};
  std::vector<Shape> shapes;
  for (const auto& outline : outlines) shapes.push_back(shape_from_outline(outline).value());
  std::mt19937_64 random(424242);
  std::uniform_real_distribution<double> coordinate(-3.5, 3.5), angle(-3.14159, 3.14159);
  std::uniform_int_distribution<int> family(0, static_cast<int>(outlines.size()) - 1);
  int overlapping = 0, apart = 0, skipped = 0, lost = 0, not_freed = 0, disagreements = 0, world_misses = 0, witnesses_off = 0, not_mirrored = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int first = family(random), second = family(random);
    const Transform a = Transform::from({Real(coordinate(random)), Real(coordinate(random))}, Real(angle(random)));
    const Transform b = Transform::from({Real(coordinate(random)), Real(coordinate(random))}, Real(angle(random)));
    const long double band = 8 * contact_tolerance(16);
    const int verdict = outline_verdict(placed_ring(outlines[first], a), placed_ring(outlines[second], b), band);
    if (verdict == 0) {
      ++skipped;
      continue;
    }
    const Shape &shape_a = shapes[first], &shape_b = shapes[second];
    std::vector<ChildManifold> manifolds;
    contact_manifolds(shape_a, a, shape_b, b, manifolds);
    const std::optional<Penetration> found = penetration(shape_a, a, shape_b, b);
    const bool says_overlap = overlap(shape_a, a, shape_b, b), says_distance = distance(shape_a, a, shape_b, b).overlapping;
    // The world reports the pair too.
    World world;
    BodyDefinition definition;
    definition.shape = shape_a;
    definition.transform = a;
    world.add(definition);
    definition.shape = shape_b;
    definition.transform = b;
    world.add(definition);
    world.update();
    if (verdict > 0) {
      ++overlapping;
      world_misses += world.contacts().empty();
      if (manifolds.empty() || !found) {
        ++lost;
        continue;
      }
      disagreements += !says_overlap || !says_distance;
      // Moved by the depth along the normal, B at most touches A. (Not beyond it: the least way out
      // may end in a pocket, touching two sides, where going on enters A again.)
      const Transform moved{b.position + found->depth * found->normal, b.rotation};
      not_freed += outline_verdict(placed_ring(outlines[first], a), placed_ring(outlines[second], moved), band) > 0;
      // The same way out with A and B swapped (the least one: ties aside, one answer), and in both
      // orders the witness points on their outlines, depth x normal apart. Where the shapes touch
      // along a stretch, either order may name a different point of it.
      const std::optional<Penetration> swapped = penetration(shape_b, b, shape_a, a);
      if (!swapped) {
        ++lost;
        continue;
      }
      const long double miss = std::max(witness_miss(*found, placed_ring(outlines[first], a), placed_ring(outlines[second], b)),
                                         witness_miss(*swapped, placed_ring(outlines[second], b), placed_ring(outlines[first], a)));
      witnesses_off += miss > band;
      if (miss > band && witnesses_off < 6) std::printf("witnesses off: trial %d depth %g by %Lg\n", trial, double(found->depth), miss);
      const bool mirrored = std::abs(swapped->depth - found->depth) <= band && length(swapped->normal + found->normal) * found->depth <= band;
      not_mirrored += !mirrored;
      if (!mirrored && not_mirrored < 6) {
        std::printf("not mirrored: trial %d depth %g normal (%g, %g), swapped %g (%g, %g)\n", trial, double(found->depth), double(found->normal.x),
                    double(found->normal.y), double(swapped->depth), double(swapped->normal.x), double(swapped->normal.y));
      }
    } else {
      ++apart;
      disagreements += says_overlap || says_distance || found.has_value() || !manifolds.empty() || !world.contacts().empty();
    }
  }
  std::printf("concave pairs: %d overlapping, %d apart, %d too close to call; lost %d, not freed %d, disagreements %d, world misses %d, "
              "witnesses off %d, not mirrored %d\n",
              overlapping, apart, skipped, lost, not_freed, disagreements, world_misses, witnesses_off, not_mirrored);
  EXPECT_GT(overlapping, 800);
  EXPECT_GT(apart, 800);
  EXPECT_EQ(lost, 0);
  EXPECT_EQ(not_freed, 0);
  EXPECT_EQ(disagreements, 0);
  EXPECT_EQ(world_misses, 0);
  EXPECT_EQ(witnesses_off, 0);
  EXPECT_EQ(not_mirrored, 0);
}

TEST(CompoundPenetration, CircleInAVNotchIsFreedFromBothWalls) {
  // A 90-degree V notch: walls y = |x| from the notch's bottom at the origin, inside a block.
  const std::vector<Vec2> notch = {{-3, -2}, {3, -2}, {3, 3}, {0, 0}, {-3, 3}};
  const Shape block = shape_from_outline(notch).value();
  const Shape circle = Circle{{0, 0}, 1};
  const Transform circle_pose{{0, 1.25f}, {}};
  const std::optional<Penetration> found = penetration(block, Transform{}, circle, circle_pose);
  ASSERT_TRUE(found.has_value());
  // Free of both walls: the centre must be sqrt(2) above the notch's bottom, straight up.
  EXPECT_NEAR(found->depth, std::sqrt(2.0) - 1.25, 1e-5);
  EXPECT_NEAR(found->normal.x, 0, 1e-5);
  EXPECT_NEAR(found->normal.y, 1, 1e-5);
  const Transform moved{circle_pose.position + (found->depth + Real(1e-4)) * found->normal, {}};
  EXPECT_FALSE(overlap(block, Transform{}, circle, moved));
  // The witness points: point_a on the block's surface, point_b on the circle before the move.
  EXPECT_NEAR(closest_point(block, Transform{}, found->point_a).signed_distance, 0, 1e-5);
  EXPECT_NEAR(length(found->point_b - circle_pose.position), 1, 1e-5);
  // Swapped: the same depth, the mirrored normal.
  const std::optional<Penetration> swapped = penetration(circle, circle_pose, block, Transform{});
  ASSERT_TRUE(swapped.has_value());
  EXPECT_NEAR(swapped->depth, found->depth, 1e-5);
  EXPECT_NEAR(swapped->normal.y, -1, 1e-5);
}

TEST(CompoundPenetration, WitnessPointsOfACircleSunkDeepInAConcaveQuadrilateral) {
  // From the pair-query fuzzer: a circle of radius 31.1 sunk 30.8 deep into a concave quadrilateral
  // (two triangles), both under the same turned pose. The translation the contact planes gave left
  // the circle 0.036 beyond touching, with no contact there, and the witness points were then left
  // at A's origin (point_a - point_b was 31 units from depth x normal). The least way out (the
  // union of the parts' Minkowski differences) now leaves it touching: point_a on A's surface,
  // point_b on B's, their difference depth x normal, and the same answer mirrored with A and B
  // swapped.
  const Real step = std::ldexp(Real(1), -10);
  const Shape circle = Circle{{-64, -65034 * step}, 31881 * step};
  const std::vector<Vec2> outline = {{Real(-33.5), -64}, {-57812 * step, -50220 * step}, {-54214 * step, -54242 * step}, {-64, -64}};
  const Shape quadrilateral = shape_from_outline(outline).value();
  ASSERT_TRUE(std::holds_alternative<Compound>(quadrilateral));
  const Transform pose{{-32, -32}, Rot::from_angle(Real(32767 * 3.14159265358979 / 32768))};
  const std::optional<Penetration> found = penetration(circle, pose, quadrilateral, pose);
  ASSERT_TRUE(found.has_value());
  EXPECT_GT(found->depth, 20);
  const Real band = 64 * contact_tolerance(256);
  EXPECT_LE(length(found->point_a - found->point_b - found->depth * found->normal), band);
  EXPECT_NEAR(closest_point(circle, pose, found->point_a).signed_distance, 0, band);
  EXPECT_NEAR(closest_point(quadrilateral, pose, found->point_b).signed_distance, 0, band);
  const Transform moved{pose.position + found->depth * found->normal, pose.rotation};
  EXPECT_LE(distance(circle, pose, quadrilateral, moved).distance, band);
  EXPECT_FALSE(overlap(circle, pose, quadrilateral, {moved.position + band * found->normal, pose.rotation}));
  const std::optional<Penetration> swapped = penetration(quadrilateral, pose, circle, pose);
  ASSERT_TRUE(swapped.has_value());
  EXPECT_NEAR(swapped->depth, found->depth, band);
  EXPECT_LE(length(swapped->normal + found->normal) * found->depth, band);
}

TEST(CompoundPenetration, ASegmentAlongTheCutBetweenTwoPiecesIsInsideTheOutline) {
  // From the pair-query fuzzer: a concave quadrilateral is cut from its reflex vertex into two
  // triangles, and a segment lies exactly along that cut. It touches each piece only, yet lies
  // inside the outline (across a sliver 0.09 thick); penetration() reported depth 0 with witness
  // points 10.6 apart. Now it pushes the segment out of the whole outline.
  const Real step = std::ldexp(Real(1), -10);
  const Vec2 reflex{-54228 * step, -54228 * step}, far_end{-9684 * step, -52234 * step};
  const std::vector<Vec2> outline = {far_end, {-56276 * step, -54228 * step}, reflex, {-54242 * step, -64}};
  const Shape quadrilateral = shape_from_outline(outline).value();
  ASSERT_TRUE(std::holds_alternative<Compound>(quadrilateral));
  const Shape segment = Segment{reflex, far_end};
  const Transform pose{{-32, -32}, Rot::from_angle(Real(32767 * 3.14159265358979 / 32768))};
  const std::optional<Penetration> found = penetration(segment, pose, quadrilateral, pose);
  ASSERT_TRUE(found.has_value());
  EXPECT_GT(found->depth, Real(0.05));
  EXPECT_LT(found->depth, Real(0.2));
  const Real band = 64 * contact_tolerance(256);
  EXPECT_LE(length(found->point_a - found->point_b - found->depth * found->normal), band);
  const Transform moved{pose.position + (found->depth + band) * found->normal, pose.rotation};
  EXPECT_FALSE(overlap(segment, pose, quadrilateral, moved));
  // A point (a circle of radius 0) on the cut, and the pair the other way round.
  const Shape point = Circle{Real(0.5) * (reflex + far_end), 0};
  const std::optional<Penetration> point_inside = penetration(point, pose, quadrilateral, pose);
  ASSERT_TRUE(point_inside.has_value());
  EXPECT_GT(point_inside->depth, Real(0.01));
  const std::optional<Penetration> swapped = penetration(quadrilateral, pose, segment, pose);
  ASSERT_TRUE(swapped.has_value());
  EXPECT_NEAR(swapped->depth, found->depth, band);
  EXPECT_LE(length(swapped->normal + found->normal) * found->depth, band);
  // The witness points on the segment and on the outline (the oracle's rings), in both orders.
  const Ring segment_ring = placed_ring({reflex, far_end}, pose), outline_ring = placed_ring(outline, pose);
  EXPECT_LE(witness_miss(*found, segment_ring, outline_ring), band);
  EXPECT_LE(witness_miss(*swapped, outline_ring, segment_ring), band);
  // Lying along the outline's outer boundary instead is only touching.
  const Shape on_boundary = Segment{{-54242 * step, -64}, far_end};
  const std::optional<Penetration> touching = penetration(on_boundary, pose, quadrilateral, pose);
  ASSERT_TRUE(touching.has_value());
  EXPECT_LE(touching->depth, band);
}

TEST(CompoundPenetration, TouchingWitnessPointsMeetWhateverTheManifolds) {
  // From the pair-query fuzzer: a capsule 25 long against a compound of three triangles with
  // coordinates of 1.7e7 (two units of float round-off there), a sliver among them. The witness
  // was taken from a manifold point of the sliver with separation -31,782 and 15,000 units away,
  // so point_a - point_b was 31,800 long for a depth of 0. The witnesses are now the closest
  // points. In float the pieces' overlaps are within their bands, so the pair was then found only
  // touching; the capsule lies inside the outline, 31,780 deep (its centre's distance from the
  // outline, which lower-bounds the depth), as in double (mover fuzzer: a push_out that left a
  // segment 17,000 deep in such a compound).
  const Real step = std::ldexp(Real(1), -10);
  const Shape capsule = Capsule{{-19099 * step, -5023 * step}, {-7313 * step, -5066 * step}, 29779 * step / 4};
  const Shape pieces = make_compound({triangle({-16777216, -16777216}, {-11534336, -16777216}, {-11513856, -11513856}),
                                      triangle({6381568, 6381568}, {-11444224, 6381568}, {-16777216, -16777216}),
                                      triangle({-11513856, -11513856}, {6381568, 6311936}, {6381568, 6381568})})
                           .value();
  const Rot turned = Rot::from_angle(Real(32767 * 3.14159265358979 / 32768));
  const Transform capsule_pose{{-17876 * step, -64}, turned}, pieces_pose{{-64, -64}, turned};
  const std::optional<Penetration> found = penetration(capsule, capsule_pose, pieces, pieces_pose);
  ASSERT_TRUE(found.has_value());
  const Real band = 64 * contact_tolerance(Real(5e7));
  EXPECT_LE(length(found->point_a - found->point_b - found->depth * found->normal), band);
  EXPECT_LE(length(found->point_a - capsule_pose.position), 64);  // near the capsule, not 15,000 away
  const Vec2 centre = transform_point(capsule_pose, Vec2{(-19099 - 7313) * step / 2, (-5023 - 5066) * step / 2});
  const Real centre_depth = -closest_point(pieces, pieces_pose, centre).signed_distance;
  EXPECT_GT(centre_depth, 30000);
  EXPECT_GE(found->depth, centre_depth - band);
  EXPECT_LE(found->depth, centre_depth + size_scale(capsule) + band);
  const std::optional<Penetration> swapped = penetration(pieces, pieces_pose, capsule, capsule_pose);
  ASSERT_TRUE(swapped.has_value());
  EXPECT_NEAR(swapped->depth, found->depth, band);
  const Transform moved{capsule_pose.position - (found->depth + band) * found->normal, capsule_pose.rotation};
  EXPECT_FALSE(overlap(capsule, moved, pieces, pieces_pose));
}

TEST(CompoundPenetration, ASegmentBesideASliverIsNotAlongItsSeam) {
  // From the pair-query fuzzer: a compound 2e7 across whose pieces meet along a seam beside a
  // sliver 10 units thick, and a segment 500 long 25 units below the sliver and 32 off the seam's
  // line. The seam test took its band from the whole compound's reach (40 units in float), so the
  // segment lay "along the seam", counted as inside the outline, and penetration() sent it
  // 8.4 million units away while overlap() and distance() had it apart. The band is now that of
  // the seam's own vertices and the segment's ends (24 units): the pair only touches.
  const Shape pieces = make_compound({triangle({-13882368, 15460864}, {-66048, -119808}, {-66048, -66048}),
                                      triangle({-66048, -66048}, {6380544, 6381568}, {-13882368, 15460864}),
                                      triangle({-66048, -66048}, {6381568, 6381568}, {6380544, 6381568})})
                           .value();
  const Shape segment = Segment{{Real(-646.53125), Real(-646.53125)}, {-1024, -1024}};
  const Rot turned = Rot::from_angle(Real(-3.14159265358979));
  const Transform pieces_pose{{Real(-19.75), -32}, turned}, segment_pose{{Real(-32513) / 1024, Real(-8.75)}, turned};
  // The oracle, in long double on the poses' own numbers: each piece is apart from the segment
  // (an edge normal of one separates them), so their distance is the least from an end of either
  // to an edge of the other.
  using LP = test_points::Point2<long double>;
  const test_points::WorldCore<long double> line = test_points::world_core<long double>(segment, segment_pose);
  auto to_edge = [](LP p, LP from, LP to) {
    const LP along = to - from;
    const long double t = std::clamp(dot(p - from, along) / dot(along, along), 0.0L, 1.0L);
    return norm(p - (from + t * along));
  };
  long double oracle_gap = 1e30L;
  for (const CompoundChild& child : std::get<Compound>(pieces).children()) {
    const test_points::WorldCore<long double> piece = test_points::world_core<long double>(Shape(std::get<Polygon>(child.shape)), pieces_pose);
    long double separation = -1e30L;
    for (const test_points::WorldCore<long double>* own : {&piece, &line}) {
      const test_points::WorldCore<long double>& other = own == &piece ? line : piece;
      for (std::size_t i = 0; i < own->vertices.size(); ++i) {
        const LP from = own->vertices[i], to = own->vertices[(i + 1) % own->vertices.size()];
        // Outward for a counter-clockwise piece; the segment's two edges give both its sides.
        const LP normal = test_points::unit(LP{to.y - from.y, from.x - to.x});
        long double nearest = 1e30L;
        for (const LP& vertex : other.vertices) nearest = std::min(nearest, dot(normal, vertex - from));
        separation = std::max(separation, nearest);
      }
    }
    ASSERT_GT(separation, 0.0L);  // apart, so the nearest points include an end of one of them
    for (std::size_t i = 0; i < piece.vertices.size(); ++i) {
      const LP from = piece.vertices[i], to = piece.vertices[(i + 1) % piece.vertices.size()];
      oracle_gap = std::min({oracle_gap, to_edge(line.vertices[0], from, to), to_edge(line.vertices[1], from, to),
                             to_edge(from, line.vertices[0], line.vertices[1])});
    }
  }
  EXPECT_NEAR(double(oracle_gap), 24.9, 0.5);  // apart by 25, within float's round-off of a compound this size
  const Real band = 64 * contact_tolerance(Real(4e7));
  EXPECT_NEAR(distance(pieces, pieces_pose, segment, segment_pose).distance, Real(oracle_gap), band);
  EXPECT_FALSE(overlap(pieces, pieces_pose, segment, segment_pose));
  for (const bool swapped : {false, true}) {
    const std::optional<Penetration> found =
        swapped ? penetration(segment, segment_pose, pieces, pieces_pose) : penetration(pieces, pieces_pose, segment, segment_pose);
    if (found) {
      EXPECT_LE(found->depth, band) << (swapped ? "segment first" : "compound first");
    }
  }
}

TEST(CompoundPenetration, ASegmentBeyondASliverWithinTheSeamsBandIsNotAlongIt) {
  // From the pair-query fuzzer (float): a sliver 1,448 long and at most 0.016 thick lies along
  // the diagonal, and a triangle's face on the diagonal meets it in a seam; a segment 10,000 long
  // (its ends 4,000 out) runs 0.028 below the diagonal, beyond the sliver, 0.011 from it. The
  // seam's band, taken with the segment's far ends, is 0.033: the segment lay "along the seam",
  // inside the outline, and penetration() sent it 724 away while overlap() and distance() had it
  // apart. A shape along a seam must now also touch the seam's piece by the pair's own test.
  // Oracle: the segment's distance from each piece in long double, in the compound's frame.
  const std::vector<Vec2> sliver = {{-0x1.fffcp+8f, -512}, {0x1.fffcp+8f, 0x1.fffcp+8f}, {-512, -512}};
  const std::vector<Vec2> beside = {{0x1.fffcp+8f, 0x1.fffcp+8f}, {-512, 0x1.fffcp+8f}, {0x1.7774p+8f, 0x1.7774p+8f}};
  const Shape compound = make_compound({piece(sliver), piece(beside)}).value();
  ASSERT_TRUE(std::get<Compound>(compound).is_internal_edge(1, 2));  // the triangle's face on the diagonal
  const Vec2 segment_a{0x1.7774p+11f, 0x1.7774p+11f}, segment_b{-4096, -4096};
  const Shape segment = Capsule{segment_a, segment_b, 0};
  const Rot turned{-1, 0x1.777a5cp-24f};
  const Transform compound_pose{{-32, -0x1.fffcp+4f}, turned}, segment_pose{{-32, -0x1.ff5cp+4f}, turned};
  // Both turned alike: in the compound's frame the segment is moved by the offset of the poses
  // turned back.
  const long double offset_x = static_cast<long double>(segment_pose.position.x) - compound_pose.position.x;
  const long double offset_y = static_cast<long double>(segment_pose.position.y) - compound_pose.position.y;
  const long double c = turned.cosine, s = turned.sine;
  const Point moved{c * offset_x + s * offset_y, -s * offset_x + c * offset_y};
  const Point end_a{segment_a.x + moved[0], segment_a.y + moved[1]}, end_b{segment_b.x + moved[0], segment_b.y + moved[1]};
  long double oracle_gap = 1e30L;
  for (const auto* corners : {&sliver, &beside}) {
    for (std::size_t i = 0; i < corners->size(); ++i) {
      const Point from{(*corners)[i].x, (*corners)[i].y}, to{(*corners)[(i + 1) % corners->size()].x, (*corners)[(i + 1) % corners->size()].y};
      ASSERT_FALSE(cross_of(from, to, end_a) * cross_of(from, to, end_b) < 0 && cross_of(end_a, end_b, from) * cross_of(end_a, end_b, to) < 0);
      oracle_gap = std::min({oracle_gap, segment_point_distance(from, to, end_a), segment_point_distance(from, to, end_b),
                             segment_point_distance(end_a, end_b, from), segment_point_distance(end_a, end_b, to)});
    }
  }
  ASSERT_GT(oracle_gap, 0.01L);  // apart, and (no vertex of either inside the other) by this much
  const Real band = 64 * contact_tolerance(coordinate_magnitude(segment_a) + coordinate_magnitude(segment_b) + size_scale(compound));
  EXPECT_NEAR(distance(segment, segment_pose, compound, compound_pose).distance, Real(oracle_gap), band);
  const bool overlapping = overlap(segment, segment_pose, compound, compound_pose);
  for (const bool segment_first : {true, false}) {
    const std::optional<Penetration> found =
        segment_first ? penetration(segment, segment_pose, compound, compound_pose) : penetration(compound, compound_pose, segment, segment_pose);
    EXPECT_EQ(found.has_value(), overlapping) << segment_first;
    if (found) {
      EXPECT_LE(found->depth, band) << segment_first;
    }
  }
}

TEST(CompoundRaycast, ARayStartingDeepInsideNextToASeamIsInside) {
  // From the pair-query fuzzer: three triangles with coordinates of 1.7e7 (a sliver along the
  // diagonal seam among them) and a ray 33 long starting 40 inside one child, next to the seam,
  // 30,800 inside the outline. Each child alone saw the start on its surface (within its band of
  // 31-45 there): one reported nothing ahead, the other a hit at the ray's end, and the compound
  // answered that hit, deep inside itself. It is inside, at fraction 0.
  const Real step = std::ldexp(Real(1), -10);
  const Shape pieces = make_compound({triangle({-16777216, -16777216}, {-11534336, -16777216}, {-11513856, -11513856}),
                                      triangle({6381568, 6381568}, {-11444224, 6380544}, {-16777216, -16777216}),
                                      triangle({-11513856, -11513856}, {6379520, 6311936}, {6381568, 6381568})})
                           .value();
  const Transform pose{{-32753 * step, -8952 * step}, Rot::from_angle(Real(-32584 * 3.14159265358979 / 32768))};
  const Ray ray{{15 * step, -32736 * step}, {-8193 * step, 32512 * step}, Real(0.5)};
  ASSERT_LT(closest_point(pieces, pose, ray.origin).signed_distance, -10000);
  const std::optional<RayHit> hit = raycast(pieces, pose, ray);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->fraction, 0);
  EXPECT_TRUE(hit->inside);
}

TEST(CompoundPenetration, ATinySquareFarOutGivesFiniteAnswers) {
  // From the pair-query fuzzer: a compound with coordinates of 1.7e7 against a square 0.016 wide.
  // Pushed 9e6 out, the square sits where float's spacing is 0.5, so its incident edge rounds to
  // a point; clipping it divided 0 by 0 and the witness points were NaN. Every output is finite now.
  const Real step = std::ldexp(Real(1), -10);
  auto quadrilateral = [](Vec2 p, Vec2 q, Vec2 r, Vec2 t) { return CompoundChild{make_polygon(std::vector<Vec2>{p, q, r, t}).value(), {}}; };
  const Shape pieces = make_compound({quadrilateral({-13763072, 16776704}, {-11513856, -11534336}, {6380544, 6381568}, {15608832, 16776704}),
                                      quadrilateral({-11513856, -11534336}, {6311936, -11513856}, {6381568, 6381568}, {6380544, 6381568})})
                           .value();
  const Shape square = make_polygon(std::vector<Vec2>{{-262136 * step, -262136 * step}, {-262152 * step, -262136 * step},
                                                      {-262152 * step, -262152 * step}, {-262136 * step, -262152 * step}})
                           .value();
  const Transform pose{{-32, -32}, Rot::from_angle(Real(32767 * 3.14159265358979 / 32768))};
  const std::optional<Penetration> found = penetration(pieces, pose, square, pose);
  ASSERT_TRUE(found.has_value());
  for (const Real value : {found->depth, found->normal.x, found->normal.y, found->point_a.x, found->point_a.y, found->point_b.x, found->point_b.y}) {
    EXPECT_TRUE(std::isfinite(value));
  }
  EXPECT_LE(length(found->point_a - found->point_b - found->depth * found->normal), 64 * contact_tolerance(Real(5e7)));
  std::vector<ChildManifold> manifolds;
  contact_manifolds(pieces, pose, square, {pose.position + found->depth * found->normal, pose.rotation}, manifolds);
  for (const ChildManifold& entry : manifolds) {
    for (int i = 0; i < entry.manifold.point_count; ++i) {
      EXPECT_TRUE(std::isfinite(entry.manifold.points[i].point.x) && std::isfinite(entry.manifold.points[i].point.y) &&
                  std::isfinite(entry.manifold.points[i].separation));
    }
  }
}

TEST(CompoundPenetration, TwoNearlyParallelContactPlanesDoNotSendBFarAway) {
  // From the pair-query fuzzer: two concave shapes about 90 wide overlapping at the same pose. Two
  // nearly parallel contact planes met 3.3e6 away, and that corner, the first candidate to free
  // B, was reported as a depth of 3.3e6. Translations longer than the pair's extent are never
  // candidates; the answer is short and frees B.
  const Real step = std::ldexp(Real(1), -10);
  auto grid_piece = [&](std::vector<std::array<int, 2>> grid) {
    std::vector<Vec2> points;
    for (const auto& [x, y] : grid) points.push_back({Real(x) * step, Real(y) * step});
    return piece(points);
  };
  const Shape a = make_compound({grid_piece({{18397, 24029}, {-28910, 24029}, {-27114, -26994}, {24021, -32768}}),
                                 grid_piece({{-28910, 24029}, {-27114, -32512}, {-27114, -26994}})})
                      .value();
  const Shape b = make_compound({grid_piece({{-54228, -65536}, {-54228, -54228}, {-65536, -65534}, {-65536, -65536}}),
                                 grid_piece({{28012, 28012}, {-65536, -65534}, {-54228, -54228}}),
                                 grid_piece({{-54228, -54228}, {27692, -54086}, {28012, 27676}, {28012, 28012}})})
                      .value();
  const Transform pose{{-32, -32}, Rot::from_angle(Real(32767 * 3.14159265358979 / 32768))};
  const std::optional<Penetration> found = penetration(a, pose, b, pose);
  ASSERT_TRUE(found.has_value());
  EXPECT_LE(found->depth, size_scale(a) + size_scale(b));
  EXPECT_LE(length(found->point_a - found->point_b - found->depth * found->normal), 64 * contact_tolerance(256));
  const Transform moved{pose.position + (found->depth + 64 * contact_tolerance(256)) * found->normal, pose.rotation};
  EXPECT_FALSE(overlap(a, pose, b, moved));
}

TEST(CompoundCast, APointSlidingIntoTheOutlineAlongASeamIsMetAtTimeZero) {
  // From the mover fuzzer: a square cut along its diagonal into two triangles, and a point (a
  // segment with coinciding ends, or a circle of radius 0) resting on the corner where the cut
  // meets the outline. Moving along the cut, it slides along a face of each piece, so each
  // piece's own cast found nothing, and a mover went 32 units into a compound. The point enters
  // the outline: a hit at time 0 whose normal is an outside face's, not the cut's.
  const Shape square = make_compound({triangle({0, 0}, {2, 0}, {2, 2}), triangle({0, 0}, {2, 2}, {0, 2})}).value();
  ASSERT_TRUE(std::get<Compound>(square).is_internal_edge(0, 2));
  const Transform pose{{5, -3}, Rot::from_angle(Real(0.3))};
  auto world_of = [&](Vec2 local) { return transform_point(pose, local); };
  const Vec2 into = rotate(pose.rotation, Vec2{-1, -1});  // along the cut, from the corner (2, 2) inward
  for (const Shape& point : {Shape(Segment{{}, {}}), Shape(Circle{{}, 0})}) {
    const Transform at_corner{world_of({2, 2}), {}};
    const std::optional<CastHit> hit = shape_cast(square, pose, point, at_corner, into);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->time, 0);
    EXPECT_TRUE(hit->initially_touching);
    // An outside face's normal at the corner, (1, 0) or (0, 1) in the square's frame.
    const Vec2 local_normal = inverse_rotate(pose.rotation, hit->normal);
    EXPECT_TRUE(std::abs(local_normal.x - 1) + std::abs(local_normal.y) <= Real(1e-5) ||
                std::abs(local_normal.y - 1) + std::abs(local_normal.x) <= Real(1e-5));
    // The pair the other way round: the square moves onto the point.
    const std::optional<CastHit> swapped = shape_cast(point, at_corner, square, pose, -into);
    ASSERT_TRUE(swapped.has_value());
    EXPECT_EQ(swapped->time, 0);
    EXPECT_NEAR(dot(swapped->normal, -hit->normal), 1, Real(1e-5));
    // Lying on the cut inside the square is inside the outline, whichever way it moves along it.
    const Transform on_cut{world_of({1, 1}), {}};
    for (const Vec2 along : {into, -into}) {
      const std::optional<CastHit> inside = shape_cast(square, pose, point, on_cut, along);
      ASSERT_TRUE(inside.has_value());
      EXPECT_EQ(inside->time, 0);
    }
    // Leaving the corner outward, or sliding along an outside face, meets nothing.
    EXPECT_FALSE(shape_cast(square, pose, point, at_corner, -into).has_value());
    EXPECT_FALSE(shape_cast(square, pose, point, at_corner, rotate(pose.rotation, Vec2{0, -1})).has_value());
    EXPECT_FALSE(shape_cast(square, pose, point, at_corner, rotate(pose.rotation, Vec2{-1, 0})).has_value());
    // Arriving at the corner from outside along the cut's line: a normal of the outline's corner.
    const Transform outside{world_of({3, 3}), {}};
    const std::optional<CastHit> arrival = shape_cast(square, pose, point, outside, 2 * into);
    ASSERT_TRUE(arrival.has_value());
    EXPECT_NEAR(arrival->time, Real(0.5), Real(1e-4));
    const Vec2 arrival_normal = inverse_rotate(pose.rotation, arrival->normal);
    EXPECT_GE(arrival_normal.x, -Real(1e-5));
    EXPECT_GE(arrival_normal.y, -Real(1e-5));
  }
}

TEST(CompoundCast, AShortSegmentSlidingAlongASeamFarOutIsMet) {
  // From the mover fuzzer (its numbers, exact in float): a segment 1.6 long touching a compound of
  // three triangles 2e6 across on the seam between two of them, and moving along it, 4,300 into
  // the outline. The seam test took its band from the segment's coordinates (about 1e3), while
  // the seam's own lie 2e6 out, where float puts the segment a fraction of a unit off the seam
  // line: the touching start was not seen on the seam, each piece saw the segment slide along its
  // face, and the cast found nothing. The band is now the compound's coordinates'.
  const Shape compound = make_compound({triangle({0x1.6764p+20f, 0x1.6764p+20f}, {-0x1p+21f, 0x1.6764p+20f}, {-0x1.ff4cp+20f, -0x1p+21f}),
                                        triangle({-0x1.ff4cp+20f, -0x1p+21f}, {0x1.dedcp+20f, 0x1.dc1p+20f}, {0x1.6764p+20f, 0x1.6764p+20f}),
                                        triangle({0x1.dedcp+20f, 0x1.dc1p+20f}, {-0x1.7824p+20f, 0x1.8bdcp+20f}, {0x1.6764p+20f, 0x1.6764p+20f})})
                             .value();
  const Transform compound_pose{{0x1.6764p+10f, 0x1.58p+10f}, {0x1.92bf14p-5f, -0x1.ff618p-1f}};
  const Shape segment = Segment{{0x1.6764p+7f, 0x1.6764p+7f}, {0x1.6764p+7f, 0x1.644p+7f}};
  const Transform from{{0x1.4627fap+10f, 0x1.2f84b2p+9f}, {-0x1.5a7c22p-1f, -0x1.78f384p-1f}};
  const Vec2 along{0x1.01ff0cp+11f, -0x1.d33254p+10f};
  const Real band = 64 * contact_tolerance(size_scale(compound) + coordinate_magnitude(from.position));
  const std::optional<Penetration> at_end = penetration(compound, compound_pose, segment, {from.position + along, from.rotation});
  ASSERT_TRUE(at_end.has_value());
  ASSERT_GT(at_end->depth, 4 * band);  // the motion ends deep inside the outline
  const std::optional<CastHit> hit = shape_cast(compound, compound_pose, segment, from, along);
  ASSERT_TRUE(hit.has_value());
  // Met at the start (in double the pose, found in float, is a hair inside already), or nowhere
  // before the hit is the segment inside the outline beyond the band.
  EXPECT_TRUE(hit->time > 0 || hit->initially_touching);
  for (int k = 1; k <= 16 && hit->time > 0; ++k) {
    const Real t = hit->time * Real(k) / 16;
    const std::optional<Penetration> before = penetration(compound, compound_pose, segment, {from.position + t * along, from.rotation});
    EXPECT_TRUE(!before || before->depth <= band) << t;
  }
}

TEST(CompoundCast, BothOrdersStopASegmentSlidingIntoTheSideOfACrackAlike) {
  // From a 10-minute mover fuzz (seed 37, float): two pieces of a compound 2.1e6 across leave a
  // crack 0.15 degrees wide between them, and a segment 55 long lies in it 2,261 from its tip,
  // 0.036 into one side. move_and_slide() slid the compound along the other side, toward the
  // tip, so the segment sinks into the first side by 0.0029 of the way. A touching pair's cast
  // reports nothing while an axis its supports confirm to within the pair's band opens, and that
  // band counts the second shape's placement: 7.3 with the segment first (the world casts a mover
  // second), 3.7 with the piece first. So the cast let the compound slide 2,236 and the segment
  // end 6.38 into the piece, where penetration(), piece first, found it overlapping. A compound's
  // piece is now the first shape of every pair of a cast too. Checked: the compound moving and
  // the segment moving back stop at the same time, with mirrored normals and the same point, and
  // at the stop the segment sinks no deeper into any piece than at the start, beyond the band of
  // its coordinates' round-off (long double separating axes). time_of_impact() had the same
  // order dependence (the segment first: 0.00197, the compound first: 0).
  const Shape compound = compound_of(
      {{{-0x1.13cp+16f, -0x1.4504p+19f}, {-0x1.88p+13f, -0x1.d38p+16f}, {-0x1.77d4p+19f, 0x1.fffcp+19f}, {-0x1p+20f, -0x1.ffe4p+19f}, {-0x1.a34cp+19f, -0x1.fca4p+19f}},
       {{0x1.fffcp+19f, -0x1.3804p+19f}, {-0x1.77d4p+19f, 0x1.fffcp+19f}, {-0x1.88p+13f, -0x1.d38p+16f}},
       {{-0x1.88p+13f, -0x1.d38p+16f}, {-0x1.294p+16f, -0x1.666p+19f}, {0x1.fffcp+19f, -0x1.3804p+19f}}});
  const Transform compound_pose{{-0x1.f76e1ap+19f, -0x1.1d92cp+20f}, Rot{-0x1.ffd972p-1f, 0x1.8d5ea8p-6f}};
  const Vec2 slide{0x1.1953p+17f, 0x1.12a65ep+20f};
  const Shape segment = Capsule{{-0x1.a4p+4f, 0x1.fe04p+4f}, {-0x1.d8p+4f, -0x1.7p+4f}, 0};
  const Transform segment_pose{{-0x1.efbcp+19f, -0x1.ffc8p+19f}, Rot{0x1.f71666p-1f, -0x1.7c7652p-3f}};
  const Real band = contact_tolerance(coordinate_magnitude(segment_pose.position));
  const std::vector<std::vector<Point>> placed_segment = placed_cores(segment, segment_pose);
  auto overlap_at = [&](Real time) {
    return deepest_overlap(placed_cores(compound, {compound_pose.position + time * slide, compound_pose.rotation}), placed_segment);
  };
  const long double overlap_at_start = overlap_at(0);
  ASSERT_LT(overlap_at_start, 0.05L);                      // 0.036 into the crack's first side
  ASSERT_GT(overlap_at(Real(0.002)), overlap_at_start + 4 * band);  // and the slide sinks it in
  // Two orders' hits: the same time, mirrored normals, the same point once `shift` (where the
  // second order sits at its time, relative to the first) is added to the second's, and at either
  // time no deeper, by `overlap_of`, than at the start, beyond the band. The point stands for a
  // contact as deep as the overlap (in double the pair overlaps from the start).
  auto expect_alike = [&](const std::optional<CastHit>& first, const std::optional<CastHit>& second, Vec2 shift, const auto& overlap_of) {
    ASSERT_TRUE(first.has_value());
    ASSERT_TRUE(second.has_value());
    const long double at_start = std::max(overlap_of(Real(0)), 0.0L);
    EXPECT_NEAR(first->time, second->time, band / length(slide));
    EXPECT_LE(length(first->normal + second->normal), 1e-4f);
    EXPECT_LE(length(first->point - (second->point + shift)), at_start + band);
    for (const Real time : {first->time, second->time}) EXPECT_LE(overlap_of(time), at_start + band) << time;
  };
  // The casts: the compound moving, and the segment moving back, which at time t sits t x slide
  // back from where the compound moving has it.
  const std::optional<CastHit> segment_moving = shape_cast(compound, compound_pose, segment, segment_pose, -slide);
  {
    SCOPED_TRACE("shape_cast");
    expect_alike(shape_cast(segment, segment_pose, compound, compound_pose, slide), segment_moving,
                 segment_moving ? segment_moving->time * slide : Vec2{}, overlap_at);
  }
  // time_of_impact() takes the same pairs, the compound sweeping along the slide.
  const Sweep compound_sweep = Sweep::from_motion(compound_pose, slide, 0, 1), segment_sweep = Sweep::from_motion(segment_pose, {}, 0, 1);
  auto swept_overlap_at = [&](Real time) {
    return deepest_overlap(placed_cores(compound, compound_sweep.at(time)), placed_cores(segment, segment_sweep.at(time)));
  };
  ASSERT_GT(swept_overlap_at(Real(0.002)), swept_overlap_at(0) + 4 * band);
  {
    SCOPED_TRACE("time_of_impact");
    expect_alike(time_of_impact(segment, segment_sweep, compound, compound_sweep), time_of_impact(compound, compound_sweep, segment, segment_sweep),
                 Vec2{}, swept_overlap_at);
  }
}

TEST(CompoundCast, APointPassingASeamsEndWithinTheBandTakesTheOutlinesNormal) {
  // From the mover fuzzer (its numbers, exact in float): a sliver triangle and a quadrilateral
  // share a seam whose upper end is a convex corner of the outline, between the quadrilateral's
  // long face and the sliver's outer face. A point sliding along the long face passes the corner
  // within the cast's touching band, which grows with the motion's length; the sliver's cast then
  // meets its corner with the seam's normal. The outline judged the point midway between the
  // surfaces, up to half a band off the corner and so off the seam, and kept that normal: the
  // mover slid along the seam into the compound (0.72 deep, beyond 64 bands). Every hit's normal
  // must be one the outline allows at the corner, in both orders, and the mover's path stays out.
  const Vec2 corner{-254.359375f, -186}, far_end{255.9921875f, 254.8046875f}, sliver_end{-256, -256}, seam_end{-254.765625f, -254.765625f};
  const Shape compound =
      make_compound({triangle(corner, sliver_end, seam_end), piece({seam_end, {-48.765625f, -255.953125f}, far_end, corner})}).value();
  ASSERT_TRUE(std::get<Compound>(compound).is_internal_edge(0, 2));
  const Vec2 along = normalize(corner - far_end);
  const Vec2 long_face_normal = right_perpendicular(along);                             // outward of the long face
  const Vec2 sliver_face_normal = right_perpendicular(normalize(sliver_end - corner));  // outward of the sliver's face
  ASSERT_GT(dot(long_face_normal, Vec2{-1, 1}), 0);
  ASSERT_GT(dot(sliver_face_normal, Vec2{-1, 0}), 0);
  // The corner's normals run from the long face's to the sliver face's (counter-clockwise).
  auto allowed_at_corner = [&](Vec2 normal) {
    const Real slack = Real(1e-4);
    return cross(long_face_normal, normal) >= -slack && cross(normal, sliver_face_normal) >= -slack && dot(normal, long_face_normal + sliver_face_normal) > 0;
  };
  const Real compound_reach = std::get<Compound>(compound).reach();
  const Shape point = Circle{{}, 0};
  int hits = 0;
  for (const Vec2 position : {Vec2{-1044.44128f, -1000.33362f}, Vec2{0, 0}, Vec2{-65536, 98304}}) {
    for (const Real angle : {Real(0), Real(1), Real(3.14159265f), Real(-2)}) {
      const Transform pose{position, Rot::from_angle(angle)};
      // Gaps from 0 to 3 bands of the coordinates: the cast's own band is wider for longer motions.
      const Real coordinate_band = contact_tolerance(coordinate_magnitude(position) + compound_reach);
      for (int gap_step = 0; gap_step < 6; ++gap_step) {
        for (int reach_step = 0; reach_step < 6; ++reach_step) {
          SCOPED_TRACE(testing::Message() << "at " << position.x << ", angle " << angle << ", gap step " << gap_step << ", reach step " << reach_step);
          const Real before = 20 + 60 * Real(reach_step % 3);            // start this far before the corner
          const Real travel = before * (Real(1.2) + Real(reach_step));  // and travel this far along the face
          const Vec2 start = corner - before * along + Real(gap_step) * Real(0.5) * coordinate_band * long_face_normal;
          const Transform point_at{transform_point(pose, start), {}};
          const Vec2 motion = rotate(pose.rotation, travel * along);
          const std::optional<CastHit> hit = shape_cast(compound, pose, point, point_at, motion);
          const std::optional<CastHit> swapped = shape_cast(point, point_at, compound, pose, -motion);
          ASSERT_EQ(hit.has_value(), swapped.has_value());
          if (!hit) continue;
          ++hits;
          EXPECT_TRUE(allowed_at_corner(inverse_rotate(pose.rotation, hit->normal)));
          EXPECT_TRUE(allowed_at_corner(inverse_rotate(pose.rotation, -swapped->normal)));
          // Met at the corner, not before it (the point is on or beyond it along the face), unless
          // touching from the start: far out the round-off of the motion's direction can close on
          // the face.
          const Vec2 met = inverse_transform_point(pose, point_at.position + hit->time * motion);
          EXPECT_TRUE(hit->initially_touching || dot(met - corner, along) >= -64 * coordinate_band);
          // The mirrored cast meets it at the same time, unless the point starts on the face (gap 0)
          // where whether sliding along it closes is round-off's call, in either order.
          if (gap_step > 0 || (!hit->initially_touching && !swapped->initially_touching)) {
            EXPECT_EQ(hit->time, swapped->time);
            EXPECT_EQ(hit->initially_touching, swapped->initially_touching);
          }
        }
      }
    }
  }
  EXPECT_GT(hits, 100);  // most of these casts meet the corner within their band
  // The fuzzer's move: the compound, turned half a turn, pushed out of the point and moved by
  // (-1024, -1024), slides along the long face past the corner and never into the outline.
  const Shape body_point = Circle{{-32, -32}, 0};
  const Transform body_pose{{-1024, -1020.8125f}, Rot::from_angle(Real(-1536) * Real(3.14159265358979) / 32768)};
  const World world = world_holding(body_point, body_pose);
  const Transform start{{-1024, -1024}, Rot::from_angle(Real(-3.14159265358979))};
  const MoveResult moved = move_and_slide(world, compound, start, {-1024, -1024}, {.skin = 0});
  ASSERT_NE(moved.pushed_out, Vec2{});
  ASSERT_GE(moved.path.size(), 3u);
  for (std::size_t i = 1; i + 1 < moved.path.size(); ++i) {
    for (int sample = 0; sample <= 16; ++sample) {
      const Transform along_path{moved.path[i] + (Real(sample) / 16) * (moved.path[i + 1] - moved.path[i]), start.rotation};
      const std::optional<Penetration> depth = penetration(compound, along_path, body_point, body_pose);
      const Real band = 64 * contact_tolerance(coordinate_magnitude(along_path.position) + compound_reach);
      EXPECT_TRUE(!depth || depth->depth <= band) << i << " " << sample << ": " << depth->depth;
    }
  }
}

TEST(CompoundCast, AFaceRestingOnASeamsEndIsMetWhereverTheMotionClosesOnIt) {
  // From the mover fuzzer (its numbers, exact in float), against first versions of the fix above:
  // a polygon 4,096 across, and a rounded one 130,000 across (radius 776), each pushed out of a
  // compound of two triangles, rest on the vertex where the triangles' seam ends. The pieces meet
  // the mover at time 0 with its own normal; judged at a point a little off the vertex (the parts'
  // shared nearest-point estimate, 0.013 along the long face, or the contact point, 0.0026 off),
  // the outline allows only the next face's normal there, which a motion within a few degrees of
  // the mover's face does not close on. A rule that dropped such hits let the movers slide 44 and
  // 502 into the compound. A pair touching from the start is judged at the contact and keeps its
  // hit, and a vertex within the pair's band of the contact counts as at it, so the corner's
  // normals (the mover's among them) are allowed. From the resting pose, a cast in any direction
  // that meets nothing never sinks into the compound on the way, and a hit at time 0 has a normal
  // the motion closes on.
  const Shape compound = make_compound({triangle({-209.828125f, 44}, {-168.25f, 192}, {-255.25f, 192.257812f}),
                                        triangle({-255.25f, 192.257812f}, {-123.820312f, -253.8125f}, {-209.828125f, 44})})
                             .value();
  const Transform compound_pose{{-1024, -1020.625f}, Rot::from_angle(Real(-18384) * Real(3.14159265358979) / 32768)};
  const World world = world_holding(compound, compound_pose);
  auto check_resting = [&](const Shape& mover, const Transform& start, Vec2 motion) {
    const PushOutResult pushed = push_out(world, mover, start);
    ASSERT_EQ(pushed.status, PushOutStatus::resolved);
    const Real band = 64 * contact_tolerance(coordinate_magnitude(pushed.transform.position) + size_scale(mover) + size_scale(compound) +
                                             coordinate_magnitude(compound_pose.position));
    auto depth_at = [&](const Transform& pose) {
      const std::optional<Penetration> found = penetration(compound, compound_pose, mover, pose);
      return found ? found->depth : Real(0);
    };
    // Every degree: the motions the dropped hits let through lie within a few degrees of the face.
    for (int step = 0; step < 360; ++step) {
      SCOPED_TRACE(testing::Message() << "direction " << step << " degrees");
      const Real angle = Real(step) * Real(3.14159265358979) / 180;
      const Vec2 along = length(motion) * Vec2{std::cos(angle), std::sin(angle)};
      const std::optional<CastHit> hit = shape_cast(compound, compound_pose, mover, pushed.transform, along);
      if (hit && hit->time == 0) {
        EXPECT_LT(dot(along, hit->normal), 0);  // a normal the motion closes on, so a mover slides along it
      }
      const Real free_until = hit ? hit->time : Real(1);
      for (int sample = 1; sample <= 16; ++sample) {
        EXPECT_LE(depth_at({pushed.transform.position + (free_until * Real(sample) / 16) * along, start.rotation}), band) << "sample " << sample;
      }
    }
    // The fuzzer's move ends, and passes, overlapping nothing beyond the band.
    const MoveResult moved = move_and_slide(world, mover, start, motion, {.skin = 0});
    EXPECT_LE(depth_at(moved.transform), band);
    for (std::size_t i = 1; i + 1 < moved.path.size(); ++i) {
      for (int sample = 1; sample <= 16; ++sample) {
        EXPECT_LE(depth_at({moved.path[i] + (Real(sample) / 16) * (moved.path[i + 1] - moved.path[i]), start.rotation}), band) << i << " " << sample;
      }
    }
  };
  {
    SCOPED_TRACE("a polygon 4,096 across");
    const Shape mover = make_polygon(std::vector<Vec2>{{-2047.5f, -2042.5f}, {-1686.625f, -2043.875f}, {2047.9375f, -2016.0625f},
                                                       {2047.9375f, 2047.9375f}, {-656.0625f, 2047.9375f}, {-1984.0625f, 2047.6875f},
                                                       {-2046.625f, -1696}})
                            .value();
    check_resting(mover, {{-1024, 848}, Rot::from_angle(Real(-32513) * Real(3.14159265358979) / 32768)}, {-623.28125f, -1023.28125f});
  }
  {
    SCOPED_TRACE("a rounded polygon 130,000 across");
    const Shape mover = make_polygon(std::vector<Vec2>{{-65320, -36768}, {-64976, -65344}, {49152, -65536}, {49218, -46656}, {-20994, 65534},
                                                       {-60904, 9234}},
                                     775.96875f)
                            .value();
    check_resting(mover, {{1023.84375f, -1024}, Rot::from_angle(Real(32562) * Real(3.14159265358979) / 32768)}, {-671.625f, 144.28125f});
  }
}

TEST(CompoundCast, APointOnANotchsTipFaceBesideASeamIsMetWhereverItEntersThePieces) {
  // From the mover fuzzer (float): a compound of three pieces 1,300 across whose notch ends in a
  // face 0.31 long, where a seam runs on from the notch's corner at 45 degrees. A point pushed out
  // onto that face slid along it to 0.0032 from the corner and was sent on at 44.88 degrees, into
  // the piece across the tip face and 0.14 degrees off the seam. The pair's cast counts the seam's
  // face in its contact (the point lies 0.0023 inside the seam's line, within the pair's band of
  // 0.0028) and so had the point sliding along it; the seam lay farther from the point than the
  // outline's test for seams reached, so the compound did not ask the outline, and the point slid
  // 0.26 into the compound. Oracle (long double): whether the point, moved 0.05 along the motion,
  // lies clearly inside the pieces' union (by its distance to the edges no two pieces share) or
  // clearly not; a motion into the union is met within four bands of the start (at time 0, or at a
  // corner it passes within the band) with a normal it closes on, one along or out of the tip face
  // is not; the compound moving onto the point, the same.
  const std::vector<std::vector<Vec2>> pieces = {
      {{0x1.224p+6f, 0x1.21p+6f}, {-0x1.4d5p+9f, -0x1.4bep+9f}, {-0x1.4d5p+9f, -0x1.4d5p+9f}, {0x1.0abp+9f, -0x1.4d5p+9f}},
      {{0x1.0abp+9f, -0x1.4d5p+9f}, {0x1.3d38p+9f, 0x1.3d48p+9f}, {0x1.224p+6f, 0x1.21p+6f}},
      {{0x1.3d38p+9f, 0x1.3d48p+9f}, {-0x1.4d5p+9f, 0x1.3d38p+9f}, {0x1.21p+6f, 0x1.21p+6f}, {0x1.224p+6f, 0x1.21p+6f}}};
  const Shape compound = compound_of(pieces);
  const Transform pose{{0x1.17cp+0f, 0x1.21p+0f}, unit_rotation({0x1.fcdbd4p-1f, 0x1.c50808p-4f})};
  const Vec2 corner{0x1.224p+6f, 0x1.21p+6f};  // where the tip face (along y = 72.25) meets the seam
  const Shape point = Segment{{}, {}};
  constexpr Real motion_length = Real(0.3);
  // The touching band of the compound's coordinates: a hit within four of the start stops the point
  // where it enters (at time 0, or a little on where it passes a corner within its band).
  const Real band = contact_tolerance(size_scale(compound) + coordinate_magnitude(pose.position));
  int entering = 0, not_entering = 0;
  for (int steps = 2; steps <= 32; steps += 2) {  // 0.0005 to 0.008 from the corner, in steps of 1/4096
    const Vec2 on_face = corner - Vec2{Real(steps) / 4096, 0};
    const Transform start{transform_point(pose, on_face), {}};
    const Point start_in_compound = as_point(inverse_transform_point(pose, start.position));
    for (const long double degrees : {44.0L, 44.5L, 44.88L, 45.0L, 45.02L, 45.1L, 45.5L, 46.0L, 90.0L, 135.0L, 170.0L, 180.0L, 200.0L, 10.0L}) {
      const long double radians = degrees * std::acos(-1.0L) / 180;
      const Vec2 direction{Real(std::cos(radians)), Real(std::sin(radians))};
      const Point probe{start_in_compound[0] + 0.05L * direction.x, start_in_compound[1] + 0.05L * direction.y};
      bool inside_a_piece = false;
      for (const std::vector<Vec2>& corners : pieces) {
        Ring ring;
        for (const Vec2 vertex : corners) ring.push_back(as_point(vertex));
        inside_a_piece = inside_a_piece || inside_even_odd(ring, probe);
      }
      const long double depth = (inside_a_piece ? 1 : -1) * distance_to_unshared_edges(pieces, probe);
      if (std::abs(depth) > 1e-4L && std::abs(depth) < 0.01L) continue;  // too close to call
      const bool enters = depth >= 0.01L;
      const Vec2 motion = rotate(pose.rotation, motion_length * direction);
      SCOPED_TRACE(::testing::Message() << steps << "/4096 from the corner, " << degrees << " degrees, probe depth " << depth);
      const std::optional<CastHit> hit = shape_cast(compound, pose, point, start, motion);
      const std::optional<CastHit> swapped = shape_cast(point, start, compound, pose, -motion);
      ASSERT_EQ(hit.has_value(), swapped.has_value());
      if (enters) {
        ++entering;
        ASSERT_TRUE(hit.has_value());
        EXPECT_LE(hit->time * motion_length, 4 * band);
        EXPECT_LT(dot(hit->normal, motion), 0);
        EXPECT_EQ(swapped->time, hit->time);
        EXPECT_NEAR(dot(swapped->normal, -hit->normal), 1, Real(1e-5));
      } else {
        ++not_entering;
        EXPECT_FALSE(hit && hit->time * motion_length <= 4 * band);
      }
    }
  }
  // Both kinds were asked, the near-seam directions among those that enter.
  EXPECT_GE(entering, 150);
  EXPECT_GE(not_entering, 30);
}

TEST(CompoundPenetration, APointAtTheTipOfANarrowNotchOnlyTouches) {
  // From the mover fuzzer (its numbers, exact in float): three triangles 6.7e7 across meeting at a
  // vertex, with a notch of 1.8 degrees between two of them reaching it, and a point (a circle of
  // radius 0) moving along the notch's edge from its tip. The compound's point query decides a
  // notch's tip by probes around it and misses one this narrow, putting the point 645,000 inside;
  // the check that a shape's centre lies inside the outline took that, and penetration() reported
  // 645,408 at half the poses. A centre within reach of an outside face is on the outline.
  const Shape compound = make_compound({piece({{0x1.3e8p+19f, 0x1.3bp+19f}, {0x1.bfb8p+24f, 0x1.d96cp+24f}, {-0x1p+25f, -0x1.fff4p+24f}}),
                                        piece({{-0x1p+25f, -0x1.fff4p+24f}, {0x1.7f8p+19f, -0x1p+25f}, {0x1.3e8p+19f, 0x1.3bp+19f}}),
                                        piece({{0x1.7f8p+19f, -0x1p+25f}, {0x1.fffcp+24f, 0x1.fffcp+24f}, {0x1.3e8p+19f, 0x1.3bp+19f}})})
                              .value();
  const Transform pose{{-0x1.eap+2f, -0x1.ffdp+4f}, {-0x1p+0f, 0x1.91a222p-14f}};
  const Shape point = Circle{{-0x1.9e08p+7f, -0x1.3d88p+6f}, 0};
  const Rot turn{0x1.ff0aep-1f, -0x1.f4c58ap-5f};
  const Vec2 from{-652281.688f, -645158.188f}, to{-652266.812f, -645143.312f};
  // The point lies a hair inside the notch's edge (0.35 in double, where these coordinates are
  // exact; within the band in float): never the tip's 645,000.
  const Real band = 64 * contact_tolerance(size_scale(compound));
  for (int k = 0; k <= 16; ++k) {
    const Transform at{from + (Real(k) / 16) * (to - from), turn};
    const std::optional<Penetration> found = penetration(compound, pose, point, at);
    EXPECT_TRUE(!found || found->depth <= band + 1) << k << ": " << found->depth;
  }
}

TEST(CompoundPenetration, ASmallCompoundInAHugeRoundedPolygonTakesTheShortWayOut) {
  // From the mover fuzzer (its numbers, exact in float): a compound 45 across 32 inside the edge
  // of a rounded polygon 7e7 across (radius 893,000). Its pieces' contacts failed the seam rule and
  // were recomputed on their own outside faces, whose separation is then the polygon's whole
  // extent, and the corners of those planes gave a depth of 1.2e7 (the polygon first, in float;
  // the compound first in double). Each pair of parts' own way out is now a candidate too. The
  // oracle: the depth lies between the compound centre's depth in the polygon (its distance from
  // the polygon's surface) and that plus the compound's reach, within the band; at the start the
  // compound is 2.4e7 deep.
  const Shape polygon = make_polygon(std::vector<Vec2>{{-0x1p+25f, -0x1.fc9cp+24f}, {0x1.fp+24f, -0x1.6768p+24f}, {0x1.6764p+24f, 0x1.6764p+24f},
                                                       {-0x1.0b64p+24f, 0x1.6764p+24f}, {-0x1.40bcp+24f, 0x1.4744p+24f}},
                                      0x1.b3b2p+19f)
                             .value();
  const Shape compound = make_compound({piece({{-0x1.13dp+4f, -0x1.8d6p+2f}, {0x1.def4p+4f, 0x1.dedcp+4f}, {-0x1.7878p+4f, 0x1.dfdcp+4f}}),
                                        piece({{-0x1p+5f, 0x1.8b88p+4f}, {-0x1p+5f, -0x1p+5f}, {-0x1.fc14p+4f, -0x1.fp+4f}}),
                                        piece({{-0x1.fc14p+4f, -0x1.fp+4f}, {-0x1.13dp+4f, -0x1.8d6p+2f}, {-0x1.7878p+4f, 0x1.dfdcp+4f}, {-0x1p+5f, 0x1.8b88p+4f}}),
                                        piece({{-0x1.fc14p+4f, -0x1.fp+4f}, {0x1.fep+4f, 0x1.e0b8p+4f}, {-0x1.13dp+4f, -0x1.8d6p+2f}})})
                              .value();
  const Transform compound_pose{{-0x1.ff7cp+10f, -0x1.fcbcp+10f}, {-0x1.b1a406p-2f, 0x1.cfd302p-1f}};
  const Rot turn{-0x1.7f6acep-2f, 0x1.dac126p-1f};
  for (const Vec2 position : {Vec2{0x1.6764p+10f, 0x1.644p+10f}, Vec2{0x1.59d444p+24f, 0x1.175248p+23f}}) {
    const Transform polygon_pose{position, turn};
    const Real band = 64 * contact_tolerance(size_scale(polygon) + coordinate_magnitude(position));
    const Real centre_depth = -closest_point(polygon, polygon_pose, compound_pose.position).signed_distance;
    for (const bool polygon_first : {true, false}) {
      SCOPED_TRACE(polygon_first);
      const std::optional<Penetration> found = polygon_first ? penetration(polygon, polygon_pose, compound, compound_pose)
                                                             : penetration(compound, compound_pose, polygon, polygon_pose);
      ASSERT_TRUE(found.has_value());
      EXPECT_GE(found->depth, centre_depth - band);
      EXPECT_LE(found->depth, centre_depth + size_scale(compound) + band);
    }
  }
}

TEST(CompoundPenetration, ASegmentWithinTheBandsOfASliversSeamIsInsideTheOutline) {
  // From the mover fuzzer (fuzz/regressions/fuzz_mover): a compound 1.2e7 across whose pieces
  // include slivers, and a segment 125 long lying within 52 of a seam between two of them, 17,000
  // inside the outline. In float the pieces' bands there are 30 to 60 wide, so the segment only
  // touched each piece and penetration() with the segment first found the pair touching (depth
  // 0), while the compound first gave 17,071; push_out() then left the segment inside. The
  // segment's middle lies inside the outline (the compound's point query), which bounds the depth
  // from below, whichever shape comes first, and the translation found frees the pair.
  // Coordinates as the fuzzer made them (exact in float).
  const Shape compound = make_compound({triangle({0x1.09p+20f, 0x1.09p+20f}, {-0x1.ffa8p+22f, -0x1.a8p+22f}, {-0x1.fcp+22f, -0x1.ffd8p+22f}),
                                        triangle({-0x1.fcp+22f, -0x1.ffd8p+22f}, {0x1.fc58p+22f, 0x1.fc5cp+22f}, {0x1.09p+20f, 0x1.09p+20f}),
                                        triangle({0x1.fc58p+22f, 0x1.fc5cp+22f}, {0x1.09p+20f, 0x1.0ffp+20f}, {0x1.09p+20f, 0x1.09p+20f})})
                             .value();
  const Vec2 start{-0x1.47a8p+5f, -0x1.fe04p+5f}, end{0x1.fe4p+5f, 0x1.09p+3f};
  const Shape segment = Segment{start, end};
  // The fuzzer's rotations are unit in float; in double they are normalised (unit_rotation), or
  // their float round-off would scale coordinates 1e7 out by 0.1 and the two orders' frames differ.
  const Transform segment_pose{{0x1.09p+5f, 0x1.09p+5f}, unit_rotation({0x1.d646bcp-1f, 0x1.94e422p-2f})};
  // Where push_out() had moved the compound (the mover) when it stopped, and where it started.
  const Rot turned = unit_rotation({-0x1.9a7b1p-1f, -0x1.3205bp-1f});
  const Transform stopped{{Real(-211.828125) + Real(5273.81055), Real(-207.796875) - Real(750.908569)}, turned};
  const Transform started{{-0x1.a7a8p+7f, -0x1.9f98p+7f}, turned};
  const Real band = 64 * contact_tolerance(size_scale(compound) + 1e4f);
  const Vec2 middle = transform_point(segment_pose, Real(0.5) * (start + end));
  for (const Transform& pose : {stopped, started}) {
    const Real middle_depth = -closest_point(compound, pose, middle).signed_distance;
    EXPECT_GT(middle_depth, 10 * band);
    const std::optional<Penetration> found = penetration(segment, segment_pose, compound, pose);
    ASSERT_TRUE(found.has_value());
    EXPECT_GE(found->depth, middle_depth - band);
    const Transform freed{pose.position + (found->depth + band) * found->normal, pose.rotation};
    EXPECT_FALSE(overlap(segment, segment_pose, compound, freed));
    // The other way round: the same least way out, mirrored (in double the segment first at the
    // stopped pose gave 130,667 where 17,072 frees the pair, before the union's candidates).
    const std::optional<Penetration> swapped = penetration(compound, pose, segment, segment_pose);
    ASSERT_TRUE(swapped.has_value());
    EXPECT_GE(swapped->depth, middle_depth - band);
    EXPECT_NEAR(swapped->depth, found->depth, band);
    EXPECT_LE(length(swapped->normal + found->normal) * found->depth, band);
  }
  // push_out() of the compound from a world holding the segment frees it.
  const World world = world_holding(segment, segment_pose);
  const PushOutResult pushed = push_out(world, compound, started);
  EXPECT_EQ(pushed.status, PushOutStatus::resolved);
  const std::optional<Penetration> after = penetration(segment, segment_pose, compound, pushed.transform);
  EXPECT_TRUE(!after || after->depth <= band);
}

TEST(CompoundPenetration, ASegmentAlongTheCutBesideASliversSharpTipIsInsideTheOutline) {
  // From the mover fuzzer (fuzz/regressions/fuzz_mover): a compound 2e6 across, of a
  // quadrilateral and three triangles, one of them a sliver whose tip, 0.06 degrees sharp, is the
  // quadrilateral's corner; the cut between those two was flagged a seam on the sliver's side
  // only (moved a few bands out of the quadrilateral, the cut's end at the tip sat on the sliver's
  // widened edge, and round-off put it outside). Penetration's outline check took the cut for an
  // outside face, so a zero-radius capsule 10.7 long lying along the cut, 968 inside the outline,
  // was found only touching with the capsule first, and push_out() left it there. The depth lies
  // between the middle's depth in the outline and the farther end's depth inside the sliver's far
  // side (moving out across it frees the segment), both computed here in long double.
  // Coordinates as the fuzzer made them (exact in float).
  const Vec2 tip{1044160, -185280}, cut_end{-242656, -61696}, sliver_base{-250112, -62368}, fold{-769696, -78560};
  const std::vector<Vec2> outline = {tip, {1048544, 1048544}, {-236352, 827360}, cut_end, fold, {-1048576, -1048352}, sliver_base};
  const Compound compound = make_compound({piece({tip, outline[1], outline[2], cut_end}), triangle(sliver_base, tip, cut_end),
                                           triangle(cut_end, fold, sliver_base), triangle(fold, outline[5], sliver_base)})
                                .value();
  ASSERT_EQ(std::get<Polygon>(compound.children()[0].shape).vertices()[3], cut_end);  // the cut is edge 3 of the one,
  ASSERT_EQ(std::get<Polygon>(compound.children()[1].shape).vertices()[1], tip);      // edge 1 of the other
  EXPECT_TRUE(compound.is_internal_edge(0, 3));
  EXPECT_TRUE(compound.is_internal_edge(1, 1));
  for (int edge : {0, 1, 2}) EXPECT_FALSE(compound.is_internal_edge(0, edge)) << edge;
  EXPECT_FALSE(compound.is_internal_edge(1, 0));
  const Shape shape = compound;
  const Transform pose{{-0x1.6b8186p+19f, -0x1.172ab4p+20f}, unit_rotation({-0x1.ffffaep-1f, -0x1.210502p-9f})};
  const Capsule capsule{{-0x1.a4p+4f, -0x1.fffcp+4f}, {-0x1p+5f, -0x1.7p+4f}, 0};
  const Transform capsule_pose{{-0x1.afc8p+19f, -0x1.fe74p+19f}, unit_rotation({-0x1.cfe84ap-1f, -0x1.b148eap-2f})};
  const Vec2 world_start = transform_point(capsule_pose, capsule.a), world_end = transform_point(capsule_pose, capsule.b);
  const Ring ring = placed_ring(outline, pose);
  const long double middle_depth =
      boundary_distance(ring, {0.5L * world_start.x + 0.5L * world_end.x, 0.5L * world_start.y + 0.5L * world_end.y});
  // How far an end lies inside the line of the sliver's far side (ring[6] to ring[0]).
  auto inside_far_side = [&](Vec2 p) { return cross_of(ring[6], ring[0], {p.x, p.y}) / std::hypot(ring[0][0] - ring[6][0], ring[0][1] - ring[6][1]); };
  const long double frees_at = std::max(inside_far_side(world_start), inside_far_side(world_end));
  ASSERT_GT(middle_depth, 900);
  ASSERT_LT(frees_at, 1000);
  const Real band = 64 * contact_tolerance(size_scale(compound) + coordinate_magnitude(pose.position));
  for (const Shape& thin : {Shape{capsule}, Shape{Segment{capsule.a, capsule.b}}}) {
    for (const bool thin_first : {true, false}) {
      const std::optional<Penetration> found = thin_first ? penetration(thin, capsule_pose, shape, pose) : penetration(shape, pose, thin, capsule_pose);
      ASSERT_TRUE(found.has_value()) << thin_first;
      EXPECT_GE(found->depth, Real(middle_depth) - band) << thin.index() << thin_first;
      EXPECT_LE(found->depth, Real(frees_at) + band) << thin.index() << thin_first;
      const Vec2 away = (thin_first ? Real(-1) : Real(1)) * (found->depth + band) * found->normal;  // moves the thin shape off
      EXPECT_FALSE(overlap(thin, {capsule_pose.position + away, capsule_pose.rotation}, shape, pose)) << thin.index() << thin_first;
    }
  }
}

TEST(CompoundPointQuery, APiecesCornerOnAnotherPiecesFaceIsOnTheOutline) {
  // From the pair-query fuzzer: a triangle whose corner lies on another triangle's long face (a
  // T-junction, so that face stays outline), and a ray along that face, which hits the corner.
  // The point query put the hit 8.5 inside: a probe off the long face there lies in the corner's
  // piece, and a probe off the corner's own face lies in the long face's piece, so both faces were
  // taken as covered. A face point within the probes' reach of a corner is now judged as the
  // corner. Oracle: the union's outline (a simple polygon, concave at that corner), its signed
  // distance in long double, at points all around the corner.
  const Vec2 corner{0x1.7774p+4f, 0x1.7774p+4f}, top_right{0x1.fffcp+4f, 0x1.fffcp+4f}, bottom_left{-32, -32};
  const std::vector<Vec2> outline = {bottom_left, {0x1.fc34p+4f, -0x1.ccp+4f}, top_right, {-32, 0x1.fffcp+4f}, corner};
  const Compound compound =
      make_compound({triangle(outline[1], top_right, bottom_left), triangle(top_right, outline[3], corner)}).value();
  ASSERT_FALSE(compound.is_internal_edge(0, 1));  // the long face: partly under the other piece only
  ASSERT_TRUE(compound.is_internal_edge(1, 2));
  const Shape shape = compound;
  const Transform pose{{-32, -32}, {-1, 0x1.777a5cp-24f}};  // as the fuzzer placed it (a half turn)
  const Ring ring = placed_ring(outline, pose);
  expect_outline_distance_all_round(shape, pose, ring, corner);
  // The fuzzer's ray, along the long face from its middle: it hits the corner, on the surface.
  expect_fuzzer_ray_meets(shape, pose, corner);
}

TEST(CompoundPointQuery, TheTipOfANotchNarrowerThanTheCornerProbesIsOnTheOutline) {
  // From the pair-query fuzzer (the CI smoke): three pieces meet at a point where two of them
  // leave a notch of 1.4 degrees between them, and a ray along one side of the notch hits its
  // tip. The tip's 32 probes (11 degrees apart) all lie in some piece, so the tip was not taken
  // for the outline, and as each face's nearest point to it is the tip itself, the nearest
  // outline point was a face 3.7 away: the hit was "3.7 inside". The corner is now also probed
  // along the bisector between each two neighbouring directions of the pieces' edges leaving it.
  // The CI smoke later found the same pieces with a notch of 0.02 degrees, narrower than the
  // probe distance along its last 4 units; the ray's hit, 0.007 short of the tip on the notch's
  // side, was "3.5 inside". A neighbour now covers a face only where its facing face stays within
  // the probe's margin over the stretch both span (a notch's sides diverge, so they are outline);
  // a notch's bisector is also probed where the notch is one band wide; and a face point judged
  // as a corner (within the probes' reach of the tip) probes the bisectors of the edges leaving
  // the tip, which it gathers from that same reach.
  // The smoke then found a notch of 0.001 degrees (third below). Oracle: the union's outline
  // (concave at the tip), its signed distance in long double, all round the tip and along both
  // sides.
  const Vec2 tip{0x1.7774p+4f, 0x1.7774p+4f}, bottom_left{-32, -32}, right{0x1.fc34p+4f, -0x1.ccp+4f}, top_right{0x1.fcap+4f, 0x1.fffcp+4f};
  const Vec2 top{0x1.a7a8p+4f, 0x1.fffcp+4f};
  for (const Vec2 left : {Vec2{-32, -0x1.d73cp+4f}, Vec2{-32, -0x1.ff4p+4f}, Vec2{-0x1.ff48p+4f, -0x1.ff4p+4f}}) {
    SCOPED_TRACE("notch side from (-32, " + std::to_string(left.y) + ")");
    const Compound compound =
        make_compound({triangle(tip, bottom_left, right), triangle(right, top_right, tip), piece({top_right, top, left, tip})}).value();
    const Shape shape = compound;
    const Transform pose{{-32, -32}, {-1, 0x1.777a5cp-24f}};  // as the fuzzer placed it (a half turn)
    const Ring ring = placed_ring({bottom_left, right, top_right, top, left, tip}, pose);
    expect_outline_distance_all_round(shape, pose, ring, tip);
    // Along both sides, where the narrow notch's sides are within the probes' reach of each other
    // (though they diverge): on each side, and a little inside its piece.
    for (const Vec2 side_end : {bottom_left, left}) {
      const Vec2 along = normalize(side_end - tip), into_piece = side_end == left ? right_perpendicular(along) : left_perpendicular(along);
      for (int k = 1; k <= 32; ++k) {
        for (const Real inset : {Real(0), Real(1e-3), Real(1e-2)}) {
          const Vec2 point = transform_point(pose, tip + (Real(k) / 4) * along + inset * into_piece);
          expect_outline_distance(shape, pose, ring, point, "side point " + std::to_string(k) + " inset " + std::to_string(inset));
        }
      }
    }
    // The fuzzer's ray, from the compound's origin along the notch's lower side: it hits the tip,
    // or the upper side where that comes within the ray's offset from the tip (the pose's turn is
    // a hair off a half turn) and the round-off of the tip's coordinates.
    const Real sides_sine = std::abs(cross(normalize(bottom_left - tip), normalize(left - tip)));
    const Vec2 origin = inverse_transform_point(pose, {-32, -32}), direction = normalize(inverse_rotate(pose.rotation, {-32, -32}));
    const Real offset = std::abs(cross(direction, tip - origin));
    expect_fuzzer_ray_meets(shape, pose, tip, (offset + round_off(coordinate_magnitude(tip))) / sides_sine);
  }
}

TEST(CompoundPointQuery, TheSidesOfANotchNarrowerThanTheBandAreOnTheOutline) {
  // From the mover fuzzer (float): three triangles 6.7e7 across fan out from one point, two of
  // them leaving a notch of 0.004 degrees that closes there (its sides' slopes 1.000363 and
  // 1.000218), 137 wide 1e6 from the point, narrower than the probes there (about 520). Each side
  // was taken for covered by the other piece, a crack round-off left, and a point on it for 7.4e6
  // inside, while penetration() had it touching; the mover's path was judged to run through the
  // body. A piece covers a face only where its facing face stays within the probe's margin over
  // the stretch both span; these sides part by 4,800. Oracle: the union's outline, its signed
  // distance in long double, within four bands of the point's and the compound's magnitudes.
  const Vec2 fan{652288, 645120}, upper_side_end{20395008, 20395008}, left{-33554432, 20395008};
  const Vec2 bottom{33292288, -33421312}, lower_side_end{33553408, 33553408};
  const Shape compound = make_compound({triangle(fan, upper_side_end, left), triangle(left, bottom, fan), triangle(bottom, lower_side_end, fan)}).value();
  ASSERT_FALSE(std::get<Compound>(compound).is_internal_edge(0, 0));  // the notch's two sides
  ASSERT_FALSE(std::get<Compound>(compound).is_internal_edge(2, 1));
  // As the fuzzer placed it (its turn's sine and cosine, made unit in double).
  const Transform pose{{9958.5f, 9958.5f}, Rot::from_angle(std::atan2(Real(0.989882112f), Real(-0.141892165f)))};
  const Ring ring = placed_ring({left, bottom, lower_side_end, fan, upper_side_end}, pose);
  const Shape point = Capsule{{0, 0}, {0, 0}, 0};
  for (const Vec2 side_end : {upper_side_end, lower_side_end}) {
    const Vec2 along = normalize(side_end - fan), into_piece = side_end == upper_side_end ? left_perpendicular(along) : right_perpendicular(along);
    for (Real reach = 65536; reach < Real(1.6e7); reach *= 2) {
      const Vec2 on_side = fan + reach * along;
      const Real band = 4 * contact_tolerance(coordinate_magnitude(on_side) + size_scale(compound));
      for (const Real inset : {Real(0), band / 4, 4 * band}) {
        const Vec2 where = transform_point(pose, on_side + inset * into_piece);
        const std::string label = "reach " + std::to_string(reach) + " inset " + std::to_string(inset);
        expect_outline_distance(compound, pose, ring, where, label);
        // A point there overlaps the compound by no more than it lies inside the outline.
        const Point exact{where.x, where.y};
        const long double depth = inside_even_odd(ring, exact) ? boundary_distance(ring, exact) : 0.0L;
        for (const bool point_first : {true, false}) {
          const Transform at{where, {}};
          const std::optional<Penetration> found = point_first ? penetration(point, at, compound, pose) : penetration(compound, pose, point, at);
          if (found) {
            EXPECT_LE(found->depth, static_cast<Real>(depth) + 16 * band) << label << " point first " << point_first;
          }
        }
      }
    }
  }
}

TEST(CompoundPointQuery, APointInACrackThinnerThanTheBandAlongItsSeamsIsInside) {
  // From the mover fuzzer (float): the fan above, its lower side turned a little further (its end
  // at (33549312, 33553408)), so that the two sides leave a crack 8.6 wide 8.7e5 from the fan's
  // point and 288 where the upper side ends, thinner than the band (about 380) along the whole of
  // it: the seam flags mark the upper side a seam, and penetration() held a point in the crack
  // 6.9e6 inside, along that seam. The point query judged the neighbour's side over its whole length (4.7e7,
  // parting from the upper side by 465 at its far end) and put the point 0.625 outside, so the
  // mover slid into the crack and ended there. The upper side is now judged over its own stretch,
  // as the seam flags judge it. Oracle (long double): the crack's widest point along the upper
  // side against the point query's band; a crack thinner than that is filled, and the point's
  // signed distance is that of the outline without the crack, where penetration() agrees; a wider
  // one (double) is open, and the point lies outside by its distance from the nearer side.
  const Vec2 fan{652288, 645120}, upper_side_end{20395008, 20395008}, left{-33554432, 20395008};
  const Vec2 bottom{33553408, -33421312}, lower_side_end{33549312, 33553408};
  const Shape compound = make_compound({triangle(fan, upper_side_end, left), triangle(left, bottom, fan), triangle(bottom, lower_side_end, fan)}).value();
  const Transform pose{{9958.5f, 9958.5f}, Rot::from_angle(std::atan2(Real(0x1.229854p-3f), Real(0x1.fad1d4p-1f)))};
  const Vec2 where{1086603.25f, 1438717.75f};  // world; in the crack, about 0.6 from the upper side
  const Vec2 local = inverse_transform_point(pose, where);
  const Real band = 4 * contact_tolerance(coordinate_magnitude(where) + size_scale(compound));
  // The crack's width where the upper side ends: that end's distance from the lower side's line.
  const long double widest = std::abs(offset_from_line(as_point(fan), as_point(lower_side_end), as_point(upper_side_end)));
  const long double from_lower = offset_from_line(as_point(fan), as_point(lower_side_end), as_point(local));
  ASSERT_GT(from_lower, 0);  // above the lower side, in the crack
  SCOPED_TRACE(testing::Message() << "widest " << static_cast<double>(widest) << ", band " << band);
  const PointProjection found = closest_point(compound, pose, where);
  if (widest < 0.9L * band) {
    ASSERT_TRUE(std::get<Compound>(compound).is_internal_edge(0, 0));  // the upper side, a seam (the lower runs on past it)
    const Ring filled = placed_ring({left, bottom, lower_side_end, upper_side_end}, pose);
    expect_outline_distance(compound, pose, filled, where, "in the filled crack");
    EXPECT_LT(found.signed_distance, -1000 * band);
    const Shape point = Circle{{0, 0}, 0};
    for (const bool point_first : {true, false}) {
      const Transform at{where, {}};
      const std::optional<Penetration> deep = point_first ? penetration(point, at, compound, pose) : penetration(compound, pose, point, at);
      ASSERT_TRUE(deep.has_value());
      EXPECT_NEAR(deep->depth, -found.signed_distance, 16 * band) << "point first " << point_first;
    }
  } else {
    ASSERT_GT(widest, 1.1L * band);
    // Open: outside, nearest the upper side (the point lies 8 from the lower one).
    const long double from_upper = offset_from_line(as_point(fan), as_point(upper_side_end), as_point(local));
    EXPECT_NEAR(found.signed_distance, static_cast<Real>(-from_upper), band);
    EXPECT_GT(found.signed_distance, 0);
  }
}

TEST(CompoundPointQuery, APointInANotchBesideANearlyFlatVertexIsJudgedByTheFaceItIsNear) {
  // From the mover fuzzer (float), on the crack test above: a quadrilateral piece whose vertex at
  // the fan's point is nearly flat (its two edges there turn by 0.0001 degrees; the one before is
  // a seam with the next piece), and a third piece whose side leaves a notch 223 wide 3e5 out
  // along the edge after, parting from it by 2e4 where that edge ends. A point in the notch, 107
  // from the edge after, matched the seam before by its normal, was judged in a crack and put
  // 107 inside; the mover's move, which ended there, was judged inside a body it never entered.
  // Oracle (long double): the notch is far wider than the point query's band where the edge
  // ends, so the point is outside by its distance from that edge.
  const Vec2 fan{652288, 645120}, edge_end{20321280, 20349952}, corner{-33554432, 20395008}, far_corner{-33554432, -33544192};
  const Vec2 bottom{32766976, -16381952}, notch_end{33549312, 33553408};
  const Shape compound = make_compound({piece({corner, far_corner, fan, edge_end}), triangle(far_corner, bottom, fan), triangle(bottom, notch_end, fan)}).value();
  ASSERT_TRUE(std::get<Compound>(compound).is_internal_edge(0, 1));   // the seam before the flat vertex
  ASSERT_FALSE(std::get<Compound>(compound).is_internal_edge(0, 2));  // the notch's side after it
  const Transform pose{{-11118, -15488}, Rot::from_angle(std::atan2(Real(0x1.777a5cp-24f), Real(-1)))};
  const Vec2 local{865408.4f, 858477.7f};
  const Vec2 where = transform_point(pose, local);
  const Vec2 placed_local = inverse_transform_point(pose, where);
  const Real band = 4 * contact_tolerance(coordinate_magnitude(where) + size_scale(compound));
  // The notch's width where the edge after the flat vertex ends, and the point's distance from it.
  const long double widest = std::abs(offset_from_line(as_point(fan), as_point(notch_end), as_point(edge_end)));
  // The piece lies left of the edge, the third piece right of its side.
  const long double from_edge = -offset_from_line(as_point(fan), as_point(edge_end), as_point(placed_local));
  const long double from_notch_side = offset_from_line(as_point(fan), as_point(notch_end), as_point(placed_local));
  ASSERT_GT(widest, 10 * band);
  ASSERT_GT(from_edge, 0);  // in the notch: outside both
  ASSERT_GT(from_notch_side, 0);
  const Real expected = static_cast<Real>(std::min(from_edge, from_notch_side));
  const PointProjection found = closest_point(compound, pose, where);
  EXPECT_NEAR(found.signed_distance, expected, band) << "widest " << static_cast<double>(widest) << ", band " << band;
  EXPECT_GT(found.signed_distance, 0);
}

TEST(CompoundPointQuery, ASideFlaggedASeamIsOutlineWhereTheCrackBesideItIsOpen) {
  // From the mover fuzzer (float): a fan of three pieces 8.4e6 across whose hub opens into a crack
  // between two of them. The shorter side is 3.5e6 long and flagged a seam (the flag judges the
  // whole side, within a few bands); the crack is 108 wide where it ends. 2.5e6 along it, the
  // crack is 73 wide, about 4 of the point query's bands: a point in it, 17.8 from the shorter
  // side, was outside by the point query, but one just inside that side's piece was put 73 deep,
  // across the crack, and penetration() held the point in the crack 803,207 deep along the seam;
  // a move ended there, "inside". Oracle (long double): the crack's width at the point against
  // the band; where it is twice the band or more, the outline runs along both sides, so a point
  // in it is outside by its distance from the nearer side, and one inside a piece is inside by
  // its distance from that piece's side. Points within a band of a side are too close to call.
  const Vec2 hub{0x1.3e8p+16f, 0x1.3ap+16f}, short_end{0x1.3734p+21f, 0x1.3734p+21f}, long_end{0x1.ffecp+21f, 0x1.fffcp+21f};
  const Vec2 left{-0x1.ffep+21f, 0x1.3734p+21f}, bottom{0x1.fcp+21f, -0x1.fdf8p+21f}, right{0x1.fffcp+21f, 0x1.ffdcp+21f};
  const Shape compound = make_compound({triangle(hub, short_end, left), triangle(left, bottom, hub), piece({bottom, right, long_end, hub})}).value();
  // The shorter side (hub to short_end) is flagged a seam in float, where the crack at its end is
  // a few bands wide; the longer one (long_end to hub) is not.
  ASSERT_EQ(std::get<Compound>(compound).is_internal_edge(0, 0), (std::is_same_v<Real, float>));
  ASSERT_FALSE(std::get<Compound>(compound).is_internal_edge(2, 2));
  const Transform pose{{0x1.3734p+13f, 0x1.3734p+13f}, unit_rotation({0x1.fad1d4p-1f, 0x1.229854p-3f})};
  const Vec2 along = normalize(short_end - hub), outward = right_perpendicular(along);  // out of the shorter side's piece, into the crack
  int points = 0;
  for (const Real share : {0.4f, 0.55f, 0.7f, 0.85f}) {
    for (const Real offset : {-40.f, -20.f, -8.f, 8.f, 20.f, 40.f}) {  // from the shorter side, outward (into the crack) when positive
      const Vec2 local = hub + share * length(short_end - hub) * along + offset * outward;
      const Vec2 where = transform_point(pose, local);
      const Vec2 placed_local = inverse_transform_point(pose, where);
      const Real band = contact_tolerance(coordinate_magnitude(where) + size_scale(compound));
      const long double from_short = -offset_from_line(as_point(hub), as_point(short_end), as_point(placed_local));  // > 0 in the crack
      const long double from_long = offset_from_line(as_point(hub), as_point(long_end), as_point(placed_local));     // > 0 in the crack
      const long double width = from_short + from_long;
      SCOPED_TRACE(::testing::Message() << "share " << share << ", offset " << offset << ": crack " << static_cast<double>(width) << " wide, band " << band);
      if (width < 2 * band) continue;  // thin enough to be filled, or too close to call
      if (std::abs(from_short) <= band || std::abs(from_long) <= band) continue;  // on a side: too close to call
      ++points;
      // In the crack, outside by the distance from the nearer side; in a piece, inside by the
      // distance from its side (the other side is farther).
      const long double expected = from_short > 0 && from_long > 0 ? std::min(from_short, from_long) : from_short < 0 ? from_short : from_long;
      const PointProjection found = closest_point(compound, pose, where);
      EXPECT_NEAR(found.signed_distance, static_cast<Real>(expected), 4 * band);  // the point query's probes step 4 bands
      const Shape point = Circle{{0, 0}, 0};
      for (const bool point_first : {true, false}) {
        const std::optional<Penetration> out = point_first ? penetration(point, Transform{where, {}}, compound, pose) : penetration(compound, pose, point, Transform{where, {}});
        const Real depth = out ? out->depth : 0;
        EXPECT_NEAR(depth, static_cast<Real>(std::max(-expected, 0.0L)), 4 * band) << point_first;
      }
    }
  }
  EXPECT_GE(points, 12);
}

TEST(CompoundPointQuery, ASliverThinnerThanTheProbeLyingOnTwoPiecesKeepsItsOuterFace) {
  // From the pair-query fuzzer (float, 1.2e6 from the origin): a sliver 65,535 long lies on two
  // pieces, its apex 0.2 below its outer face (1.6 touching bands), less than the seam probe's
  // reach there. The neighbours, widened by twice the probe distance, covered its outer face,
  // while their faces under it were seams covered by the sliver, so the outline had no face
  // there: a point on the outer face was put 788 inside, and a ray hitting it failed the
  // surface check. A neighbour now covers an edge only if it reaches the probe's line. The
  // fuzzer's pieces, with the apex put 1.6 bands below the outer face at either precision.
  // Oracle: the union's outline (A, B, D, C, E), its signed distance in long double.
  const Vec2 a{32767, 32767}, b{-32768, -32767}, d{-29184, -32767}, e{14006, 13980};
  const Vec2 along = normalize(a - b), outward = normalize(right_perpendicular(b - a));
  const Vec2 c = b + dot(Vec2{14006, 14006} - b, along) * along - Real(1.6) * contact_tolerance(65535) * outward;
  const Compound compound = make_compound({triangle(b, d, c), triangle(a, b, c), triangle(c, e, a)}).value();
  EXPECT_FALSE(compound.is_internal_edge(1, 0));  // the sliver's outer face, A to B
  EXPECT_TRUE(compound.is_internal_edge(1, 1));   // shared with the first piece's face
  EXPECT_TRUE(compound.is_internal_edge(1, 2));   // shared with the third piece's face
  const Shape shape = compound;
  const Transform pose{{37, -52}, Rot::from_angle(Real(0.7))};
  const Ring ring = placed_ring({a, b, d, c, e}, pose);
  const Real band_at_size = contact_tolerance(65535);
  int checked = 0;
  for (const Real share : {Real(0.05), Real(0.3), Real(0.5), Real(0.7), Real(0.714), Real(0.73), Real(0.95)}) {
    for (const Real offset : {Real(0), band_at_size, -band_at_size, 10 * band_at_size, -20 * band_at_size, Real(-100), Real(2000)}) {
      const Vec2 point = transform_point(pose, b + share * (a - b) + offset * outward);
      expect_outline_distance(shape, pose, ring, point, "share " + std::to_string(share) + " offset " + std::to_string(offset));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 49);
  // Rays onto the outer face along its inward normal: they hit it, on the surface, facing out.
  for (const Real share : {Real(0.2), Real(0.5), Real(0.714), Real(0.9)}) {
    const Vec2 on_face = b + share * (a - b);
    const Ray ray{transform_point(pose, on_face + 50 * outward), rotate(pose.rotation, Real(-100) * outward), 1};
    const std::optional<RayHit> hit = raycast(shape, pose, ray);
    ASSERT_TRUE(hit.has_value()) << share;
    EXPECT_NEAR(hit->fraction, Real(0.5), 1e-4f) << share;
    EXPECT_LE(std::abs(closest_point(shape, pose, hit->point).signed_distance), 4 * contact_tolerance(coordinate_magnitude(hit->point) + size_scale(compound)))
        << share;
    EXPECT_GT(dot(hit->normal, rotate(pose.rotation, outward)), Real(0.999)) << share;
  }
}

TEST(CompoundPenetration, ACompoundDeepInsideAPieceWithOnlySeamsIsFoundInBothOrders) {
  // From the mover fuzzer: a compound 45 across lies 1.5e6 inside a compound 1.2e7 across, over a
  // piece whose every face is a cut. The seam rule finds no outside face of that piece to put a
  // contact on, and with the large compound first no contact was left at all, so penetration()
  // answered "apart" (and push_out() left the mover there, reported resolved), while the other
  // order found the depth; contact_manifolds() reported nothing in that order. Oracle: the large compound's outline is the pieces' edges that no other
  // piece shares (matched exactly, in float), and the small compound's origin's distance from
  // those edges, in long double, less its reach, bounds the depth from below. The translation
  // found frees the pair, and both orders find the same least one (before the union's candidates
  // the fallback's 32 directions decided: 0.07% over in float, and 5.4e6 for 1.48e6 in double with
  // the small compound first).
  const std::vector<std::vector<Vec2>> pieces = {
      {{-0x1.dd08p+21f, 0x1.858p+21f}, {-0x1.e3d4p+22f, 0x1.f0bcp+22f}, {-0x1.8f88p+21f, -0x1.0508p+21f}},
      {{0x1.858p+21f, 0x1.858p+21f}, {-0x1.dd08p+21f, 0x1.858p+21f}, {-0x1.8f88p+21f, -0x1.0508p+21f}},
      {{-0x1.8f88p+21f, -0x1.0508p+21f}, {-0x1p+23f, -0x1.9p+21f}, {-0x1p+23f, -0x1p+23f}},
      {{-0x1.8f88p+21f, -0x1.0508p+21f}, {-0x1p+23f, -0x1p+23f}, {-0x1.0468p+21f, -0x1.07a8p+21f}, {0x1.858p+21f, 0x1.858p+21f}},
      {{-0x1p+23f, -0x1p+23f}, {-0x1.d3d4p+22f, -0x1p+23f}, {-0x1.0468p+21f, -0x1.07a8p+21f}},
      {{-0x1.0468p+21f, -0x1.07a8p+21f}, {-0x1.245p+21f, -0x1.fe2p+22f}, {0x1.858p+21f, 0x1.858p+21f}}};
  std::vector<CompoundChild> children;
  for (const auto& corners : pieces) children.push_back(piece(corners));
  const Shape large = make_compound(children).value();
  for (int edge = 0; edge < 4; ++edge) ASSERT_TRUE(std::get<Compound>(large).is_internal_edge(3, edge)) << edge;
  const Shape small = make_compound({piece({{-31.9951172f, -32}, {10.1640625f, 10}, {10.1640625f, 10.1640625f}, {-32, -32}}),
                                     triangle({10.1640625f, 10}, {31.9140625f, 10.1640625f}, {10.1640625f, 10.1640625f}),
                                     triangle({31.9140625f, 10.1640625f}, {10.0117188f, 31.9990234f}, {10.1640625f, 10.1640625f})})
                          .value();
  const Transform large_pose{{0x1.858p+3f, 0x1.858p+3f}, unit_rotation({0x1.846b24p-2f, 0x1.d9bcaep-1f})};
  const Transform small_pose{{-32, -32}, unit_rotation({-1, 8.74227766e-08f})};
  // The outline's edges, and the small compound's origin's distance from them (large's frame).
  const long double outline_distance = distance_to_unshared_edges(pieces, as_point(inverse_transform_point(large_pose, small_pose.position)));
  ASSERT_GT(outline_distance, 1e6L);
  const Real reach = size_scale(small), band = 64 * contact_tolerance(size_scale(large));
  // The contact is not lost in either order: where the seam rule drops every manifold, the
  // deepest one before it is kept.
  for (const bool large_first : {true, false}) {
    std::vector<ChildManifold> manifolds;
    if (large_first) contact_manifolds(large, large_pose, small, small_pose, manifolds);
    else contact_manifolds(small, small_pose, large, large_pose, manifolds);
    ASSERT_FALSE(manifolds.empty()) << large_first;
    Real deepest = 0;
    for (const ChildManifold& entry : manifolds) {
      EXPECT_NEAR(length(entry.manifold.normal), 1, 1e-5f);
      for (int k = 0; k < entry.manifold.point_count; ++k) deepest = std::min(deepest, entry.manifold.points[k].separation);
    }
    EXPECT_LT(deepest, -band) << large_first;
  }
  std::vector<Penetration> answers;
  for (const bool large_first : {true, false}) {
    SCOPED_TRACE(large_first);
    const std::optional<Penetration> found = large_first ? penetration(large, large_pose, small, small_pose) : penetration(small, small_pose, large, large_pose);
    ASSERT_TRUE(found.has_value());
    EXPECT_GE(found->depth, Real(outline_distance) - reach - band);
    const Vec2 away = (large_first ? Real(1) : Real(-1)) * (found->depth + band) * found->normal;  // moves the small compound out
    EXPECT_FALSE(overlap(large, large_pose, small, {small_pose.position + away, small_pose.rotation}));
    answers.push_back(*found);
  }
  EXPECT_NEAR(answers[0].depth, answers[1].depth, band);
  EXPECT_LE(length(answers[0].normal + answers[1].normal) * answers[0].depth, band);
}

TEST(CompoundPenetration, APointSizedCircleOnAFarOutCutIsDeepInside) {
  // From the mover fuzzer: a compound 6.7e7 across, two pieces whose cut runs from a corner 3.4e7
  // out to a shallow notch 9e5 away, and a circle of radius 0.018 (a point at that scale) lying
  // on the cut, 904,000 inside the outline. In float the cut's line is known to about 4 units, so
  // the point lay 0.06 outside both pieces: the point query answered "outside, 0.06" and
  // penetration() took the circle's way out of one piece onto the cut (5,689) for freed; push_out()
  // moved it there, 904,000 deep. A point outside every piece by less than the band of the
  // compound's coordinates, beside a covered surface, is now inside; and the notch's face, nearly
  // in line with the cut, no longer passes for the face of a contact against the cut (its points
  // must lie on the face). Oracle: the union's outline in long double (even-odd inside, least
  // distance to its edges).
  const Vec2 notch{0x1.37p+19f, 0x1.3bp+19f}, corner{-0x1p+25f, -0x1p+25f};
  const std::vector<Vec2> outline = {corner, {0x1.fff8p+24f, -0x1p+25f}, {0x1.fffcp+24f, 0x1.fffcp+24f}, notch, {-0x1.f044p+24f, 0x1.bbd8p+24f}};
  const Shape compound = make_compound({triangle(notch, outline[4], corner), piece({corner, outline[1], outline[2], notch})}).value();
  ASSERT_TRUE(std::get<Compound>(compound).is_internal_edge(0, 2));
  ASSERT_TRUE(std::get<Compound>(compound).is_internal_edge(1, 3));
  const Transform pose{{-0x1.24f8p+3f, -0x1.e02p+1f}, unit_rotation({-0x1p+0f, 0x1.91a222p-14f})};
  const Ring ring = placed_ring(outline, pose);
  const Real band = 64 * contact_tolerance(size_scale(compound));
  // Points along the cut near the origin, and the circle of the fuzzer's input.
  for (int k = -4; k <= 4; ++k) {
    const Vec2 on_cut = lerp(corner, notch, Real(0.98) + Real(k) / 400);
    const Vec2 point = transform_point(pose, on_cut);
    const long double depth = boundary_distance(ring, {point.x, point.y});
    ASSERT_TRUE(inside_even_odd(ring, {point.x, point.y}));
    EXPECT_NEAR(closest_point(compound, pose, point).signed_distance, -static_cast<Real>(depth), band) << k;
  }
  const Shape circle = Circle{{0x1.fffcp+7f, 0x1.fffcp+7f}, 0x1.2p-6f};
  const Transform circle_pose{{0x1.fffcp+4f, 0x1.fffcp+4f}, unit_rotation({-0x1.ffd886p-1f, 0x1.92154cp-6f})};
  const Vec2 centre = transform_point(circle_pose, std::get<Circle>(circle).center);
  const long double centre_depth = boundary_distance(ring, {centre.x, centre.y});
  ASSERT_GT(centre_depth, 9e5L);
  for (const bool circle_first : {true, false}) {
    SCOPED_TRACE(circle_first);
    const std::optional<Penetration> found = circle_first ? penetration(circle, circle_pose, compound, pose) : penetration(compound, pose, circle, circle_pose);
    ASSERT_TRUE(found.has_value());
    EXPECT_NEAR(found->depth, static_cast<Real>(centre_depth) + std::get<Circle>(circle).radius, band);
    const Vec2 away = (circle_first ? Real(-1) : Real(1)) * (found->depth + band) * found->normal;  // moves the circle out
    EXPECT_FALSE(overlap(circle, {circle_pose.position + away, circle_pose.rotation}, compound, pose));
  }
}

TEST(CompoundPenetration, ASmallCircleOnTheCoveredStretchOfAnOutsideFaceIsInside) {
  // From the mover fuzzer: a thin triangle whose long face runs along the diagonal, half of it
  // under a second triangle (so the face is no seam: only partly covered), and a circle of radius
  // 0.25 on that covered stretch, 1,500 inside the outline. With the circle first, penetration()
  // took the circle for freed where it was: its centre is within a few bands of that face, and the
  // centre check stood down for any face that is not a seam. A face stretch another piece covers
  // no longer counts. Oracle: the union's outline in long double.
  const std::vector<Vec2> outline = {{-65536, -65536}, {-44462, -44462}, {65532, -44462}, {65534, 65534}, {-61442, -57346}};
  const Shape compound = make_compound({triangle(outline[3], outline[4], outline[0]), triangle(outline[1], outline[2], outline[3])}).value();
  ASSERT_FALSE(std::get<Compound>(compound).is_internal_edge(0, 2));  // the diagonal: partly covered only
  ASSERT_TRUE(std::get<Compound>(compound).is_internal_edge(1, 2));
  const Transform pose{{-256, -256}, unit_rotation({-1, 0x1.777a5cp-24f})};
  const Shape circle = Circle{{-0x1p-8f, -0x1p+7f}, 0.25f};
  const Transform circle_pose{{0x1.ffecp+7f, -0x1.ffcp+7f}, unit_rotation({-0x1.ff97c4p-1f, -0x1.46a3a4p-5f})};
  const Ring ring = placed_ring(outline, pose);
  const Vec2 centre = transform_point(circle_pose, std::get<Circle>(circle).center);
  ASSERT_TRUE(inside_even_odd(ring, {centre.x, centre.y}));
  const long double centre_depth = boundary_distance(ring, {centre.x, centre.y});
  ASSERT_GT(centre_depth, 1000);
  const Real band = 64 * contact_tolerance(size_scale(compound));
  EXPECT_NEAR(closest_point(compound, pose, centre).signed_distance, -static_cast<Real>(centre_depth), band);
  for (const bool circle_first : {true, false}) {
    SCOPED_TRACE(circle_first);
    const std::optional<Penetration> found = circle_first ? penetration(circle, circle_pose, compound, pose) : penetration(compound, pose, circle, circle_pose);
    ASSERT_TRUE(found.has_value());
    // At least the centre's depth; at most half a percent over it, the fallback's 32 directions
    // (cos 5.6 degrees) where the contact planes do not give the way out (2 over in double).
    const Real least = static_cast<Real>(centre_depth) + std::get<Circle>(circle).radius;
    EXPECT_GE(found->depth, least - band);
    EXPECT_LE(found->depth, Real(1.005) * least + band);
    const Vec2 away = (circle_first ? Real(-1) : Real(1)) * (found->depth + band) * found->normal;  // moves the circle out
    EXPECT_FALSE(overlap(circle, {circle_pose.position + away, circle_pose.rotation}, compound, pose));
  }
}

TEST(CompoundPenetration, APointAtTheTipOfANotchNarrowerThanTheBandIsNotDeepInside) {
  // From the mover fuzzer: a compound 6.7e7 across in float, whose outline has a notch of 1.5
  // degrees between two pieces, and a point (a capsule of length and radius 0) moving near the
  // notch's tip, where the notch is narrower than the band of those coordinates. Penetration put
  // the point 16,000 inside at some poses and 0 at others: the probe that tells a face's stretch
  // covered by another piece (fixed just before) crossed the notch into the other piece. A piece
  // covers a face only where it lies flush against it (its own face turned straight back). Oracle:
  // the point's depth inside the union's outline in long double (0 outside it).
  const Vec2 notch{0x1.178p+19f, 0x1.3bp+19f}, far_corner{0x1.fffcp+24f, 0x1.fffcp+24f}, cut_end{-0x1.fp+24f, -0x1.fff4p+24f};
  const Vec2 lower{-0x1.bcp+24f, -0x1p+25f}, corner{-0x1p+25f, -0x1p+25f}, notch_side{0x1.bfb8p+24f, 0x1.d96cp+24f};
  const std::vector<Vec2> outline = {corner, lower, far_corner, notch, notch_side, cut_end};
  const Shape compound =
      make_compound({triangle(notch, notch_side, cut_end), piece({lower, far_corner, notch, cut_end}), triangle(cut_end, corner, lower)}).value();
  ASSERT_FALSE(std::get<Compound>(compound).is_internal_edge(1, 1));  // the notch's two faces
  ASSERT_FALSE(std::get<Compound>(compound).is_internal_edge(0, 0));
  const Transform pose{{-0x1.cap+2f, 0x1.1f6p+2f}, {-0x1.ffed2p-1f, 0x1.160438p-6f}};  // as the fuzzer made them
  const Ring ring = placed_ring(outline, pose);
  const Shape point = Capsule{{-256, -256}, {-256, -256}, 0};
  const Rot turned{-1, 0x1.777a5cp-24f};
  const Vec2 from{-0x1.1cf1fap+19f, -0x1.3658c8p+19f};  // where push_out() had put it
  const Real band = 64 * contact_tolerance(size_scale(compound) + coordinate_magnitude(from));
  for (int k = 0; k <= 16; ++k) {
    const Transform at{from + (Real(k) / 16) * Vec2{-32, -32}, turned};
    const Vec2 where = transform_point(at, {-256, -256});
    const Point exact{where.x, where.y};
    const long double depth = inside_even_odd(ring, exact) ? boundary_distance(ring, exact) : 0.0L;
    for (const bool point_first : {true, false}) {
      const std::optional<Penetration> found = point_first ? penetration(point, at, compound, pose) : penetration(compound, pose, point, at);
      if (found) {
        EXPECT_LE(found->depth, static_cast<Real>(depth) + band) << k << " " << point_first;
      }
    }
  }
}

TEST(CompoundPenetration, AWayOutOfLengthZeroHasAUnitNormal) {
  // From the pair-query fuzzer (float): a segment 20,000 long lying 0.03 off a sliver's long face
  // (the band is 2.9), through a compound of the sliver and a triangle. No contact planes freed
  // it, and the fallback's casts back from afar touched it at its own pose: a way out of length
  // 0, with no contact there to take a normal from, so the normal was (0, 0); it became the
  // direction of the cast that found that way out. Since the seam rule asks the outline about a
  // segment lying along a seam too, this one, beside a sliver thinner than the band, touches: the
  // seam rule leaves no contact on either side, and the normal is the outline's at the pair's
  // point on the segment, the way out. Both orders: a unit normal, and B moved a band beyond the
  // depth along it is apart, by the library and by long double separating axes (in double the
  // pair is apart from the start).
  // The second pose, from a 10-minute pair-query fuzz (seed 31): a segment 10,000 long 0.43 off
  // the same outline, where penetration() gave 45 (the segment along the seam, inside) while
  // contact_manifolds() gave none. Both poses now touch.
  const Shape compound = make_compound({triangle({-0x1.fffcp+4f, -32}, {0x1.fffcp+4f, 0x1.fffcp+4f}, {-32, -32}),
                                        triangle({0x1.fffcp+4f, 0x1.fffcp+4f}, {-32, 0x1.fffcp+4f}, {0x1.7774p+4f, 0x1.7774p+4f})})
                             .value();
  const Rot turned{-1, 0x1.777a5cp-24f};
  struct Case {
    Shape segment;
    Transform segment_pose, compound_pose;
  };
  for (const Case& pair : {Case{Capsule{{6007.25f, 6007.25f}, {-8192, -8192}, 0}, {{-32, -0x1.ff5cp+4f}, turned}, {{-32, -0x1.fffcp+4f}, turned}},
                           Case{Capsule{{0x1.7774p+11f, 0x1.7774p+11f}, {-0x1p+12f, -0x1p+12f}, 0}, {{-32, -0x1.ff5cp+4f}, turned},
                                {{-0x1p+9f, -0x1.fffcp+8f}, turned}}}) {
    for (const bool segment_first : {true, false}) {
      SCOPED_TRACE(testing::Message() << "compound at " << pair.compound_pose.position.x << (segment_first ? ", segment first" : ", compound first"));
      const Shape& a = segment_first ? pair.segment : compound;
      const Shape& b = segment_first ? compound : pair.segment;
      const Transform& pose_a = segment_first ? pair.segment_pose : pair.compound_pose;
      const Transform& pose_b = segment_first ? pair.compound_pose : pair.segment_pose;
      const std::optional<Penetration> found = penetration(a, pose_a, b, pose_b);
      if (!found) {  // apart (in double, where the band is far below the 0.03)
        EXPECT_FALSE(overlap(a, pose_a, b, pose_b));
        continue;
      }
      EXPECT_NEAR(length(found->normal), 1, 1e-5f);
      const Real band = 64 * contact_tolerance(size_scale(pair.segment) + size_scale(compound) + coordinate_magnitude(pose_a.position));
      EXPECT_LE(found->depth, band);  // touching: the segment lies within the band of the outline
      const Transform freed{pose_b.position + (found->depth + band) * found->normal, pose_b.rotation};
      EXPECT_FALSE(overlap(a, pose_a, b, freed));
      // The same, by separating axes in long double: moved a band beyond the depth along the
      // normal, B is apart from every piece by more than half a band, as it is only along a
      // normal within 60 degrees of the outline's.
      EXPECT_LT(deepest_overlap(placed_cores(a, pose_a), placed_cores(b, freed)), -band / 2);
    }
  }
}

TEST(CompoundPenetration, APointBesideTheCornerOfANotchLeavesThroughTheCorner) {
  // From the mover fuzzer (float): three pieces meet at a corner where the outline turns into a
  // wide notch between two of them. A point 0.02 inside the third piece, beside the corner, was
  // sent 516 out through a neighbour's far side (that neighbour's seam face, recomputed on its
  // outside face, gave the plane), because the notch's piece does not touch the point and gives no
  // plane, and the planes' first freeing translation ended the search; the mover then ended "516
  // inside". Each contact's way out to the outline's nearest point is now a candidate too.
  // Oracle: the union's outline, its distance in long double; both orders, normals mirrored;
  // moved out by the depth along the normal, the point is on the outline.
  const Vec2 corner{72.5625f, 72.25f};
  const std::vector<std::vector<Vec2>> pieces = {{corner, {-666.625f, -663.75f}, {-666.625f, -666.625f}, {533.375f, -666.625f}},
                                                 {{533.375f, -666.625f}, {634.4375f, 634.5625f}, corner},
                                                 {{634.4375f, 634.5625f}, {-666.625f, 634.4375f}, {72.25f, 72.25f}, corner}};
  std::vector<CompoundChild> children;
  for (const auto& corners : pieces) children.push_back(piece(corners));
  const Shape compound = make_compound(children).value();
  const Shape point = Segment{{0, 0}, {0, 0}};
  for (const Transform& pose : {Transform{}, Transform{{1.12890625f, 1.12890625f}, unit_rotation({0.993864655f, 0.110603362f})}}) {
    const Ring ring = placed_ring({{-666.625f, -666.625f}, {533.375f, -666.625f}, {634.4375f, 634.5625f}, {-666.625f, 634.4375f}, {72.25f, 72.25f}, corner,
                                   {-666.625f, -663.75f}},
                                  pose);
    int inside = 0;
    for (int i = -8; i <= 8; ++i) {
      for (int j = -8; j <= 8; ++j) {
        const Vec2 where = transform_point(pose, corner + Vec2{Real(i) / 32, Real(j) / 32});
        const Point exact{where.x, where.y};
        if (!inside_even_odd(ring, exact)) continue;
        ++inside;
        const Real oracle = static_cast<Real>(boundary_distance(ring, exact));
        const Real band = 4 * contact_tolerance(coordinate_magnitude(where) + size_scale(compound));
        const Transform at{where, {}};
        const std::optional<Penetration> point_first = penetration(point, at, compound, pose);
        const std::optional<Penetration> compound_first = penetration(compound, pose, point, at);
        const std::string label = "offset (" + std::to_string(i) + ", " + std::to_string(j) + ")/32";
        if (oracle <= band) continue;  // too close to the outline to call
        ASSERT_TRUE(point_first && compound_first) << label;
        EXPECT_NEAR(point_first->depth, oracle, band) << label;
        EXPECT_NEAR(compound_first->depth, oracle, band) << label;
        // The way out's direction is known to the band over its length.
        const Real turn = 2 * band / oracle;
        EXPECT_NEAR(point_first->normal.x, -compound_first->normal.x, turn) << label;
        EXPECT_NEAR(point_first->normal.y, -compound_first->normal.y, turn) << label;
        // The compound moved by the depth along the normal (from the point toward it) has the point
        // on its outline (beside the corner, the way out ends there: farther along, the point
        // enters the piece below).
        const Transform moved{pose.position + point_first->depth * point_first->normal, pose.rotation};
        EXPECT_NEAR(closest_point(compound, moved, where).signed_distance, 0, band) << label;
        // The witness points: the point itself, and the outline's point it leaves through (on the
        // ring, by the oracle), depth x normal apart.
        for (const auto& [found, point_witness, outline_witness] :
             {std::tuple{*point_first, point_first->point_a, point_first->point_b}, std::tuple{*compound_first, compound_first->point_b, compound_first->point_a}}) {
          EXPECT_LE(length(point_witness - where), band) << label;
          EXPECT_LE(boundary_distance(ring, {outline_witness.x, outline_witness.y}), band) << label;
          EXPECT_LE(length(found.point_a - found.point_b - found.depth * found.normal), band) << label;
        }
      }
    }
    EXPECT_GT(inside, 100);
  }
}

TEST(CompoundPenetration, ASmallCompoundInsideAHugeOneIsFoundInBothOrders) {
  // From the mover fuzzer: a compound 329 across inside a compound 4.7e7 across, in float, lying
  // on a cut: each of its pieces overlaps the large compound's pieces by less than their bands, so
  // with the small compound first the pair was freed where it lay (depth 0), while the other order
  // found 2.98e6; a push then reported resolved and left it there. The centre check, which only
  // a convex shape had, now runs for each child of either compound against the other. Oracle: the
  // small compound's origin's distance from the large one's unshared edges (long double), less
  // the small one's reach.
  const std::vector<std::vector<Vec2>> pieces = {
      {{-0x1.cfdp+24f, -0x1.cfdp+24f}, {0x1.fcp+24f, -0x1p+25f}, {-0x1.eff8p+23f, -0x1.53fcp+24f}},
      {{-0x1.eff8p+23f, -0x1.53fcp+24f}, {-0x1.a7a8p+24f, 0x1.6p+22f}, {-0x1.cfdp+24f, -0x1.cfdp+24f}},
      {{-0x1.cff4p+24f, 0x1.fffcp+24f}, {-0x1.cfdp+24f, -0x1.cfdp+24f}, {-0x1.a7a8p+24f, 0x1.6p+22f}},
      {{0x1.fcp+24f, -0x1.2cp+24f}, {0x1.fc0cp+24f, 0x1.fffcp+24f}, {-0x1.cff4p+24f, 0x1.fffcp+24f}, {-0x1.a7a8p+24f, 0x1.6p+22f}},
      {{-0x1.a7a8p+24f, 0x1.6p+22f}, {0x1.fc6p+24f, -0x1.a7a8p+24f}, {0x1.fcp+24f, -0x1.2cp+24f}}};
  std::vector<CompoundChild> children;
  for (const auto& corners : pieces) children.push_back(piece(corners));
  const Shape large = make_compound(children).value();
  const std::vector<std::vector<Vec2>> small_pieces = {{{-0x1p+8f, -0x1.3c8p+5f}, {-0x1.a3a4p+7f, -0x1.fcp+7f}, {-0x1.f2p+5f, -0x1.7b54p+7f}},
                                                       {{-0x1.f2p+5f, -0x1.7b54p+7f}, {0x1.838p+7f, -0x1p+8f}, {-0x1p+8f, -0x1.3c8p+5f}}};
  const Shape small = make_compound({piece(small_pieces[0]), piece(small_pieces[1])}).value();
  const Transform small_pose{{-0x1.3fdcp+9f, -0x1.3fdcp+9f}, unit_rotation({0x1.cea748p-1f, 0x1.b69d7p-2f})};
  // Where the push had left the large compound (the mover).
  const Transform large_pose{{-0x1.f64862p+20f, -0x1.2d85a8p+22f}, unit_rotation({-1, 0x1.777a5cp-24f})};
  const long double outline_distance = distance_to_unshared_edges(pieces, as_point(inverse_transform_point(large_pose, small_pose.position)));
  ASSERT_GT(outline_distance, 1e6L);
  const Real reach = size_scale(small), band = 64 * contact_tolerance(size_scale(large));
  for (const bool small_first : {true, false}) {
    SCOPED_TRACE(small_first);
    const std::optional<Penetration> found = small_first ? penetration(small, small_pose, large, large_pose) : penetration(large, large_pose, small, small_pose);
    ASSERT_TRUE(found.has_value());
    EXPECT_GE(found->depth, Real(outline_distance) - reach - band);
    const Vec2 away = (small_first ? Real(-1) : Real(1)) * (found->depth + band) * found->normal;  // moves the small compound out
    EXPECT_FALSE(overlap(large, large_pose, small, {small_pose.position + away, small_pose.rotation}));
    // The witness points on the two outlines (their pieces' unshared edges), depth x normal apart.
    const Vec2 on_small = small_first ? found->point_a : found->point_b, on_large = small_first ? found->point_b : found->point_a;
    EXPECT_LE(distance_to_unshared_edges(small_pieces, as_point(inverse_transform_point(small_pose, on_small))), band);
    EXPECT_LE(distance_to_unshared_edges(pieces, as_point(inverse_transform_point(large_pose, on_large))), band);
    EXPECT_LE(length(found->point_a - found->point_b - found->depth * found->normal), band);
  }
}

TEST(CompoundPenetration, RandomCirclesInACombLeaveByTheLeastWay) {
  // Rounded parts: the union's boundary has arcs, and a circle in a gap between two teeth leaves
  // where arcs about the teeth's corners cross. Oracle (long double): the comb is the union of
  // its base and its four teeth; along a direction d the circle's centre c + s d is within r of
  // a box on the interval where the line crosses the box swept by the circle (closed form: two
  // widened boxes and four corner discs); the first s >= 0 in none of the five intervals is where
  // the circle comes free along d, and the least over 1,440 directions bounds the least
  // translation from above. Checked: the depth is no longer, moved by it the circle is at most
  // touching, A and B swapped give the same answer mirrored, and the witness points lie on the
  // comb's outline and on the circle.
  const std::vector<Vec2> outline_points = comb_outline(4);
  const Shape comb = shape_from_outline(outline_points).value();
  std::vector<std::array<Vec2, 2>> parts = {{Vec2{0, 0}, Vec2{7, 0.5f}}};
  for (int tooth = 0; tooth < 4; ++tooth) parts.push_back({Vec2{Real(2 * tooth), 0}, Vec2{Real(2 * tooth + 1), 2}});
  std::mt19937_64 random(20261128);
  std::uniform_real_distribution<double> across(-0.5, 7.5), up(0, 2.5), angle(-0.3, 0.3), radius_of(0.1, 0.8);
  int overlapping = 0, longer_than_least = 0, not_freed = 0, not_mirrored = 0, witnesses_off = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Transform pose = Transform::from({0, 0}, Real(angle(random)));
    const Real radius = Real(radius_of(random));
    const Shape circle = Circle{{0, 0}, radius};
    const Transform at{transform_point(pose, {Real(across(random)), Real(up(random))}), {}};
    std::vector<Rectangle> rectangles;
    for (const auto& part : parts) rectangles.push_back(placed_rectangle(part[0], part[1], pose));
    auto distance_to = [](const Rectangle& rectangle, long double x, long double y) {
      bool inside = true;
      long double nearest = 1e30L;
      for (int i = 0; i < 4; ++i) {
        inside = inside && cross_of(rectangle[i], rectangle[(i + 1) % 4], {x, y}) >= 0;
        nearest = std::min(nearest, segment_point_distance(rectangle[i], rectangle[(i + 1) % 4], {x, y}));
      }
      return inside ? 0.0L : nearest;
    };
    const long double cx = at.position.x, cy = at.position.y, r = radius;
    auto nearest_part = [&](long double x, long double y) {
      long double nearest = 1e30L;
      for (const Rectangle& rectangle : rectangles) nearest = std::min(nearest, distance_to(rectangle, x, y));
      return nearest;
    };
    const long double start_gap = nearest_part(cx, cy) - r;
    const Real band = band_for(pose, at) + 8 * contact_tolerance(radius);
    if (std::abs(start_gap) <= band || start_gap > 0) continue;  // apart, or too close to call
    ++overlapping;
    // In the comb's frame, where its parts are boxes: the circle's centre and each direction.
    const Vec2 centre = inverse_transform_point(pose, at.position);
    const long double local_x = centre.x, local_y = centre.y, cosine = pose.rotation.cosine, sine = pose.rotation.sine;
    long double least = 1e30L;
    for (int k = 0; k < 1440; ++k) {
      const long double turn = 2 * 3.14159265358979323846L * k / 1440, wx = std::cos(turn), wy = std::sin(turn);
      const long double dx = cosine * wx + sine * wy, dy = -sine * wx + cosine * wy;  // the direction in the comb's frame
      std::vector<std::pair<long double, long double>> blocked;
      for (const auto& part : parts) {
        // The box swept by the circle: the box widened by r along x, along y, and discs of radius
        // r at its corners; convex, so the line meets it on one interval, the hull of the pieces'.
        long double enter = 1e30L, leave = -1e30L;
        auto slab = [&](long double low_x, long double low_y, long double high_x, long double high_y) {
          long double from = -1e30L, to = 1e30L;
          for (const auto& [origin, along, low, high] : {std::tuple{local_x, dx, low_x, high_x}, std::tuple{local_y, dy, low_y, high_y}}) {
            if (along == 0) {
              if (origin <= low || origin >= high) return;
              continue;
            }
            const long double first = (low - origin) / along, second = (high - origin) / along;
            from = std::max(from, std::min(first, second));
            to = std::min(to, std::max(first, second));
          }
          if (from < to) enter = std::min(enter, from), leave = std::max(leave, to);
        };
        const long double low_x = part[0].x, low_y = part[0].y, high_x = part[1].x, high_y = part[1].y;
        slab(low_x - r, low_y, high_x + r, high_y);
        slab(low_x, low_y - r, high_x, high_y + r);
        for (const auto& [corner_x, corner_y] : {std::pair{low_x, low_y}, std::pair{high_x, low_y}, std::pair{high_x, high_y}, std::pair{low_x, high_y}}) {
          const long double ox = local_x - corner_x, oy = local_y - corner_y, half_b = dx * ox + dy * oy;
          const long double discriminant = half_b * half_b - (ox * ox + oy * oy - r * r);
          if (discriminant > 0) enter = std::min(enter, -half_b - std::sqrt(discriminant)), leave = std::max(leave, -half_b + std::sqrt(discriminant));
        }
        if (enter < leave) blocked.push_back({enter, leave});
      }
      least = std::min(least, first_free(blocked));
    }
    const std::optional<Penetration> found = penetration(comb, pose, circle, at);
    const std::optional<Penetration> swapped = penetration(circle, at, comb, pose);
    ASSERT_TRUE(found && swapped) << trial;
    longer_than_least += found->depth > least + band;
    const long double mx = cx + found->depth * found->normal.x, my = cy + found->depth * found->normal.y;
    not_freed += nearest_part(mx, my) < r - band;
    not_mirrored += std::abs(swapped->depth - found->depth) > band || length(swapped->normal + found->normal) * found->depth > band;
    const Ring outline = placed_ring(outline_points, pose);
    for (const auto& [on_comb, on_circle] : {std::pair{found->point_a, found->point_b}, std::pair{swapped->point_b, swapped->point_a}}) {
      witnesses_off += boundary_distance(outline, {on_comb.x, on_comb.y}) > band || std::abs(length(on_circle - at.position) - radius) > band;
    }
    witnesses_off += length(found->point_a - found->point_b - found->depth * found->normal) > band;
  }
  std::printf("circles in a comb: %d overlapping; longer than the least %d, not freed %d, not mirrored %d, witnesses off %d\n", overlapping,
              longer_than_least, not_freed, not_mirrored, witnesses_off);
  EXPECT_GT(overlapping, 100);
  EXPECT_EQ(longer_than_least, 0);
  EXPECT_EQ(not_freed, 0);
  EXPECT_EQ(not_mirrored, 0);
  EXPECT_EQ(witnesses_off, 0);
}

TEST(CompoundPenetration, ALongSegmentCrossingASeamAtASmallAngleIsInsideTheOutline) {
  // From the pair-query fuzzer (the least way out made both orders comparable): a segment 10,000
  // long runs along the diagonal of a square compound 64 across with a notch, over the lower
  // side of the notch and on along the cut (a seam) between its two pieces, turned 0.0015 from
  // them. Each piece is overlapped by less than its band (0.03), and the seam test wanted both of
  // the segment's ends on the seam's line, which ends 4,096 away are not: with the compound first,
  // 0.05 counted as freeing it while the segment still ran 4.9 deep in the outline along the seam
  // (the segment first found 42.8). The stretch of a segment within a seam's band now counts.
  // Oracle: a segment this long leaves by moving across itself until its line passes the last
  // corner of the outline on one side (long double).
  const std::vector<Vec2> corners = {{-0x1p+5f, -0x1p+5f}, {0x1.fc34p+4f, -0x1.ccp+4f}, {0x1.fffcp+4f, 0x1.fff8p+4f}, {-0x1p+5f, 0x1.fffcp+4f}, {0x1.7774p+4f, 0x1.7774p+4f}};
  const Shape compound = make_compound({piece({corners[1], corners[2], corners[4], corners[0]}), piece({corners[2], corners[3], corners[4]})}).value();
  ASSERT_TRUE(std::get<Compound>(compound).is_internal_edge(0, 1));
  const Vec2 start{0x1.7774p+11f, 0x1.7774p+11f}, end{-0x1p+12f, -0x1p+12f};
  const Shape segment = Capsule{start, end, 0};
  const Transform segment_pose{{-32, -32}, unit_rotation({-1, 0x1.777a5cp-24f})};
  const Transform compound_pose{{-32, -32}, unit_rotation({-0x1.ffffd8p-1f, -0x1.921a18p-10f})};
  const Ring ring = placed_ring(corners, compound_pose);
  const Vec2 from = transform_point(segment_pose, start), to = transform_point(segment_pose, end);
  const long double along_x = to.x - from.x, along_y = to.y - from.y, span = std::hypot(along_x, along_y);
  long double beyond_left = 0, beyond_right = 0;  // the outline's farthest corner on each side of the segment's line
  for (const Point& corner : ring) {
    const long double side = (along_x * (corner[1] - from.y) - along_y * (corner[0] - from.x)) / span;
    beyond_left = std::max(beyond_left, side);
    beyond_right = std::max(beyond_right, -side);
  }
  const long double oracle = std::min(beyond_left, beyond_right);
  ASSERT_GT(oracle, 40);
  const Real band = 8 * contact_tolerance(2 * 4096 + 64);
  std::vector<Penetration> answers;
  for (const bool compound_first : {false, true}) {
    SCOPED_TRACE(compound_first);
    const std::optional<Penetration> found =
        compound_first ? penetration(compound, compound_pose, segment, segment_pose) : penetration(segment, segment_pose, compound, compound_pose);
    ASSERT_TRUE(found.has_value());
    EXPECT_NEAR(found->depth, static_cast<Real>(oracle), band);
    // Moved out by the depth, no point of the segment lies inside the outline beyond the band.
    const Vec2 shift = (compound_first ? Real(1) : Real(-1)) * found->depth * found->normal;  // moves the segment
    long double deepest = -1;
    for (int k = 0; k <= 4000; ++k) {
      const Vec2 point = lerp(from, to, Real(k) / 4000) + shift;
      if (inside_even_odd(ring, {point.x, point.y})) deepest = std::max(deepest, boundary_distance(ring, {point.x, point.y}));
    }
    EXPECT_LE(deepest, band);
    // The witness points: on the outline and on the segment, depth x normal apart.
    const Vec2 on_compound = compound_first ? found->point_a : found->point_b, on_segment = compound_first ? found->point_b : found->point_a;
    EXPECT_LE(boundary_distance(ring, {on_compound.x, on_compound.y}), band);
    EXPECT_LE(segment_point_distance({from.x, from.y}, {to.x, to.y}, {on_segment.x, on_segment.y}), band);
    EXPECT_LE(length(found->point_a - found->point_b - found->depth * found->normal), band);
    answers.push_back(*found);
  }
  EXPECT_NEAR(answers[0].depth, answers[1].depth, band);
  EXPECT_LE(length(answers[0].normal + answers[1].normal) * answers[0].depth, band);
}

/// The shared vertex of the fans in the crack tests below (from the mover fuzzer, float).
const Vec2 fan_centre{0x1.3e8p+19f, 0x1.3bp+19f};
/// The corners of a fan's pieces: each stretch of `rims` closed by fan_centre. The first two
/// stretches of every fan below are the same; the last and the first leave a crack between them.
std::vector<std::vector<Vec2>> fan_pieces(const std::vector<std::vector<Vec2>>& rims) {
  std::vector<std::vector<Vec2>> pieces = rims;
  for (std::vector<Vec2>& corners : pieces) corners.push_back(fan_centre);
  return pieces;
}
/// The rim corners the fans below share.
const Vec2 fan_first_rim{0x1.3734p+24f, 0x1.3734p+24f}, fan_second_rim{-0x1p+25f, 0x1.3734p+24f}, fan_third_rim{0x1.fcp+24f, -0x1.fdf8p+24f};

TEST(CompoundPenetration, APointDeepInsideIsNotFreedIntoACrackThePointQueryHoldsInside) {
  // From the mover fuzzer (float): a compound 6.7e7 across whose two pieces leave a wedge between
  // them from a shared vertex, 1e-5 radians wide (288 units at its widest, where float's band is
  // 128 to 512), and a point 6.2e6 inside. The outline's query holds a crack thinner than the band
  // inside; the union of the pieces' differences, each clear within its band, found a way out
  // 2.6e6 long into the crack, and the mover then ended 13,858 inside. The second pose (from the
  // fuzz smoke) met the same crack through the first way out instead: a translation 1.59e6 long
  // from the contact planes, compound first, into the crack, which the freeing test accepted
  // because the crack's faces, outside faces, excused a centre near them; the point query had
  // the point 7.26e6 inside there, and push_out() reported it resolved. No way out may now leave
  // a centre the outline holds deep inside, near faces or not. Checked: in both orders the depth
  // is the outline's distance from the point (closest_point) and the point moved out lies on the
  // outline; in double the wedge is wider than the band, the point query finds it open, and the
  // way out into it is the answer.
  const Shape compound = compound_of(fan_pieces({{fan_first_rim, fan_second_rim},
                                         {fan_second_rim, fan_third_rim},
                                         {fan_third_rim, {0x1.fffcp+24f, 0x1.fffcp+24f}, {0x1.ffecp+24f, 0x1.fffcp+24f}}}));
  const Vec2 offset{-0x1.fc18p+20f, 0x1.a00cp+20f};
  const Shape point = Circle{offset, 0};
  struct Poses {
    Transform compound, point;
  };
  for (const Poses& poses : {Poses{{{0x1.3734p+13f, 0x1.3734p+13f}, unit_rotation({0x1.fad1d4p-1f, 0x1.229854p-3f})},
                                   {{-0x1.ec8p+8f, -0x1.ff3cp+13f}, unit_rotation({0x1.eecd92p-1f, -0x1.072a5p-2f})}},
                             Poses{{{0x1.3504p+15f, -0x1.fefcp+15f}, unit_rotation({0x1.fad1d4p-1f, 0x1.229854p-3f})},
                                   {{-0x1.d9p+9f, -0x1.fffp+15f}, unit_rotation({-0x1.24c376p-1f, -0x1.a40a38p-1f})}}}) {
    const Vec2 where = transform_point(poses.point, offset);
    const Real outline_depth = -closest_point(compound, poses.compound, where).signed_distance;
    ASSERT_GT(outline_depth, 1e6f);
    const Real band = 64 * contact_tolerance(size_scale(compound) + coordinate_magnitude(where));
    for (const bool point_first : {true, false}) {
      SCOPED_TRACE(testing::Message() << "point at " << where.x << ", " << where.y << (point_first ? ", point first" : ", compound first"));
      const std::optional<Penetration> found =
          point_first ? penetration(point, poses.point, compound, poses.compound) : penetration(compound, poses.compound, point, poses.point);
      ASSERT_TRUE(found.has_value());
      EXPECT_NEAR(found->depth, outline_depth, band);
      const Vec2 moved = where + (point_first ? Real(-1) : Real(1)) * found->depth * found->normal;
      EXPECT_NEAR(closest_point(compound, poses.compound, moved).signed_distance, 0, band);
    }
  }
}

TEST(CompoundPenetration, APointOrASegmentOnTheOutlineBesideACrackIsNotOnASeamInside) {
  // From the mover fuzzer (float, seed 23): the fan of the test above, with a fourth piece, and a
  // point sliding 7,000 along the outline where two pieces' edges leave a crack thinner than the
  // band (187) between them. The seam beside the crack runs along the outline, and a point within
  // its band counted as lying on the seam, inside the outline: one pose of the slide, 0.09 inside
  // by the outline's query, got penetration 6.1e6 while its neighbours, 433 away, got 0. A point
  // now counts as on a seam only where the seam runs inside the outline by more than the band;
  // so does a segment lying along the slide, which got 6.1e6 too while only points and segments
  // crossing a seam's line were held to that. Checked at 33 poses along the slide and on 117
  // segments between them, both orders: the depth is at most the distance (long double) from the
  // point, or the segment's farthest sample, to the pieces' edges that no other piece shares (the
  // crack's two sides among them), within the bands of the fuzzer's check.
  const std::vector<std::vector<Vec2>> pieces = fan_pieces({{fan_first_rim, fan_second_rim},
                                                            {fan_second_rim, fan_third_rim},
                                                            {fan_third_rim, {0x1.f3fcp+24f, 0x1.5bfcp+24f}},
                                                            {{0x1.f3fcp+24f, 0x1.5bfcp+24f}, {0x1.fffcp+24f, 0x1.fffcp+24f}}});
  const Shape compound = compound_of(pieces);
  const Transform compound_pose{{-0x1.fcccp+13f, 0x1.3734p+13f}, unit_rotation({-0x1.53841ap-2f, 0x1.e309dcp-1f})};
  const Rot point_rotation = unit_rotation({-0x1p+0f, 0x1.777a5cp-24f});
  const Vec2 offset{-0x1.fcccp+18f, -0x1p+19f};
  const Vec2 slide_from{-1362189.875f, -112833.5f}, slide_to{-1369120.125f, -109509.125f};
  // A world point's distance from the outline's edges, the point taken into the compound's frame in
  // long double.
  auto outline_distance = [&](Vec2 world) {
    const long double dx = static_cast<long double>(world.x) - compound_pose.position.x, dy = static_cast<long double>(world.y) - compound_pose.position.y;
    const long double c = compound_pose.rotation.cosine, s = compound_pose.rotation.sine;
    return distance_to_unshared_edges(pieces, {c * dx + s * dy, -s * dx + c * dy});
  };
  auto slide_point = [&](int sample) { return transform_point(Transform{lerp(slide_from, slide_to, Real(sample) / 32), point_rotation}, offset); };
  int checked = 0;
  for (int first = 0; first <= 32; ++first) {
    for (const int stretch : {0, 1, 2, 4, 8}) {  // a point, or a segment over that many samples
      const int last = first + stretch;
      if (last > 32) continue;
      const Vec2 from = slide_point(first), to = slide_point(last);
      const Shape shape = stretch == 0 ? Shape(Circle{from, 0}) : Shape(Segment{from, to});
      long double farthest = 0;  // the farthest any sample of the shape lies from the outline
      for (int k = 0; k <= 16; ++k) farthest = std::max(farthest, outline_distance(lerp(from, to, Real(k) / 16)));
      ASSERT_LT(farthest, 1);  // the slide runs along the outline
      const Real band = 64 * contact_tolerance(size_scale(compound) + coordinate_magnitude(from));
      for (const bool shape_first : {true, false}) {
        SCOPED_TRACE(testing::Message() << "samples " << first << " to " << last << (shape_first ? ", shape first" : ", compound first"));
        const std::optional<Penetration> found =
            shape_first ? penetration(shape, Transform{}, compound, compound_pose) : penetration(compound, compound_pose, shape, Transform{});
        EXPECT_LE(found ? found->depth : Real(0), farthest + band);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 2 * (33 + 32 + 31 + 29 + 25));
}

TEST(CompoundPenetration, APolygonWedgedAtTheTipOfANarrowNotchLeavesDownTheNotch) {
  // From the mover fuzzer (float, seed 29): a compound 6.7e7 across whose outline runs into a
  // notch 4.4 degrees wide, and a thin polygon 400 long pushed out to the notch's tip, where it
  // overlaps three pieces by 50 to 109, about a band of their coordinates (73 to 99 in the
  // compound's frame, 168 to 209 in the polygon's). Its way out is down the notch. The union of
  // the pieces' differences judged each difference by the band of its farthest vertex (127, from
  // a piece 6.7e7 across) and offered translations leaving the polygon 107 inside that piece,
  // which the freeing test (band 99) refused, so the first way out, 4.15e6 long, stood. Each edge
  // of a difference now has the band of its own two vertices. Oracle, in long double: the least
  // translation over 2,880 directions that leaves no piece overlapping the polygon. In either
  // order the answer is touching only where the oracle finds the overlap within the band (float),
  // else no longer than that least and a band, and moving by it leaves every piece within a band.
  const Vec2 tip{-0x1.4p+23f, -0x1.a7a8p+24f}, split{-0x1.cfdp+24f, -0x1.cfdp+24f};
  const Shape compound =
      make_compound({piece({split, {-0x1p+25f, -0x1p+25f}, tip}),
                     piece({{0x1.fcp+24f, -0x1.2cp+24f}, {0x1.fc0cp+24f, 0x1.fffcp+24f}, {-0x1.cff4p+24f, 0x1.fffcp+24f}, split, tip}),
                     piece({{0x1.fcp+24f, -0x1.4p+24f}, {0x1.fcp+24f, -0x1.2cp+24f}, tip}),
                     piece({tip, {-0x1.a8p+24f, -0x1p+25f}, {0x1.fc6p+24f, -0x1.a7a8p+24f}, {0x1.fcp+24f, -0x1.4p+24f}})})
          .value();
  const Transform compound_pose{{-0x1.53055ep+23f, -0x1.a3f396p+24f}, unit_rotation({-0x1.ffdebcp-1f, 0x1.711aa4p-6f})};
  const Shape wedged =
      make_polygon(std::vector<Vec2>{{-0x1.4p+5f, -0x1.ff4p+7f}, {0x1.8p+7f, -0x1.54p+7f}, {-0x1.f2p+5f, -0x1.788p+7f}, {-0x1.a3a4p+7f, -0x1.fcp+7f}})
          .value();
  const Transform wedged_pose{{-0x1.db4p+8f, -0x1.1fdcp+8f}, unit_rotation({0x1.cea748p-1f, 0x1.b69d7p-2f})};
  const std::vector<std::vector<Point>> pieces = placed_cores(compound, compound_pose);
  const std::vector<std::vector<Point>> wedged_at_start = placed_cores(wedged, wedged_pose);
  const long double overlap_at_start = deepest_overlap(pieces, wedged_at_start);
  ASSERT_GT(overlap_at_start, 100);
  const long double least = least_translation_by_directions(pieces, wedged_at_start, 2880);
  ASSERT_LT(least, 1e4L);  // down the notch; any other way out is millions long
  const Real band = contact_tolerance(coordinate_magnitude(compound_pose.position) + coordinate_magnitude(split));
  for (const bool compound_first : {true, false}) {
    SCOPED_TRACE(compound_first ? "compound first" : "polygon first");
    const std::optional<Penetration> found =
        compound_first ? penetration(compound, compound_pose, wedged, wedged_pose) : penetration(wedged, wedged_pose, compound, compound_pose);
    ASSERT_TRUE(found.has_value());
    if (found->depth <= band) {  // touching: only where the overlap is too close to call
      EXPECT_LE(overlap_at_start, band);
      continue;
    }
    EXPECT_LE(found->depth, least + band);
    // B moved by depth * normal: the polygon, or the compound (the polygon the other way).
    const Vec2 polygon_moved_by = (compound_first ? Real(1) : Real(-1)) * found->depth * found->normal;
    const Transform freed{wedged_pose.position + polygon_moved_by, wedged_pose.rotation};
    EXPECT_LE(deepest_overlap(pieces, placed_cores(wedged, freed)), band);
    // point_a on A's surface (where B comes to rest against it), point_b that point of B before.
    long double off_surface = 1e30L;
    const Point witness{found->point_a.x, found->point_a.y};
    for (const std::vector<Point>& polygon : compound_first ? pieces : wedged_at_start) {
      for (std::size_t i = 0; i < polygon.size(); ++i) off_surface = std::min(off_surface, segment_point_distance(polygon[i], polygon[(i + 1) % polygon.size()], witness));
    }
    EXPECT_LE(off_surface, band);
    EXPECT_LE(length(found->point_a - found->point_b - found->depth * found->normal), band);
  }
}

TEST(CompoundPenetration, BothOrdersJudgeASegmentAboutABandIntoAPieceAlike) {
  // From a 10-minute mover fuzz (seed 31, float): a compound 2.1e6 across pushed off a segment 55
  // long, 1e6 from the origin, to where the segment lies 4.97 inside one piece (long double). The
  // pair's band counts the placement of its second shape: 7.25 with the segment first, the piece
  // placed far from its own origin; 3.67 with the piece first. So push_out(), which asks with the
  // body first, found the segment touching and reported the push resolved, while penetration()
  // with the compound first found it overlapping and a way out 1,598 long. A compound's piece is
  // now the first shape of every pair, whichever side the compound is on. Checked: both orders
  // give the same verdict, a mirrored normal and the same depth within the band; where they find
  // the segment overlapping, moving it by the depth frees it from every piece and is no longer
  // than the least way out over 1,440 directions (long double).
  const std::vector<std::vector<Vec2>> corners = {
      {{-0x1.13cp+16f, -0x1.4504p+19f}, {-0x1.88p+13f, -0x1.d38p+16f}, {-0x1.77d4p+19f, 0x1.fffcp+19f}, {-0x1p+20f, -0x1.ffe4p+19f}, {-0x1.a34cp+19f, -0x1p+20f}},
      {{0x1.fffcp+19f, -0x1.3804p+19f}, {-0x1.77d4p+19f, 0x1.fffcp+19f}, {-0x1.88p+13f, -0x1.d38p+16f}},
      {{-0x1.88p+13f, -0x1.d38p+16f}, {-0x1.294p+16f, -0x1.6738p+19f}, {0x1.fffcp+19f, -0x1.3804p+19f}}};
  const Shape compound = compound_of(corners);
  const Transform compound_pose{{-0x1.f5e00cp+19f, -0x1.1d1d2cp+20f}, unit_rotation({-1, 0x1.777a5cp-24f})};
  const Vec2 start{-0x1.a4p+4f, 0x1.fc04p+4f}, end{-0x1.d8p+4f, -0x1.7p+4f};
  const Shape segment = Capsule{start, end, 0};
  const Transform segment_pose{{-0x1.efbcp+19f, -0x1.ffc8p+19f}, unit_rotation({0x1.fb260cp-1f, -0x1.194338p-3f})};
  const std::vector<std::vector<Point>> pieces = placed_cores(compound, compound_pose);
  const std::vector<std::vector<Point>> segment_at_start = placed_cores(segment, segment_pose);
  const long double overlap_at_start = deepest_overlap(pieces, segment_at_start);
  const Real band = contact_tolerance(coordinate_magnitude(compound_pose.position) + coordinate_magnitude(segment_pose.position));
  ASSERT_GT(overlap_at_start, 0);
  const std::optional<Penetration> compound_first = penetration(compound, compound_pose, segment, segment_pose);
  const std::optional<Penetration> segment_first = penetration(segment, segment_pose, compound, compound_pose);
  ASSERT_TRUE(compound_first.has_value());
  ASSERT_TRUE(segment_first.has_value());
  EXPECT_EQ(compound_first->depth > compound_first->tolerance, segment_first->depth > segment_first->tolerance);
  EXPECT_NEAR(compound_first->depth, segment_first->depth, band);
  if (compound_first->depth > band) {
    EXPECT_LE(length(compound_first->normal + segment_first->normal), 2 * band / compound_first->depth);  // mirrored
    const Transform freed{segment_pose.position + compound_first->depth * compound_first->normal, segment_pose.rotation};
    EXPECT_LE(deepest_overlap(pieces, placed_cores(segment, freed)), band);
    EXPECT_LE(compound_first->depth, least_translation_by_directions(pieces, segment_at_start, 1440) + band);
  }
}

TEST(CompoundPenetration, ASegmentOutsideASliversTipIsNotAlongItsSeam) {
  // From the pair-query fuzzer (the fuzz smoke, after the rule above): a segment 10,000 long runs
  // 0.026 outside the long face of a sliver 0.09 thick, whose seam with its neighbour meets that
  // face at the sliver's tip. Near the tip the seam's line is within the seam's band (0.029) of
  // the segment for 30 units, so the segment counted as along the seam and penetration() sent it
  // 722 away while overlap() and distance() had it apart. A stretch that crosses a seam's line
  // now counts only where the seam runs inside the outline by more than the band. Oracle: the
  // segment's distance from the sliver's long face (long double).
  const Vec2 tip{0x1.7774p+8f, 0x1.7774p+8f}, cut_end{-0x1.edfp+7f, -0x1.edcp+7f}, face_end{-0x1.edfp+7f, -0x1.edfp+7f};
  const Shape compound = make_compound({piece({tip, {-0x1p+9f, 0x1.fd08p+8f}, cut_end}), piece({cut_end, face_end, tip})}).value();
  const Rot turned = unit_rotation({0x1.c5ba3p-5f, -0x1.ff36cep-1f});
  const Transform segment_pose{{-0x1.edfp+6f, -0x1.edfp+6f}, turned}, compound_pose{{-0x1.edc8p+6f, -0x1.edfp+6f}, turned};
  const Vec2 start{0x1.7774p+11f, 0x1.7774p+11f}, end{-0x1p+12f, -0x1p+12f};
  const Shape segment = Capsule{start, end, 0};
  // The segment in the compound's frame; the face and the segment do not cross (both ends of the
  // segment on the outside of the face's line), so their distance is the least of the four
  // end-to-segment distances.
  const Vec2 from = inverse_transform_point(compound_pose, transform_point(segment_pose, start));
  const Vec2 to = inverse_transform_point(compound_pose, transform_point(segment_pose, end));
  const Point p{from.x, from.y}, q{to.x, to.y}, face_start{face_end.x, face_end.y}, face_tip{tip.x, tip.y};
  ASSERT_LT(cross_of(face_start, face_tip, p), 0);  // right of the face, outside the sliver
  ASSERT_LT(cross_of(face_start, face_tip, q), 0);
  const long double gap = std::min({segment_point_distance(p, q, face_start), segment_point_distance(p, q, face_tip),
                                    segment_point_distance(face_start, face_tip, p), segment_point_distance(face_start, face_tip, q)});
  ASSERT_GT(gap, 0.02L);
  const Real band = 8 * contact_tolerance(2 * 4096 + 1024);
  // The gap lies within the band of the segment's coordinates, so apart or touching is the
  // library's call (touching, with the compound first, whose pair places the segment 4,096 long
  // in the piece's frame); both orders make the same one.
  EXPECT_EQ(overlap(segment, segment_pose, compound, compound_pose), overlap(compound, compound_pose, segment, segment_pose));
  EXPECT_NEAR(distance(segment, segment_pose, compound, compound_pose).distance, static_cast<Real>(gap), band);
  for (const bool segment_first : {true, false}) {
    const std::optional<Penetration> found = segment_first ? penetration(segment, segment_pose, compound, compound_pose) : penetration(compound, compound_pose, segment, segment_pose);
    EXPECT_TRUE(!found || found->depth <= band) << segment_first;
  }
}

}  // namespace

namespace {

TEST(CompoundPairs, PiecesFarFromTheirCompoundsOriginAreNotCulledWhileTheyTouch) {
  // A compound's pieces lie `far` from its own origin (1e5 in float, 1e8 in double) and its pose
  // brings them back near the world's origin; or each piece lies `far` from its own origin and its
  // child transform brings it back. A segment, a box and a compound of two bars (far from its own
  // origin too) come to rest below one face, overlapping it slightly, touching it or apart. Each
  // pair of parts' band counts the piece's own coordinates (about 2 x far), while the other
  // shape's box near the origin has coordinates of a few units: the children were culled against
  // that box widened by the other shape's band alone, and a segment touching a piece by 5.3 within
  // the pair's band (1e6 from the compound's origin, float) was apart by overlap() and got no
  // manifold with the compound second. Oracle: long-double separating axes over the placed cores;
  // touching within half a contact tolerance of `far`, apart beyond 36 of them (every pair's band
  // lies between), anything between skipped. Checked in both orders: overlap(), distance()'s
  // flag, contact_manifolds(), penetration(), and a cast and a time of impact that end at the pose.
  const Real far = std::is_same_v<Real, float> ? Real(1e5) : Real(1e8), side = 100;
  const Real unit = contact_tolerance(far);
  const std::vector<std::vector<Vec2>> triangles = {{{far, far}, {far + side, far}, {far + side, far + side}}, {{far, far}, {far + side, far + side}, {far, far + side}}};
  const Shape far_pieces = compound_of(triangles);
  std::vector<CompoundChild> placed_back;
  for (const std::vector<Vec2>& corners : triangles) placed_back.push_back({make_polygon(corners).value(), Transform{{-far, -far}, {}}});
  const Shape far_children = make_compound(placed_back).value();
  const Vec2 top_of_bars{far / 2 + 8, far / 2 + 3};  // the middle of the bars' top face, their own frame
  const Shape bars = compound_of({{{far / 2, far / 2}, {far / 2 + 8, far / 2}, {far / 2 + 8, far / 2 + 3}, {far / 2, far / 2 + 3}},
                                  {{far / 2 + 8, far / 2}, {far / 2 + 16, far / 2}, {far / 2 + 16, far / 2 + 3}, {far / 2 + 8, far / 2 + 3}}});
  const Shape segment = Capsule{{-20, 0}, {20, 0}, 0};
  const Shape box = make_box(6, 3).value();
  std::mt19937 random(20261128);
  std::uniform_real_distribution<double> uniform(0, 1);
  int touching = 0, apart = 0, skipped = 0;
  for (int trial = 0; trial < 60; ++trial) {
    // Which compound, and the lower left corner of its square (compound frame).
    const bool children_placed_back = trial % 2 == 1;
    const Shape& compound = children_placed_back ? far_children : far_pieces;
    const Vec2 corner = children_placed_back ? Vec2{} : Vec2{far, far};
    const Real angle = Real(6.283185307179586 * uniform(random));
    const Rot turned = Rot::from_angle(angle);
    const Vec2 middle = corner + Vec2{side / 2, side / 2};
    const Transform compound_pose{Vec2{Real(20 * uniform(random) - 10), Real(20 * uniform(random) - 10)} - rotate(turned, middle), turned};
    const std::vector<std::vector<Point>> pieces = placed_cores(compound, compound_pose);
    const Real tilt = Real(0.02 * (uniform(random) - 0.5)), along = corner.x + side * Real(0.3 + 0.4 * uniform(random));
    const int kind = trial % 3;
    const Shape& other = kind == 0 ? segment : kind == 1 ? box : bars;
    for (const Real gap : {Real(-0.25) * unit, Real(0), Real(0.25) * unit, Real(0.4) * unit, Real(40) * unit}) {
      // The other shape's pose in the compound's frame: its top at `gap` below the square's bottom face.
      const Rot tilted = Rot::from_angle(tilt);
      const Real top = kind == 0 ? 20 * std::abs(tilted.sine) : kind == 1 ? 3 * tilted.cosine + 6 * std::abs(tilted.sine) : 8 * std::abs(tilted.sine);
      const Vec2 anchor = kind == 2 ? rotate(tilted, top_of_bars) : Vec2{};
      const Transform in_compound{Vec2{along, corner.y - gap - top} - anchor, tilted};
      const Transform pose = compose(compound_pose, in_compound);
      const long double overlap_by = deepest_overlap(pieces, placed_cores(other, pose));
      const bool touches = overlap_by >= -0.45L * unit, clear = overlap_by < -36.0L * unit;
      if (!touches && !clear) {
        ++skipped;
        continue;
      }
      (touches ? touching : apart) += 1;
      SCOPED_TRACE(::testing::Message() << "trial " << trial << ", kind " << kind << ", overlap " << static_cast<double>(overlap_by) << ", unit " << unit);
      const Vec2 down = rotate(compound_pose.rotation, Vec2{0, -1});  // away from the face, world frame
      const Real run = 10;
      for (const bool compound_first : {true, false}) {
        SCOPED_TRACE(compound_first ? "compound first" : "compound second");
        const Shape& a = compound_first ? compound : other;
        const Shape& b = compound_first ? other : compound;
        const Transform& pose_a = compound_first ? compound_pose : pose;
        const Transform& pose_b = compound_first ? pose : compound_pose;
        EXPECT_EQ(overlap(a, pose_a, b, pose_b), touches);
        EXPECT_EQ(distance(a, pose_a, b, pose_b).overlapping, touches);
        std::vector<ChildManifold> manifolds;
        contact_manifolds(a, pose_a, b, pose_b, manifolds);
        EXPECT_EQ(!manifolds.empty(), touches);
        EXPECT_EQ(penetration(a, pose_a, b, pose_b).has_value(), touches);
        // The other shape run back along the face's normal and cast to the pose (compound second:
        // the compound run the other way and cast onto it): a hit exactly when the pose touches.
        const std::optional<CastHit> hit =
            compound_first ? shape_cast(compound, compound_pose, other, Transform{pose.position + run * down, pose.rotation}, -run * down)
                           : shape_cast(other, pose, compound, Transform{compound_pose.position - run * down, compound_pose.rotation}, run * down);
        EXPECT_EQ(hit.has_value(), touches);
        // The same run as a time of impact, the compound held (its sweep gives its pose exactly).
        const Sweep held{{}, compound_pose.position, compound_pose.position, angle, angle};
        const Real other_angle = pose.rotation.angle();
        const Sweep run_in{{}, pose.position + run * down, pose.position, other_angle, other_angle};
        const std::optional<CastHit> impact = compound_first ? time_of_impact(compound, held, other, run_in) : time_of_impact(other, run_in, compound, held);
        EXPECT_EQ(impact.has_value(), touches);
      }
    }
  }
  EXPECT_GT(touching, 150);
  EXPECT_GT(apart, 50);
  EXPECT_LT(skipped, 10);
}

}  // namespace

namespace {

/// Checks that every query on (moving at `pose`, held at `held_pose`) is the mirror of the query
/// on (held, moving), bit for bit, and returns overlap()'s verdict. `toward` is a cast's motion
/// of the moving shape (the held one cast back by its opposite) and a time of impact's.
bool expect_mirrored_answers(const Shape& moving, const Transform& pose, const Shape& held, const Transform& held_pose, Vec2 toward) {
  const bool moving_first = overlap(moving, pose, held, held_pose);
  EXPECT_EQ(moving_first, overlap(held, held_pose, moving, pose));
  const DistanceResult near = distance(moving, pose, held, held_pose), mirrored = distance(held, held_pose, moving, pose);
  EXPECT_EQ(near.distance, mirrored.distance);
  EXPECT_EQ(near.overlapping, mirrored.overlapping);
  EXPECT_TRUE(near.point_a == mirrored.point_b && near.point_b == mirrored.point_a && near.normal == -mirrored.normal);
  // The manifolds come in order of A's child, then B's: the mirrored ones, matched by their
  // swapped children.
  std::vector<ChildManifold> found, found_mirrored;
  contact_manifolds(moving, pose, held, held_pose, found);
  contact_manifolds(held, held_pose, moving, pose, found_mirrored);
  EXPECT_TRUE(std::is_sorted(found.begin(), found.end(), [](const ChildManifold& p, const ChildManifold& q) { return std::pair{p.child_a, p.child_b} < std::pair{q.child_a, q.child_b}; }));
  std::sort(found_mirrored.begin(), found_mirrored.end(), [](const ChildManifold& p, const ChildManifold& q) { return std::pair{p.child_b, p.child_a} < std::pair{q.child_b, q.child_a}; });
  EXPECT_EQ(found.size(), found_mirrored.size());
  for (std::size_t i = 0; i < std::min(found.size(), found_mirrored.size()); ++i) {
    EXPECT_TRUE(found[i].child_a == found_mirrored[i].child_b && found[i].child_b == found_mirrored[i].child_a);
    const Manifold &manifold = found[i].manifold, &other = found_mirrored[i].manifold;
    EXPECT_EQ(manifold.normal, -other.normal);
    EXPECT_EQ(manifold.point_count, other.point_count);
    for (int k = 0; k < std::min(manifold.point_count, other.point_count); ++k) {
      EXPECT_EQ(manifold.points[k].point, other.points[k].point);
      EXPECT_EQ(manifold.points[k].separation, other.points[k].separation);
    }
  }
  const std::optional<Penetration> out = penetration(moving, pose, held, held_pose), out_mirrored = penetration(held, held_pose, moving, pose);
  EXPECT_EQ(out.has_value(), out_mirrored.has_value());
  if (out && out_mirrored) {
    EXPECT_EQ(out->depth, out_mirrored->depth);
    EXPECT_EQ(out->tolerance, out_mirrored->tolerance);
    EXPECT_TRUE(out->normal == -out_mirrored->normal && out->point_a == out_mirrored->point_b && out->point_b == out_mirrored->point_a);
  }
  // The moving shape cast on toward the held one (the held one cast back onto it), and the same
  // run as a time of impact: the same time, the mirrored normal, the point where that order has it.
  const std::optional<CastHit> cast = shape_cast(held, held_pose, moving, pose, toward), cast_mirrored = shape_cast(moving, pose, held, held_pose, -toward);
  EXPECT_EQ(cast.has_value(), cast_mirrored.has_value());
  if (cast && cast_mirrored) {
    EXPECT_EQ(cast->time, cast_mirrored->time);
    EXPECT_TRUE(cast->normal == -cast_mirrored->normal && cast->point + cast->time * -toward == cast_mirrored->point);
  }
  const Real held_angle = held_pose.rotation.angle(), angle = pose.rotation.angle();
  const Sweep still{{}, held_pose.position, held_pose.position, held_angle, held_angle};
  const Sweep run{{}, pose.position, pose.position + toward, angle, angle};
  const std::optional<CastHit> impact = time_of_impact(held, still, moving, run), impact_mirrored = time_of_impact(moving, run, held, still);
  EXPECT_EQ(impact.has_value(), impact_mirrored.has_value());
  if (impact && impact_mirrored) {
    EXPECT_EQ(impact->time, impact_mirrored->time);
    EXPECT_TRUE(impact->normal == -impact_mirrored->normal && impact->point == impact_mirrored->point);
  }
  return moving_first;
}

/// Sweeps `moving` across the touching band of the lower face of a piece whose corners lie 0.5e6
/// to 1.5e6 from its compound's origin (float; 1e15 scale in double), the compound placed anywhere
/// within that scale and turned; every query is checked mirrored at each pose
/// (expect_mirrored_answers). The moving shape reaches `extent` above its origin and 20 to each
/// side.
/// Counts the poses overlap() calls touching and apart.
void sweep_across_a_far_piece(const Shape& moving, Real extent, int& touching, int& apart) {
  const double scale = std::is_same_v<Real, float> ? 1e6 : 1e15;
  std::mt19937 random(5);
  std::uniform_real_distribution<double> uniform(0, 1);
  for (int trial = 0; trial < 60; ++trial) {
    const Real far = Real(scale * (0.5 + uniform(random))), side = Real(1000);
    const Shape compound = compound_of({{{far, far}, {far + side, far}, {far + side, far + side}}, {{far, far}, {far + side, far + side}, {far, far + side}}});
    const Transform compound_pose = Transform::from({Real(-scale * uniform(random)), Real(scale * uniform(random))}, Real(6.283 * uniform(random)));
    const Real band = contact_tolerance(4 * far);  // about a pair's band; the sweep runs to twice it
    const Real along = far + side * Real(0.2 + 0.6 * uniform(random)), tilt = Real(0.01 * (uniform(random) - 0.5));
    for (int step = 0; step <= 40; ++step) {
      const Real gap = band * Real(step) / 20;
      const Transform pose = compose(compound_pose, Transform::from({along, far - gap - extent - 20 * std::abs(std::sin(tilt))}, tilt));
      SCOPED_TRACE(::testing::Message() << "trial " << trial << ", gap " << gap << " of a band about " << band);
      const bool overlapping = expect_mirrored_answers(moving, pose, compound, compound_pose, rotate(compound_pose.rotation, Vec2{0, 2 * band}));
      (overlapping ? touching : apart) += 1;
    }
  }
}

TEST(CompoundPairs, BothOrdersGiveTheMirroredAnswerExactly) {
  // A segment swept across the touching band of a far piece (sweep_across_a_far_piece). Each
  // query on (segment, compound) must be the mirror of the query on (compound, segment), bit for
  // bit: judged pair by pair in the caller's order, the relative transform is rounded differently
  // in each order, and at the band's edge 114 of 20,200 poses got different overlap() verdicts.
  // overlap(), distance(), contact_manifolds(), penetration(), shape_cast() and time_of_impact()
  // now all judge with the compound first.
  int touching = 0, apart = 0;
  sweep_across_a_far_piece(Capsule{{-20, 0}, {20, 0}, 0}, 0, touching, apart);
  EXPECT_GT(touching, 400);
  EXPECT_GT(apart, 400);
}

TEST(CompoundPairs, TwoCompoundsGiveTheMirroredAnswerExactlyWhicheverComesFirst) {
  // The same sweep with a small compound (two triangles 40 across) for the segment: two compounds
  // were judged in the caller's order, each in its own frame, where the other's coordinates and
  // so the bands differ. The one reaching farther now goes first.
  const Shape small = compound_of({{{-20, -20}, {20, -20}, {0, 20}}, {{20, -20}, {20, 20}, {0, 20}}});
  int touching = 0, apart = 0;
  sweep_across_a_far_piece(small, 20, touching, apart);
  EXPECT_GT(touching, 400);
  EXPECT_GT(apart, 400);
}

TEST(CompoundPairs, TwoCompoundsAsFarReachingAreOrderedByTheirPositions) {
  // Two copies of one compound (the same reach and children): the tie is broken by where each
  // lies, so either order is judged in the same frame. One copy far from the origin, turned, the
  // other swept across the touching band of its lower face.
  const double scale = std::is_same_v<Real, float> ? 1e6 : 1e15;
  const Real far = Real(0.7 * scale), side = 1000;
  const Shape copy = compound_of({{{far, far}, {far + side, far}, {far + side, far + side}}, {{far, far}, {far + side, far + side}, {far, far + side}}});
  const Transform held_pose = Transform::from({Real(-0.3 * scale), Real(0.4 * scale)}, Real(0.7));
  const Real band = contact_tolerance(8 * far);
  int touching = 0, apart = 0;
  for (int step = 0; step <= 80; ++step) {
    const Real gap = band * Real(step) / 40;
    // The copy's piece corner (far, far + side) set below the held copy's lower face at x = far + side / 2.
    const Transform local = Transform::from({side / 2, -side - gap}, Real(0.001 * (step % 7)));
    const Transform pose = compose(held_pose, local);
    SCOPED_TRACE(::testing::Message() << "gap " << gap << " of a band about " << band);
    const bool overlapping = expect_mirrored_answers(copy, pose, copy, held_pose, rotate(held_pose.rotation, Vec2{0, 2 * band}));
    (overlapping ? touching : apart) += 1;
  }
  EXPECT_GT(touching, 0);
  EXPECT_GT(apart, 0);
}

}  // namespace

namespace {

TEST(CompoundRaycast, ARayGrazingALongChildWithinItsBandHitsIt) {
  // A bar 2 x `far` long (1e6 in float, 1e14 in double) beside a small triangle, in a compound
  // turned and moved; rays run along the bar's top face a little above it. A ray's band counts
  // the shape's reach, so the bar alone is hit by a ray within a band of its reach; the compound
  // culled its children with the band of the ray's own coordinates (1e-5 in float, against 1.9)
  // and missed. Oracle: within a quarter of the band of `far` the ray grazes the face (a hit, of
  // the bar and of the compound), beyond 24 of them it misses both; the compound's answer is the
  // bar's own, in both.
  const Real far = std::is_same_v<Real, float> ? Real(1e6) : Real(1e14);
  const Real unit = contact_tolerance(far), height = 64 * unit;
  const std::vector<Vec2> bar = {{-far, 0}, {far, 0}, {far, height}, {-far, height}};
  const Shape compound = compound_of({bar, {{-far, -4 * height}, {-far + 4 * height, -4 * height}, {-far + 4 * height, -2 * height}}});
  const Shape alone = make_polygon(bar).value();
  for (const Transform& pose : {Transform{}, Transform::from({Real(3), Real(-2)}, Real(0.7))}) {
    for (const Real above : {Real(0.1) * unit, Real(0.25) * unit, Real(24) * unit, Real(40) * unit}) {
      const Vec2 start = transform_point(pose, {-5, height + above});
      const Ray ray{start, rotate(pose.rotation, Vec2{10, 0}), 1};
      SCOPED_TRACE(::testing::Message() << "above " << above << " of a band about " << unit);
      const std::optional<RayHit> child = raycast(alone, pose, ray), whole = raycast(compound, pose, ray);
      EXPECT_EQ(child.has_value(), above <= Real(0.25) * unit);
      ASSERT_EQ(whole.has_value(), child.has_value());
      if (whole) {
        EXPECT_EQ(whole->fraction, child->fraction);
        EXPECT_EQ(whole->normal, child->normal);
      }
    }
  }
}

}  // namespace

namespace {

TEST(CompoundPenetration, AShapeOverlappingAHugePieceGetsAtLeastThatPiecesBand) {
  // From a mover fuzz input (float): a box 67 inside a piece whose corners lie 2.7e7 from the
  // compound's origin, near that origin. The piece alone reported the pair's band, 52, which
  // counts its corners; the compound reported the band of the contact points' coordinates, 9e-5,
  // and so called the box overlapping where the piece alone called it touching. The oracle: a
  // piece whose face runs along y = x through the origin, corners S = 2^(digits + 2) out, and an
  // axis-aligned box sunk by d across that face (closed form: its corner deepest inside lies d
  // beyond the line). The pair's band counts the piece's corners in its simplex, every one at
  // least S/2 out, so it is at least contact_tolerance(S/2). Sunk by a quarter, twice and four
  // times the band the piece alone reports, in both orders: the compound's band is at least the
  // piece's and that bound, its verdict (depth beyond the band) is the piece's, its depth is d and
  // its normal the face's within the band, and the box-first answer mirrors it.
  const Real s = std::ldexp(Real(1), std::numeric_limits<Real>::digits + 2);
  const std::vector<Vec2> huge_corners = {{-s / 2, -s / 2}, {s / 2, -s}, {s, s}};
  const Shape compound = compound_of({huge_corners, {{-s / 2, s / 4}, {-s / 4, s / 4}, {-s / 4, s / 2}}});
  const Shape piece = make_polygon(huge_corners).value();
  const Real half_size = 5;
  const Shape box = make_box(half_size, half_size).value();
  const Real lower_band = contact_tolerance(s / 2);
  const long double root_two = std::sqrt(2.0L);
  const Vec2 outward{static_cast<Real>(-1 / root_two), static_cast<Real>(1 / root_two)};
  // The box with its corner `sunk` across the face, its centre about 20 from the origin.
  auto sunk_by = [&](long double sunk) {
    const long double inside = sunk - half_size * root_two;  // the centre's depth below the face
    return Transform{{static_cast<Real>(20 + inside / root_two), static_cast<Real>(20 - inside / root_two)}, {}};
  };
  const std::optional<Penetration> touching = penetration(piece, {}, box, sunk_by(0));
  ASSERT_TRUE(touching.has_value());
  const Real piece_band = touching->tolerance;
  EXPECT_GE(piece_band, lower_band);
  for (const Real bands : {Real(0.25), Real(2), Real(4)}) {
    const Transform box_pose = sunk_by(static_cast<long double>(bands * piece_band));
    const long double depth = half_size * root_two + (static_cast<long double>(box_pose.position.x) - box_pose.position.y) / root_two;
    SCOPED_TRACE(testing::Message() << "depth " << static_cast<double>(depth) << ", the piece's band " << piece_band);
    const std::optional<Penetration> alone = penetration(piece, {}, box, box_pose);
    const std::optional<Penetration> compound_first = penetration(compound, {}, box, box_pose);
    const std::optional<Penetration> box_first = penetration(box, box_pose, compound, {});
    ASSERT_TRUE(alone && compound_first && box_first);
    EXPECT_EQ(bands > 1, alone->depth > alone->tolerance);
    EXPECT_GE(compound_first->tolerance, alone->tolerance);
    EXPECT_GE(compound_first->tolerance, lower_band);
    EXPECT_EQ(compound_first->depth > compound_first->tolerance, alone->depth > alone->tolerance);
    EXPECT_EQ(box_first->tolerance, compound_first->tolerance);
    EXPECT_EQ(box_first->depth, compound_first->depth);
    if (compound_first->depth > compound_first->tolerance) {
      EXPECT_NEAR(compound_first->depth, static_cast<Real>(depth), compound_first->tolerance);
      // The box leaves along the face's outward normal; with the box first, A leaves the other way.
      EXPECT_NEAR(compound_first->normal.x, outward.x, compound_first->tolerance / compound_first->depth);
      EXPECT_NEAR(compound_first->normal.y, outward.y, compound_first->tolerance / compound_first->depth);
      EXPECT_EQ(box_first->normal.x, -compound_first->normal.x);
      EXPECT_EQ(box_first->normal.y, -compound_first->normal.y);
    }
  }
}

TEST(CompoundPairs, ChildFrameReachIsTheFarthestPointOfAChildPlacedByATransform) {
  // Oracle: the farthest vertex (plus radius) of each child placed by a transform other than the
  // identity, from its own origin, in long double; children at the identity do not count.
  const Polygon far_triangle = make_polygon(std::vector<Vec2>{{300, 400}, {310, 400}, {305, 410}}).value();
  const Polygon near_box = make_box(2, 1).value();
  const Shape only_identity = make_compound({CompoundChild{far_triangle, {}}, CompoundChild{near_box, {}}}).value();
  EXPECT_EQ(std::get<Compound>(only_identity).child_frame_reach(), 0);
  const Shape placed = make_compound({CompoundChild{far_triangle, Transform::from({-300, -400}, Real(0.3))},
                                      CompoundChild{near_box, Transform::from({50, 0}, 0)}, CompoundChild{Circle{{3, 4}, 1}, {}}})
                           .value();
  long double farthest = 0;
  for (const Vec2 vertex : far_triangle.vertices()) farthest = std::max(farthest, std::hypot(static_cast<long double>(vertex.x), static_cast<long double>(vertex.y)));
  EXPECT_NEAR(std::get<Compound>(placed).child_frame_reach(), static_cast<Real>(farthest), 8 * contact_tolerance(410));
}

}  // namespace

namespace {

/// The corners of `corners` placed by `pose`, in long double.
std::vector<Point> placed_corners(const std::vector<Vec2>& corners, const Transform& pose) {
  std::vector<Point> placed;
  const long double c = pose.rotation.cosine, s = pose.rotation.sine;
  for (const Vec2 corner : corners) placed.push_back({c * corner.x - s * corner.y + pose.position.x, s * corner.x + c * corner.y + pose.position.y});
  return placed;
}

/// The deepest overlap of a piece of one set with a piece of the other (minus their separation,
/// convex_separation; > 0 when some pair overlaps), each set placed by its pose.
long double deepest_piece_overlap(const std::vector<std::vector<Vec2>>& first, const Transform& first_pose, const std::vector<std::vector<Vec2>>& second,
                                  const Transform& second_pose) {
  long double deepest = -1e30L;
  for (const auto& p : first) {
    for (const auto& q : second) deepest = std::max(deepest, -convex_separation(placed_corners(p, first_pose), placed_corners(q, second_pose)));
  }
  return deepest;
}

/// The convex hull of `points`, counter-clockwise (Andrew's monotone chain, long double).
std::vector<Point> convex_hull(std::vector<Point> points) {
  std::sort(points.begin(), points.end());
  std::vector<Point> hull(2 * points.size());
  std::size_t count = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t floor = count;
    for (const Point& point : points) {
      while (count >= floor + 2 && cross_of(hull[count - 2], hull[count - 1], point) <= 0) --count;
      hull[count++] = point;
    }
    --count;  // the last point starts the other chain
    std::reverse(points.begin(), points.end());
  }
  hull.resize(count);
  return hull;
}

/// The least translation of the second set of pieces that leaves it overlapping no piece of the
/// first (long double): translations t overlap a pair of pieces P, Q in the interior of P - Q
/// (the hull of their corners' differences), and the least t outside every interior is the
/// origin, a foot of the perpendicular from it onto an edge of one, or a crossing of two edges.
/// Every candidate is tried against every obstacle. `interior` is how far inside an obstacle a
/// translation must lie to count: a pair overlapping by up to it counts as free.
long double least_way_out(const std::vector<std::vector<Point>>& first, const std::vector<std::vector<Point>>& second, long double interior) {
  std::vector<std::vector<Point>> obstacles;
  for (const auto& p : first) {
    for (const auto& q : second) {
      std::vector<Point> differences;
      for (const Point& a : p) {
        for (const Point& b : q) differences.push_back({a[0] - b[0], a[1] - b[1]});
      }
      obstacles.push_back(convex_hull(differences));
    }
  }
  auto free = [&](Point t) {
    return std::none_of(obstacles.begin(), obstacles.end(), [&](const std::vector<Point>& hull) {
      for (std::size_t i = 0; i < hull.size(); ++i) {
        if (offset_from_line(hull[i], hull[(i + 1) % hull.size()], t) <= interior) return false;
      }
      return true;
    });
  };
  // The edges of the interiors: each obstacle's edges moved in by `interior`.
  std::vector<std::pair<Point, Point>> edges;
  for (const auto& hull : obstacles) {
    for (std::size_t i = 0; i < hull.size(); ++i) {
      const Point from = hull[i], to = hull[(i + 1) % hull.size()];
      const long double length = std::hypot(to[0] - from[0], to[1] - from[1]);
      const long double in_x = -(to[1] - from[1]) / length * interior, in_y = (to[0] - from[0]) / length * interior;
      edges.push_back({Point{from[0] + in_x, from[1] + in_y}, Point{to[0] + in_x, to[1] + in_y}});
    }
  }
  std::vector<Point> candidates = {{0, 0}};
  for (const auto& [from, to] : edges) {
    const long double ex = to[0] - from[0], ey = to[1] - from[1];
    const long double along = -(from[0] * ex + from[1] * ey) / (ex * ex + ey * ey);
    if (along > 0 && along < 1) candidates.push_back({from[0] + along * ex, from[1] + along * ey});
    for (const auto& [other_from, other_to] : edges) {
      const long double fx = other_to[0] - other_from[0], fy = other_to[1] - other_from[1], denominator = ex * fy - ey * fx;
      if (denominator == 0) continue;
      const long double gx = other_from[0] - from[0], gy = other_from[1] - from[1];
      const long double s = (gx * fy - gy * fx) / denominator, u = (gx * ey - gy * ex) / denominator;
      if (s > 0 && s < 1 && u > 0 && u < 1) candidates.push_back({from[0] + s * ex, from[1] + s * ey});
    }
  }
  long double least = 1e30L;
  for (const Point& t : candidates) {
    if (std::hypot(t[0], t[1]) < least && free(t)) least = std::hypot(t[0], t[1]);
  }
  return least;
}

TEST(CompoundPenetration, ACompoundAtTheTipOfAHugeOnesCrackIsJudgedAlikeInBothOrders) {
  // From the mover fuzzer: a fan of three pieces 6.7e7 across (float) whose hub opens into a crack
  // 0.1 degrees wide, over a small compound of two triangles lying across the hub. Their pieces
  // overlap by 213, about a band. Judged in each compound's own frame, the small one first found
  // every pair of pieces touching (depth 0, band 308), the large one first found 146 deep
  // against a band of 99 and the way out along the crack, 202,418; the push stopped where the
  // first order had it free, reported resolved, and left the fan 202,418 in by the other.
  // Oracle (least_way_out, long double): the least translation freeing the small compound of
  // every piece of the fan, and the same counting a translation within the band of an obstacle's
  // edge as free.
  const std::vector<std::vector<Vec2>> fan = {
      {{-0x1.ff9p+23f, -0x1.1338p+24f}, {-0x1p+25f, -0x1.fc58p+24f}, {0x1.fc6p+24f, -0x1.a7a8p+24f}, {0x1.fcp+24f, -0x1.2cp+24f}},
      {{0x1.fc08p+24f, -0x1.2cp+24f}, {0x1.fc0cp+24f, 0x1.fffcp+24f}, {-0x1.ff9p+23f, -0x1.1338p+24f}},
      {{0x1.fc0cp+24f, 0x1.fffcp+24f}, {-0x1.cff4p+24f, 0x1.fffcp+24f}, {-0x1.cfdp+24f, -0x1.cfdp+24f}, {-0x1.ff9p+23f, -0x1.1338p+24f}}};
  const std::vector<std::vector<Vec2>> small_pieces = {{{-0x1.a3fcp+7f, -0x1.fffp+5f}, {-0x1.7ba4p+7f, 0x1.80acp+7f}, {-0x1.db4p+7f, -0x1.d9b8p+7f}},
                                                       {{-0x1.db4p+7f, -0x1.d9b8p+7f}, {0x1.bc3p+7f, 0x1.219p+5f}, {-0x1.a3fcp+7f, -0x1.fffp+5f}}};
  const Shape large = compound_of(fan), small = compound_of(small_pieces);
  const Transform small_pose{{-0x1.cfdp+9f, -0x1.cfdp+9f}, unit_rotation({-0x1.e9e924p-1f, -0x1.298886p-2f})};
  const Rot large_rotation = unit_rotation({-1, 0x1.777a5cp-24f});
  const Transform large_pose{{-0x1.ff95d2p+23f, -0x1.133b24p+24f}, large_rotation};  // where the push had stopped
  auto placed = [](const std::vector<std::vector<Vec2>>& pieces, const Transform& pose) {
    std::vector<std::vector<Point>> corners;
    for (const auto& corners_of_piece : pieces) corners.push_back(placed_corners(corners_of_piece, pose));
    return corners;
  };
  const long double overlap_there = deepest_piece_overlap(fan, large_pose, small_pieces, small_pose);
  ASSERT_GT(overlap_there, 100);  // about a band in float, far beyond it in double
  const long double least = least_way_out(placed(fan, large_pose), placed(small_pieces, small_pose), 1e-9L);
  ASSERT_GT(least, 1e5L);  // along the crack
  expect_mirrored_answers(small, small_pose, large, large_pose, {64, 64});
  const std::optional<Penetration> found = penetration(large, large_pose, small, small_pose);
  ASSERT_TRUE(found.has_value());
  const Real band = found->tolerance;
  // The band counts the coordinates in use, no more: at most that of twice every coordinate the
  // pair involves.
  const Real involved = coordinate_magnitude(large_pose.position) + size_scale(large) + coordinate_magnitude(small_pose.position) + size_scale(small);
  EXPECT_LE(band, contact_tolerance(2 * involved));
  // Touching within the band, or the way out: no longer than the least, no shorter than the least
  // that leaves each pair within the band, and freeing the pieces within the band.
  if (found->depth > band) {
    EXPECT_LE(found->depth, least + band);
    EXPECT_GE(found->depth, least_way_out(placed(fan, large_pose), placed(small_pieces, small_pose), band) - band);
    const Transform freed{small_pose.position + found->depth * found->normal, small_pose.rotation};
    EXPECT_LE(deepest_piece_overlap(fan, large_pose, small_pieces, freed), band);
  } else {
    EXPECT_LE(overlap_there, 4 * band);
  }
  // The push from the fuzzer's start: resolved, it leaves the two free in both orders, and every
  // pair of pieces within the band (in double the least way out of the crack's tip is still a few
  // bands: the pieces on both sides touch within theirs).
  World world = world_holding(small, small_pose);
  const PushOutResult pushed = push_out(world, large, {{-0x1.a3a4p+9f, -0x1p+10f}, large_rotation});
  ASSERT_EQ(pushed.status, PushOutStatus::resolved);
  for (const bool large_first : {true, false}) {
    const std::optional<Penetration> left = large_first ? penetration(large, pushed.transform, small, small_pose) : penetration(small, small_pose, large, pushed.transform);
    if (left) {
      EXPECT_LE(left->depth, left->tolerance) << large_first;
    }
  }
  EXPECT_LE(deepest_piece_overlap(fan, pushed.transform, small_pieces, small_pose), band);
}

}  // namespace

namespace {

/// The mover fuzzer's fan (float): three pieces 6.7e7 across meeting at a hub 9.2e5 from the
/// compound's origin, where a crack 7.4e-4 wide per unit along it opens between the short side of
/// the first piece (a quadrilateral whose vertex at the hub turns by 0.07 degrees) and the long
/// side of the third.
struct CrackedFan {
  Vec2 hub{0x1.3e8p+19f, 0x1.3bp+19f}, long_end{0x1.ffecp+24f, 0x1.fffcp+24f}, short_end{0x1.3614p+24f, 0x1.3684p+24f};
  std::vector<std::vector<Vec2>> pieces = {{{-0x1p+25f, 0x1.3734p+24f}, {-0x1p+25f, -0x1.ffd8p+24f}, hub, short_end},
                                           {{-0x1p+25f, -0x1.ffd8p+24f}, {0x1.f3fcp+24f, -0x1.f3fp+23f}, hub},
                                           {{0x1.f3fcp+24f, -0x1.f3fp+23f}, long_end, hub}};
  Shape shape = compound_of(pieces);
  Transform pose{{-0x1p+14f, -0x1.596p+11f}, unit_rotation({0x1.bb11b6p-1f, -0x1.0094aep-1f})};
};

TEST(CompoundPenetration, ACircleAcrossTheTipOfACrackIsJudgedAlikeAllAlongIt) {
  // From the mover fuzzer (float): a fan of three pieces 6.7e7 across whose hub opens into a crack
  // 7.4e-4 wide per unit along it, and a circle of radius 97 across the crack's tip, its centre
  // 27.7 inside the piece on one side. The circle cannot leave the pieces' union by less than its
  // radius plus that depth, 125, and it leaves along the crack, 2.6e5. Each pair of pieces
  // judged it by its own band, which counts the features nearest the circle: 123 into that
  // piece against a band of 133 beside the hub (its nearly flat vertex there brings in the
  // piece's far corner), so touching, and the same 123 against 78 a little farther along, so
  // 262,330 deep. A push stopped at the first pose and the move slid on to the second. The disk
  // about a shape's centre inside it (here the whole circle) is now held to the outline by the band
  // of the compound's reach, the same all along. Oracle (long double): the lower bound above; the
  // upper bound of sliding along the crack's bisector until the circle is a band clear of both
  // sides; the pieces' distances from the centre once moved out.
  const CrackedFan cracked;
  const Vec2 hub = cracked.hub, long_end = cracked.long_end, short_end = cracked.short_end;
  const std::vector<std::vector<Vec2>>& pieces = cracked.pieces;
  const Shape& fan = cracked.shape;
  const Transform fan_pose = cracked.pose;
  const Real radius = 0x1.85a8p+6f;
  const Shape circle = Circle{{-0x1.1a8p+4f, -0x1.596p+6f}, radius};
  const Rot circle_rotation = unit_rotation({-0x1.4d00e6p-7f, 0x1.fff93cp-1f});
  const Transform across_the_tip{{871374.625f, 228687.953f}, circle_rotation};  // where the push had stopped
  auto centre_in_fan = [&](const Transform& pose) {
    return as_point(inverse_transform_point(fan_pose, transform_point(pose, std::get<Circle>(circle).center)));
  };
  const Vec2 along = rotate(fan_pose.rotation, normalize(short_end - hub));  // the crack's shorter side, world
  const long double to_short = std::atan2(short_end.y - hub.y, short_end.x - hub.x), to_long = std::atan2(long_end.y - hub.y, long_end.x - hub.x);
  const long double half_angle = (to_short - to_long) / 2, bisector = (to_short + to_long) / 2;
  ASSERT_GT(half_angle, 0);
  // Where along the bisector the crack is as wide as a circle larger by `margin` on every side:
  // the circle there is `margin` clear of both sides. A band across the crack is band / sin(half
  // angle), some 3e5 in float, along it.
  auto fits = [&](long double margin) {
    const long double reach = (radius + margin) / std::sin(half_angle);
    return Point{hub.x + reach * std::cos(bisector), hub.y + reach * std::sin(bisector)};
  };
  int deep = 0, poses = 0;
  for (int step = 0; step <= 40; ++step, ++poses) {
    const Transform pose{across_the_tip.position + Real(40 * step) * along, circle_rotation};  // the slide, along the side
    const Point centre = centre_in_fan(pose);
    const long double depth_in_piece = offset_from_line(as_point(hub), as_point(short_end), centre);
    ASSERT_GT(depth_in_piece, 20);
    ASSERT_LT(offset_from_line(as_point(hub), as_point(long_end), centre) - depth_in_piece, 2);  // the crack is under 2 wide there
    const long double lower = radius + depth_in_piece;
    for (const bool circle_first : {true, false}) {
      SCOPED_TRACE(::testing::Message() << "step " << step << (circle_first ? ", circle first" : ", fan first"));
      const std::optional<Penetration> found = circle_first ? penetration(circle, pose, fan, fan_pose) : penetration(fan, fan_pose, circle, pose);
      ASSERT_TRUE(found.has_value());
      if (found->depth <= found->tolerance) continue;
      deep += circle_first;
      EXPECT_GE(found->depth, Real(lower) - found->tolerance);
      const Point clear = fits(found->tolerance);
      EXPECT_LE(found->depth, Real(std::hypot(clear[0] - centre[0], clear[1] - centre[1])));
      // Moved out by the depth, the circle is at most touching every piece.
      const Vec2 away = (circle_first ? Real(-1) : Real(1)) * found->depth * found->normal;
      const Point moved = centre_in_fan({pose.position + away, circle_rotation});
      for (const auto& corners : pieces) {
        std::vector<Point> placed;
        for (const Vec2 corner : corners) placed.push_back(as_point(corner));
        EXPECT_GE(inside_even_odd(placed, moved) ? 0.0L : boundary_distance(placed, moved), radius - found->tolerance);
      }
    }
  }
  // One verdict all along: the circle lies the same way across the crack at every pose.
  EXPECT_TRUE(deep == 0 || deep == poses) << deep << " of " << poses << " poses deep";
}

TEST(CompoundPenetration, ACircleAtTheCracksTipBesideAnAlmostFlatVertexIsJudgedAlikeAllAlongItsSlide) {
  // From the mover fuzzer (float): the same fan, and a circle of radius 65 pushed out to the hub,
  // its centre 18.7 inside the first piece, then sliding 107 along the crack. Against that piece
  // the circle lies past its almost flat vertex at the hub, where the two faces' separations
  // differ by round-off: which ranked first flipped from pose to pose, and with it the pair's
  // band (133 or 78), so the circle, 84 into the piece, was touching at some poses and 175,000
  // deep (its way out along the crack) at others 1.6 apart, and the move passed "through" the
  // fan. The band now counts both faces (the piece alone: ToleranceModel's
  // ACircleAcrossAnAlmostFlatVertexHasOneBandWhicheverFaceRanksFirst). Oracle (long double): one
  // verdict all along; where deep, at least the radius plus the centre's depth in the piece.
  const CrackedFan fan;
  const Real radius = 0x1.04p+6f;
  const Shape circle = Circle{{0x1.3734p+8f, 0x1.34p+8f}, radius};
  const Rot circle_rotation = unit_rotation({-1, 0x1.777a5cp-24f});
  const Vec2 first{871744.4375f, 228962.453125f}, last{871847.625f, 228990.015625f};
  int deep = 0, poses = 0;
  for (int step = 0; step <= 64; ++step) {
    const Transform pose{first + (Real(step) / 64) * (last - first), circle_rotation};
    const Point centre = as_point(inverse_transform_point(fan.pose, transform_point(pose, std::get<Circle>(circle).center)));
    const long double depth_in_piece = offset_from_line(as_point(fan.hub), as_point(fan.short_end), centre);
    ASSERT_GT(depth_in_piece, 18);
    ASSERT_LT(depth_in_piece, 20);
    for (const bool circle_first : {true, false}) {
      SCOPED_TRACE(::testing::Message() << "step " << step << (circle_first ? ", circle first" : ", fan first"));
      const std::optional<Penetration> found =
          circle_first ? penetration(circle, pose, fan.shape, fan.pose) : penetration(fan.shape, fan.pose, circle, pose);
      ASSERT_TRUE(found.has_value());
      ++poses;
      if (found->depth <= found->tolerance) continue;
      ++deep;
      EXPECT_GE(found->depth, Real(radius + depth_in_piece) - found->tolerance);
    }
  }
  EXPECT_TRUE(deep == 0 || deep == poses) << deep << " of " << poses << " poses deep";
}

TEST(CompoundPenetration, ACircleBesideACrackIsTouchingWhereNoPieceIsOverlappedBeyondItsBand) {
  // From the mover fuzzer (float; its fan had a triangle where this one has a quadrilateral, and a
  // capsule nearly as short as a point): the fan placed as the fuzzer placed it, and a circle of
  // radius 106 sliding 14,000 along the crack's mouth, its centre 12.6 to 15 outside the piece on
  // one side, which it overlaps by 91 to 94, within that pair's band of 128, and 90 to 107 outside
  // the other. The disk about the centre, here the whole circle, reached 91 to 94 into the outline
  // (by the point query at the centre, 2.2e7 from the fan's origin), against the compound's reach
  // band of 93.4: 51 of the 141 poses were 120,000 deep by turns, the way out along the crack.
  // Where the outline runs along the pieces' faces, the disk reaches no deeper into it than the
  // circle into the nearest piece, so only the outline's depth beyond the pairs' own now counts.
  // Oracle (long double): each piece's overlap from the centre's distance to its outline; where
  // touching, no piece overlapped beyond the band the answer reports; where deep, at least the
  // deepest overlap; one verdict all along (in double, whose band is 2.4e-7, deep).
  const CrackedFan fan;
  const Transform fan_pose{{-0x1.5b7p+13f, -0x1.e4p+13f}, unit_rotation({-1, 0x1.777a5cp-24f})};
  const Real radius = 0x1.a9a8p+6f;
  const Shape circle = Circle{{-0x1.596p+6f, -0x1.596p+6f}, radius};
  const Rot circle_rotation = unit_rotation({0x1.fc9aap-1f, -0x1.d6faf2p-4f});
  const Vec2 start{-777728.125f, -775006.875f}, along{-0x1.6a09e6p-1f, -0x1.6a09e6p-1f};
  int deep = 0, poses = 0;
  for (int step = -140; step <= 0; ++step) {
    const Transform pose{start + Real(100 * step) * along, circle_rotation};
    const Point centre = as_point(inverse_transform_point(fan_pose, transform_point(pose, std::get<Circle>(circle).center)));
    long double deepest_overlap = 0;
    for (const std::vector<Vec2>& corners : fan.pieces) {
      Ring ring;
      for (const Vec2 corner : corners) ring.push_back(as_point(corner));
      const long double centre_distance = (inside_even_odd(ring, centre) ? -1 : 1) * boundary_distance(ring, centre);
      deepest_overlap = std::max(deepest_overlap, radius - centre_distance);
    }
    // The case as described: at the old disk test's edge, well within the pairs' bands.
    ASSERT_GT(deepest_overlap, 91);
    ASSERT_LT(deepest_overlap, 94);
    for (const bool circle_first : {true, false}) {
      SCOPED_TRACE(::testing::Message() << "step " << step << (circle_first ? ", circle first" : ", fan first"));
      const std::optional<Penetration> found =
          circle_first ? penetration(circle, pose, fan.shape, fan_pose) : penetration(fan.shape, fan_pose, circle, pose);
      ASSERT_TRUE(found.has_value());
      ++poses;
      if (found->depth <= found->tolerance) {
        EXPECT_LE(deepest_overlap, found->tolerance);
      } else {
        ++deep;
        EXPECT_GE(found->depth, Real(deepest_overlap) - found->tolerance);
      }
    }
  }
  // One verdict all along: touching in float, whose bands hold every overlap; deep in double.
  const int expected_deep = std::is_same_v<Real, float> ? 0 : poses;
  EXPECT_EQ(deep, expected_deep) << deep << " of " << poses << " poses deep";
}

/// How far a capsule whose core runs from `a` to `b` overlaps the convex `ring` (counter-clockwise),
/// in long double: the radius less the core's distance from the ring, or plus the core's depth in
/// it where they cross (the least overlap of their projections on the ring's edge normals and the
/// core's normal).
long double capsule_overlap(const Ring& ring, Point a, Point b, long double radius) {
  long double apart = 1e30L;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const Point from = ring[i], to = ring[(i + 1) % ring.size()];
    apart = std::min({apart, segment_point_distance(from, to, a), segment_point_distance(from, to, b), segment_point_distance(a, b, from)});
  }
  std::vector<Point> axes;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const Point from = ring[i], to = ring[(i + 1) % ring.size()];
    const long double length = std::hypot(to[0] - from[0], to[1] - from[1]);
    axes.push_back({(to[1] - from[1]) / length, -(to[0] - from[0]) / length});
  }
  const long double core_length = std::hypot(b[0] - a[0], b[1] - a[1]);
  if (core_length > 0) axes.push_back({-(b[1] - a[1]) / core_length, (b[0] - a[0]) / core_length});
  long double depth = 1e30L;
  for (const Point axis : axes) {
    long double ring_low = 1e30L, ring_high = -1e30L;
    for (const Point corner : ring) {
      const long double along = corner[0] * axis[0] + corner[1] * axis[1];
      ring_low = std::min(ring_low, along);
      ring_high = std::max(ring_high, along);
    }
    const long double at_a = a[0] * axis[0] + a[1] * axis[1], at_b = b[0] * axis[0] + b[1] * axis[1];
    depth = std::min(depth, std::min(ring_high - std::min(at_a, at_b), std::max(at_a, at_b) - ring_low));
  }
  return depth > 0 ? radius + depth : radius - apart;
}

TEST(CompoundPenetration, ACapsuleSqueezedInACrackNarrowerThanItIsTouchingWhereItsPairsAreWithinAboutTheirBands) {
  // From the mover fuzzer's CI smoke (float): the cracked fan placed as before, and a capsule of
  // radius 106, almost a circle, pushed out into the crack where it is about 70 wide, narrower
  // than the capsule: 126 into the piece on one side, whose pair band is 125.2, and 1.5 to 4 clear
  // of the other (band 74.8). Sliding 2,600 along the first piece's face, round-off moved that pair
  // across its band's edge: touching, then 159,783 deep, the way out along the crack.
  // The pair's own way out (126 across) runs into the other piece beyond its band, and nothing
  // shorter was tried. A squeezed pair beyond its band by at most a quarter of it is now taken back
  // a quarter of the band inside it, a move of at most half a band. Poses: the slide, every 50,
  // and across the crack from 64 toward the other piece to 96 deeper into the first. Oracle (long
  // double): each piece's overlap, from the core's distance or depth (exactly, 125.9 to 126.3 along
  // the slide: the pair query's 124.4 and 126.4 are its round-off); each pair's band as the pair
  // query gives it in the compound's frame. Where every piece is overlapped by at most its band and
  // an eighth, the answer is touching, and moved by it the capsule overlaps no piece beyond its
  // band (and its round-off, a 32nd); where one is overlapped beyond its band and a half, the
  // answer is deep.
  if constexpr (!std::is_same_v<Real, float>) {
    GTEST_SKIP() << "a float case: in double the bands are 1e-6 and the capsule is 126 deep at every pose";
  }
  const CrackedFan fan;
  const Transform fan_pose{{-0x1.5b7p+13f, -0x1.e4p+13f}, unit_rotation({-1, 0x1.777a5cp-24f})};
  const Real radius = 0x1.a9a8p+6f;
  const Capsule capsule{{-0x1.585p+6f, -0x1.5c3p+6f}, {-0x1.596p+6f, -0x1.586p+6f}, radius};
  const Shape capsule_shape = capsule;
  const Rot capsule_rotation = unit_rotation({-0x1.fffb04p-1f, -0x1.1de056p-7f});
  const Vec2 pushed{-748937.375f, -746143.5f}, along{-0x1.6a09e6p-1f, -0x1.6a09e6p-1f}, across{-0x1.6a09e6p-1f, 0x1.6a09e6p-1f};
  std::vector<Ring> rings;
  for (const std::vector<Vec2>& corners : fan.pieces) {
    Ring ring;
    for (const Vec2 corner : corners) ring.push_back(as_point(corner));
    rings.push_back(ring);
  }
  // Each piece's overlap by the capsule at `pose` (oracle), and each pair's band (the pair query).
  struct PieceOverlap {
    long double overlap;
    Real band;
  };
  auto overlaps_at = [&](const Transform& pose) {
    const Point a = as_point(inverse_transform_point(fan_pose, transform_point(pose, capsule.a)));
    const Point b = as_point(inverse_transform_point(fan_pose, transform_point(pose, capsule.b)));
    std::vector<PieceOverlap> found;
    for (std::size_t i = 0; i < rings.size(); ++i) {
      const std::optional<Penetration> pair =
          penetration(Shape(make_polygon(fan.pieces[i]).value()), Transform{}, capsule_shape, inverse_compose(fan_pose, pose));
      found.push_back({capsule_overlap(rings[i], a, b, radius), pair ? pair->tolerance : Real(0)});
    }
    return found;
  };
  int near_edge = 0, beyond = 0, poses = 0;
  for (int step = 0; step <= 52; ++step) {
    for (const int offset : {-64, -48, -32, -16, -8, -4, 0, 4, 8, 16, 32, 64, 96}) {
      const Transform pose{pushed + Real(50 * step) * along + Real(offset) * across, capsule_rotation};
      const std::vector<PieceOverlap> pieces = overlaps_at(pose);
      bool within_an_eighth = true, beyond_a_half = false;
      for (const PieceOverlap& piece : pieces) {
        within_an_eighth = within_an_eighth && piece.overlap <= Real(1.125) * piece.band;
        beyond_a_half = beyond_a_half || (piece.overlap > 0 && piece.overlap > Real(1.5) * piece.band);
      }
      // The case as described: the crack narrower than the capsule, which overlaps the first piece.
      if (offset == 0) {  // the case as described: 125.9 to 126.3 into the long face's piece, 1.5 to 3.9 clear of the other
        ASSERT_GT(pieces[2].overlap, 125.8L) << "step " << step;
        ASSERT_LT(pieces[2].overlap, 126.4L) << "step " << step;
        ASSERT_GT(pieces[0].overlap, -4) << "step " << step;
      }
      for (const bool capsule_first : {true, false}) {
        SCOPED_TRACE(::testing::Message() << "step " << step << ", offset " << offset << (capsule_first ? ", capsule first" : ", fan first"));
        const std::optional<Penetration> found =
            capsule_first ? penetration(capsule_shape, pose, fan.shape, fan_pose) : penetration(fan.shape, fan_pose, capsule_shape, pose);
        ++poses;
        if (within_an_eighth) {
          ++near_edge;
          ASSERT_TRUE(found.has_value());
          EXPECT_LE(found->depth, found->tolerance);
          const Vec2 away = (capsule_first ? Real(-1) : Real(1)) * found->depth * found->normal;
          // Within round-off of the band: the pair's depth rounds by up to 2 here, a 60th of it.
          for (const PieceOverlap& piece : overlaps_at({pose.position + away, capsule_rotation})) EXPECT_LE(piece.overlap, piece.band * (1 + Real(1) / 32));
        } else if (beyond_a_half) {
          ++beyond;
          ASSERT_TRUE(found.has_value());
          EXPECT_GT(found->depth, found->tolerance);
        }
      }
    }
  }
  // Both kinds of pose are met: the slide's (at the band's edge) and those well beyond it.
  EXPECT_GE(near_edge, poses / 4);
  EXPECT_GE(beyond, poses / 8);
}

}  // namespace
