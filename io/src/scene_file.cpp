// scene_file.cpp — load_scene: read a file whole and hand it to the parser its extension names.
#include <fstream>
#include <sstream>

#include "collide2d/io/scene.hpp"

namespace collide2d::io {

Result<Scene, LoadError> load_scene(const std::filesystem::path& path, const LoadOptions& options) {
  const std::string file = path.string();
  auto whole_file_error = [&](const std::string& message) { return LoadError{file, 0, 0, file + ":0:0: " + message}; };
  std::string extension = path.extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension != ".json" && extension != ".xml") {
    return whole_file_error("unknown scene format \"" + extension + "\" (expected a .json scene or a .xml SteerSuite test case)");
  }
  std::ifstream stream(path, std::ios::binary);
  if (!stream) return whole_file_error("cannot open the file");
  std::ostringstream contents;
  contents << stream.rdbuf();
  if (stream.bad()) return whole_file_error("cannot read the file");
  const std::string text = contents.str();
  return extension == ".json" ? parse_json_scene(text, file, options) : parse_steersuite_scene(text, file, options);
}

}  // namespace collide2d::io
