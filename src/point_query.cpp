// point_query.cpp — contains() and closest_point() for every shape, and the nearest core
// feature that the circle manifolds share.
//
// Nearest-feature outline (as in Box2D's polygon-versus-circle): the edge whose outward normal
// separates the point most is the nearest edge when the point is inside; when it is outside, the
// nearest feature is that edge or one of its two end vertices, told apart by the point's
// projection onto the edge. A two-vertex (segment) core has its two "edges" there and back and
// no end faces, so a point beyond an end on its line shows separation 0 and its ends are always
// checked. Rounded shapes subtract their radius from the core distance.
#include "collide2d/point_query.hpp"

#include <algorithm>

#include "collide2d/tolerance.hpp"
#include "polygon_view.hpp"

namespace collide2d {
namespace detail {

CoreFeature nearest_core_feature(const PolygonView& core, Vec2 point, Real apart_beyond) {
  int face = 0;
  Real face_separation = -std::numeric_limits<Real>::max();
  for (int i = 0; i < core.count(); ++i) {
    const Real separation = dot(core.normals[i], point - core.vertices[i]);
    if (separation > face_separation) {
      face_separation = separation;
      face = i;
      if (separation > apart_beyond) break;  // the distance is at least this: the caller needs no more
    }
  }
  const Vec2 v1 = core.vertices[face], v2 = core.vertices[core.next(face)];
  const Real magnitude = std::max(coordinate_magnitude(v2 - v1), coordinate_magnitude(point - v1));
  CoreFeature nearest{point - face_separation * core.normals[face], core.normals[face], face_separation, face, false, magnitude};
  if (face_separation > apart_beyond) return nearest;
  if (face_separation > 0 || core.count() == 2) {  // outside, even by less than the tolerance: a vertex may be nearer
    const Real past_v1 = dot(point - v1, v2 - v1), past_v2 = dot(point - v2, v1 - v2);
    if ((past_v1 <= 0 || past_v2 <= 0) && point != (past_v1 <= 0 ? v1 : v2)) {
      nearest.core_point = past_v1 <= 0 ? v1 : v2;
      nearest.feature = past_v1 <= 0 ? face : core.next(face);
      nearest.at_vertex = true;
      nearest.signed_distance = distance(nearest.core_point, point);
      nearest.normal = (Real(1) / nearest.signed_distance) * (point - nearest.core_point);
    }
  }
  return nearest;
}

}  // namespace detail

namespace {

/// Nearest surface point of a polygon-like shape, in world coordinates.
PointProjection project_onto(const detail::PolygonView& view, const Transform& transform, Vec2 world_point) {
  const Vec2 local = inverse_transform_point(transform, world_point);
  const detail::CoreFeature nearest = detail::nearest_core_feature(view, local, std::numeric_limits<Real>::max());
  PointProjection projection;
  projection.signed_distance = nearest.signed_distance - view.radius;
  projection.normal = rotate(transform.rotation, nearest.normal);
  projection.point = transform_point(transform, nearest.core_point + view.radius * nearest.normal);
  return projection;
}

}  // namespace

PointProjection closest_point(const Circle& shape, const Transform& transform, Vec2 point) {
  const Vec2 center = transform_point(transform, shape.center);
  const Vec2 offset = point - center;
  const Real center_distance = length(offset);
  const Vec2 normal = center_distance > 0 ? (Real(1) / center_distance) * offset : rotate(transform.rotation, {1, 0});
  return {center + shape.radius * normal, center_distance - shape.radius, normal};
}
PointProjection closest_point(const Capsule& shape, const Transform& transform, Vec2 point) {
  return project_onto(detail::SegmentCore(shape.a, shape.b).view(shape.radius), transform, point);
}
PointProjection closest_point(const Segment& shape, const Transform& transform, Vec2 point) {
  return project_onto(detail::SegmentCore(shape.a, shape.b).view(0), transform, point);
}
PointProjection closest_point(const Polygon& shape, const Transform& transform, Vec2 point) {
  return project_onto(detail::view_of(shape), transform, point);
}
PointProjection closest_point(const Shape& shape, const Transform& transform, Vec2 point) {
  return std::visit([&](const auto& concrete) { return closest_point(concrete, transform, point); }, shape);
}

}  // namespace collide2d
