// drawing.hpp — what the demo draws, as plain data: colours, the camera, draw items and shape outlines.
//
// Outline: Colour and the palette (the SVG pictures' colours from io/src/svg.cpp, plus the red
// and green boxes); Camera (world units with y up <-> window pixels with y down, pan and zoom);
// the draw items (filled convex polygons, polylines, arrows, dots, texts, text panels) gathered
// in a DrawList in painting order; outlines of shapes as point lists; the grid with unit labels.
// Nothing here knows about a window: the SFML program only turns a DrawList into draw calls.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "collide2d/shapes.hpp"

namespace collide2d::demo {

/// An 8-bit RGBA colour; alpha 255 is opaque.
struct Colour {
  std::uint8_t red = 0;     ///< red channel
  std::uint8_t green = 0;   ///< green channel
  std::uint8_t blue = 0;    ///< blue channel
  std::uint8_t alpha = 255; ///< opacity, 0 transparent to 255 opaque
  friend constexpr bool operator==(Colour, Colour) = default;
};

/// The colour `colour` painted over `below` (which is opaque), as source-over blending does it.
Colour painted_over(Colour colour, Colour below);

/// The demo's colours: the SVG pictures' (io/src/svg.cpp) wherever they mean the same thing.
namespace palette {
inline constexpr Colour background{255, 255, 255};          ///< window background (the pictures' white)
inline constexpr Colour grid{232, 235, 238};                ///< grid lines
inline constexpr Colour axis{0x9a, 0xa0, 0xa6};             ///< the world axes (svg: axis colour)
inline constexpr Colour grid_label{110, 116, 122};          ///< unit labels of the grid
inline constexpr Colour text{25, 25, 25};                   ///< panel text
inline constexpr Colour panel{255, 255, 255, 225};          ///< panel background
inline constexpr Colour panel_border{160, 166, 172};        ///< panel outline
inline constexpr Colour red_box{0xe7, 0x4c, 0x3c, 160};     ///< view 1: the red box's fill
inline constexpr Colour red_box_outline{0xa9, 0x32, 0x26};  ///< view 1: the red box's outline
inline constexpr Colour green_box{0x27, 0xae, 0x60, 160};   ///< view 1: the green box's fill
inline constexpr Colour green_box_outline{0x1e, 0x84, 0x49};///< view 1: the green box's outline
inline constexpr Colour overlap{0xf4, 0xa6, 0xa6, 160};     ///< fill of an overlapping body (svg: #f4a6a6)
inline constexpr Colour overlap_outline{0xc0, 0x39, 0x2b};  ///< outline of an overlapping body (svg: #c0392b)
inline constexpr Colour touching{0xf9, 0xd7, 0x9b, 160};    ///< fill of a touching body (svg: #f9d79b)
inline constexpr Colour touching_outline{0xd6, 0x89, 0x10}; ///< outline of a touching body (svg: #d68910)
inline constexpr Colour apart{0xcf, 0xe3, 0xf5, 160};       ///< fill of a body apart from all others (svg: #cfe3f5)
inline constexpr Colour apart_outline{0x2c, 0x6f, 0xad};    ///< outline of a body apart from all others (svg: #2c6fad)
inline constexpr Colour normal_arrow{0x6c, 0x34, 0x83};     ///< normal a to b, length = depth; view 1's penetration arrow (svg: #6c3483)
inline constexpr Colour contact{0x11, 0x11, 0x11};          ///< contact points (svg: #111)
inline constexpr Colour difference{0xd6, 0xea, 0xf8};       ///< the Minkowski difference's fill (svg: #d6eaf8), opaque
inline constexpr Colour difference_outline{0x1f, 0x61, 0x8d};///< its outline (svg: #1f618d)
inline constexpr Colour vertex_difference{0x7f, 0x8c, 0x8d};///< the differences b - a of core vertices (svg: #7f8c8d)
inline constexpr Colour origin{0, 0, 0};                    ///< the origin marker (svg: #000)
inline constexpr Colour gjk{0x27, 0xae, 0x60};              ///< GJK simplices (svg: #27ae60)
inline constexpr Colour epa{0xe6, 0x7e, 0x22};              ///< EPA polytopes (svg: #e67e22)
inline constexpr Colour penetration_vector{0xc0, 0x39, 0x2b};///< -depth * normal on the difference (svg: #c0392b)
inline constexpr Colour sat_axis{0x8e, 0x44, 0xad};         ///< the SAT axis being tried
inline constexpr Colour mover{0xa9, 0xdf, 0xbf, 217};       ///< view 3: the character's fill (svg move picture: #a9dfbf at 0.85)
inline constexpr Colour mover_outline{0x1e, 0x84, 0x49};    ///< view 3: the character's outline (svg move picture: #1e8449)
inline constexpr Colour path{0xc0, 0x39, 0x2b, 120};        ///< view 3: the character's recent trail (svg move picture's path: #c0392b, faint)
}  // namespace palette

/// A point in window pixels, x to the right and y down from the top-left corner.
struct ScreenPoint {
  double x = 0;  ///< pixels from the left edge
  double y = 0;  ///< pixels from the top edge
};

/// Which part of the world the window shows: world units with y up, centred on `center`.
struct Camera {
  Vec2 center;                   ///< world point at the middle of the window
  double pixels_per_unit = 60;   ///< zoom: window pixels per world length unit
  int width = 1200;              ///< window width in pixels
  int height = 800;              ///< window height in pixels

