// peers.cpp — conversions from our types to Box2D 2.4.1 and Chipmunk 7 types, checked to keep
// every vertex (a peer that silently dropped or merged vertices would be measuring another shape).
#include "peers.hpp"

#include <array>
#include <cstdarg>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace {
std::size_t chipmunk_warnings = 0;
}  // namespace

// Debian's Chipmunk is built with its debug checks on, and cpAssertWarn prints (for example "High
// EPA iterations") to stderr from inside cpShapesCollide. Printing is not collision detection, so
// this definition takes the place of the library's cpMessage (it calls it through the PLT): warnings
// are only counted; errors are printed as Chipmunk would, before its own abort().
extern "C" void cpMessage(const char* condition, const char* file, int line, int is_error, int is_hard_error, const char* message, ...) {
  if (is_error == 0) {
    ++chipmunk_warnings;
    return;
  }
  std::fprintf(stderr, "Chipmunk %s: ", is_hard_error != 0 ? "hard error" : "error");
  std::va_list arguments;
  va_start(arguments, message);
  std::vfprintf(stderr, message, arguments);
  va_end(arguments);
  std::fprintf(stderr, "\n\tFailed condition: %s\n\tSource: %s:%d\n", condition, file, line);
}

namespace collide2d_bench {

std::size_t chipmunk_warning_count() { return chipmunk_warnings; }

static_assert(box2d_polygon_skin == b2_polygonRadius, "our polygons are rounded by Box2D's polygon skin");

b2Vec2 to_box2d(Vec2 vector) { return {vector.x, vector.y}; }

b2Transform to_box2d(const Transform& transform) {
  b2Transform converted;
  converted.p = to_box2d(transform.position);
  converted.q.s = transform.rotation.sine;
  converted.q.c = transform.rotation.cosine;
  return converted;
}

b2PolygonShape to_box2d(const Polygon& polygon) {
  if (polygon.count() > b2_maxPolygonVertices) throw std::invalid_argument("Box2D 2.4.1 polygons have at most 8 vertices");
  std::array<b2Vec2, b2_maxPolygonVertices> points{};
  for (int i = 0; i < polygon.count(); ++i) points[static_cast<std::size_t>(i)] = to_box2d(polygon.vertices()[static_cast<std::size_t>(i)]);
  b2PolygonShape converted;
  converted.Set(points.data(), polygon.count());
  if (converted.m_count != polygon.count()) {
    throw std::runtime_error("Box2D kept " + std::to_string(converted.m_count) + " of " + std::to_string(polygon.count()) + " vertices");
  }
  converted.m_radius = polygon.radius();
  return converted;
}

b2CircleShape to_box2d(const Circle& circle) {
  b2CircleShape converted;
  converted.m_p = to_box2d(circle.center);
  converted.m_radius = circle.radius;
  return converted;
}

b2Sweep to_box2d(const collide2d::Sweep& sweep) {
  b2Sweep converted;
  converted.localCenter = to_box2d(sweep.local_center);
  converted.c0 = to_box2d(sweep.center_start);
  converted.c = to_box2d(sweep.center_end);
  converted.a0 = sweep.angle_start;
  converted.a = sweep.angle_end;
  converted.alpha0 = 0;
  return converted;
}

b2AABB to_box2d(const collide2d::Aabb& box) {
  b2AABB converted;
  converted.lowerBound = to_box2d(box.lower);
  converted.upperBound = to_box2d(box.upper);
  return converted;
}

cpVect to_chipmunk(Vec2 vector) { return cpv(vector.x, vector.y); }

cpTransform to_chipmunk(const Transform& transform) {
  // Chipmunk maps (x, y) to (a x + c y + tx, b x + d y + ty).
  const double cosine = transform.rotation.cosine, sine = transform.rotation.sine;
  return cpTransformNew(cosine, sine, -sine, cosine, transform.position.x, transform.position.y);
}

cpBB to_chipmunk(const collide2d::Aabb& box) { return cpBBNew(box.lower.x, box.lower.y, box.upper.x, box.upper.y); }

ChipmunkShape::ChipmunkShape(const Polygon& polygon, const Transform& transform) {
  std::vector<cpVect> points;
  for (Vec2 vertex : polygon.vertices()) points.push_back(to_chipmunk(vertex));
  shape_ = cpPolyShapeNewRaw(nullptr, polygon.count(), points.data(), polygon.radius());
  if (cpPolyShapeGetCount(shape_) != polygon.count()) throw std::runtime_error("Chipmunk changed the polygon's vertex count");
  cpShapeUpdate(shape_, to_chipmunk(transform));
}

ChipmunkShape::ChipmunkShape(const Circle& circle, const Transform& transform) {
  shape_ = cpCircleShapeNew(nullptr, circle.radius, to_chipmunk(circle.center));
  cpShapeUpdate(shape_, to_chipmunk(transform));
}

ChipmunkShape::~ChipmunkShape() {
  if (shape_ != nullptr) cpShapeFree(shape_);
}

}  // namespace collide2d_bench
