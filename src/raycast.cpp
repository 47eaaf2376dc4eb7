// raycast.cpp — ray casts against every shape.
//
// Outline: classify the ray's origin (inside: a hit at 0 flagged `inside`; on the surface: a hit
// at 0 unless heading outward), with closest_point, or for a circle from the origin's squared
// distance from the centre, or for an unrounded polygon from the clip's own edge offsets. From
// outside, in the shape's local frame (a circle: from its centre in the world's orientation, so
// nothing is turned back): a circle solves |o + t d - c| = r in one root, from products of d and
// o - c (over |d| where their squares leave the range of Real);
// a segment intersects two lines (cross products); an unrounded polygon clips the ray against
// every edge's half-plane in one pass (Cyrus & Beck, "Generalized two- and three-dimensional
// clipping", 1978): entering edges raise the lower bound, leaving edges lower the upper bound,
// and the hit is where the last entering edge was crossed. An unrounded polygon of up to
// polygon_inline_capacity vertices is first decided from which side of the ray's line each vertex
// lies on (the cross products of the direction with every vertex's offset, in vector lanes): all on
// one side is a miss; otherwise the line enters through the edge from a vertex on its left to one
// on its right, where the cross products interpolate to zero. That decides every ray whose line
// passes every vertex farther than the touching band and whose origin lies farther than it
// outside the entering edge; the clip decides the rest. The polygon's clip runs exact first;
// the bounds it ends with prove whether the touching band could change its answer, and only the
// rays it could (a start or a graze within the band) are clipped again against the edges widened
// by the band. Capsules and rounded polygons (a core swept by a radius) are clipped against the
// core's edge lines moved out by the radius; an entry within the entering edge's extent is the
// hit, one past its end is decided by that vertex's circle.
#include "collide2d/raycast.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "collide2d/point_query.hpp"
#include "collide2d/tolerance.hpp"
#include "polygon_view.hpp"

