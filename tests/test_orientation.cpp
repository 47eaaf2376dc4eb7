// test_orientation.cpp — the exact orientation predicate (src/orientation.hpp) against GMP.
//
// Triples of points with Real coordinates, converted exactly to rationals: random ones, and
// nearly collinear ones (a point on the line through two others, rounded to Real and nudged by
// a few ulps), with coordinates near 1 and near 1e5 (float) or 1e8 (double), where a plain
// floating-point determinant gets the sign wrong.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "collide2d/math.hpp"
#include "orientation.hpp"

namespace {

using namespace collide2d;

int exact_sign(Vec2 a, Vec2 b, Vec2 c) {
  const mpq_class ax(double(a.x)), ay(double(a.y)), bx(double(b.x)), by(double(b.y)), cx(double(c.x)), cy(double(c.y));
  return sgn(mpq_class((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)));
}

int naive_sign(Vec2 a, Vec2 b, Vec2 c) {
  const Real value = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  return (value > 0) - (value < 0);
}

TEST(ExactOrientation, AgreesWithRationalArithmeticOnRandomAndNearlyCollinearTriples) {
  std::mt19937_64 random(99);
  std::uniform_real_distribution<double> unit(-1, 1);
  const double far = sizeof(Real) == sizeof(float) ? 1e5 : 1e8;
  long checked = 0, disagreements = 0, naive_wrong = 0, collinear = 0;
  for (const double magnitude : {1.0, far}) {
    for (int trial = 0; trial < 100000; ++trial) {
      const Vec2 base{Real(magnitude * (1 + 0.01 * unit(random))), Real(-magnitude * (1 + 0.01 * unit(random)))};
      const Vec2 a = base + Vec2{Real(10 * unit(random)), Real(10 * unit(random))};
      const Vec2 b = base + Vec2{Real(10 * unit(random)), Real(10 * unit(random))};
      Vec2 c;
      if (trial % 4 == 0) {
        c = base + Vec2{Real(10 * unit(random)), Real(10 * unit(random))};
      } else {  // on the line through a and b, rounded, then nudged by up to 2 ulps
        const double t = 3 * unit(random);
        c = {Real(double(a.x) + t * (double(b.x) - double(a.x))), Real(double(a.y) + t * (double(b.y) - double(a.y)))};
        for (int nudge = static_cast<int>(random() % 5) - 2; nudge != 0; nudge += nudge > 0 ? -1 : 1) {
          c.y = std::nextafter(c.y, nudge > 0 ? std::numeric_limits<Real>::max() : -std::numeric_limits<Real>::max());
        }
      }
      const int truth = exact_sign(a, b, c);
      ++checked;
      collinear += truth == 0;
      naive_wrong += naive_sign(a, b, c) != truth;
      if (detail::exact_orientation(a, b, c) != truth && ++disagreements <= 5) {
        ADD_FAILURE() << "a (" << a.x << ", " << a.y << ") b (" << b.x << ", " << b.y << ") c (" << c.x << ", " << c.y << "): exact "
                      << truth << ", predicate " << detail::exact_orientation(a, b, c);
      }
    }
  }
  std::printf("%ld triples (%ld exactly collinear): %ld disagreements; a plain %s determinant got %ld signs wrong\n", checked, collinear,
              disagreements, sizeof(Real) == sizeof(float) ? "float" : "double", naive_wrong);
  EXPECT_EQ(disagreements, 0);
  EXPECT_GT(naive_wrong, 0);  // the cases are hard enough to matter
}

}  // namespace
