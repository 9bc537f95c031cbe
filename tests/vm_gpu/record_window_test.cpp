// The record window (src/vm_gpu/record_window.hpp): which 4-word chunks of a record a section's
// field accesses touch, as every GPU executor stages them. Hand-checked cases, including the
// clamps the shaders apply to operands that got past no verifier.
#include <gtest/gtest.h>

#include <bit>

#include "../../bench/update_program.hpp"
#include "vm_gpu/record_window.hpp"

namespace mote::test {
namespace {

using isa::Op;
namespace b = mote::bench;

Program fields_program(std::vector<Instruction> update) {
  Program p;
  p.register_count = 8;
  p.update = std::move(update);
  return p;
}

TEST(RecordWindow, TheBenchmarkProgramStagesItsFirstSixtyFourBytes) {
  // Loads words 1..8, stores 1..13: chunks 0..3, all four written back.
  const RecordWindow w = record_window(b::make_update_program(), Section::kUpdate, 32);
  EXPECT_EQ(w.first_chunk, 0u);
  EXPECT_EQ(w.chunks, 4u);
  EXPECT_EQ(w.dirty_mask, 0xFu);
}

TEST(RecordWindow, OnlyStoredChunksAreDirty) {
  // A load of words 9..11 (chunk 2) and a store of word 20 (chunk 5): chunks 2..5, dirty 5 only.
  const Program p = fields_program({b::ins(Op::LOAD_FIELD, 3, 0, b::raw(9)),
                                    b::ins(Op::STORE_FIELD, 1, 0, b::raw(20), b::reg(0))});
  const RecordWindow w = record_window(p, Section::kUpdate, 32);
  EXPECT_EQ(w.first_chunk, 2u);
  EXPECT_EQ(w.chunks, 4u);
  EXPECT_EQ(w.dirty_mask, 1u << 3);
}

TEST(RecordWindow, NoWindowWithoutFieldsOrForAnOddStrideOrAWideSpan) {
  const Program none = fields_program({b::ins(Op::MOV, 1, 0, b::imm(1.0f))});
  EXPECT_EQ(record_window(none, Section::kUpdate, 32).chunks, 0u);
  const Program p = fields_program({b::ins(Op::LOAD_FIELD, 1, 0, b::raw(1))});
  EXPECT_EQ(record_window(p, Section::kUpdate, 30).chunks, 0u) << "16-byte chunks need a stride of 4k words";
  EXPECT_EQ(record_window(p, Section::kUpdate, 32).chunks, 1u);
  // Words 0 and 40 span 11 chunks, more than kVmMaxWindowChunks: word by word.
  const Program wide = fields_program({b::ins(Op::LOAD_FIELD, 1, 0, b::raw(0)),
                                       b::ins(Op::LOAD_FIELD, 1, 1, b::raw(40))});
  EXPECT_EQ(record_window(wide, Section::kUpdate, 64).chunks, 0u);
  // The other section has its own window.
  EXPECT_EQ(record_window(p, Section::kInit, 32).chunks, 0u);
}

TEST(RecordWindow, OperandsAreClampedAsTheShadersClampThem) {
  // Past the record: the last word. At 2^32 - 1 + lane: the 32-bit sum wraps to 0..2, which the
  // shaders then use as it is.
  const Program past = fields_program({b::ins(Op::STORE_FIELD, 2, 0, b::raw(1000), b::reg(0))});
  RecordWindow w = record_window(past, Section::kUpdate, 16);
  EXPECT_EQ(w.first_chunk, 3u);
  EXPECT_EQ(w.chunks, 1u);
  EXPECT_EQ(w.dirty_mask, 1u);
  const Program wraps = fields_program({b::ins(Op::LOAD_FIELD, 4, 0, b::raw(0xFFFFFFFFu))});
  w = record_window(wraps, Section::kUpdate, 16);
  EXPECT_EQ(w.first_chunk, 0u);
  EXPECT_EQ(w.chunks, 4u) << "words 15 (clamped) and 0..2 (wrapped)";
  EXPECT_EQ(w.dirty_mask, 0u);
}

}  // namespace
}  // namespace mote::test
