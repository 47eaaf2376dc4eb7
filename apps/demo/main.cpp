// main.cpp — the collide2d demo window: a thin SFML layer over the window-free model (model/).
//
// Outline: the command line (parse_options; errors to stderr with exit code 2); the scene for
// view 5; SFML key codes to the model's keys; Painter, which turns a DrawList into SFML draw
// calls (thick lines as quads, convex fills as triangle fans, arrows, dots, texts, panels);
// the frame loop: events or the key script in, one 1/60 s update, paint, and with --frames the
// last frame saved as a PNG.
#include <SFML/Graphics.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "collide2d/io/scene.hpp"
#include "model/options.hpp"
#include "model/views.hpp"

namespace {

using namespace collide2d;
using namespace collide2d::demo;

constexpr int exit_error = 2;
constexpr unsigned window_width = 1200;
constexpr unsigned window_height = 800;
constexpr Real frame_seconds = Real(1) / 60;

/// The SFML key codes of each model key (a key may have two, such as + on the keypad).
struct KeyBinding {
  sf::Keyboard::Key code;
  Key key;
};
constexpr KeyBinding key_bindings[] = {
    {sf::Keyboard::Left, Key::left},   {sf::Keyboard::Right, Key::right},     {sf::Keyboard::Up, Key::up},
    {sf::Keyboard::Down, Key::down},   {sf::Keyboard::A, Key::a},             {sf::Keyboard::D, Key::d},
    {sf::Keyboard::S, Key::s},         {sf::Keyboard::W, Key::w},             {sf::Keyboard::I, Key::i},
    {sf::Keyboard::O, Key::o},         {sf::Keyboard::P, Key::p},             {sf::Keyboard::N, Key::n},
    {sf::Keyboard::B, Key::b},         {sf::Keyboard::G, Key::g},             {sf::Keyboard::E, Key::e},
    {sf::Keyboard::T, Key::t},         {sf::Keyboard::Z, Key::z},             {sf::Keyboard::C, Key::c},
    {sf::Keyboard::M, Key::m},         {sf::Keyboard::R, Key::r},             {sf::Keyboard::Space, Key::space},
    {sf::Keyboard::H, Key::h},         {sf::Keyboard::Add, Key::plus},        {sf::Keyboard::Equal, Key::plus},
    {sf::Keyboard::Subtract, Key::minus}, {sf::Keyboard::Hyphen, Key::minus}, {sf::Keyboard::Num1, Key::view_1},
    {sf::Keyboard::Numpad1, Key::view_1}, {sf::Keyboard::Num2, Key::view_2},  {sf::Keyboard::Numpad2, Key::view_2},
    {sf::Keyboard::Num3, Key::view_3}, {sf::Keyboard::Numpad3, Key::view_3},  {sf::Keyboard::Num4, Key::view_4},
    {sf::Keyboard::Numpad4, Key::view_4}, {sf::Keyboard::Num5, Key::view_5},  {sf::Keyboard::Numpad5, Key::view_5},
};

std::optional<Key> key_of(sf::Keyboard::Key code) {
  for (const KeyBinding& binding : key_bindings) {
    if (binding.code == code) return binding.key;
  }
  return std::nullopt;
}

/// The model keys held down now (each once).
std::vector<Key> held_keys() {
  std::vector<Key> held;
  for (const KeyBinding& binding : key_bindings) {
    if (sf::Keyboard::isKeyPressed(binding.code) && std::find(held.begin(), held.end(), binding.key) == held.end()) {
      held.push_back(binding.key);
    }
  }
  return held;
}

sf::Color colour_of(Colour colour) { return {colour.red, colour.green, colour.blue, colour.alpha}; }

sf::Vector2f to_pixels(ScreenPoint point) { return {static_cast<float>(point.x), static_cast<float>(point.y)}; }

/// Paints draw lists onto a render target through a camera.
class Painter {
 public:
  Painter(sf::RenderTarget& target, const sf::Font* font) : target_(target), font_(font) {}

  void paint(const DrawList& list, const Camera& camera) {
    camera_ = &camera;
    for (const DrawItem& item : list.items) std::visit([&](const auto& concrete) { paint_item(concrete); }, item);
  }

 private:
  sf::Vector2f screen(Vec2 world) const { return to_pixels(camera_->to_screen(world)); }

  /// A straight stroke between two pixels, `width` wide, with square caps of half the width so joined strokes leave no gaps.
  void stroke(sf::VertexArray& quads, sf::Vector2f from, sf::Vector2f to, float width, sf::Color colour) const {
    sf::Vector2f along = to - from;
    const float length = std::hypot(along.x, along.y);
    if (length < 1e-6f) return;
    along /= length;
    const sf::Vector2f across(-along.y * width / 2, along.x * width / 2);
    const sf::Vector2f cap = width > 1.5f ? along * (width / 2) : sf::Vector2f();
    from -= cap;
    to += cap;
    for (sf::Vector2f corner : {from + across, to + across, to - across, from - across}) quads.append(sf::Vertex(corner, colour));
  }

