// mote/image.hpp's GifWriter over giflib (Debian libgif-dev): the encoder's low-level calls, one
// frame at a time. Each frame gets its own local colour table from GifQuantizeBuffer (median
// cut, at most 256 colours), and a graphics control extension with its delay; the NETSCAPE2.0
// application extension makes players loop it.
#include <fcntl.h>
#include <gif_lib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <cmath>
#include <string>
#include <vector>

#include "mote/image.hpp"

namespace mote {

struct GifWriter::State {
  GifFileType* file = nullptr;
  std::string path;
  uint32_t width = 0, height = 0;
  int delay_centiseconds = 4;
  uint32_t frames = 0;
};

namespace {

Error gif_error(const std::string& path, const std::string& what, int code) {
  return make_error(ErrorCode::kIo, what + ": " + GifErrorString(code), path);
}

// NETSCAPE2.0 with a loop count of 0: loop forever.
bool write_loop_extension(GifFileType* file) {
  static const GifByteType kApplication[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
  static const GifByteType kLoopForever[] = {1, 0, 0};
  return EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
         EGifPutExtensionBlock(file, sizeof(kApplication), kApplication) == GIF_OK &&
         EGifPutExtensionBlock(file, sizeof(kLoopForever), kLoopForever) == GIF_OK &&
         EGifPutExtensionTrailer(file) == GIF_OK;
}

}  // namespace

GifWriter::GifWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}

GifWriter::~GifWriter() { (void)finish(); }

Result<std::unique_ptr<GifWriter>> GifWriter::create(const std::filesystem::path& path, uint32_t width, uint32_t height,
                                                     uint32_t fps) {
  if (width == 0 || height == 0 || width > 65535 || height > 65535)
    return make_error(ErrorCode::kInvalidArgument,
                      "a GIF of " + std::to_string(width) + "x" + std::to_string(height) + " (1..65535 each way)",
                      path.string());
  if (fps == 0 || fps > 100)
    return make_error(ErrorCode::kInvalidArgument, "a GIF at " + std::to_string(fps) + " fps (1..100)", path.string());
  auto state = std::make_unique<State>();
  state->path = path.string();
  state->width = width;
  state->height = height;
  state->delay_centiseconds = std::max(1, int(std::lround(100.0 / double(fps))));
  // Opened here, not by EGifOpenFileName, which creates the file readable by its owner alone.
  const int fd = open(state->path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    return make_error(ErrorCode::kIo, std::string("cannot create the GIF: ") + std::strerror(errno), state->path);
  int error = 0;
  state->file = EGifOpenFileHandle(fd, &error);
  if (state->file == nullptr) {
    close(fd);
    return gif_error(state->path, "cannot create the GIF", error);
  }
  EGifSetGifVersion(state->file, true);  // GIF89a: the extensions need it
  std::unique_ptr<GifWriter> writer(new GifWriter(std::move(state)));
  GifFileType* file = writer->state_->file;
  if (EGifPutScreenDesc(file, int(width), int(height), 8, 0, nullptr) != GIF_OK || !write_loop_extension(file))
    return gif_error(writer->state_->path, "cannot write the GIF header", file->Error);
  return writer;
}

Status GifWriter::add_frame(const ImageRgba8& frame) {
  State& s = *state_;
  if (s.file == nullptr) return make_error(ErrorCode::kInvalidArgument, "the GIF is already finished", s.path);
  if (frame.width != s.width || frame.height != s.height || frame.pixels.size() != size_t(s.width) * s.height * 4)
    return make_error(ErrorCode::kInvalidArgument,
                      "a " + std::to_string(frame.width) + "x" + std::to_string(frame.height) + " frame for a " +
                          std::to_string(s.width) + "x" + std::to_string(s.height) + " GIF",
                      s.path);
  const size_t count = size_t(s.width) * s.height;
  std::vector<GifByteType> red(count), green(count), blue(count), indices(count);
  for (size_t i = 0; i < count; ++i) {
    red[i] = frame.pixels[i * 4 + 0];
    green[i] = frame.pixels[i * 4 + 1];
    blue[i] = frame.pixels[i * 4 + 2];
  }
  int colours = 256;
  GifColorType palette[256] = {};
  if (GifQuantizeBuffer(s.width, s.height, &colours, red.data(), green.data(), blue.data(), indices.data(), palette) !=
      GIF_OK)
    return make_error(ErrorCode::kInternal, "giflib could not quantize the frame", s.path);
  // A colour table's size is a power of two: the quantizer's colours, padded with black.
  int table = 2;
  while (table < colours) table *= 2;
  ColorMapObject* map = GifMakeMapObject(table, palette);
  if (map == nullptr) return make_error(ErrorCode::kOutOfMemory, "giflib could not make a colour map", s.path);
  GraphicsControlBlock control = {DISPOSE_DO_NOT, false, s.delay_centiseconds, NO_TRANSPARENT_COLOR};
  GifByteType extension[4];
  EGifGCBToExtension(&control, extension);
  bool ok = EGifPutExtension(s.file, GRAPHICS_EXT_FUNC_CODE, sizeof(extension), extension) == GIF_OK &&
            EGifPutImageDesc(s.file, 0, 0, int(s.width), int(s.height), false, map) == GIF_OK;
  for (uint32_t y = 0; ok && y < s.height; ++y)
    ok = EGifPutLine(s.file, indices.data() + size_t(y) * s.width, int(s.width)) == GIF_OK;
  GifFreeMapObject(map);
  if (!ok) return gif_error(s.path, "cannot write frame " + std::to_string(s.frames), s.file->Error);
  ++s.frames;
  return ok_status();
}

Status GifWriter::finish() {
  State& s = *state_;
  if (s.file == nullptr) return ok_status();
  int error = 0;
  const int closed = EGifCloseFile(s.file, &error);
  s.file = nullptr;  // closed (and freed) even when the trailer's write failed
  if (closed != GIF_OK) return gif_error(s.path, "cannot finish the GIF", error);
  return ok_status();
}

uint32_t GifWriter::frames_written() const { return state_->frames; }

}  // namespace mote
