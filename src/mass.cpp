// mass.cpp — mass, centre of mass and rotational inertia of shapes of uniform density.
//
// Outline: every convex shape is a core (a point, a segment or a convex polygon) swept by a
// rounding radius r, and its region splits exactly into
//   - the core polygon (a fan of triangles),
//   - one r-wide rectangle on the outside of each core edge (both sides of a segment),
//   - one circular sector of radius r at each core vertex, spanning the angle between the
//     outward normals of the edges that meet there (2 pi for a point, pi at a segment's ends).
// Each piece's area, first moment and second (polar) moment are closed forms, summed about the
// core's first vertex to keep round-off small, then moved to the centre of mass by the parallel
// axis theorem. A compound sums its children the same way. Triangle moments: for the triangle
// (0, e1, e2), area cross(e1, e2) / 2, centroid (e1 + e2) / 3 and polar moment about 0
// area (e1.e1 + e1.e2 + e2.e2) / 6. Sector of radius r between the unit directions u0 and u1
// (angle theta) about its apex: area theta r^2 / 2, first moment r^3 / 3 (u1.y - u0.y, u0.x - u1.x),
// polar moment theta r^4 / 4.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <span>
#include <type_traits>
#include <variant>
#include <vector>

#include "collide2d/dynamics.hpp"

namespace collide2d {
namespace {

/// Area, first moment and polar second moment of a region, about one reference point.
struct Moments {
  Real area = 0;
  Vec2 first;         // integral of p over the region, p relative to the reference point
  Real second = 0;    // integral of |p|^2 over the region

  void add_triangle(Vec2 e1, Vec2 e2) {
    const Real triangle_area = cross(e1, e2) / 2;
    area += triangle_area;
    first = first + (triangle_area / 3) * (e1 + e2);
    second += triangle_area * (dot(e1, e1) + dot(e1, e2) + dot(e2, e2)) / 6;
  }
  /// The sector of radius `radius` with apex `apex`, turning counter-clockwise from u0 to u1 by `angle`.
  void add_sector(Vec2 apex, Vec2 u0, Vec2 u1, Real angle, Real radius) {
    const Real sector_area = angle * radius * radius / 2;
    const Vec2 sector_first = (radius * radius * radius / 3) * Vec2{u1.y - u0.y, u0.x - u1.x};
    const Real sector_second = angle * radius * radius * radius * radius / 4;
    area += sector_area;
    first = first + sector_area * apex + sector_first;
    second += sector_area * dot(apex, apex) + 2 * dot(apex, sector_first) + sector_second;
  }
};

/// The moments of a convex core of one, two or more counter-clockwise points swept by `radius`,
/// about `core[0]`.
Moments rounded_core_moments(std::span<const Vec2> core, Real radius) {
  Moments moments;
  const std::size_t count = core.size();
  for (std::size_t i = 1; i + 1 < count; ++i) moments.add_triangle(core[i] - core[0], core[i + 1] - core[0]);
  if (radius <= 0) return moments;
  if (count == 1) {
    moments.add_sector({}, {1, 0}, {1, 0}, 2 * std::numbers::pi_v<Real>, radius);
    return moments;
  }
  // Edge i runs from core[i] to core[i + 1] (cyclic; a segment core's two edges are its two
  // sides), with the outward normal on its right.
  auto outward_normal = [&](std::size_t i) { return right_perpendicular(normalize(core[(i + 1) % count] - core[i])); };
  for (std::size_t i = 0; i < count; ++i) {
    const Vec2 from = core[i] - core[0], to = core[(i + 1) % count] - core[0];
    const Vec2 offset = radius * outward_normal(i);
    // The rectangle from, from + offset, to + offset, to (counter-clockwise), as a fan about the
    // reference point: signed triangles over its four edges.
    const std::array<Vec2, 4> corners{from, from + offset, to + offset, to};
    for (std::size_t k = 0; k < 4; ++k) moments.add_triangle(corners[k], corners[(k + 1) % 4]);
    // The sector at core[i + 1] between this edge's normal and the next edge's.
    const Vec2 next_normal = outward_normal((i + 1) % count);
    const Real angle = std::atan2(cross(offset, next_normal), dot(offset, next_normal));
    moments.add_sector(to, outward_normal(i), next_normal, angle < 0 ? angle + 2 * std::numbers::pi_v<Real> : angle, radius);
  }
  return moments;
}

/// Mass properties from moments taken about `reference` (local frame).
MassProperties from_moments(const Moments& moments, Vec2 reference, Real density) {
  if (!(moments.area > 0) || !(density > 0)) return {};
  const Vec2 center_offset = (1 / moments.area) * moments.first;
  const Real polar_about_center = moments.second - moments.area * dot(center_offset, center_offset);
  return {density * moments.area, reference + center_offset, density * std::max(polar_about_center, Real{0})};
}

}  // namespace

MassProperties compute_mass(const ConvexShape& shape, Real density) {
  return std::visit(
      [density](const auto& convex) -> MassProperties {
        using S = std::decay_t<decltype(convex)>;
        if constexpr (std::is_same_v<S, Circle>) {
          const std::array<Vec2, 1> core{convex.center};
          return from_moments(rounded_core_moments(core, convex.radius), convex.center, density);
        } else if constexpr (std::is_same_v<S, Capsule>) {
          if (convex.a == convex.b) {
            const std::array<Vec2, 1> core{convex.a};
            return from_moments(rounded_core_moments(core, convex.radius), convex.a, density);
          }
          const std::array<Vec2, 2> core{convex.a, convex.b};
          return from_moments(rounded_core_moments(core, convex.radius), convex.a, density);
        } else if constexpr (std::is_same_v<S, Segment>) {
          return {};
        } else {
          const std::span<const Vec2> core = convex.vertices();
          return from_moments(rounded_core_moments(core, convex.radius()), core[0], density);
        }
      },
      shape);
}

MassProperties compute_mass(const Shape& shape, Real density) {
  if (const auto* compound = std::get_if<Compound>(&shape)) {
    // Sum the children's masses and first moments, then their inertias moved to the common
    // centre (parallel axis theorem).
    std::vector<MassProperties> parts;
    Real mass = 0;
    Vec2 first;
    for (const CompoundChild& child : compound->children()) {
      MassProperties part = compute_mass(child.shape, density);
      part.center = transform_point(child.transform, part.center);
      mass += part.mass;
      first = first + part.mass * part.center;
      parts.push_back(part);
    }
    if (!(mass > 0)) return {};
    const Vec2 center = (1 / mass) * first;
    Real inertia = 0;
    for (const MassProperties& part : parts) inertia += part.inertia + part.mass * length_squared(part.center - center);
    return {mass, center, inertia};
  }
  return std::visit(
      [density](const auto& convex) -> MassProperties {
        if constexpr (std::is_same_v<std::decay_t<decltype(convex)>, Compound>) {
          return {};
        } else {
          return compute_mass(ConvexShape{convex}, density);
        }
      },
      shape);
}

}  // namespace collide2d
