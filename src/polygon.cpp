// polygon.cpp — building and validating convex polygons, boxes, their support function,
// bounding boxes and size scales.
//
// make_polygon outline: reject non-finite input; weld consecutive points closer than the
// welding tolerance (weld_tolerance of the coordinates, tolerance.hpp); orient counter-clockwise
// by the sign of the shoelace area; drop points that lie on the segment between their
// neighbours; then every remaining turn must be a strict left turn and the turns must add up to
// one revolution (a pentagram turns left everywhere but winds twice).
//
// Support outline for large polygons: the outward normals of a convex counter-clockwise polygon
// increase in angle around the circle, and the vertex farthest along d is the one between the two
// normals that bracket d. We store each normal's pseudo-angle measured from normal 0 (a monotone
// stand-in for atan2, free of trigonometry) and binary-search d's pseudo-angle among them.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <sstream>
#include <utility>

#include "collide2d/shapes.hpp"
#include "collide2d/support.hpp"
#include "collide2d/tolerance.hpp"
#include "lanes.hpp"

namespace collide2d {
namespace {

/// A value in [0, 4) increasing with the angle of (x, y) counter-clockwise from +x; 0 for the zero vector.
Real pseudo_angle(Real x, Real y) {
  if (x == 0 && y == 0) return 0;
  if (y >= 0) return x >= 0 ? y / (x + y) : 1 + (-x) / (y - x);
  return x < 0 ? 2 + (-y) / (-x - y) : 3 + x / (x - y);
}

std::string describe_point(int index, Vec2 point) {
  std::ostringstream text;
  text << "point " << index << " (" << point.x << ", " << point.y << ")";
  return text.str();
}

ShapeError refuse(ShapeErrorKind kind, int index, std::string message) { return {kind, index, std::move(message)}; }

struct OutlinePoint {
  Vec2 position;
  int input_index;
};

}  // namespace

int Polygon::support_index_by_search(Vec2 direction) const {
  const Vec2* vertices = vertex_data();
  const Vec2 first_normal = heap_normals_[0];
  const Real angle = pseudo_angle(dot(direction, first_normal), cross(first_normal, direction));
  const auto after = std::upper_bound(normal_pseudo_angles_.begin(), normal_pseudo_angles_.end(), angle);
  const int edge = static_cast<int>(after - normal_pseudo_angles_.begin()) - 1;  // normal[edge] <= angle
  int best = (edge + 1) % count_;
  // Round-off in the pseudo-angles can land one vertex off; climb to the true maximum.
  for (int step = 0; step < count_; ++step) {
    const int next = (best + 1) % count_, previous = (best + count_ - 1) % count_;
    const Real here = dot(vertices[best], direction);
    if (dot(vertices[next], direction) > here) {
      best = next;
    } else if (dot(vertices[previous], direction) > here) {
      best = previous;
    } else {
      break;
    }
  }
  return best;
}

Result<Polygon> make_polygon(std::span<const Vec2> points, Real radius) {
  if (!std::isfinite(radius)) return refuse(ShapeErrorKind::non_finite, -1, "polygon radius is not finite");
  if (radius < 0) return refuse(ShapeErrorKind::negative_radius, -1, "polygon radius is negative");
  if (!within_coordinate_limit(radius)) return refuse(ShapeErrorKind::out_of_range, -1, "polygon radius is beyond " + coordinate_limit_text());
  Real scale = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!is_finite(points[i])) {
      return refuse(ShapeErrorKind::non_finite, static_cast<int>(i),
                    "polygon " + describe_point(static_cast<int>(i), points[i]) + " is not finite");
    }
    if (!within_coordinate_limit(points[i])) {
      return refuse(ShapeErrorKind::out_of_range, static_cast<int>(i),
                    "polygon " + describe_point(static_cast<int>(i), points[i]) + " is beyond " + coordinate_limit_text());
    }
    scale = std::max(scale, coordinate_magnitude(points[i]));
  }
  const Real tolerance = weld_tolerance(scale);

  // Weld consecutive duplicates, cyclically.
  std::vector<OutlinePoint> outline;
  outline.reserve(points.size());
  auto same_point = [&](Vec2 p, Vec2 q) { return std::abs(p.x - q.x) <= tolerance && std::abs(p.y - q.y) <= tolerance; };
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (outline.empty() || !same_point(outline.back().position, points[i])) {
      outline.push_back({points[i], static_cast<int>(i)});
    }
  }
  while (outline.size() > 1 && same_point(outline.back().position, outline.front().position)) outline.pop_back();
  if (outline.size() < 3) {
    return refuse(ShapeErrorKind::too_few_points, -1,
                  "polygon has " + std::to_string(outline.size()) + " distinct points; at least 3 are needed");
  }

  // Orient counter-clockwise.
  const Vec2 origin = outline[0].position;
  Real twice_area = 0;
  for (std::size_t i = 1; i + 1 < outline.size(); ++i) {
    twice_area += cross(outline[i].position - origin, outline[i + 1].position - origin);
  }
  if (twice_area < 0) std::reverse(outline.begin(), outline.end());

  // Drop points lying on the segment between their neighbours.
  auto lies_between_neighbours = [&](std::size_t i) {
    const std::size_t n = outline.size();
    const Vec2 previous = outline[(i + n - 1) % n].position, here = outline[i].position, next = outline[(i + 1) % n].position;
    const Vec2 chord = next - previous;
    const Real chord_length = length(chord);
    if (chord_length == 0) return false;
    const Real offset = std::abs(cross(chord, here - previous)) / chord_length;
    return offset <= tolerance && dot(here - previous, chord) > 0 && dot(next - here, chord) > 0;
  };
  for (bool removed = true; removed && outline.size() >= 3;) {
    removed = false;
    for (std::size_t i = 0; i < outline.size() && outline.size() >= 3; ++i) {
      if (lies_between_neighbours(i)) {
        outline.erase(outline.begin() + static_cast<std::ptrdiff_t>(i));
        removed = true;
        break;
      }
    }
  }
  Real extent = 0;
  for (const OutlinePoint& point : outline) extent = std::max(extent, distance(point.position, origin));
  if (outline.size() < 3 || std::abs(twice_area) <= tolerance * extent) {
    return refuse(ShapeErrorKind::zero_area, -1, "polygon encloses no area: its points are collinear");
  }

  // Every turn must be a strict left turn, and the turns must add up to one revolution.
  const std::size_t n = outline.size();
  Real total_turn = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 incoming = outline[i].position - outline[(i + n - 1) % n].position;
    const Vec2 outgoing = outline[(i + 1) % n].position - outline[i].position;
    const Real turn = cross(incoming, outgoing);
    if (!(turn > 0)) {
      return refuse(ShapeErrorKind::not_convex, outline[i].input_index,
                    "polygon is not convex at " + describe_point(outline[i].input_index, outline[i].position));
    }
    total_turn += std::atan2(turn, dot(incoming, outgoing));
  }
  if (total_turn > 3 * std::numbers::pi_v<Real>) {
    return refuse(ShapeErrorKind::not_convex, -1, "polygon outline winds around more than once (it crosses itself)");
  }

  Polygon polygon;
  polygon.count_ = static_cast<int>(n);
  polygon.radius_ = radius;
  Vec2* vertices = polygon.inline_vertices_.data();
  Vec2* normals = polygon.inline_normals_.data();
  if (polygon.count_ > polygon_inline_capacity) {
    polygon.heap_vertices_.resize(n);
    polygon.heap_normals_.resize(n);
    vertices = polygon.heap_vertices_.data();
    normals = polygon.heap_normals_.data();
  }
  for (std::size_t i = 0; i < n; ++i) {
    vertices[i] = outline[i].position;
    polygon.reach_ = std::max(polygon.reach_, length(vertices[i]));
  }
  // The inline storage past the last vertex repeats vertex 0, so that searches over whole lane
  // groups (the separating axis test) may read it as vertices.
  if (polygon.count_ <= polygon_inline_capacity) std::fill(vertices + n, vertices + polygon_inline_capacity, vertices[0]);
  // The centroid sums areas times positions (cubes of lengths), so it works on offsets from
  // `origin` scaled by a power of two near 1 / extent (exact), which keeps them near 1.
  const Real unit = std::ldexp(Real(1), -std::ilogb(extent));
  Vec2 weighted_centroid;
  Real area_sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 here = vertices[i], next = vertices[(i + 1) % n];
    normals[i] = normalize(right_perpendicular(next - here));
    const Vec2 here_offset = unit * (here - origin), next_offset = unit * (next - origin);
    const Real triangle_area = cross(here_offset, next_offset);  // twice the area of (origin, here, next), scaled
    weighted_centroid += triangle_area * (here_offset + next_offset);
    area_sum += triangle_area;
  }
  polygon.centroid_ = origin + (Real(1) / (3 * area_sum * unit)) * weighted_centroid;
  polygon.is_rectangle_ = n == 4 && std::abs(dot(normals[0], normals[1])) <= direction_tolerance &&
                          std::abs(dot(normals[1], normals[2])) <= direction_tolerance &&
                          std::abs(dot(normals[2], normals[3])) <= direction_tolerance;
  if (polygon.count_ > polygon_inline_capacity) {
    polygon.normal_pseudo_angles_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      polygon.normal_pseudo_angles_[i] = pseudo_angle(dot(normals[i], normals[0]), cross(normals[0], normals[i]));
    }
    polygon.normal_pseudo_angles_[0] = 0;
  }
  return polygon;
}