  /// Where a world point appears in the window.
  ScreenPoint to_screen(Vec2 world) const;
  /// The world point under a window pixel.
  Vec2 to_world(ScreenPoint screen) const;
  /// Moves the view by a drag of (dx, dy) pixels: the world follows the mouse.
  void pan_pixels(double dx, double dy);
  /// Zooms by `factor` (> 1 closer) keeping the world point under `screen` in place; the zoom stays within [2, 5000] pixels per unit.
  void zoom_at(ScreenPoint screen, double factor);
  /// Centres the camera on `box` and zooms so that it fills about 70% of the window.
  void fit(const Aabb& box);
};

/// Whether a text's position is a world point or window pixels.
enum class Anchor { world, screen };

/// A filled convex polygon (world points, any winding).
struct FilledPolygon {
  std::vector<Vec2> points;  ///< the corners, world units
  Colour fill;               ///< fill colour
};

/// A line through world points, `width_pixels` wide.
struct Polyline {
  std::vector<Vec2> points;    ///< world points
  bool closed = false;         ///< joins the last point back to the first
  Colour colour;               ///< stroke colour
  double width_pixels = 1;     ///< stroke width in pixels
};

/// A line from `from` to `to` with an arrow head at `to` (whose size is in pixels).
struct Arrow {
  Vec2 from;                 ///< tail, world
  Vec2 to;                   ///< tip, world
  Colour colour;             ///< colour of the shaft and head
  double width_pixels = 2;   ///< shaft width in pixels
};

/// A disc of `radius_pixels` around a world point.
struct Dot {
  Vec2 at;                    ///< centre, world
  double radius_pixels = 3;   ///< radius in pixels
  Colour colour;              ///< fill colour
};

/// One line of text with its top-left corner at (x, y), offset by pixels.
struct Text {
  std::string content;            ///< the text (UTF-8, one line)
  Anchor anchor = Anchor::world;  ///< what (x, y) is
  double x = 0;                   ///< world x or pixels from the left
  double y = 0;                   ///< world y or pixels from the top
  double offset_x_pixels = 0;     ///< moved right by this many pixels
  double offset_y_pixels = 0;     ///< moved down by this many pixels
  unsigned size_pixels = 14;      ///< character size in pixels
  Colour colour = palette::text;  ///< text colour
};

/// A box of text lines on a background, placed in window pixels; its size follows the text.
struct Panel {
  std::vector<std::string> lines;  ///< the lines, top to bottom
  double x = 0;                    ///< pixels from the left edge (negative: from the right edge)
  double y = 0;                    ///< pixels from the top edge (negative: from the bottom edge)
  unsigned size_pixels = 14;       ///< character size in pixels
};

/// Any draw item.
using DrawItem = std::variant<FilledPolygon, Polyline, Arrow, Dot, Text, Panel>;

/// Everything one frame shows, in painting order (later items over earlier ones).
struct DrawList {
  std::vector<DrawItem> items;  ///< the items in painting order
  /// Appends an item (built in place, one of DrawItem's alternatives).
  template <class Item>
  void add(Item item) {
    items.emplace_back(std::in_place_type<Item>, std::move(item));
  }
};

/// The outline of a core (points in counter-clockwise order: one point, a segment's two ends or
/// a convex polygon) swept by `radius`, as a convex polygon; rounding arcs get a point every
/// 7.5 degrees at most. A radius of 0 gives the core itself.
std::vector<Vec2> rounded_outline(std::span<const Vec2> core, Real radius);

/// The core points of a convex shape in its local frame, counter-clockwise (a circle's centre,
/// a segment's or capsule's ends, a polygon's vertices).
std::vector<Vec2> core_points(const ConvexShape& shape);

/// The world outline of a convex shape placed by `transform` (rounding included).
std::vector<Vec2> shape_outline(const ConvexShape& shape, const Transform& transform);

/// Draws a shape: its fill (each convex piece of a compound), then its outline; a compound's
/// seams (internal edges) faintly. A segment, having no area, is drawn as a thick line.
void draw_shape(DrawList& list, const Shape& shape, const Transform& transform, Colour fill, Colour outline, double outline_pixels = 2);

/// The grid behind every view: lines 1, 2 or 5 times a power of ten apart (at least 40 pixels),
/// the world axes darker, and unit labels along the bottom and right edges.
void draw_grid(DrawList& list, const Camera& camera);

/// A number as text with up to `significant` significant digits and never "-0" (e.g. "0.25", "-1.5").
std::string format_number(Real value, int significant = 3);

/// A vector as text: "(x, y)".
std::string format_vector(Vec2 value, int significant = 3);

}  // namespace collide2d::demo
