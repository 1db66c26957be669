// Several criteria at once: done when any of them is; the first one done gives the reason.
#pragma once
#include <memory>
#include <vector>

#include "criterion.h"

namespace kopt {

class AnyOf : public Criterion {
 public:
  explicit AnyOf(std::vector<std::unique_ptr<Criterion>> parts) : parts_(std::move(parts)) {}
  void add(double sample_us, double elapsed_s) override {
    for (auto& c : parts_) c->add(sample_us, elapsed_s);
  }
  bool done() const override { return first_done() != nullptr; }
  std::string reason() const override {
    const Criterion* c = first_done();
    return c ? c->reason() : "";
  }

 private:
  const Criterion* first_done() const {
    for (const auto& c : parts_)
      if (c->done()) return c.get();
    return nullptr;
  }
  std::vector<std::unique_ptr<Criterion>> parts_;
};

}  // namespace kopt