namespace collide2d {
namespace {

/// A hit in the shape's local frame, turned into the world by `transform`.
RayHit to_world(const Ray& ray, const Transform& transform, Real fraction, Vec2 local_normal) {
  return {fraction, ray.origin + fraction * ray.translation, rotate(transform.rotation, local_normal), false};
}

/// The answer when the origin is inside or on the surface; empty when the origin is outside and
/// the shape-specific cast must run. `decided` tells the two apart.
struct StartResult {
  bool decided = false;
  std::optional<RayHit> hit;
};

/// The band within which a ray's start counts as on the surface, and a ray grazing a vertex or
/// running along an edge counts as touching: the contact tolerance of the coordinates the cast
/// uses in the shape's frame (the shape's reach, its size_scale, and the ray's two ends).
Real ray_tolerance(Real reach, Vec2 local_origin, Vec2 local_direction, Real max_fraction) {
  return contact_tolerance(reach + coordinate_magnitude(local_origin) + coordinate_magnitude(local_origin + max_fraction * local_direction));
}

/// The fraction t at which `point` lies along the ray origin + t direction (its projection on the
/// ray's line), from the unit direction and the direction's length (not its square, which
/// underflows in float for a tiny translation). A grazed vertex or segment end is hit there.
Real fraction_along(Vec2 point, Vec2 origin, Vec2 unit, Real direction_length) { return dot(point - origin, unit) / direction_length; }

/// Where the ray's point at `fraction` lies along the edge from `start` to `end`: its offset from
/// `start` projected on the edge, times the edge's length.
struct EdgePosition {
  Real along;   ///< 0 at `start`, `extent` at `end`
  Real extent;  ///< the edge's squared length
  bool within() const { return along >= 0 && along <= extent; }
};
EdgePosition position_on_edge(Vec2 origin, Vec2 direction, Real fraction, Vec2 start, Vec2 end) {
  const Vec2 edge = end - start;
  return {dot(origin + fraction * direction - start, edge), length_squared(edge)};
}

/// The entry through the line of `core`'s edge `edge`, moved out by `widening`, where the clip's
/// entry (`later`, through the neighbouring edge's line) fell past that edge's end. At a vertex
/// whose two edges are nearly collinear the two lines are crossed within round-off of each other,
/// and the later crossing may be the one past its edge's end while the ray enters through this
/// edge, within its extent (widened by `tolerance` x its length): that crossing, when it lies
/// within the band of the later one along the ray, is the entry. None otherwise.
std::optional<Real> entry_beside(const detail::PolygonView& core, Vec2 origin, Vec2 direction, int edge, Real widening, Real tolerance, Real later) {
  const Vec2 v1 = core.vertices[edge], v2 = core.vertices[core.next(edge)], normal = core.normals[edge];
  const Real approach = dot(normal, direction);
  if (!(approach < 0)) return std::nullopt;
  const Real fraction = (widening - dot(normal, origin - v1)) / approach;
  const EdgePosition beside = position_on_edge(origin, direction, fraction, v1, v2);
  const Real slack = tolerance * length_in_real(v2 - v1);
  if (fraction >= 0 && (later - fraction) * length_in_real(direction) <= tolerance && beside.extent > 0 && beside.along >= -slack &&
      beside.along <= beside.extent + slack) {
    return fraction;
  }
  return std::nullopt;
}

template <class S>
StartResult classify_start(const S& shape, const Transform& transform, const Ray& ray) {
  const PointProjection start = closest_point(shape, transform, ray.origin);
  const Real tolerance = ray_tolerance(size_scale(shape), inverse_transform_point(transform, ray.origin), inverse_rotate(transform.rotation, ray.translation),
                                       ray.max_fraction);
  if (start.signed_distance < -tolerance) return {true, RayHit{0, ray.origin, {}, true}};
  if (start.signed_distance <= tolerance) {
    if (dot(ray.translation, start.normal) <= 0) return {true, RayHit{0, ray.origin, start.normal, false}};
    return {true, std::nullopt};  // leaving a convex shape from its surface: nothing ahead
  }
  if (!(ray.max_fraction > 0) || ray.translation == Vec2{}) return {true, std::nullopt};  // not its square, which underflows for a tiny one
  return {};
}

/// Where a ray first meets a circle: its fraction t >= 0, and the unit outward normal there (zero
/// for a circle of radius 0). A plain value with a negative fraction for a miss, not an optional:
/// the caller's registers hold it, with no copy through memory.
struct RayCircleHit {
  Real fraction = -1;  ///< -1: no hit
  Vec2 normal;
  bool found() const { return fraction >= 0; }
};

/// The square root of the smallest normal number of Real (2^-63 in float, 2^-511 in double): two
/// numbers at least this have a normal product.
constexpr Real root_of_smallest_normal = [] {
  Real value = 1;
  for (int halving = 0; halving < (1 - std::numeric_limits<Real>::min_exponent) / 2; ++halving) value /= 2;
  return value;
}();

/// The nearer point at which origin + t direction meets the circle |p - center| = radius (all in
/// one frame), t >= 0, or none; `direction_length()` gives |direction| (length_in_real), asked
/// only where the squares below leave the range of Real (a cast against many circles takes it
/// once, beforehand). Circles and the rounded corners of capsules and polygons use it.
template <class DirectionLength>
RayCircleHit ray_circle_hit(Vec2 origin, Vec2 direction, DirectionLength direction_length, Vec2 center, Real radius) {
  // With d the direction, s = origin - center and u = d / |d|: s = along u + across
  // left_perpendicular(u), and the nearer root of |s + t' u| = r is t' = -along - half_chord,
  // half_chord = sqrt(r^2 - across^2); the hit's offset from the centre is
  // across left_perpendicular(u) - half_chord u, the normal times the radius.
  // Scaled by |d|^2, every term is a polynomial in d and s: cross(d, s) = across |d|, and
  // r^2 |d|^2 - cross(d, s)^2 = (half_chord |d|)^2, negative for a ray passing farther than the
  // radius from the centre. So one root and one reciprocal (of r |d|^2) give the hit, with no
  // cancellation beyond that of cross(d, s), whose own round-off (an epsilon of |d| |s|) exceeds
  // the difference's (an epsilon of r |d|, as |s| >= r from outside). These are products of four
  // lengths: representable while r^2 and |d|^2 are both at least root_of_smallest_normal and their
  // product at most a sixteenth of Real's largest (cross(d, s)^2 then overflows only on a miss, to
  // infinity). Outside that range (a tiny radius or translation, coordinates near coordinate_limit
  // in float) the same quantities are taken over |d|: products of two lengths, at the price of a
  // second root.
  const Vec2 from_center = origin - center;
  const Real toward = dot(from_center, direction);  // along x |d|
  const Real scaled_across = cross(direction, from_center);  // across x |d|
  const Real radius_squared = radius * radius, direction_squared = dot(direction, direction);
  const Real scaled_radius_squared = radius_squared * direction_squared;
  constexpr Real largest = std::numeric_limits<Real>::max() / 16;
  if (std::min(radius_squared, direction_squared) >= root_of_smallest_normal && scaled_radius_squared <= largest) {
    // A ray heading away from the centre has its nearer root behind the origin: the distance's
    // test below misses it, with no test of its own.
    const Real scaled_half_chord_squared = scaled_radius_squared - scaled_across * scaled_across;
    if (!(scaled_half_chord_squared >= 0)) return {};
    const Real inverse = Real(1) / (radius * direction_squared);
    const Real scaled_half_chord = std::sqrt(scaled_half_chord_squared);
    const Real scaled_distance = -toward - scaled_half_chord;  // the hit's distance x |d|
    if (scaled_distance < 0) return {};
    const Vec2 scaled_normal = scaled_across * left_perpendicular(direction) - scaled_half_chord * direction;  // the normal x r |d|^2
    return RayCircleHit{(radius * scaled_distance) * inverse, inverse * scaled_normal};
  }
  if (toward > 0) return {};
  const Real length = direction_length();
  if (!(length > 0) || std::abs(scaled_across) > radius * length) return {};
  const Real inverse_length = Real(1) / length;
  const Vec2 unit = inverse_length * direction;
  const Real across = scaled_across * inverse_length, across_distance = std::min(std::abs(across), radius);
  const Real half_chord = std::sqrt((radius - across_distance) * (radius + across_distance));
  const Real distance = -dot(from_center, unit) - half_chord;
  if (distance < 0) return {};
  const Vec2 from_center_at_hit = across * left_perpendicular(unit) - half_chord * unit;
  return RayCircleHit{distance * inverse_length, radius > 0 ? (Real(1) / radius) * from_center_at_hit : Vec2{}};
}

/// The ray origin + t direction, t in [0, upper_limit], clipped against a core's edge lines each
/// pushed out by `widening` (Cyrus & Beck): entering edges raise the lower bound, leaving edges
/// lower the upper one; the ray is inside edge i's widened half-plane while
/// offset + widening - t approach >= 0, with offset = dot(n, v - o) its depth inside edge i's own
/// line. The bounds only meet when one of them moves, so they are compared only then.
struct WidenedClip {
  int entering_edge = -2;      ///< the last edge entered; -1: none (the origin lies within every widened line); -2: the ray misses
  Real lower = 0;              ///< where the entering edge's widened line is crossed
  Real entering_offset = 0;    ///< the entering edge's own offset and approach dot(n, d): its own line's crossing is their quotient
  Real entering_approach = 0;
  Real crossing() const { return entering_offset / entering_approach; }
};
WidenedClip clip_against_widened_edges(const detail::PolygonView& core, Vec2 origin, Vec2 direction, Real widening, Real upper_limit) {
  WidenedClip result{-1};
  Real upper = upper_limit;
  for (int i = 0; i < core.count(); ++i) {
    const Real offset = dot(core.normals[i], core.vertices[i] - origin), approach = dot(core.normals[i], direction);
    if (approach < 0) {  // entering through edge i beyond its crossing
      if (offset + widening < result.lower * approach) {  // (offset + widening) / approach > lower, without dividing
        result = {i, (offset + widening) / approach, offset, approach};
        if (upper < result.lower) return {};
      }
    } else if (approach > 0) {  // leaving through edge i
      if (offset + widening < upper * approach) {
        upper = (offset + widening) / approach;
        if (upper < result.lower) return {};
      }
    } else if (offset + widening < 0) {
      return {};  // parallel and outside this edge's widened line
    }
  }
  return result;
}

/// first_hit_on_rounded_core's answer feature by feature: the earliest of each moved edge within
/// its extent (widened by `tolerance` x its length) and each vertex's circle met in the vertex's
/// own region. For an origin between the moved edges' lines, where the clip has no entering edge.
detail::RoundedCoreHit first_hit_on_every_feature(const detail::PolygonView& core, Vec2 origin, Vec2 direction, Real tolerance) {
  const int count = core.count();
  const Real direction_length = length_in_real(direction);
  detail::RoundedCoreHit best{std::numeric_limits<Real>::max(), {}};
  for (int i = 0; i < count; ++i) {
    const Vec2 v1 = core.vertices[i], v2 = core.vertices[core.next(i)], normal = core.normals[i];
    const Vec2 along = v2 - v1;
    const Real approach = dot(normal, direction);
    if (approach < 0 && length_squared(along) > 0) {  // the moved edge's line dot(n, p - v1) = r, entered from outside (a capsule whose ends coincide has no edge)
      const Real fraction = (core.radius - dot(normal, origin - v1)) / approach;
      const EdgePosition position = position_on_edge(origin, direction, fraction, v1, v2);
      const Real slack = tolerance * length_in_real(along);
      if (fraction >= 0 && fraction < best.fraction && position.along >= -slack && position.along <= position.extent + slack) {
        best = {fraction, normal};
      }
    }
    if (const RayCircleHit hit = ray_circle_hit(origin, direction, [=] { return direction_length; }, v1, core.radius); hit.found() && hit.fraction < best.fraction) {
      const Vec2 before = v1 - core.vertices[core.previous(i)];
      if (dot(hit.normal, along) <= 0 && dot(hit.normal, before) >= 0) {  // the vertex's own region
        best = {hit.fraction, hit.normal};
      }
    }
  }
  return best;
}

}  // namespace

namespace detail {

RoundedCoreHit first_hit_on_rounded_core(const PolygonView& core, Vec2 origin, Vec2 direction, Real tolerance) {
  // The swept core lies inside the polygon of the edges' lines moved out by the radius, so the
  // ray is clipped against those lines first (as raycast(Polygon)): a miss of them is a miss.
  // Entering through moved edge k at q: within k's extent, q is on the swept core's flat side and
  // is the hit. Beyond k's end w, q lies in w's Voronoi region (outside the core, past both
  // edges' ends), where the swept core is w's circle: the ray meets w's circle there first, or
  // leaves the moved lines' polygon without meeting anything (the parts of w's region's borders
  // inside that polygon lie within w's circle). One circle, where a pass over every feature
  // takes one per vertex.
  constexpr Real none = std::numeric_limits<Real>::max();
  const WidenedClip clip = clip_against_widened_edges(core, origin, direction, core.radius, none);
  if (clip.entering_edge == -2) return {none, {}};
  if (clip.entering_edge == -1) return first_hit_on_every_feature(core, origin, direction, tolerance);  // the origin is between the moved lines
  const int entering_edge = clip.entering_edge;
  const Real lower = clip.lower;
  const Vec2 v1 = core.vertices[entering_edge], v2 = core.vertices[core.next(entering_edge)];
  const EdgePosition position = position_on_edge(origin, direction, lower, v1, v2);
  const Real slack = tolerance * length_in_real(v2 - v1);
  if (position.extent > 0 && position.along >= -slack && position.along <= position.extent + slack) return {lower, core.normals[entering_edge]};
  // Past the end of a nearly collinear neighbour's edge: the entry may be through that neighbour.
  const int neighbour = position.along < 0 ? core.previous(entering_edge) : core.next(entering_edge);
  if (const std::optional<Real> beside = entry_beside(core, origin, direction, neighbour, core.radius, tolerance, lower)) {
    return {*beside, core.normals[neighbour]};
  }
  const RayCircleHit hit =
      ray_circle_hit(origin, direction, [=] { return length_in_real(direction); }, position.along < 0 || position.extent == 0 ? v1 : v2, core.radius);
  if (!hit.found()) return {none, {}};
  return {hit.fraction, hit.normal};
}

}  // namespace detail

namespace {

/// A ray from outside against a rounded core (a capsule's segment or a rounded polygon's), in the
/// world: first_hit_on_rounded_core in the core's frame, whose edges' extents are widened by the
/// touching band of the core's reach and the origin.
std::optional<RayHit> cast_rounded_core(const detail::PolygonView& core, const Transform& transform, const Ray& ray) {
  const Vec2 origin = inverse_transform_point(transform, ray.origin);
  const Vec2 direction = inverse_rotate(transform.rotation, ray.translation);
  const detail::RoundedCoreHit hit =
      detail::first_hit_on_rounded_core(core, origin, direction, contact_tolerance(core.reach() + coordinate_magnitude(origin)));
  if (hit.fraction > ray.max_fraction) return std::nullopt;
  return to_world(ray, transform, hit.fraction, hit.normal);
}

/// The ray against a rounded polygon: the origin classified by its closest point, then the core
/// swept by the radius. Out of line, as cast_polygon_in_band.
[[gnu::noinline]] std::optional<RayHit> cast_rounded_polygon(const Polygon& shape, const Transform& transform, const Ray& ray) {
  if (StartResult start = classify_start(shape, transform, ray); start.decided) return start.hit;
  return cast_rounded_core(detail::view_of(shape), transform, ray);
}

/// The ray against an unrounded polygon with the touching band in the clip, for the rays the exact
/// clip cannot decide (see raycast(Polygon)): the origin in the band or inside, a miss or a
/// parallel edge within the band. Out of line, and it takes the ray in the polygon's frame again
/// rather than from the caller: passing those would make the caller pack them into vector
/// registers on its hot path.
[[gnu::noinline]] std::optional<RayHit> cast_polygon_in_band(const Polygon& shape, const Transform& transform, const Ray& ray) {
  const Vec2 origin = inverse_transform_point(transform, ray.origin);
  const Vec2 direction = inverse_rotate(transform.rotation, ray.translation);
  const Real tolerance = ray_tolerance(size_scale(shape), origin, direction, ray.max_fraction);
  // One pass over the edges clips the ray. Touching within the size-scaled tolerance counts: the
  // ray is clipped against the edges pushed out by it, so a ray grazing a vertex or running along
  // an edge hits even when round-off puts it a hair outside; the fraction reported is the entering
  // edge's own (unwidened) crossing. When no edge was entered, the origin lies inside every
  // edge's line or less than the tolerance outside it, and the least of the edge offsets
  // dot(n, v - o) (its depth inside each line) classifies it: above the tolerance it is inside (a hit at 0); within
  // the tolerance of every line (on the surface, or a hair outside near a vertex) is rare and
  // decided by the origin's closest point as for the other shapes.
  const auto vertices = shape.vertices();
  const auto normals = shape.normals();
  const int count = shape.count();
  // The origin's depth inside edge i's line.
  auto offset_of = [&](int i) { return dot(normals[i], vertices[i] - origin); };
  // The clip against the edges widened by `widening`; a hit is reported at the entering edge's
  // own crossing (WidenedClip::crossing, taken once).
  auto clip = [&](Real widening) { return clip_against_widened_edges(detail::view_of(shape), origin, direction, widening, ray.max_fraction); };
  WidenedClip found = clip(tolerance);
  if (found.entering_edge == -2) return std::nullopt;
  if (found.entering_edge == -1) {
    Real least_offset = std::numeric_limits<Real>::max();
    for (int i = 0; i < count; ++i) least_offset = std::min(least_offset, offset_of(i));
    if (least_offset > tolerance) return RayHit{0, ray.origin, {}, true};  // inside
    if (StartResult start = classify_start(shape, transform, ray); start.decided) return start.hit;
    found = clip(0);  // outside by more than the tolerance, near a sharp vertex
    if (found.entering_edge < 0) return std::nullopt;
  }
  // The widened edges reach past a vertex (by tolerance / cos(half its turn), far at a sharp or a
  // blunt one): an entering edge's line crossed beyond one of the edge's ends is a hit only where
  // that vertex lies within the band of the ray, which then grazes it and hits it where it lies
  // along the ray, or where the ray enters through the neighbour across that end (entry_beside:
  // at an almost flat vertex the clip's bounds cannot tell the two lines' crossings apart);
  // otherwise the ray is clipped again against the edges themselves. That clip's entry is held to
  // the same test: beyond its edge's end, the clip's interval is empty to round-off (two edges'
  // lines met at an angle below what its bounds resolve, at a needle's point 1e8 from the origin in
  // double) and the ray misses unless it grazes that vertex or enters beside it.
  auto hit_through = [&](const WidenedClip& entry) -> std::optional<RayHit> {
    const int edge = entry.entering_edge;
    const Vec2 start_vertex = vertices[edge], end_vertex = vertices[edge + 1 == count ? 0 : edge + 1];
    Real crossing = entry.crossing();
    const EdgePosition position = position_on_edge(origin, direction, crossing, start_vertex, end_vertex);
    if (crossing > 0 && !position.within()) {
      const Vec2 to_vertex = (position.along < 0 ? start_vertex : end_vertex) - origin;
      const Real direction_length = length(direction);  // its square may underflow in float
      const Vec2 unit = (Real(1) / direction_length) * direction;
      const Real ahead = dot(to_vertex, unit), off_line = cross(unit, to_vertex);  // the vertex's distances along and across the ray
      if (!(std::abs(off_line) <= tolerance && ahead >= -tolerance && ahead <= ray.max_fraction * direction_length + tolerance)) {
        const detail::PolygonView view = detail::view_of(shape);
        const int neighbour = position.along < 0 ? view.previous(edge) : view.next(edge);
        const std::optional<Real> beside = entry_beside(view, origin, direction, neighbour, 0, tolerance, crossing);
        if (!beside) return std::nullopt;
        return to_world(ray, transform, std::clamp(*beside, Real(0), ray.max_fraction), normals[neighbour]);
      }
      crossing = ahead / direction_length;  // fraction_along(), with the distance already taken
    }
    return to_world(ray, transform, std::clamp(crossing, Real(0), ray.max_fraction), normals[edge]);
  };
  if (std::optional<RayHit> hit = hit_through(found)) return hit;
  found = clip(0);
  if (found.entering_edge < 0) return std::nullopt;
  return hit_through(found);
}

}  // namespace

std::optional<RayHit> raycast(const Circle& shape, const Transform& transform, const Ray& ray) {
  // From the circle's centre in the world's orientation: the centre is turned once by the shape's
  // rotation, the ray's origin offset from the position first (nothing the size of the positions
  // is rounded) and nothing is turned back. The band only classifies the origin, so it is that of
  // what the origin's distance from the centre is computed from: the offset, the turned centre and
  // the radius (no root; not the ray's far end, which the classification never uses). The origin
  // is classified by its squared distance from the centre: beyond the radius plus the band it is
  // outside and the cast runs at once; only one nearer takes a root, for its signed distance from
  // the surface and the surface normal there.
  const Vec2 turned = rotate(transform.rotation, shape.center);
  const Vec2 from_center = (ray.origin - transform.position) - turned;
  const Real tolerance = contact_tolerance(shape.radius + coordinate_magnitude(turned) + coordinate_magnitude(from_center));
  const Real outside_beyond = shape.radius + tolerance;
  if (length_squared(from_center) <= outside_beyond * outside_beyond) {
    const Real center_distance = length(from_center);
    if (center_distance - shape.radius < -tolerance) return RayHit{0, ray.origin, {}, true};
    const Vec2 normal = center_distance > 0 ? (Real(1) / center_distance) * from_center : rotate(transform.rotation, {1, 0});
    if (dot(ray.translation, normal) > 0) return std::nullopt;  // leaving a convex shape from its surface: nothing ahead
    return RayHit{0, ray.origin, normal, false};
  }
  if (!(ray.max_fraction > 0)) return std::nullopt;
  const RayCircleHit hit = ray_circle_hit(from_center, ray.translation, [&] { return length_in_real(ray.translation); }, {}, shape.radius);
  if (!hit.found() || hit.fraction > ray.max_fraction) return std::nullopt;
  return RayHit{hit.fraction, ray.origin + hit.fraction * ray.translation, hit.normal, false};
}

std::optional<RayHit> raycast(const Capsule& shape, const Transform& transform, const Ray& ray) {
  if (StartResult start = classify_start(shape, transform, ray); start.decided) return start.hit;
  return cast_rounded_core(detail::SegmentCore(shape.a, shape.b).view(shape.radius), transform, ray);
}

std::optional<RayHit> raycast(const Segment& shape, const Transform& transform, const Ray& ray) {
  if (StartResult start = classify_start(shape, transform, ray); start.decided) return start.hit;
  const Vec2 origin = inverse_transform_point(transform, ray.origin);
  const Vec2 direction = inverse_rotate(transform.rotation, ray.translation);
  const Vec2 along = shape.b - shape.a, to_start = shape.a - origin;
  const Real denominator = cross(direction, along);
  const Real band = ray_tolerance(size_scale(shape), origin, direction, ray.max_fraction), direction_length = length(direction);
  const Real tolerance = band * direction_length;
  const Vec2 unit = (Real(1) / direction_length) * direction;
  // Parallel when the segment's far end strays less than the band from the ray's line (a test of
  // lengths, so it holds at every scale); then on the line when its start is within the band.
  if (std::abs(cross(unit, along)) <= band) {
    if (std::abs(cross(to_start, unit)) > band) return std::nullopt;
    // Along the segment's line: the nearer end ahead, normal pointing back along the ray.
    const Real fraction = std::min(fraction_along(shape.a, origin, unit, direction_length), fraction_along(shape.b, origin, unit, direction_length));
    if (fraction < 0 || fraction > ray.max_fraction) return std::nullopt;
    return to_world(ray, transform, fraction, -normalize(direction));
  }
  Real fraction = cross(to_start, along) / denominator;
  const Real position = cross(to_start, direction) / denominator;  // where on the segment, 0 at a, 1 at b
  // An end within the tolerance of the ray's line counts as touched (a ray grazing a vertex hits
  // it): (position - 1) |denominator| / |direction| is that end's distance from the line. The hit
  // is then that end, where it lies along the ray: the lines' crossing can be far from it (lines
  // nearly parallel, the end behind the origin).
  const Real end_slack = tolerance / std::abs(denominator);
  if (position < -end_slack || position > 1 + end_slack) return std::nullopt;
  if (position < 0 || position > 1) fraction = fraction_along(position < 0 ? shape.a : shape.b, origin, unit, direction_length);
  if (!(fraction >= 0) || fraction > ray.max_fraction) return std::nullopt;
  Vec2 normal = normalize(left_perpendicular(along));
  if (dot(normal, direction) > 0) normal = -normal;
  return to_world(ray, transform, fraction, normal);
}

namespace {

/// What cast_clear_of_vertices decided: a hit (its fraction and the entering edge's normal, in
/// the polygon's frame), a miss, or nothing (the exact clip decides).
struct ClearCast {
  enum Verdict { undecided, miss, hit } verdict;
  Real fraction;
  Vec2 normal;
};

/// The ray against an unrounded polygon of `count` <= polygon_inline_capacity vertices, in the
/// polygon's frame, decided from the side of the ray's line each vertex lies on where every
/// vertex lies farther than the touching band from that line (see raycast(Polygon)).
template <int count>
ClearCast cast_clear_of_vertices(const Polygon& shape, const Ray& ray, Vec2 origin, Vec2 direction) {
  constexpr int lanes = detail::lane_count, groups = (count + lanes - 1) / lanes;
  constexpr unsigned every_vertex = (1u << count) - 1;
  const Vec2* vertices = shape.vertices().data();
  // The band of ray_tolerance, or more: the ray's far end's magnitude bounded by the origin's and
  // the translation's (a larger band only leaves more rays to the clip).
  const Real direction_magnitude = coordinate_magnitude(direction), origin_magnitude = coordinate_magnitude(origin);
  const Real band = contact_tolerance(size_scale(shape) + 2 * origin_magnitude + ray.max_fraction * direction_magnitude);
  // cross(direction, v - origin) is |direction| times v's distance left of the ray's line; beyond
  // this, the vertex lies farther than the band from the line, on the side its sign says.
  const Real clear = band * direction_magnitude;
  // Per vertex, from the storage padded to whole groups: the cross product above, and
  // dot(v - origin, direction), |direction|^2 times the fraction at which v projects on the ray.
  std::array<detail::RealLanes, groups> side, along;
  unsigned left = 0, clear_of_line = 0;
  const detail::PointLanes<groups> stored = detail::stored_lanes<groups>(vertices);
  for (int group = 0; group < groups; ++group) {
    const detail::RealLanes x = stored.x[group] - origin.x, y = stored.y[group] - origin.y;
    side[group] = direction.x * y - direction.y * x;
    along[group] = direction.x * x + direction.y * y;
    left |= detail::lane_bits(side[group] > 0) << (group * lanes);
    clear_of_line |= detail::lane_bits((side[group] > clear) | (side[group] < -clear)) << (group * lanes);
  }
  left &= every_vertex;
  const bool clear_of_every_vertex = (clear_of_line & every_vertex) == every_vertex;
  // Every vertex on one side: the line misses the polygon. This is the branch that goes either way,
  // so it waits on nothing but the cross products.
  if (left == 0 || left == every_vertex) return {clear_of_every_vertex ? ClearCast::miss : ClearCast::undecided, 0, {}};
  if (!clear_of_every_vertex) return {ClearCast::undecided, 0, {}};
  // The line enters through the edge from a vertex on its left to one on its right (one edge, by
  // convexity, when every side is certain).
  const unsigned right_after = ~((left >> 1) | ((left & 1u) << (count - 1)));  // bit i: vertex i + 1 lies right
  const unsigned entering = left & right_after;
  if ((entering & (entering - 1)) != 0) return {ClearCast::undecided, 0, {}};
  const Real direction_squared = dot(direction, direction), inverse_direction_squared = Real(1) / direction_squared;
  // From an origin more than the band outside the entering edge's line, the entry is the hit of
  // the banded clip too. Nearer (inside, on the surface, the polygon behind), or a direction whose
  // square underflows, the exact clip decides.
  const int edge = std::countr_zero(entering), next = edge + 1 == count ? 0 : edge + 1;
  const Vec2 normal = shape.normals()[edge];
  const Real offset = dot(normal, vertices[edge] - origin);  // the origin's depth inside the edge's line
  if (!(offset < -band) || !(direction_squared >= std::numeric_limits<Real>::min())) return {ClearCast::undecided, 0, {}};
  // Where the line crosses the entering edge, from vertex i to i + 1: the cross products fall to
  // zero at w = side_i / (side_i - side_next) of the way along it, in [0, 1] for an edge the line
  // crosses, so the crossing lies on the edge whatever the angle (an offset over a shallow slope
  // would not), and its fraction is the projections' fraction there over |direction|^2 (quotients
  // of products of two lengths only). Read by index once the edge is known: every edge's crossing
  // in lanes, one then picked, cost polygon8 rays 10% more.
  std::array<Real, groups * lanes> sides, alongs;
  std::memcpy(sides.data(), side.data(), sizeof(sides));
  std::memcpy(alongs.data(), along.data(), sizeof(alongs));
  const Real fraction = (alongs[edge] + sides[edge] / (sides[edge] - sides[next]) * (alongs[next] - alongs[edge])) * inverse_direction_squared;
  if (fraction <= ray.max_fraction) return {ClearCast::hit, fraction, normal};
  // Entered past the ray's end: a miss when that end lies more than the band outside the line.
  if (ray.max_fraction * dot(normal, direction) - offset > band) return {ClearCast::miss, 0, {}};
  return {ClearCast::undecided, 0, {}};
}

/// The ray against an unrounded polygon by clipping it against every edge, exact first and then,
/// where the exact clip cannot decide, within the band (cast_polygon_in_band). Out of line: it
/// serves polygons above the inline capacity and the rays cast_clear_of_vertices leaves.
[[gnu::noinline]] std::optional<RayHit> cast_polygon_by_clip(const Polygon& shape, const Transform& transform, const Ray& ray) {
  const Vec2 origin = inverse_transform_point(transform, ray.origin);
  const Vec2 direction = inverse_rotate(transform.rotation, ray.translation);
  // The exact clip first, as Box2D clips: the bounds are the edges' own crossings. It decides
  // every ray that is clear of the touching band, which the bounds it ends with prove:
  // - a hit entering through edge k from an origin more than the band outside k's line is a hit
  //   of the banded clip too, reported at k's own crossing, the exact entry (it lies on the
  //   polygon, so there is no false hit past a vertex to check for), once that crossing is
  //   known to round-off: entered at a shallow angle, it must lie within k's extent;
  // - a miss, where the bounds crossed by more than the band could move them (the band moves
  //   each edge's crossing by tolerance / |approach|: lower falls by at most that of the edge that
  //   set it, upper rises by at most that of its own; the ray's own ends are not widened), is a
  //   miss of the banded clip too.
  // Everything else (the origin inside or within the band, a graze, a parallel edge within the
  // band) goes to the banded clip, cast_polygon_in_band. The band and the bounding edges' slopes
  // are taken only where the clip ends, so the loop holds no more than Box2D's.
  const auto vertices = shape.vertices();
  const auto normals = shape.normals();
  const int count = shape.count();
  Real lower = 0, upper = ray.max_fraction;
  int entering_edge = -1, leaving_edge = -1;
  auto tolerance = [&] { return ray_tolerance(size_scale(shape), origin, direction, ray.max_fraction); };
  // |approach| of the edge that set a bound, 1 where the ray's own end set it.
  auto slope = [&](int edge) { return edge < 0 ? Real(1) : std::abs(dot(normals[edge], direction)); };
  auto decide_miss = [&] {
    // lower - upper > tolerance (1 / lower slope + 1 / upper slope) times both slopes, with no
    // term for a bound the ray's own end set.
    const Real lower_slope = slope(entering_edge), upper_slope = slope(leaving_edge);
    const Real lower_term = entering_edge < 0 ? Real(0) : upper_slope, upper_term = leaving_edge < 0 ? Real(0) : lower_slope;
    const bool clear = (lower - upper) * lower_slope * upper_slope > tolerance() * (lower_term + upper_term);
    return clear ? std::nullopt : cast_polygon_in_band(shape, transform, ray);
  };
  for (int i = 0; i < count; ++i) {
    const Real offset = dot(normals[i], vertices[i] - origin), approach = dot(normals[i], direction);
    if (approach < 0) {  // entering through edge i beyond its crossing offset / approach
      if (offset < lower * approach) {
        lower = offset / approach;
        entering_edge = i;
        if (upper < lower) return decide_miss();
      }
    } else if (approach > 0) {  // leaving through edge i
      if (offset < upper * approach) {
        upper = offset / approach;
        leaving_edge = i;
        if (upper < lower) return decide_miss();
      }
    } else if (offset < 0) {  // parallel and outside edge i's line
      return offset < -tolerance() ? std::nullopt : cast_polygon_in_band(shape, transform, ray);
    }
  }
  if (entering_edge < 0) return cast_polygon_in_band(shape, transform, ray);
  // The origin's depth outside the entering edge's line is lower x |approach|.
  if (!(lower * slope(entering_edge) > tolerance())) return cast_polygon_in_band(shape, transform, ray);
  // The entry must lie within the entering edge's extent, else the banded clip decides. The bounds
  // carry the round-off of the offsets (about 4.5 epsilons of the band's magnitude over each
  // angle's sine), so an interval empty by less than that is not told from a hit: the crossing of
  // a line met at a shallow angle moves far along the ray (a sliver's long edge 4e6 from the
  // origin in float was entered 1,900 units before the sliver), and a ray passing a sharp vertex
  // 3.8 bands outside crosses its two edges' lines within 1.5e-5 of each other along the ray, past
  // the vertex.
  if (!position_on_edge(origin, direction, lower, vertices[entering_edge], vertices[entering_edge + 1 == count ? 0 : entering_edge + 1]).within()) {
    return cast_polygon_in_band(shape, transform, ray);
  }
  return to_world(ray, transform, lower, normals[entering_edge]);
}

}  // namespace

std::optional<RayHit> raycast(const Polygon& shape, const Transform& transform, const Ray& ray) {
  if (shape.radius() > 0) return cast_rounded_polygon(shape, transform, ray);
  if (shape.count() > polygon_inline_capacity) return cast_polygon_by_clip(shape, transform, ray);
  // A small polygon's ray is decided first from the sides of its line the vertices lie on, with
  // no branch per edge: a ray clear of the touching band everywhere (nearly every ray) is decided
  // there, the rest by the clip.
  const Vec2 origin = inverse_transform_point(transform, ray.origin);
  const Vec2 direction = inverse_rotate(transform.rotation, ray.translation);
  // Four vertices (every box) tested first: a jump table's indirect jump costs the common case.
  ClearCast clear;
  if (shape.count() == 4) {
    clear = cast_clear_of_vertices<4>(shape, ray, origin, direction);
  } else {
    switch (shape.count()) {
      case 3: clear = cast_clear_of_vertices<3>(shape, ray, origin, direction); break;
      case 5: clear = cast_clear_of_vertices<5>(shape, ray, origin, direction); break;
      case 6: clear = cast_clear_of_vertices<6>(shape, ray, origin, direction); break;
      case 7: clear = cast_clear_of_vertices<7>(shape, ray, origin, direction); break;
      default: clear = cast_clear_of_vertices<8>(shape, ray, origin, direction); break;
    }
  }
  if (clear.verdict == ClearCast::hit) return to_world(ray, transform, clear.fraction, clear.normal);
  if (clear.verdict == ClearCast::miss) return std::nullopt;
  return cast_polygon_by_clip(shape, transform, ray);
}

std::optional<RayHit> raycast(const Shape& shape, const Transform& transform, const Ray& ray) {
  return std::visit([&](const auto& concrete) { return raycast(concrete, transform, ray); }, shape);
}

}  // namespace collide2d
