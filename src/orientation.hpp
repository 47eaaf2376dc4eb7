// orientation.hpp (private) — the exact sign of a turn, for any float or double coordinates.
//
// Outline (after J. R. Shewchuk, "Adaptive precision floating-point arithmetic and fast robust
// geometric predicates", 1997): the determinant (b - a) x (c - a) is first evaluated in double
// with a forward error bound; when it is farther from zero than the bound, its sign is right.
// Otherwise it is evaluated exactly: written as a x b + b x c + c x a, each of the six products
// is split without error into a rounded value and its rounding error (fused multiply-add), and
// the twelve terms are summed without error into an expansion (a list of doubles whose exact
// sum is the value, growing one two-sum at a time); the sign of the sum is the sign of its
// largest non-zero component.
#pragma once

#include <array>
#include <cmath>
#include <limits>

#include "collide2d/math.hpp"

namespace collide2d::detail {

/// +1 when a, b, c turn left (counter-clockwise), -1 right, 0 when exactly collinear.
inline int exact_orientation(Vec2 a, Vec2 b, Vec2 c) {
  const double ax = a.x, ay = a.y, bx = b.x, by = b.y, cx = c.x, cy = c.y;
  const double left = (bx - ax) * (cy - ay), right = (by - ay) * (cx - ax);
  const double estimate = left - right;
  // Shewchuk's first error bound for this form: (3 + 16 eps) eps (|left| + |right|).
  constexpr double epsilon = std::numeric_limits<double>::epsilon() / 2;
  const double bound = (3 + 16 * epsilon) * epsilon * (std::abs(left) + std::abs(right));
  if (estimate > bound) return 1;
  if (estimate < -bound) return -1;
  // Exact: a x b + b x c + c x a as twelve error-free terms.
  std::array<double, 12> terms{};
  int count = 0;
  auto add_product = [&](double p, double q, double sign) {
    const double product = p * q;
    terms[count++] = sign * product;
    terms[count++] = sign * std::fma(p, q, -product);  // the rounding error of p * q, exactly
  };
  add_product(ax, by, 1);
  add_product(ay, bx, -1);
  add_product(bx, cy, 1);
  add_product(by, cx, -1);
  add_product(cx, ay, 1);
  add_product(cy, ax, -1);
  // Grow an expansion term by term: each two-sum keeps the exact value in (sum, error) parts.
  std::array<double, 12> expansion{};
  int length = 0;
  for (int i = 0; i < count; ++i) {
    double carry = terms[i];
    for (int j = 0; j < length; ++j) {
      const double sum = carry + expansion[j];
      const double virtual_part = sum - carry;
      const double error = (carry - (sum - virtual_part)) + (expansion[j] - virtual_part);
      expansion[j] = error;
      carry = sum;
    }
    expansion[length++] = carry;
  }
  for (int i = length - 1; i >= 0; --i) {
    if (expansion[i] != 0) return expansion[i] > 0 ? 1 : -1;
  }
  return 0;
}

}  // namespace collide2d::detail
