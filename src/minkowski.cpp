// minkowski.cpp — the Minkowski difference by brute force, the exit vector along a motion, and
// the least translation out of a union of differences (a compound pair's way out).
//
// Difference outline: subtract every core vertex of A from every core vertex of B (B placed in
// A's frame), take the convex hull, and sweep it by the sum of the radii. The origin's signed
// distance to that rounded hull says whether the shapes overlap and by how much; the nearest
// boundary point is the minimum translation.
// Exit outline (the "cast the velocity into the Minkowski difference" method of swept AABB and
// slope-sliding tutorials): B moved back by s * motion touches A when s * motion lies on the
// boundary of the difference at B's final pose. Seen from B's pose before the motion, that is
// the first contact of B moving forward by the motion, time 1 - s: shape_cast finds it from
// support points (exact for rounded shapes, no difference built). A contact at time 0 means B
// touched or overlapped A before it moved; penetration() there tells the two apart.
// Union outline: at the section below.
#include <algorithm>
#include <cmath>

#include "collide2d/algorithms.hpp"
#include "collide2d/hull.hpp"
#include "collide2d/overlap.hpp"
#include "collide2d/penetration.hpp"
#include "collide2d/shape_cast.hpp"
#include "collide2d/tolerance.hpp"
#include "minkowski_union.hpp"

namespace collide2d {
namespace {

std::vector<Vec2> core_vertices(const ConvexShape& shape) {
  return std::visit([](const auto& concrete) { return detail::core_vertices(concrete); }, shape);
}

/// The closest point to the origin on the segment from p to q.
Vec2 closest_on_segment(Vec2 p, Vec2 q) { return lerp(p, q, closest_parameter_on_segment(p, q, Vec2{})); }

/// Edges of a hull as (start, end, outward normal); a two-point hull has two opposite edges.
struct HullEdge {
  Vec2 start, end, outward;
};
std::vector<HullEdge> hull_edges(const std::vector<Vec2>& hull) {
  std::vector<HullEdge> edges;
  if (hull.size() < 2) return edges;
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const Vec2 start = hull[i], end = hull[(i + 1) % hull.size()];
    edges.push_back({start, end, normalize(right_perpendicular(end - start))});
  }
  return edges;
}

}  // namespace

MinkowskiDifference minkowski_difference(const ConvexShape& a, const ConvexShape& b, const Transform& b_to_a) {
  MinkowskiDifference result;
  const std::vector<Vec2> points_a = core_vertices(a);
  std::vector<Vec2> points_b = core_vertices(b);
  Real scale = 0;
  for (Vec2& point_b : points_b) {
    point_b = transform_point(b_to_a, point_b);
    scale = std::max({scale, std::abs(point_b.x), std::abs(point_b.y)});
  }
  for (const Vec2 point_a : points_a) scale = std::max({scale, std::abs(point_a.x), std::abs(point_a.y)});
  result.all_points = detail::difference_points(points_a, points_b);
  result.hull = convex_hull(result.all_points);
  result.radius = std::visit([](const auto& shape) { return shape.rounding_radius(); }, a) +
                  std::visit([](const auto& shape) { return shape.rounding_radius(); }, b);

  const std::vector<HullEdge> edges = hull_edges(result.hull);
  bool inside_core = result.hull.size() >= 3;
  Real nearest = std::numeric_limits<Real>::max();
  Vec2 nearest_point = result.hull.empty() ? Vec2{} : result.hull[0];
  Vec2 nearest_outward{-1, 0};
  for (const HullEdge& edge : edges) {
    if (dot(edge.outward, edge.start) < 0) inside_core = false;  // the origin is beyond this edge
    const Vec2 candidate = closest_on_segment(edge.start, edge.end);
    if (length(candidate) < nearest) {
      nearest = length(candidate);
      nearest_point = candidate;
      nearest_outward = edge.outward;
    }
  }
  if (edges.empty()) nearest = length(nearest_point);

  if (inside_core) {  // depth = distance to the nearest edge, plus the radius
    result.signed_distance = -(nearest + result.radius);
    result.closest_point = nearest_point + result.radius * nearest_outward;
    result.normal = -nearest_outward;
  } else {
    result.signed_distance = nearest - result.radius;
    result.normal = nearest > 0 ? (Real(1) / nearest) * nearest_point : -nearest_outward;
    result.closest_point = nearest_point - result.radius * result.normal;
  }
  result.contains_origin = result.signed_distance <= contact_tolerance(scale);
  return result;
}

