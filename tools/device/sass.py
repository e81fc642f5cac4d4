#!/usr/bin/env python3
"""The machine code (SASS) of vkprim's pipelines on an NVIDIA GPU, for reading, not for tests.

NVIDIA's Vulkan driver keeps what it compiles in its shader disk cache
(__GL_SHADER_DISK_CACHE_PATH). This script takes such a cache, filled by one vkprim run that
also wrote `--pipeline-stats` JSON lines, and writes one `.sass` file per pipeline, disassembled
by the CUDA toolkit's nvdisasm. `tools/device/bench.sh sass ...` runs it on the GPU machine.

The cache's layout is the driver's and undocumented; what this reads (driver 580) may change:
  - a `.toc` beside each `.bin`: from byte 0x30, 24-byte records (u32 offset of an entry in the
    `.bin`, u32 size, 16-byte hash), ended by a zero record;
  - each entry: a 36-byte header, then one zstd frame up to the next entry;
  - each decompressed entry: a header, then the code, which starts with the first S2R or S2UR
    instruction (at 8 mod 16 in the entry) and runs until nvdisasm finds the data after it.
A pipeline is named by matching its code size to the driver's "Binary Size" statistic in the
JSON lines; several pipelines of one size share their names (joined by '+'); a size within 64
bytes of a statistic takes its names with a '~' (the end of the code is found by trying); any
other keeps the entry's number.

usage: sass.py CACHE_DIR STATS_JSONL OUT_DIR [SM]     (SM: nvdisasm's architecture, default SM90)
"""
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys


def zstd_decompress(data):
    r = subprocess.run(["zstd", "-d", "-c", "-q"], input=data, capture_output=True)
    return r.stdout if r.returncode == 0 else None


def entries(cache_dir):
    """Yields the decompressed entries of every .bin/.toc pair under cache_dir."""
    for toc_path in sorted(glob.glob(os.path.join(cache_dir, "**", "*.toc"), recursive=True)):
        with open(toc_path, "rb") as f:
            toc = f.read()
        with open(toc_path[:-4] + ".bin", "rb") as f:
            data = f.read()
        offsets = []
        for at in range(0x30, len(toc) - 23, 24):
            off, size = struct.unpack_from("<II", toc, at)
            if off == 0 and size == 0:
                break
            offsets.append(off)
        offsets.append(len(data))
        for first, end in zip(offsets, offsets[1:]):
            raw = zstd_decompress(data[first + 36:end])
            if raw:
                yield raw


def code_of(raw):
    """The entry's instructions, from the first S2R or S2UR on."""
    for at in range(0x88, len(raw) - 15, 16):  # instructions sit at 8 mod 16 in an entry
        if struct.unpack_from("<H", raw, at)[0] & 0xFFF in (0x919, 0x9C3):
            return raw[at:]
    return b""


def disassemble(code, sm, scratch):
    """nvdisasm's listing of `code`, cut where the instructions end."""
    code = code[: len(code) // 16 * 16]
    while code:
        with open(scratch, "wb") as f:
            f.write(code)
        r = subprocess.run(["nvdisasm", "-b", sm, scratch], capture_output=True, text=True)
        bad = re.search(r"at address 0x([0-9a-f]+)", r.stderr)
        if r.returncode == 0 and not bad:
            return r.stdout, len(code)
        if not bad or int(bad.group(1), 16) == 0:
            return None, 0
        code = code[: int(bad.group(1), 16)]
    return None, 0


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    cache_dir, stats_path, out_dir = sys.argv[1:4]
    sm = sys.argv[4] if len(sys.argv) > 4 else "SM90"
    for tool in ("nvdisasm", "zstd"):  # the CUDA toolkit's; zstd is carried in .device/bin
        if not shutil.which(tool):
            sys.exit(f"sass.py: {tool} is not on PATH")
    names = {}  # code size -> pipeline names
    with open(stats_path) as f:
        for line in f:
            try:
                j = json.loads(line)
            except ValueError:
                continue
            size = j.get("statistics", {}).get("Binary Size")
            if size is not None:
                # "radix_upsweep_k1 (384 x 9)" -> "radix_upsweep_k1-384x9"
                name = re.sub(r" \((\d+) x (\d+)\)", r"-\1x\2", j["pipeline"])
                names.setdefault(int(size), set()).add(re.sub(r"[^A-Za-z0-9_.x-]+", "_", name))
    os.makedirs(out_dir, exist_ok=True)
    scratch = os.path.join(out_dir, ".code")
    for k, raw in enumerate(entries(cache_dir)):
        listing, size = disassemble(code_of(raw), sm, scratch)
        if listing is None:
            print(f"entry {k}: not disassembled")
            continue
        near = min(names, key=lambda s: abs(s - size), default=None)
        if size in names:
            name = "+".join(sorted(names[size]))
        elif near is not None and abs(near - size) <= 64:  # the cut point is a guess: "~"
            name = "+".join(sorted(names[near])) + "~"
        else:
            name = f"entry{k}"
        if os.path.exists(os.path.join(out_dir, f"{name}.sass")):  # a second entry of one size
            name += f".{k}"
        count = sum(1 for line in listing.splitlines() if re.match(r"\s*/\*[0-9a-f]{4,}\*/", line))
        with open(os.path.join(out_dir, f"{name}.sass"), "w") as f:
            f.write(listing)
        print(f"{name}: {count} instructions, {size} bytes")
    if os.path.exists(scratch):
        os.remove(scratch)


if __name__ == "__main__":
    main()
