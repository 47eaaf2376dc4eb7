// collide2d/io/svg.hpp — SVG pictures of scenes, pairs and Minkowski differences.
//
// World coordinates have y up; the canvas flips them. Sizes of strokes, dots and text are in
// screen pixels, so pictures read the same at any world scale.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collide2d/algorithms.hpp"
#include "collide2d/io/pairs.hpp"
#include "collide2d/io/scene.hpp"
#include "collide2d/io/simulate.hpp"

namespace collide2d::io {

/// An SVG drawing of a rectangle of the world, with y up.
class SvgCanvas {
 public:
  /// A canvas showing `world` (grown by a margin) `width_pixels` wide; the height follows the aspect ratio.
  SvgCanvas(Aabb world, double width_pixels = 900);

  /// A closed polygon through world points.
  void polygon(std::span<const Vec2> points, std::string_view fill, std::string_view stroke, double stroke_pixels, double fill_opacity = 1);
  /// A shape placed by `transform`: circles, segments, and polygons and capsules with their rounding arcs.
  void shape(const Shape& shape, const Transform& transform, std::string_view fill, std::string_view stroke, double stroke_pixels,
             double fill_opacity = 1);
  /// A straight line between world points; `dash` is an SVG dash array such as "4 3", or empty.
  void line(Vec2 from, Vec2 to, std::string_view stroke, double stroke_pixels, std::string_view dash = {}, double opacity = 1);
  /// An open line through world points (nothing for fewer than 2); a point within half a pixel of
  /// the last one drawn is skipped, except the final point, so resting bodies cost two points.
  void polyline(std::span<const Vec2> points, std::string_view stroke, double stroke_pixels, double opacity = 1);
  /// A line with an arrow head at `to`.
  void arrow(Vec2 from, Vec2 to, std::string_view stroke, double stroke_pixels);
  /// A dot of `radius_pixels` at a world point.
  void dot(Vec2 at, double radius_pixels, std::string_view fill);
  /// Text with its baseline starting at a world point, offset by pixels.
  void text(Vec2 at, std::string_view content, double size_pixels, std::string_view fill, double dx_pixels = 0, double dy_pixels = 0);
  /// World axes through the origin (when visible), a grid-free tick scale and a scale bar.
  void axes_and_scale();
  /// A legend box in the top-left corner: one coloured swatch and label per entry.
  void legend(const std::vector<std::pair<std::string, std::string>>& colour_and_label);
  /// The finished document.
  std::string finish(std::string_view title) const;

 private:
  double screen_x(Real x) const;
  double screen_y(Real y) const;
  std::string path_of_rounded(std::span<const Vec2> core, Real radius, const Transform& transform) const;

  Aabb world_;
  double scale_;  // pixels per world unit
  double width_;
  double height_;
  std::string body_;
};

/// The `pairs --svg` picture: every body, overlapping and touching ones highlighted, contact
/// points, and normals drawn from each contact with length proportional to the depth.
std::string pairs_picture(const Scene& scene, const std::vector<PairReport>& pairs);

/// The `raycast` picture: every body, the ray (solid up to its first hit, dashed after), each
/// hit point with its surface normal.
std::string ray_picture(const Scene& scene, const Ray& ray, const std::vector<RayReport>& hits);

/// The `cast` picture: every body faint at its start, each body that touches another drawn at
/// its earliest time of impact with its path, and each contact point with its normal.
std::string impacts_picture(const Scene& scene, const std::vector<ImpactReport>& impacts, Real duration);

/// The `move` picture: every body, the mover faint at its start and solid where it ends, the
/// motion asked for (dashed), the path it took (one segment per cast-and-slide round), and each
/// hit point with the normal from the obstacle toward the mover.
std::string move_picture(const Scene& scene, int mover, Vec2 motion, const MoveResult& result);

/// The `simulate` picture: every body where the simulation left it (static, kinematic, dynamic
/// awake and asleep in their own colours), each moving body faint where it started, and the trail
/// of each moving body's centre of mass. `simulation` must come from simulate_scene(scene, ...).
std::string simulation_picture(const Scene& scene, const Simulation& simulation);

/// Everything the `minkowski` picture shows, all in body A's local frame.
struct MinkowskiPicture {
  MinkowskiDifference difference;            ///< the brute-force difference B - A
  std::vector<Simplex> gjk_simplices;        ///< GJK's simplex after each step
  std::vector<std::vector<Vec2>> epa_polytopes;  ///< EPA's polytope after each expansion (empty when apart)
  std::optional<Vec2> penetration_vector;    ///< -depth * normal, the boundary point nearest the origin, when overlapping
  /// fraction * motion of B, turned into A's frame: where the ray from the origin along B's motion
  /// leaves the difference (minkowski_exit), when a motion was given and the exit not refused.
  std::optional<Vec2> exit_point;
};

/// The `minkowski` picture: the difference's point cloud and hull (with its rounding), the
/// origin, every GJK simplex, the EPA expansions, the penetration vector and the exit along B's
/// motion, with a legend.
std::string minkowski_picture(const MinkowskiPicture& picture, std::string_view title);

/// Writes `contents` to `path` through a temporary file and a rename, so a failure never leaves
/// a half-written file. Returns an error message, or empty on success.
std::string write_file_atomically(const std::string& path, std::string_view contents);

}  // namespace collide2d::io
