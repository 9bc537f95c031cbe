#include "test_executors.hpp"

namespace mote::test {

std::unique_ptr<Executor> make_executor_for_test(std::string_view name) {
  if (name == "reference") return make_reference_executor();
  if (name == "batch") return make_batch_executor();
  return nullptr;
}

std::vector<std::string> parity_executor_names() { return {"batch"}; }
std::vector<std::string> program_parity_executor_names() { return {"batch"}; }

}  // namespace mote::test