  void paint_item(const FilledPolygon& polygon) {
    if (polygon.points.size() < 3) return;
    sf::VertexArray fan(sf::TriangleFan);
    for (Vec2 point : polygon.points) fan.append(sf::Vertex(screen(point), colour_of(polygon.fill)));
    target_.draw(fan);
  }

  void paint_item(const Polyline& line) {
    sf::VertexArray quads(sf::Quads);
    const std::size_t count = line.points.size();
    for (std::size_t i = 0; i + 1 < count + (line.closed ? 1 : 0); ++i) {
      stroke(quads, screen(line.points[i]), screen(line.points[(i + 1) % count]), static_cast<float>(line.width_pixels), colour_of(line.colour));
    }
    target_.draw(quads);
  }

  void paint_item(const Arrow& arrow) {
    const sf::Vector2f from = screen(arrow.from), to = screen(arrow.to);
    sf::Vector2f along = to - from;
    const float length = std::hypot(along.x, along.y);
    if (length < 1e-6f) return;
    along /= length;
    const float width = static_cast<float>(arrow.width_pixels), head = 6 + 2.5f * width;
    const sf::Vector2f across(-along.y, along.x);
    sf::VertexArray quads(sf::Quads);
    if (length > head) stroke(quads, from, to - along * head, width, colour_of(arrow.colour));
    target_.draw(quads);
    sf::VertexArray triangle(sf::Triangles);
    for (sf::Vector2f corner : {to, to - along * head + across * (head / 2), to - along * head - across * (head / 2)}) {
      triangle.append(sf::Vertex(corner, colour_of(arrow.colour)));
    }
    target_.draw(triangle);
  }

  void paint_item(const Dot& dot) {
    const float radius = static_cast<float>(dot.radius_pixels);
    sf::CircleShape circle(radius, 24);
    circle.setOrigin(radius, radius);
    circle.setPosition(screen(dot.at));
    circle.setFillColor(colour_of(dot.colour));
    target_.draw(circle);
  }

  void paint_item(const Text& text) {
    if (font_ == nullptr) return;
    const ScreenPoint at = text.anchor == Anchor::world ? camera_->to_screen({static_cast<Real>(text.x), static_cast<Real>(text.y)})
                                                        : ScreenPoint{text.x, text.y};
    sf::Text drawn(sf::String::fromUtf8(text.content.begin(), text.content.end()), *font_, text.size_pixels);
    drawn.setFillColor(colour_of(text.colour));
    drawn.setPosition(std::round(static_cast<float>(at.x + text.offset_x_pixels)), std::round(static_cast<float>(at.y + text.offset_y_pixels)));
    target_.draw(drawn);
  }

  void paint_item(const Panel& panel) {
    if (font_ == nullptr || panel.lines.empty()) return;
    const float line_height = font_->getLineSpacing(panel.size_pixels), padding = 8;
    float width = 0;
    std::vector<sf::Text> lines;
    for (const std::string& line : panel.lines) {
      sf::Text& drawn = lines.emplace_back(sf::String::fromUtf8(line.begin(), line.end()), *font_, panel.size_pixels);
      drawn.setFillColor(colour_of(palette::text));
      width = std::max(width, drawn.getLocalBounds().left + drawn.getLocalBounds().width);
    }
    const sf::Vector2f size(width + 2 * padding, line_height * static_cast<float>(lines.size()) + 2 * padding);
    const sf::Vector2u target_size = target_.getSize();
    const float left = panel.x >= 0 ? static_cast<float>(panel.x) : static_cast<float>(target_size.x) + static_cast<float>(panel.x) - size.x;
    const float top = panel.y >= 0 ? static_cast<float>(panel.y) : static_cast<float>(target_size.y) + static_cast<float>(panel.y) - size.y;
    sf::RectangleShape background(size);
    background.setPosition(left, top);
    background.setFillColor(colour_of(palette::panel));
    background.setOutlineColor(colour_of(palette::panel_border));
    background.setOutlineThickness(1);
    target_.draw(background);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      lines[i].setPosition(std::round(left + padding), std::round(top + padding + line_height * static_cast<float>(i)));
      target_.draw(lines[i]);
    }
  }

  sf::RenderTarget& target_;
  const sf::Font* font_;
  const Camera* camera_ = nullptr;
};

