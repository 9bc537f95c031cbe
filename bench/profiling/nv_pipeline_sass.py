#!/usr/bin/env python3
# The SASS NVIDIA's Vulkan driver compiled for Mote's pipelines, for reading what an interpreted
# instruction costs in machine instructions (docs/PERFORMANCE.md, "Constants read as constants",
# where this found the operand reads' address arithmetic). Nsight Compute cannot profile
# Vulkan and VK_KHR_pipeline_executable_properties gives NVIDIA's statistics only, but the
# driver's shader disk cache keeps the binaries: each entry of a GLCache .bin is a zstd frame,
# and inside the decompressed entry the code is a run of 16-byte SM90 instructions ending in
# EXIT, which nvdisasm reads raw. Not part of the build; run by hand on the H200:
#   mkdir -p /tmp/nvcache
#   __GL_SHADER_DISK_CACHE_PATH=/tmp/nvcache __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
#       ./build-gpu/bench/vm_gpu --particles 65536 --executors fast --repeats 1 --warmup-ms 0
#   python3 bench/profiling/nv_pipeline_sass.py /tmp/nvcache /tmp/sass [--zstd PATH]
# It writes one .sass per pipeline found (named by its instruction count). It needs the zstd
# command (Debian's is statically linked against libzstd: copying /usr/bin/zstd over works where
# the device machine has none) and nvdisasm (CUDA, on the device machine).
# The boundaries are found by looking, not from a documented format: the code starts after the
# last 16-byte row whose control bytes (13 and 14) are both zero before the EXIT, and ends at
# the first such row after it; if nvdisasm rejects the tail, up to 8 rows are trimmed.
import argparse
import glob
import os
import subprocess

ZSTD_MAGIC = bytes.fromhex('28b52ffd')
EXIT = bytes.fromhex('4d79000000000000')  # SM90 EXIT, low 64 bits


def is_instruction(row):
    return row[13] != 0 or row[14] != 0


def code_of(entry):
    exit_at = entry.find(EXIT)
    if exit_at < 0:
        return None
    start = exit_at
    while start - 16 >= 0 and is_instruction(entry[start - 16:start]):
        start -= 16
    end = start
    while end + 16 <= len(entry) and is_instruction(entry[end:end + 16]):
        end += 16
    return entry[start:end]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('cache')
    parser.add_argument('out')
    parser.add_argument('--zstd', default='zstd')
    parser.add_argument('--arch', default='SM90')
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    written = 0
    for path in glob.glob(os.path.join(args.cache, '**', '*.bin'), recursive=True):
        blob = open(path, 'rb').read()
        frames = []
        at = blob.find(ZSTD_MAGIC)
        while at >= 0:
            frames.append(at)
            at = blob.find(ZSTD_MAGIC, at + 1)
        for k, begin in enumerate(frames):
            end = frames[k + 1] if k + 1 < len(frames) else len(blob)
            entry = subprocess.run([args.zstd, '-d', '-c', '-q'], input=blob[begin:end], capture_output=True).stdout
            code = code_of(entry)
            if not code:
                continue
            raw = os.path.join(args.out, 'code.bin')
            for trim in range(8):
                open(raw, 'wb').write(code[:len(code) - 16 * trim])
                dis = subprocess.run(['nvdisasm', '-b', args.arch, raw], capture_output=True, text=True)
                if dis.returncode == 0:
                    name = os.path.join(args.out, f'pipeline{written}_{len(code) // 16}.sass')
                    open(name, 'w').write(dis.stdout)
                    print(name)
                    written += 1
                    break
            os.remove(raw)
    if written == 0:
        print('no pipeline code found')


if __name__ == '__main__':
    main()
