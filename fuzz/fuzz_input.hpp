// fuzz_input.hpp — turning a fuzzer's bytes into valid shapes, poses and motions (fuzz targets only).
//
// Outline: FuzzedDataProvider (shipped with Clang's libFuzzer) hands out integers and picks; a
// coordinate is a signed 16-bit grid value times a power-of-two scale chosen per shape (2^-10 to
// 2^10), so the targets see small and large shapes, exact coincidences (shared vertices, collinear
// points, touching pairs) and near misses, always inside coordinate_limit. Shapes that the
// library's builders refuse are simply not made: the targets check answers on valid input.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <optional>
#include <vector>

#include "collide2d/collide2d.hpp"

namespace collide2d::fuzz {

/// A coordinate: a 16-bit grid value times `scale`.
inline Real coordinate(FuzzedDataProvider& input, Real scale) { return Real(input.ConsumeIntegral<std::int16_t>()) * scale; }

/// A point on the grid of `scale`.
inline Vec2 point(FuzzedDataProvider& input, Real scale) {
  const Real x = coordinate(input, scale);
  return {x, coordinate(input, scale)};
}

/// A power-of-two scale from 2^-10 to 2^10 (1/1024 to 1024 length units per grid step).
inline Real scale(FuzzedDataProvider& input) { return std::ldexp(Real(1), input.ConsumeIntegralInRange<int>(-10, 10)); }

/// A non-negative radius on the grid of `scale`.
inline Real radius(FuzzedDataProvider& input, Real scale) { return Real(input.ConsumeIntegral<std::uint16_t>()) * scale / 4; }

/// A rotation from a 16-bit angle.
inline Rot rotation(FuzzedDataProvider& input) {
  return Rot::from_angle(Real(input.ConsumeIntegral<std::int16_t>()) * Real(3.14159265358979) / 32768);
}

/// A pose within 2^15 x scale of the origin.
inline Transform pose(FuzzedDataProvider& input, Real scale) {
  const Vec2 position = point(input, scale);
  return {position, rotation(input)};
}

/// Up to `most` points on the grid of `scale`.
inline std::vector<Vec2> points(FuzzedDataProvider& input, Real scale, int most) {
  std::vector<Vec2> result(input.ConsumeIntegralInRange<int>(0, most));
  for (Vec2& p : result) p = point(input, scale);
  return result;
}

/// A convex shape of any kind, or none when the bytes describe one the builders refuse.
inline std::optional<ConvexShape> convex_shape(FuzzedDataProvider& input) {
  const Real unit = scale(input);
  switch (input.ConsumeIntegralInRange<int>(0, 4)) {
    case 0: {
      const Vec2 center = point(input, unit);
      return Circle{center, radius(input, unit)};
    }
    case 1: {
      const Vec2 a = point(input, unit), b = point(input, unit);
      return Capsule{a, b, radius(input, unit)};
    }
    case 2: {
      const Vec2 a = point(input, unit);
      return Segment{a, point(input, unit)};
    }
    case 3: {
      const Real half_width = Real(input.ConsumeIntegralInRange<int>(1, 4096)) * unit;
      const Real half_height = Real(input.ConsumeIntegralInRange<int>(1, 4096)) * unit;
      const Transform placed = pose(input, unit);  // read before the radius, whatever the compiler's argument order
      Result<Polygon> box = make_box(half_width, half_height, placed, radius(input, unit) / 16);
      if (!box) return std::nullopt;
      return std::move(box).value();
    }
    default: {
      const std::vector<Vec2> cloud = points(input, unit, 24);
      const Real rounding = input.ConsumeBool() ? radius(input, unit) / 16 : Real(0);
      Result<Polygon> polygon = make_polygon(convex_hull(cloud), rounding);
      if (!polygon) return std::nullopt;
      return std::move(polygon).value();
    }
  }
}

/// A shape of any kind: a convex one, or the compound (or polygon) of a concave outline.
inline std::optional<Shape> shape(FuzzedDataProvider& input) {
  if (input.ConsumeIntegralInRange<int>(0, 5) == 0) {
    const std::vector<Vec2> outline = points(input, scale(input), 16);
    Result<Shape> made = shape_from_outline(outline);
    if (!made) return std::nullopt;
    return std::move(made).value();
  }
  std::optional<ConvexShape> convex = convex_shape(input);
  if (!convex) return std::nullopt;
  return std::visit([](auto&& concrete) { return Shape(std::move(concrete)); }, std::move(*convex));
}

/// A shape placed in the world.
struct Placed {
  Shape shape;
  Transform transform;
};

/// A shape of any kind placed by a pose on the grid of `scale`, or none when the builders refuse
/// the shape (then no pose is read).
inline std::optional<Placed> placed_shape(FuzzedDataProvider& input, Real scale) {
  std::optional<Shape> made = shape(input);
  if (!made) return std::nullopt;
  const Transform transform = pose(input, scale);
  return Placed{std::move(*made), transform};
}

/// Adds a placed shape to the world as a body.
inline BodyHandle add_body(World& world, const Placed& placed) {
  BodyDefinition definition;
  definition.shape = placed.shape;
  definition.transform = placed.transform;
  return world.add(std::move(definition));
}

/// The largest coordinate magnitude a placed shape reaches: its position plus its size.
inline Real reach(const Shape& shape, const Transform& transform) { return coordinate_magnitude(transform.position) + 2 * size_scale(shape); }

}  // namespace collide2d::fuzz
