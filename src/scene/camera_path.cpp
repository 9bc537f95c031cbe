// A scene's motion over time: the camera (a still pose, a path through keys, or an orbit) and a
// transform's spin and bob. Both are evaluated on the host once per frame (docs/design/scene.md).
#include <algorithm>
#include <cmath>

#include "scene/scene.hpp"

namespace mote::scene {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Uniform Catmull-Rom (Catmull & Rom 1974, "A class of local interpolating splines"; the
// tension-1/2 cardinal form): the curve passes through p1 at u = 0 and p2 at u = 1 with tangents
// (p2 - p0) / 2 and (p3 - p1) / 2.
template <typename T>
T catmull_rom(const T& p0, const T& p1, const T& p2, const T& p3, float u) {
  const float u2 = u * u;
  const float u3 = u2 * u;
  return 0.5f * ((2.0f * p1) + (p2 - p0) * u + (2.0f * p0 - 5.0f * p1 + 4.0f * p2 - p3) * u2 +
                 (3.0f * p1 - p0 - 3.0f * p2 + p3) * u3);
}

// Degrees turned after `seconds` at `rate`, reduced modulo 360 in double so a long render does
// not lose the angle's precision.
double turned_degrees(float rate, float seconds) { return std::fmod(double(rate) * double(seconds), 360.0); }

void evaluate_keys(const Camera& camera, float time, CameraPose& pose) {
  const std::vector<CameraKey>& keys = camera.keys;
  // Hold before the first key and after the last; a NaN time holds the first key.
  if (!(time > keys.front().time) || keys.size() == 1) {
    pose.position = keys.front().position;
    pose.target = keys.front().target;
    pose.fov_y_degrees = keys.front().fov_y_degrees;
    return;
  }
  if (time >= keys.back().time) {
    pose.position = keys.back().position;
    pose.target = keys.back().target;
    pose.fov_y_degrees = keys.back().fov_y_degrees;
    return;
  }
  // keys[i].time <= time < keys[i + 1].time
  const auto after = std::upper_bound(keys.begin(), keys.end(), time,
                                      [](float t, const CameraKey& k) { return t < k.time; });
  const size_t i = size_t(after - keys.begin()) - 1;
  const CameraKey& k1 = keys[i];
  const CameraKey& k2 = keys[i + 1];
  const float u = std::clamp((time - k1.time) / (k2.time - k1.time), 0.0f, 1.0f);
  if (camera.interpolation == CameraInterpolation::kLinear) {
    pose.position = glm::mix(k1.position, k2.position, u);
    pose.target = glm::mix(k1.target, k2.target, u);
    pose.fov_y_degrees = k1.fov_y_degrees + (k2.fov_y_degrees - k1.fov_y_degrees) * u;
    return;
  }
  // The end keys are duplicated: the missing neighbour of the first and last segments is the
  // segment's own end key.
  const CameraKey& k0 = i > 0 ? keys[i - 1] : k1;
  const CameraKey& k3 = i + 2 < keys.size() ? keys[i + 2] : k2;
  pose.position = catmull_rom(k0.position, k1.position, k2.position, k3.position, u);
  pose.target = catmull_rom(k0.target, k1.target, k2.target, k3.target, u);
  // The spline can overshoot between keys; keep the field of view a valid one.
  pose.fov_y_degrees =
      std::clamp(catmull_rom(k0.fov_y_degrees, k1.fov_y_degrees, k2.fov_y_degrees, k3.fov_y_degrees, u), 1.0f, 179.0f);
}

}  // namespace

CameraPose evaluate_camera(const Camera& camera, float time) {
  CameraPose pose;
  pose.near_plane = camera.near_plane;
  pose.far_plane = camera.far_plane;
  if (!camera.keys.empty()) {  // keys win should a hand-built Camera carry an orbit too
    evaluate_keys(camera, time, pose);
  } else if (camera.orbit) {
    const CameraOrbit& o = *camera.orbit;
    // 0 degrees = +Z; positive angles turn counter-clockwise seen from +Y (towards +X first),
    // which is a rotation about +Y by the angle.
    const double a = (double(o.start_degrees) + turned_degrees(o.degrees_per_second, time)) * (kPi / 180.0);
    pose.position = o.center +
                    glm::vec3(float(double(o.radius) * std::sin(a)), o.height, float(double(o.radius) * std::cos(a)));
    pose.target = o.center + glm::vec3(0.0f, o.target_height, 0.0f);
    pose.fov_y_degrees = camera.still.fov_y_degrees;
  } else {
    pose.position = camera.still.position;
    pose.target = camera.still.target;
    pose.fov_y_degrees = camera.still.fov_y_degrees;
  }
  return pose;
}

LocalPose evaluate_transform(const Transform& transform, float time) {
  LocalPose pose;
  pose.position = transform.position;
  pose.rotation = transform.rotation;
  pose.scale = transform.scale;
  // The spin turns the base rotation about spin_axis, an axis of the parent's frame through the
  // transform's own origin: rotation = spin(t) * base. The position does not move with it.
  const float axis_length = glm::length(transform.spin_axis);
  if (transform.spin_degrees_per_second != 0.0f && axis_length > 0.0f) {
    const double radians = turned_degrees(transform.spin_degrees_per_second, time) * (kPi / 180.0);
    const glm::quat spin = glm::angleAxis(float(radians), transform.spin_axis / axis_length);
    pose.rotation = glm::normalize(spin * transform.rotation);
  }
  // The bob moves the position along the parent's +Y.
  if (transform.bob_amplitude != 0.0f && transform.bob_hz != 0.0f) {
    const double cycles = std::fmod(double(transform.bob_hz) * double(time), 1.0);
    pose.position.y += float(double(transform.bob_amplitude) * std::sin(2.0 * kPi * cycles));
  }
  return pose;
}

}  // namespace mote::scene
