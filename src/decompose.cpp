// decompose.cpp — cutting a simple outline into convex pieces.
//
// Outline of decompose():
//   1. Clean: refuse outlines of more than decompose_point_limit points (the stages below are
//      quadratic), non-finite points and points beyond coordinate_limit; weld consecutive points closer than the welding
//      tolerance; drop points lying straight between their neighbours; an edge that runs straight
//      back along the previous one is a self-intersection.
//   2. Check every pair of non-adjacent edges with exact orientation signs (src/orientation.hpp,
//      exact for float and double coordinates): a proper crossing or two edges running
//      along each other is refused, naming both edges; a vertex resting on another edge is
//      inserted into that edge, so every touch becomes two visits of one point.
//   3. Where the outline visits a point twice, the two corners there must not interleave (that
//      would be a crossing through the point); the outline is split there into parts (a stack
//      walk pops a part each time a point comes round again). A part inside another is a hole:
//      refused.
//   4. Each part, turned counter-clockwise, is triangulated by ear clipping (an ear is a convex
//      corner whose triangle holds no reflex vertex of what remains), remembering each cut.
//   5. Hertel–Mehlhorn merging (S. Hertel and K. Mehlhorn, "Fast triangulation of simple
//      polygons", 1983): each cut is removed when the corners at its two ends stay convex without
//      it. Every cut that survives ends at a reflex vertex, and each reflex vertex keeps at most
//      two, so there are at most 2r + 1 pieces for r reflex vertices; in practice near r + 1.
// Bayazit's method finds fewer pieces on some outlines but cuts at new points that need
// intersection arithmetic; cutting only between outline vertices keeps the pieces' vertices exact
// copies of the input, so pieces sharing a cut share its end points bit for bit. Where a cut ends
// on a straight stretch of another piece's side, make_polygon drops that straight corner and the
// pieces meet at a T-junction; the compound's seam test (compound.cpp) handles both.
#include "collide2d/decompose.hpp"

#include "collide2d/tolerance.hpp"
#include "orientation.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>
#include <utility>