Result<Polygon> make_box(Real half_width, Real half_height, const Transform& offset, Real radius) {
  if (!std::isfinite(half_width) || !std::isfinite(half_height) || !is_finite(offset.position) ||
      !std::isfinite(offset.rotation.cosine) || !std::isfinite(offset.rotation.sine)) {
    return refuse(ShapeErrorKind::non_finite, -1, "box half extents or offset are not finite");
  }
  if (!(half_width > 0) || !(half_height > 0)) {
    return refuse(ShapeErrorKind::negative_radius, -1, "box half extents must be positive");
  }
  if (!within_coordinate_limit(half_width) || !within_coordinate_limit(half_height) || !within_coordinate_limit(offset.position)) {
    return refuse(ShapeErrorKind::out_of_range, -1, "box half extents or offset are beyond " + coordinate_limit_text());
  }
  const std::array<Vec2, 4> corners = {
      transform_point(offset, {-half_width, -half_height}), transform_point(offset, {half_width, -half_height}),
      transform_point(offset, {half_width, half_height}), transform_point(offset, {-half_width, half_height})};
  return make_polygon(corners, radius);
}

std::string coordinate_limit_text() {
  std::ostringstream text;
  text << "the coordinate limit " << coordinate_limit << " of this " << (sizeof(Real) == sizeof(float) ? "float" : "double") << " build";
  return text.str();
}

