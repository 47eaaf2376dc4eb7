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
