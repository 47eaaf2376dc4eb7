// collide2d/math.hpp — scalar type, vectors, rotations, rigid transforms and bounding boxes.
//
// Everything here is a small value type with inline operations. Angles are radians,
// counter-clockwise positive. Units are whatever the caller uses; nothing assumes metres.
#pragma once

#include <cmath>
#include <limits>

#include "collide2d/config.hpp"

namespace collide2d {

/// The floating-point type of every coordinate: float by default, double when the library is
/// configured with -DCOLLIDE2D_DOUBLE=ON (see collide2d/config.hpp).
#if COLLIDE2D_DOUBLE
using Real = double;
#else
using Real = float;
#endif

/// Machine epsilon of Real: the gap between 1 and the next representable value.
inline constexpr Real real_epsilon = std::numeric_limits<Real>::epsilon();


/// A 2D vector or point; its frame is whatever the caller's context says.
struct Vec2 {
  Real x = 0;  ///< horizontal component
  Real y = 0;  ///< vertical component

  constexpr Vec2& operator+=(Vec2 other) { x += other.x; y += other.y; return *this; }
  constexpr Vec2& operator-=(Vec2 other) { x -= other.x; y -= other.y; return *this; }
  constexpr Vec2& operator*=(Real scale) { x *= scale; y *= scale; return *this; }
  friend constexpr bool operator==(Vec2, Vec2) = default;
};

constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
constexpr Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
constexpr Vec2 operator*(Real s, Vec2 a) { return {s * a.x, s * a.y}; }
constexpr Vec2 operator*(Vec2 a, Real s) { return {s * a.x, s * a.y}; }

/// Dot product a·b.
constexpr Real dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
/// The z component of the 3D cross product (a, 0) × (b, 0): positive when b is counter-clockwise of a.
constexpr Real cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
/// a rotated by +90 degrees (counter-clockwise).
constexpr Vec2 left_perpendicular(Vec2 a) { return {-a.y, a.x}; }
/// a rotated by -90 degrees (clockwise); for a counter-clockwise polygon edge this points outward.
constexpr Vec2 right_perpendicular(Vec2 a) { return {a.y, -a.x}; }
/// Squared Euclidean length.
constexpr Real length_squared(Vec2 a) { return dot(a, a); }
/// Euclidean length. In float it is computed in double, so it neither overflows nor underflows for
/// any finite vector; in double, components beyond about 1e150 (or below 1e-150) would, which no
/// scene reaches. A plain square root: std::hypot's care costs several times more.
inline Real length(Vec2 a) {
  if constexpr (sizeof(Real) < sizeof(double)) {
    return static_cast<Real>(std::sqrt(double(a.x) * double(a.x) + double(a.y) * double(a.y)));
  } else {
    return std::sqrt(a.x * a.x + a.y * a.y);
  }
}
/// Euclidean length with the square root taken in Real, for hot paths: length() to round-off, and
/// cheaper in float, where length() takes its root in double. For components within
/// coordinate_limit (their squares do not overflow); where the squared length underflows, it is
/// length().
inline Real length_in_real(Vec2 a) {
  const Real squared = dot(a, a);
  return squared >= std::numeric_limits<Real>::min() ? std::sqrt(squared) : length(a);
}
/// Distance between two points.
inline Real distance(Vec2 a, Vec2 b) { return length(b - a); }
/// Linear interpolation a + t (b - a).
constexpr Vec2 lerp(Vec2 a, Vec2 b, Real t) { return {a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)}; }
/// The parameter t in [0, 1] of the point `from + t (to - from)` of a segment nearest `point`;
/// 0 for a segment of zero length. Every closest-point-on-a-segment in the library uses it.
inline Real closest_parameter_on_segment(Vec2 from, Vec2 to, Vec2 point) {
  const Vec2 along = to - from;
  const Real length2 = dot(along, along);
  if (!(length2 > 0)) return 0;
  const Real t = dot(point - from, along) / length2;
  return t < 0 ? Real(0) : (t > 1 ? Real(1) : t);
}
/// Distance from `point` to the segment from `from` to `to` (to its nearest point).
inline Real distance_to_segment(Vec2 point, Vec2 from, Vec2 to) { return length(lerp(from, to, closest_parameter_on_segment(from, to, point)) - point); }
/// Componentwise minimum.
constexpr Vec2 min(Vec2 a, Vec2 b) { return {a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y}; }
/// Componentwise maximum.
constexpr Vec2 max(Vec2 a, Vec2 b) { return {a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y}; }
/// One step of a search for the largest of several values whose winner is unpredictable from one
/// call to the next (support points, faces): takes `value` and `index` into `best_value` and
/// `best_index` when `value` is larger, so the first of equals stays. The index is chosen by an
/// integer mask, not a conditional: GCC 12 compiled the conditional to a branch in GJK's support
/// search (half of its mispredictions on random polygon pairs), and marking it as even odds
/// (__builtin_expect_with_probability) did not help.
constexpr void keep_larger(Real value, int index, Real& best_value, int& best_index) {
  const int larger = -static_cast<int>(value > best_value);  // every bit set when larger
  best_index ^= (best_index ^ index) & larger;
  best_value = value > best_value ? value : best_value;
}
/// True when both components are finite (neither NaN nor infinite).
inline bool is_finite(Vec2 a) { return std::isfinite(a.x) && std::isfinite(a.y); }

