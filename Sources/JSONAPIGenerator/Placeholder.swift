// Placeholder until the generator lands in this session; replaced, never shipped.