namespace collide2d {
namespace {

struct OutlineVertex {
  Vec2 point;
  int input_index;     // the input point it came from (an inserted touch point: the point resting there)
  int edge_start = -1; // once points resting on edges are inserted: the input edge the segment leaving
  int edge_end = -1;   // this vertex lies on, by its end points
};

/// +1 when a, b, c turn left, -1 right, 0 collinear: exact for float and double coordinates.
int orientation(Vec2 a, Vec2 b, Vec2 c) { return detail::exact_orientation(a, b, c); }
/// p, known to be collinear with a and b, lies strictly between them.
bool strictly_between(Vec2 a, Vec2 b, Vec2 p) {
  return p != a && p != b && std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

ShapeError refuse(ShapeErrorKind kind, int index, std::string message) { return {kind, index, std::move(message)}; }

/// "edge S (point S to point E)" for the input edge that the segment leaving vertex `vertex` lies on.
std::string input_edge_name(const OutlineVertex& vertex) {
  std::ostringstream text;
  text << "edge " << vertex.edge_start << " (point " << vertex.edge_start << " to point " << vertex.edge_end << ")";
  return text.str();
}

std::string edge_name(const std::vector<OutlineVertex>& outline, std::size_t edge) {
  std::ostringstream text;
  text << "edge " << outline[edge].input_index << " (point " << outline[edge].input_index << " to point "
       << outline[(edge + 1) % outline.size()].input_index << ")";
  return text.str();
}

/// The corner of the outline at position i, as the directions to its two neighbours.
struct Corner {
  Vec2 to_previous;
  Vec2 to_next;
};

/// Angle of a direction in [0, 2 pi).
double direction_angle(Vec2 direction) {
  const double angle = std::atan2(double(direction.y), double(direction.x));
  return angle < 0 ? angle + 2 * 3.14159265358979323846 : angle;
}

/// True when the two corners, which meet at one point, interleave: going round the point, their
/// edges alternate, so the outline passes through itself there.
bool corners_interleave(const Corner& first, const Corner& second) {
  std::array<std::pair<double, int>, 4> around = {{{direction_angle(first.to_previous), 0},
                                                   {direction_angle(first.to_next), 0},
                                                   {direction_angle(second.to_previous), 1},
                                                   {direction_angle(second.to_next), 1}}};
  std::sort(around.begin(), around.end());
  return around[0].second != around[1].second && around[1].second != around[2].second && around[2].second != around[3].second;
}

/// Twice the signed area of a ring of points.
double twice_signed_area(const std::vector<Vec2>& points, const std::vector<int>& ring) {
  double sum = 0;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const Vec2 p = points[ring[i]], q = points[ring[(i + 1) % ring.size()]];
    sum += double(p.x) * double(q.y) - double(q.x) * double(p.y);
  }
  return sum;
}

/// Even-odd test: is p strictly inside the ring? (Points on the ring give either answer.)
bool inside_ring(const std::vector<Vec2>& points, const std::vector<int>& ring, Vec2 p) {
  bool inside = false;
  for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
    const Vec2 a = points[ring[i]], b = points[ring[j]];
    if ((a.y > p.y) != (b.y > p.y)) {
      const double x = double(a.x) + (double(p.y) - double(a.y)) * (double(b.x) - double(a.x)) / (double(b.y) - double(a.y));
      if (double(p.x) < x) inside = !inside;
    }
  }
  return inside;
}

using Triangle = std::array<int, 3>;

/// Ear clipping of a counter-clockwise simple ring; appends triangles. False when no ear can be
/// found (only possible when round-off makes a nearly degenerate ring look self-touching).
bool clip_ears(const std::vector<Vec2>& points, const std::vector<int>& ring, std::vector<Triangle>& triangles) {
  const int count = static_cast<int>(ring.size());
  std::vector<int> next(count), previous(count);
  for (int i = 0; i < count; ++i) {
    next[i] = (i + 1) % count;
    previous[i] = (i + count - 1) % count;
  }
  auto at = [&](int position) { return points[ring[position]]; };
  auto is_reflex_or_flat = [&](int position) { return orientation(at(previous[position]), at(position), at(next[position])) <= 0; };
  int remaining = count, current = 0, misses = 0;
  while (remaining > 3) {
    if (misses > remaining) return false;
    const int before = previous[current], after = next[current];
    const Vec2 u = at(before), v = at(current), w = at(after);
    const int turn = orientation(u, v, w);
    bool ear = turn > 0;
    for (int other = next[after]; ear && other != before; other = next[other]) {
      const Vec2 p = at(other);
      if (p == u || p == v || p == w || !is_reflex_or_flat(other)) continue;
      ear = !(orientation(u, v, p) >= 0 && orientation(v, w, p) >= 0 && orientation(w, u, p) >= 0);
    }
    if (ear || (turn == 0 && dot(v - u, w - v) > 0)) {  // an ear, or a straight corner left by earlier clips
      if (ear) triangles.push_back({ring[before], ring[current], ring[after]});
      next[before] = after;
      previous[after] = before;
      --remaining;
      current = before;
      misses = 0;
    } else {
      current = after;
      ++misses;
    }
  }
  const int after = next[current], before = previous[current];
  if (orientation(at(before), at(current), at(after)) > 0) triangles.push_back({ring[before], ring[current], ring[after]});
  return true;
}

/// Hertel–Mehlhorn: merges triangles across their shared edges while the result stays convex.
std::vector<std::vector<int>> merge_convex(const std::vector<Vec2>& points, const std::vector<Triangle>& triangles) {
  std::vector<std::vector<int>> pieces;
  pieces.reserve(triangles.size());
  std::map<std::pair<int, int>, int> owner;  // directed edge -> triangle holding it
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    pieces.push_back({triangles[t][0], triangles[t][1], triangles[t][2]});
    for (int k = 0; k < 3; ++k) owner[{triangles[t][k], triangles[t][(k + 1) % 3]}] = static_cast<int>(t);
  }
  std::vector<int> parent(triangles.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](int piece) {
    while (parent[piece] != piece) piece = parent[piece] = parent[parent[piece]];
    return piece;
  };
  auto position_of_edge = [](const std::vector<int>& piece, int from, int to) {
    for (std::size_t i = 0; i < piece.size(); ++i) {
      if (piece[i] == from && piece[(i + 1) % piece.size()] == to) return static_cast<int>(i);
    }
    return -1;
  };
  for (const auto& [edge, first_triangle] : owner) {
    const auto [u, w] = edge;
    if (u > w) continue;  // each shared edge once, from its smaller end
    const auto twin = owner.find({w, u});
    if (twin == owner.end()) continue;  // an outline edge
    const int a = root(first_triangle), b = root(twin->second);
    if (a == b) continue;
    // Piece a holds u -> w, piece b holds w -> u. Rotate a to run w ... u and b to run u ... w.
    std::vector<int>& piece_a = pieces[a];
    std::vector<int>& piece_b = pieces[b];
    const int in_a = position_of_edge(piece_a, u, w), in_b = position_of_edge(piece_b, w, u);
    if (in_a < 0 || in_b < 0) continue;
    std::rotate(piece_a.begin(), piece_a.begin() + (in_a + 1) % piece_a.size(), piece_a.end());  // w ... u
    std::rotate(piece_b.begin(), piece_b.begin() + (in_b + 1) % piece_b.size(), piece_b.end());  // u ... w
    // Merged: w, (a's inner), u, (b's inner). Corners at u and w must stay convex.
    const Vec2 before_u = points[piece_a[piece_a.size() - 2]], after_u = points[piece_b[1]];
    const Vec2 before_w = points[piece_b[piece_b.size() - 2]], after_w = points[piece_a[1]];
    if (orientation(before_u, points[u], after_u) < 0 || orientation(before_w, points[w], after_w) < 0) continue;
    piece_a.insert(piece_a.end(), piece_b.begin() + 1, piece_b.end() - 1);
    piece_b.clear();
    parent[b] = a;
  }
  std::vector<std::vector<int>> merged;
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    if (root(static_cast<int>(p)) == static_cast<int>(p)) merged.push_back(std::move(pieces[p]));
  }
  return merged;
}