namespace {
/// Refuses a radius that is not finite, negative or beyond the limit; `what` names the shape.
std::optional<ShapeError> check_radius(Real radius, const std::string& what) {
  if (!std::isfinite(radius)) return refuse(ShapeErrorKind::non_finite, -1, what + " radius is not finite");
  if (radius < 0) return refuse(ShapeErrorKind::negative_radius, -1, what + " radius is negative");
  if (!within_coordinate_limit(radius)) return refuse(ShapeErrorKind::out_of_range, -1, what + " radius is beyond " + coordinate_limit_text());
  return std::nullopt;
}
/// Refuses a point that is not finite or beyond the limit; `what` names it.
std::optional<ShapeError> check_point(Vec2 point, const std::string& what) {
  if (!is_finite(point)) return refuse(ShapeErrorKind::non_finite, -1, what + " is not finite");
  if (!within_coordinate_limit(point)) return refuse(ShapeErrorKind::out_of_range, -1, what + " is beyond " + coordinate_limit_text());
  return std::nullopt;
}

/// Checks each kind of shape; polygons and compounds were checked when they were built.
struct ShapeChecker {
  std::optional<ShapeError> operator()(const Circle& circle) const {
    if (auto problem = check_point(circle.center, "circle center")) return problem;
    return check_radius(circle.radius, "circle");
  }
  std::optional<ShapeError> operator()(const Capsule& capsule) const {
    if (auto problem = check_point(capsule.a, "capsule end a")) return problem;
    if (auto problem = check_point(capsule.b, "capsule end b")) return problem;
    return check_radius(capsule.radius, "capsule");
  }
  std::optional<ShapeError> operator()(const Segment& segment) const {
    if (auto problem = check_point(segment.a, "segment end a")) return problem;
    return check_point(segment.b, "segment end b");
  }
  std::optional<ShapeError> operator()(const Polygon&) const { return std::nullopt; }
  std::optional<ShapeError> operator()(const Compound&) const { return std::nullopt; }
};
}  // namespace