/// The first font found of the ones Debian's fonts-dejavu-core installs.
bool load_font(sf::Font& font) {
  for (const char* path : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
                           "/usr/share/fonts/dejavu/DejaVuSans.ttf"}) {
    if (std::filesystem::exists(path) && font.loadFromFile(path)) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> arguments(argv + 1, argv + argc);
  Result<Options, OptionsError> parsed = parse_options(arguments);
  if (!parsed) {
    std::cerr << "error: " << parsed.error().message << "\nrun 'collide2d-demo --help' for usage\n";
    return exit_error;
  }
  const Options options = std::move(parsed).value();
  if (options.help) {
    std::cout << usage();
    return 0;
  }

  // View 5's scene: --scene, else the shipped mixed scene when it is where the build found it.
  std::optional<SceneView> scene;
  std::string scene_path = options.scene_path;
#ifdef COLLIDE2D_DEMO_DEFAULT_SCENE
  if (scene_path.empty() && std::filesystem::exists(COLLIDE2D_DEMO_DEFAULT_SCENE)) scene_path = COLLIDE2D_DEMO_DEFAULT_SCENE;
#endif
  if (!scene_path.empty()) {
    Result<io::Scene, io::LoadError> loaded = io::load_scene(scene_path);
    if (!loaded) {
      std::cerr << "error: " << loaded.error().message << "\n";
      return exit_error;
    }
    scene.emplace(std::move(loaded).value(), std::filesystem::path(scene_path).filename().string());
  }

  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') {
    std::cerr << "error: no display (DISPLAY is not set); to run without one, use xvfb-run -a collide2d-demo --frames N ...\n";
    return exit_error;
  }

  Demo demo(options.view, std::move(scene), static_cast<int>(window_width), static_cast<int>(window_height));
  demo.boxes().set_push_out(options.push_out);

  sf::RenderWindow window(sf::VideoMode(window_width, window_height), "collide2d demo", sf::Style::Default);
  if (!window.isOpen()) {
    std::cerr << "error: could not open a window\n";
    return exit_error;
  }
  const bool scripted = options.frames > 0;
  window.setKeyRepeatEnabled(false);
  if (!scripted) window.setFramerateLimit(60);
  sf::Font font;
  const bool has_font = load_font(font);
  if (!has_font) std::cerr << "warning: no DejaVuSans.ttf found (Debian: fonts-dejavu-core); drawing without text\n";
  Painter painter(window, has_font ? &font : nullptr);

  int frame = 0;
  while (window.isOpen()) {
    sf::Event event;
    while (window.pollEvent(event)) {
      if (event.type == sf::Event::Closed) window.close();
      if (event.type == sf::Event::Resized) {
        window.setView(sf::View(sf::FloatRect(0, 0, static_cast<float>(event.size.width), static_cast<float>(event.size.height))));
        demo.resize(static_cast<int>(event.size.width), static_cast<int>(event.size.height));
      }
      if (scripted) continue;  // a script alone drives a --frames run
      if (event.type == sf::Event::KeyPressed) {
        if (event.key.code == sf::Keyboard::Escape) window.close();
        if (const std::optional<Key> key = key_of(event.key.code)) demo.key_pressed(*key);
      } else if (event.type == sf::Event::MouseButtonPressed || event.type == sf::Event::MouseButtonReleased) {
        const MouseButton button = event.mouseButton.button == sf::Mouse::Left    ? MouseButton::left
                                   : event.mouseButton.button == sf::Mouse::Right ? MouseButton::right
                                                                                  : MouseButton::middle;
        if (event.type == sf::Event::MouseButtonPressed) {
          demo.mouse_pressed(button, {double(event.mouseButton.x), double(event.mouseButton.y)});
        } else {
          demo.mouse_released(button);
        }
      } else if (event.type == sf::Event::MouseMoved) {
        demo.mouse_moved({double(event.mouseMove.x), double(event.mouseMove.y)});
      } else if (event.type == sf::Event::MouseWheelScrolled && event.mouseWheelScroll.wheel == sf::Mouse::VerticalWheel) {
        demo.wheel(double(event.mouseWheelScroll.delta), {double(event.mouseWheelScroll.x), double(event.mouseWheelScroll.y)});
      }
    }
    if (!window.isOpen()) break;

    std::vector<Key> held;
    if (scripted) {
      const ScriptFrame keys = options.keys.at(frame);
      for (Key key : keys.pressed) demo.key_pressed(key);
      held = keys.held;
    } else if (window.hasFocus()) {
      held = held_keys();
    }
    demo.update(held, frame_seconds);

    window.clear(colour_of(palette::background));
    painter.paint(demo.draw(), demo.camera());
    ++frame;
    if (scripted && frame >= options.frames) {
      if (!options.screenshot.empty()) {
        sf::Texture texture;
        if (!texture.create(window.getSize().x, window.getSize().y)) {
          std::cerr << "error: could not capture the window\n";
          return exit_error;
        }
        texture.update(window);
        if (!texture.copyToImage().saveToFile(options.screenshot)) {
          std::cerr << "error: cannot write " << options.screenshot << "\n";
          return exit_error;
        }
      }
      window.close();
      break;
    }
    window.display();
  }
  return 0;
}
