// collide2d/result.hpp — the value-or-reason type returned by functions that build shapes.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace collide2d {

/// Why a shape could not be built.
enum class ShapeErrorKind {
  non_finite,       ///< a coordinate or radius is NaN or infinite
  negative_radius,  ///< a radius or half extent is below zero (or not positive where it must be)
  too_few_points,   ///< fewer than 3 distinct points remain after welding duplicates
  zero_area,        ///< the points are collinear or enclose no area
  not_convex,       ///< the outline turns the wrong way at `index` or winds more than once
  self_intersecting,///< two edges of an outline cross or run along each other; `index` is the first edge's start
  has_hole,         ///< part of an outline encloses another part (holes are not supported); `index` is a vertex of the inner part
  empty,            ///< a compound with no children
  out_of_range,     ///< a coordinate, radius, half extent or position beyond coordinate_limit (math.hpp)
  too_many_points,  ///< a concave outline of more points than decompose_point_limit (decompose.hpp)
};

/// A refusal: what is wrong and where.
struct ShapeError {
  ShapeErrorKind kind;  ///< the category of the problem
  int index = -1;       ///< offending input point (0-based), or -1 when no single point is at fault
  std::string message;  ///< one readable sentence naming the problem and the point
};

/// Either a value or the error explaining why there is none (a ShapeError unless said otherwise).
/// `Error` must have a `message` string.
template <class T, class Error = ShapeError>
class Result {
 public:
  /// A successful result holding `value`.
  Result(T value) : storage_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  /// A failed result holding `error`.
  Result(Error error) : storage_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  /// True when a value is held.
  bool has_value() const { return storage_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  /// The value; throws std::invalid_argument with the error message when there is none.
  const T& value() const& {
    if (!has_value()) throw std::invalid_argument(error().message);
    return std::get<0>(storage_);
  }
  /// The value, moved out; throws std::invalid_argument with the error message when there is none.
  T&& value() && {
    if (!has_value()) throw std::invalid_argument(error().message);
    return std::get<0>(std::move(storage_));
  }
  /// The error; only meaningful when has_value() is false.
  const Error& error() const { return std::get<1>(storage_); }

 private:
  std::variant<T, Error> storage_;
};

}  // namespace collide2d