Result<MinkowskiExit, ExitRefusal> minkowski_exit(const Shape& a, const Transform& transform_a, const Shape& b, const Transform& transform_b,
                                                  Vec2 motion_b) {
  if (length_squared(motion_b) == 0) return ExitRefusal{ExitRefusalKind::zero_motion, "the motion is zero: there is no line to back out along"};
  const ExitRefusal apart{ExitRefusalKind::apart, "B does not overlap A after the motion (it touches it at most): there is nothing to undo"};
  if (!overlap(a, transform_a, b, transform_b)) return apart;  // also when B passed through A
  // Contact within the touching band of the features (the cast's own): B backed out is left that
  // close to A, never inside it. For a compound, the cast's first contact is with the first piece
  // the motion meets.
  const Transform before{transform_b.position - motion_b, transform_b.rotation};
  const std::optional<CastHit> hit = shape_cast(a, transform_a, b, before, motion_b);
  if (!hit) return apart;  // touching at the end within overlap()'s band, beyond the cast's
  if (hit->initially_touching) {
    const std::optional<Penetration> start = penetration(a, transform_a, b, before);
    if (start && start->depth > start->tolerance) {
      return ExitRefusal{ExitRefusalKind::overlapping_before,
                         "B moved back by the whole motion still overlaps A by " + std::to_string(start->depth) +
                             ": it overlapped before the motion, which does not explain the overlap"};
    }
  }
  MinkowskiExit exit;
  exit.fraction = 1 - hit->time;
  exit.translation_b = -exit.fraction * motion_b;
  exit.normal = hit->normal;
  const Vec2 blocked = exit.fraction * motion_b;
  exit.slide = blocked - dot(blocked, exit.normal) * exit.normal;
  exit.status = hit->status;
  return exit;
}

Result<MinkowskiExit, ExitRefusal> minkowski_exit(const ConvexShape& a, const Transform& transform_a, const ConvexShape& b,
                                                  const Transform& transform_b, Vec2 motion_b) {
  auto as_shape = [](const ConvexShape& convex) { return std::visit([](const auto& concrete) { return Shape(concrete); }, convex); };
  return minkowski_exit(as_shape(a), transform_a, as_shape(b), transform_b, motion_b);
}

// --- the least translation out of a union of differences ---------------------------------------

