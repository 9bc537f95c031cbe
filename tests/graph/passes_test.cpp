// The compiler passes one by one: folding, CSE, DCE, register allocation, constant interning,
// determinism.
#include <gtest/gtest.h>

#include <bit>
#include <functional>

#include <nlohmann/json.hpp>

#include "builder.hpp"
#include "graph_test_util.hpp"
#include "mote/effect.hpp"
#include "mote/mfx.hpp"
#include "passes.hpp"

using namespace mote::graph;
using mote::isa::Op;

namespace {

ValueRef load(IrBuilder& b, uint32_t offset, uint8_t w) { return b.op(Op::LOAD_FIELD, w, {Src::raw(offset)}); }

TEST(Fold, ConstantArithmeticEmitsNothing) {
  IrFunction fn;
  IrBuilder b(fn);
  ValueRef x = b.op(Op::ADD, 1, {b.scalar(2.0f), b.scalar(3.0f)});
  ValueRef y = b.op(Op::SQRT, 1, {b.op(Op::MUL, 1, {x, x})});
  EXPECT_TRUE(fn.code.empty());
  ASSERT_TRUE(b.constant_of(y));
  EXPECT_EQ((*b.constant_of(y))[0], 5.0f);
  // Safe-math rules are the VM's: DIV by zero folds to 0.
  EXPECT_EQ((*b.constant_of(b.op(Op::DIV, 1, {b.scalar(1.0f), b.scalar(0.0f)})))[0], 0.0f);
}

TEST(Fold, NonConstantInputIsNotFolded) {
  IrFunction fn;
  IrBuilder b(fn);
  b.op(Op::ADD, 1, {load(b, 1, 1), b.scalar(1.0f)});
  EXPECT_EQ(fn.code.size(), 2u);
}

TEST(Cse, IdenticalPureInstructionsAreShared) {
  IrFunction fn;
  IrBuilder b(fn);
  ValueRef a1 = load(b, 1, 3);
  ValueRef a2 = load(b, 1, 3);
  EXPECT_EQ(a1, a2);
  ValueRef s1 = b.op(Op::ADD, 3, {a1, b.scalar(1.0f)});
  ValueRef s2 = b.op(Op::ADD, 3, {a2, b.scalar(1.0f)});
  EXPECT_EQ(s1, s2);
  EXPECT_EQ(fn.code.size(), 2u);
}

TEST(Cse, RandomDrawsAreNeverShared) {
  IrFunction fn;
  IrBuilder b(fn);
  ValueRef r1 = b.op(Op::RAND, 1, {Src::raw(0)});
  ValueRef r2 = b.op(Op::RAND, 1, {Src::raw(0)});
  EXPECT_NE(r1.id, r2.id);
}

TEST(Dce, RemovesWhatNoSinkReads) {
  IrFunction fn;
  IrBuilder b(fn);
  ValueRef a = load(b, 1, 1);
  b.op(Op::SIN, 1, {a});  // dead
  ValueRef c = b.op(Op::COS, 1, {a});
  b.sink(Op::STORE_FIELD, 1, {Src::raw(2), c});
  EXPECT_EQ(eliminate_dead_code(fn), 1u);
  ASSERT_EQ(fn.code.size(), 3u);
  EXPECT_EQ(fn.code[1].op, Op::COS);
}

TEST(RegAlloc, NoLiveOverlapAndDeadSlotsAreReused) {
  IrFunction fn;
  IrBuilder b(fn);
  ValueRef a = load(b, 1, 3);                          // 0: a live 0..1
  ValueRef s = b.op(Op::ADD, 3, {a, b.scalar(1.0f)});  // 1: a dies here
  ValueRef t = b.op(Op::MUL, 3, {s, s});               // 2: s dies here
  ValueRef u = b.op(Op::MUL, 3, {t, s.width == 3 ? t : t});
  b.sink(Op::STORE_FIELD, 3, {Src::raw(1), u});
  auto r = allocate_registers(fn);
  ASSERT_TRUE(r.ok());
  const auto& slot = r->slot;
  // a and s are live together at instruction 1: disjoint; t reuses a's dead slots.
  EXPECT_TRUE(slot[a.id] + 3 <= slot[s.id] || slot[s.id] + 3 <= slot[a.id]);
  EXPECT_EQ(slot[t.id], slot[a.id]);
  EXPECT_LE(r->register_count, 6u);
}

TEST(ConstPool, DeduplicatesAndPacks) {
  IrFunction fn;
  IrBuilder b(fn);
  ValueRef x = load(b, 1, 2);
  ValueRef c1 = b.op(Op::ADD, 2, {x, b.constant({1, 2, 0, 0}, 2)});
  ValueRef c2 = b.op(Op::MUL, 2, {c1, b.constant({1, 2, 0, 0}, 2)});
  ValueRef c3 = b.op(Op::SUB, 2, {c2, b.constant({3, 4, 0, 0}, 2)});
  b.sink(Op::STORE_FIELD, 2, {Src::raw(1), c3});
  IrFunction* fns[] = {&fn};
  auto pool = intern_constants(fns);
  ASSERT_TRUE(pool.ok());
  ASSERT_EQ(pool->size(), 4u);  // (1, 2) once, (3, 4) packed into the same vec4
  EXPECT_EQ(std::bit_cast<float>((*pool)[0]), 1.0f);
  EXPECT_EQ(std::bit_cast<float>((*pool)[3]), 4.0f);
}

TEST(ConstPool, SplatVectorsAreImmediates) {
  IrFunction fn;
  IrBuilder b(fn);
  b.sink(Op::STORE_FIELD, 3, {Src::raw(1), b.constant({2, 2, 2, 0}, 3)});
  EXPECT_EQ(fn.code.size(), 1u);
  EXPECT_EQ(fn.code[0].src[1].kind, IrOperand::Kind::kImm);
}

TEST(Determinism, SameBytesTwiceAndAfterKeyReordering) {
  const std::string a = read_text(std::string(MOTE_GRAPH_GOLDEN_DIR) + "/fountain.json");
  auto r1 = mote::compile_effect(a);
  auto r2 = mote::compile_effect(a);
  ASSERT_TRUE(r1.ok()) << r1.error().to_string();
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(mote::save_mfx(r1->program), mote::save_mfx(r2->program));
  // The same document with its object keys in reverse order.
  auto j = nlohmann::json::parse(a);
  std::function<std::string(const nlohmann::json&)> dump_reversed = [&](const nlohmann::json& v) -> std::string {
    if (v.is_object()) {
      std::vector<std::string> parts;
      for (auto it = v.begin(); it != v.end(); ++it)
        parts.push_back(nlohmann::json(it.key()).dump() + ":" + dump_reversed(it.value()));
      std::string s = "{";
      for (size_t i = parts.size(); i-- > 0;) s += parts[i] + (i ? "," : "");
      return s + "}";
    }
    if (v.is_array()) {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + dump_reversed(v[i]);
      return s + "]";
    }
    return v.dump();
  };
  const std::string reordered = dump_reversed(j);
  ASSERT_NE(reordered, j.dump());
  auto r3 = mote::compile_effect(reordered);
  ASSERT_TRUE(r3.ok()) << r3.error().to_string();
  EXPECT_EQ(mote::save_mfx(r1->program), mote::save_mfx(r3->program));
}

}  // namespace