/// The outline after cleaning, and the welding tolerance of its coordinates.
struct CleanOutline {
  std::vector<OutlineVertex> outline;
  Real tolerance = 0;
};

/// Stage 1: refuses outlines over decompose_point_limit, non-finite points and points beyond
/// coordinate_limit; welds consecutive points within the welding tolerance;
/// drops points lying straight between their neighbours (an edge folding straight back is a
/// self-intersection).
Result<CleanOutline> clean_outline(std::span<const Vec2> input) {
  if (input.size() > static_cast<std::size_t>(decompose_point_limit)) {
    return refuse(ShapeErrorKind::too_many_points, -1,
                  "the outline has " + std::to_string(input.size()) + " points; a concave outline may have at most " +
                      std::to_string(decompose_point_limit) + " (decompose_point_limit)");
  }
  Real scale = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    if (!is_finite(input[i])) return refuse(ShapeErrorKind::non_finite, static_cast<int>(i), "point " + std::to_string(i) + " is not finite");
    if (!within_coordinate_limit(input[i])) {
      return refuse(ShapeErrorKind::out_of_range, static_cast<int>(i), "point " + std::to_string(i) + " is beyond " + coordinate_limit_text());
    }
    scale = std::max(scale, coordinate_magnitude(input[i]));
  }
  const Real tolerance = weld_tolerance(scale);
  auto same_point = [&](Vec2 p, Vec2 q) { return std::abs(p.x - q.x) <= tolerance && std::abs(p.y - q.y) <= tolerance; };

  std::vector<OutlineVertex> outline;
  for (std::size_t i = 0; i < input.size(); ++i) {
    if (outline.empty() || !same_point(outline.back().point, input[i])) outline.push_back({input[i], static_cast<int>(i)});
  }
  while (outline.size() > 1 && same_point(outline.back().point, outline.front().point)) outline.pop_back();
  if (outline.size() < 3) {
    return refuse(ShapeErrorKind::too_few_points, -1,
                  "the outline has " + std::to_string(outline.size()) + " distinct points; at least 3 are needed");
  }
  const bool all_collinear = std::all_of(outline.begin(), outline.end(), [&](const OutlineVertex& vertex) {
    return orientation(outline[0].point, outline[1].point, vertex.point) == 0;
  });
  if (all_collinear) return refuse(ShapeErrorKind::zero_area, -1, "the outline's points are collinear: it encloses no area");
  for (bool changed = true; changed && outline.size() >= 3;) {
    changed = false;
    for (std::size_t i = 0; i < outline.size() && outline.size() >= 3; ++i) {
      const std::size_t n = outline.size();
      const Vec2 a = outline[(i + n - 1) % n].point, b = outline[i].point, c = outline[(i + 1) % n].point;
      if (orientation(a, b, c) != 0) continue;
      if (dot(b - a, c - b) < 0) {
        return refuse(ShapeErrorKind::self_intersecting, outline[i].input_index,
                      "the outline crosses itself: " + edge_name(outline, (i + n - 1) % n) + " folds back onto " + edge_name(outline, i));
      }
      outline.erase(outline.begin() + static_cast<std::ptrdiff_t>(i));
      changed = true;
      --i;
    }
  }
  if (outline.size() < 3) return refuse(ShapeErrorKind::zero_area, -1, "the outline's points are collinear: it encloses no area");
  return CleanOutline{std::move(outline), tolerance};
}