namespace detail {

std::vector<Vec2> difference_points(std::span<const Vec2> points_a, std::span<const Vec2> points_b) {
  std::vector<Vec2> differences;
  differences.reserve(points_a.size() * points_b.size());
  for (const Vec2 point_b : points_b) {
    for (const Vec2 point_a : points_a) differences.push_back(point_b - point_a);
  }
  return differences;
}

TranslationObstacle translation_obstacle(std::span<const Vec2> core_a, std::span<const Vec2> core_b, Real radius) {
  TranslationObstacle obstacle;
  obstacle.core = convex_hull(difference_points(core_a, core_b));
  for (Vec2& point : obstacle.core) point = -point;  // A - B: a half turn keeps the hull counter-clockwise
  obstacle.radius = radius;
  // Each edge's band from its own two vertices, the features a candidate on it comes from (as
  // GJK's band comes from its simplex's points), not from the farthest vertex of either part: a
  // band from a compound's whole piece, 6.7e7 across (127, in float), took translations leaving a
  // polygon 107 inside that piece as clear, where the pair's own band (99) did not.
  const std::size_t count = obstacle.core.size();
  auto band = [&](Vec2 start, Vec2 end) { return contact_tolerance(std::max(coordinate_magnitude(start), coordinate_magnitude(end)) + radius); };
  if (count == 1) obstacle.tolerances.push_back(band(obstacle.core[0], obstacle.core[0]));
  if (count >= 2) {  // two points: the segment both ways
    for (std::size_t i = 0; i < count; ++i) {
      const Vec2 start = obstacle.core[i], end = obstacle.core[i + 1 == count ? 0 : i + 1];
      obstacle.normals.push_back(normalize(right_perpendicular(end - start)));
      obstacle.tolerances.push_back(band(start, end));
    }
  }
  return obstacle;
}

namespace {

// Outline. The translations that free B are those inside no obstacle. Each obstacle's boundary is
// made of straight stretches (its core's edges pushed out by the radius) and, when rounded, arcs
// about its core's vertices. The least free translation is the origin itself (handled by the
// caller), or a point of the union's boundary where |t| is locally least: the point of one
// stretch or arc nearest the origin (a clamped projection, so a core vertex too), or a point where
// boundaries of two obstacles cross. Every such point shorter than the bound is a candidate; they
// are sorted by length and tested against every obstacle, the first that are clear kept.
// (Configuration-space obstacles: Lozano-Perez, "Spatial planning: a configuration space
// approach", 1983; the candidate set is that of the nearest point outside a union of convex sets.)

/// A piece of an obstacle's boundary: a straight stretch from `start` to `end`, or (radius > 0) an
/// arc about `center` running counter-clockwise from the unit direction `from` to `to`.
struct BoundaryPiece {
  Vec2 start, end;
  Vec2 center, from, to;
  Real radius = 0;
  bool whole_circle = false;
  int obstacle = 0;
};

/// Is the unit direction `direction` on the arc, within `slack` (a sine)? Arcs span at most half a
/// turn (a vertex of a convex core), or the whole circle.
bool on_arc(const BoundaryPiece& arc, Vec2 direction, Real slack) {
  return arc.whole_circle || (cross(arc.from, direction) >= -slack && cross(direction, arc.to) >= -slack);
}

/// How far a crossing may fall beyond a piece's ends, as a fraction of the piece (or a sine for an
/// arc), and still be kept: the boundaries of pieces that share a vertex cross there, which
/// round-off may put a hair outside either end. Candidates are tested anyway.
constexpr Real crossing_slack = Real(1e-4);

/// The point of a piece nearest the origin, appended to `points` (none for an arc whose nearest
/// point of its circle lies beyond its ends: the stretches' ends cover those). Returns the piece's
/// least distance from the origin (an arc's whole circle's, which is no farther).
Real add_nearest(const BoundaryPiece& piece, std::vector<Vec2>& points) {
  if (piece.radius == 0) {
    const Vec2 nearest = closest_on_segment(piece.start, piece.end);
    points.push_back(nearest);
    return length(nearest);
  }
  const Real from_origin = length(piece.center);
  const Vec2 toward_origin = from_origin > 0 ? (-1 / from_origin) * piece.center : piece.from;
  if (on_arc(piece, toward_origin, 0)) points.push_back(piece.center + piece.radius * toward_origin);
  return std::max(Real(0), from_origin - piece.radius);
}

/// The points where two pieces cross, appended to `points`.
void add_crossings(const BoundaryPiece& p, const BoundaryPiece& q, std::vector<Vec2>& points) {
  if (p.radius == 0 && q.radius == 0) {
    const Vec2 along_p = p.end - p.start, along_q = q.end - q.start;
    const Real denominator = cross(along_p, along_q);
    if (denominator == 0) return;  // parallel: their ends are candidates already
    const Real at_p = cross(q.start - p.start, along_q) / denominator, at_q = cross(q.start - p.start, along_p) / denominator;
    if (at_p < -crossing_slack || at_p > 1 + crossing_slack || at_q < -crossing_slack || at_q > 1 + crossing_slack) return;
    points.push_back(lerp(p.start, p.end, std::clamp(at_p, Real(0), Real(1))));
    return;
  }
  if (p.radius == 0 || q.radius == 0) {  // a stretch and an arc: where the line meets the circle
    const BoundaryPiece& line = p.radius == 0 ? p : q;
    const BoundaryPiece& arc = p.radius == 0 ? q : p;
    const Vec2 along = line.end - line.start, from_center = line.start - arc.center;
    const Real a = dot(along, along), half_b = dot(from_center, along), c = dot(from_center, from_center) - arc.radius * arc.radius;
    const Real discriminant = half_b * half_b - a * c;
    if (!(discriminant >= 0) || a == 0) return;
    const Real root = std::sqrt(discriminant);
    for (const Real at : {(-half_b - root) / a, (-half_b + root) / a}) {
      if (at < -crossing_slack || at > 1 + crossing_slack) continue;
      const Vec2 point = lerp(line.start, line.end, std::clamp(at, Real(0), Real(1)));
      if (on_arc(arc, (1 / arc.radius) * (point - arc.center), crossing_slack)) points.push_back(point);
    }
    return;
  }
  // Two arcs: where the circles meet.
  const Vec2 between = q.center - p.center;
  const Real apart = length(between);
  if (!(apart > 0) || apart > p.radius + q.radius || apart < std::abs(p.radius - q.radius)) return;
  const Real along = (apart * apart + p.radius * p.radius - q.radius * q.radius) / (2 * apart);
  const Real across = std::sqrt(std::max(Real(0), p.radius * p.radius - along * along));
  const Vec2 unit = (1 / apart) * between;
  for (const Real side : {Real(-1), Real(1)}) {
    const Vec2 point = p.center + along * unit + side * across * left_perpendicular(unit);
    if (on_arc(p, (1 / p.radius) * (point - p.center), crossing_slack) && on_arc(q, (1 / q.radius) * (point - q.center), crossing_slack)) {
      points.push_back(point);
    }
  }
}

/// Is `point` inside the obstacle by no more than the band of the edge it is nearest or beyond?
bool clear_of(const TranslationObstacle& obstacle, Vec2 point) {
  const std::vector<Vec2>& core = obstacle.core;
  // A distance from the core at least this is clear, for the edge (or point, or segment) `index`.
  auto least_gap = [&](std::size_t index) { return obstacle.radius - obstacle.tolerances[index]; };
  if (core.size() == 1) return length(point - core[0]) >= least_gap(0);
  if (core.size() == 2) return distance_to_segment(point, core[0], core[1]) >= least_gap(0);
  // Beyond an edge's line by its least gap: clear (the core lies behind that line).
  bool inside_every_line = true;
  for (std::size_t i = 0; i < core.size(); ++i) {
    const Real beyond = dot(obstacle.normals[i], point - core[i]);
    if (beyond >= least_gap(i)) return true;
    if (beyond > 0) inside_every_line = false;
  }
  if (inside_every_line) return false;  // inside the core, deeper than the radius and the bands allow
  // Outside the core, within the radius of it: the nearest edge decides, by its own band.
  Real nearest = std::numeric_limits<Real>::max();
  std::size_t nearest_edge = 0;
  for (std::size_t i = 0; i < core.size(); ++i) {
    const Real gap = distance_to_segment(point, core[i], core[i + 1 == core.size() ? 0 : i + 1]);
    if (gap < nearest) nearest = gap, nearest_edge = i;
  }
  return nearest >= least_gap(nearest_edge);
}

/// Pieces whose crossings are searched, nearest the origin first: beyond this many (a huge polygon
/// against a compound), the farther pieces offer only their nearest points, which bounds the work
/// by its square; the answer is then still clear of every obstacle, but may not be the least.
constexpr std::size_t crossing_piece_limit = 512;
/// Candidates tested against the obstacles, shortest first, before the search gives up: each test
/// may visit every obstacle's every edge.
constexpr std::size_t candidates_examined_limit = 4096;

}  // namespace

std::vector<Vec2> union_exits(std::span<const TranslationObstacle> obstacles, Real bound, std::size_t limit) {
  std::vector<BoundaryPiece> pieces;
  std::vector<Vec2> candidates;
  for (std::size_t index = 0; index < obstacles.size(); ++index) {
    const TranslationObstacle& obstacle = obstacles[index];
    const std::vector<Vec2>& core = obstacle.core;
    const std::size_t count = core.size();
    if (count == 0 || (count < 3 && obstacle.radius == 0)) continue;  // no area: nothing is inside it
    const int id = static_cast<int>(index);
    const Real radius = obstacle.radius;
    if (count == 1) {
      pieces.push_back({core[0] + Vec2{radius, 0}, core[0] + Vec2{radius, 0}, core[0], {1, 0}, {1, 0}, radius, true, id});
      continue;
    }
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t next = i + 1 == count ? 0 : i + 1, previous = i == 0 ? count - 1 : i - 1;
      const Vec2 normal = obstacle.normals[i];
      pieces.push_back({core[i] + radius * normal, core[next] + radius * normal, {}, {}, {}, 0, false, id});
      candidates.push_back(pieces.back().start);
      if (radius > 0) pieces.push_back({core[i] + radius * obstacle.normals[previous], pieces.back().start, core[i], obstacle.normals[previous], normal, radius, false, id});
    }
  }
  // Each piece's nearest point; the pieces nearer than the bound, nearest first, for crossings.
  std::vector<std::pair<Real, std::size_t>> near;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const Real reach = add_nearest(pieces[i], candidates);
    if (reach < bound) near.push_back({reach, i});
  }
  std::sort(near.begin(), near.end());
  if (near.size() > crossing_piece_limit) near.resize(crossing_piece_limit);
  for (std::size_t i = 0; i < near.size(); ++i) {
    for (std::size_t j = i + 1; j < near.size(); ++j) {
      const BoundaryPiece &p = pieces[near[i].second], &q = pieces[near[j].second];
      if (p.obstacle != q.obstacle) add_crossings(p, q, candidates);
    }
  }
  std::erase_if(candidates, [&](Vec2 point) { return !(length_squared(point) < bound * bound); });
  std::sort(candidates.begin(), candidates.end(), [](Vec2 p, Vec2 q) { return length_squared(p) < length_squared(q); });
  if (candidates.size() > candidates_examined_limit) candidates.resize(candidates_examined_limit);
  std::vector<Vec2> exits;
  for (const Vec2 candidate : candidates) {
    if (exits.size() >= limit) break;
    if (!exits.empty() && candidate == exits.back()) continue;
    const bool clear = std::all_of(obstacles.begin(), obstacles.end(), [&](const TranslationObstacle& obstacle) {
      return obstacle.core.empty() || clear_of(obstacle, candidate);
    });
    if (clear) exits.push_back(candidate);
  }
  return exits;
}

}  // namespace detail

}  // namespace collide2d
