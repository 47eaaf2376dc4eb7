// point2.hpp — the tests' own 2D points, in double or long double, for oracles that must not
// share the library's Vec2 arithmetic (test_casts, test_cli, test_differential).
#pragma once

#include <cmath>
#include <type_traits>

namespace test_points {

/// A point or vector with T coordinates.
template <class T>
struct Point2 {
  T x = 0, y = 0;
};
template <class T>
Point2<T> operator+(Point2<T> a, Point2<T> b) { return {a.x + b.x, a.y + b.y}; }
template <class T>
Point2<T> operator-(Point2<T> a, Point2<T> b) { return {a.x - b.x, a.y - b.y}; }
template <class T>
Point2<T> operator*(std::type_identity_t<T> s, Point2<T> a) { return {s * a.x, s * a.y}; }
template <class T>
T dot(Point2<T> a, Point2<T> b) { return a.x * b.x + a.y * b.y; }
template <class T>
T cross(Point2<T> a, Point2<T> b) { return a.x * b.y - a.y * b.x; }
/// Euclidean length (std::hypot: no overflow or underflow on the way).
template <class T>
T norm(Point2<T> a) { return std::hypot(a.x, a.y); }
/// `a` scaled to unit length; the zero vector for a zero one.
template <class T>
Point2<T> unit(Point2<T> a) {
  const T n = norm(a);
  return n > 0 ? (1 / n) * a : Point2<T>{};
}
/// |x| + |y|, what the library's tolerance model measures.
template <class T>
T magnitude(Point2<T> a) { return std::abs(a.x) + std::abs(a.y); }

}  // namespace test_points