/// Stage 2: refuses crossing edges and edges running along each other, naming both; inserts a
/// point resting on another edge into that edge, so every touch becomes two visits of one point.
std::optional<ShapeError> insert_resting_points(std::vector<OutlineVertex>& outline, Real tolerance) {
  auto same_point = [&](Vec2 p, Vec2 q) { return std::abs(p.x - q.x) <= tolerance && std::abs(p.y - q.y) <= tolerance; };
  const std::size_t n = outline.size();
  for (std::size_t i = 0; i < n; ++i) {  // snap points that nearly coincide onto the earlier one
    for (std::size_t j = i + 1; j < n; ++j) {
      if (outline[j].point != outline[i].point && same_point(outline[j].point, outline[i].point)) outline[j].point = outline[i].point;
    }
  }
  std::vector<std::vector<OutlineVertex>> resting_on(n);  // points to insert into each edge
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      const Vec2 a = outline[i].point, b = outline[(i + 1) % n].point, c = outline[j].point, d = outline[(j + 1) % n].point;
      const bool adjacent = j == i + 1 || (i == 0 && j == n - 1);
      const int o1 = orientation(a, b, c), o2 = orientation(a, b, d), o3 = orientation(c, d, a), o4 = orientation(c, d, b);
      if (!adjacent && o1 * o2 < 0 && o3 * o4 < 0) {
        return refuse(ShapeErrorKind::self_intersecting, outline[i].input_index,
                      "the outline crosses itself: " + edge_name(outline, i) + " crosses " + edge_name(outline, j));
      }
      if (o1 == 0 && o2 == 0) {  // on one line: overlapping stretches run along each other
        const Vec2 direction = b - a;
        const double a0 = 0, a1 = double(dot(direction, direction));
        const double c0 = double(dot(direction, c - a)), c1 = double(dot(direction, d - a));
        if (std::min(a1, std::max(c0, c1)) - std::max(a0, std::min(c0, c1)) > 0) {
          return refuse(ShapeErrorKind::self_intersecting, outline[i].input_index,
                        "the outline runs along itself: " + edge_name(outline, i) + " overlaps " + edge_name(outline, j));
        }
      }
      if (adjacent) continue;
      if (o1 == 0 && strictly_between(a, b, c)) resting_on[i].push_back(outline[j]);
      if (o3 == 0 && strictly_between(c, d, a)) resting_on[j].push_back(outline[i]);
    }
  }
  std::vector<OutlineVertex> split_outline;
  for (std::size_t i = 0; i < n; ++i) {
    const int edge_start = outline[i].input_index, edge_end = outline[(i + 1) % n].input_index;
    split_outline.push_back({outline[i].point, edge_start, edge_start, edge_end});
    std::vector<OutlineVertex>& extra = resting_on[i];
    const Vec2 start = outline[i].point;
    std::sort(extra.begin(), extra.end(), [&](const OutlineVertex& p, const OutlineVertex& q) {
      return length_squared(p.point - start) < length_squared(q.point - start);
    });
    for (const OutlineVertex& resting : extra) split_outline.push_back({resting.point, resting.input_index, edge_start, edge_end});
  }
  outline = std::move(split_outline);
  return std::nullopt;

}