/// The largest magnitude (length units) the library accepts for any coordinate, radius, half
/// extent, position or translation: 1e17 in float, 1e150 in double. Below it the arithmetic stays
/// in range with a margin of 100: a query works on points of B - A in A's frame, up to about
/// 7 x the limit, and the squares and cross products of their differences (about 400 x the
/// limit squared) stay far below the largest Real (3.4e38 in float, 1.8e308 in double). Shape
/// constructors, decompose, validate() and the scene readers refuse larger values
/// (ShapeErrorKind::out_of_range; docs/conventions.md, "Limits").
#if COLLIDE2D_DOUBLE
inline constexpr Real coordinate_limit = 1e150;
#else
inline constexpr Real coordinate_limit = 1e17F;
#endif

/// True when |value| <= coordinate_limit (false for NaN and infinities).
constexpr bool within_coordinate_limit(Real value) { return value >= -coordinate_limit && value <= coordinate_limit; }
/// True when both components are within coordinate_limit (false for NaN and infinities).
constexpr bool within_coordinate_limit(Vec2 a) { return within_coordinate_limit(a.x) && within_coordinate_limit(a.y); }

/// a scaled to unit length, or the zero vector when its length is zero.
inline Vec2 normalize(Vec2 a) {
  Real len = length(a);
  return len > 0 ? (Real(1) / len) * a : Vec2{};
}

/// A rotation, stored as the cosine and sine of its counter-clockwise angle.
struct Rot {
  Real cosine = 1;  ///< cos(angle)
  Real sine = 0;    ///< sin(angle)

  /// The rotation by `radians`, counter-clockwise.
  static Rot from_angle(Real radians) { return {std::cos(radians), std::sin(radians)}; }
  /// The angle in radians, in (-pi, pi].
  Real angle() const { return std::atan2(sine, cosine); }
  friend constexpr bool operator==(Rot, Rot) = default;
};

/// v rotated by r.
constexpr Vec2 rotate(Rot r, Vec2 v) { return {r.cosine * v.x - r.sine * v.y, r.sine * v.x + r.cosine * v.y}; }
/// v rotated by the inverse of r.
constexpr Vec2 inverse_rotate(Rot r, Vec2 v) { return {r.cosine * v.x + r.sine * v.y, -r.sine * v.x + r.cosine * v.y}; }
/// The rotation a followed by b (angles add).
constexpr Rot compose(Rot b, Rot a) {
  return {b.cosine * a.cosine - b.sine * a.sine, b.sine * a.cosine + b.cosine * a.sine};
}
/// The rotation inverse(a) followed by b (the angle b - a).
constexpr Rot inverse_compose(Rot a, Rot b) {
  return {a.cosine * b.cosine + a.sine * b.sine, a.cosine * b.sine - a.sine * b.cosine};
}

/// A rigid transform: a point p in the local frame maps to rotation * p + position.
struct Transform {
  Vec2 position;  ///< where the local origin lands, in the parent frame
  Rot rotation;   ///< orientation of the local axes in the parent frame

  /// The transform placing a frame at `position`, turned by `radians`.
  static Transform from(Vec2 position, Real radians) { return {position, Rot::from_angle(radians)}; }
  friend constexpr bool operator==(const Transform&, const Transform&) = default;
};

/// Local point p expressed in the parent frame.
constexpr Vec2 transform_point(const Transform& t, Vec2 p) { return rotate(t.rotation, p) + t.position; }
/// Parent-frame point p expressed in the local frame of t.
constexpr Vec2 inverse_transform_point(const Transform& t, Vec2 p) { return inverse_rotate(t.rotation, p - t.position); }
/// The transform a ∘ b: first b, then a.
constexpr Transform compose(const Transform& a, const Transform& b) {
  return {rotate(a.rotation, b.position) + a.position, compose(a.rotation, b.rotation)};
}
/// The transform inverse(a) ∘ b: maps b's local frame into a's local frame. Queries use it as
/// `b_to_a`, which keeps coordinates small when both shapes are far from the origin.
constexpr Transform inverse_compose(const Transform& a, const Transform& b) {
  return {inverse_rotate(a.rotation, b.position - a.position), inverse_compose(a.rotation, b.rotation)};
}

/// An axis-aligned bounding box; lower <= upper componentwise for a valid box.
struct Aabb {
  Vec2 lower;  ///< minimum corner
  Vec2 upper;  ///< maximum corner

  /// True when the two boxes share at least one point (touching counts). The four comparisons
  /// are combined without short-circuiting: one branch on the answer, which in a broad phase's
  /// search goes either way unpredictably, where four mispredict more often.
  constexpr bool overlaps(const Aabb& other) const {
    return (lower.x <= other.upper.x) & (other.lower.x <= upper.x) & (lower.y <= other.upper.y) & (other.lower.y <= upper.y);
  }
  /// True when p is inside or on the boundary.
  constexpr bool contains(Vec2 p) const { return lower.x <= p.x && p.x <= upper.x && lower.y <= p.y && p.y <= upper.y; }
  /// The smallest box holding both.
  constexpr Aabb merged(const Aabb& other) const { return {min(lower, other.lower), max(upper, other.upper)}; }
  /// Centre point.
  constexpr Vec2 center() const { return Real(0.5) * (lower + upper); }
  /// Half the width and half the height.
  constexpr Vec2 half_extents() const { return Real(0.5) * (upper - lower); }
  /// The box grown by `margin` (length units) on every side.
  constexpr Aabb expanded(Real margin) const { return {lower - Vec2{margin, margin}, upper + Vec2{margin, margin}}; }
  friend constexpr bool operator==(const Aabb&, const Aabb&) = default;
};

/// True when the segment from `origin` to `origin + max_fraction * translation` meets the box
/// (slab test; touching counts). The broad phases' and compounds' ray queries share it.
bool segment_meets_box(Vec2 origin, Vec2 translation, Real max_fraction, const Aabb& box);

}  // namespace collide2d
