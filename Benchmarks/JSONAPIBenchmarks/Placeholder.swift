// Placeholder until the benchmarks land in this session; replaced, never shipped.