/// The outline's points and the parts it splits into (each counter-clockwise, as indices).
struct Parts {
  std::vector<Vec2> points;
  std::vector<int> input_of;  // the input point each point came from
  std::vector<std::vector<int>> rings;
};

/// Stage 3: where the outline visits a point twice, the corners there must not interleave (a
/// crossing through the point); the outline is split there into parts (a stack walk pops a part
/// each time a point comes round again), each turned counter-clockwise; a part inside another is
/// a hole, refused.
Result<Parts> split_into_parts(const std::vector<OutlineVertex>& outline) {
  const std::size_t n = outline.size();
  std::map<std::pair<Real, Real>, std::vector<std::size_t>> visits;
  for (std::size_t i = 0; i < n; ++i) visits[{outline[i].point.x, outline[i].point.y}].push_back(i);
  auto corner_at = [&](std::size_t i) {
    return Corner{outline[(i + n - 1) % n].point - outline[i].point, outline[(i + 1) % n].point - outline[i].point};
  };
  for (const auto& [point, at] : visits) {
    for (std::size_t p = 0; p < at.size(); ++p) {
      for (std::size_t q = p + 1; q < at.size(); ++q) {
        if (corners_interleave(corner_at(at[p]), corner_at(at[q]))) {
          // Name the point, and the edge passing through it: the one it rests on when one visit is a
          // point inserted into an edge, else the edge arriving at its second visit.
          const OutlineVertex& first = outline[at[p]];
          const OutlineVertex& second = outline[at[q]];
          const bool first_inserted = first.edge_start != first.input_index, second_inserted = second.edge_start != second.input_index;
          const OutlineVertex& passing = first_inserted ? first : second_inserted ? second : outline[(at[q] + n - 1) % n];
          return refuse(ShapeErrorKind::self_intersecting, first.input_index,
                        "the outline crosses itself at point " + std::to_string(first.input_index) + ": " + input_edge_name(passing) +
                            " passes through it");
        }
      }
    }
  }
  std::vector<Vec2> points;
  std::vector<int> input_of;
  for (const OutlineVertex& vertex : outline) {
    points.push_back(vertex.point);
    input_of.push_back(vertex.input_index);
  }
  std::vector<std::vector<int>> parts;
  std::vector<int> stack;
  std::map<std::pair<Real, Real>, std::size_t> place_in_stack;
  for (int i = 0; i < static_cast<int>(n); ++i) {
    const std::pair<Real, Real> key{points[i].x, points[i].y};
    const auto seen = place_in_stack.find(key);
    if (seen == place_in_stack.end()) {
      place_in_stack[key] = stack.size();
      stack.push_back(i);
      continue;
    }
    const std::size_t start = seen->second;
    parts.emplace_back(stack.begin() + static_cast<std::ptrdiff_t>(start), stack.end());
    for (std::size_t k = start + 1; k < stack.size(); ++k) place_in_stack.erase({points[stack[k]].x, points[stack[k]].y});
    stack.resize(start + 1);
  }
  parts.push_back(stack);
  for (std::vector<int>& part : parts) {
    if (part.size() < 3 || twice_signed_area(points, part) == 0) {
      return refuse(ShapeErrorKind::zero_area, input_of[part.front()],
                    "the part of the outline starting at point " + std::to_string(input_of[part.front()]) + " encloses no area");
    }
    if (twice_signed_area(points, part) < 0) std::reverse(part.begin(), part.end());
  }
  for (std::size_t outer = 0; outer < parts.size(); ++outer) {
    for (std::size_t inner = 0; inner < parts.size(); ++inner) {
      if (outer == inner) continue;
      const Vec2 probe = Real(0.5) * (points[parts[inner][0]] + points[parts[inner][1]]);
      if (inside_ring(points, parts[outer], probe)) {
        return refuse(ShapeErrorKind::has_hole, input_of[parts[inner][0]],
                      "the outline encloses a hole (the part through point " + std::to_string(input_of[parts[inner][0]]) +
                          " lies inside another part); holes are not supported");
      }
    }
  }
  return Parts{std::move(points), std::move(input_of), std::move(parts)};
}

