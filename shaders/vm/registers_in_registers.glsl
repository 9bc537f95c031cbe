// The fast interpreter's register file in registers: kVmFastRegisterSlots (64) named floats,
// reached through a switch on the slot. NVIDIA's compiler puts any dynamically indexed private
// array in local memory (the plain fast file, vm_fast_registers[], lives there: ~130 us per VM
// instruction over 16M particles on the H200), but every slot an instruction names is the same
// for the whole wave (one program per dispatch, the instruction broadcast), so a switch on it is
// a uniform indirect branch and the value never leaves the register file. A source is read as
// the four slots from its base at once (one switch) and swizzled with uniform selects; a result
// is written with one switch. Slots wrap at kVmFastRegisterSlots as the array file's mask does.
#define VM_RF_DECLARE(n) float vm_rf##n;
#define VM_RF_ZERO(n) vm_rf##n = 0.0f;
#define VM_RF_READ4(n, n1, n2, n3) \
  case n: return vec4(vm_rf##n, vm_rf##n1, vm_rf##n2, vm_rf##n3);
#define VM_RF_WRITE(n, n1, n2, n3) \
  case n:                          \
    vm_rf##n = v.x;                \
    if (count > 1u) vm_rf##n1 = v.y; \
    if (count > 2u) vm_rf##n2 = v.z; \
    if (count > 3u) vm_rf##n3 = v.w; \
    break;

VM_RF_DECLARE(0) VM_RF_DECLARE(1) VM_RF_DECLARE(2) VM_RF_DECLARE(3) VM_RF_DECLARE(4) VM_RF_DECLARE(5) VM_RF_DECLARE(6) VM_RF_DECLARE(7)
VM_RF_DECLARE(8) VM_RF_DECLARE(9) VM_RF_DECLARE(10) VM_RF_DECLARE(11) VM_RF_DECLARE(12) VM_RF_DECLARE(13) VM_RF_DECLARE(14) VM_RF_DECLARE(15)
VM_RF_DECLARE(16) VM_RF_DECLARE(17) VM_RF_DECLARE(18) VM_RF_DECLARE(19) VM_RF_DECLARE(20) VM_RF_DECLARE(21) VM_RF_DECLARE(22) VM_RF_DECLARE(23)
VM_RF_DECLARE(24) VM_RF_DECLARE(25) VM_RF_DECLARE(26) VM_RF_DECLARE(27) VM_RF_DECLARE(28) VM_RF_DECLARE(29) VM_RF_DECLARE(30) VM_RF_DECLARE(31)
VM_RF_DECLARE(32) VM_RF_DECLARE(33) VM_RF_DECLARE(34) VM_RF_DECLARE(35) VM_RF_DECLARE(36) VM_RF_DECLARE(37) VM_RF_DECLARE(38) VM_RF_DECLARE(39)
VM_RF_DECLARE(40) VM_RF_DECLARE(41) VM_RF_DECLARE(42) VM_RF_DECLARE(43) VM_RF_DECLARE(44) VM_RF_DECLARE(45) VM_RF_DECLARE(46) VM_RF_DECLARE(47)
VM_RF_DECLARE(48) VM_RF_DECLARE(49) VM_RF_DECLARE(50) VM_RF_DECLARE(51) VM_RF_DECLARE(52) VM_RF_DECLARE(53) VM_RF_DECLARE(54) VM_RF_DECLARE(55)
VM_RF_DECLARE(56) VM_RF_DECLARE(57) VM_RF_DECLARE(58) VM_RF_DECLARE(59) VM_RF_DECLARE(60) VM_RF_DECLARE(61) VM_RF_DECLARE(62) VM_RF_DECLARE(63)

void vm_clear_registers() {
  VM_RF_ZERO(0) VM_RF_ZERO(1) VM_RF_ZERO(2) VM_RF_ZERO(3) VM_RF_ZERO(4) VM_RF_ZERO(5) VM_RF_ZERO(6) VM_RF_ZERO(7)
  VM_RF_ZERO(8) VM_RF_ZERO(9) VM_RF_ZERO(10) VM_RF_ZERO(11) VM_RF_ZERO(12) VM_RF_ZERO(13) VM_RF_ZERO(14) VM_RF_ZERO(15)
  VM_RF_ZERO(16) VM_RF_ZERO(17) VM_RF_ZERO(18) VM_RF_ZERO(19) VM_RF_ZERO(20) VM_RF_ZERO(21) VM_RF_ZERO(22) VM_RF_ZERO(23)
  VM_RF_ZERO(24) VM_RF_ZERO(25) VM_RF_ZERO(26) VM_RF_ZERO(27) VM_RF_ZERO(28) VM_RF_ZERO(29) VM_RF_ZERO(30) VM_RF_ZERO(31)
  VM_RF_ZERO(32) VM_RF_ZERO(33) VM_RF_ZERO(34) VM_RF_ZERO(35) VM_RF_ZERO(36) VM_RF_ZERO(37) VM_RF_ZERO(38) VM_RF_ZERO(39)
  VM_RF_ZERO(40) VM_RF_ZERO(41) VM_RF_ZERO(42) VM_RF_ZERO(43) VM_RF_ZERO(44) VM_RF_ZERO(45) VM_RF_ZERO(46) VM_RF_ZERO(47)
  VM_RF_ZERO(48) VM_RF_ZERO(49) VM_RF_ZERO(50) VM_RF_ZERO(51) VM_RF_ZERO(52) VM_RF_ZERO(53) VM_RF_ZERO(54) VM_RF_ZERO(55)
  VM_RF_ZERO(56) VM_RF_ZERO(57) VM_RF_ZERO(58) VM_RF_ZERO(59) VM_RF_ZERO(60) VM_RF_ZERO(61) VM_RF_ZERO(62) VM_RF_ZERO(63)
}

// Slots base .. base + 3 (wrapping).
vec4 vm_reg_read4(uint base) {
  switch (int(base & (kVmFastRegisterSlots - 1u))) {
    VM_RF_READ4(0, 1, 2, 3)
    VM_RF_READ4(1, 2, 3, 4)
    VM_RF_READ4(2, 3, 4, 5)
    VM_RF_READ4(3, 4, 5, 6)
    VM_RF_READ4(4, 5, 6, 7)
    VM_RF_READ4(5, 6, 7, 8)
    VM_RF_READ4(6, 7, 8, 9)
    VM_RF_READ4(7, 8, 9, 10)
    VM_RF_READ4(8, 9, 10, 11)
    VM_RF_READ4(9, 10, 11, 12)
    VM_RF_READ4(10, 11, 12, 13)
    VM_RF_READ4(11, 12, 13, 14)
    VM_RF_READ4(12, 13, 14, 15)
    VM_RF_READ4(13, 14, 15, 16)
    VM_RF_READ4(14, 15, 16, 17)
    VM_RF_READ4(15, 16, 17, 18)
    VM_RF_READ4(16, 17, 18, 19)
    VM_RF_READ4(17, 18, 19, 20)
    VM_RF_READ4(18, 19, 20, 21)
    VM_RF_READ4(19, 20, 21, 22)
    VM_RF_READ4(20, 21, 22, 23)
    VM_RF_READ4(21, 22, 23, 24)
    VM_RF_READ4(22, 23, 24, 25)
    VM_RF_READ4(23, 24, 25, 26)
    VM_RF_READ4(24, 25, 26, 27)
    VM_RF_READ4(25, 26, 27, 28)
    VM_RF_READ4(26, 27, 28, 29)
    VM_RF_READ4(27, 28, 29, 30)
    VM_RF_READ4(28, 29, 30, 31)
    VM_RF_READ4(29, 30, 31, 32)
    VM_RF_READ4(30, 31, 32, 33)
    VM_RF_READ4(31, 32, 33, 34)
    VM_RF_READ4(32, 33, 34, 35)
    VM_RF_READ4(33, 34, 35, 36)
    VM_RF_READ4(34, 35, 36, 37)
    VM_RF_READ4(35, 36, 37, 38)
    VM_RF_READ4(36, 37, 38, 39)
    VM_RF_READ4(37, 38, 39, 40)
    VM_RF_READ4(38, 39, 40, 41)
    VM_RF_READ4(39, 40, 41, 42)
    VM_RF_READ4(40, 41, 42, 43)
    VM_RF_READ4(41, 42, 43, 44)
    VM_RF_READ4(42, 43, 44, 45)
    VM_RF_READ4(43, 44, 45, 46)
    VM_RF_READ4(44, 45, 46, 47)
    VM_RF_READ4(45, 46, 47, 48)
    VM_RF_READ4(46, 47, 48, 49)
    VM_RF_READ4(47, 48, 49, 50)
    VM_RF_READ4(48, 49, 50, 51)
    VM_RF_READ4(49, 50, 51, 52)
    VM_RF_READ4(50, 51, 52, 53)
    VM_RF_READ4(51, 52, 53, 54)
    VM_RF_READ4(52, 53, 54, 55)
    VM_RF_READ4(53, 54, 55, 56)
    VM_RF_READ4(54, 55, 56, 57)
    VM_RF_READ4(55, 56, 57, 58)
    VM_RF_READ4(56, 57, 58, 59)
    VM_RF_READ4(57, 58, 59, 60)
    VM_RF_READ4(58, 59, 60, 61)
    VM_RF_READ4(59, 60, 61, 62)
    VM_RF_READ4(60, 61, 62, 63)
    VM_RF_READ4(61, 62, 63, 0)
    VM_RF_READ4(62, 63, 0, 1)
    VM_RF_READ4(63, 0, 1, 2)
    default: return vec4(0.0f);
  }
}

// The first `count` lanes of v to slots dst .. dst + count - 1 (wrapping).
void vm_reg_write4(uint dst, vec4 v, uint count) {
  switch (int(dst & (kVmFastRegisterSlots - 1u))) {
    VM_RF_WRITE(0, 1, 2, 3)
    VM_RF_WRITE(1, 2, 3, 4)
    VM_RF_WRITE(2, 3, 4, 5)
    VM_RF_WRITE(3, 4, 5, 6)
    VM_RF_WRITE(4, 5, 6, 7)
    VM_RF_WRITE(5, 6, 7, 8)
    VM_RF_WRITE(6, 7, 8, 9)
    VM_RF_WRITE(7, 8, 9, 10)
    VM_RF_WRITE(8, 9, 10, 11)
    VM_RF_WRITE(9, 10, 11, 12)
    VM_RF_WRITE(10, 11, 12, 13)
    VM_RF_WRITE(11, 12, 13, 14)
    VM_RF_WRITE(12, 13, 14, 15)
    VM_RF_WRITE(13, 14, 15, 16)
    VM_RF_WRITE(14, 15, 16, 17)
    VM_RF_WRITE(15, 16, 17, 18)
    VM_RF_WRITE(16, 17, 18, 19)
    VM_RF_WRITE(17, 18, 19, 20)
    VM_RF_WRITE(18, 19, 20, 21)
    VM_RF_WRITE(19, 20, 21, 22)
    VM_RF_WRITE(20, 21, 22, 23)
    VM_RF_WRITE(21, 22, 23, 24)
    VM_RF_WRITE(22, 23, 24, 25)
    VM_RF_WRITE(23, 24, 25, 26)
    VM_RF_WRITE(24, 25, 26, 27)
    VM_RF_WRITE(25, 26, 27, 28)
    VM_RF_WRITE(26, 27, 28, 29)
    VM_RF_WRITE(27, 28, 29, 30)
    VM_RF_WRITE(28, 29, 30, 31)
    VM_RF_WRITE(29, 30, 31, 32)
    VM_RF_WRITE(30, 31, 32, 33)
    VM_RF_WRITE(31, 32, 33, 34)
    VM_RF_WRITE(32, 33, 34, 35)
    VM_RF_WRITE(33, 34, 35, 36)
    VM_RF_WRITE(34, 35, 36, 37)
    VM_RF_WRITE(35, 36, 37, 38)
    VM_RF_WRITE(36, 37, 38, 39)
    VM_RF_WRITE(37, 38, 39, 40)
    VM_RF_WRITE(38, 39, 40, 41)
    VM_RF_WRITE(39, 40, 41, 42)
    VM_RF_WRITE(40, 41, 42, 43)
    VM_RF_WRITE(41, 42, 43, 44)
    VM_RF_WRITE(42, 43, 44, 45)
    VM_RF_WRITE(43, 44, 45, 46)
    VM_RF_WRITE(44, 45, 46, 47)
    VM_RF_WRITE(45, 46, 47, 48)
    VM_RF_WRITE(46, 47, 48, 49)
    VM_RF_WRITE(47, 48, 49, 50)
    VM_RF_WRITE(48, 49, 50, 51)
    VM_RF_WRITE(49, 50, 51, 52)
    VM_RF_WRITE(50, 51, 52, 53)
    VM_RF_WRITE(51, 52, 53, 54)
    VM_RF_WRITE(52, 53, 54, 55)
    VM_RF_WRITE(53, 54, 55, 56)
    VM_RF_WRITE(54, 55, 56, 57)
    VM_RF_WRITE(55, 56, 57, 58)
    VM_RF_WRITE(56, 57, 58, 59)
    VM_RF_WRITE(57, 58, 59, 60)
    VM_RF_WRITE(58, 59, 60, 61)
    VM_RF_WRITE(59, 60, 61, 62)
    VM_RF_WRITE(60, 61, 62, 63)
    VM_RF_WRITE(61, 62, 63, 0)
    VM_RF_WRITE(62, 63, 0, 1)
    VM_RF_WRITE(63, 0, 1, 2)
    default: break;
  }
}
