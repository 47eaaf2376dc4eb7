// minkowski.cpp — the Minkowski difference by brute force, and the exit vector along a motion.
//
// Difference outline: subtract every core vertex of A from every core vertex of B (B placed in
// A's frame), take the convex hull, and sweep it by the sum of the radii. The origin's signed
// distance to that rounded hull says whether the shapes overlap and by how much; the nearest
// boundary point is the minimum translation.
// Exit outline (the "cast the velocity into the Minkowski difference" method of swept AABB and
// slope-sliding tutorials, generalised to rounded convex hulls): the rounded hull's boundary is
// made of the edges pushed out by the radius and arcs around the vertices. A ray from an inside
// point crosses it once, so we intersect the ray with every edge piece and every arc piece, keep
// the hits that lie on their piece, and take the farthest.
#include <algorithm>
#include <cmath>

#include "collide2d/algorithms.hpp"
#include "collide2d/hull.hpp"

namespace collide2d {
namespace {

std::vector<Vec2> core_vertices(const ConvexShape& shape) {
  struct Visitor {
    std::vector<Vec2> operator()(const Circle& circle) const { return {circle.center}; }
    std::vector<Vec2> operator()(const Capsule& capsule) const { return {capsule.a, capsule.b}; }
    std::vector<Vec2> operator()(const Segment& segment) const { return {segment.a, segment.b}; }
    std::vector<Vec2> operator()(const Polygon& polygon) const { return {polygon.vertices().begin(), polygon.vertices().end()}; }
  };
  return std::visit(Visitor{}, shape);
}

/// The closest point to the origin on the segment from p to q.
Vec2 closest_on_segment(Vec2 p, Vec2 q) {
  const Vec2 along = q - p;
  const Real length2 = length_squared(along);
  if (length2 == 0) return p;
  return lerp(p, q, std::clamp(-dot(p, along) / length2, Real(0), Real(1)));
}

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
  const std::vector<Vec2> points_a = core_vertices(a), points_b = core_vertices(b);
  Real scale = 0;
  for (Vec2 point_b : points_b) {
    const Vec2 placed = transform_point(b_to_a, point_b);
    for (Vec2 point_a : points_a) {
      result.all_points.push_back(placed - point_a);
      scale = std::max({scale, std::abs(placed.x), std::abs(placed.y), std::abs(point_a.x), std::abs(point_a.y)});
    }
  }
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
  result.contains_origin = result.signed_distance <= relative_tolerance * scale;
  return result;
}

std::optional<MinkowskiExit> minkowski_exit(const MinkowskiDifference& difference, Vec2 motion_b) {
  if (!difference.contains_origin || length_squared(motion_b) == 0 || difference.hull.empty()) return std::nullopt;
  const std::vector<HullEdge> edges = hull_edges(difference.hull);
  const Real radius = difference.radius;
  Real farthest = 0;
  Vec2 surface_normal = normalize(motion_b);
  // Edge pieces: the edge pushed out by the radius, hit where the ray meets its line within the edge.
  for (const HullEdge& edge : edges) {
    const Real approach = dot(edge.outward, motion_b);
    if (approach <= 0) continue;
    const Real t = (dot(edge.outward, edge.start) + radius) / approach;
    const Vec2 on_line = t * motion_b - radius * edge.outward;
    const Vec2 along = edge.end - edge.start;
    const Real position = dot(on_line - edge.start, along);
    if (t >= farthest && position >= 0 && position <= length_squared(along)) {
      farthest = t;
      surface_normal = edge.outward;
    }
  }
  // Arc pieces: the far intersection with the circle around each hull vertex.
  if (radius > 0) {
    const std::size_t n = difference.hull.size();
    for (std::size_t k = 0; k < n; ++k) {
      const Vec2 vertex = difference.hull[k];
      // |t u - v|^2 = r^2  ->  t = (u.v + sqrt((u.v)^2 - |u|^2 (|v|^2 - r^2))) / |u|^2
      const Real uv = dot(motion_b, vertex), uu = length_squared(motion_b);
      const Real discriminant = uv * uv - uu * (length_squared(vertex) - radius * radius);
      if (discriminant < 0) continue;
      const Real t = (uv + std::sqrt(discriminant)) / uu;
      const Vec2 outward = normalize(t * motion_b - vertex);
      bool on_arc = true;  // the arc of vertex k spans from the normal of the edge before it to the normal of the edge after it
      if (edges.size() >= 2) {
        const Vec2 normal_before = edges[(k + edges.size() - 1) % edges.size()].outward, normal_after = edges[k].outward;
        on_arc = cross(normal_before, outward) >= 0 && cross(outward, normal_after) >= 0;
      }
      if (on_arc && t >= farthest) {
        farthest = t;
        surface_normal = outward;
      }
    }
  }
  MinkowskiExit exit;
  exit.hit_point = farthest * motion_b;
  exit.translation_b = -exit.hit_point;
  exit.surface_normal = surface_normal;
  exit.slide = motion_b - dot(motion_b, surface_normal) * surface_normal;
  return exit;
}

}  // namespace collide2d