/// Stages 4 and 5: each part is triangulated by ear clipping, then Hertel–Mehlhorn merging
/// removes every cut whose two ends stay convex without it; slivers are counted, not kept.
Result<Decomposition> cut_into_pieces(const Parts& split) {
  const std::vector<Vec2>& points = split.points;
  const std::vector<int>& input_of = split.input_of;
  Decomposition decomposition;
  decomposition.parts = static_cast<int>(split.rings.size());
  for (const std::vector<int>& part : split.rings) {
    for (std::size_t i = 0; i < part.size(); ++i) {
      const Vec2 a = points[part[(i + part.size() - 1) % part.size()]], b = points[part[i]], c = points[part[(i + 1) % part.size()]];
      if (orientation(a, b, c) < 0) ++decomposition.reflex_vertices;
    }
    std::vector<Triangle> triangles;
    if (!clip_ears(points, part, triangles)) {
      return refuse(ShapeErrorKind::self_intersecting, input_of[part.front()],
                    "the outline is too nearly self-touching near point " + std::to_string(input_of[part.front()]) + " to be cut into convex pieces");
    }
    for (const std::vector<int>& piece : merge_convex(points, triangles)) {
      std::vector<Vec2> corners;
      for (int vertex : piece) corners.push_back(points[vertex]);
      Result<Polygon> polygon = make_polygon(corners);
      if (polygon) {
        decomposition.pieces.push_back(std::move(polygon).value());
      } else if (polygon.error().kind == ShapeErrorKind::zero_area || polygon.error().kind == ShapeErrorKind::too_few_points) {
        // A sliver thinner than the welding tolerance: left out, and counted with its area.
        ++decomposition.slivers;
        double twice_area = 0;
        for (std::size_t i = 0; i < corners.size(); ++i) twice_area += double(cross(corners[i], corners[(i + 1) % corners.size()]));
        decomposition.sliver_area += static_cast<Real>(std::abs(twice_area) / 2);
      } else {
        return polygon.error();  // anything else is a bug worth reporting
      }
    }
  }
  return decomposition;
}

}  // namespace

Result<Decomposition> decompose(std::span<const Vec2> input) {
  Result<CleanOutline> cleaned = clean_outline(input);
  if (!cleaned) return cleaned.error();
  CleanOutline clean = std::move(cleaned).value();
  if (const std::optional<ShapeError> refusal = insert_resting_points(clean.outline, clean.tolerance)) return *refusal;
  Result<Parts> split = split_into_parts(clean.outline);
  if (!split) return split.error();
  return cut_into_pieces(split.value());
}

Result<Shape> shape_from_outline(std::span<const Vec2> outline, Real radius) {
  Result<Polygon> polygon = make_polygon(outline, radius);
  if (polygon) return Shape(std::move(polygon).value());
  const ShapeErrorKind kind = polygon.error().kind;
  if (kind != ShapeErrorKind::not_convex && kind != ShapeErrorKind::zero_area) return polygon.error();
  Result<Decomposition> decomposition = decompose(outline);
  if (!decomposition) return decomposition.error();
  if (radius != 0) {
    return refuse(ShapeErrorKind::not_convex, polygon.error().index,
                  "the outline is concave; rounding a concave outline (radius > 0) is not supported");
  }
  std::vector<Polygon> pieces = std::move(decomposition).value().pieces;
  if (pieces.empty()) {
    return refuse(ShapeErrorKind::zero_area, -1,
                  "the outline encloses no area: every piece is thinner than the welding tolerance of its coordinates");
  }
  if (pieces.size() == 1) return Shape(std::move(pieces.front()));
  std::vector<CompoundChild> children;
  children.reserve(pieces.size());
  for (Polygon& piece : pieces) children.push_back({std::move(piece), Transform{}});
  Result<Compound> compound = make_compound(std::move(children));
  if (!compound) return compound.error();
  return Shape(std::move(compound).value());
}

}  // namespace collide2d