std::optional<ShapeError> validate(const ConvexShape& shape) { return std::visit(ShapeChecker{}, shape); }

std::optional<ShapeError> validate(const Shape& shape, const Transform& transform) {
  if (!std::isfinite(transform.rotation.cosine) || !std::isfinite(transform.rotation.sine)) {
    return refuse(ShapeErrorKind::non_finite, -1, "the rotation is not finite");
  }
  if (auto problem = check_point(transform.position, "the position")) return problem;
  return std::visit(ShapeChecker{}, shape);
}

namespace {
/// The largest distance of a core point from the local origin, plus the rounding radius.
Real farthest_point(std::span<const Vec2> core, Real radius) {
  Real farthest = 0;
  for (Vec2 point : core) farthest = std::max(farthest, length(point));
  return farthest + radius;
}
}  // namespace

Aabb compute_aabb(const Circle& shape, const Transform& transform) { return support_bounds(shape, transform); }
Aabb compute_aabb(const Capsule& shape, const Transform& transform) { return support_bounds(shape, transform); }
Aabb compute_aabb(const Segment& shape, const Transform& transform) { return support_bounds(shape, transform); }
namespace {
/// The bounds of a polygon of up to groups x lane_count vertices: every vertex placed at once, then
/// the range of the lanes (the storage's padding repeats vertex 0), widened by the radius. What
/// the four support searches of support_bounds find, without their branches.
template <int groups>
Aabb small_polygon_bounds(const Polygon& shape, const Transform& transform) {
  const detail::PointLanes<groups> placed = detail::placed_lanes<groups>(detail::stored_lanes<groups>(shape.vertices().data()), transform);
  Aabb bounds;
  detail::lane_range<groups>(placed.x, bounds.lower.x, bounds.upper.x);
  detail::lane_range<groups>(placed.y, bounds.lower.y, bounds.upper.y);
  const Real radius = shape.radius();
  return {{bounds.lower.x - radius, bounds.lower.y - radius}, {bounds.upper.x + radius, bounds.upper.y + radius}};
}
}  // namespace

Aabb compute_aabb(const Polygon& shape, const Transform& transform) {
  static_assert(polygon_inline_capacity == 2 * detail::lane_count);
  if (shape.count() <= detail::lane_count) return small_polygon_bounds<1>(shape, transform);
  if (shape.count() <= polygon_inline_capacity) return small_polygon_bounds<2>(shape, transform);
  return support_bounds(shape, transform);
}
Aabb compute_aabb(const ConvexShape& shape, const Transform& transform) {
  return std::visit([&](const auto& concrete) { return compute_aabb(concrete, transform); }, shape);
}
Aabb compute_aabb(const Shape& shape, const Transform& transform) {
  return std::visit([&](const auto& concrete) { return compute_aabb(concrete, transform); }, shape);
}

Real size_scale(const Capsule& shape) {
  const std::array<Vec2, 2> ends = {shape.a, shape.b};
  return farthest_point(ends, shape.radius);
}
Real size_scale(const Segment& shape) {
  const std::array<Vec2, 2> ends = {shape.a, shape.b};
  return farthest_point(ends, 0);
}
Real size_scale(const ConvexShape& shape) {
  return std::visit([](const auto& concrete) { return size_scale(concrete); }, shape);
}
Real size_scale(const Shape& shape) {
  return std::visit([](const auto& concrete) { return size_scale(concrete); }, shape);
}

}  // namespace collide2d
