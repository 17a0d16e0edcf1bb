// Placeholder until the command-line tool lands in this session; replaced, never shipped.
